//! `cluster_affinity_match.json`: Karmada's ClusterAffinity matcher (`cluster_matches`) and the
//! zone field matcher (`match_zones`).

use serde_json::Value;

use allot_core::selector::cluster::{match_zones, ClusterFacts, ZoneIn};

use crate::json::{cluster_affinity, labels, names, strings};
use crate::Verdict;

pub fn run(case: &Value) -> Verdict {
    let expect = case.get("expect").and_then(Value::as_bool);
    let got = match case.get("fn").and_then(Value::as_str) {
        Some("match_zones") => match_zones(
            case["operator"].as_str().unwrap_or(""),
            &strings(&case["values"]),
            &names(&case["zones"]),
            ZoneIn::Any,
        ),
        Some("cluster_matches") => {
            let c = &case["cluster"];
            let affinity = cluster_affinity(&case["affinity"]);
            let (cl_labels, zones) = (labels(&c["labels"]), names(&c["zones"]));
            affinity.matches(
                &ClusterFacts {
                    name: c["name"].as_str().unwrap_or(""),
                    labels: &cl_labels,
                    provider: c["provider"].as_str().unwrap_or(""),
                    region: c["region"].as_str().unwrap_or(""),
                    zones: &zones,
                },
                ZoneIn::Any,
            )
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
