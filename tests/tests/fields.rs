//! One place per field, enforced: every property of the scenario's Karmada clusters, workload
//! and policy, and of eru's nodes (the JSON Schema generated from the Rust types,
//! `web/js/allot.schema.json`, which `tests/tests/schema.rs` keeps current) is documented in
//! `docs/scenario.md`, is a word of the fuzz dictionary (`fuzz/dict/json.dict`), and is edited
//! by a playground editor (`www/src/editor/`) or named in [`NOT_IN_THE_FORM`] with the reason.
//! The scenario's top-level properties are held to the first two.

use std::collections::BTreeSet;
use std::path::PathBuf;

use regex::Regex;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Properties no editor of the form edits, each with the reason (the JSON tab edits them all).
/// (schema definition, property, reason)
const NOT_IN_THE_FORM: &[(&str, &str, &str)] = &[];

/// Where each object is documented and edited.
struct Object {
    /// Its definition in the schema's `$defs` (`None`: the scenario, the schema's root).
    def: Option<&'static str>,
    /// The `docs/scenario.md` section whose table lists its fields.
    docs: &'static str,
    /// The editors' constants that edit its fields: (file under `www/src/editor/`, constant).
    editors: &'static [(&'static str, &'static str)],
    /// Text of the editors that edits whole fields by path (`sub("taints")`,
    /// `path="policy.clusterTolerations"`): (file, from which text to the end, key pattern).
    paths: &'static [(&'static str, &'static str, &'static str)],
}

const OBJECTS: &[Object] = &[
    Object {
        def: Some("Cluster"),
        docs: "## Karmada clusters",
        editors: &[
            ("karmada.rs", "CLUSTERS"),
            ("details.rs", "CLUSTER_FIELDS"),
            ("details.rs", "SCHEDULING_FIELDS"),
        ],
        paths: &[("details.rs", "Details::Cluster =>", r#"sub\("([^"]+)"\)"#)],
    },
    Object {
        def: Some("Workload"),
        docs: "## Workload",
        editors: &[("karmada.rs", "WORKLOAD"), ("eru.rs", "WORKLOAD")],
        paths: &[],
    },
    Object {
        def: Some("Policy"),
        docs: "## Policy",
        editors: &[
            ("karmada.rs", "POLICY"),
            ("karmada.rs", "CLUSTER_AFFINITY"),
            ("eru.rs", "POLICY"),
        ],
        paths: &[("karmada.rs", "", r#"path="policy\.([^"]+)""#)],
    },
    Object {
        def: Some("EruNode"),
        docs: "## eru nodes",
        editors: &[("eru.rs", "NODES"), ("details.rs", "ERU_FIELDS")],
        paths: &[],
    },
    Object {
        def: None,
        docs: "## Top level",
        editors: &[],
        paths: &[],
    },
];

fn properties(schema: &Value, def: Option<&str>) -> Vec<String> {
    let object = match def {
        Some(d) => &schema["$defs"][d],
        None => schema,
    };
    let props: Vec<String> = object["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("{def:?} has no properties"))
        .keys()
        .cloned()
        .collect();
    assert!(props.len() > 5, "{def:?}: {props:?}");
    props
}

/// The fields a `docs/scenario.md` section's table lists: every `name` in a row's first cell.
fn documented(scenario_md: &str, heading: &str) -> BTreeSet<String> {
    let (_, rest) = scenario_md
        .split_once(&format!("{heading}\n"))
        .unwrap_or_else(|| panic!("docs/scenario.md has no `{heading}`"));
    let section = rest.split("\n## ").next().unwrap();
    let name = Regex::new(r"`([A-Za-z]+)`").unwrap();
    section
        .lines()
        .filter_map(|l| l.strip_prefix('|')?.split('|').next())
        .flat_map(|cell| name.captures_iter(cell).map(|c| c[1].to_string()))
        .collect()
}

/// The text of a constant list of `www/src/editor/{file}`, from `start` to its closing `];`.
fn list(file: &str, start: &str) -> String {
    let text = read(&format!("www/src/editor/{file}"));
    let at = text
        .find(start)
        .unwrap_or_else(|| panic!("www/src/editor/{file} has no `{start}`"));
    let body = &text[at..];
    body[..body.find("\n];").expect("a constant list ends with `];`")].to_string()
}

/// The first segment of every field path a constant of an editor lists (`col("key", ...)`,
/// `("key", "label", Kind::...)`, `key: "key"`).
fn edited(file: &str, constant: &str) -> BTreeSet<String> {
    let body = list(file, &format!("const {constant}: "));
    let body = body.as_str();
    let key = Regex::new(r#"(?:col\(|\(|key: )\s*"([A-Za-z][A-Za-z.]*)""#).unwrap();
    let keys: BTreeSet<String> = key
        .captures_iter(body)
        .map(|c| c[1].split('.').next().unwrap().to_string())
        .collect();
    assert!(!keys.is_empty(), "{file} {constant} edits nothing");
    keys
}

fn edited_by_path(file: &str, from: &str, pattern: &str) -> BTreeSet<String> {
    let text = read(&format!("www/src/editor/{file}"));
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("{file}: no `{from}`"));
    Regex::new(pattern)
        .unwrap()
        .captures_iter(&text[start..])
        .map(|c| c[1].split('.').next().unwrap().to_string())
        .collect()
}

#[test]
fn every_field_is_documented_in_the_dictionary_and_in_an_editor() {
    let schema: Value = serde_json::from_str(&read("web/js/allot.schema.json")).unwrap();
    let docs = read("docs/scenario.md");
    let dictionary = read("fuzz/dict/json.dict");
    let mut missing = Vec::new();
    let mut exempt_used = BTreeSet::new();
    for o in OBJECTS {
        let name = o.def.unwrap_or("Scenario");
        let documented = documented(&docs, o.docs);
        let mut in_form = BTreeSet::new();
        for (file, constant) in o.editors {
            in_form.extend(edited(file, constant));
        }
        for (file, from, pattern) in o.paths {
            in_form.extend(edited_by_path(file, from, pattern));
        }
        for p in properties(&schema, o.def) {
            if !documented.contains(&p) {
                missing.push(format!("{name}.{p}: not in docs/scenario.md `{}`", o.docs));
            }
            if !dictionary.contains(&format!(r#""\"{p}\""#)) {
                missing.push(format!(
                    r#"{name}.{p}: not in fuzz/dict/json.dict as "\"{p}\"""#
                ));
            }
            if o.editors.is_empty() {
                continue;
            }
            let exempt = NOT_IN_THE_FORM
                .iter()
                .find(|(d, q, _)| *d == name && *q == p);
            match (in_form.contains(&p), exempt) {
                (true, Some(_)) => missing.push(format!(
                    "{name}.{p}: an editor edits it; take it off NOT_IN_THE_FORM"
                )),
                (false, None) => missing.push(format!(
                    "{name}.{p}: no editor edits it (add a column, or name it in NOT_IN_THE_FORM \
                     with the reason)"
                )),
                (_, Some(_)) => {
                    exempt_used.insert((name, p));
                }
                (true, None) => {}
            }
        }
    }
    for (d, p, reason) in NOT_IN_THE_FORM {
        assert!(!reason.is_empty(), "{d}.{p}: a reason");
        if !exempt_used.contains(&(*d, p.to_string())) {
            missing.push(format!("{d}.{p}: in NOT_IN_THE_FORM but no such field"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn the_editors_are_read_as_they_are_written() {
    // The readers above find what the editors edit, and nothing they do not.
    let clusters = edited("karmada.rs", "CLUSTERS");
    assert_eq!(
        clusters.into_iter().collect::<Vec<_>>(),
        [
            "availableReplicas",
            "labels",
            "name",
            "resourceSummary",
            "weight"
        ]
    );
    let details = edited_by_path("details.rs", "Details::Cluster =>", r#"sub\("([^"]+)"\)"#);
    assert!(
        details.contains("taints") && details.contains("nodes"),
        "{details:?}"
    );
    assert!(!details.contains("overflowAffinities"), "{details:?}");
    let docs = documented(&read("docs/scenario.md"), "## Workload");
    assert!(
        docs.contains("apiVersion") && docs.contains("kind"),
        "{docs:?}"
    );
    assert!(!docs.contains("field"), "{docs:?}");
}

/// The values of an editor's select written out (`const NAME: &[(&str, &str)] = &[...]`), the
/// default ("") left out.
fn select(file: &str, constant: &str) -> Vec<String> {
    let body = list(file, &format!("const {constant}: &[(&str, &str)] = &["));
    Regex::new(r#"\(\s*"((?:[^"\\]|\\.)*)""#)
        .unwrap()
        .captures_iter(&body)
        .map(|c| c[1].to_string())
        .filter(|v| !v.is_empty())
        .collect()
}

#[test]
fn every_choice_is_named_where_the_enum_names_it() {
    use allot_core::division::method::Method;
    use allot_core::eru::strategy::Strategy as EruStrategy;
    use allot_core::estimate::by_model::ModelMethod;
    use allot_core::karmada::Strategy as KarmadaStrategy;
    use allot_core::scenario::Estimator;
    let docs = read("docs/scenario.md");
    let dictionary = read("fuzz/dict/json.dict");
    let policy_row = |field: &str| -> &str {
        docs.lines()
            .find(|l| l.starts_with(&format!("| `{field}` |")))
            .unwrap_or_else(|| panic!("docs/scenario.md has no row for `{field}`"))
    };
    // (the policy field, the enum's names); the playground's selects are built from the same
    // lists (`options!` in www/src/editor/mod.rs).
    let choices: [(&str, &[&str]); 5] = [
        ("strategy", KarmadaStrategy::NAMES),
        ("strategy", EruStrategy::NAMES),
        ("method", Method::NAMES),
        ("modelMethod", ModelMethod::NAMES),
        ("estimators", Estimator::NAMES),
    ];
    let mut missing = Vec::new();
    for (field, names) in choices {
        let row = policy_row(field);
        for name in names {
            if !row.contains(&format!("`{name}`")) && !row.contains(&format!("\"{name}\"")) {
                missing.push(format!("docs/scenario.md `{field}` does not name {name}"));
            }
            if !dictionary.contains(&format!(r#""\"{name}\"""#)) {
                missing.push(format!(r#"fuzz/dict/json.dict has no "\"{name}\"""#));
            }
        }
    }
    // The estimator choices are lists of names.
    for value in select("karmada.rs", "ESTIMATORS") {
        let listed: Vec<String> = serde_json::from_str(&value.replace("\\\"", "\"")).unwrap();
        for name in listed {
            if Estimator::named(&name).is_none() {
                missing.push(format!("www/src/editor/karmada.rs ESTIMATORS: {name}"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
