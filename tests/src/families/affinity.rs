//! `cluster_affinity_match.json`: Karmada's ClusterAffinity matcher (`cluster_matches`) and the
//! zone field matcher (`match_zones`).

use serde_json::Value;

use allot_core::selector::cluster::{match_zones, ClusterAffinity, ClusterFacts, FieldSelector};
use allot_core::selector::label::{LabelSelector, Labels, Requirement};

use crate::Verdict;

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

fn labels(v: Option<&Value>) -> Labels {
    v.and_then(Value::as_object)
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").into()))
                .collect()
        })
        .unwrap_or_default()
}

fn requirements(v: Option<&Value>) -> Vec<Requirement> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|r| Requirement {
                    key: r["key"].as_str().unwrap_or("").into(),
                    operator: r["operator"].as_str().unwrap_or("").into(),
                    values: strings(r.get("values")),
                })
                .collect()
        })
        .unwrap_or_default()
}

pub fn run(case: &Value) -> Verdict {
    let expect = case.get("expect").and_then(Value::as_bool);
    let got = match case.get("fn").and_then(Value::as_str) {
        Some("match_zones") => match_zones(
            case["operator"].as_str().unwrap_or(""),
            &strings(case.get("values")),
            &strings(case.get("zones")),
        ),
        Some("cluster_matches") => {
            let c = &case["cluster"];
            let a = &case["affinity"];
            let affinity = ClusterAffinity {
                cluster_names: strings(a.get("cluster_names")),
                exclude: strings(a.get("exclude_clusters")),
                label_selector: a.get("match_labels").map(|m| LabelSelector {
                    match_labels: labels(Some(m)),
                    match_expressions: requirements(a.get("match_expressions")),
                }),
                field_selector: a.get("field_selector").map(|f| FieldSelector {
                    match_expressions: requirements(Some(f)),
                }),
            };
            let (cl_labels, zones) = (labels(c.get("labels")), strings(c.get("zones")));
            affinity.matches(&ClusterFacts {
                name: c["name"].as_str().unwrap_or(""),
                labels: &cl_labels,
                provider: c["provider"].as_str().unwrap_or(""),
                region: c["region"].as_str().unwrap_or(""),
                zones: &zones,
            })
        }
        other => {
            return Verdict::Fail {
                expected: "fn cluster_matches or match_zones".into(),
                got: format!("{other:?}"),
            }
        }
    };
    if Some(got) == expect {
        Verdict::Pass
    } else {
        Verdict::Fail {
            expected: format!("{expect:?}"),
            got: got.to_string(),
        }
    }
}
