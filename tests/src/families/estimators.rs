//! `general_estimator.json`, `resource_models.json`, `accurate_estimator.json`: Karmada's
//! replica estimators through `allot_core::estimate`, dispatched on each case's `fn`.
//!
//! Vector quantities are integers already in allot's units (millicores, bytes, counts; or
//! milli-units throughout for `*_milli` fields), so they are read with `from_units`.

use std::collections::BTreeMap;

use serde_json::Value;

use allot_core::estimate::accurate::{Node, NodeState, Pod, PodPhase};
use allot_core::estimate::by_model::{
    legacy_node_replicas, minimum_model_index, replicas_by_models, sets_by_models, ModelMethod,
};
use allot_core::estimate::framework::{self, Code, PluginResult};
use allot_core::estimate::general::{
    allowed_pods, max_available_component_sets, max_available_replicas, summary_bound, ClusterView,
    ResourceSummary, Summary,
};
use allot_core::estimate::models::{
    grade_counts, grade_index, search_last_le, AllocatableModeling, FullNodes, GradedNode,
    ModelRange, ResourceModel, UNBOUNDED,
};
use allot_core::estimate::{AssumedWorkload, Component, Gates};
use allot_core::resource::ResourceList;
use allot_core::selector::node::{
    NodeClaim, NodeFacts, NodeSelector, NodeSelectorTerm, Taint, TaintEffect, Toleration,
    TolerationOperator,
};

use crate::json::{labels, requirements, strings_map};
use crate::Verdict;

pub fn run(case: &Value) -> Verdict {
    let f = case.get("fn").and_then(Value::as_str).unwrap_or("");
    let got: Result<Value, String> = match f {
        "max_available_replicas" | "general_max_available_replicas_with_models" => {
            Ok(general_replicas(case).into())
        }
        "allowed_pods" => {
            let allowed = allowed_pods(&summary(&case["summary"]).unwrap_or_default());
            Ok(Value::from(allowed.clamp(0, i64::MAX.into()) as i64))
        }
        "cluster_summary_bound" => {
            let s = summary(&case["summary"]).unwrap_or_default();
            let (b, _, _) = summary_bound(&s, &resources(&case["request"]));
            Ok(b.min(i64::MAX as u64).into())
        }
        "max_available_component_sets" => {
            let s = summary(&case["summary"]);
            let models = models(case);
            let assumed = assumed(&case["assumed"]);
            let compiled = s.as_ref().map(Summary::of);
            let mut view = view(case, compiled.as_ref(), &models);
            view.assumed = &assumed;
            Ok(
                max_available_component_sets(&view, &components(&case["components"]))
                    .replicas
                    .into(),
            )
        }
        "replicas_by_models" => {
            let r = replicas_by_models(
                &models(case),
                &modelings(&case["allocatable_modelings"]),
                &resources(&case["request"]),
                method(case),
                &[],
            );
            r.map(|m| m.replicas.into()).map_err(|e| e.to_string())
        }
        "sets_by_models" => sets_by_models(
            &models(case),
            &modelings(&case["allocatable_modelings"]),
            &components(&case["components"]),
            case["upper_bound"].as_u64().unwrap_or(i32::MAX as u64),
            &assumed(&case["assumed"]),
        )
        .map(|m| m.replicas.into())
        .map_err(|e| e.to_string()),
        "legacy_node_available_replicas" => {
            let index = case["model_index"].as_u64().unwrap_or(0) as usize;
            let by_res = &case["models_min_by_resource"];
            let mins = |r: &str| {
                by_res
                    .get(r)
                    .and_then(|v| v.get(index))
                    .and_then(Value::as_u64)
            };
            Ok(legacy_node_replicas(&mins, &resources(&case["request"])).into())
        }
        "legacy_minimum_model_index" => {
            let mins = u64s(&case["mins"]);
            let request = case["request"].as_u64().unwrap_or(0);
            Ok(index_value(minimum_model_index(&mins, request)))
        }
        "search_last_le" => Ok(index_value(search_last_le(
            &u64s(&case["sorted_mins"]),
            case["target"].as_u64().unwrap_or(0),
        ))),
        "node_grade_index" => {
            let m = milli_models(&case["models_milli"]);
            let free = resources(&case["node_available_milli"]);
            Ok(index_value(grade_index(&m, |r| free.get(r))))
        }
        "grade_counts" => return grade_counts_case(case),
        "server_max_available_replicas" => server_replicas(case),
        "node_resource_estimate_components" => {
            return node_resource_components(case);
        }
        "simulate_scheduling" => state(case).map(|s| {
            s.simulate(
                &components(&case["components"]),
                &[],
                case["upper_bound"].as_u64().unwrap_or(i32::MAX as u64),
            )
            .into()
        }),
        "match_node" => Ok(match_node(case).into()),
        "framework_merge_replicas" => return framework_case(case),
        other => {
            return Verdict::Fail {
                expected: "a known fn".into(),
                got: format!("fn {other:?}"),
            }
        }
    };
    compare(case, got)
}

fn compare(case: &Value, got: Result<Value, String>) -> Verdict {
    let wants_error = case
        .get("expect_error")
        .is_some_and(|e| e.as_bool() != Some(false) && !e.is_null());
    match (got, wants_error) {
        (Err(_), true) => Verdict::Pass,
        (Err(e), false) => Verdict::Fail {
            expected: case["expect"].to_string(),
            got: format!("error: {e}"),
        },
        (Ok(v), true) => Verdict::Fail {
            expected: "an error".into(),
            got: v.to_string(),
        },
        (Ok(v), false) => {
            if same_number(&v, &case["expect"]) {
                Verdict::Pass
            } else {
                Verdict::Fail {
                    expected: case["expect"].to_string(),
                    got: v.to_string(),
                }
            }
        }
    }
}

fn same_number(a: &Value, b: &Value) -> bool {
    match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
        (Some(x), Some(y), _, _) => x == y,
        (_, _, Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

fn index_value(i: Option<usize>) -> Value {
    i.map_or(Value::from(-1), Value::from)
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
}

/// `{name: int}` in allot's units; null or absent is empty.
fn resources(v: &Value) -> ResourceList {
    v.as_object()
        .map(|o| {
            ResourceList::from_units(o.iter().map(|(k, q)| (k.as_str(), q.as_u64().unwrap_or(0))))
        })
        .unwrap_or_default()
}

fn summary(v: &Value) -> Option<ResourceSummary> {
    v.as_object()?;
    Some(ResourceSummary {
        allocatable: resources(&v["allocatable"]),
        allocated: resources(&v["allocated"]),
        allocating: resources(&v["allocating"]),
        allocatable_modelings: modelings(&v["allocatable_modelings"]),
    })
}

fn gates(case: &Value) -> Gates {
    let g = &case["feature_gates"];
    let d = Gates::default();
    Gates {
        scheduling_overcommit_protection: g["SchedulingOvercommitProtection"]
            .as_bool()
            .unwrap_or(d.scheduling_overcommit_protection),
        customized_cluster_resource_modeling: g["CustomizedClusterResourceModeling"]
            .as_bool()
            .unwrap_or(d.customized_cluster_resource_modeling),
        ..d
    }
}

fn method(case: &Value) -> ModelMethod {
    match case.get("variant").and_then(Value::as_str) {
        Some("legacy_grade_formula") => ModelMethod::GradeFormula,
        _ => ModelMethod::Simulator,
    }
}

fn modelings(v: &Value) -> Vec<AllocatableModeling> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|m| AllocatableModeling {
                    grade: m["grade"].as_u64().unwrap_or(0),
                    count: m["count"].as_u64().unwrap_or(0),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Models given by their mins only: each max is the next grade's min, the last unbounded.
fn models_from(list: &Value, min_key: &str) -> Vec<ResourceModel> {
    let items: Vec<(u64, ResourceList)> = list
        .as_array()
        .map(|a| {
            a.iter()
                .map(|m| (m["grade"].as_u64().unwrap_or(0), resources(&m[min_key])))
                .collect()
        })
        .unwrap_or_default();
    let mut sorted = items.clone();
    sorted.sort_by_key(|(g, _)| *g);
    items
        .iter()
        .map(|(grade, mins)| {
            let next = sorted
                .iter()
                .find(|(g, _)| g > grade)
                .map(|(_, m)| m.clone());
            ResourceModel {
                grade: *grade,
                ranges: mins
                    .iter()
                    .map(|(r, min)| ModelRange {
                        name: r.into(),
                        min,
                        max: next.as_ref().map_or(UNBOUNDED, |n| n.get(r)),
                    })
                    .collect(),
            }
        })
        .collect()
}

fn models(case: &Value) -> Vec<ResourceModel> {
    let list = if case["models"].is_array() {
        &case["models"]
    } else {
        &case["summary"]["models"]
    };
    models_from(list, "min")
}

fn milli_models(v: &Value) -> Vec<ResourceModel> {
    models_from(v, "min_milli")
}

fn claim(v: &Value) -> Option<NodeClaim> {
    v.as_object()?;
    Some(NodeClaim {
        node_selector: strings_map(&v["node_selector"]),
        hard_node_affinity: v["node_affinity"].as_array().map(|terms| NodeSelector {
            node_selector_terms: terms
                .iter()
                .map(|t| NodeSelectorTerm {
                    match_expressions: requirements(&t["match_expressions"]),
                    match_fields: requirements(&t["match_fields"]),
                })
                .collect(),
        }),
        tolerations: v["tolerations"]
            .as_array()
            .map(|ts| {
                ts.iter()
                    .map(|t| Toleration {
                        key: t["key"].as_str().unwrap_or("").into(),
                        operator: match t["operator"].as_str().unwrap_or("") {
                            "Exists" => TolerationOperator::Exists,
                            "Lt" => TolerationOperator::Lt,
                            "Gt" => TolerationOperator::Gt,
                            _ => TolerationOperator::Equal,
                        },
                        value: t["value"].as_str().unwrap_or("").into(),
                        effect: TaintEffect::parse(t["effect"].as_str().unwrap_or("")),
                    })
                    .collect()
            })
            .unwrap_or_default(),
    })
}

fn taints(v: &Value) -> Vec<Taint> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|t| {
                    Some(Taint {
                        key: t["key"].as_str().unwrap_or("").into(),
                        value: t["value"].as_str().unwrap_or("").into(),
                        effect: TaintEffect::parse(t["effect"].as_str().unwrap_or(""))?,
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

fn components(v: &Value) -> Vec<Component> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|c| Component {
                    name: c["name"].as_str().unwrap_or("").into(),
                    replicas: c["replicas"].as_u64().unwrap_or(0),
                    requests: resources(&c["requests"]),
                    node_claim: claim(&c["node_claim"]),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn assumed(v: &Value) -> Vec<AssumedWorkload> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|w| AssumedWorkload {
                    namespace: w["namespace"].as_str().unwrap_or("").into(),
                    components: components(&w["components"]),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn view<'a>(
    case: &Value,
    summary: Option<&'a Summary>,
    models: &'a [ResourceModel],
) -> ClusterView<'a> {
    ClusterView {
        summary,
        models,
        gates: gates(case),
        model_method: method(case),
        assumed: &[],
    }
}

fn general_replicas(case: &Value) -> i64 {
    let mut s = summary(&case["summary"]);
    if let Some(s) = s.as_mut() {
        if s.allocatable_modelings.is_empty() {
            s.allocatable_modelings = modelings(&case["allocatable_modelings"]);
        }
    }
    let models = models(case);
    let assumed = assumed(&case["assumed"]);
    let compiled = s.as_ref().map(Summary::of);
    let mut view = view(case, compiled.as_ref(), &models);
    view.assumed = &assumed;
    let request = case.get("request").filter(|r| !r.is_null()).map(resources);
    max_available_replicas(&view, request.as_ref()).replicas
}

fn nodes(v: &Value) -> Vec<Node> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|n| Node {
                    name: n["name"].as_str().unwrap_or("").into(),
                    labels: labels(&n["labels"]),
                    taints: taints(&n["taints"]),
                    unschedulable: n["unschedulable"].as_bool().unwrap_or(false),
                    allocatable: resources(&n["allocatable"]),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn pods(v: &Value) -> Vec<Pod> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|p| Pod {
                    name: p["name"].as_str().unwrap_or("").into(),
                    node_name: p["node"]
                        .as_str()
                        .filter(|n| !n.is_empty())
                        .map(String::from),
                    phase: match p["phase"].as_str().unwrap_or("Running") {
                        "Pending" => PodPhase::Pending,
                        "Succeeded" => PodPhase::Succeeded,
                        "Failed" => PodPhase::Failed,
                        "Unknown" => PodPhase::Unknown,
                        _ => PodPhase::Running,
                    },
                    requests: resources(&p["requests"]),
                    ..Pod::default()
                })
                .collect()
        })
        .unwrap_or_default()
}

fn state(case: &Value) -> Result<NodeState, String> {
    NodeState::build(nodes(&case["nodes"]), &pods(&case["pods"])).map_err(|e| e.to_string())
}

fn server_replicas(case: &Value) -> Result<Value, String> {
    let s = state(case)?;
    let request = &case["request"];
    let claim = claim(&request["node_claim"]);
    let e = s
        .estimate(
            &resources(&request["resources"]),
            claim.as_ref(),
            &assumed(&case["assumed"]),
        )
        .map_err(|e| e.to_string())?;
    let answer = if s.nodes().is_empty() { 0 } else { e.replicas };
    Ok(answer.into())
}

fn code_name(c: Code) -> &'static str {
    match c {
        Code::Success => "Success",
        Code::Unschedulable => "Unschedulable",
        Code::Nooperation => "Noopperation",
        Code::Error => "Error",
    }
}

fn with_code(case: &Value, replicas: u64, code: Code) -> Verdict {
    let want_code = case["expect_code"].as_str();
    let ok_replicas = same_number(&Value::from(replicas), &case["expect"]);
    let ok_code = want_code.is_none_or(|w| w.eq_ignore_ascii_case(code_name(code)));
    if ok_replicas && ok_code {
        Verdict::Pass
    } else {
        Verdict::Fail {
            expected: format!("{} {}", case["expect"], want_code.unwrap_or("")),
            got: format!("{replicas} {}", code_name(code)),
        }
    }
}

fn node_resource_components(case: &Value) -> Verdict {
    let s = match state(case) {
        Ok(s) => s,
        Err(e) => {
            return Verdict::Fail {
                expected: case["expect"].to_string(),
                got: e,
            }
        }
    };
    let enabled = case["plugin_enabled"].as_bool().unwrap_or(true);
    match s.estimate_components(
        &components(&case["components"]),
        &assumed(&case["assumed"]),
        enabled,
    ) {
        Ok((replicas, code)) => with_code(case, replicas, code),
        Err(e) => Verdict::Fail {
            expected: case["expect"].to_string(),
            got: e.to_string(),
        },
    }
}

fn match_node(case: &Value) -> bool {
    let node = &case["node"];
    let Some(claim) = claim(&case["node_claim"]) else {
        return true;
    };
    if node.is_null() {
        // No node object: it always matches.
        return true;
    }
    let (l, t) = (labels(&node["labels"]), taints(&node["taints"]));
    claim.matches(&NodeFacts {
        name: node["name"].as_str().unwrap_or(""),
        labels: &l,
        taints: &t,
        unschedulable: node["unschedulable"].as_bool().unwrap_or(false),
    })
}

fn framework_case(case: &Value) -> Verdict {
    let plugins: Vec<PluginResult> = case["plugins"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|p| PluginResult {
                    replicas: p["replicas"].as_u64().unwrap_or(0),
                    code: serde_json::from_value(p["code"].clone()).unwrap_or(Code::Error),
                })
                .collect()
        })
        .unwrap_or_default();
    let m = framework::merge(&plugins);
    with_code(case, m.replicas, m.code)
}

/// A vector node for grade counting: free amounts in milli-units, how many identical nodes,
/// and free pod slots when the case gives them.
struct VectorNode {
    free: ResourceList,
    quantity: u64,
    free_pods: i128,
}

impl GradedNode for VectorNode {
    fn free_pods(&self) -> i128 {
        self.free_pods
    }
    fn free(&self, r: &str) -> u64 {
        self.free.get(r)
    }
    fn quantity(&self) -> u64 {
        self.quantity
    }
}

fn grade_counts_case(case: &Value) -> Verdict {
    let m = milli_models(&case["models_milli"]);
    let vector_nodes = || -> Vec<VectorNode> {
        case["nodes"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|n| VectorNode {
                        free: resources(&n["available_milli"]),
                        quantity: n["quantity"].as_u64().unwrap_or(1),
                        free_pods: n
                            .get("free_pods")
                            .and_then(Value::as_i64)
                            .map_or(1, i128::from),
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let as_map = |full: FullNodes| -> BTreeMap<String, u64> {
        grade_counts(&m, vector_nodes(), full)
            .into_iter()
            .filter(|a| a.count > 0)
            .map(|a| (a.grade.to_string(), a.count))
            .collect()
    };
    let expect: BTreeMap<String, u64> = case["expect"]
        .as_object()
        .map(|o| {
            o.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_u64()?)))
                .filter(|(_, v)| *v > 0)
                .collect()
        })
        .unwrap_or_default();
    let ours = as_map(FullNodes::Skip);
    if ours == expect {
        Verdict::Pass
    } else if as_map(FullNodes::StopCounting) == expect {
        Verdict::Deviation {
            reason: "Karmada stops counting nodes at the first node with no free pod slot; \
                     allot skips that node and counts the rest (docs/rules/README.md decision 5)"
                .into(),
        }
    } else {
        Verdict::Fail {
            expected: format!("{expect:?}"),
            got: format!("{ours:?}"),
        }
    }
}
