//! The JSON Schema of allot's documents, generated from the Rust types (their serde derives
//! and `schemars::JsonSchema`), against the checked-in `web/js/allot.schema.json`: one file
//! whose root is the scenario (as it is read, so defaulted fields are optional) and whose
//! `$defs` also hold every answer type (as they are written). The npm package ships it for
//! editors, and `web/scripts/types.mjs` turns it into the package's TypeScript declarations.
//!
//! After changing a scenario or outcome type, regenerate with
//! `ALLOT_BLESS=1 cargo test -p allot-tests --test schema` (then `./dev types`).

use std::path::PathBuf;

use allot_core::estimate::models::ResourceModel;
use allot_core::scenario::outcome::{Capacities, EruOutcome, Estimates, KarmadaOutcome};
use allot_core::scenario::{Outcome, Scenario};
use schemars::generate::SchemaSettings;
use serde_json::{json, Map, Value};

fn settings() -> SchemaSettings {
    let mut s = SchemaSettings::draft2020_12();
    // Definitions under `$defs`, referenced as `#/$defs/Name`, in one map for both directions.
    s.definitions_path = "/$defs".into();
    s
}

/// The schema document: the scenario at the root; inputs as read, answers as written.
fn schema() -> Value {
    let mut input = settings().for_deserialize().into_generator();
    let root = input.root_schema_for::<Scenario>();
    input.subschema_for::<Vec<ResourceModel>>();
    input.subschema_for::<allot_core::karmada::gates::FeatureGates>();
    let mut defs: Map<String, Value> = input.take_definitions(true);

    let mut output = settings().for_serialize().into_generator();
    for answer in [
        output.subschema_for::<Outcome>(),
        output.subschema_for::<KarmadaOutcome>(),
        output.subschema_for::<EruOutcome>(),
        output.subschema_for::<Estimates>(),
        output.subschema_for::<Capacities>(),
        output.subschema_for::<allot_core::Error>(),
        output.subschema_for::<allot_core::quantity::QuantityValue>(),
        output.subschema_for::<allot_core::scenario::objects::Imported>(),
        output.subschema_for::<allot_core::scenario::explain::Explained>(),
        output.subschema_for::<allot_core::scenario::export::Exported>(),
        output.subschema_for::<allot_core::scenario::explain::Written>(),
    ] {
        assert!(
            answer.as_object().is_some_and(|o| o.contains_key("$ref")),
            "{answer:?}"
        );
    }
    for (name, def) in output.take_definitions(true) {
        match defs.get(&name) {
            None => {
                defs.insert(name, def);
            }
            Some(same) if *same == def => {}
            Some(read) => panic!(
                "{name} is read and written in different shapes; give one a schema name of \
                 its own.\nread: {read:#}\nwritten: {def:#}"
            ),
        }
    }
    let mut doc = root.to_value();
    readable(&mut doc);
    let obj = doc.as_object_mut().unwrap();
    obj.insert(
        "$id".into(),
        json!("https://allot.dev/schema/scenario-v1.json"),
    );
    obj.insert("$defs".into(), Value::Object(defs.into_iter().collect()));
    doc
}

/// Descriptions come from the Rust doc comments; their links to Rust items
/// (``[`super::schedule`]``) read as the item's name (`` `schedule` ``).
fn readable(v: &mut Value) {
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                match x {
                    Value::String(text) if k == "description" => *text = unlinked(text),
                    _ => readable(x),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(readable),
        _ => {}
    }
}

fn unlinked(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("[`") {
        let Some(len) = rest[start + 2..].find("`]") else {
            break;
        };
        let item = &rest[start + 2..start + 2 + len];
        let name = item.rsplit("::").next().unwrap_or(item);
        out.push_str(&rest[..start]);
        out.push('`');
        out.push_str(name);
        out.push('`');
        rest = &rest[start + 2 + len + 2..];
    }
    out.push_str(rest);
    out
}

#[test]
fn checked_in_schema_is_generated_from_the_types() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let file = root.join("web/js/allot.schema.json");
    let got = serde_json::to_string_pretty(&schema()).unwrap() + "\n";
    if std::env::var_os("ALLOT_BLESS").is_some() {
        std::fs::write(&file, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        got == want,
        "web/js/allot.schema.json differs from the Rust types; regenerate with \
         `ALLOT_BLESS=1 cargo test -p allot-tests --test schema`, then `./dev types`"
    );
}

/// The schema accepts what allot reads: every example scenario validates against it.
#[test]
fn examples_are_valid_scenarios() {
    let validator = jsonschema::validator_for(&schema()).unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/examples");
    let read = |path: &PathBuf| -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let check = |value: &Value, what: &str| {
        let errors: Vec<String> = validator
            .iter_errors(value)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{what}: {errors:?}");
    };
    let json = |dir: &PathBuf| -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect()
    };
    for path in json(&root) {
        check(&read(&path), &path.display().to_string());
    }
    // The stories' earlier steps (the playground's histories) are scenarios too.
    let histories = json(&root.join("histories"));
    assert!(histories.len() >= 5, "{histories:?}");
    for path in histories {
        let history = read(&path);
        for (k, step) in history["earlier"].as_array().unwrap().iter().enumerate() {
            check(
                &step["scenario"],
                &format!("{}: step {}", path.display(), k + 1),
            );
        }
    }
}

/// And it rejects what allot rejects: a sample of broken scenarios.
#[test]
fn broken_scenarios_are_invalid() {
    let validator = jsonschema::validator_for(&schema()).unwrap();
    for bad in [
        json!({"version": 2, "clusters": []}),
        json!({"version": 1, "clusters": [{"name": "a", "wieght": 1}]}),
        json!({"version": 1, "clusters": [{"weight": 1}]}),
        json!({"version": 1, "clusters": [], "policy": {"strategy": "spread"}}),
        json!({"version": 1, "nodes": [{"name": "n", "memory": true}]}),
    ] {
        assert!(!validator.is_valid(&bad), "{bad}");
    }
}
