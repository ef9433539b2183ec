//! `static_weight.json`, `dynamic_division.json`, `replica_division_legacy.json`: Karmada's
//! replica assignment at the levels the README lists, through `allot_core::karmada`.
//!
//! Levels that test a function returning 0-replica entries (`assign_static`, `assign_dynamic`,
//! `scale_up`) are read from the outcome plus the zero entries of its division trace, which is
//! exactly what that function returns; `assign_replicas` uses the outcome as is.

use std::collections::BTreeMap;

use serde_json::Value;

use allot_core::division::method::{divide, Input, Method};
use allot_core::karmada::{self, Cluster, Outcome, Placement, StaticWeightRule, Strategy};
use allot_core::selector::cluster::ClusterAffinity;
use allot_core::Error;

use crate::compare::{assignment, check_assignment, check_error, Assignment};
use crate::Verdict;

/// Seeds a random-tie case runs under: every result must be allowed, every allowed result seen.
const SEEDS: u64 = 256;

pub fn run(case: &Value) -> Verdict {
    let legacy = case.get("variant").and_then(Value::as_str) == Some("legacy_v1.8_to_v1.15");
    let method = if legacy {
        Method::Remainder
    } else {
        Method::Webster
    };
    let strict = case
        .get("strict_zero_entries")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let level = case.get("level").and_then(Value::as_str).unwrap_or("");
    let runner = |seed: u64| -> Result<Assignment, Error> {
        match level {
            "dispenser_take_by_weight" => Ok(take_by_weight(case, seed)),
            "divide" => divide_level(case, method, seed),
            // The strategy alone: every candidate, zeros kept, none of the entry's rules.
            "assign_duplicated" => {
                let p = placement(case, method, seed)?;
                let all: Vec<usize> = (0..p.clusters.len()).collect();
                let replicas = p.replicas.max(0) as u64;
                Ok(karmada::duplicated::run(&all, replicas)
                    .into_iter()
                    .map(|(i, r)| (p.clusters[i].name.to_string(), r as i64))
                    .collect())
            }
            _ => {
                let placement = placement(case, method, seed)?;
                let outcome = karmada::assign(&placement)?;
                Ok(if level == "assign_replicas" {
                    plain(&outcome)
                } else {
                    with_zero_entries(&outcome)
                })
            }
        }
    };
    if case.get("expect_error").is_some() {
        return check_error(case, runner(0));
    }
    if legacy && case.get("expect_one_of").is_some() {
        return every_seed(case, runner, strict);
    }
    match runner(0) {
        Ok(got) => check_assignment(case, &got, strict),
        Err(e) => Verdict::Fail {
            expected: "an assignment".into(),
            got: format!("error {} ({e})", e.code()),
        },
    }
}

/// Random ties: all seeds give an allowed result, and every allowed result is reachable.
fn every_seed(
    case: &Value,
    runner: impl Fn(u64) -> Result<Assignment, Error>,
    strict: bool,
) -> Verdict {
    let options: Vec<Assignment> = case["expect_one_of"]
        .as_array()
        .map(|o| {
            o.iter()
                .map(|x| crate::compare::without_zeros(&assignment(Some(x))))
                .collect()
        })
        .unwrap_or_default();
    let mut seen = vec![false; options.len()];
    for seed in 0..SEEDS {
        let got = match runner(seed) {
            Ok(g) => g,
            Err(e) => {
                return Verdict::Fail {
                    expected: "an assignment".into(),
                    got: e.to_string(),
                }
            }
        };
        let verdict = check_assignment(case, &got, strict);
        if verdict != Verdict::Pass {
            return verdict;
        }
        let g = crate::compare::without_zeros(&got);
        if let Some(k) = options.iter().position(|o| *o == g) {
            seen[k] = true;
        }
    }
    match seen.iter().position(|s| !s) {
        None => Verdict::Pass,
        Some(k) => Verdict::Fail {
            expected: format!("every option reachable over {SEEDS} seeds"),
            got: format!("never {}", crate::compare::show(&options[k])),
        },
    }
}

fn plain(outcome: &Outcome) -> Assignment {
    outcome
        .assignment
        .iter()
        .map(|a| (a.name.to_string(), a.replicas as i64))
        .collect()
}

fn with_zero_entries(outcome: &Outcome) -> Assignment {
    let mut got = plain(outcome);
    for d in &outcome.trace.divisions {
        for e in &d.entries {
            if e.initial + e.added == 0 {
                got.entry(e.cluster.to_string()).or_insert(0);
            }
        }
    }
    got
}

fn strategy(case: &Value) -> Result<Strategy, Error> {
    match case.get("strategy").and_then(Value::as_str) {
        None | Some("StaticWeight") => Ok(Strategy::StaticWeight),
        Some("DynamicWeight") => Ok(Strategy::DynamicWeight),
        Some("Aggregated") => Ok(Strategy::Aggregated),
        Some("Duplicated") => Ok(Strategy::Duplicated),
        Some(other) => Err(Error::UnknownValue {
            field: "strategy".into(),
            value: other.into(),
            expected: "duplicated, staticWeight, dynamicWeight, aggregated",
        }),
    }
}

fn placement(case: &Value, method: Method, seed: u64) -> Result<Placement, Error> {
    let strategy = strategy(case)?;
    let list = case
        .get("clusters")
        .or_else(|| case.get("candidates"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let clusters = list
        .iter()
        .map(|c| Cluster {
            name: c["name"].as_str().unwrap_or("").into(),
            available_replicas: c.get("allocatable_replicas").and_then(Value::as_i64),
            overflow_order: c.get("overflow_order").and_then(Value::as_i64).unwrap_or(0),
            ..Cluster::default()
        })
        .collect();
    let static_weights = case
        .get("static_weight_list")
        .and_then(Value::as_array)
        .map(|rules| {
            rules
                .iter()
                .map(|r| StaticWeightRule {
                    target_cluster: ClusterAffinity {
                        cluster_names: r["cluster_names"]
                            .as_array()
                            .map(|n| {
                                n.iter()
                                    .filter_map(Value::as_str)
                                    .map(String::from)
                                    .collect()
                            })
                            .unwrap_or_default(),
                        ..ClusterAffinity::default()
                    },
                    weight: r["weight"].as_i64().unwrap_or(0),
                })
                .collect()
        });
    Ok(Placement {
        replicas: case.get("replicas").and_then(Value::as_i64).unwrap_or(0),
        clusters,
        strategy,
        method,
        static_weights,
        previous: assignment(case.get("previous")).into_iter().collect(),
        uid: case.get("uid").and_then(Value::as_str).unwrap_or("").into(),
        seed: Some(seed),
        overflow: case
            .get("overflow_enabled")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        has_replica_requirements: case
            .get("has_replica_requirements")
            .and_then(Value::as_bool)
            .unwrap_or(true),
        ..Placement::default()
    })
}

fn divide_level(case: &Value, method: Method, seed: u64) -> Result<Assignment, Error> {
    let list: Vec<(String, u64)> = case["available_clusters"]
        .as_array()
        .map(|l| {
            l.iter()
                .map(|c| {
                    (
                        c["name"].as_str().unwrap_or("").to_string(),
                        c["replicas"].as_u64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let scheduled = assignment(case.get("scheduled"));
    let mut names: Vec<&str> = list.iter().map(|(n, _)| n.as_str()).collect();
    names.extend(
        scheduled
            .keys()
            .map(String::as_str)
            .filter(|n| !list.iter().any(|(m, _)| m == n)),
    );
    let index = |n: &str| names.iter().position(|m| *m == n).unwrap_or(0);
    let indexed: Vec<(usize, i64)> = list.iter().map(|(n, r)| (index(n), *r as i64)).collect();
    let held: Vec<(usize, u64)> = scheduled
        .iter()
        .map(|(n, &r)| (index(n), r.max(0) as u64))
        .collect();
    let aggregated = case.get("strategy").and_then(Value::as_str) == Some("Aggregated");
    let uid = case.get("uid").and_then(Value::as_str).unwrap_or("");
    let result = karmada::dynamic::divide(
        &names,
        &indexed,
        target(case),
        &held,
        aggregated,
        method,
        uid,
        seed,
    )?
    .result;
    Ok(result
        .into_iter()
        .map(|(i, r)| (names[i].to_string(), r as i64))
        .collect())
}

fn target(case: &Value) -> u64 {
    case.get("target_replicas")
        .and_then(Value::as_u64)
        .unwrap_or(0)
}

fn take_by_weight(case: &Value, seed: u64) -> Assignment {
    let init = assignment(case.get("init"));
    let weights = case["weights"].as_array().cloned().unwrap_or_default();
    let names: Vec<String> = weights
        .iter()
        .map(|w| w["name"].as_str().unwrap_or("").into())
        .collect();
    let inputs: Vec<Input<'_>> = weights
        .iter()
        .zip(&names)
        .map(|(w, name)| Input {
            name,
            weight: w["weight"].as_u64().unwrap_or(0),
            initial: init.get(name).copied().unwrap_or(0).max(0) as u64,
            last: w["last"].as_u64().unwrap_or(0),
        })
        .collect();
    let n = case
        .get("num_replicas")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let mut got: BTreeMap<String, i64> = init.clone();
    if let Ok((finals, _)) = divide(Method::Remainder, n, &inputs, "", seed) {
        for (i, f) in inputs.iter().zip(finals) {
            got.insert(i.name.to_string(), f as i64);
        }
    }
    got
}
