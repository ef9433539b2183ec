//! The browser around the page: the URL's query and fragment, localStorage, downloads and the
//! clipboard. Every call tolerates their absence (private windows, sandboxed iframes): the page
//! still works, it only forgets.

use wasm_bindgen::{JsCast, JsValue};

/// Where the playground keeps the last scenario.
const AUTOSAVE_KEY: &str = "allot.playground.scenario.v1";

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The URL's fragment, with its `#` (`""` if none).
pub fn fragment() -> String {
    window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Whether the page is the compact embedded view: `?embed` or `embed.html`.
pub fn embedded() -> bool {
    let Some(location) = window().map(|w| w.location()) else {
        return false;
    };
    let query = location.search().unwrap_or_default();
    let path = location.pathname().unwrap_or_default();
    query
        .trim_start_matches('?')
        .split('&')
        .any(|p| p == "embed" || p.starts_with("embed="))
        || path.ends_with("/embed.html")
}

/// The page's address without its fragment and without `embed`.
pub fn playground_url() -> String {
    let Some(location) = window().map(|w| w.location()) else {
        return String::new();
    };
    let path = location
        .pathname()
        .unwrap_or_default()
        .replace("embed.html", "");
    format!("{}{}", location.origin().unwrap_or_default(), path)
}

/// Replace the fragment without a new history entry (`""` removes it).
pub fn set_fragment(fragment: &str) {
    let Some(w) = window() else { return };
    let path = w.location().pathname().unwrap_or_default();
    let search = w.location().search().unwrap_or_default();
    let url = format!("{path}{search}{fragment}");
    if let Ok(history) = w.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

fn storage() -> Option<web_sys::Storage> {
    window().and_then(|w| w.local_storage().ok().flatten())
}

pub fn load_autosave() -> Option<String> {
    storage().and_then(|s| s.get_item(AUTOSAVE_KEY).ok().flatten())
}

pub fn autosave(text: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(AUTOSAVE_KEY, text);
    }
}

/// Offer `text` as a file download.
pub fn download(name: &str, text: &str) {
    let Some(document) = window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(a) = document
        .create_element("a")
        .ok()
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Put `text` on the clipboard (best effort: the page also shows it).
pub fn copy(text: &str) {
    if let Some(w) = window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

/// Mark the element `id` as having copied (`data-copied`, which the style shows as "copied ✓")
/// for two seconds.
pub fn mark_copied(id: &'static str) {
    let element = || window()?.document()?.get_element_by_id(id);
    if let Some(e) = element() {
        let _ = e.set_attribute("data-copied", "");
    }
    gloo_timers::callback::Timeout::new(2000, move || {
        if let Some(e) = element() {
            let _ = e.remove_attribute("data-copied");
        }
    })
    .forget();
}

/// After the page has rendered, focus the first element matching one of `selectors` (tried in
/// order): where focus goes after a row is added or removed.
pub fn focus_after_render(selectors: Vec<String>) {
    gloo_timers::callback::Timeout::new(0, move || {
        let Some(document) = window().and_then(|w| w.document()) else {
            return;
        };
        let found = selectors
            .iter()
            .find_map(|s| document.query_selector(s).ok().flatten());
        if let Some(element) = found.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = element.focus();
        }
    })
    .forget();
}

/// Call `handle` on every key pressed anywhere in the page, for as long as the returned guard
/// lives.
pub fn on_keydown(handle: impl Fn(&web_sys::KeyboardEvent) + 'static) -> Option<KeyListener> {
    let target: web_sys::EventTarget = window()?.into();
    let closure = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(
        move |e: web_sys::KeyboardEvent| handle(&e),
    );
    target
        .add_event_listener_with_callback("keydown", closure.as_ref().unchecked_ref())
        .ok()?;
    Some(KeyListener { target, closure })
}

/// A key listener; dropping it removes it.
pub struct KeyListener {
    target: web_sys::EventTarget,
    closure: wasm_bindgen::closure::Closure<dyn Fn(web_sys::KeyboardEvent)>,
}

impl Drop for KeyListener {
    fn drop(&mut self) {
        let _ = self
            .target
            .remove_event_listener_with_callback("keydown", self.closure.as_ref().unchecked_ref());
    }
}

/// A CSS attribute selector for a `data-path` (paths hold `[`, `]` and `.`, so it is quoted).
pub fn by_path(path: &str) -> String {
    format!("[data-path=\"{path}\"]:is(input, select, textarea)")
}
