//! JavaScript bindings of allot-core. This crate only translates: JS values in via
//! serde-wasm-bindgen, core results out as plain objects, core errors as JS `Error`s carrying
//! a stable `code` and the offending field's `path`.

use allot_core::division::request::{divide_webster, WeightedRequest};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The library version.
#[wasm_bindgen]
pub fn version() -> String {
    allot_core::VERSION.into()
}

/// Divide replicas among weighted clusters with Webster's method, as Karmada >= 1.16 does.
///
/// `request`: `{ replicas: number, clusters: [{ name: string, weight: number }], uid?: string }`.
/// Returns `[{ name, replicas }]` in the clusters' order.
#[wasm_bindgen(js_name = divideWebster)]
pub fn divide_webster_js(request: JsValue) -> Result<JsValue, JsValue> {
    let request: WeightedRequest = from_js(request)?;
    let shares = divide_webster(&request).map_err(core_error)?;
    to_js(&shares)
}

/// Karmada replica assignment: Duplicated, static weights, dynamic weights or Aggregated, with
/// the `webster` (default), `remainder` or `name-order` division method.
///
/// `placement`: `{ replicas, clusters: [{ name, labels?, provider?, region?, zones?,
/// availableReplicas?, overflowOrder? }], strategy?, method?, staticWeights?, previous?, fresh?,
/// uid?, seed?, overflow? }`. Returns `{ assignment: [{ name, replicas }], seed, trace }`.
#[wasm_bindgen]
pub fn assign(placement: JsValue) -> Result<JsValue, JsValue> {
    let placement: allot_core::karmada::Placement = from_js(placement)?;
    let outcome = allot_core::karmada::assign(&placement).map_err(core_error)?;
    to_js(&outcome)
}

fn from_js<T: serde::de::DeserializeOwned>(value: JsValue) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(value)
        .map_err(|e| coded_error("invalid_input", "", &e.to_string()))
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true);
    value
        .serialize(&serializer)
        .map_err(|e| coded_error("internal", "", &e.to_string()))
}

fn core_error(error: allot_core::Error) -> JsValue {
    coded_error(error.code(), error.field(), &error.to_string())
}

/// A JS `Error` with `code` and `path` properties.
fn coded_error(code: &str, path: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &"code".into(), &code.into());
    let _ = js_sys::Reflect::set(&error, &"path".into(), &path.into());
    error.into()
}
