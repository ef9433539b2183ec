//! A view mounted in an `<allot-playground>` element's shadow root, as the element holds it
//! until it takes the view out: the playground's (`mount`) or the fleet view's (`mountFleet`).

use wasm_bindgen::prelude::*;
use yew::BaseComponent;

/// A mounted embedded view.
#[wasm_bindgen]
pub struct Mounted {
    destroy: Option<Box<dyn FnOnce()>>,
}

impl Mounted {
    /// The view Yew rendered as `app`.
    pub fn new<C: BaseComponent>(app: yew::AppHandle<C>) -> Mounted {
        Mounted {
            destroy: Some(Box::new(move || app.destroy())),
        }
    }
}

#[wasm_bindgen]
impl Mounted {
    /// Take the view out of its element (once; later calls do nothing).
    pub fn unmount(&mut self) {
        if let Some(destroy) = self.destroy.take() {
            destroy();
        }
    }
}
