//! What happened when (docs/rules/fleet.md §30.1): as the events and the time after them run,
//! the fleet notes each step a controller takes that a user follows a failover by: a
//! cluster's condition, the taints added and removed (and by which ClusterTaintPolicy), each
//! binding evicted from a cluster, each rescheduling (where the replicas go, or why they
//! cannot be placed), each graceful eviction task's end. The kinds are open: each controller
//! adds its own. Read back as written (the fleet view reads a plan's timeline so).

use alloc::collections::BTreeMap;
use alloc::string::String;

use serde::{Deserialize, Serialize};

use super::entry::{Condition, Id};
use super::triggers::Trigger;

/// One step, `at` seconds after the events (the moment the what-if happens is 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Moment {
    pub at: i64,
    #[serde(flatten)]
    pub what: Happening,
    /// The step in words (`words::moment`), written when the plan is made.
    #[serde(default)]
    pub said: String,
    /// The binding failed again as it last failed, nothing placed between (a retry that
    /// changes nothing): a reader tells it once, at its first failure ([`mark_again`]).
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub again: bool,
}

impl Moment {
    /// `what` at `at`, not yet said in words.
    pub fn new(at: i64, what: Happening) -> Moment {
        Moment {
            at,
            what,
            said: String::new(),
            again: false,
        }
    }
}

/// Mark each failure that repeats its binding's last failure, condition and all, with no
/// placement between ([`Moment::again`]).
pub fn mark_again(moments: &mut [Moment]) {
    let mut failed: BTreeMap<Id, Condition> = BTreeMap::new();
    for m in moments {
        match &m.what {
            Happening::Unschedulable { binding, condition } => {
                m.again = failed.get(binding) == Some(condition);
                failed.insert(binding.clone(), condition.clone());
            }
            Happening::Scheduled { binding, .. } => {
                failed.remove(binding);
            }
            _ => {}
        }
    }
}

/// What a controller did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Happening {
    /// The cluster's condition changed (`Ready` to `False`, `Unknown` or `True`).
    Condition {
        cluster: String,
        #[serde(rename = "type")]
        kind: String,
        status: String,
    },
    /// A taint added to the cluster (`key:Effect`); `policy`: the ClusterTaintPolicy that
    /// added it, absent for the cluster controller's own.
    Tainted {
        cluster: String,
        taint: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        policy: Option<String>,
    },
    /// A taint removed from the cluster.
    Untainted {
        cluster: String,
        taint: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        policy: Option<String>,
    },
    /// The taint manager evicted the binding from the cluster (`GracefulEvictCluster`): the
    /// replicas it held there, and how its workload there is purged.
    #[serde(rename_all = "camelCase")]
    Evicted {
        binding: Id,
        cluster: String,
        replicas: i64,
        purge_mode: super::eviction::PurgeMode,
    },
    /// The member reported the workload Unhealthy (or Healthy) on the cluster.
    Reported {
        binding: Id,
        cluster: String,
        health: super::app_failover::WorkloadHealth,
    },
    /// The application failover controller evicted the binding from the cluster: its
    /// workload had been Unhealthy there for `tolerationSeconds` (§32).
    FailedOver {
        binding: Id,
        cluster: String,
        replicas: i64,
        purge_mode: super::eviction::PurgeMode,
    },
    /// The scheduler placed the binding again: its replicas per cluster now.
    Scheduled {
        binding: Id,
        trigger: Trigger,
        clusters: BTreeMap<String, i64>,
    },
    /// The scheduler could not place the binding: Karmada's condition.
    Unschedulable { binding: Id, condition: Condition },
    /// A graceful eviction task ended: the workload left on the cluster is removed.
    TaskEnded {
        binding: Id,
        cluster: String,
        /// Why it ended (`timeout`).
        reason: TaskEnd,
    },
}

/// Why a graceful eviction task ended (`assessSingleTask`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TaskEnd {
    /// `--graceful-eviction-timeout` (or the task's `gracePeriodSeconds`) passed.
    Timeout,
    /// Every cluster of the new placement reports the workload Healthy.
    Healthy,
    /// A user set the task's `suppressDeletion` to false.
    Confirmed,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::karmada::fleet::entry::BindingKind;

    fn id(name: &str) -> Id {
        Id {
            kind: BindingKind::ResourceBinding,
            namespace: "shop".into(),
            name: name.into(),
        }
    }

    // A retry that fails as the last pass failed is marked; a new reason, or a failure after
    // a placement, is not; each binding on its own.
    #[test]
    fn a_failure_repeating_the_last_is_marked_again() {
        let fail = |name: &str, why: &str| Happening::Unschedulable {
            binding: id(name),
            condition: Condition::NoClusterFit(why.into()),
        };
        let placed = Happening::Scheduled {
            binding: id("a"),
            trigger: Trigger::RescheduleRequired,
            clusters: BTreeMap::new(),
        };
        let mut list: alloc::vec::Vec<Moment> = [
            fail("a", "0/2 clusters are available"),
            fail("b", "0/2 clusters are available"),
            fail("a", "0/2 clusters are available"),
            fail("a", "0/3 clusters are available"),
            placed,
            fail("a", "0/3 clusters are available"),
            fail("b", "0/2 clusters are available"),
        ]
        .into_iter()
        .enumerate()
        .map(|(k, h)| Moment::new(k as i64 * 10, h))
        .collect();
        mark_again(&mut list);
        let again: alloc::vec::Vec<bool> = list.iter().map(|m| m.again).collect();
        assert_eq!(again, [false, false, true, false, false, false, true]);
        let text = serde_json::to_value(&list[2]).unwrap();
        assert_eq!(text["again"], true);
        assert!(serde_json::to_value(&list[0])
            .unwrap()
            .get("again")
            .is_none());
    }

    // The JSON a plan's timeline is written as (the package's declarations say it so), and
    // read back the same.
    #[test]
    fn moments_are_written_in_camel_case_and_read_back() {
        let mut m = Moment::new(
            300,
            Happening::Evicted {
                binding: Id {
                    kind: BindingKind::ResourceBinding,
                    namespace: "shop".into(),
                    name: "cart-deployment".into(),
                },
                cluster: "member2".into(),
                replicas: 1,
                purge_mode: super::super::eviction::PurgeMode::Gracefully,
            },
        );
        m.said = crate::karmada::fleet::words::moment(&m.what);
        let text = serde_json::to_string(&m).unwrap();
        assert_eq!(
            text,
            r#"{"at":300,"kind":"evicted","binding":{"kind":"ResourceBinding","namespace":"shop","name":"cart-deployment"},"cluster":"member2","replicas":1,"purgeMode":"Gracefully","said":"rb/shop/cart-deployment evicted from member2 (1 replica, purge Gracefully)"}"#
        );
        assert_eq!(serde_json::from_str::<Moment>(&text).unwrap(), m);
    }
}
