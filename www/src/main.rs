//! The allot playground: edit a scenario, watch the outcome follow, see why. It only translates
//! between the page and allot-core: every number shown is computed by the core.

mod app;
mod doc;
mod editor;
mod field;
mod pager;
mod platform;
mod presets;
#[cfg(test)]
mod properties;
mod share;
mod state;
mod view;

fn main() {
    yew::Renderer::<app::App>::new().render();
}
