//! Application failover as the operator configured it (docs/rules/fleet.md §32, §33): the
//! example dump `docs/manifests/app-failover.yaml` (three Deployments with
//! `spec.failover.application`, one per purge mode) planned with the member reporting a
//! workload Unhealthy: nothing before `tolerationSeconds`, the failover at it, and what each
//! purge mode leaves behind.

use allot_core::karmada::fleet::eviction::PurgeMode;
use allot_core::karmada::fleet::timeline::{Happening, TaskEnd};
use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::Object;
use allot_core::kubernetes::plan::{plan, Planned, WhatIf};

/// The example dump, as text.
const DUMP: &str = include_str!("../../docs/manifests/app-failover.yaml");

fn dump() -> Vec<Object> {
    allot_web::yaml::objects(DUMP).expect("the example dump reads")
}

fn unhealthy(workload: &str, at: Option<&str>) -> Planned {
    let what = WhatIf {
        unhealthy: vec![format!("deploy/shop/{workload}@member2")],
        at: at.map(String::from),
        ..WhatIf::default()
    };
    plan(&dump(), &Choice::default(), &what, &[], &[]).expect("plan")
}

fn after(p: &Planned, name: &str) -> Vec<(String, i64)> {
    let b = p.plan.bindings.iter().find(|b| b.id.name == name).unwrap();
    b.after.iter().map(|(c, &n)| (c.clone(), n)).collect()
}

fn failovers(p: &Planned) -> Vec<(i64, String, PurgeMode)> {
    let mut out = Vec::new();
    for m in &p.plan.timeline {
        if let Happening::FailedOver {
            binding,
            cluster,
            purge_mode,
            ..
        } = &m.what
        {
            assert_eq!(cluster, "member2");
            out.push((m.at, binding.name.to_string(), *purge_mode));
        }
    }
    out
}

// web tolerates 60 s of Unhealthy: at 59 s it is still on member2; at 60 s it has failed over,
// its two replicas placed on member1 and member3, and member2's copy kept (Gracefully) with a
// 120 s grace period.
#[test]
fn web_fails_over_at_its_toleration_seconds() {
    let early = unhealthy("web", Some("59s"));
    assert!(
        early.report.problems.is_empty(),
        "{:?}",
        early.report.problems
    );
    assert!(after(&early, "web-deployment").contains(&("member2".into(), 2)));
    assert!(failovers(&early).is_empty());
    let p = unhealthy("web", Some("60s"));
    assert_eq!(
        failovers(&p),
        [(60, "web-deployment".into(), PurgeMode::Gracefully)]
    );
    let placed = after(&p, "web-deployment");
    assert!(placed.iter().all(|(c, _)| c != "member2"), "{placed:?}");
    assert_eq!(placed.iter().map(|(_, n)| n).sum::<i64>(), 6);
    let b = p
        .plan
        .bindings
        .iter()
        .find(|b| b.id.name == "web-deployment")
        .unwrap();
    assert_eq!(b.evicting[0].from_cluster, "member2");
    assert_eq!(b.evicting[0].grace_period_seconds, Some(120));
    // The binding Karmada writes carries the task, read back as written.
    let written = p
        .resource_bindings
        .iter()
        .find(|o| o.metadata.name == "web-deployment")
        .unwrap();
    let task = &written.spec.graceful_eviction_tasks[0];
    assert_eq!(
        (task.purge_mode.as_str(), task.reason.as_str()),
        ("Gracefully", "ApplicationFailure")
    );
    assert!(task.creation_timestamp.is_some());
    // The other workloads were not reported Unhealthy: they stay.
    assert!(after(&p, "cart-deployment").contains(&("member2".into(), 1)));
}

// Settled: web's task ends with its grace period (the new clusters never report Healthy).
#[test]
fn gracefully_ends_with_the_grace_period() {
    let p = unhealthy("web", None);
    let ended: Vec<(i64, TaskEnd)> = p
        .plan
        .timeline
        .iter()
        .filter_map(|m| match &m.what {
            Happening::TaskEnded { reason, .. } => Some((m.at, *reason)),
            _ => None,
        })
        .collect();
    assert_eq!(ended, [(180, TaskEnd::Timeout)]);
}

// cart: Directly, after the default 300 s; its task has no grace period and ends with the
// controller's ten-minute timeout.
#[test]
fn directly_after_the_default_toleration() {
    assert!(failovers(&unhealthy("cart", Some("299s"))).is_empty());
    let p = unhealthy("cart", None);
    assert_eq!(
        failovers(&p),
        [(300, "cart-deployment".into(), PurgeMode::Directly)]
    );
    let ended = p
        .plan
        .timeline
        .iter()
        .any(|m| m.at == 900 && matches!(m.what, Happening::TaskEnded { .. }));
    assert!(ended);
}

// stream: Never, after 30 s; its task stays (suppressDeletion) however long the plan runs.
#[test]
fn never_keeps_the_old_copy() {
    let p = unhealthy("stream", Some("1h"));
    assert_eq!(
        failovers(&p),
        [(30, "stream-deployment".into(), PurgeMode::Never)]
    );
    let b = p
        .plan
        .bindings
        .iter()
        .find(|b| b.id.name == "stream-deployment")
        .unwrap();
    assert_eq!(b.evicting.len(), 1);
    assert_eq!(b.evicting[0].suppress_deletion, Some(true));
    assert!(after(&p, "stream-deployment")
        .iter()
        .all(|(c, _)| c != "member2"));
}

// Release 1.19 refuses the deprecated purge modes 1.18 accepts.
#[test]
fn deprecated_purge_modes_by_release() {
    let text = DUMP.replace("purgeMode: Directly", "purgeMode: Immediately");
    let objects = allot_web::yaml::objects(&text).unwrap();
    let what = WhatIf {
        unhealthy: vec!["deploy/shop/cart@member2".into()],
        ..WhatIf::default()
    };
    let at = |v: &str| {
        let choice = Choice {
            version: allot_core::karmada::version::Version::parse(v).unwrap(),
            ..Choice::default()
        };
        plan(&objects, &choice, &what, &[], &[]).expect("plan")
    };
    let old = at("1.18");
    assert_eq!(
        failovers(&old),
        [(300, "cart-deployment".into(), PurgeMode::Directly)]
    );
    let new = at("1.19");
    assert!(failovers(&new).is_empty());
    assert!(new
        .report
        .problems
        .iter()
        .any(|p| p.field == "spec.failover.application.purgeMode"));
}

// A policy applied over the dump's: the detector copies its failover behaviour to the
// binding, and the controller counts with the new tolerationSeconds.
#[test]
fn an_applied_policy_changes_the_failover() {
    let edited = r#"
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: cart, namespace: shop}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment, name: cart}
  propagateDeps: true
  placement:
    clusterAffinity: {clusterNames: [member1, member2, member3]}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference: {dynamicWeight: AvailableReplicas}
  failover:
    application:
      decisionConditions: {tolerationSeconds: 10}
      purgeMode: Directly
"#;
    let applied = allot_web::yaml::objects(edited).unwrap();
    let what = WhatIf {
        unhealthy: vec!["deploy/shop/cart@member2".into()],
        ..WhatIf::default()
    };
    let p = plan(&dump(), &Choice::default(), &what, &[], &applied).expect("plan");
    assert_eq!(
        failovers(&p),
        [(10, "cart-deployment".into(), PurgeMode::Directly)]
    );
}
