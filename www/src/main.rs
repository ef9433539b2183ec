//! The allot playground: edit a scenario, watch the outcome follow, see why. It only translates
//! between the page and allot-core: every number shown is computed by the core.

mod app;
mod editor;
mod field;
mod history;
mod pager;
mod platform;
mod presets;
#[cfg(test)]
mod properties;
mod state;
mod tabs;
mod view;

use allot_www::{doc, share, text};

fn main() {
    // The page says "Loading…" until the module runs; from here on the app speaks.
    if let Some(loading) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("loading"))
    {
        loading.remove();
    }
    yew::Renderer::<app::App>::new().render();
}
