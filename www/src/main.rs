//! The allot playground: edit a scenario, watch the outcome follow, see why. It only translates
//! between the page and allot-core: every number shown is computed by the core.

mod app;
mod editor;
mod field;
mod pager;
mod platform;
mod presets;
#[cfg(test)]
mod properties;
mod state;
mod view;

use allot_www::{doc, share, text};

fn main() {
    yew::Renderer::<app::App>::new().render();
}
