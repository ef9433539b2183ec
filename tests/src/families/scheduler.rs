//! The scheduler steps before the division: `filter_plugins.json`, `score_plugins.json`,
//! `select_clusters.json` and `affinity_terms.json` (karmada §12-15), each case read into
//! allot-core's types and run through the function it names.

use std::collections::BTreeMap;

use serde_json::Value;

use allot_core::error::Error;
use allot_core::karmada::affinity_terms::{
    affinity_index, placement_changed, replicas_changed, reschedule_required, run_terms, trigger,
    PlacementSpec, ReplicaScheduling, TriggerInput, WeightPreference,
};
use allot_core::karmada::cluster::Clusters;
use allot_core::karmada::constraints::{
    api_status, AffinityTerm, ApiEnablement, NamedAffinity, SpreadConstraint, SpreadField,
};
use allot_core::karmada::filter::{
    self, BindingView, Required, Tolerations, Verdict as PluginVerdict,
};
use allot_core::karmada::plugins::{enabled_names, Plugin};
use allot_core::karmada::score::{has_normalize, score};
use allot_core::karmada::select::{
    self, attach_zero_replicas, global_order, groups, multi_template, overflow_order, region_path,
    Candidate,
};
use allot_core::karmada::{assign, Cluster, Placement, StaticWeightRule, Strategy};
use allot_core::scenario::Target;
use allot_core::selector::node::{Taint, TaintEffect, Toleration, TolerationOperator};

use crate::json::{cluster_affinity, labels, names, strings};
use crate::Verdict;

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn judge<T: PartialEq + std::fmt::Debug>(expected: T, got: T) -> Verdict {
    if expected == got {
        Verdict::Pass
    } else {
        Verdict::Fail {
            expected: format!("{expected:?}"),
            got: format!("{got:?}"),
        }
    }
}

fn list(v: &Value) -> &[Value] {
    v.as_array().map_or(&[], Vec::as_slice)
}

fn tolerations(v: &Value) -> Vec<Toleration> {
    list(v)
        .iter()
        .map(|t| Toleration {
            key: s(&t["key"]).into(),
            operator: match s(&t["operator"]) {
                "Exists" => TolerationOperator::Exists,
                "Lt" => TolerationOperator::Lt,
                "Gt" => TolerationOperator::Gt,
                _ => TolerationOperator::Equal,
            },
            value: s(&t["value"]).into(),
            effect: TaintEffect::parse(s(&t["effect"])),
        })
        .collect()
}

/// Taints with an effect other than the three known ones are left out: the filter ignores
/// them (empty effects).
fn taints(v: &Value) -> Vec<Taint> {
    list(v)
        .iter()
        .filter_map(|t| {
            Some(Taint {
                key: s(&t["key"]).into(),
                value: s(&t["value"]).into(),
                effect: TaintEffect::parse(s(&t["effect"]))?,
            })
        })
        .collect()
}

fn spread(v: &Value) -> Vec<SpreadConstraint> {
    list(v)
        .iter()
        .map(|c| SpreadConstraint {
            spread_by_field: match s(&c["spread_by_field"]) {
                "cluster" => Some(SpreadField::Cluster),
                "region" => Some(SpreadField::Region),
                "zone" => Some(SpreadField::Zone),
                "provider" => Some(SpreadField::Provider),
                _ => None,
            },
            spread_by_label: s(&c["spread_by_label"]).into(),
            min_groups: c["min_groups"].as_u64().unwrap_or(0) as u32,
            max_groups: c["max_groups"].as_u64().unwrap_or(0) as u32,
        })
        .collect()
}

fn named(v: &Value) -> NamedAffinity {
    NamedAffinity {
        affinity_name: s(&v["affinity_name"]).into(),
        affinity: cluster_affinity(&v["affinity"]),
    }
}

fn placement(p: &Value) -> PlacementSpec {
    let rs = &p["replica_scheduling"];
    PlacementSpec {
        cluster_affinity: p
            .get("cluster_affinity")
            .filter(|a| !a.is_null())
            .map(cluster_affinity),
        cluster_affinities: list(&p["cluster_affinities"])
            .iter()
            .map(|t| {
                let n = named(t);
                AffinityTerm {
                    affinity_name: n.affinity_name,
                    affinity: n.affinity,
                    overflow_affinities: list(&t["overflow_affinities"])
                        .iter()
                        .map(named)
                        .collect(),
                }
            })
            .collect(),
        cluster_tolerations: tolerations(&p["cluster_tolerations"]),
        spread_constraints: spread(&p["spread_constraints"]),
        replica_scheduling: rs.is_object().then(|| ReplicaScheduling {
            replica_scheduling_type: s(&rs["type"]).into(),
            replica_division_preference: s(&rs["division_preference"]).into(),
            weight_preference: rs["weight_preference"].is_object().then(|| {
                let w = &rs["weight_preference"];
                WeightPreference {
                    static_weight_list: list(&w["static_weight_list"])
                        .iter()
                        .map(|r| StaticWeightRule {
                            target_cluster: cluster_affinity(&r["target_cluster"]),
                            weight: r["weight"].as_i64().unwrap_or(0),
                        })
                        .collect(),
                    dynamic_weight: s(&w["dynamic_weight"]).into(),
                }
            }),
        }),
        workload_affinity: None,
    }
}

/// A cluster of the shared shape, as a scenario's cluster.
fn cluster(c: &Value) -> Target {
    Target {
        name: s(&c["name"]).into(),
        labels: labels(&c["labels"]),
        provider: s(&c["provider"]).into(),
        region: s(&c["region"]).into(),
        zones: names(&c["zones"]),
        taints: taints(&c["taints"]),
        api_enablements: list(&c["api_enablements"])
            .iter()
            .map(|a| ApiEnablement {
                group_version: s(&a["group_version"]).into(),
                kinds: strings(&a["kinds"]).into_iter().map(Into::into).collect(),
            })
            .collect(),
        complete_api_enablements: c["complete_api_enablements"].as_bool(),
        ..Target::default()
    }
}

fn previous(v: &Value) -> BTreeMap<String, i64> {
    match v {
        Value::Array(a) => a
            .iter()
            .map(|c| (s(&c["name"]).into(), c["replicas"].as_i64().unwrap_or(0)))
            .collect(),
        _ => v
            .as_object()
            .map(|o| {
                o.iter()
                    .map(|(k, v)| (k.clone(), v.as_i64().unwrap_or(0)))
                    .collect()
            })
            .unwrap_or_default(),
    }
}

fn plugin(v: &Value) -> Option<Plugin> {
    Plugin::ALL.into_iter().find(|p| p.name() == s(v))
}

pub fn run_filter(case: &Value) -> Verdict {
    match s(&case["fn"]) {
        "filter" => {
            let b = &case["binding"];
            let Some(p) = plugin(&case["plugin"]) else {
                return judge("a plugin", s(&case["plugin"]));
            };
            let spec = placement(&b["placement"]);
            let prev = previous(&b["clusters"]);
            let evictions: Vec<String> = list(&b["graceful_eviction_tasks"])
                .iter()
                .map(|t| s(&t["from_cluster"]).into())
                .collect();
            let r = &b["resource"];
            let tolerations = Tolerations::new(&spec.cluster_tolerations);
            let workload = b["replicas"].as_i64().unwrap_or(0) > 0
                || b["has_replica_requirements"].as_bool().unwrap_or(false)
                || !list(&b["components"]).is_empty();
            let observed = s(&b["observed_affinity_name"]);
            let c = [cluster(&case["cluster"])];
            let set = Clusters::new(&c);
            let set = set.compiled();
            let resource = Some((s(&r["api_version"]), s(&r["kind"])));
            let required = Required::new(&spec.rules(), observed, workload, set);
            let judged = set.judge(&tolerations, resource);
            let view = BindingView {
                resource,
                workload,
                evictions: &evictions,
                observed,
                rules: spec.rules(),
                tolerations: &tolerations,
                affinity: required.as_ref(),
                judged: &judged,
                groups: None,
            };
            let placed = prev.contains_key(c[0].name.as_str());
            let Some(cluster) = set.view(0, placed) else {
                return judge("a cluster", "none");
            };
            let got = match filter::filter(p, &view, &cluster) {
                PluginVerdict::Unschedulable { reason } => ("Unschedulable", Some(reason)),
                _ => ("Success", None),
            };
            let e = &case["expect"];
            let reason = e["reason"].as_str().map(String::from);
            let expected = (s(&e["code"]), reason.clone());
            // Only compare the reason where the case states one.
            let got = (got.0, if reason.is_some() { got.1 } else { None });
            judge(expected, got)
        }
        "api_enablement_status" => {
            let c = cluster(&case["cluster"]);
            let got = api_status(
                &c.api_enablements,
                c.complete_api_enablements,
                s(&case["api_version"]),
                s(&case["kind"]),
            );
            judge(s(&case["expect"]).to_string(), format!("{got:?}"))
        }
        "run_filter_plugins" => {
            // The framework runs the plugins in order and stops at the first non-success; the
            // cluster is feasible only when every plugin passed.
            let codes = strings(&case["plugins"]);
            judge(
                case["expect_success"].as_bool(),
                Some(codes.iter().all(|c| c == "Success")),
            )
        }
        "fit_error_message" => {
            let reasons = case["reasons_by_cluster"]
                .as_object()
                .map(|o| o.values().flat_map(strings).collect::<Vec<_>>())
                .unwrap_or_default();
            let got = filter::fit_error_message(
                case["num_all_clusters"].as_u64().unwrap_or(0) as usize,
                reasons.iter().map(String::as_str),
            );
            judge(s(&case["expect"]).to_string(), got)
        }
        "registry_filter" => {
            let reg = strings(&case["registered"]);
            let reg: Vec<&str> = reg.iter().map(String::as_str).collect();
            let flag = strings(&case["plugins_flag"]);
            let flag: Vec<&str> = flag.iter().map(String::as_str).collect();
            judge(strings(&case["expect"]), {
                enabled_names(&reg, &flag)
                    .into_iter()
                    .map(String::from)
                    .collect()
            })
        }
        other => judge("a filter fn", other),
    }
}

pub fn run_score(case: &Value) -> Verdict {
    match s(&case["fn"]) {
        "score" => {
            let Some(p) = plugin(&case["plugin"]) else {
                return judge("a plugin", s(&case["plugin"]));
            };
            let prev = previous(&case["binding"]["clusters"]);
            judge(
                case["expect"].as_i64(),
                Some(score(p, &prev, s(&case["cluster"]["name"]))),
            )
        }
        "score_extensions" => {
            let Some(p) = plugin(&case["plugin"]) else {
                return judge("a plugin", s(&case["plugin"]));
            };
            let e = &case["expect"];
            let has = has_normalize(p);
            judge(
                (e["has_normalize"].as_bool(), e["normalize_code"].as_str()),
                (Some(has), has.then_some("Success")),
            )
        }
        "run_score_plugins" => {
            // Any plugin's non-success score or normalization fails the whole attempt.
            let ok = list(&case["plugins"]).iter().all(|p| {
                s(&p["score_code"]) == "Success"
                    && (p["normalize_code"].is_null() || s(&p["normalize_code"]) == "Success")
            });
            judge(case["expect_success"].as_bool(), Some(ok))
        }
        other => judge("a score fn", other),
    }
}

/// `{name, score, available_replicas, provider?, region?, zones?}` clusters, owned.
struct Scored {
    c: Target,
    score: i64,
    avail: u64,
}

fn scored(v: &Value) -> Vec<Scored> {
    list(v)
        .iter()
        .map(|x| Scored {
            c: cluster(x),
            score: x["score"].as_i64().unwrap_or(0),
            avail: x["available_replicas"].as_u64().unwrap_or(0),
        })
        .collect()
}

fn candidates(v: &[Scored]) -> Vec<Candidate<'_>> {
    v.iter()
        .map(|x| Candidate {
            name: &x.c.name,
            provider: &x.c.provider,
            region: &x.c.region,
            zones: &x.c.zones,
            score: x.score,
            avail: x.avail as i64,
            overflow_order: 0,
        })
        .collect()
}

fn names_of(g: &[Candidate<'_>], idx: &[usize]) -> Vec<String> {
    idx.iter().map(|&i| g[i].name.to_string()).collect()
}

fn expect_names_or_error(case: &Value, got: Result<Vec<String>, Error>) -> Verdict {
    match (case.get("expect_error").and_then(Value::as_str), got) {
        (Some(e), Err(err)) => {
            let want = e.strip_prefix("error: ").unwrap_or(e);
            judge(true, err.to_string().contains(want)).or_detail(e, &err.to_string())
        }
        (Some(e), Ok(n)) => judge(e.to_string(), format!("{n:?}")),
        (None, got) => judge(Ok(strings(&case["expect"])), got.map_err(|e| e.to_string())),
    }
}

trait OrDetail {
    fn or_detail(self, expected: &str, got: &str) -> Verdict;
}

impl OrDetail for Verdict {
    fn or_detail(self, expected: &str, got: &str) -> Verdict {
        match self {
            Verdict::Pass => Verdict::Pass,
            _ => Verdict::Fail {
                expected: expected.into(),
                got: got.into(),
            },
        }
    }
}

pub fn run_select(case: &Value) -> Verdict {
    match s(&case["fn"]) {
        "select_best_clusters" => {
            let spec = placement(&case["placement"]);
            let cs = scored(&case["clusters"]);
            let g = candidates(&cs);
            let need = case["need_replicas"].as_u64().unwrap_or(0);
            let got = select::select_best(&g, &spec.rules(), need, need)
                .map(|sel| names_of(&g, &sel.chosen));
            expect_names_or_error(case, got)
        }
        "select_by_region" => {
            let regions = list(&case["regions"]);
            let owned: Vec<Vec<Scored>> = regions.iter().map(|r| scored(&r["clusters"])).collect();
            let mut g = Vec::new();
            let mut groups_in = Vec::new();
            for (r, cs) in regions.iter().zip(&owned) {
                let start = g.len();
                g.extend(candidates(cs));
                groups_in.push((
                    s(&r["name"]).to_string(),
                    r["score"].as_i64().unwrap_or(0),
                    (start..g.len()).collect::<Vec<usize>>(),
                ));
            }
            let pair = |c: &Value| {
                (
                    c["min_groups"].as_u64().unwrap_or(0) as u32,
                    c["max_groups"].as_u64().unwrap_or(0) as u32,
                )
            };
            let got = region_path::select(
                &g,
                &groups_in,
                pair(&case["region_constraint"]),
                pair(&case["cluster_constraint"]),
            )
            .map(|sel| names_of(&g, &sel.chosen));
            expect_names_or_error(case, got)
        }
        "select_groups" => {
            let gs = list(&case["groups"]);
            let inputs: Vec<groups::GroupInput<'_>> = gs
                .iter()
                .map(|x| groups::GroupInput {
                    name: s(&x["name"]),
                    value: x["value"].as_u64().unwrap_or(0),
                    weight: x["weight"].as_i64().unwrap_or(0),
                })
                .collect();
            let got = groups::select_groups(
                &inputs,
                case["min_groups"].as_u64().unwrap_or(0) as u32,
                case["max_groups"].as_u64().unwrap_or(0) as u32,
                case["target"].as_u64().unwrap_or(0),
            )
            .map(|o| o.map(|v| v.iter().map(|&i| inputs[i].name.to_string()).collect()));
            let expected = case["expect"].as_array().map(|_| strings(&case["expect"]));
            judge(Ok(expected), got.map_err(|e| e.to_string()))
        }
        "group_clusters" => {
            let spec = placement(&case["placement"]);
            let rules = spec.rules();
            let alloc = &case["allocatable_replicas"];
            let prev = previous(&case["previous"]);
            let cs: Vec<Scored> = list(&case["clusters"])
                .iter()
                .map(|x| {
                    let c = cluster(x);
                    let avail = alloc[c.name.as_str()].as_u64().unwrap_or(0)
                        + prev.get(c.name.as_str()).copied().unwrap_or(0).max(0) as u64;
                    Scored {
                        score: x["score"].as_i64().unwrap_or(0),
                        avail,
                        c,
                    }
                })
                .collect();
            let all = candidates(&cs);
            let order = global_order(&all, true);
            let g: Vec<Candidate<'_>> = order.iter().map(|&i| all[i]).collect();
            let count = |f: SpreadField| {
                if groups::skipped(&rules) || rules.constraint(f).is_none() {
                    0
                } else {
                    groups::build(&g, f).len()
                }
            };
            let e = &case["expect"];
            judge(
                (
                    strings(&e["order"]),
                    e["zone_count"].as_u64(),
                    e["region_count"].as_u64(),
                    e["provider_count"].as_u64(),
                ),
                (
                    names_of(&g, &(0..g.len()).collect::<Vec<_>>()),
                    Some(count(SpreadField::Zone) as u64),
                    Some(count(SpreadField::Region) as u64),
                    Some(count(SpreadField::Provider) as u64),
                ),
            )
        }
        "group_score_compare" | "group_score" => {
            let spec = placement(&case["placement"]);
            let rules = spec.rules();
            let r = case["replicas"].as_u64().unwrap_or(0);
            let min = case["min_groups"].as_u64().unwrap_or(0) as u32;
            let score_of = |v: &Value| {
                let cs = scored(v);
                let g = candidates(&cs);
                let members: Vec<usize> = (0..g.len()).collect();
                groups::score(&g, &members, &rules, r, min)
            };
            if s(&case["fn"]) == "group_score" {
                judge(case["expect"].as_i64(), Some(score_of(&case["clusters"])))
            } else {
                let (a, b) = (score_of(&case["clusters1"]), score_of(&case["clusters2"]));
                judge(case["expect_group1_wins"].as_bool(), Some(a >= b))
            }
        }
        "sort_clusters" => {
            let cs = scored(&case["clusters"]);
            let g = candidates(&cs);
            let by = case["by_available_replicas"].as_bool().unwrap_or(true);
            judge(
                strings(&case["expect"]),
                names_of(&g, &global_order(&g, by)),
            )
        }
        "spread_constraint_exists" => {
            let fields: Vec<SpreadConstraint> = strings(&case["spread_by_fields"])
                .iter()
                .map(|f| spread(&serde_json::json!([{ "spread_by_field": f }])).remove(0))
                .collect();
            let spec = PlacementSpec {
                spread_constraints: fields,
                ..PlacementSpec::default()
            };
            let field = spread(&serde_json::json!([{ "spread_by_field": case["field"] }]))
                .remove(0)
                .spread_by_field;
            let got = field.is_some_and(|f| spec.rules().constraint(f).is_some());
            judge(case["expect"].as_bool(), Some(got))
        }
        "select_clusters" => select_clusters(case),
        "multi_template_applicable" => {
            let spec = &case["spec"];
            let p = placement(&spec["placement"]);
            let rules = p.rules();
            let got = multi_template(
                list(&spec["components"]).len(),
                spec["placement"].is_object().then_some(&rules),
            );
            judge(case["expect"].as_bool(), Some(got))
        }
        "attach_zero_replicas" => {
            let selected = strings(&case["selected"]);
            let selected: Vec<&str> = selected.iter().map(String::as_str).collect();
            let mut result: Vec<(String, u64)> = list(&case["result"])
                .iter()
                .map(|r| (s(&r["name"]).into(), r["replicas"].as_u64().unwrap_or(0)))
                .collect();
            attach_zero_replicas(&selected, &mut result);
            let expected: Vec<(String, u64)> = list(&case["expect"])
                .iter()
                .map(|r| (s(&r["name"]).into(), r["replicas"].as_u64().unwrap_or(0)))
                .collect();
            judge(expected, result)
        }
        "assign_replicas_components" => assign_components(case),
        other => judge("a select fn", other),
    }
}

/// The whole select step (§14) from scores and estimator answers.
fn select_clusters(case: &Value) -> Verdict {
    let spec = placement(&case["placement"]);
    let rules = spec.rules();
    let observed = s(&case["observed_affinity_name"]);
    let replicas = case["replicas"].as_u64().unwrap_or(0);
    let components = list(&case["components"]).len();
    let prev = previous(&case["previous"]);
    let alloc = &case["allocatable_replicas"];
    let owned: Vec<(Target, i64)> = list(&case["clusters"])
        .iter()
        .map(|x| (cluster(x), x["score"].as_i64().unwrap_or(0)))
        .collect();
    let all: Vec<Candidate<'_>> = owned
        .iter()
        .map(|(c, score)| {
            // §11: without estimators (R = 0, no components) every cluster takes MaxInt32.
            let a = if alloc.is_null() {
                i32::MAX as u64
            } else {
                alloc[c.name.as_str()].as_u64().unwrap_or(replicas)
            };
            Candidate {
                name: &c.name,
                provider: &c.provider,
                region: &c.region,
                zones: &c.zones,
                score: *score,
                avail: (a + prev.get(c.name.as_str()).copied().unwrap_or(0).max(0) as u64) as i64,
                overflow_order: overflow_order(&rules, observed, &c.facts()),
            }
        })
        .collect();
    let g: Vec<Candidate<'_>> = global_order(&all, true).iter().map(|&i| all[i]).collect();
    let need = if multi_template(components, Some(&rules)) {
        1
    } else {
        replicas
    };
    let got = select::select_best(&g, &rules, replicas, need).map(|sel| names_of(&g, &sel.chosen));
    let insensitive = case["order_insensitive"].as_bool().unwrap_or(false);
    let sorted = |mut v: Vec<String>| {
        if insensitive {
            v.sort();
        }
        v
    };
    judge(
        Ok(sorted(strings(&case["expect"]))),
        got.map(sorted).map_err(|e| e.to_string()),
    )
}

/// §0 step 2 with components: a workload with at most one component is divided; otherwise
/// every candidate with no replicas, listing the components when multi-template scheduling
/// applies (gate on, several components).
fn assign_components(case: &Value) -> Verdict {
    let spec = placement(&case["placement"]);
    let comps = list(&case["components"]);
    let replicas = case["replicas"].as_i64().unwrap_or(0);
    let candidates = strings(&case["candidates"]);
    let gate = case["multiple_pod_templates_gate"]
        .as_bool()
        .unwrap_or(false);
    let expected: Vec<Value> = list(&case["expect"]).to_vec();
    let got: Vec<Value> = if replicas > 0 && comps.len() <= 1 {
        let strategy = match spec.replica_scheduling.as_ref() {
            None => Strategy::Duplicated,
            Some(r) if r.replica_scheduling_type == "Duplicated" => Strategy::Duplicated,
            Some(r) if r.replica_division_preference == "Aggregated" => Strategy::Aggregated,
            Some(r)
                if r.weight_preference
                    .as_ref()
                    .is_some_and(|w| !w.dynamic_weight.is_empty()) =>
            {
                Strategy::DynamicWeight
            }
            Some(_) => Strategy::StaticWeight,
        };
        let p = Placement {
            replicas,
            clusters: candidates
                .iter()
                .map(|n| Cluster {
                    name: n.as_str().into(),
                    ..Cluster::default()
                })
                .collect(),
            strategy,
            uid: s(&case["uid"]).into(),
            ..Placement::default()
        };
        match assign(&p) {
            Ok(o) => o
                .assignment
                .iter()
                .map(|a| serde_json::json!({"name": a.name, "replicas": a.replicas}))
                .collect(),
            Err(e) => return judge(format!("{expected:?}"), e.to_string()),
        }
    } else {
        let rules = spec.rules();
        let listed = gate
            && comps.len() > 1
            && multi_template(comps.len(), case["placement"].is_object().then_some(&rules));
        candidates
            .iter()
            .map(|n| {
                if listed {
                    let cs: Vec<Value> = comps
                        .iter()
                        .map(|c| serde_json::json!({"name": c["name"], "replicas": c["replicas"]}))
                        .collect();
                    serde_json::json!({"name": n, "components": cs})
                } else {
                    serde_json::json!({"name": n})
                }
            })
            .collect()
    };
    judge(expected, got)
}

pub fn run_affinity_terms(case: &Value) -> Verdict {
    match s(&case["fn"]) {
        "affinity_loop" => {
            let names = case["affinity_names"]
                .as_array()
                .map(|_| strings(&case["affinity_names"]));
            let names_ref: Option<Vec<&str>> = names
                .as_ref()
                .map(|v| v.iter().map(String::as_str).collect());
            let outcomes = list(&case["outcomes"]);
            let index_of = |name: &str| {
                names_ref
                    .as_ref()
                    .and_then(|n| n.iter().position(|x| *x == name))
                    .unwrap_or(0)
            };
            let out = run_terms(
                names_ref.as_deref(),
                s(&case["observed_affinity_name"]),
                case["reschedule_required"].as_bool().unwrap_or(false),
                |name| {
                    let o = &outcomes.get(index_of(name)).cloned().unwrap_or(Value::Null);
                    match s(&o["error"]) {
                        "fit" => Err(Error::NoClusterFit {
                            field: Default::default(),
                            message: "fit".into(),
                        }),
                        "other" => Err(Error::NoCandidates {
                            field: Default::default(),
                        }),
                        _ => Ok(o["result"].clone()),
                    }
                },
            );
            let e = &case["expect"];
            let clusters = out.writes_clusters.then(|| match &out.result {
                Ok(v) => v.clone(),
                Err(_) => Value::Array(Vec::new()),
            });
            let tried: Vec<String> = out.tried.iter().map(|a| a.affinity_name.clone()).collect();
            judge(
                (
                    e.get("clusters").cloned(),
                    s(&e["observed_affinity_name"]).to_string(),
                    e["error"].as_bool(),
                    e.get("tried").map(strings),
                ),
                (
                    clusters,
                    out.observed,
                    Some(out.result.is_err()),
                    e.get("tried").map(|_| tried),
                ),
            )
        }
        "affinity_index" => {
            let names = strings(&case["affinity_names"]);
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            judge(
                case["expect"].as_u64(),
                Some(affinity_index(&names, s(&case["observed_affinity_name"])) as u64),
            )
        }
        "placement_changed" => {
            let p = placement(&case["placement"]);
            let applied = case["applied_placement"]
                .is_object()
                .then(|| placement(&case["applied_placement"]));
            judge(
                case["expect"].as_bool(),
                Some(placement_changed(
                    &p,
                    applied.as_ref(),
                    s(&case["observed_affinity_name"]),
                )),
            )
        }
        "reschedule_required" => judge(
            case["expect"].as_bool(),
            Some(reschedule_required(
                case["reschedule_triggered_at"].as_i64(),
                case["last_scheduled_time"].as_i64(),
            )),
        ),
        "replicas_changed" => {
            let rs =
                placement(&serde_json::json!({"replica_scheduling": case["replica_scheduling"]}));
            let prev = previous_of(&case["clusters"]);
            judge(
                case["expect"].as_bool(),
                Some(replicas_changed(
                    case["multiple_pod_templates_gate"]
                        .as_bool()
                        .unwrap_or(false),
                    case["replicas"].as_i64().unwrap_or(0),
                    !list(&case["components"]).is_empty(),
                    &prev,
                    rs.replica_scheduling.as_ref(),
                )),
            )
        }
        "schedule_trigger" => {
            let p = placement(&case["placement"]);
            let applied = case["applied_placement"]
                .is_object()
                .then(|| placement(&case["applied_placement"]));
            let prev = previous_of(&case["clusters"]);
            let got = trigger(&TriggerInput {
                placement: &p,
                applied: applied.as_ref(),
                observed: s(&case["observed_affinity_name"]),
                replicas: case["replicas"].as_i64().unwrap_or(0),
                has_replica_requirements: case["has_replica_requirements"]
                    .as_bool()
                    .unwrap_or(false),
                has_components: !list(&case["components"]).is_empty(),
                multiple_pod_templates: case["multiple_pod_templates_gate"]
                    .as_bool()
                    .unwrap_or(false),
                previous: &prev,
                reschedule_triggered_at: case["reschedule_triggered_at"].as_i64(),
                last_scheduled: case["last_scheduled_time"].as_i64(),
                placed_cluster_deleting: false,
            });
            judge(case["expect_schedule"].as_bool(), Some(got.is_some()))
        }
        other => judge("an affinity-terms fn", other),
    }
}

/// A case's previous clusters as a binding holds them, each under its position (a case may
/// leave names out): every entry counts, as in the listed `spec.clusters`.
fn previous_of(clusters: &serde_json::Value) -> std::collections::BTreeMap<String, i64> {
    list(clusters)
        .iter()
        .enumerate()
        .map(|(i, c)| (format!("{i:04}"), c["replicas"].as_i64().unwrap_or(0)))
        .collect()
}
