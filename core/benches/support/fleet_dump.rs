//! The fleet the speed and memory targets name (docs/rules/fleet.md §30), generated: 1,000
//! Clusters, 100 namespaces each with one policy, and any number of Deployments with (when
//! `placed`) their bindings. Shared by the native benchmark (benches/fleet.rs) and the
//! `fleet` example, which writes it to a file for the package's benchmark in Node
//! (web/bench/fleet.mjs) and measures a plan's peak memory.

use serde_json::{json, Value};

pub const CLUSTERS: usize = 1_000;
pub const NAMESPACES: usize = 100;

/// The dump of `workloads` Deployments, as one `List`: Clusters in 10 regions, one in 7 tainted `dedicated=batch:NoSchedule`; one policy
/// per namespace, tolerating the taint in half of them: Divided by available replicas over a
/// region with two spread constraints (one region, 2 to 5 clusters), Divided by static weights
/// over a region (its group weighs 2, the rest 1), or Duplicated over a group of 10 clusters;
/// Deployments of 10 replicas and, when `placed`, their bindings on 2 clusters (Divided) or
/// their group (Duplicated).
#[allow(dead_code)]
pub fn dump(workloads: usize, placed: bool) -> Value {
    dump_of(CLUSTERS, workloads, placed)
}

/// [`dump`] with `clusters` Clusters (a multiple of 100): each group then holds `clusters /
/// 100` of them, and the Divided bindings stay within their region.
pub fn dump_of(clusters: usize, workloads: usize, placed: bool) -> Value {
    let mut items: Vec<Value> = (0..clusters)
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
    for w in 0..workloads {
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
        let targets: Vec<Value> = if n % 4 != 0 {
            let a = (n % 10 + 10 * (w % 100)) % clusters;
            vec![
                json!({"name": format!("member-{a}"), "replicas": 5}),
                json!({"name": format!("member-{}", (a + 10) % clusters), "replicas": 5}),
            ]
        } else {
            (0..clusters / 100)
                .map(|k| json!({"name": format!("member-{}", n % 100 + 100 * k), "replicas": 10}))
                .collect()
        };
        items.push(json!({
            "apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
            "metadata": {"name": format!("{name}-deployment"), "namespace": ns},
            "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment",
                                  "namespace": ns, "name": name},
                     "replicas": 10, "clusters": targets},
            "status": {"lastScheduledTime": "2026-11-20T10:00:00Z"}
        }));
    }
    json!({"apiVersion": "v1", "kind": "List", "items": items})
}

/// Put every Cluster of `dump` in a zone (`spec.zone`): three per region, `region-R-a` to
/// `region-R-c` (30 zones of about 33 clusters), for the readiness of each zone.
#[allow(dead_code)]
pub fn zoned(dump: &mut Value) {
    let Some(items) = dump.get_mut("items").and_then(Value::as_array_mut) else {
        return;
    };
    for (i, item) in items
        .iter_mut()
        .filter(|o| o["kind"] == "Cluster")
        .enumerate()
    {
        let zone = format!("region-{}-{}", i % 10, ["a", "b", "c"][(i / 10) % 3]);
        item["spec"]["zone"] = Value::String(zone);
    }
}
