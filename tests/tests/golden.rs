//! Every example scenario of `docs/examples/` through every call, written as JSON text, against
//! the text recorded in `tests/golden/NAME.json` before the scenario types moved to serde's
//! derives (commit d1b17e1): reading and the pipelines may be reorganised, but what users get
//! back stays the same, byte for byte. When a change is meant to alter an outcome, regenerate
//! with `ALLOT_BLESS=1 cargo test -p allot-tests --test golden` and review the diff.

use std::path::PathBuf;

use allot_core::json::to_json;
use allot_core::scenario::{self, Family, Scenario};

/// The seed drawn for scenarios without one.
const DRAWN: u64 = 0xA110C;

/// Every call's answer (or error) for one scenario, as one JSON object.
fn answers(s: &Scenario) -> String {
    fn text<T: serde::Serialize>(r: allot_core::Result<T>) -> String {
        match r {
            Ok(v) => to_json(&v).unwrap(),
            Err(e) => to_json(&e).unwrap(),
        }
    }
    let mut parts = vec![("schedule", text(scenario::schedule(s, DRAWN)))];
    match s.family().unwrap() {
        Family::Karmada(_) => {
            parts.push(("estimate", text(scenario::estimate(s))));
            parts.push(("divide", text(scenario::divide(s, DRAWN))));
            parts.push(("select", text(scenario::select(s))));
        }
        Family::Eru(_) => {
            parts.push(("capacity", text(scenario::capacity(s))));
            parts.push(("deploy", text(scenario::deploy(s, DRAWN))));
        }
    }
    let body: Vec<String> = parts
        .into_iter()
        .map(|(k, v)| format!("\"{k}\":{v}"))
        .collect();
    format!("{{{}}}", body.join(","))
}

#[test]
fn example_outcomes_are_unchanged() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let golden = root.join("tests/golden");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join("docs/examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 20, "examples found: {}", paths.len());
    let bless = std::env::var_os("ALLOT_BLESS").is_some();
    for path in paths {
        let name = path.file_name().unwrap();
        let s: Scenario = scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let got = answers(&s);
        let file = golden.join(name);
        if bless {
            std::fs::write(&file, &got).unwrap();
            continue;
        }
        let want =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(
            got == want,
            "{}: the outcome text changed",
            name.to_string_lossy()
        );
    }
}
