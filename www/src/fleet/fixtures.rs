//! A fleet for the fleet view's tests: clusters `a`, `b`, `c` and the bindings given, read
//! as the worker's answer is.

use serde_json::{json, Value};

use super::worker::State;

/// A binding: namespace, name, policy, replicas by cluster.
pub type Given<'a> = (&'a str, &'a str, Option<&'a str>, &'a [(&'a str, i64)]);

/// A fleet of clusters `a`, `b`, `c` and `bindings`, read as the worker's answer is.
pub fn state(bindings: &[Given]) -> State {
    let cluster = |name: &str| {
        let load = json!({"replicas": 0, "requests": {}});
        json!({"name": name, "ready": "ready", "cordoned": false, "deleting": false,
        "taints": [], "labels": {}, "stateBefore": "ready", "state": "ready",
        "before": load, "after": load, "added": load,
        "allocatable": {}, "free": {}, "overcommit": {}})
    };
    let bindings: Vec<Value> = bindings
        .iter()
        .map(|(ns, name, policy, placed)| {
            let clusters: serde_json::Map<String, Value> =
                placed.iter().map(|(c, n)| ((*c).into(), (*n).into())).collect();
            json!({"id": {"kind": if ns.is_empty() { "ClusterResourceBinding" } else { "ResourceBinding" },
                          "namespace": ns, "name": name},
                   "workload": format!("Deployment/{ns}/{name}"), "policy": policy, "claimed": true,
                   "replicas": placed.iter().map(|(_, n)| n).sum::<i64>(), "clusters": clusters,
                   "condition": {"reason": "success"}})
        })
        .collect();
    serde_json::from_value(
        json!({"clusters": [cluster("a"), cluster("b"), cluster("c")], "bindings": bindings}),
    )
    .expect("a state")
}

/// Five bindings in three namespaces and policies, one cluster-scoped, over the three
/// clusters.
pub fn fleet() -> State {
    state(&[
        ("web", "b", Some("spread"), &[("a", 1), ("b", 1)]),
        ("db", "x", Some("pin"), &[("c", 4)]),
        ("web", "a", Some("spread"), &[("a", 2)]),
        ("web", "c", Some("alone"), &[("b", 1)]),
        ("", "cluster-wide", None, &[("a", 1)]),
    ])
}
