//! A whole control plane, native (docs/rules/fleet.md §30): 1,000 Clusters and 10,000
//! Deployments with their policies and bindings. Timed: reading the objects into a fleet, the
//! plan of every binding scheduled from scratch, the drift of today's bindings, and two
//! what-ifs on the fleet already read (a cluster down; a cluster deleted, rescheduling the
//! bindings placed there).

use std::hint::black_box;

use allot_core::karmada::fleet::events::Event;
use allot_core::karmada::fleet::plan::plan;
use allot_core::karmada::fleet::Settings;
use allot_core::kubernetes::fleet::read;
use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::{Object, Objects};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};

const CLUSTERS: usize = 1_000;
const WORKLOADS: usize = 10_000;
const NAMESPACES: usize = 100;

/// The dump: Clusters in 10 regions, one in 7 tainted `dedicated=batch:NoSchedule`; one policy
/// per namespace, tolerating the taint in half of them: Divided by available replicas over a
/// region with two spread constraints (one region, 2 to 5 clusters), Divided by static weights
/// over a region (its group weighs 2, the rest 1), or Duplicated over a group of 10 clusters;
/// Deployments of 10 replicas and, when `placed`, their bindings on 2 clusters (Divided) or
/// their group (Duplicated).
fn dump(placed: bool) -> Vec<Object> {
    let mut items: Vec<Value> = (0..CLUSTERS)
        .map(|i| {
            json!({
                "apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
                "metadata": {"name": format!("member-{i}"),
                             "labels": {"group": format!("g{}", i % 100)}},
                "spec": if i % 7 == 0 {
                    json!({"region": format!("region-{}", i % 10),
                           "taints": [{"key": "dedicated", "value": "batch", "effect": "NoSchedule"}]})
                } else {
                    json!({"region": format!("region-{}", i % 10)})
                },
                "status": {
                    "conditions": [{"type": "Ready", "status": "True"}],
                    "apiEnablements": [{"groupVersion": "apps/v1",
                        "resources": [{"name": "deployments", "kind": "Deployment"}]}],
                    "resourceSummary": {
                        "allocatable": {"cpu": "64", "memory": "256Gi", "pods": "500"},
                        "allocated": {"cpu": format!("{}", i % 32), "pods": "50"}}}
            })
        })
        .collect();
    for n in 0..NAMESPACES {
        let region = json!({"fieldSelector": {"matchExpressions": [
            {"key": "region", "operator": "In", "values": [format!("region-{}", n % 10)]}]}});
        let mut placement = match n % 4 {
            0 => {
                json!({"clusterAffinity": {"labelSelector": {"matchLabels": {"group": format!("g{n}")}}}})
            }
            1 => json!({"clusterAffinity": region,
                   "replicaScheduling": {"replicaSchedulingType": "Divided",
                      "replicaDivisionPreference": "Weighted",
                      "weightPreference": {"staticWeightList": [
                          {"targetCluster": {"labelSelector": {"matchLabels": {"group": format!("g{n}")}}},
                           "weight": 2},
                          {"targetCluster": region, "weight": 1}]}}}),
            _ => json!({"clusterAffinity": region,
                   "spreadConstraints": [
                      {"spreadByField": "region", "minGroups": 1, "maxGroups": 1},
                      {"spreadByField": "cluster", "minGroups": 2, "maxGroups": 5}],
                   "replicaScheduling": {"replicaSchedulingType": "Divided",
                      "replicaDivisionPreference": "Weighted",
                      "weightPreference": {"dynamicWeight": "AvailableReplicas"}}}),
        };
        if n % 2 == 0 {
            placement["clusterTolerations"] = json!([{"key": "dedicated", "operator": "Equal", "value": "batch", "effect": "NoSchedule"}]);
        }
        items.push(json!({
            "apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
            "metadata": {"name": "all", "namespace": format!("ns-{n}")},
            "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
                     "placement": placement}
        }));
    }
    for w in 0..WORKLOADS {
        let n = w % NAMESPACES;
        let ns = format!("ns-{n}");
        let name = format!("app-{w}");
        items.push(json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "namespace": ns, "uid": format!("uid-{w}")},
            "spec": {"replicas": 10, "template": {"spec": {"containers": [
                {"name": "c", "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}}}]}}}
        }));
        if !placed {
            continue;
        }
        let clusters: Vec<Value> = if n % 4 != 0 {
            let a = n % 10 + 10 * (w % 100);
            vec![
                json!({"name": format!("member-{a}"), "replicas": 5}),
                json!({"name": format!("member-{}", (a + 10) % CLUSTERS), "replicas": 5}),
            ]
        } else {
            (0..10)
                .map(|k| json!({"name": format!("member-{}", n % 100 + 100 * k), "replicas": 10}))
                .collect()
        };
        items.push(json!({
            "apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
            "metadata": {"name": format!("{name}-deployment"), "namespace": ns},
            "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment",
                                  "namespace": ns, "name": name},
                     "replicas": 10, "clusters": clusters},
            "status": {"lastScheduledTime": "2026-11-20T10:00:00Z"}
        }));
    }
    let list = json!({"apiVersion": "v1", "kind": "List", "items": items});
    serde_json::from_value::<Objects>(list)
        .map(|o| o.0)
        .unwrap_or_default()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("fleet");
    g.sample_size(10);
    let fresh = dump(false);
    let placed = dump(true);
    let choice = Choice::default();
    // What the timed runs compute: every binding planned, none refused.
    let first = read(&fresh, &choice, Settings::default()).expect("the dump reads");
    let planned = plan(&first.fleet, vec![Event::Restart]).expect("the fleet plans");
    eprintln!("from scratch: {:?}", planned.0.summary);
    g.bench_function("read 1,000 clusters x 10,000 workloads", |b| {
        b.iter(|| {
            read(black_box(&placed), &choice, Settings::default()).map(|r| r.fleet.entries.len())
        })
    });
    g.bench_function("read and schedule every binding from scratch", |b| {
        b.iter(|| {
            let r = read(black_box(&fresh), &choice, Settings::default()).ok()?;
            plan(&r.fleet, vec![Event::Restart])
                .ok()
                .map(|p| p.0.summary.changed)
        })
    });
    let fleet = read(&placed, &choice, Settings::default())
        .map(|r| r.fleet)
        .ok();
    let Some(fleet) = fleet else { return };
    g.bench_function("drift of today's bindings", |b| {
        b.iter(|| {
            plan(black_box(&fleet), vec![Event::Restart])
                .ok()
                .map(|p| p.0.summary.changed)
        })
    });
    g.bench_function("what-if: one cluster down", |b| {
        b.iter(|| {
            let down = Event::ClusterDown {
                cluster: "member-5".into(),
            };
            plan(black_box(&fleet), vec![down])
                .ok()
                .map(|p| p.0.summary.changed)
        })
    });
    g.bench_function("what-if: one cluster deleted", |b| {
        b.iter(|| {
            let gone = Event::Leave {
                cluster: "member-5".into(),
            };
            plan(black_box(&fleet), vec![gone])
                .ok()
                .map(|p| p.0.summary.changed)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
