//! The allot playground's fleet view as an app of its own (`allot-fleet`): a control plane's
//! dump, every member cluster and workload, and events with their plans (docs/rules/fleet.md
//! §30). A module apart from the scenario playground (`allot-www`), so that neither page nor
//! widget downloads the other's code: the playground's page loads it for `?view=fleet` or a
//! fleet's share link, an `<allot-playground fleet="...">` element for its example fleet.

mod fleet;

use allot_www::mounted::Mounted;
use allot_www::{pager, platform, share, text};

use wasm_bindgen::prelude::*;

/// The playground's page at `?view=fleet`: it says "Loading…" (`#loading`) until the module
/// runs, and from here on the fleet view speaks. Loaded by an `<allot-playground>` element
/// instead (a page without `#loading`), the module waits for [`mount_fleet`].
fn main() {
    if platform::take_loading() {
        yew::Renderer::<fleet::FleetPage>::new().render();
    }
}

/// Render the fleet view into `root` (an element inside a widget's shadow root), the example
/// fleet `example` loaded (docs/manifests: `fleet-shop`), its events planned in a Web Worker
/// started from `package` (the package's directory); `playground` serves the example.
#[wasm_bindgen(js_name = mountFleet)]
pub fn mount_fleet(
    root: web_sys::Element,
    example: String,
    package: Option<String>,
    playground: Option<String>,
) -> Mounted {
    platform::set_package(package);
    let props = fleet::FleetProps {
        example: Some(example),
        embedded: true,
        site: platform::Site(playground),
    };
    let app = yew::Renderer::<fleet::FleetView>::with_root_and_props(root, props).render();
    Mounted::new(app)
}
