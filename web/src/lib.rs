//! JavaScript bindings of allot-core: the npm package `allot`. This crate only translates:
//! scenario documents in (objects or JSON text), outcomes out as JSON text (the package's JS
//! parses them into plain objects), other answers as plain objects, core errors as JS `Error`s
//! carrying a stable `code` and the offending field's `path`. The rules, and the reading of
//! documents, live in allot-core.

use allot_core::error::Error;
use allot_core::quantity;
use allot_core::scenario::{self, Scenario};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Talc instead of Rust's default wasm allocator (dlmalloc): a call allocates and frees tens of
/// thousands of small strings and vectors, which talc serves faster, and its code is smaller.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// The library version.
#[wasm_bindgen]
pub fn version() -> String {
    allot_core::VERSION.into()
}

/// Everything a scenario asks: Karmada estimates and division, or eru capacities, strategy and
/// plans, as the bytes of JSON text. A scenario without a seed gets one drawn here, reported
/// as `seed` with `seedDrawn: true`. Characters beyond ASCII are written as `\uXXXX` escapes,
/// so the text is ASCII.
///
/// The package (`js/api.js`) decodes the bytes: its `scheduleJson` returns the text, to
/// callers that pass it on as text (a response body, a message to a worker, a file) and so
/// skip building the object and writing it back; its `schedule` is `JSON.parse` of the text,
/// as are its `estimate`, `divide`, `capacity` and `deploy` of theirs.
#[wasm_bindgen(js_name = scheduleJson)]
pub fn schedule_json(scenario: JsValue) -> Result<Vec<u8>, JsValue> {
    answer(scenario, |s, seed| text(scenario::schedule(s, seed)))
}

/// Karmada: every cluster's estimates (general, accurate) and the combined figure, as JSON
/// text's bytes.
#[wasm_bindgen]
pub fn estimate(scenario: JsValue) -> Result<Vec<u8>, JsValue> {
    answer(scenario, |s, _| text(scenario::estimate(s)))
}

/// Karmada: the division alone, with each cluster's `availableReplicas` as stated, as JSON
/// text's bytes.
#[wasm_bindgen]
pub fn divide(scenario: JsValue) -> Result<Vec<u8>, JsValue> {
    answer(scenario, |s, seed| text(scenario::divide(s, seed)))
}

/// eru: each node's capacity for the workload, and why, as JSON text's bytes.
#[wasm_bindgen]
pub fn capacity(scenario: JsValue) -> Result<Vec<u8>, JsValue> {
    answer(scenario, |s, _| text(scenario::capacity(s)))
}

/// eru: capacities, the strategy's deploy map and the plans of the new instances, as JSON
/// text's bytes.
#[wasm_bindgen]
pub fn deploy(scenario: JsValue) -> Result<Vec<u8>, JsValue> {
    answer(scenario, |s, seed| text(scenario::deploy(s, seed)))
}

/// Check customized resource models against Karmada's rules. Returns the problem found
/// (`{code, path, message}`, as Karmada reports the first) or `null` when they are valid.
#[wasm_bindgen(js_name = validateResourceModels)]
pub fn validate_resource_models(models: JsValue) -> Result<JsValue, JsValue> {
    let models: Vec<allot_core::estimate::models::ResourceModel> = from_js(models)?;
    match allot_core::estimate::models::validate_list(&models) {
        Ok(()) => Ok(JsValue::NULL),
        // Paths index the array given: `[4].ranges[1].min`.
        Err(e) => to_js(&e),
    }
}

/// Read a Kubernetes quantity for `resource` (default `cpu`): `parseQuantity("1.5", "cpu")` is
/// 1500 millicores; `parseQuantity("16Gi", "memory")` 17179869184 bytes.
#[wasm_bindgen(js_name = parseQuantity)]
pub fn parse_quantity(text: &str, resource: Option<String>) -> Result<JsValue, JsValue> {
    let resource = resource.unwrap_or_else(|| "cpu".into());
    to_js(&quantity::read(text, &resource).map_err(to_error)?)
}

/// A seed for scenarios without one: 53 random bits, so JS numbers hold it exactly.
fn draw_seed() -> u64 {
    // Without a source of randomness (never in browsers or Node 20) the seed is 0.
    allot_core::rng::js_safe_seed(getrandom::u64().unwrap_or(0))
}

/// A document from a JS value: JSON text as is, anything else through `JSON.stringify`.
/// Objects with lists beyond the documented limits fail before any work.
///
/// Documents cross into wasm as one JSON string and outcomes come back as one (see
/// [`text`]): allot-core's own JSON reader and writer, compiled once, rather than
/// serde-wasm-bindgen's per-field conversions, keep the module small and read large scenarios
/// faster; and the reader locates every error with its code and path, which
/// serde-wasm-bindgen's errors cannot carry. So `validateResourceModels` reads its list
/// this way too, and answers with serde-wasm-bindgen ([`to_js`]).
fn text_of(value: &JsValue) -> Result<String, JsValue> {
    if let Some(text) = value.dyn_ref::<js_sys::JsString>() {
        return Ok(utf8(text));
    }
    for key in ["clusters", "nodes"] {
        let list = js_sys::Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED);
        if js_sys::Array::is_array(&list) {
            let len = js_sys::Array::from(&list).length() as usize;
            if len > allot_core::error::MAX_TARGETS {
                return Err(to_error(Error::TooLarge {
                    field: key.into(),
                    limit: allot_core::error::MAX_TARGETS as u64,
                }));
            }
        }
    }
    js_sys::JSON::stringify(value)
        .ok()
        .map(|text| utf8(&text))
        .ok_or_else(|| {
            coded_error(
                "invalid_input",
                "",
                "expected a document: an object or JSON text that JSON.stringify can write",
            )
        })
}

/// Read a scenario, run `call` with it and the seed to use when it has none (drawn only then),
/// and hand back the outcome's text. One function for every call, so the module holds one copy
/// of the reading and answering glue.
#[inline(never)]
fn answer(
    value: JsValue,
    call: fn(&Scenario, u64) -> Result<Vec<u8>, JsValue>,
) -> Result<Vec<u8>, JsValue> {
    let s: Scenario = from_js(value)?;
    let seed = if s.seed.is_none() { draw_seed() } else { 0 };
    call(&s, seed)
}

/// An outcome as the bytes of its JSON text, 7-bit ASCII: `js/api.js` decodes them (in Node
/// with `Buffer`'s latin1 copy, an order of magnitude faster than `TextDecoder`, which
/// wasm-bindgen's own string return uses).
fn text<T: Serialize>(outcome: allot_core::Result<T>) -> Result<Vec<u8>, JsValue> {
    allot_core::json::to_json_bytes(&outcome.map_err(to_error)?).map_err(internal)
}

fn internal(e: allot_core::json::WriteError) -> JsValue {
    coded_error("internal", "", &e.to_string())
}

fn from_js<T: serde::de::DeserializeOwned>(value: JsValue) -> Result<T, JsValue> {
    scenario::from_json(&text_of(&value)?).map_err(to_error)
}

/// A small answer as a plain JS object, built field by field by serde-wasm-bindgen (maps as
/// objects, absent values as `null`, integers as numbers): for answers of a few fields the
/// direct conversion is the natural one; outcomes, which run to megabytes, cross as JSON text
/// instead (see [`text`]).
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| coded_error("internal", "", &e.to_string()))
}

#[wasm_bindgen]
extern "C" {
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method)]
    fn encode(this: &TextEncoder, text: &js_sys::JsString) -> js_sys::Uint8Array;
}

/// A JS string as Rust text. `TextEncoder` writes the bytes natively and they are copied into
/// the module in one piece: wasm-bindgen's own string passing walks the string in JS, which
/// took 8% of a call on a 4.7 MB scenario.
fn utf8(text: &js_sys::JsString) -> String {
    let bytes = TextEncoder::new().encode(text).to_vec();
    // SAFETY: `TextEncoder.encode` always returns UTF-8 (the Encoding Standard writes lone
    // surrogates as U+FFFD), so checking it again (2% of a call on large scenarios) is skipped.
    unsafe { String::from_utf8_unchecked(bytes) }
}

fn to_error(error: Error) -> JsValue {
    coded_error(
        error.code().as_str(),
        &error.field().text(),
        &error.to_string(),
    )
}

/// A JS `Error` with `code` and `path` properties.
fn coded_error(code: &str, path: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &"code".into(), &code.into());
    let _ = js_sys::Reflect::set(&error, &"path".into(), &path.into());
    error.into()
}
