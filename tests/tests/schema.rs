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
    let doc = schema();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/examples");
    let defs = doc["$defs"].as_object().unwrap();
    for entry in std::fs::read_dir(root).unwrap() {
        let path = entry.unwrap().path();
        let value: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        if let Err(why) = conforms(&value, &doc, defs, "") {
            panic!("{}: {why}", path.display());
        }
    }
}

/// A small check of the keywords schemars writes (type, properties, required,
/// additionalProperties, items, enum, const, anyOf/oneOf, $ref): enough to catch a schema
/// that rejects a real scenario, not a general validator.
fn conforms(v: &Value, s: &Value, defs: &Map<String, Value>, at: &str) -> Result<(), String> {
    let Some(s) = s.as_object() else {
        return Ok(()); // `true`
    };
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/$defs/");
        conforms(v, &defs[name], defs, at)?;
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(alts) = s.get(key).and_then(Value::as_array) {
            if !alts.iter().any(|a| conforms(v, a, defs, at).is_ok()) {
                return Err(format!("{at}: {v} matches none of {key}"));
            }
        }
    }
    if let Some(c) = s.get("const") {
        if c != v {
            return Err(format!("{at}: {v} is not {c}"));
        }
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        if !e.contains(v) {
            return Err(format!("{at}: {v} is not one of {e:?}"));
        }
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let is = |t: &str| match t {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "boolean" => v.is_boolean(),
            "null" => v.is_null(),
            "integer" => v.is_i64() || v.is_u64(),
            "number" => v.is_number(),
            _ => true,
        };
        if !types.iter().any(|t| is(t)) {
            return Err(format!("{at}: {v} is not of type {t}"));
        }
    }
    if let Some(o) = v.as_object() {
        let props = s.get("properties").and_then(Value::as_object);
        for req in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let req = req.as_str().unwrap();
            if !o.contains_key(req) {
                return Err(format!("{at}: {req} is required"));
            }
        }
        for (k, x) in o {
            let here = format!("{at}.{k}");
            match props.and_then(|p| p.get(k)) {
                Some(ps) => conforms(x, ps, defs, &here)?,
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) if props.is_some() || s.contains_key("type") => {
                        return Err(format!("{here} is not a known field"))
                    }
                    Some(extra @ Value::Object(_)) => conforms(x, extra, defs, &here)?,
                    _ => {}
                },
            }
        }
    }
    if let (Some(a), Some(items)) = (v.as_array(), s.get("items")) {
        for (i, x) in a.iter().enumerate() {
            conforms(x, items, defs, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}
