//! Long lists in pages: a thousand clusters stay editable without the browser laying out a
//! thousand rows on every keystroke. Up to [`PAGE`] rows show at once, with previous/next.

use std::ops::Range;

use yew::prelude::*;

/// Rows per page.
pub const PAGE: usize = 100;

/// The rows of the current page, and the controls (empty when everything fits one page).
/// `noun` names one row (`cluster`); the controls say `clusters 1–100 of 1000`.
#[hook]
pub fn use_pager(len: usize, noun: &'static str) -> (Range<usize>, Html) {
    let page = use_state(|| 0usize);
    if len <= PAGE {
        return (0..len, Html::default());
    }
    let last = (len - 1) / PAGE;
    let current = (*page).min(last);
    let start = current * PAGE;
    let end = (start + PAGE).min(len);
    let go = |to: usize| {
        let page = page.clone();
        Callback::from(move |_| page.set(to))
    };
    let controls = html! {
        <div class="pager" role="navigation" aria-label={format!("{noun} pages")}>
            <button type="button" class="prev" disabled={current == 0}
                    onclick={go(current.saturating_sub(1))}>{ "‹ previous" }</button>
            <span>{ format!("{noun}s {}–{end} of {len}", start + 1) }</span>
            <button type="button" class="next" disabled={current == last}
                    onclick={go((current + 1).min(last))}>{ "next ›" }</button>
        </div>
    };
    (start..end, controls)
}
