//! Cluster failover as the operator configured it (docs/rules/fleet.md §24.3, §25, §30.1):
//! the example dump `docs/manifests/fleet-failover.yaml` (a NoExecute ClusterTaintPolicy on
//! clusters that are not Ready, `tolerationSeconds: 300` on one policy) planned with a
//! cluster down and the controller-manager's failover on: which workloads are evicted when,
//! where their replicas go, which cannot be placed; at a moment, and settled.

use allot_core::karmada::fleet::eviction::PurgeMode;
use allot_core::karmada::fleet::plan::Outcome;
use allot_core::karmada::fleet::timeline::{Happening, Moment, TaskEnd};
use allot_core::karmada::gates::FeatureGates;
use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::Object;
use allot_core::kubernetes::plan::{plan, Planned, WhatIf};

fn dump() -> Vec<Object> {
    let path = format!(
        "{}/../docs/manifests/fleet-failover.yaml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    allot_web::yaml::objects(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn down(at: Option<&str>, failover: bool) -> Planned {
    let what = WhatIf {
        cluster_down: vec!["member2".into()],
        feature_gates: FeatureGates::parse(if failover { "Failover=true" } else { "" })
            .expect("gates"),
        enable_no_execute_taint_eviction: failover,
        at: at.map(String::from),
        ..WhatIf::default()
    };
    plan(&dump(), &Choice::default(), &what, &[], &[]).expect("plan")
}

/// The moments of `kind` (`evicted`, `scheduled`, ...) as `(at, binding name, cluster)`.
fn evictions(p: &Planned) -> Vec<(i64, String, PurgeMode)> {
    p.plan
        .timeline
        .iter()
        .filter_map(|m: &Moment| match &m.what {
            Happening::Evicted {
                binding,
                cluster,
                purge_mode,
                ..
            } => {
                assert_eq!(cluster, "member2");
                Some((m.at, binding.name.to_string(), *purge_mode))
            }
            _ => None,
        })
        .collect()
}

fn after(p: &Planned, name: &str) -> Vec<(String, i64)> {
    let b = p.plan.bindings.iter().find(|b| b.id.name == name).unwrap();
    b.after.iter().map(|(c, &n)| (c.clone(), n)).collect()
}

// Settled: member2's Ready goes False, the policy adds its NoExecute taint at 0 s; web and db
// tolerate nothing and are evicted at once (web Directly, as its policy says), cart at
// 300 s; web's and cart's replicas go to member1 and member3, db's cannot be placed; the
// graceful eviction tasks end after the ten-minute timeout.
#[test]
fn a_cluster_down_evicts_on_time_as_configured() {
    let p = down(None, true);
    assert!(p.report.problems.is_empty(), "{:?}", p.report.problems);
    let t = &p.plan.timeline;
    assert!(t.iter().any(|m| m.at == 0
        && m.what
            == Happening::Tainted {
                cluster: "member2".into(),
                taint: "cluster.karmada.io/not-ready:NoExecute".into(),
                policy: Some("not-ready-no-execute".into()),
            }));
    assert_eq!(
        evictions(&p),
        [
            (0, "web-deployment".into(), PurgeMode::Directly),
            (0, "db-deployment".into(), PurgeMode::Gracefully),
            (300, "cart-deployment".into(), PurgeMode::Gracefully),
        ]
    );
    assert!(after(&p, "web-deployment")
        .iter()
        .all(|(c, _)| c != "member2"));
    assert_eq!(
        after(&p, "web-deployment")
            .iter()
            .map(|(_, n)| n)
            .sum::<i64>(),
        6
    );
    assert!(after(&p, "cart-deployment")
        .iter()
        .all(|(c, _)| c != "member2"));
    assert!(t.iter().any(|m| m.at == 300
        && matches!(&m.what, Happening::Scheduled { binding, .. } if binding.name == "cart-deployment")));
    assert!(t.iter().any(|m| m.at == 0
        && matches!(&m.what, Happening::Unschedulable { binding, .. } if binding.name == "db-deployment")));
    let db = p
        .plan
        .bindings
        .iter()
        .find(|b| b.id.name == "db-deployment")
        .unwrap();
    assert!(
        matches!(db.outcome, Outcome::Unschedulable { .. }),
        "{:?}",
        db.outcome
    );
    let ends: Vec<(i64, &str)> = t
        .iter()
        .filter_map(|m| match &m.what {
            Happening::TaskEnded {
                binding,
                reason: TaskEnd::Timeout,
                ..
            } => Some((m.at, binding.name.as_str())),
            _ => None,
        })
        .collect();
    assert!(ends.contains(&(600, "web-deployment")), "{ends:?}");
    assert!(ends.contains(&(900, "cart-deployment")), "{ends:?}");
}

// At 90 s cart still tolerates the taint: it stays on member2; web has moved.
#[test]
fn at_a_moment_the_later_evictions_have_not_happened() {
    let p = down(Some("90s"), true);
    assert_eq!(evictions(&p).len(), 2);
    assert!(after(&p, "cart-deployment")
        .iter()
        .any(|(c, _)| c == "member2"));
    assert!(after(&p, "web-deployment")
        .iter()
        .all(|(c, _)| c != "member2"));
}

// Without gate Failover and the flag the taint is added, and nothing is evicted.
#[test]
fn without_failover_nothing_is_evicted() {
    let p = down(None, false);
    assert!(evictions(&p).is_empty());
    assert!(after(&p, "cart-deployment")
        .iter()
        .any(|(c, _)| c == "member2"));
}

// A ClusterTaintPolicy applied over the dump (`--apply`): its controller reconciles every
// cluster it targets at once; here member1, Ready, gets a NoExecute taint while Ready is
// True, and what tolerates nothing leaves it.
#[test]
fn an_applied_policy_taints_the_clusters_it_targets() {
    let applied = allot_web::yaml::objects(
        r#"
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata: {name: drain-member1}
spec:
  targetClusters: {clusterNames: [member1]}
  addOnConditions:
  - {conditionType: Ready, operator: In, statusValues: ["True"]}
  taints:
  - {key: maintenance, effect: NoExecute}
"#,
    )
    .unwrap();
    let what = WhatIf {
        taint_eviction: true,
        ..WhatIf::default()
    };
    let p = plan(&dump(), &Choice::default(), &what, &[], &applied).expect("plan");
    assert!(p.plan.timeline.iter().any(|m| m.what
        == Happening::Tainted {
            cluster: "member1".into(),
            taint: "maintenance:NoExecute".into(),
            policy: Some("drain-member1".into()),
        }));
    let evicted: Vec<&str> = p
        .plan
        .timeline
        .iter()
        .filter_map(|m| match &m.what {
            Happening::Evicted {
                binding, cluster, ..
            } if cluster == "member1" => Some(binding.name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(evicted, ["web-deployment", "cart-deployment"]);
}

// `--no-execute-taint-eviction-purge-mode Directly` for the bindings whose policy says
// nothing (web's own `Directly`, cart's none); `--graceful-eviction-timeout 2m` ends the
// tasks two minutes after their eviction.
#[test]
fn the_controller_managers_flags_set_purge_mode_and_timeout() {
    let what = WhatIf {
        cluster_down: vec!["member2".into()],
        taint_eviction: true,
        no_execute_taint_eviction_purge_mode: Some("Directly".into()),
        graceful_eviction_timeout: Some("2m".into()),
        ..WhatIf::default()
    };
    let p = plan(&dump(), &Choice::default(), &what, &[], &[]).expect("plan");
    assert!(evictions(&p)
        .iter()
        .all(|(_, _, mode)| *mode == PurgeMode::Directly));
    let ends: Vec<(i64, String)> = p
        .plan
        .timeline
        .iter()
        .filter_map(|m| match &m.what {
            Happening::TaskEnded { binding, .. } => Some((m.at, binding.name.to_string())),
            _ => None,
        })
        .collect();
    assert!(ends.contains(&(120, "db-deployment".into())), "{ends:?}");
    assert!(ends.contains(&(420, "cart-deployment".into())), "{ends:?}");
    let wrong = WhatIf {
        no_execute_taint_eviction_purge_mode: Some("Never".into()),
        ..what
    };
    let err = plan(&dump(), &Choice::default(), &wrong, &[], &[]).unwrap_err();
    assert_eq!(err.field().to_string(), "noExecuteTaintEvictionPurgeMode");
}

// Karmada 1.13 has no ClusterTaintPolicy and no failover.cluster: report lines, and a cluster
// down adds the NoSchedule taint alone (nothing to evict on).
#[test]
fn a_release_without_the_kinds_reports_them() {
    let version = allot_core::karmada::version::Version::parse("1.13").unwrap();
    let choice = Choice {
        version,
        ..Choice::default()
    };
    let what = WhatIf {
        cluster_down: vec!["member2".into()],
        taint_eviction: true,
        ..WhatIf::default()
    };
    let p = plan(&dump(), &choice, &what, &[], &[]).expect("plan");
    let fields: Vec<&str> = p.report.problems.iter().map(|x| x.field.as_str()).collect();
    assert!(fields.contains(&"kind"), "{fields:?}");
    assert!(fields.contains(&"spec.failover.cluster"), "{fields:?}");
    assert!(evictions(&p).is_empty());
}

// `assumeHealthy`: the members report each workload Healthy once it is placed, so a binding
// placed again ends its graceful eviction task as soon as its new clusters are scheduled
// (`allScheduledResourceInHealthyState`), not at the timeout; one that cannot be placed keeps
// its task until then.
#[test]
fn members_reporting_healthy_end_the_tasks_of_the_bindings_placed_again() {
    let what = |assume_healthy| WhatIf {
        cluster_down: vec!["member2".into()],
        taint_eviction: true,
        assume_healthy,
        ..WhatIf::default()
    };
    let ends = |p: &Planned| -> Vec<(i64, String, TaskEnd)> {
        p.plan
            .timeline
            .iter()
            .filter_map(|m| match &m.what {
                Happening::TaskEnded {
                    binding, reason, ..
                } => Some((m.at, binding.name.to_string(), *reason)),
                _ => None,
            })
            .collect()
    };
    let waiting = plan(&dump(), &Choice::default(), &what(false), &[], &[]).expect("plan");
    assert!(ends(&waiting).iter().all(|e| e.2 == TaskEnd::Timeout));
    let healthy = plan(&dump(), &Choice::default(), &what(true), &[], &[]).expect("plan");
    let evicted = evictions(&healthy);
    let ended = ends(&healthy);
    // cart, evicted at 5m and placed again: its task ends then, the new placement Healthy.
    let cart = evicted
        .iter()
        .find(|e| e.1 == "cart-deployment")
        .expect("cart evicted");
    assert!(
        ended.contains(&(cart.0, "cart-deployment".into(), TaskEnd::Healthy)),
        "{ended:?}"
    );
    // db cannot be placed: it is never scheduled, so its task waits for the timeout.
    assert!(
        ended
            .iter()
            .any(|e| e.1 == "db-deployment" && e.2 == TaskEnd::Timeout),
        "{ended:?}"
    );
    // The placements are the same either way.
    assert_eq!(healthy.plan.bindings, waiting.plan.bindings);
}
