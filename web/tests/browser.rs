//! wasm-bindgen tests of the bindings, run in headless Chromium by `./dev test`.
#![cfg(target_arch = "wasm32")]

use allot_web::{divide_webster_js, version};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

fn request(replicas: i64, weights: &[(&str, i64)]) -> JsValue {
    let clusters = js_sys::Array::new();
    for (name, weight) in weights {
        let c = js_sys::Object::new();
        js_sys::Reflect::set(&c, &"name".into(), &(*name).into()).unwrap();
        js_sys::Reflect::set(&c, &"weight".into(), &JsValue::from_f64(*weight as f64)).unwrap();
        clusters.push(&c);
    }
    let r = js_sys::Object::new();
    js_sys::Reflect::set(&r, &"replicas".into(), &JsValue::from_f64(replicas as f64)).unwrap();
    js_sys::Reflect::set(&r, &"clusters".into(), &clusters).unwrap();
    r.into()
}

fn replicas_of(result: &JsValue) -> Vec<f64> {
    js_sys::Array::from(result)
        .iter()
        .map(|s| {
            js_sys::Reflect::get(&s, &"replicas".into())
                .unwrap()
                .as_f64()
                .unwrap()
        })
        .collect()
}

#[wasm_bindgen_test]
fn version_matches_core() {
    assert_eq!(version(), allot_core::VERSION);
}

#[wasm_bindgen_test]
fn webster_divides_in_the_browser() {
    let out = divide_webster_js(request(
        7,
        &[("member1", 2), ("member2", 1), ("member3", 1)],
    ))
    .unwrap();
    assert_eq!(replicas_of(&out), vec![3.0, 2.0, 2.0]);
}

#[wasm_bindgen_test]
fn errors_carry_code_and_path() {
    let err = divide_webster_js(request(3, &[("a", -1)])).unwrap_err();
    let code = js_sys::Reflect::get(&err, &"code".into()).unwrap();
    let path = js_sys::Reflect::get(&err, &"path".into()).unwrap();
    assert_eq!(code.as_string().as_deref(), Some("negative"));
    assert_eq!(path.as_string().as_deref(), Some("clusters[0].weight"));
}
