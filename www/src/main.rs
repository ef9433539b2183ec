//! The allot playground: edit a scenario, watch the outcome follow, see why. It only translates
//! between the page and allot-core: every number shown is computed by the core.

mod app;
mod editor;
mod field;
mod history;
mod hooks;
mod presets;
mod problems;
#[cfg(test)]
mod properties;
mod run;
mod state;
mod tabs;
mod view;

use allot_www::mounted::Mounted;
use allot_www::{doc, pager, platform, share, text};

use std::rc::Rc;

use wasm_bindgen::prelude::*;

/// The playground's page: it says "Loading…" (`#loading`) until the module runs, and from
/// here on the app speaks. Loaded by an `<allot-playground>` element instead (a page without
/// `#loading`), the module waits for [`mount`]. The fleet view is a module of its own
/// (`allot-fleet`), which the page's `boot.js` loads instead of this one for `?view=fleet` or a
/// fleet's share link.
fn main() {
    if platform::take_loading() {
        yew::Renderer::<app::App>::new().render();
    }
}

/// Render the embedded view into `root` (an element inside a widget's shadow root): from the
/// preset `preset`, else the scenario document `scenario` (JSON text), with the editors named
/// in `editors` (`"replicas weights"`; none given: the replicas alone). `package` is the URL of
/// the package's directory, where the `allot/kubernetes` module is loaded from when a field
/// holds YAML; `playground` the playground's address for the "open in the allot playground"
/// link and the Kubernetes editor's example manifests (none: no link); `on_change` is called with the scenario's JSON text when the view
/// starts and after every edit. An unknown editor name is an error, with the names there are.
#[wasm_bindgen]
pub fn mount(
    root: web_sys::Element,
    preset: Option<String>,
    scenario: Option<String>,
    editors: Option<String>,
    package: Option<String>,
    playground: Option<String>,
    on_change: Option<js_sys::Function>,
) -> Result<Mounted, JsError> {
    let editors = match editors {
        Some(list) => editor::named::parse(&list).map_err(|e| JsError::new(&e))?,
        None => editor::named::DEFAULT.to_vec(),
    };
    let start = match (preset, scenario) {
        (Some(id), _) => app::Start::Preset(id),
        (None, Some(text)) => app::Start::Scenario(text),
        (None, None) => app::Start::Preset(presets::DEFAULT.to_string()),
    };
    platform::set_package(package);
    let widget = app::Widget {
        start,
        editors,
        playground,
        on_change,
    };
    let props = app::AppProps {
        widget: Some(Rc::new(widget)),
    };
    let app = yew::Renderer::<app::App>::with_root_and_props(root, props).render();
    Ok(Mounted::new(app))
}
