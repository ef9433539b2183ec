//! The NoExecute taint manager and graceful eviction tasks (docs/rules/fleet.md §25), as
//! `syncBindingEviction` and `needEvictionWithCurrentTime`
//! (pkg/controllers/cluster/taint_manager.go), `GracefulEvictCluster`
//! (pkg/apis/work/v1alpha2/binding_types_helper.go) and `assessSingleTask`
//! (pkg/controllers/gracefuleviction/evictiontask.go) decide.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::entry::{Entry, EvictionTask};
use super::health::Health;
use crate::karmada::cluster::Member;
use crate::selector::node::TaintEffect;

/// How the workload left on a cluster the binding is evicted from is removed (`PurgeMode`;
/// the taint manager's `getPurgeMode`, §25.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum PurgeMode {
    /// The workload stays until the graceful eviction task ends (§25.4).
    #[default]
    Gracefully,
    /// The workload is removed at once (its Work deleted as an orphan), before the replicas
    /// are placed elsewhere.
    Directly,
    /// The workload stays until a user sets the task's `suppressDeletion` to false
    /// (application failover only, §32.4).
    Never,
}

impl PurgeMode {
    /// A `failover.cluster.purgeMode` or `--no-execute-taint-eviction-purge-mode` value: both
    /// admit `Directly` and `Gracefully` alone, in every release from 1.16.
    pub fn parse(text: &str) -> Option<PurgeMode> {
        match text {
            "Gracefully" => Some(PurgeMode::Gracefully),
            "Directly" => Some(PurgeMode::Directly),
            _ => None,
        }
    }

    /// A `failover.application.purgeMode` (or a task's) as release `version`'s CRD admits it
    /// (§32.4): `Directly`, `Gracefully` (empty: the default) and `Never`; before 1.19 also
    /// the deprecated `Immediately` (read as Directly) and `Graciously` (as Gracefully).
    pub fn parse_application(
        text: &str,
        version: crate::karmada::version::Version,
    ) -> Option<PurgeMode> {
        match text {
            "Never" => Some(PurgeMode::Never),
            "" => Some(PurgeMode::Gracefully),
            "Immediately" if !version.at_least(19, 0) => Some(PurgeMode::Directly),
            "Graciously" if !version.at_least(19, 0) => Some(PurgeMode::Gracefully),
            other => PurgeMode::parse(other),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PurgeMode::Gracefully => "Gracefully",
            PurgeMode::Directly => "Directly",
            PurgeMode::Never => "Never",
        }
    }
}

/// `getPurgeMode`: the binding's `spec.failover.cluster.purgeMode` when its policy has
/// `failover.cluster` (empty: Gracefully), else the taint manager's
/// `--no-execute-taint-eviction-purge-mode` (anything but Directly: Gracefully).
pub fn purge_mode(cluster_failover: Option<PurgeMode>, flag: PurgeMode) -> PurgeMode {
    cluster_failover.unwrap_or(flag)
}

/// When a binding placed on a NoExecute-tainted cluster is evicted from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "when", content = "at")]
pub enum Due {
    /// Some NoExecute taint is tolerated by none of the tolerations: now.
    Now,
    /// The earliest `timeAdded + tolerationSeconds` of the tolerations used.
    At(i64),
    /// Every NoExecute taint tolerated with no `tolerationSeconds` (or a taint without
    /// `timeAdded`): never.
    Never,
}

/// When `e` is evicted from the cluster `m` (with health `h`); `None` when the cluster has no
/// NoExecute taint, or the binding has no applied placement (Karmada's taint manager then
/// fails on it and evicts nothing). The tolerations are the applied placement's (§25.2 rule
/// 2): `GetMatchingTolerations` picks, per NoExecute taint, the first toleration of it (none:
/// evict now); `GetMinTolerationTimeWithCurrentTime` takes the earliest `timeAdded +
/// tolerationSeconds` over every pair of a used toleration with seconds and a timed taint it
/// tolerates (none: never).
pub fn due(e: &Entry, m: &Member, h: &Health) -> Option<Due> {
    let applied = e.state.applied.as_ref()?;
    let taints: Vec<_> = m
        .taints
        .iter()
        .filter(|t| t.effect == TaintEffect::NoExecute)
        .collect();
    if taints.is_empty() {
        return None;
    }
    let mut used = Vec::with_capacity(taints.len());
    for taint in &taints {
        match applied
            .timed_tolerations()
            .find(|(t, _)| t.tolerates(taint))
        {
            Some(pair) => used.push(pair),
            None => return Some(Due::Now),
        }
    }
    let earliest = used
        .iter()
        .filter_map(|&(t, seconds)| Some((t, seconds?)))
        .flat_map(|(t, seconds)| {
            taints.iter().filter_map(move |taint| {
                let added = h.added_at(&taint.key, taint.effect)?;
                t.tolerates(taint).then(|| added.saturating_add(seconds))
            })
        })
        .min();
    Some(earliest.map_or(Due::Never, Due::At))
}

/// Evict `e` from `cluster` (`GracefulEvictCluster`): the entry leaves `spec.clusters`, and a
/// graceful eviction task (with `purge_mode`, and the labels the policy preserves) is
/// appended unless one for the cluster exists. Answers the replicas the cluster held, when
/// the binding changed.
pub fn evict(e: &mut Entry, cluster: &str, purge_mode: PurgeMode, now: i64) -> Option<i64> {
    let preserved_label_state = e
        .failover
        .as_ref()
        .map(|f| {
            f.preserved_labels
                .iter()
                .map(|l| (l.clone(), String::new()))
                .collect()
        })
        .unwrap_or_default();
    let task = EvictionTask {
        from_cluster: String::from(cluster),
        replicas: e.state.clusters.get(cluster).copied().filter(|&r| r > 0),
        created_at: now,
        purge_mode,
        preserved_label_state,
        ..EvictionTask::default()
    };
    evict_with(e, task)
}

/// `GracefulEvictCluster` with the task its caller built: the task's cluster leaves
/// `spec.clusters`, and the task is appended unless one for the cluster exists. Answers the
/// replicas the cluster held, when the binding changed.
pub fn evict_with(e: &mut Entry, task: EvictionTask) -> Option<i64> {
    let replicas = e.state.clusters.remove(&task.from_cluster)?;
    if !e
        .state
        .evictions
        .iter()
        .any(|t| t.from_cluster == task.from_cluster)
    {
        e.state.evictions.push(task);
    }
    Some(replicas)
}

#[cfg(test)]
mod tests {
    use alloc::rc::Rc;

    use super::Due;
    use crate::karmada::fleet::entry::Rules;
    use crate::karmada::fleet::events::{Change, Event, Why, WhyNot};
    use crate::karmada::fleet::plan::{plan, Outcome, Plan};
    use crate::karmada::fleet::testing::*;
    use crate::karmada::fleet::triggers::Trigger;
    use crate::karmada::fleet::{Fleet, Settings};
    use crate::karmada::gates::Gate;
    use crate::karmada::Strategy;
    use crate::selector::node::{Taint, TaintEffect, Toleration, TolerationOperator};

    fn tolerating(rules: Rules, seconds: Option<i64>) -> Rules {
        rules.with_tolerations(alloc::vec![(
            Toleration {
                key: "maint".into(),
                operator: TolerationOperator::Exists,
                value: Default::default(),
                effect: Some(TaintEffect::NoExecute),
            },
            seconds,
        )])
    }

    /// A Divided binding of 6 replicas placed {a: 4, b: 2} under `rules(…)`, the taint manager
    /// evicting when `eviction`.
    fn on_a_and_b(eviction: bool, rules: impl FnOnce(Rules) -> Rules) -> Fleet {
        let mut e = entry("div", Strategy::DynamicWeight, 6, &[("a", 4), ("b", 2)]);
        e.rules = Rc::new(rules((*e.rules).clone()));
        e.state.applied = Some(e.rules.clone());
        let settings = Settings {
            no_execute_taint_eviction: eviction,
            ..Settings::default()
        }
        .with(Gate::Failover, eviction);
        fleet(
            alloc::vec![member("a", 10), member("b", 10)],
            alloc::vec![e],
            settings,
        )
    }

    fn no_execute(key: &str) -> Taint {
        Taint {
            key: key.into(),
            value: Default::default(),
            effect: TaintEffect::NoExecute,
        }
    }

    fn maintenance(eviction: bool, seconds: Option<i64>, timed: bool) -> Plan {
        let f = on_a_and_b(eviction, |r| tolerating(r, seconds));
        let taint = no_execute("maint");
        let events = alloc::vec![
            Event::Taint {
                cluster: "a".into(),
                taint,
                timed,
            },
            Event::Advance { seconds: 30 },
            Event::Advance { seconds: 30 },
        ];
        plan(&f, events).unwrap().0
    }

    // The taint manager (`syncBindingEviction`, `needEvictionWithCurrentTime`): a tolerated
    // NoExecute taint evicts at timeAdded + tolerationSeconds; the eviction removes the cluster
    // (`GracefulEvictCluster`), Σ < replicas triggers a Steady scale-up elsewhere, and
    // ClusterEviction keeps the evicted cluster out while its task exists.
    #[test]
    fn a_tolerated_no_execute_taint_evicts_when_the_seconds_run_out() {
        let p = maintenance(true, Some(60), true);
        assert_eq!(
            left(&p, 1),
            alloc::vec![(
                id("div"),
                WhyNot::Tolerated {
                    cluster: "a".into(),
                    due: Due::At(60)
                }
            )]
        );
        assert_eq!(
            enqueued(&p, 2),
            alloc::vec![(
                id("div"),
                Why::SpecChanged {
                    change: Change::Evicted("a".into())
                }
            )]
        );
        assert_eq!(after(&p, "div"), placed(&[("b", 6)]));
        assert_eq!(
            outcome(&p, "div"),
            &Outcome::Changed {
                trigger: Trigger::ReplicasChanged
            }
        );
    }

    // Without gate Failover and --enable-no-execute-taint-eviction nothing is evicted; a taint
    // without timeAdded (`karmadactl taint`) tolerated with seconds is tolerated forever.
    #[test]
    fn no_eviction_by_default_nor_for_untimed_taints() {
        let p = maintenance(false, Some(60), true);
        assert_eq!(after(&p, "div"), placed(&[("a", 4), ("b", 2)]));
        let p = maintenance(true, Some(60), false);
        assert_eq!(after(&p, "div"), placed(&[("a", 4), ("b", 2)]));
        assert!(left(&p, 2).contains(&(
            id("div"),
            WhyNot::Tolerated {
                cluster: "a".into(),
                due: Due::Never
            }
        )));
    }

    // An untolerated NoExecute taint evicts at once.
    #[test]
    fn an_untolerated_no_execute_taint_evicts_at_once() {
        let f = on_a_and_b(true, |r| r);
        let taint = no_execute("x");
        let events = alloc::vec![Event::Taint {
            cluster: "a".into(),
            taint,
            timed: false,
        }];
        let (p, f2) = plan(&f, events).unwrap();
        assert_eq!(after(&p, "div"), placed(&[("b", 6)]));
        assert_eq!(f2.entries[0].state.evictions[0].from_cluster, "a");
        assert_eq!(f2.entries[0].state.evictions[0].replicas, Some(4));
    }
}
