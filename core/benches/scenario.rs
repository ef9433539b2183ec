//! Whole scenario documents, native: JSON text in, outcome JSON out (what the npm package does
//! per call). The same documents are written to `target/bench-scenarios/` for
//! `web/bench/bench.mjs`, which times the wasm build in Node on them: the target is the wasm build
//! within 1.5x of these figures on the pipeline document (Karmada's whole scheduler on 10,000
//! clusters).

use std::hint::black_box;

use allot_core::json::to_json_bytes;
use allot_core::scenario::{from_json, schedule, Scenario};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};

mod common;
use common::rng;

/// Karmada's whole scheduler on 10,000 clusters: 20 taints each (all tolerated), ten regions,
/// spread by region (2-3) and by cluster (2-500), divided by dynamic weight (Webster).
pub fn pipeline() -> Value {
    let mut next = rng(0x51ed_2701_4c3b_9a1d);
    let taints: Vec<Value> = (0..20)
        .map(|k| json!({"key": format!("team-{k}"), "value": "on", "effect": "NoSchedule"}))
        .collect();
    let clusters: Vec<Value> = (0..10_000)
        .map(|i| {
            json!({"name": format!("member-{i}"), "region": format!("region-{}", i % 10),
                   "availableReplicas": 10 + next(100), "taints": taints})
        })
        .collect();
    let tolerations: Vec<Value> = (0..20)
        .map(|k| {
            json!({"key": format!("team-{k}"), "operator": "Equal", "value": "on",
                        "effect": "NoSchedule"})
        })
        .collect();
    let previous: serde_json::Map<String, Value> = (0..100)
        .map(|i| (format!("member-{}", i * 97), json!(3)))
        .collect();
    json!({"version": 1, "clusters": clusters, "workload": {"replicas": 1000},
           "previous": previous, "seed": 1,
           "policy": {"strategy": "dynamicWeight", "clusterTolerations": tolerations,
                      "spreadConstraints": [
                          {"spreadByField": "region", "minGroups": 2, "maxGroups": 3},
                          {"spreadByField": "cluster", "minGroups": 2, "maxGroups": 500}]}})
}

/// The benchmark documents, by name.
pub fn documents() -> Vec<(&'static str, Value)> {
    let mut next = rng(0x9e37_79b9_7f4a_7c15);
    let clusters: Vec<Value> = (0..10_000)
        .map(|i| json!({"name": format!("member-{i}"), "weight": 1 + next(100)}))
        .collect();
    let webster = json!({"version": 1, "clusters": clusters, "workload": {"replicas": 1_000_000},
                         "policy": {"method": "webster"}, "seed": 1});
    let nodes: Vec<Value> = (0..5_000)
        .map(|i| {
            let mut n = json!({"name": format!("node-{i}"),
                               "allocatable": {"cpu": 32, "memory": "128Gi", "pods": 110}});
            if i % 3 == 0 {
                n["labels"] = json!({"disk": "ssd"});
            }
            n
        })
        .collect();
    let pods: Vec<Value> = (0..50_000)
        .map(|i| {
            json!({"name": format!("pod-{i}"), "nodeName": format!("node-{}", i % 5_000),
                        "requests": {"cpu": format!("{}m", 100 + next(900)), "memory": "512Mi"}})
        })
        .collect();
    let accurate = json!({"version": 1, "clusters": [{"name": "big", "nodes": nodes, "pods": pods}],
                          "workload": {"replicas": 10, "requests": {"cpu": 2, "memory": "4Gi"},
                                       "nodeClaim": {"nodeSelector": {"disk": "ssd"}}},
                          "policy": {"strategy": "dynamicWeight"}, "seed": 1});
    let eru_nodes: Vec<Value> = (0..10_000)
        .map(|i| {
            json!({"name": format!("node-{i}"), "memory": "64Gi", "count": next(20),
                        "usage": {"memory": format!("{}Gi", next(32))}})
        })
        .collect();
    let auto = json!({"version": 1, "nodes": eru_nodes, "workload": {"count": 10_000,
                      "requests": {"memory": "1Gi"}}, "policy": {"strategy": "AUTO"}, "seed": 1});
    vec![
        ("webster-10k-clusters", webster),
        ("pipeline-10k-clusters", pipeline()),
        ("accurate-5k-nodes", accurate),
        ("auto-10k-nodes", auto),
    ]
}

/// What the package's `scheduleJson` does: the document read, scheduled, and the outcome
/// written by allot's own writer (the one the package uses), as bytes.
fn run(text: &str) -> Vec<u8> {
    let s: Scenario = from_json(text).expect("a valid document");
    let o = schedule(&s, 0).expect("an outcome");
    to_json_bytes(&o).expect("serializable")
}

fn scenarios(c: &mut Criterion) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-scenarios");
    std::fs::create_dir_all(&dir).expect("target dir");
    let mut g = c.benchmark_group("scenario_json");
    g.sample_size(20);
    for (name, doc) in documents() {
        let text = doc.to_string();
        std::fs::write(dir.join(format!("{name}.json")), &text).expect("written");
        g.bench_function(name, |b| b.iter(|| run(black_box(&text))));
    }
    g.finish();
    // The scheduler alone on a document already read: filter, score, order, select, divide.
    let s: Scenario = from_json(&pipeline().to_string()).expect("a valid document");
    let mut g = c.benchmark_group("scheduler");
    g.sample_size(30);
    g.bench_function("pipeline-10k-clusters", |b| {
        b.iter(|| schedule(black_box(&s), 0).expect("an outcome"))
    });
    // The baseline of the same run: the division alone on the same candidates, no scheduler
    // fields (every cluster a candidate, listed order).
    let mut plain = s.clone();
    plain.policy.cluster_tolerations.clear();
    plain.policy.spread_constraints.clear();
    for c in plain.clusters.iter_mut().flatten() {
        c.taints.clear();
    }
    g.bench_function("division-only-10k-clusters", |b| {
        b.iter(|| schedule(black_box(&plain), 0).expect("an outcome"))
    });
    g.finish();
    // The outcome of the 10,000-cluster pipeline written as text: allot's writer, against
    // serde_json with a formatter that keeps the text 7-bit (every character beyond ASCII as
    // a `\uXXXX` escape), the candidate to replace it (issue: "what a library already does").
    let o = schedule(&s, 0).expect("an outcome");
    assert_eq!(
        serde_json::from_slice::<Value>(&to_json_bytes(&o).expect("written")).expect("JSON"),
        serde_json::from_slice::<Value>(&ascii_json(&o)).expect("JSON"),
    );
    let mut g = c.benchmark_group("writer");
    g.sample_size(30);
    g.bench_function("allot-pipeline-10k-outcome", |b| {
        b.iter(|| to_json_bytes(black_box(&o)).expect("written"))
    });
    g.bench_function("serde_json-formatter-pipeline-10k-outcome", |b| {
        b.iter(|| ascii_json(black_box(&o)))
    });
    g.finish();
}

/// serde_json's compact text with every character beyond ASCII escaped.
fn ascii_json<T: serde::Serialize>(value: &T) -> Vec<u8> {
    struct Ascii;
    impl serde_json::ser::Formatter for Ascii {
        fn write_string_fragment<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            fragment: &str,
        ) -> std::io::Result<()> {
            if fragment.is_ascii() {
                return w.write_all(fragment.as_bytes());
            }
            for c in fragment.chars() {
                if c.is_ascii() {
                    w.write_all(&[c as u8])?;
                } else {
                    let mut units = [0u16; 2];
                    for u in c.encode_utf16(&mut units) {
                        write!(w, "\\u{u:04x}")?;
                    }
                }
            }
            Ok(())
        }
    }
    let mut out = Vec::with_capacity(1 << 16);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Ascii);
    value.serialize(&mut ser).expect("written");
    out
}

criterion_group!(benches, scenarios);
criterion_main!(benches);
