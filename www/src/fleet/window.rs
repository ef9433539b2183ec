//! A long list rendered a window at a time: of rows of one height in a scroll container, only
//! those on screen and a few either side (the overscan) are in the page; two spacers stand for
//! the rest, so the scroll bar keeps the whole list's length. The fleet view's workload list
//! (10,000 bindings and their group headings), its member clusters and its map are drawn this
//! way, so a re-render or a scroll costs the same whatever the fleet's size.

use std::ops::Range;

use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Rows rendered beyond each edge of the container: Tab moves the focus onto a rendered row,
/// which scrolls it into view, which renders the rows past it.
pub const OVERSCAN: usize = 6;

/// A row's height before one is measured (the stylesheet's, at the default font size), px.
const ROW: f64 = 36.0;
/// The container's height before it is measured, px.
const HEIGHT: f64 = 600.0;

/// What a scroll container shows: its scroll offset and height, and a row's height, in px.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    pub top: f64,
    pub height: f64,
    pub row: f64,
}

/// The rows to render, and the spacers' heights above and below them, in px.
#[derive(Debug, Clone, PartialEq)]
pub struct Slice {
    pub rows: Range<usize>,
    pub above: f64,
    pub below: f64,
}

impl View {
    /// The rows of a list of `len` on screen in this view, with `overscan` more each side. A
    /// view scrolled past the end (the list just shrank) shows the list's last screenful.
    pub fn slice(&self, len: usize, overscan: usize) -> Slice {
        // NaN and negatives read as nothing scrolled and no height; a row of no height as one
        // pixel, so that the division below is finite.
        let row = if self.row >= 1.0 { self.row } else { 1.0 };
        let top = if self.top > 0.0 { self.top } else { 0.0 };
        let height = if self.height > 0.0 { self.height } else { 0.0 };
        // `as usize` saturates: an offset of 1e300 px is the end, not a wrap.
        let shown = (height / row).ceil() as usize;
        let first = ((top / row).floor() as usize).min(len.saturating_sub(shown));
        let last = ((top + height) / row).ceil() as usize;
        let start = first.saturating_sub(overscan).min(len);
        let end = last.saturating_add(overscan).clamp(start, len);
        Slice {
            rows: start..end,
            above: start as f64 * row,
            below: (len - end) as f64 * row,
        }
    }
}

/// The scroll container `node`'s offset and height now, `was`'s row height kept.
fn scrolled(node: &NodeRef, was: View) -> Option<View> {
    let el = node.cast::<web_sys::Element>()?;
    Some(View {
        top: f64::from(el.scroll_top()),
        height: f64::from(el.client_height()),
        row: was.row,
    })
}

/// The view of the scroll container `node` now, its row height measured: rows are its
/// descendants marked `data-row` with their index; their height is the distance between the
/// first and last rendered, which counts whatever the stylesheet puts between rows.
fn measure(node: &NodeRef, was: View) -> Option<View> {
    let el = node.cast::<web_sys::Element>()?;
    let rows = el.query_selector_all("[data-row]").ok()?;
    let at = |k: u32| -> Option<(f64, f64)> {
        let r = rows.item(k)?.dyn_into::<web_sys::Element>().ok()?;
        // An index read as an integer: a float parser would add its code to the module.
        let index = f64::from(r.get_attribute("data-row")?.parse::<u32>().ok()?);
        Some((index, r.get_bounding_client_rect().top()))
    };
    let n = rows.length();
    let row = match (n > 1).then(|| at(0).zip(at(n - 1))).flatten() {
        Some(((i, a), (j, b))) if j > i && b > a => (b - a) / (j - i),
        _ => was.row,
    };
    Some(View {
        top: f64::from(el.scroll_top()),
        height: f64::from(el.client_height()),
        row,
    })
}

/// A window over a list of `len` rows: the rows to render now, the container's node (give it
/// `ref`), and its scroll handler (give it `onscroll`). The page re-renders only when the
/// scroll brings another row into the window.
#[hook]
pub fn use_window(len: usize) -> (Slice, NodeRef, Callback<Event>) {
    let node = use_node_ref();
    let view = use_state(|| View {
        top: 0.0,
        height: HEIGHT,
        row: ROW,
    });
    let slice = view.slice(len, OVERSCAN);
    // After each render: the container's height and the rows' (a narrow layout's are taller;
    // the scroll offset is the scroll handler's to follow).
    {
        let (node, view) = (node.clone(), view.clone());
        use_effect(move || {
            if let Some(now) = measure(&node, *view) {
                if now.row != view.row || now.height != view.height {
                    view.set(now);
                }
            }
        });
    }
    // On a scroll, a render only when another row comes into the window.
    let on_scroll = {
        let (node, view, slice) = (node.clone(), view.clone(), slice.clone());
        Callback::from(move |_: Event| {
            if let Some(now) = scrolled(&node, *view) {
                if now.slice(len, OVERSCAN) != slice {
                    view.set(now);
                }
            }
        })
    };
    (slice, node, on_scroll)
}

/// A windowed table's body: a spacer row, the rows of `slice` (each keyed), a spacer row. The
/// spacers are keyed too, so that a scroll keeps the rows still in the window as they are (a
/// control there keeps the focus) and adds or drops only the others. `columns`: the table's.
pub fn body(slice: &Slice, columns: usize, rows: impl Iterator<Item = Html>) -> Html {
    framed(slice, rows, |key, height| {
        html! {
            <tr {key} class="spacer" aria-hidden="true">
                <td colspan={columns.to_string()} style={height}></td>
            </tr>
        }
    })
}

/// A windowed list's items (`<ul>`): as [`body`], the spacers list items.
pub fn items(slice: &Slice, rows: impl Iterator<Item = Html>) -> Html {
    framed(slice, rows, |key, height| {
        html! { <li {key} class="spacer" aria-hidden="true" style={height}></li> }
    })
}

/// The rows between two spacers made by `spacer(key, style)`.
fn framed(
    slice: &Slice,
    rows: impl Iterator<Item = Html>,
    spacer: impl Fn(&'static str, String) -> Html,
) -> Html {
    // Keys no row has: a Kubernetes name has no space. The height with a fixed precision, as
    // the page's other numbers are formatted (the shortest form's code is not in the module).
    let height = |px: f64| format!("height:{px:.1}px");
    std::iter::once(spacer("spacer above", height(slice.above)))
        .chain(rows)
        .chain(std::iter::once(spacer("spacer below", height(slice.below))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn view(top: f64, height: f64, row: f64) -> View {
        View { top, height, row }
    }

    #[test]
    fn the_rows_on_screen_and_the_overscan() {
        // 600 px of 30 px rows scrolled to 3,000 px: rows 100–119 on screen.
        let s = view(3000.0, 600.0, 30.0).slice(10_000, 5);
        assert_eq!(s.rows, 95..125);
        assert_eq!(s.above, 95.0 * 30.0);
        assert_eq!(s.below, (10_000.0 - 125.0) * 30.0);
        // At the top, nothing above; a part row at the bottom counts.
        let s = view(0.0, 610.0, 30.0).slice(10_000, 5);
        assert_eq!(s.rows, 0..26);
        assert_eq!(s.above, 0.0);
    }

    #[test]
    fn a_short_list_is_all_rendered_and_a_list_that_shrank_shows_its_end() {
        assert_eq!(view(0.0, 600.0, 30.0).slice(7, 5).rows, 0..7);
        assert_eq!(view(0.0, 600.0, 30.0).slice(0, 5).rows, 0..0);
        // Scrolled to row 9,000, then filtered down to 50 rows: the last screenful.
        let s = view(270_000.0, 600.0, 30.0).slice(50, 5);
        assert_eq!(s.rows, 25..50);
        assert_eq!(s.below, 0.0);
    }

    #[test]
    fn measurements_out_of_range_render_from_the_top() {
        for v in [
            view(f64::NAN, f64::NAN, f64::NAN),
            view(-50.0, -1.0, 0.0),
            view(f64::NEG_INFINITY, 0.0, -3.0),
        ] {
            let s = v.slice(100, 2);
            assert_eq!(s.rows.start, 0, "{v:?}");
            assert!(s.above == 0.0 && s.below.is_finite(), "{v:?}");
        }
        let s = view(f64::INFINITY, f64::INFINITY, 30.0).slice(100, 2);
        assert_eq!(s.rows.end, 100);
    }

    proptest! {
        /// The rendered rows are within the list, cover every row on screen, and with the
        /// spacers add up to the whole list's height.
        #[test]
        fn the_window_covers_the_screen_and_keeps_the_length(
            len in 0usize..20_000, top in 0.0f64..1e6, height in 0.0f64..3000.0,
            row in 1.0f64..100.0, overscan in 0usize..20,
        ) {
            let s = view(top, height, row).slice(len, overscan);
            prop_assert!(s.rows.start <= s.rows.end && s.rows.end <= len);
            let total = s.above + (s.rows.len() as f64) * row + s.below;
            prop_assert!((total - len as f64 * row).abs() < 1e-6 * (1.0 + len as f64 * row));
            // Every row that meets the screen (the list's end when scrolled past it) is in.
            let top = top.min(((len as f64) * row - height).max(0.0));
            let first = (top / row).floor() as usize;
            let last = (((top + height) / row).ceil() as usize).min(len);
            if first < last {
                prop_assert!(s.rows.start <= first && last <= s.rows.end, "{:?} {first}..{last}", s.rows);
            }
            prop_assert!(s.rows.len() <= (height / row).ceil() as usize + 2 * overscan + 1);
        }
    }
}
