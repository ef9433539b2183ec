//! Reading a control plane's dump of Clusters as `kubectl get clusters -o json` prints it (a
//! List, four-space indents) into allot's objects: allot-core's JSON reader against serde_json
//! reading the same objects, and serde_json skipping the text without building anything (a
//! floor). `ALLOT_DUMP_CLUSTERS` sets how many (20,000 by default).

use std::hint::black_box;

use allot_core::json::from_json;
use allot_core::kubernetes::objects::Objects;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde::de::IgnoredAny;
use serde_json::{json, Value};

/// One Cluster as a member's status reports it: labels, a taint, conditions, API enablements
/// and a resource summary (about 1.3 KB of indented JSON).
fn cluster(i: usize) -> Value {
    json!({
        "apiVersion": "cluster.karmada.io/v1alpha1",
        "kind": "Cluster",
        "metadata": {
            "name": format!("member-{i}"),
            "uid": format!("3b6f0d9e-{i}"),
            "resourceVersion": (81234 + i).to_string(),
            "creationTimestamp": "2026-10-02T08:00:00Z",
            "labels": {"env": "prod", "tier": format!("t{}", i % 3), "team": format!("team-{}", i % 10)},
            "annotations": {"note": "x".repeat(120)}
        },
        "spec": {
            "apiEndpoint": format!("https://member-{i}.example.com:6443"),
            "syncMode": "Push",
            "provider": "acme",
            "region": format!("region-{}", i % 10),
            "zones": [format!("zone-{}", i % 10)],
            "taints": [{"key": "dedicated", "value": "batch", "effect": "NoSchedule"}]
        },
        "status": {
            "kubernetesVersion": "v1.31.2",
            "conditions": [{"type": "Ready", "status": "True", "reason": "ClusterReady",
                "message": "cluster is healthy and ready to accept workloads",
                "lastTransitionTime": "2026-11-20T10:00:00Z"}],
            "apiEnablements": [
                {"groupVersion": "v1", "resources": [{"name": "pods", "kind": "Pod"}]},
                {"groupVersion": "apps/v1", "resources": [{"name": "deployments", "kind": "Deployment"},
                    {"name": "statefulsets", "kind": "StatefulSet"}]}
            ],
            "resourceSummary": {
                "allocatable": {"cpu": "64", "memory": "256Gi", "pods": "1100"},
                "allocated": {"cpu": format!("{}500m", i % 12 + 1), "memory": "40Gi", "pods": "100"}
            }
        }
    })
}

/// The dump as kubectl prints it: a List, indented by four spaces.
fn dump(n: usize) -> String {
    let list = json!({"apiVersion": "v1", "kind": "List", "items": (0..n).map(cluster).collect::<Vec<_>>()});
    let mut out = Vec::new();
    let indent = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, indent);
    serde::Serialize::serialize(&list, &mut ser).expect("writes");
    String::from_utf8(out).expect("UTF-8")
}

fn read(c: &mut Criterion) {
    let n = std::env::var("ALLOT_DUMP_CLUSTERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let pretty = dump(n);
    let compact = serde_json::to_string(&serde_json::from_str::<Value>(&pretty).expect("reads"))
        .expect("writes");
    let mut g = c.benchmark_group("objects");
    g.sample_size(10);
    for (shape, text) in [("indented", &pretty), ("compact", &compact)] {
        assert_eq!(from_json::<Objects>(text).expect("reads").0.len(), n);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("{shape}-{n}"), |b| {
            b.iter(|| from_json::<Objects>(black_box(text)))
        });
        g.bench_function(format!("{shape}-{n}-serde_json"), |b| {
            b.iter(|| serde_json::from_str::<Objects>(black_box(text)))
        });
        g.bench_function(format!("{shape}-{n}-serde_json-skip"), |b| {
            b.iter(|| serde_json::from_str::<IgnoredAny>(black_box(text)))
        });
    }
    g.finish();
}

criterion_group!(benches, read);
criterion_main!(benches);
