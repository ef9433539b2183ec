//! The plan's sentences (docs/rules/fleet.md §30.4): why a binding ends as it does and what
//! state a cluster is in, in plain words with Karmada's own term in brackets (the trigger of
//! `doScheduleBinding`, the reason of the `Scheduled` condition, the `Ready` condition), and
//! each step of its timeline (§30.1), said once here for every reader of a plan (the
//! command's table, the fleet view).

use alloc::format;
use alloc::string::String;

use super::entry::Condition;
use super::events::{Change, Why, WhyNot};
use super::eviction::Due;
use super::health::Readiness;
use super::plan::{Outcome, Summary, Unchanged};
use super::timeline::{Happening, TaskEnd};
use super::triggers::Trigger;

/// `n` and its noun, in the plural unless one: `1 replica`, `3 replicas`.
pub(crate) fn counted(n: i64, one: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// `n` with its thousands separated: `8,637`.
fn grouped(n: u64) -> String {
    let digits = format!("{n}");
    let mut text = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            text.push(',');
        }
        text.push(d);
    }
    text
}

/// `n`, its thousands separated, and its noun in the plural unless one: `8,637 bindings`.
fn many(n: u64, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{} {one}s", grouped(n))
    }
}

/// The plan's counts in one sentence: `3 bindings changed (12 replicas moved, 2 replicas
/// placed nowhere), 1 unschedulable, 396 unchanged; 1 cluster overcommitted; 2 bindings
/// already pending before the event.` (what the events cause, the pending apart, §30.3).
pub fn plan_summary(s: &Summary) -> String {
    let nowhere = if s.unplaced_replicas > 0 {
        format!(", {} placed nowhere", many(s.unplaced_replicas, "replica"))
    } else {
        String::new()
    };
    let pending = if s.pending > 0 {
        format!(
            "; {} already pending before the event",
            many(s.pending as u64, "binding")
        )
    } else {
        String::new()
    };
    format!(
        "{} changed ({} moved{nowhere}), {} unschedulable, {} unchanged; {} overcommitted\
         {pending}.",
        many(s.changed as u64, "binding"),
        many(s.moved_replicas, "replica"),
        grouped(s.unschedulable as u64),
        grouped(s.unchanged as u64),
        many(s.overcommitted_clusters as u64, "cluster"),
    )
}

/// Seconds as a duration is written: `0s`, `1m30s`, `5m`, `1h`.
pub fn duration(seconds: i64) -> String {
    let (h, m, s) = (seconds / 3600, seconds % 3600 / 60, seconds % 60);
    let mut text = String::new();
    for (n, unit) in [(h, "h"), (m, "m"), (s, "s")] {
        if n != 0 {
            text.push_str(&format!("{n}{unit}"));
        }
    }
    if text.is_empty() {
        "0s".into()
    } else {
        text
    }
}

/// The caveat of `together` bindings scheduled together after one event under `setting`
/// (docs/rules/fleet.md §21.2): Karmada's order among them is its informer's.
pub fn order_caveat(together: usize, setting: &str) -> String {
    format!(
        "{together} bindings were scheduled together after one event with {setting} on: \
         Karmada takes such bindings in the order its informer lists them, which changes from \
         run to run, and each one's schedule reads those before it; allot takes them in the \
         fleet's order. Where they compete for the same clusters, Karmada may place some of \
         them differently from one run to the next."
    )
}

/// One step of the timeline in words: `rb/shop/web-deployment evicted from member2
/// (2 replicas, purge Directly)`.
pub fn moment(h: &Happening) -> String {
    match h {
        Happening::Condition {
            cluster,
            kind,
            status,
        } => format!("cluster {cluster}: {kind}={status}"),
        Happening::Tainted {
            cluster,
            taint,
            policy,
        }
        | Happening::Untainted {
            cluster,
            taint,
            policy,
        } => {
            let verb = if matches!(h, Happening::Tainted { .. }) {
                "tainted"
            } else {
                "untainted"
            };
            let by = policy
                .as_ref()
                .map(|p| format!(" by ClusterTaintPolicy {p}"))
                .unwrap_or_default();
            format!("cluster {cluster} {verb} {taint}{by}")
        }
        Happening::Evicted {
            binding,
            cluster,
            replicas,
            purge_mode,
        } => format!(
            "{binding} evicted from {cluster} ({}, purge {})",
            counted(*replicas, "replica"),
            purge_mode.as_str()
        ),
        Happening::Reported {
            binding,
            cluster,
            health,
        } => format!("{binding} reported {} on {cluster}", health.as_str()),
        Happening::FailedOver {
            binding,
            cluster,
            replicas,
            purge_mode,
        } => format!(
            "{binding} failed over from {cluster} (application failover: {}, purge {})",
            counted(*replicas, "replica"),
            purge_mode.as_str()
        ),
        Happening::Scheduled {
            binding, clusters, ..
        } => {
            // One string written in place: a Duplicated binding lists every cluster.
            let mut said = format!("{binding} placed: ");
            for (k, (c, n)) in clusters.iter().enumerate() {
                let comma = if k == 0 { "" } else { "," };
                let _ = core::fmt::Write::write_fmt(&mut said, format_args!("{comma}{c}:{n}"));
            }
            said
        }
        Happening::Unschedulable { binding, condition } => {
            format!("{binding} cannot be placed: {}", condition_words(condition))
        }
        Happening::TaskEnded {
            binding,
            cluster,
            reason,
        } => format!(
            "{binding}: its graceful eviction task for {cluster} ends ({})",
            match reason {
                TaskEnd::Timeout => "timeout",
                TaskEnd::Healthy => "the new placement is healthy",
                TaskEnd::Confirmed => "suppressDeletion set to false",
            }
        ),
    }
}

/// Why a binding ends as `outcome`: `enqueued`, why the events last put it in the queue;
/// `first`, it had no placement before (its first schedule).
pub fn because(outcome: &Outcome, enqueued: Option<&Why>, first: bool) -> String {
    match outcome {
        Outcome::Changed { trigger } => {
            format!("rescheduled: {}", trigger_words(*trigger, enqueued, first))
        }
        Outcome::Evicted => "evicted by the taint manager (a NoExecute taint it does not \
                             tolerate); the scheduler does not place it again"
            .into(),
        Outcome::Unschedulable { condition } => condition_words(condition),
        Outcome::Unchanged { why } => match why {
            Unchanged::Untouched => "no event concerned it".into(),
            Unchanged::NotEnqueued { why } => format!("not rescheduled: {}", why_not(why)),
            Unchanged::NoTrigger { enqueued } => format!(
                "not rescheduled: enqueued ({}), but Divided with its placement and replicas \
                 as applied (no trigger)",
                why_words(enqueued)
            ),
            Unchanged::SameResult { trigger } => format!(
                "rescheduled ({}), to the same clusters",
                trigger_words(*trigger, enqueued, first)
            ),
        },
    }
}

/// A trigger of `doScheduleBinding` in words.
pub fn trigger_words(trigger: Trigger, enqueued: Option<&Why>, first: bool) -> String {
    let words: &str = match trigger {
        Trigger::PlacementChanged if first => "its first schedule (placementChanged)",
        Trigger::PlacementChanged => "its policy's placement changed (placementChanged)",
        Trigger::ReplicasChanged => {
            return match enqueued {
                Some(Why::SpecChanged {
                    change: Change::Evicted(cluster),
                }) => format!(
                    "evicted from {cluster}, its replicas are placed again (replicasChanged)"
                ),
                Some(Why::SpecChanged {
                    change: Change::Replicas,
                }) => "scaled: its replicas changed (replicasChanged)".into(),
                _ => "the replicas placed are not the workload's (replicasChanged)".into(),
            }
        }
        Trigger::RescheduleRequired => {
            "a WorkloadRebalancer asked for a fresh schedule (rescheduleRequired)"
        }
        Trigger::EveryReconcile => {
            "Duplicated, or not a workload: scheduled at every change (everyReconcile)"
        }
        Trigger::PlacedClusterDeleting => {
            "a cluster it is placed on is being deleted (placedClusterDeleting)"
        }
    };
    words.into()
}

/// A failed schedule's condition in words, with Karmada's reason and message.
pub fn condition_words(condition: &Condition) -> String {
    let (words, reason, message) = match condition {
        Condition::NoClusterFit(m) => ("no cluster fits", "NoClusterFit", m.as_str()),
        Condition::Unschedulable(m) => ("cannot be scheduled", "Unschedulable", m.as_str()),
        Condition::SchedulerError(m) => ("the scheduler failed", "SchedulerError", m.as_str()),
        Condition::Pending => return "not scheduled yet".into(),
        Condition::Success => return "scheduled".into(),
    };
    if message.is_empty() {
        format!("{words} (Scheduled=False, {reason})")
    } else {
        format!("{words} (Scheduled=False, {reason}): {message}")
    }
}

/// Why the events put a binding in the queue, in words.
pub fn why_words(why: &Why) -> String {
    match why {
        Why::Restart => "the scheduler started".into(),
        Why::Created => "created".into(),
        Why::SpecChanged { change } => match change {
            Change::Placement => "its placement changed".into(),
            Change::Replicas => "its replicas changed".into(),
            Change::Evicted(c) => format!("evicted from {c}"),
            Change::EvictionEnded(c) => format!("its eviction from {c} ended"),
            Change::FailedOver(c) => format!("application failover took it off {c}"),
            Change::RescheduleTriggered => "a WorkloadRebalancer".into(),
            Change::WorkloadAffinityGroups => "its workload affinity groups changed".into(),
        },
        Why::ClusterChanged { cluster } => format!("{cluster} changed"),
        Why::Retried { .. } => "retried after its backoff".into(),
    }
}

/// Why the events left a binding out of the queue, in words.
pub fn why_not(why: &WhyNot) -> String {
    match why {
        WhyNot::NotClaimed => "no policy claims it, so the scheduler does not see it".into(),
        WhyNot::AffinityExcludes { cluster } => {
            format!("its cluster affinity selects neither the old nor the new {cluster}")
        }
        WhyNot::StatusOnly { cluster } => format!(
            "only {cluster}'s status changed, which enqueues no binding (the cluster \
             controller's taint does, and the binding is then left where it is unless a \
             NoExecute taint evicts it)"
        ),
        WhyNot::ClusterUnchanged { cluster } => {
            format!("{cluster} changed nothing the scheduler watches (spec, labels, deletion)")
        }
        WhyNot::SpecUnchanged => "its spec did not change".into(),
        WhyNot::AlreadyTriggered => {
            "its rescheduleTriggeredAt is already at or after the rebalancer's".into()
        }
        WhyNot::FailoverHeld {
            held: super::app_failover::Held::TaskOptions { cluster, message },
        } => format!(
            "the application failover controller cannot write its eviction task for \
             {cluster} ({message}), and tries again"
        ),
        WhyNot::Tolerated { cluster, due } => {
            let until = match due {
                Due::Now => String::new(),
                Due::At(t) => format!(" until {t} s"),
                Due::Never => " for good".into(),
            };
            format!(
                "it tolerates {cluster}'s NoExecute taint, so the taint manager leaves it \
                 there{until}"
            )
        }
    }
}

/// A cluster's state in words: its `Ready` condition, and whether it is cordoned or being
/// deleted.
pub fn cluster_state(ready: Readiness, cordoned: bool, deleting: bool) -> String {
    let mut s: String = match ready {
        Readiness::Ready => "Ready".into(),
        Readiness::NotReady => "NotReady (Ready=False)".into(),
        Readiness::Unknown => "unreachable (Ready=Unknown)".into(),
        Readiness::Never => "joining (no Ready condition yet)".into(),
    };
    if cordoned {
        s.push_str(", cordoned (unschedulable taint)");
    }
    if deleting {
        s.push_str(", being deleted");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    // Each timeline step in words, with its policy, plurals and Karmada's condition; seconds
    // as a duration.
    #[test]
    fn moments_are_said() {
        use crate::karmada::fleet::entry::{BindingKind, Id};
        let web = Id {
            kind: BindingKind::ResourceBinding,
            namespace: "shop".into(),
            name: "web-deployment".into(),
        };
        let tainted = Happening::Tainted {
            cluster: "member2".into(),
            taint: "cluster.karmada.io/not-ready:NoExecute".into(),
            policy: Some("down".into()),
        };
        assert_eq!(
            moment(&tainted),
            "cluster member2 tainted cluster.karmada.io/not-ready:NoExecute by ClusterTaintPolicy down"
        );
        let evicted = |replicas| Happening::Evicted {
            binding: web.clone(),
            cluster: "member2".into(),
            replicas,
            purge_mode: super::super::eviction::PurgeMode::Directly,
        };
        assert_eq!(
            moment(&evicted(1)),
            "rb/shop/web-deployment evicted from member2 (1 replica, purge Directly)"
        );
        assert!(moment(&evicted(2)).contains("(2 replicas,"));
        let failed = Happening::Unschedulable {
            binding: web.clone(),
            condition: Condition::NoClusterFit("0/3 clusters are available".into()),
        };
        let said = moment(&failed);
        assert!(
            said.starts_with("rb/shop/web-deployment cannot be placed: "),
            "{said}"
        );
        assert!(said.ends_with("(Scheduled=False, NoClusterFit): 0/3 clusters are available"));
        let ended = Happening::TaskEnded {
            binding: web,
            cluster: "member2".into(),
            reason: TaskEnd::Timeout,
        };
        assert_eq!(
            moment(&ended),
            "rb/shop/web-deployment: its graceful eviction task for member2 ends (timeout)"
        );
        assert_eq!(duration(0), "0s");
        assert_eq!(duration(90), "1m30s");
        assert_eq!(duration(300), "5m");
        assert_eq!(duration(3600), "1h");
    }

    // The plan's counts in one sentence: plurals, thousands separated, the replicas placed
    // nowhere and the pending said only when there are some.
    #[test]
    fn the_plans_counts_are_one_sentence() {
        let mut s = Summary {
            bindings: 8_640,
            changed: 1,
            unschedulable: 2,
            unchanged: 8_637,
            moved_replicas: 12,
            ..Summary::default()
        };
        assert_eq!(
            plan_summary(&s),
            "1 binding changed (12 replicas moved), 2 unschedulable, 8,637 unchanged; 0 \
             clusters overcommitted."
        );
        s.unplaced_replicas = 1;
        s.pending = 1_200;
        s.overcommitted_clusters = 1;
        s.moved_replicas = 1_000_000;
        assert_eq!(
            plan_summary(&s),
            "1 binding changed (1,000,000 replicas moved, 1 replica placed nowhere), 2 \
             unschedulable, 8,637 unchanged; 1 cluster overcommitted; 1,200 bindings already \
             pending before the event."
        );
    }

    // Every trigger and state is said in plain words, Karmada's term in brackets.
    #[test]
    fn karmadas_terms_are_in_brackets_after_plain_words() {
        let evicted = Why::SpecChanged {
            change: Change::Evicted("member1".into()),
        };
        let t = trigger_words(Trigger::ReplicasChanged, Some(&evicted), false);
        assert_eq!(
            t,
            "evicted from member1, its replicas are placed again (replicasChanged)"
        );
        let first = trigger_words(Trigger::PlacementChanged, None, true);
        assert_eq!(first, "its first schedule (placementChanged)");
        let same = because(
            &Outcome::Unchanged {
                why: Unchanged::SameResult {
                    trigger: Trigger::EveryReconcile,
                },
            },
            None,
            false,
        );
        assert!(same.ends_with("to the same clusters"), "{same}");
        assert!(same.contains("(everyReconcile)"));
        let c = condition_words(&Condition::NoClusterFit(
            "0/3 clusters are available".into(),
        ));
        assert_eq!(
            c,
            "no cluster fits (Scheduled=False, NoClusterFit): 0/3 clusters are available"
        );
        assert_eq!(
            cluster_state(Readiness::NotReady, true, false),
            "NotReady (Ready=False), cordoned (unschedulable taint)"
        );
    }
}
