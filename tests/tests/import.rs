//! Importing Kubernetes and Karmada objects as `kubectl get -o json` prints them: a List with
//! managedFields, status, annotations and fields allot does not read.

use allot_core::json::from_json;
use allot_core::json::to_json_bytes;
use allot_core::kubernetes::import::{Choice, ImportReport};
use allot_core::kubernetes::objects::Objects;
use allot_core::scenario::export::export;
use allot_core::scenario::objects::{import, Imported};
use allot_core::scenario::{schedule, Outcome};
use allot_tests::reimport::reimport;
use serde_json::{json, Value};

fn cluster(name: &str, region: &str, extra: Value) -> Value {
    let mut c = json!({
        "apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
        "metadata": {"name": name, "uid": "0c1d", "resourceVersion": "812",
                     "labels": {"env": "prod"},
                     "managedFields": [{"manager": "karmada-controller-manager", "operation": "Update",
                                        "fieldsV1": {"f:status": {}}}]},
        "spec": {"apiEndpoint": "https://10.0.0.1:6443", "syncMode": "Push", "region": region,
                 "provider": "aws", "zone": "old-zone", "zones": [format!("{region}a")],
                 "secretRef": {"name": name, "namespace": "karmada-cluster"}},
        "status": {"kubernetesVersion": "v1.31.2",
                   "conditions": [{"type": "Ready", "status": "True", "reason": "ClusterReady",
                                   "lastTransitionTime": "2026-11-20T10:00:00Z"},
                                  {"type": "CompleteAPIEnablements", "status": "True"}],
                   "apiEnablements": [{"groupVersion": "apps/v1",
                                       "resources": [{"name": "deployments", "kind": "Deployment"}]}],
                   "resourceSummary": {"allocatable": {"cpu": "16", "memory": "64Gi", "pods": "110"},
                                       "allocated": {"cpu": "4", "memory": "8Gi", "pods": "20"}}}
    });
    merge(&mut c, extra);
    c
}

fn merge(a: &mut Value, b: Value) {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                merge(a.entry(k).or_insert(Value::Null), v);
            }
        }
        (a, b) => *a = b,
    }
}

fn deployment() -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "nginx", "namespace": "default", "uid": "5f1e-77", "generation": 3,
                     "labels": {"app": "nginx"},
                     "annotations": {"deployment.kubernetes.io/revision": "2"}},
        "spec": {"replicas": 7, "revisionHistoryLimit": 10,
                 "selector": {"matchLabels": {"app": "nginx"}},
                 "strategy": {"type": "RollingUpdate"},
                 "template": {"metadata": {"labels": {"app": "nginx"}},
                              "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27",
                                                       "ports": [{"containerPort": 80}],
                                                       "resources": {"requests": {"cpu": "250m", "memory": "256Mi"},
                                                                     "limits": {"memory": "512Mi"}}}],
                                       "dnsPolicy": "ClusterFirst",
                                       "nodeSelector": {"kubernetes.io/os": "linux"},
                                       "tolerations": [{"key": "spot", "operator": "Exists",
                                                        "effect": "NoSchedule", "tolerationSeconds": 30}]}}},
        "status": {"replicas": 7, "readyReplicas": 7}
    })
}

fn policy(name: &str, placement: Value) -> Value {
    json!({
        "apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx"}],
                 "placement": placement, "schedulerName": "default-scheduler"}
    })
}

fn list(items: Vec<Value>) -> String {
    json!({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items})
        .to_string()
}

fn read(text: &str) -> Objects {
    from_json(text).expect("objects")
}

/// Objects to a scenario, back to objects (written as JSON text and read again) and to a
/// scenario again: the same scenario, member state included.
fn round_trip(imported: &Imported) {
    let exported = export(&imported.scenario).expect("exports");
    let again = reimport(&exported);
    // Without a policy object the strategy is unset, which means static weights: the export
    // always writes a policy, which says so.
    let mut first = imported.scenario.clone();
    first
        .policy
        .strategy
        .get_or_insert_with(|| "staticWeight".into());
    assert_eq!(
        again.scenario, first,
        "objects -> scenario -> objects -> scenario"
    );
    assert!(
        exported.unexpressed.is_empty(),
        "{:?}",
        exported.unexpressed
    );
}

fn has(report: &[allot_core::kubernetes::import::Entry], object: &str, field: &str) -> bool {
    report
        .iter()
        .any(|e| e.object == object && e.field == field)
}

#[test]
fn a_divided_static_weight_policy_over_three_clusters() {
    let text = list(vec![
        cluster("member1", "us-east", json!({})),
        cluster(
            "member2",
            "us-east",
            json!({"spec": {"taints": [{"key": "maintenance", "effect": "NoSchedule", "timeAdded": "2026-11-20T10:00:00Z"}]}}),
        ),
        cluster("member3", "eu-west", json!({})),
        deployment(),
        policy(
            "nginx",
            json!({
            "clusterAffinity": {"clusterNames": ["member1", "member2", "member3"]},
            "replicaScheduling": {"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Weighted",
                "weightPreference": {"staticWeightList": [
                    {"targetCluster": {"clusterNames": ["member1"]}, "weight": 1},
                    {"targetCluster": {"clusterNames": ["member3"]}, "weight": 2}]}},
            "workloadAffinity": {"affinity": {"groupByLabelKey": "app"}}}),
        ),
    ]);
    let objects = read(&text);
    assert_eq!(objects.0.len(), 5, "the List is opened");
    let imported = import(&objects.0, &Choice::default()).expect("imports");
    round_trip(&imported);
    let s = &imported.scenario;
    let clusters = s.clusters.as_ref().unwrap();
    assert_eq!(clusters.len(), 3);
    assert_eq!(clusters[0].region, "us-east");
    assert_eq!(clusters[0].zones, ["us-easta"]);
    assert_eq!(clusters[1].taints.len(), 1);
    assert_eq!(clusters[0].complete_api_enablements, Some(true));
    assert_eq!(clusters[0].api_enablements[0].kinds, ["Deployment"]);
    assert_eq!(s.workload.replicas, Some(7));
    assert_eq!(s.workload.kind.as_deref(), Some("Deployment"));
    let req = s.workload.requests.as_ref().unwrap();
    assert_eq!(req.get("cpu"), 250);
    assert_eq!(req.get("memory"), 256 << 20, "the request, not the limit");
    let claim = s.workload.node_claim.as_ref().unwrap();
    assert_eq!(claim.node_selector["kubernetes.io/os"], "linux");
    assert_eq!(claim.tolerations.len(), 1);
    assert_eq!(s.uid, "5f1e-77");
    assert_eq!(s.policy.strategy.as_deref(), Some("staticWeight"));
    assert_eq!(s.policy.static_weights.as_ref().unwrap().len(), 2);
    let r: &ImportReport = &imported.report;
    assert!(has(&r.used, "Cluster member1", "spec.region"));
    assert!(has(&r.used, "Cluster member2", "spec.taints"));
    assert!(has(&r.ignored, "Cluster member1", "spec.zone"), "{r:#?}");
    assert!(has(
        &r.ignored,
        "PropagationPolicy nginx",
        "spec.placement.workloadAffinity"
    ));
    assert!(has(
        &r.ignored,
        "PropagationPolicy nginx",
        "spec.schedulerName"
    ));
    assert!(has(
        &r.used,
        "PropagationPolicy nginx",
        "spec.resourceSelectors"
    ));
    // The scenario schedules: member2's taint is not tolerated by the policy.
    let Outcome::Karmada(k) = schedule(s, 0).expect("schedules") else {
        panic!("Karmada")
    };
    let got: std::collections::BTreeMap<String, u64> = k
        .assignment
        .iter()
        .map(|a| (a.name.to_string(), a.replicas))
        .collect();
    let want: std::collections::BTreeMap<String, u64> =
        [("member1".to_string(), 2), ("member3".to_string(), 5)].into();
    assert_eq!(got, want, "weights 1 and 2 over 7 replicas; member2 is out");
}

#[test]
fn webhook_defaults_are_reported() {
    let text = list(vec![
        cluster("member1", "us-east", json!({})),
        deployment(),
        policy(
            "spread",
            json!({
            "spreadConstraints": [{"maxGroups": 2}],
            "replicaScheduling": {"weightPreference": {"dynamicWeight": "AvailableReplicas"}}}),
        ),
    ]);
    let imported = import(&read(&text).0, &Choice::default()).expect("imports");
    round_trip(&imported);
    let p = &imported.scenario.policy;
    assert_eq!(p.strategy.as_deref(), Some("dynamicWeight"));
    assert_eq!(p.spread_constraints[0].min_groups, 1);
    let d = &imported.report.defaulted;
    assert!(
        d.iter()
            .any(|e| e.into.to_string().starts_with("spreadByField: cluster")),
        "{d:#?}"
    );
    assert!(d
        .iter()
        .any(|e| e.into.to_string().starts_with("minGroups: 1")));
    assert!(d.iter().any(|e| e
        .into
        .to_string()
        .starts_with("replicaSchedulingType: Divided")));
    assert!(d.iter().any(|e| e
        .into
        .to_string()
        .starts_with("replicaDivisionPreference: Weighted")));
}

#[test]
fn of_two_policies_selecting_the_template_the_first_name_wins_unless_one_is_chosen() {
    let text = list(vec![
        cluster("member1", "us-east", json!({})),
        deployment(),
        policy("a", json!({})),
        policy(
            "b",
            json!({"replicaScheduling": {"replicaSchedulingType": "Divided",
                                                 "replicaDivisionPreference": "Aggregated"}}),
        ),
    ]);
    let objects = read(&text);
    let first = import(&objects.0, &Choice::default()).expect("imports");
    assert_eq!(
        first.scenario.policy.strategy.as_deref(),
        Some("duplicated")
    );
    let report = first.report.policy.as_ref().expect("the policy choice");
    assert_eq!(report.policy, "PropagationPolicy default/a");
    assert_eq!(report.others[0].policy, "PropagationPolicy default/b");
    let chosen = import(
        &objects.0,
        &Choice {
            policy: Some("b"),
            ..Choice::default()
        },
    )
    .expect("imports");
    assert_eq!(
        chosen.scenario.policy.strategy.as_deref(),
        Some("aggregated")
    );
}

#[test]
fn a_binding_gives_the_previous_result_and_the_observed_term() {
    let binding = json!({
        "apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
        "metadata": {"name": "nginx-deployment", "namespace": "default",
                     "annotations": {"policy.karmada.io/applied-placement": "{}"}},
        "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "default",
                              "name": "nginx", "uid": "5f1e-77", "resourceVersion": "9"},
                 "replicas": 7,
                 "clusters": [{"name": "member1", "replicas": 4}, {"name": "member3", "replicas": 3}],
                 "gracefulEvictionTasks": [{"fromCluster": "member2", "reason": "TaintUntolerated"}],
                 "rescheduleTriggeredAt": "2026-11-22T09:00:00Z"},
        "status": {"schedulerObservingAffinityName": "primary",
                   "lastScheduledTime": "2026-11-21T09:00:00Z",
                   "conditions": [{"type": "Scheduled", "status": "True"}]}
    });
    let text = list(vec![cluster("member1", "us-east", json!({})), binding]);
    let imported = import(&read(&text).0, &Choice::default()).expect("imports");
    round_trip(&imported);
    let s = &imported.scenario;
    assert_eq!(s.previous["member1"], 4);
    assert_eq!(s.previous["member3"], 3);
    assert_eq!(s.observed_affinity, "primary");
    assert_eq!(s.graceful_evictions, ["member2"]);
    assert!(s.policy.fresh, "a reschedule after the last schedule");
    assert_eq!(
        s.workload.replicas,
        Some(7),
        "the binding's replicas without a template"
    );
    assert_eq!(s.uid, "5f1e-77");
}

#[test]
fn bad_objects_are_errors_naming_the_object_and_field() {
    let text = list(vec![cluster(
        "m",
        "r",
        json!({"spec": {"taints": [{"key": "k", "effect": "Sometimes"}]}}),
    )]);
    let e = import(&read(&text).0, &Choice::default()).unwrap_err();
    assert_eq!(e.field(), "objects[0].spec.taints[0].effect");
    assert!(e.to_string().contains("Cluster m"), "{e}");
    let text = list(vec![json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "x"}, "spec": {"replicas": -1}})]);
    let e = import(&read(&text).0, &Choice::default()).unwrap_err();
    assert_eq!(e.field(), "objects[0].spec.replicas");
    // A single object and a bare array read too; other kinds are reported, not errors.
    let one = read(&deployment().to_string());
    assert_eq!(one.0.len(), 1);
    let arr = read(&json!([deployment(), {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}]).to_string());
    let imported = import(&arr.0, &Choice::default()).expect("imports");
    round_trip(&imported);
    assert!(has(&imported.report.ignored, "ConfigMap c", ""));
}

#[test]
fn affinity_terms_are_read_with_their_fields_inline() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/objects/terms.json"))
        .expect("the seed document");
    let imported = import(&read(&text).0, &Choice::default()).expect("imports");
    round_trip(&imported);
    let terms = imported
        .scenario
        .policy
        .cluster_affinities
        .as_ref()
        .expect("terms");
    assert_eq!(terms.len(), 2);
    assert_eq!(terms[0].affinity_name, "primary");
    assert_eq!(terms[0].affinity.cluster_names, ["member1"]);
    assert!(terms[1].affinity.label_selector.is_some());
    assert_eq!(
        imported.scenario.policy.strategy.as_deref(),
        Some("duplicated")
    );
    assert!(has(
        &imported.report.ignored,
        "PropagationPolicy a",
        "spec.placement.workloadAffinity"
    ));
    assert!(imported
        .report
        .defaulted
        .iter()
        .any(|e| e.into == *"absent: Duplicated"));
}

#[test]
fn member_nodes_and_pods_give_the_accurate_input_and_the_summary() {
    let node = |name: &str, cpu: &str| {
        json!({"apiVersion": "v1", "kind": "Node",
               "metadata": {"name": name, "labels": {"kubernetes.io/os": "linux"}},
               "spec": {"podCIDR": "10.244.0.0/24", "taints": [{"key": "spot", "effect": "NoSchedule"}]},
               "status": {"allocatable": {"cpu": cpu, "memory": "8Gi", "pods": "110"},
                          "capacity": {"cpu": cpu}, "nodeInfo": {"kubeletVersion": "v1.31.2"}}})
    };
    let pod = |name: &str, node: Option<&str>, phase: &str| {
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "web"},
               "spec": {"nodeName": node, "containers": [
                        {"name": "c", "image": "x",
                         "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}},
                        {"name": "sidecar", "image": "y",
                         "resources": {"requests": {"cpu": "100m"}}}]},
               "status": {"phase": phase}})
    };
    let member = read(&list(vec![
        node("n1", "4"),
        node("n2", "2"),
        pod("a", Some("n1"), "Running"),
        pod("b", Some("n2"), "Succeeded"),
        pod("c", None, "Pending"),
    ]));
    let mut bare = cluster("member1", "us-east", json!({}));
    bare["status"]
        .as_object_mut()
        .unwrap()
        .remove("resourceSummary");
    let objects = read(&list(vec![bare, deployment()]));
    let members = [("member1", member.0)];
    let choice = Choice {
        policy: None,
        members: &members,
        ..Choice::default()
    };
    let imported = import(&objects.0, &choice).expect("imports");
    round_trip(&imported);
    let c = &imported.scenario.clusters.as_ref().unwrap()[0];
    assert_eq!(c.nodes.as_ref().unwrap().len(), 2);
    assert_eq!(c.pods.len(), 3);
    let s = c.resource_summary.as_ref().expect("computed");
    assert_eq!(s.allocatable.get("cpu"), 6000);
    assert_eq!(
        s.allocated.get("cpu"),
        600,
        "the finished pod does not count"
    );
    assert_eq!(
        s.allocated.get("memory"),
        1 << 30,
        "each resource counted once per pod"
    );
    assert_eq!(s.allocated.get("pods"), 1);
    assert_eq!(
        s.allocating.get("cpu"),
        600,
        "the unbound pod is allocating"
    );
    assert_eq!(s.allocatable_modelings.len(), 9, "the default grades");
    assert_eq!(
        s.allocatable_modelings.iter().map(|m| m.count).sum::<u64>(),
        2
    );
    assert!(imported
        .report
        .defaulted
        .iter()
        .any(|e| e.field == "status.resourceSummary"));
    // A member that names no Cluster is an error at its place.
    let stray = [("member9", Vec::new())];
    let e = import(
        &objects.0,
        &Choice {
            policy: None,
            members: &stray,
            ..Choice::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.field(), "members[0]");
}

#[test]
fn the_binding_result_is_sorted_by_name_with_its_changes() {
    use allot_core::kubernetes::binding::result;
    let binding = json!({
        "apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
        "metadata": {"name": "nginx-deployment", "namespace": "default"},
        "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "default",
                              "name": "nginx", "uid": "5f1e-77"},
                 "clusters": [{"name": "member1", "replicas": 4}, {"name": "member3", "replicas": 3}]}
    });
    let text = list(vec![
        cluster("member1", "us-east", json!({})),
        cluster("member2", "us-east", json!({})),
        cluster("member3", "eu-west", json!({})),
        deployment(),
        binding,
        policy(
            "nginx",
            json!({"replicaScheduling": {"replicaSchedulingType": "Divided",
            "weightPreference": {"staticWeightList": [
                {"targetCluster": {"clusterNames": ["member2"]}, "weight": 1},
                {"targetCluster": {"clusterNames": ["member3"]}, "weight": 1}]}}}),
        ),
    ]);
    let imported = import(&read(&text).0, &Choice::default()).expect("imports");
    round_trip(&imported);
    let s = &imported.scenario;
    let Outcome::Karmada(k) = schedule(s, 0).expect("schedules") else {
        panic!("Karmada")
    };
    let r = result(&k.assignment, &k.pipeline.observed_affinity, &s.previous);
    let names: Vec<&str> = r.clusters.iter().map(|c| c.name.as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "spec.clusters by name");
    assert_eq!(r.clusters.iter().map(|c| c.replicas).sum::<i64>(), 7);
    let m1 = r.changes.iter().find(|c| c.cluster == "member1").unwrap();
    assert_eq!(
        (m1.before, m1.after),
        (Some(4), None),
        "member1 has no weight: it leaves"
    );
    assert!(m1.changed());
    assert_eq!(r.changes.len(), 3);
    // The same through `explain`: the given binding comes back with its new clusters.
    let objects = read(&text).0;
    let e =
        allot_core::scenario::explain::explain(&objects, &Choice::default(), 0).expect("explains");
    assert_eq!(e.binding, r);
    assert_eq!(e.resource_binding.metadata.name, "nginx-deployment");
    assert_eq!(e.resource_binding.spec.clusters, r.clusters);
    let template = imported.resource.as_ref().expect("the template's identity");
    assert_eq!(
        (template.name.as_str(), template.uid.as_str()),
        ("nginx", "5f1e-77")
    );
    assert_eq!(e.resource_binding.spec.resource.uid, "5f1e-77");
    // Without a binding, one is made for the template, named as Karmada names it.
    let without: Vec<_> = objects
        .into_iter()
        .filter(|o| o.kind != "ResourceBinding")
        .collect();
    let e =
        allot_core::scenario::explain::explain(&without, &Choice::default(), 0).expect("explains");
    assert_eq!(e.resource_binding.metadata.name, "nginx-deployment");
    assert_eq!(e.resource_binding.metadata.namespace, "default");
    assert!(e.binding.changes.iter().all(|c| c.before.is_none()));
}

#[test]
fn a_kind_in_another_api_version_is_an_error_at_its_api_version() {
    let mut old = deployment();
    old["apiVersion"] = json!("extensions/v1beta1");
    let e = import(
        &read(&list(vec![cluster("member1", "us-east", json!({})), old])).0,
        &Choice::default(),
    )
    .unwrap_err();
    assert_eq!(e.field(), "objects[1].apiVersion");
    assert!(
        e.to_string().contains("expected apps/v1 for a Deployment"),
        "{e}"
    );
    let mut rb = json!({"apiVersion": "work.karmada.io/v1alpha1", "kind": "ResourceBinding",
                        "metadata": {"name": "nginx-deployment"}});
    let e = import(&read(&rb.to_string()).0, &Choice::default()).unwrap_err();
    assert_eq!(e.field(), "objects[0].apiVersion");
    // A manifest not yet applied: the API server's default of 1 replica, reported.
    let mut fresh = deployment();
    fresh["spec"].as_object_mut().unwrap().remove("replicas");
    let imported = import(&read(&fresh.to_string()).0, &Choice::default()).expect("imports");
    assert_eq!(imported.scenario.workload.replicas, Some(1));
    assert!(has(
        &imported.report.defaulted,
        "Deployment nginx",
        "spec.replicas"
    ));
    rb["kind"] = json!("ConfigMap");
    let imported = import(&read(&rb.to_string()).0, &Choice::default())
        .expect("other kinds are only reported");
    assert!(has(
        &imported.report.ignored,
        "ConfigMap nginx-deployment",
        ""
    ));
}

#[test]
fn a_scenario_exports_as_objects_and_names_what_objects_cannot_hold() {
    let scenario: allot_core::scenario::Scenario = from_json(
        r#"{"version": 1, "seed": 4,
            "clusters": [{"name": "a", "weight": 2, "region": "r1", "deleting": true,
                          "taints": [{"key": "k", "value": "v", "effect": "NoExecute"}]},
                         {"name": "b", "weight": 1, "availableReplicas": 3}],
            "workload": {"replicas": 3, "kind": "Job", "apiVersion": "batch/v1",
                         "requests": {"cpu": "1"},
                         "nodeClaim": {"nodeSelector": {}, "tolerations": [{"key": "k", "operator": "Exists"}],
                                       "hardNodeAffinity": {"nodeSelectorTerms": [{"matchFields": [
                                           {"key": "metadata.name", "operator": "In", "values": ["n1"]}]}]}}},
            "policy": {"method": "remainder", "fresh": true,
                       "clusterTolerations": [{"key": "k", "operator": "Equal", "value": "v", "effect": "NoExecute"}],
                       "spreadConstraints": [{"spreadByField": "region", "minGroups": 1, "maxGroups": 2},
                                             {"spreadByField": "cluster", "minGroups": 1, "maxGroups": 2}]},
            "previous": {"a": 2}, "gracefulEvictions": ["b"]}"#,
    )
    .expect("scenario");
    let exported = export(&scenario).expect("exports");
    let kinds: Vec<&str> = exported.objects.iter().map(|o| o.kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "Cluster",
            "Cluster",
            "Job",
            "PropagationPolicy",
            "ResourceBinding"
        ]
    );
    let fields: Vec<&str> = exported
        .unexpressed
        .iter()
        .map(|e| e.field.as_str())
        .collect();
    assert_eq!(
        fields,
        ["policy.method", "seed", "clusters[b].availableReplicas"]
    );
    let text = String::from_utf8(to_json_bytes(&exported.objects).unwrap()).unwrap();
    let again = import(&read(&text).0, &Choice::default())
        .expect("imports")
        .scenario;
    let (a, b) = (&scenario, &again);
    assert_eq!(b.workload, a.workload);
    assert_eq!(b.previous, a.previous);
    assert_eq!(b.graceful_evictions, a.graceful_evictions);
    assert!(b.policy.fresh);
    assert_eq!(b.policy.cluster_tolerations, a.policy.cluster_tolerations);
    assert_eq!(b.policy.spread_constraints, a.policy.spread_constraints);
    let clusters = b.clusters.as_ref().unwrap();
    assert!(clusters[0].deleting);
    assert_eq!(clusters[0].taints, a.clusters.as_ref().unwrap()[0].taints);
    // The clusters' own weights become the policy's static weight list, which divides the same.
    let weights = b.policy.static_weights.as_ref().expect("weights");
    assert_eq!(weights.iter().map(|w| w.weight).collect::<Vec<_>>(), [2, 1]);
    let eru: allot_core::scenario::Scenario =
        from_json(r#"{"version": 1, "nodes": [{"name": "n"}], "workload": {"count": 1}}"#)
            .expect("eru");
    assert_eq!(export(&eru).unwrap_err().field(), "nodes");
}
