//! Readers for vector JSON shared by the family runners: missing or mistyped fields read as
//! empty or zero, so a case that lacks a field is judged by the expectation, not by a panic.

use std::collections::BTreeMap;

use serde_json::Value;

use allot_core::selector::cluster::{ClusterAffinity, FieldSelector};
use allot_core::selector::label::{LabelSelector, Requirement};

/// An array of names (non-strings skipped).
pub fn names(v: &Value) -> Vec<allot_core::Name> {
    strings(v).iter().map(|s| s.as_str().into()).collect()
}

/// An array of strings (non-strings skipped).
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// An object read value by value.
pub fn map_of<T>(v: &Value, read: impl Fn(&Value) -> T) -> BTreeMap<String, T> {
    v.as_object()
        .map(|o| o.iter().map(|(k, v)| (k.clone(), read(v))).collect())
        .unwrap_or_default()
}

/// An object of strings (labels, selectors): a non-string value reads as its JSON text.
pub fn labels(v: &Value) -> allot_core::selector::label::Labels {
    allot_core::selector::label::labels_of(strings_map(v))
}

/// An object of strings (other values as their JSON text).
pub fn strings_map(v: &Value) -> BTreeMap<String, String> {
    map_of(v, |v| {
        v.as_str().map_or_else(|| v.to_string(), String::from)
    })
}

/// An object of non-negative integers (0 for anything else).
pub fn u64_map(v: &Value) -> BTreeMap<String, u64> {
    map_of(v, |v| v.as_u64().unwrap_or(0))
}

/// `[{key, operator, values}]`.
pub fn requirements(v: &Value) -> Vec<Requirement> {
    v.as_array()
        .map(|a| a.iter().map(requirement).collect())
        .unwrap_or_default()
}

/// `{key, operator, values}`.
pub fn requirement(r: &Value) -> Requirement {
    Requirement {
        key: r["key"].as_str().unwrap_or("").into(),
        operator: r["operator"].as_str().unwrap_or("").into(),
        values: strings(&r["values"]),
    }
}

/// `{cluster_names?, exclude_clusters?, match_labels?, match_expressions?, field_selector?}`.
pub fn cluster_affinity(a: &Value) -> ClusterAffinity {
    ClusterAffinity {
        cluster_names: strings(&a["cluster_names"]),
        exclude: strings(&a["exclude_clusters"]),
        label_selector: a.get("match_labels").map(|m| LabelSelector {
            match_labels: labels(m),
            match_expressions: requirements(&a["match_expressions"]),
        }),
        field_selector: a.get("field_selector").map(|f| FieldSelector {
            match_expressions: requirements(f),
        }),
    }
}
