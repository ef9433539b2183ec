//! eru's vector families through `allot_core::eru`: `strategies.json`, `cpu_capacity.json`,
//! `memory_capacity.json`, `volume_capacity.json`, `storage_capacity.json`, `pipeline.json`,
//! `capacity_merge.json`. Schemas are in the eru vectors README.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use allot_core::eru::cpumem::{self, CpuMap, CpuMemConfig, CpuMemNode, CpuMemRequest, CpuMemUsage};
use allot_core::eru::merge::{merge, PluginFigure};
use allot_core::eru::pipeline::{self, Deploy, EruNode, EruRequest};
use allot_core::eru::storage::{self, StorageNode, StorageRequest};
use allot_core::eru::strategy::{self, Ask, Strategy, StrategyNode};
use allot_core::eru::volume::{self, Disk, Io, VolumeNode, VolumePlan};
use allot_core::eru::Capacity;
use allot_core::Error;

use crate::json::{map_of, strings, strings_map, u64_map};
use crate::Verdict;

fn fail(expected: impl ToString, got: impl ToString) -> Verdict {
    Verdict::Fail {
        expected: expected.to_string(),
        got: got.to_string(),
    }
}

fn capacity(v: &Value) -> Capacity {
    if v.as_str() == Some("unlimited") {
        Capacity::Unlimited
    } else {
        Capacity::Finite(v.as_u64().unwrap_or(0))
    }
}

fn i64_of(v: &Value) -> i64 {
    v.as_i64()
        .or_else(|| v.as_f64().map(|f| f as i64))
        .unwrap_or(0)
}

fn cpu_map(v: &Value) -> CpuMap {
    map_of(v, i64_of)
}

fn check_error(case: &Value, got: &Error) -> Verdict {
    let want = case["expect_error"].as_str().unwrap_or("");
    if got.code() == want {
        Verdict::Pass
    } else {
        fail(
            format!("error {want}"),
            format!("error {} ({got})", got.code()),
        )
    }
}

pub fn run_strategies(case: &Value) -> Verdict {
    let nodes: Vec<StrategyNode> = case["nodes"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|n| StrategyNode {
                    name: n["name"].as_str().unwrap_or("").into(),
                    capacity: capacity(&n["capacity"]),
                    count: n["count"].as_u64().unwrap_or(0),
                    usage: n["usage"].as_f64().unwrap_or(0.0),
                    rate: n["rate"].as_f64().unwrap_or(0.0),
                })
                .collect()
        })
        .unwrap_or_default();
    let result =
        Strategy::parse(case["strategy"].as_str().unwrap_or(""), "strategy").and_then(|s| {
            strategy::deploy(
                &nodes,
                Ask {
                    strategy: s,
                    need: i64_of(&case["count"]),
                    nodes_limit: i64_of(&case["nodes_limit"]),
                    total: case.get("total").filter(|t| !t.is_null()).map(capacity),
                },
            )
        });
    let d = match result {
        Err(e) if case.get("expect_error").is_some() => return check_error(case, &e),
        Err(e) => return fail("a deploy map", format!("error {} ({e})", e.code())),
        Ok(_) if case.get("expect_error").is_some() => {
            return fail(format!("error {}", case["expect_error"]), "a deploy map")
        }
        Ok(d) => d,
    };
    let got: BTreeMap<String, u64> = d
        .entries()
        .map(|(i, n)| (nodes[i].name.clone(), n))
        .collect();
    compare_deploy(
        case,
        &got,
        case["strategy"] == "FILL",
        &nodes.iter().map(|n| (n.name.clone(), n.count)).collect(),
    )
}

/// Compare a deploy map against `expect` (absent == 0, except FILL's listed zeros) or, for
/// tie-dependent cases, the sorted final counts and the total.
fn compare_deploy(
    case: &Value,
    got: &BTreeMap<String, u64>,
    keep_zeros: bool,
    counts: &BTreeMap<String, u64>,
) -> Verdict {
    if let Some(sorted) = case
        .get("expect_final_counts_sorted")
        .and_then(Value::as_array)
    {
        let mut finals: Vec<u64> = counts
            .iter()
            .map(|(n, c)| c + got.get(n).copied().unwrap_or(0))
            .collect();
        finals.sort_unstable();
        let want: Vec<u64> = sorted.iter().filter_map(Value::as_u64).collect();
        let total_ok = case
            .get("expect_total_deployed")
            .and_then(Value::as_u64)
            .is_none_or(|t| t == got.values().sum::<u64>());
        return if finals == want && total_ok {
            Verdict::Pass
        } else {
            fail(format!("{want:?}"), format!("{finals:?} from {got:?}"))
        };
    }
    let want: BTreeMap<String, u64> = u64_map(&case["expect"]);
    let strip = |m: &BTreeMap<String, u64>| -> BTreeMap<String, u64> {
        m.iter()
            .filter(|(_, &v)| keep_zeros || v > 0)
            .map(|(k, &v)| (k.clone(), v))
            .collect()
    };
    if strip(got) == strip(&want) {
        Verdict::Pass
    } else {
        fail(format!("{want:?}"), format!("{got:?}"))
    }
}

fn cpumem_node(n: &Value) -> CpuMemNode {
    CpuMemNode {
        cpu_map: cpu_map(&n["cpu_map"]),
        memory: i64_of(&n["memory"]),
        numa: strings_map(&n["numa"]),
        numa_memory: map_of(&n["numa_memory"], i64_of),
        usage: CpuMemUsage {
            cpu_map: cpu_map(&n["usage"]["cpu_map"]),
            memory: i64_of(&n["usage"]["memory"]),
            numa_memory: map_of(&n["usage"]["numa_memory"], i64_of),
        },
    }
}

fn cpumem_request(r: &Value) -> CpuMemRequest {
    CpuMemRequest {
        cpu_bind: r["cpu_bind"].as_bool().unwrap_or(false),
        cpu_request: r["cpu_request"].as_f64().unwrap_or(0.0),
        cpu_limit: r["cpu_limit"].as_f64().unwrap_or(0.0),
        memory_request: i64_of(&r["memory_request"]),
        memory_limit: i64_of(&r["memory_limit"]),
    }
}

fn config(case: &Value) -> CpuMemConfig {
    CpuMemConfig {
        share_base: case["share_base"].as_i64().unwrap_or(100),
        max_share: case["max_share"].as_i64().unwrap_or(-1),
    }
}

fn same_capacity(want: &Value, got: Capacity) -> bool {
    capacity(want) == got
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

pub fn run_cpumem(case: &Value) -> Verdict {
    let origin = case
        .get("origin_cpu_map")
        .filter(|o| !o.is_null())
        .map(cpu_map);
    let c = match cpumem::capacity(
        &cpumem_node(&case["node"]),
        &cpumem_request(&case["request"]),
        config(case),
        origin.as_ref(),
    ) {
        Err(e) if case.get("expect_error").is_some() => return check_error(case, &e),
        Err(e) => {
            return fail(
                case["expect_capacity"].to_string(),
                format!("error {} ({e})", e.code()),
            )
        }
        Ok(_) if case.get("expect_error").is_some() => {
            return fail(format!("error {}", case["expect_error"]), "a capacity")
        }
        Ok(c) => c,
    };
    if !same_capacity(&case["expect_capacity"], c.capacity) {
        return fail(case["expect_capacity"].to_string(), c.capacity);
    }
    let plan_of = |p: &Value| -> (String, BTreeMap<String, u64>) {
        (
            p["numa_node"].as_str().unwrap_or("").into(),
            u64_map(&p["cpu_map"]),
        )
    };
    let got: Vec<(String, BTreeMap<String, u64>)> = c
        .plans
        .iter()
        .map(|p| (p.numa_node.clone(), p.cpu_map.clone()))
        .collect();
    if let Some(want) = case.get("expect_plans").and_then(Value::as_array) {
        let want: Vec<_> = want.iter().map(plan_of).collect();
        let ordered = case["plans_ordered"].as_bool().unwrap_or(true);
        let same = if ordered {
            want == got
        } else {
            let (mut a, mut b) = (want.clone(), got.clone());
            a.sort();
            b.sort();
            a == b
        };
        if !same {
            return fail(format!("plans {want:?}"), format!("plans {got:?}"));
        }
    }
    if let Some(prefix) = case.get("expect_plans_prefix").and_then(Value::as_array) {
        let want: Vec<_> = prefix.iter().map(plan_of).collect();
        if got.len() < want.len() || got[..want.len()] != want[..] {
            return fail(format!("prefix {want:?}"), format!("plans {got:?}"));
        }
    }
    if let Some(after) = case.get("expect_usage_after_first_k_plans") {
        let k = after["k"].as_u64().unwrap_or(0) as usize;
        let mut sum: BTreeMap<String, u64> = BTreeMap::new();
        for (_, p) in got.iter().take(k) {
            for (id, v) in p {
                *sum.entry(id.clone()).or_default() += v;
            }
        }
        let want: BTreeMap<String, u64> = u64_map(&after["cpu_map"])
            .into_iter()
            .filter(|(_, v)| *v > 0)
            .collect();
        if sum != want {
            return fail(format!("usage after {k}: {want:?}"), format!("{sum:?}"));
        }
    }
    for (key, got) in [("expect_usage", c.usage), ("expect_rate", c.rate)] {
        if let Some(want) = case.get(key).and_then(Value::as_f64) {
            if !close(want, got) {
                return fail(format!("{key} {want}"), got);
            }
        }
    }
    if let (Some(n), Some(ok)) = (
        case.get("deploy_count").and_then(Value::as_u64),
        case.get("expect_deploy_ok").and_then(Value::as_bool),
    ) {
        if (c.capacity.saturating() >= n) != ok {
            return fail(format!("deploy {n} ok = {ok}"), c.capacity);
        }
    }
    Verdict::Pass
}

fn disks(v: &Value) -> Vec<Disk> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|d| Disk {
                    device: d["device"].as_str().unwrap_or("").into(),
                    mounts: d["mounts"]
                        .as_array()
                        .map(|m| {
                            m.iter()
                                .filter_map(Value::as_str)
                                .map(String::from)
                                .collect()
                        })
                        .unwrap_or_default(),
                    read_iops: d["read_iops"].as_u64().unwrap_or(0),
                    write_iops: d["write_iops"].as_u64().unwrap_or(0),
                    read_bps: d["read_bps"].as_u64().unwrap_or(0),
                    write_bps: d["write_bps"].as_u64().unwrap_or(0),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn volume_node(n: &Value) -> VolumeNode {
    VolumeNode {
        volumes: u64_map(&n["volumes"]),
        usage_volumes: u64_map(&n["usage_volumes"]),
        disks: disks(&n["disks"]),
        usage_disks: disks(&n["usage_disks"])
            .into_iter()
            .map(|d| (d.device.clone(), d.io()))
            .collect::<BTreeMap<String, Io>>(),
    }
}

pub fn run_volume(case: &Value) -> Verdict {
    let node = volume_node(&case["node"]);
    let max = case["max_deploy_count"].as_u64().unwrap_or(10_000);
    let c = match volume::plans(&node, &strings(&case["request"]["volumes"]), max) {
        Ok(c) => c,
        Err(e) if case.get("expect_error").is_some() => return check_error(case, &e),
        Err(e) => {
            return fail(
                case["expect_capacity"].to_string(),
                format!("error {} ({e})", e.code()),
            )
        }
    };
    if case["expect_capacity"].as_u64() != Some(c.capacity) {
        return fail(case["expect_capacity"].to_string(), c.capacity);
    }
    let arbitrary = case["mono_remainder_arbitrary"].as_bool().unwrap_or(false);
    let plan_of = |p: &Value| -> VolumePlan {
        p.as_object()
            .map(|o| {
                o.iter()
                    .map(|(dst, v)| {
                        (
                            dst.clone(),
                            (
                                v[0].as_str().unwrap_or("").to_string(),
                                v[1].as_u64().unwrap_or(0),
                            ),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    // With an arbitrary remainder only devices and each plan's total size are compared.
    let shape = |p: &VolumePlan| -> (Vec<(String, String)>, u64) {
        (
            p.iter()
                .map(|(d, (dev, _))| (d.clone(), dev.clone()))
                .collect(),
            p.values().map(|(_, s)| s).sum(),
        )
    };
    let same = |a: &[VolumePlan], b: &[VolumePlan]| -> bool {
        if arbitrary {
            a.iter().map(shape).collect::<Vec<_>>() == b.iter().map(shape).collect::<Vec<_>>()
        } else {
            a == b
        }
    };
    for key in ["expect_plans", "expect_plans_prefix"] {
        if let Some(want) = case.get(key).and_then(Value::as_array) {
            let want: Vec<VolumePlan> = want.iter().map(plan_of).collect();
            let got = if key == "expect_plans" {
                &c.plans[..]
            } else {
                &c.plans[..want.len().min(c.plans.len())]
            };
            if !same(&want, got) {
                return fail(
                    format!("{key} {want:?}"),
                    format!("{:?}", &c.plans[..c.plans.len().min(8)]),
                );
            }
        }
    }
    if let Some(after) = case.get("expect_remaining_after_first_k_plans") {
        let k = after["k"].as_u64().unwrap_or(0) as usize;
        let mut left: BTreeMap<String, u64> = node
            .volumes
            .iter()
            .map(|(d, &s)| {
                (
                    d.clone(),
                    s - node.usage_volumes.get(d).copied().unwrap_or(0),
                )
            })
            .collect();
        for p in c.plans.iter().take(k) {
            for (dev, size) in p.values() {
                if let Some(l) = left.get_mut(dev) {
                    *l -= size;
                }
            }
        }
        let want = u64_map(&after["volumes"]);
        if want.iter().any(|(d, v)| left.get(d) != Some(v)) {
            return fail(format!("remaining {want:?}"), format!("{left:?}"));
        }
    }
    Verdict::Pass
}

pub fn run_storage(case: &Value) -> Verdict {
    let n = &case["node"];
    let node = StorageNode {
        storage: i64_of(&n["storage"]),
        usage_storage: i64_of(&n["usage_storage"]),
        volumes: volume_node(n),
    };
    let request = StorageRequest {
        storage: i64_of(&case["request"]["storage"]),
        volumes: strings(&case["request"]["volumes"]),
    };
    let max = case["max_deploy_count"].as_u64().unwrap_or(10_000);
    match storage::capacity(&node, &request, max) {
        Err(e) if case.get("expect_error").is_some() => check_error(case, &e),
        Err(e) => fail(
            case["expect_capacity"].to_string(),
            format!("error {} ({e})", e.code()),
        ),
        Ok(_) if case.get("expect_error").is_some() => {
            fail(format!("error {}", case["expect_error"]), "a capacity")
        }
        Ok(c) if same_capacity(&case["expect_capacity"], c.capacity) => Verdict::Pass,
        Ok(c) => fail(case["expect_capacity"].to_string(), c.capacity),
    }
}

pub fn run_pipeline(case: &Value) -> Verdict {
    let nodes: Vec<EruNode> = case["nodes"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|n| EruNode {
                    name: n["name"].as_str().unwrap_or("").into(),
                    cpu_map: cpu_map(&n["cpu_map"]),
                    memory: i64_of(&n["memory"]),
                    storage: i64_of(&n["storage"]),
                    volumes: u64_map(&n["volumes"]),
                    gpus: u64_map(&n["gpus"]),
                    usage_gpus: u64_map(&n["usage_gpus"]),
                    count: n["count"].as_u64().unwrap_or(0),
                    ..EruNode::default()
                })
                .collect()
        })
        .unwrap_or_default();
    let r = &case["request"];
    let d = Deploy {
        strategy: case["strategy"].as_str().unwrap_or("").into(),
        count: i64_of(&case["count"]),
        nodes_limit: i64_of(&case["nodes_limit"]),
        config: config(case),
        max_deploy_count: case["max_deploy_count"].as_u64().unwrap_or(10_000),
        request: EruRequest {
            cpumem: cpumem_request(r),
            storage: i64_of(&r["storage"]),
            volumes: strings(&r["volumes"]),
            gpus: u64_map(&r["gpus"]),
        },
        nodes: nodes.as_slice().into(),
    };
    if let Some(want) = case.get("expect_capacities").and_then(Value::as_object) {
        match pipeline::capacities(&d) {
            Ok((caps, _)) => {
                for c in caps {
                    if let Some(w) = want.get(&c.name) {
                        if !same_capacity(w, c.capacity) {
                            return fail(format!("capacity of {} = {w}", c.name), c.capacity);
                        }
                    }
                }
            }
            Err(e) => return fail("capacities", format!("error {} ({e})", e.code())),
        }
    }
    match pipeline::deploy(&d) {
        Err(e) if case.get("expect_error").is_some() => check_error(case, &e),
        Err(e) => fail("a deploy map", format!("error {} ({e})", e.code())),
        Ok(_) if case.get("expect_error").is_some() => {
            fail(format!("error {}", case["expect_error"]), "a deploy map")
        }
        Ok(o) => compare_deploy(
            case,
            &o.deploy,
            case["strategy"] == "FILL",
            &nodes.iter().map(|n| (n.name.clone(), n.count)).collect(),
        ),
    }
}

pub fn run_merge(case: &Value) -> Verdict {
    let plugins = case["plugins"].as_array().cloned().unwrap_or_default();
    let names: BTreeSet<String> = plugins
        .iter()
        .filter_map(|p| p["nodes"].as_object())
        .flat_map(|o| o.keys().cloned())
        .collect();
    let mut got = BTreeMap::new();
    for n in &names {
        let figures: Vec<Option<PluginFigure>> = plugins
            .iter()
            .map(|p| {
                let f = p["nodes"].get(n)?;
                Some(PluginFigure {
                    capacity: capacity(&f["capacity"]),
                    usage: f["usage"].as_f64().unwrap_or(0.0),
                    rate: f["rate"].as_f64().unwrap_or(0.0),
                    weight: f["weight"].as_f64().unwrap_or(1.0),
                })
            })
            .collect();
        if let Some(m) = merge(&figures) {
            got.insert(n.clone(), m);
        }
    }
    let want = case["expect_weighted"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    if want.len() != got.len() {
        return fail(
            format!("nodes {:?}", want.keys().collect::<Vec<_>>()),
            format!("{:?}", got.keys().collect::<Vec<_>>()),
        );
    }
    for (n, w) in &want {
        let Some(m) = got.get(n) else {
            return fail(format!("node {n}"), "absent");
        };
        let ok = same_capacity(&w["capacity"], m.capacity)
            && close(w["usage"].as_f64().unwrap_or(0.0), m.usage)
            && close(w["rate"].as_f64().unwrap_or(0.0), m.rate);
        if !ok {
            return fail(format!("{n}: {w}"), format!("{m:?}"));
        }
    }
    if let Some(t) = case.get("expect_total") {
        let total = allot_core::eru::merge::total(got.values());
        if !same_capacity(t, total) {
            return fail(format!("total {t}"), total);
        }
    }
    // eru's own arithmetic forgets the first plugin's weight; when that differs, say so.
    if case.get("expect_eru_in_listed_plugin_order") != case.get("expect_weighted") {
        return Verdict::Deviation {
            reason: "eru leaves the first plugin it visits out of the weighted mean; allot weighs \
                     every plugin (docs/rules/README.md decision 5)"
                .into(),
        };
    }
    Verdict::Pass
}
