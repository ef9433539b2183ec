//! wasm-bindgen tests of the bindings, run in headless Chromium by `./dev test`.
#![cfg(target_arch = "wasm32")]

use allot_web::{parse_quantity, schedule_json, version};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

fn parse(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap()
}

/// `schedule` as the package defines it: the outcome text, parsed. The text is ASCII.
fn schedule(scenario: JsValue) -> Result<JsValue, JsValue> {
    schedule_json(scenario).map(|view| {
        let bytes = view.to_vec();
        assert!(bytes.is_ascii());
        parse(core::str::from_utf8(&bytes).unwrap())
    })
}

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &key.into()).unwrap()
}

#[wasm_bindgen_test]
fn version_matches_core() {
    assert_eq!(version(), allot_core::VERSION);
}

#[wasm_bindgen_test]
fn webster_divides_in_the_browser() {
    let out = schedule(parse(
        r#"{"version":1,"clusters":[{"name":"member1","weight":2},{"name":"member2","weight":1},
            {"name":"member3","weight":1}],"workload":{"replicas":7}}"#,
    ))
    .unwrap();
    let replicas: Vec<f64> = js_sys::Array::from(&get(&out, "assignment"))
        .iter()
        .map(|a| get(&a, "replicas").as_f64().unwrap())
        .collect();
    assert_eq!(replicas, vec![3.0, 2.0, 2.0]);
    // No seed in the scenario: one was drawn and reported.
    assert_eq!(get(&out, "seedDrawn").as_bool(), Some(true));
    assert!(get(&out, "seed").as_f64().unwrap() <= 9007199254740991.0);
}

#[wasm_bindgen_test]
fn errors_carry_code_and_path() {
    let err = schedule(parse(
        r#"{"version":1,"clusters":[{"name":"a","weight":-1}],"workload":{"replicas":3}}"#,
    ))
    .unwrap_err();
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("negative"));
    assert_eq!(
        get(&err, "path").as_string().as_deref(),
        Some("clusters[0].weight")
    );
    let err = parse_quantity("16 GB".into(), "memory".into()).unwrap_err();
    assert_eq!(
        get(&err, "code").as_string().as_deref(),
        Some("invalid_quantity")
    );
}

/// The heap grows by an eighth of the memory at a time (at least a MiB), not by what each
/// allocation needs: 64 MiB of small allocations, as reading a large dump makes, grow the
/// memory a few dozen times rather than once a page (about a thousand times).
#[wasm_bindgen_test]
fn the_heap_grows_in_few_steps() {
    let size = core::arch::wasm32::memory_size::<0>;
    let (mut last, mut growths) = (size(), 0);
    let mut kept = Vec::new();
    for _ in 0..(64 << 20) / 1024 {
        kept.push(vec![1u8; 1000]);
        if size() != last {
            growths += 1;
            last = size();
        }
    }
    assert!(growths <= 40, "{growths} growths");
    assert_eq!(kept.len(), 65_536);
}
