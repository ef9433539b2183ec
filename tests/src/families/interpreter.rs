//! `workload_interpreter.json`: Karmada's built-in replica interpreter (replicas and replica
//! requirements of a resource template), its node claim and pod request, and `SetMaxResource`.
//! Objects are read with allot's own JSON reader, as documents are.

use serde_json::{json, Map, Value};

use allot_core::json::from_json;
use allot_core::kubernetes::interpreter::{
    interpret, node_claim, pod_request, requirements, set_max, ReplicaRequirements, SUPPORTED,
};
use allot_core::kubernetes::objects::Object;
use allot_core::kubernetes::pod::{PodSpec, PodTemplateSpec};
use allot_core::resource::ResourceList;
use allot_core::selector::label::Requirement;
use allot_core::selector::node::NodeClaim;

use crate::Verdict;

pub fn run(case: &Value) -> Verdict {
    let got = match case["fn"].as_str().unwrap_or("") {
        "get_replicas" => match read::<Object>(&case["object"])
            .and_then(|w| interpret(&w).map_err(|e| e.to_string()))
        {
            Ok((replicas, r)) => json!({"replicas": replicas, "requirements": reqs(r.as_ref())}),
            Err(e) => json!({"error": e}),
        },
        "supported_kinds" => {
            let mut kinds: Vec<String> =
                SUPPORTED.iter().map(|(v, k)| format!("{v}/{k}")).collect();
            kinds.sort();
            let mut want: Vec<String> = crate::json::strings(&case["expect"]);
            want.sort();
            return verdict(json!(want), json!(kinds));
        }
        "generate_replica_requirements" => {
            match read::<PodTemplateSpec>(&case["pod_template"])
                .and_then(|t| requirements(&t.spec).map_err(|e| e.to_string()))
            {
                Ok(r) => reqs(r.as_ref()),
                Err(e) => json!({"error": e}),
            }
        }
        "generate_node_claim" => {
            match read::<PodSpec>(&case["pod_spec"])
                .and_then(|s| node_claim(&s).map_err(|e| e.to_string()))
            {
                Ok(c) => c.as_ref().map_or(Value::Null, claim),
                Err(e) => json!({"error": e}),
            }
        }
        "pod_template_request" => match read::<PodSpec>(&case["pod_spec"]) {
            Ok(s) => list(&pod_request(&s)),
            Err(e) => json!({"error": e}),
        },
        "set_max_resource" => {
            let units = |v: &Value| -> ResourceList {
                v.as_object()
                    .map(|o| {
                        o.iter()
                            .map(|(k, n)| (k.clone(), n.as_u64().unwrap_or(0)))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let mut current = units(&case["current"]);
            set_max(&mut current, &units(&case["other"]));
            list(&current)
        }
        other => return verdict(json!("a known fn"), json!(other)),
    };
    if case.get("expect_error").is_some() {
        return match got.get("error") {
            Some(_) => Verdict::Pass,
            None => verdict(case["expect_error"].clone(), got),
        };
    }
    verdict(case["expect"].clone(), got)
}

fn verdict(expected: Value, got: Value) -> Verdict {
    if expected == got {
        Verdict::Pass
    } else {
        Verdict::Fail {
            expected: expected.to_string(),
            got: got.to_string(),
        }
    }
}

fn read<T: serde::de::DeserializeOwned>(v: &Value) -> Result<T, String> {
    from_json(&v.to_string()).map_err(|e| e.to_string())
}

fn list(r: &ResourceList) -> Value {
    Value::Object(
        r.iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect::<Map<_, _>>(),
    )
}

fn reqs(r: Option<&ReplicaRequirements>) -> Value {
    r.map_or(Value::Null, |r| {
        json!({
            "node_claim": r.node_claim.as_ref().map_or(Value::Null, claim),
            "resource_request": r.resource_request.as_ref().map_or(Value::Null, list),
        })
    })
}

/// The README's node claim shape: only the fields that are set.
fn claim(c: &NodeClaim) -> Value {
    let mut out = Map::new();
    if !c.node_selector.is_empty() {
        out.insert("node_selector".into(), json!(c.node_selector));
    }
    if !c.tolerations.is_empty() {
        let t: Vec<Value> = c
            .tolerations
            .iter()
            .map(|t| {
                json!({"key": t.key.as_str(), "operator": format!("{:?}", t.operator),
                       "value": t.value.as_str(),
                       "effect": t.effect.map_or(String::new(), |e| format!("{e:?}"))})
            })
            .collect();
        out.insert("tolerations".into(), Value::Array(t));
    }
    if let Some(h) = &c.hard_node_affinity {
        let req =
            |r: &Requirement| json!({"key": r.key, "operator": r.operator, "values": r.values});
        let terms: Vec<Value> = h
            .node_selector_terms
            .iter()
            .map(|t| {
                json!({"match_expressions": t.match_expressions.iter().map(req).collect::<Vec<_>>(),
                       "match_fields": t.match_fields.iter().map(req).collect::<Vec<_>>()})
            })
            .collect();
        out.insert("hard_node_affinity".into(), Value::Array(terms));
    }
    Value::Object(out)
}
