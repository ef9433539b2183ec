//! The package's exports over allot-core: scenario documents in (objects or JSON text),
//! outcomes out as JSON text (the package's JS parses them into plain objects), other answers
//! as plain objects, core errors as JS `Error`s carrying a stable `code` and the offending
//! field's `path`.

use allot_core::error::Error;
use allot_core::path::{Path, Step};
use allot_core::quantity;
use allot_core::scenario::{self, Scenario};
use serde::Serialize;
use wasm_bindgen::prelude::*;

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
/// as are its `estimate`, `divide`, `filter`, `select`, `capacity` and `deploy` of theirs.
#[wasm_bindgen(js_name = scheduleJson)]
pub fn schedule_json(scenario: JsValue) -> Result<Text, JsValue> {
    answer(scenario, |s, seed| text(scenario::schedule(s, seed)))
}

/// Karmada: every cluster's estimates (general, accurate) and the combined figure, as JSON
/// text's bytes.
#[wasm_bindgen]
pub fn estimate(scenario: JsValue) -> Result<Text, JsValue> {
    answer(scenario, |s, _| text(scenario::estimate(s)))
}

/// Karmada: the division alone, with each cluster's `availableReplicas` as stated, as JSON
/// text's bytes.
#[wasm_bindgen]
pub fn divide(scenario: JsValue) -> Result<Text, JsValue> {
    answer(scenario, |s, seed| text(scenario::divide(s, seed)))
}

/// Karmada: the filter plugins' verdicts and the scores per cluster, without selection or
/// division, as JSON text's bytes. A scheduling failure is reported in the report's `error`.
#[wasm_bindgen]
pub fn filter(scenario: JsValue) -> Result<Text, JsValue> {
    answer(scenario, |s, _| text(scenario::filter(s)))
}

/// Karmada: filters, scores, the global order and the clusters selection keeps (spread
/// constraints, affinity terms), without the division, as JSON text's bytes. A scheduling
/// failure is reported in the report's `error`.
#[wasm_bindgen]
pub fn select(scenario: JsValue) -> Result<Text, JsValue> {
    answer(scenario, |s, _| text(scenario::select(s)))
}

/// eru: each node's capacity for the workload, and why, as JSON text's bytes.
#[wasm_bindgen]
pub fn capacity(scenario: JsValue) -> Result<Text, JsValue> {
    answer(scenario, |s, _| text(scenario::capacity(s)))
}

/// eru: capacities, the strategy's deploy map and the plans of the new instances, as JSON
/// text's bytes.
#[wasm_bindgen]
pub fn deploy(scenario: JsValue) -> Result<Text, JsValue> {
    answer(scenario, |s, seed| text(scenario::deploy(s, seed)))
}

/// Check customized resource models against Karmada's rules. Returns the problem found
/// (`{code, path, message}`, as Karmada reports the first) or `null` when they are valid.
#[wasm_bindgen(js_name = validateResourceModels)]
pub fn validate_resource_models(models: JsValue) -> Result<JsValue, JsValue> {
    let models: Vec<allot_core::estimate::models::ResourceModel> =
        from_js(models, "resource models (an array)")?;
    match allot_core::estimate::models::validate_list(&models) {
        Ok(()) => Ok(JsValue::NULL),
        // Paths index the array given: `[4].ranges[1].min`.
        Err(e) => to_js(&e),
    }
}

/// Read a Kubernetes quantity for `resource` (default `cpu`): `parseQuantity("1.5", "cpu")` is
/// 1500 millicores; `parseQuantity("16Gi", "memory")` 17179869184 bytes.
/// A number means what its text means (`parseQuantity(0.5)` is 500 millicores).
#[wasm_bindgen(js_name = parseQuantity)]
pub fn parse_quantity(text: JsValue, resource: JsValue) -> Result<JsValue, JsValue> {
    let resource = match resource.as_string() {
        Some(r) => r,
        None if resource.is_undefined() || resource.is_null() => "cpu".into(),
        None => return Err(wrong_type("a resource name such as \"memory\"", &resource)),
    };
    let value = match (text.as_string(), text.as_f64()) {
        (Some(text), _) => quantity::read(&text, &resource),
        (None, Some(number)) => quantity::read_number(number, &resource),
        (None, None) => {
            return Err(wrong_type(
                "a quantity: a string such as \"500m\" or a number",
                &text,
            ))
        }
    };
    to_js(&value.map_err(to_error)?)
}

/// An `invalid_input` error for an argument of the wrong kind, naming the kind given.
pub(crate) fn wrong_type(expected: &str, given: &JsValue) -> JsValue {
    let kind = if given.is_null() {
        "null".into()
    } else {
        given.js_typeof().as_string().unwrap_or_default()
    };
    coded_error(
        "invalid_input",
        "",
        &format!("expected {expected}, got {kind}"),
    )
}

/// A seed for scenarios without one: 53 random bits, so JS numbers hold it exactly.
pub(crate) fn draw_seed() -> u64 {
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
pub(crate) fn text_of(value: &JsValue, what: &str) -> Result<String, JsValue> {
    if let Some(text) = value.dyn_ref::<js_sys::JsString>() {
        return Ok(utf8(text));
    }
    if !value.is_object() {
        return Err(wrong_type(
            &format!("{what}: an object or JSON text"),
            value,
        ));
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
    let text = js_sys::JSON::stringify(value).ok().map(|text| utf8(&text));
    // JSON.stringify writes NaN and the infinities as null: when the text has a null, look
    // for one and say what it was (documents without null, most of them, skip the walk).
    if text.as_deref().is_some_and(|t| t.contains("null")) {
        if let Some((path, given)) = non_finite(value, Path::root(), 0) {
            return Err(to_error(Error::Input {
                field: path,
                code: allot_core::ErrorCode::InvalidInput,
                reason: format!(
                    "got {given}, which JSON cannot hold (JSON.stringify writes it as null)"
                ),
            }));
        }
    }
    text.ok_or_else(|| {
        coded_error(
            "invalid_input",
            "",
            &format!("expected {what}: an object or JSON text that JSON.stringify can write"),
        )
    })
}

/// Read a scenario, run `call` with it and the seed to use when it has none (drawn only then),
/// and hand back the outcome's text. One function for every call, so the module holds one copy
/// of the reading and answering glue.
#[inline(never)]
fn answer(
    value: JsValue,
    call: fn(&Scenario, u64) -> Result<Text, JsValue>,
) -> Result<Text, JsValue> {
    let s: Scenario = from_js(value, "a scenario")?;
    let seed = if s.seed.is_none() { draw_seed() } else { 0 };
    call(&s, seed)
}

/// An answer's JSON text as returned to JavaScript: a view of the module's memory, valid until
/// the next call into the module (which may overwrite the text, or grow the memory and so
/// empty the view). The package's `js/api.js` decodes it at once.
pub type Text = js_sys::Uint8Array;

thread_local! {
    /// The last answer's text. Kept, rather than handed over and freed, so JavaScript reads
    /// it in place (a copy of 6 MB cost 0.5 ms in Node) and the next answer is written into
    /// room already grown. It holds the largest answer's room, which the module's memory,
    /// never shrinking, would hold anyway.
    static ANSWER: core::cell::RefCell<Vec<u8>> = const { core::cell::RefCell::new(Vec::new()) };
}

/// An outcome as the bytes of its JSON text, 7-bit ASCII, seen in place ([`Text`]):
/// `js/api.js` decodes them (in Node with `Buffer`'s latin1 copy, an order of magnitude faster
/// than `TextDecoder`, which wasm-bindgen's own string return uses).
pub(crate) fn text<T: Serialize>(outcome: allot_core::Result<T>) -> Result<Text, JsValue> {
    let outcome = outcome.map_err(to_error)?;
    ANSWER.with_borrow_mut(|bytes| {
        allot_core::json::write_json(&outcome, bytes).map_err(internal)?;
        // SAFETY: the view covers the kept text, which only the next answer (in a later call
        // into the module) writes to; what a later call does to it is [`Text`]'s documented
        // lifetime, and the package's JS reads the view before making another call.
        Ok(unsafe { js_sys::Uint8Array::view(bytes) })
    })
}

pub(crate) fn internal(e: allot_core::json::WriteError) -> JsValue {
    coded_error("internal", "", &e.to_string())
}

pub(crate) fn from_js<T: serde::de::DeserializeOwned>(
    value: JsValue,
    what: &str,
) -> Result<T, JsValue> {
    scenario::from_json(&text_of(&value, what)?).map_err(|e| to_error(unwritable(&value, e)))
}

/// The first number in `value` that JSON cannot hold (NaN, Infinity, -Infinity), in the order
/// JSON.stringify writes, with how it is written in JavaScript. Nesting beyond the reader's
/// own limit is not walked (the reader rejects it).
fn non_finite(value: &JsValue, at: Path, depth: usize) -> Option<(Path, &'static str)> {
    if let Some(n) = value.as_f64() {
        return match n {
            n if n.is_nan() => Some((at, "NaN")),
            f64::INFINITY => Some((at, "Infinity")),
            f64::NEG_INFINITY => Some((at, "-Infinity")),
            _ => None,
        };
    }
    if !value.is_object() || depth > 128 {
        return None;
    }
    if js_sys::Array::is_array(value) {
        let list = js_sys::Array::from(value);
        return (0..list.length())
            .find_map(|i| non_finite(&list.get(i), at.clone().index(i as usize), depth + 1));
    }
    let keys = js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>());
    (0..keys.length()).find_map(|i| {
        let key = keys.get(i);
        let child = js_sys::Reflect::get(value, &key).unwrap_or(JsValue::UNDEFINED);
        let name = key.as_string().unwrap_or_default();
        non_finite(&child, at.clone().field(name), depth + 1)
    })
}

/// A reading error about a field given as `undefined` (JSON.stringify leaves it out, so the
/// reader finds it missing), said as what was given.
fn unwritable(value: &JsValue, e: Error) -> Error {
    let mut at = value.clone();
    let mut parent_has_it = false;
    for step in e.field().steps() {
        if !at.is_object() {
            return e;
        }
        let key: JsValue = match step {
            Step::Field(name) => name.as_ref().into(),
            Step::Index(i) => (*i as f64).into(),
        };
        parent_has_it = js_sys::Reflect::has(&at, &key).unwrap_or(false);
        at = js_sys::Reflect::get(&at, &key).unwrap_or(JsValue::UNDEFINED);
    }
    if !(at.is_undefined() && parent_has_it) {
        return e;
    }
    Error::Input {
        field: e.field().clone(),
        code: allot_core::ErrorCode::InvalidInput,
        reason: "got undefined, which JSON cannot hold (JSON.stringify leaves the field out)"
            .into(),
    }
}

/// A small answer as a plain JS object, built field by field by serde-wasm-bindgen (maps as
/// objects, absent values as `null`, integers as numbers): for answers of a few fields the
/// direct conversion is the natural one; outcomes, which run to megabytes, cross as JSON text
/// instead (see [`text`]).
pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| coded_error("internal", "", &e.to_string()))
}

#[wasm_bindgen]
extern "C" {
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(
        this: &TextEncoder,
        text: &js_sys::JsString,
        into: &js_sys::Uint8Array,
    ) -> EncodeIntoResult;

    type EncodeIntoResult;
    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodeIntoResult) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> u32;
}

/// A JS string as Rust text. `TextEncoder.encodeInto` writes the UTF-8 bytes straight into the
/// module's memory: first into room for one byte per UTF-16 unit (all that ASCII text needs),
/// then, if characters remain, into room for three per remaining unit (the most UTF-8 takes).
/// Measured in Node on an 11 MB scenario: 0.6 ms, against 5.9 ms for `encode` into a new
/// array and a copy of it; wasm-bindgen's own string passing walks the string in JS, slower
/// still (8% of a call on a 4.7 MB scenario).
pub(crate) fn utf8(text: &js_sys::JsString) -> String {
    let units = text.length();
    let encoder = TextEncoder::new();
    let mut bytes: Vec<u8> = Vec::new();
    let mut read = 0;
    let mut room = units as usize;
    // A view of the module's memory is emptied when the memory grows, which passing the view
    // itself to the module can cause; encodeInto then reads nothing, and the next view is
    // whole. Past a few such rounds, wasm-bindgen's own conversion.
    for _ in 0..4 {
        bytes.reserve(room);
        let rest = if read == 0 {
            text.clone()
        } else {
            text.slice(read, units)
        };
        let spare = bytes.spare_capacity_mut();
        // SAFETY: the view covers the vector's spare capacity, which nothing else refers to,
        // and only lives for the encodeInto call below.
        let view =
            unsafe { js_sys::Uint8Array::view_mut_raw(spare.as_mut_ptr().cast(), spare.len()) };
        let done = encoder.encode_into(&rest, &view);
        let written = (done.written() as usize).min(spare.len());
        // SAFETY: encodeInto wrote `written` bytes at the start of the spare capacity.
        unsafe { bytes.set_len(bytes.len() + written) };
        read += done.read();
        if read >= units {
            // SAFETY: encodeInto writes UTF-8 (lone surrogates as U+FFFD) and never splits a
            // character, so the pieces are UTF-8 and so is their concatenation; checking it
            // again cost 2% of a call on large scenarios.
            return unsafe { String::from_utf8_unchecked(bytes) };
        }
        room = (units - read) as usize * 3;
    }
    text.into()
}

pub(crate) fn to_error(error: Error) -> JsValue {
    coded_error(
        error.code().as_str(),
        &error.field().text(),
        &error.to_string(),
    )
}

/// A JS `Error` with `code` and `path` properties, named `AllotError` so that the package's
/// wrapper tells allot's errors from the engine's.
pub(crate) fn coded_error(code: &str, path: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    error.set_name("AllotError");
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &"code".into(), &code.into());
    let _ = js_sys::Reflect::set(&error, &"path".into(), &path.into());
    error.into()
}
