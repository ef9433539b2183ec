//! The browser around the page: the URL's query and fragment, localStorage, downloads, the
//! clipboard, and files and modules fetched from the playground's site. Every call tolerates
//! their absence (private windows, sandboxed iframes): the page still works, it only forgets.

use wasm_bindgen::{JsCast, JsValue};

/// Where the playground keeps the last scenario.
const AUTOSAVE_KEY: &str = "allot.playground.scenario.v1";

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// On the playground's own page, which says "Loading…" (`#loading`) until a module runs: take
/// that notice away and say so. False in a page an `<allot-playground>` element loaded the
/// module into.
pub fn take_loading() -> bool {
    let loading = window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("loading"));
    if let Some(l) = &loading {
        l.remove();
    }
    loading.is_some()
}

/// The URL's fragment, with its `#` (`""` if none).
pub fn fragment() -> String {
    window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The query parameters of the page's address.
fn params() -> Option<web_sys::UrlSearchParams> {
    let search = window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search).ok()
}

/// Whether the page is the compact embedded view: `?embed` (with a value or not) or
/// `embed.html`.
pub fn embedded() -> bool {
    let path = window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_default();
    params().is_some_and(|p| p.has("embed")) || path.ends_with("/embed.html")
}

/// The value of the query parameter `name` (`?embed&editors=replicas,weights`), decoded.
pub fn query(name: &str) -> Option<String> {
    params()?.get(name)
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

/// Where the Kubernetes tab leaves the objects it opens in the fleet view (`?view=fleet`, an
/// app of its own): the tab's session storage, read once.
const FLEET_DUMP_KEY: &str = "allot-fleet-dump";

/// Open `text` (a control plane's objects) in the fleet view: kept in the tab's session storage
/// for the fleet's page, which this page becomes. An error when the browser cannot keep it
/// (storage off, or the text past its quota, about 5 MB).
pub fn open_in_fleet(text: &str) -> Result<(), String> {
    let w = window().ok_or("no window")?;
    let kept = w
        .session_storage()
        .ok()
        .flatten()
        .map(|s| s.set_item(FLEET_DUMP_KEY, text));
    if !matches!(kept, Some(Ok(()))) {
        return Err(
            "the browser cannot keep these objects for the fleet view (too large, or \
                    storage is off): save them as a file and open it there"
                .into(),
        );
    }
    w.location()
        .set_href("./?view=fleet")
        .map_err(|_| "cannot open the fleet view".into())
}

/// The objects the Kubernetes tab left for the fleet view, taken (once).
pub fn take_fleet_dump() -> Option<String> {
    let s = window()?.session_storage().ok().flatten()?;
    let text = s.get_item(FLEET_DUMP_KEY).ok().flatten()?;
    let _ = s.remove_item(FLEET_DUMP_KEY);
    Some(text)
}

thread_local! {
    /// Where the npm package's modules are, when the app runs as its `<allot-playground>`
    /// element; `None` on the playground's own page, which serves them under `pkg/`. One
    /// module serves every widget of a page, so this is the same for all of them.
    static PACKAGE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Say where a widget's package modules are (its own directory).
pub fn set_package(package: Option<String>) {
    PACKAGE.with(|p| *p.borrow_mut() = package);
}

/// Where the playground serves its files: `None` beside the page (the playground's own page),
/// or the playground's address an embedded view was given. Each widget has its own.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Site(pub Option<String>);

/// `path` resolved against `base`, or against the page's own address when there is none.
fn resolve(path: &str, base: Option<String>) -> Result<String, String> {
    let base = base
        .or_else(|| window()?.document()?.base_uri().ok().flatten())
        .unwrap_or_default();
    web_sys::Url::new_with_base(path, &base)
        .map(|u| u.href())
        .map_err(|_| format!("cannot locate {path}"))
}

/// The URL of the package's module `file` (`kubernetes.js`): beside the widget's module, or
/// under `pkg/` beside the page.
pub fn package_file(file: &str) -> Result<String, String> {
    match PACKAGE.with(|p| p.borrow().clone()) {
        Some(dir) => resolve(file, Some(dir)),
        None => resolve(&format!("pkg/{file}"), None),
    }
}

impl Site {
    /// The URL of a file the playground serves (`manifests/...`).
    pub fn file(&self, path: &str) -> Result<String, String> {
        resolve(path, self.0.clone())
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

/// Where an element of the app is looked up: the page, or the shadow root of the
/// `<allot-playground>` widget the user is working in (several may share a page, each with the
/// same ids inside).
enum Scope {
    Page(web_sys::Document),
    Widget(web_sys::ShadowRoot),
}

impl Scope {
    /// The scope of the element with focus: an event handler's, since the element clicked or
    /// typed in has it.
    fn focused() -> Option<Scope> {
        let document = window()?.document()?;
        let mut active = document.active_element();
        let mut widget = None;
        while let Some(shadow) = active.as_ref().and_then(web_sys::Element::shadow_root) {
            active = shadow.active_element();
            widget = Some(shadow);
        }
        Some(widget.map_or(Scope::Page(document), Scope::Widget))
    }

    fn query(&self, selector: &str) -> Option<web_sys::Element> {
        match self {
            Scope::Page(d) => d.query_selector(selector),
            Scope::Widget(r) => r.query_selector(selector),
        }
        .ok()
        .flatten()
    }
}

/// Mark the element `id` as having copied (`data-copied`, which the style shows as "copied ✓")
/// for two seconds.
pub fn mark_copied(id: &'static str) {
    let Some(element) = Scope::focused().and_then(|s| s.query(&format!("#{id}"))) else {
        return;
    };
    let _ = element.set_attribute("data-copied", "");
    gloo_timers::callback::Timeout::new(2000, move || {
        let _ = element.remove_attribute("data-copied");
    })
    .forget();
}

/// After the page has rendered, focus the first element matching one of `selectors` (tried in
/// order): where focus goes after a row is added or removed. Called from an event handler, it
/// looks where that event happened.
pub fn focus_after_render(selectors: Vec<String>) {
    let Some(scope) = Scope::focused() else {
        return;
    };
    gloo_timers::callback::Timeout::new(0, move || {
        let found = selectors.iter().find_map(|s| scope.query(s));
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

// The browser's `import()` and `fetch`, reached through a module of the package's own (no
// code made from text): pages whose Content-Security-Policy forbids `unsafe-eval`, as
// many documentation sites' do, load the Kubernetes module too.
#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "
export function importModule(url) { return import(url); }
export function fetchText(url) {
  return fetch(url).then((r) => (r.ok ? r.text() : Promise.reject(new Error(r.status))));
}
")]
extern "C" {
    #[wasm_bindgen(js_name = importModule, catch)]
    fn import_url(url: &str) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_name = fetchText, catch)]
    fn fetch_url(url: &str) -> Result<js_sys::Promise, JsValue>;
}

/// Await what `start` promises for `url`.
async fn promised(
    start: fn(&str) -> Result<js_sys::Promise, JsValue>,
    url: String,
) -> Result<JsValue, String> {
    let promise = start(&url).map_err(|e| format!("{url}: {e:?}"))?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|e| format!("cannot load {url}: {e:?}"))
}

/// The JavaScript module at `url`, imported.
pub async fn import_module(url: String) -> Result<JsValue, String> {
    promised(import_url, url).await
}

/// The text of a file the playground serves.
pub async fn fetch_text(site: &Site, path: &str) -> Result<String, String> {
    Ok(promised(fetch_url, site.file(path)?)
        .await?
        .as_string()
        .unwrap_or_default())
}
