//! The scheduler steps before the division, through whole scenarios: the example presets of
//! `docs/examples/scheduler-*.json` and small documents, checked for the candidates, the
//! assignment, the verdicts and the sentences a user reads.

use allot_core::karmada::filter::Verdict;
use allot_core::karmada::select::chosen_regions;
use allot_core::scenario::outcome::KarmadaOutcome;
use allot_core::scenario::{self, from_json, Outcome, Scenario};

fn example(name: &str) -> Scenario {
    let path = format!(
        "{}/../docs/examples/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn karmada(s: &Scenario) -> KarmadaOutcome {
    match scenario::schedule(s, 0).unwrap() {
        Outcome::Karmada(k) => k,
        Outcome::Eru(_) => panic!("not Karmada"),
    }
}

fn assignment(k: &KarmadaOutcome) -> Vec<(String, u64)> {
    k.assignment
        .iter()
        .map(|a| (a.name.to_string(), a.replicas))
        .collect()
}

fn says(k: &KarmadaOutcome, text: &str) -> bool {
    k.pipeline.explanation.iter().any(|l| l.contains(text))
}

#[test]
fn an_untolerated_taint_drops_a_cluster() {
    let k = karmada(&example("scheduler-taint-drops-cluster"));
    assert_eq!(
        assignment(&k),
        [("member1".to_string(), 3), ("member2".to_string(), 3)]
    );
    let m3 = &k.pipeline.clusters[2];
    assert!(!m3.feasible);
    assert_eq!(
        m3.filter.reason.as_deref(),
        Some("cluster(s) had untolerated taint {dedicated=gpu:NoSchedule}")
    );
    assert!(matches!(
        m3.filter.verdicts[1].verdict,
        Verdict::Unschedulable { .. }
    ));
    assert!(
        says(
            &k,
            "member3 is out (TaintToleration): untolerated taint dedicated=gpu:NoSchedule"
        ),
        "{:?}",
        k.pipeline.explanation
    );
    assert!(
        k.pipeline.clusters[1].feasible,
        "member2's taint is tolerated"
    );
}

#[test]
fn two_regions_one_best_cluster_each_then_a_spare() {
    let k = karmada(&example("scheduler-spread-two-regions"));
    let sel = k.pipeline.selection.as_ref().unwrap();
    assert_eq!(sel.candidates, ["member1", "member3", "member4"]);
    assert_eq!(sel.spares, ["member4"]);
    assert_eq!(chosen_regions(&sel.regions).count(), 2);
    assert!(!k.assignment.iter().any(|a| a.name == "member2"));
    assert!(
        says(&k, "in eu, member1 is kept over member2"),
        "{:?}",
        k.pipeline.explanation
    );
}

#[test]
fn the_cluster_path_swaps_in_capacity() {
    let k = karmada(&example("scheduler-cluster-swap"));
    let sel = k.pipeline.selection.as_ref().unwrap();
    assert_eq!(sel.candidates, ["member1", "member3"]);
    assert_eq!(sel.swaps.len(), 1);
    assert_eq!(
        (sel.swaps[0].added.as_str(), sel.swaps[0].removed.as_str()),
        ("member3", "member2")
    );
    assert!(says(
        &k,
        "member3 replaced member2, which had fewer available replicas"
    ));
    let total: u64 = k.assignment.iter().map(|a| a.replicas).sum();
    assert_eq!(total, 20);
}

#[test]
fn an_affinity_term_falls_back_to_the_next() {
    let k = karmada(&example("scheduler-affinity-fallback"));
    let terms: Vec<(&str, Option<&str>)> = k
        .pipeline
        .terms
        .iter()
        .map(|t| {
            (
                t.affinity_name.as_str(),
                t.error.as_ref().map(|e| e.code().as_str()),
            )
        })
        .collect();
    assert_eq!(terms, [("onprem", Some("no_cluster_fit")), ("cloud", None)]);
    assert_eq!(k.pipeline.observed_affinity, "cloud");
    assert!(k.assignment.iter().all(|a| a.name.starts_with("cloud")));
    assert!(says(
        &k,
        "affinity term onprem fails: 0/3 clusters are available"
    ));
}

#[test]
fn the_observed_term_sticks_until_a_reschedule() {
    let mut s = example("scheduler-affinity-fallback");
    s.graceful_evictions.clear();
    s.observed_affinity = "cloud".into();
    let k = karmada(&s);
    assert_eq!(k.pipeline.terms.len(), 1, "starts from the observed term");
    assert_eq!(k.pipeline.observed_affinity, "cloud");
    s.policy.fresh = true;
    let k = karmada(&s);
    assert_eq!(
        k.pipeline.observed_affinity, "onprem",
        "a reschedule starts over"
    );
}

#[test]
fn overflow_tiers_fill_in_order() {
    let k = karmada(&example("scheduler-overflow-tiers"));
    assert_eq!(
        assignment(&k),
        [
            ("onprem1".to_string(), 4),
            ("onprem2".to_string(), 2),
            ("cloud1".to_string(), 4)
        ]
    );
    let tiers: Vec<Option<i64>> = k
        .pipeline
        .clusters
        .iter()
        .map(|c| c.overflow_order)
        .collect();
    assert_eq!(tiers, [Some(0), Some(0), Some(1)]);
}

#[test]
fn spreading_only_by_a_label_never_schedules() {
    let s = example("scheduler-label-only");
    let e = scenario::schedule(&s, 0).unwrap_err();
    assert_eq!(e.code(), "spread_unsatisfiable");
    assert_eq!(
        e.reason(),
        "just support cluster and region spread constraint"
    );
    // The steps alone report it instead of failing.
    let r = scenario::select(&s).unwrap();
    assert_eq!(
        r.error.as_ref().map(|e| e.code().as_str()),
        Some("spread_unsatisfiable")
    );
    assert!(r.clusters.iter().all(|c| c.feasible));
}

fn doc(text: &str) -> Scenario {
    from_json(text).unwrap()
}

#[test]
fn no_cluster_fits_is_karmadas_fit_error() {
    let s = doc(r#"{"version":1,"clusters":[
            {"name":"a","taints":[{"key":"k","effect":"NoSchedule"}]},
            {"name":"b","taints":[{"key":"k","effect":"NoExecute"}]},
            {"name":"c","deleting":true}],
            "workload":{"replicas":2}}"#);
    let e = scenario::schedule(&s, 0).unwrap_err();
    assert_eq!(e.code(), "no_cluster_fit");
    assert_eq!(
        e.reason(),
        "0/3 clusters are available: 1 cluster(s) had untolerated taint {k:NoExecute}, \
         1 cluster(s) had untolerated taint {k:NoSchedule}."
    );
    let r = scenario::filter(&s).unwrap();
    assert!(r.clusters[2].filter.deleting);
    assert!(says_report(&r.explanation, "c is being deleted"));
}

fn says_report(lines: &[String], text: &str) -> bool {
    lines.iter().any(|l| l.contains(text))
}

#[test]
fn api_enablement_needs_the_kind_when_the_resource_is_stated() {
    let s = doc(r#"{"version":1,"clusters":[
            {"name":"a","apiEnablements":[{"groupVersion":"apps/v1","kinds":["Deployment"]}]},
            {"name":"b","apiEnablements":[{"groupVersion":"batch/v1","kinds":["Job"]}],
             "completeApiEnablements":true},
            {"name":"c"}],
            "workload":{"replicas":2,"apiVersion":"apps/v1","kind":"Deployment"},
            "policy":{"strategy":"duplicated"}}"#);
    let k = karmada(&s);
    assert_eq!(assignment(&k), [("a".to_string(), 2)]);
    assert_eq!(
        k.pipeline.clusters[2].filter.reason.as_deref(),
        Some("cluster(s) did not have the API resource")
    );
    // Without a stated resource the plugin has nothing to judge.
    let plain = doc(r#"{"version":1,"clusters":[{"name":"a"}],"workload":{"replicas":1}}"#);
    let k = karmada(&plain);
    assert_eq!(
        k.pipeline.clusters[0].filter.verdicts[0].verdict,
        Verdict::NotEvaluated
    );
    assert!(!k.pipeline.ordered);
}

#[test]
fn disabled_plugins_do_not_filter() {
    let s = doc(
        r#"{"version":1,"clusters":[{"name":"a","taints":[{"key":"k","effect":"NoSchedule"}]}],
            "workload":{"replicas":1},"policy":{"plugins":["*","-TaintToleration"]}}"#,
    );
    let k = karmada(&s);
    assert_eq!(assignment(&k), [("a".to_string(), 1)]);
    assert_eq!(
        k.pipeline.clusters[0].filter.verdicts[1].verdict,
        Verdict::Disabled
    );
    let bad = doc(
        r#"{"version":1,"clusters":[{"name":"a"}],"workload":{"replicas":1},"policy":{"plugins":["Nope"]}}"#,
    );
    let e = scenario::schedule(&bad, 0).unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.field().text().as_str()),
        ("unknown_value", "policy.plugins[0]")
    );
}

#[test]
fn bad_scheduler_fields_are_located() {
    let cases = [
        (
            r#"{"spreadConstraints":[{"spreadByField":"region","minGroups":3,"maxGroups":2}]}"#,
            "policy.spreadConstraints[0].maxGroups",
        ),
        (
            r#"{"clusterAffinities":[{"affinityName":"x"},{"affinityName":"x"}]}"#,
            "policy.clusterAffinities[1].affinityName",
        ),
        (
            r#"{"clusterAffinity":{"fieldSelector":{"matchExpressions":[{"key":"os","operator":"In","values":["x"]}]}}}"#,
            "policy.clusterAffinity.fieldSelector.matchExpressions[0].key",
        ),
        (
            r#"{"overflow":true,"clusterAffinities":[{"affinityName":"x"}]}"#,
            "policy.overflow",
        ),
    ];
    for (policy, at) in cases {
        let s = doc(&format!(
            r#"{{"version":1,"clusters":[{{"name":"a"}}],"workload":{{"replicas":1}},"policy":{policy}}}"#
        ));
        let e = scenario::schedule(&s, 0).unwrap_err();
        assert_eq!(e.field().text(), at, "{policy}: {e}");
    }
}

#[test]
fn sentences_list_twenty_names_then_count_the_rest() {
    let clusters: Vec<String> = (0..30)
        .map(|i| format!(r#"{{"name":"m{i:02}","availableReplicas":5}}"#))
        .collect();
    let s = doc(&format!(
        r#"{{"version":1,"clusters":[{}],"workload":{{"replicas":3}},
            "policy":{{"strategy":"dynamicWeight","clusterTolerations":[{{"key":"k","operator":"Exists"}}]}}}}"#,
        clusters.join(",")
    ));
    let k = karmada(&s);
    let line = k
        .pipeline
        .explanation
        .iter()
        .find(|l| l.starts_with("candidate order"))
        .unwrap();
    assert!(line.ends_with("m18, m19 and 10 more"), "{line}");
    assert_eq!(k.pipeline.order.len(), 30, "the report keeps every name");
}
