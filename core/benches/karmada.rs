//! Karmada's scheduler on Kubernetes objects, native: one Deployment bound by a
//! PropagationPolicy (taints tolerated, spread by region and by cluster, dynamic weight,
//! 1,000 replicas) over 1,000 and 10,000 Clusters, each with labels, a region, zones, taints,
//! its API enablements and a resource summary. Timed in steps: the objects' import, the
//! schedule of the imported scenario with its report, the decision alone (the clusters
//! compiled, then the decision), the decision against clusters compiled beforehand (as every
//! binding of a fleet is scheduled against one set), and the whole explanation (import,
//! schedule with its report, binding).

use std::hint::black_box;

use allot_core::json::from_json;
use allot_core::karmada::cluster::Clusters;
use allot_core::karmada::pipeline;
use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::Objects;
use allot_core::scenario::explain::explain;
use allot_core::scenario::objects::import;
use allot_core::scenario::{decide, schedule};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use serde_json::{json, Value};

mod common;
use common::rng;

/// `n` Clusters, a Deployment of 1,000 replicas and the PropagationPolicy that places it.
pub fn objects(n: usize) -> Value {
    let mut next = rng(0x2545_f491_4f6c_dd1d);
    let mut items: Vec<Value> = (0..n)
        .map(|i| {
            let cpu = 64 + next(512);
            let used = next(cpu);
            let mut taints = vec![json!({"key": "dedicated", "value": "batch",
                                         "effect": "NoSchedule"})];
            if i % 7 == 0 {
                taints.push(json!({"key": "maintenance", "effect": "NoExecute"}));
            }
            json!({
                "apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
                "metadata": {"name": format!("member-{i}"),
                             "labels": {"env": "prod", "tier": format!("t{}", i % 3)}},
                "spec": {"provider": "acme", "region": format!("region-{}", i % 10),
                         "zones": [format!("zone-{}", i % 30)], "taints": taints},
                "status": {
                    "apiEnablements": [{"groupVersion": "apps/v1", "resources": [
                        {"name": "deployments", "kind": "Deployment"}]}],
                    "resourceSummary": {
                    "allocatable": {"cpu": cpu.to_string(), "memory": format!("{}Gi", cpu * 4),
                                    "pods": "1100"},
                    "allocated": {"cpu": used.to_string(), "memory": format!("{}Gi", used * 4),
                                  "pods": "100"}}}
            })
        })
        .collect();
    items.push(json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "uid": "7b0e2a51"},
        "spec": {"replicas": 1000, "template": {"spec": {"containers": [{"name": "web",
                 "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]}}}
    }));
    items.push(json!({
        "apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {
            "resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}],
            "placement": {
                "clusterAffinity": {"labelSelector": {"matchLabels": {"env": "prod"}}},
                "clusterTolerations": [{"key": "dedicated", "operator": "Equal",
                                        "value": "batch", "effect": "NoSchedule"}],
                "spreadConstraints": [
                    {"spreadByField": "region", "minGroups": 2, "maxGroups": 3},
                    {"spreadByField": "cluster", "minGroups": 2, "maxGroups": 500}],
                "replicaScheduling": {"replicaSchedulingType": "Divided",
                                      "replicaDivisionPreference": "Weighted",
                                      "weightPreference": {"dynamicWeight": "AvailableReplicas"}}
            }
        }
    }));
    json!({"apiVersion": "v1", "kind": "List", "items": items})
}

fn karmada(c: &mut Criterion) {
    let mut g = c.benchmark_group("karmada_objects");
    g.sample_size(20);
    for n in [1_000, 10_000] {
        let text = objects(n).to_string();
        let objects: Objects = from_json(&text).expect("valid objects");
        let choice = Choice::default();
        let imported = import(&objects.0, &choice).expect("imported");
        g.bench_with_input(BenchmarkId::new("import", n), &objects, |b, o| {
            b.iter(|| import(black_box(&o.0), &choice).expect("imported"))
        });
        g.bench_with_input(BenchmarkId::new("schedule", n), &imported, |b, i| {
            b.iter(|| schedule(black_box(&i.scenario), 0).expect("an outcome"))
        });
        g.bench_with_input(BenchmarkId::new("decide", n), &imported, |b, i| {
            b.iter(|| decide(black_box(&i.scenario), 0).expect("a decision"))
        });
        let members = imported.scenario.clusters.as_deref().unwrap_or_default();
        let binding = allot_core::scenario::karmada::binding(&imported.scenario).expect("binding");
        let compiled = Clusters::new(members);
        g.bench_with_input(BenchmarkId::new("decide_compiled", n), &compiled, |b, c| {
            b.iter(|| pipeline::schedule(black_box(&binding), c, 0).expect("a decision"))
        });
        g.bench_with_input(BenchmarkId::new("explain", n), &objects, |b, o| {
            b.iter(|| explain(black_box(&o.0), &choice, 0).expect("explained"))
        });
    }
    g.finish();
}

criterion_group!(benches, karmada);
criterion_main!(benches);
