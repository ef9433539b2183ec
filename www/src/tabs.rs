//! A tab list as WAI-ARIA's tabs pattern has it (docs/playground.md): each tab controls one
//! panel, only the selected tab is in the Tab order, and the arrow keys, Home and End move
//! between tabs. The editors' tabs and the results' tabs are both made here.

use yew::prelude::*;

use crate::platform;

/// One tab: its id suffix (`tab-{id}`) and its label.
pub type TabSpec = (&'static str, &'static str);

/// The tab list; `panel` is the id of the panel the tabs control.
pub fn tablist(
    label: &'static str,
    panel: &'static str,
    tabs: &[TabSpec],
    selected: usize,
    select: Callback<usize>,
) -> Html {
    let ids: Vec<&'static str> = tabs.iter().map(|(id, _)| *id).collect();
    let onkeydown = {
        let (select, ids) = (select.clone(), ids.clone());
        Callback::from(move |e: KeyboardEvent| {
            let last = ids.len().saturating_sub(1);
            let to = match e.key().as_str() {
                "ArrowRight" => (selected + 1).min(last),
                "ArrowLeft" => selected.saturating_sub(1),
                "Home" => 0,
                "End" => last,
                _ => return,
            };
            e.prevent_default();
            select.emit(to);
            platform::focus_after_render(vec![format!("#tab-{}", ids[to])]);
        })
    };
    html! {
        <div class="tabs" role="tablist" aria-label={label} {onkeydown}>
            { for tabs.iter().enumerate().map(|(i, (id, text))| {
                let select = select.clone();
                let on = i == selected;
                html! {
                    <button type="button" role="tab" id={format!("tab-{id}")} aria-selected={on.to_string()}
                            aria-controls={panel} tabindex={if on { "0" } else { "-1" }}
                            onclick={Callback::from(move |_| select.emit(i))}>{ *text }</button>
                }
            }) }
        </div>
    }
}
