//! The graceful eviction controller (docs/rules/fleet.md §33), as Karmada's
//! `RBGracefulEvictionController` (pkg/controllers/gracefuleviction) decides: each graceful
//! eviction task of a binding is kept or ended by `assessEvictionTasks` and
//! `assessSingleTask` (evictiontask.go), and the controller looks again at the earliest end
//! of a timed task (`nextRetry`).

use alloc::string::String;
use alloc::vec::Vec;

use super::app_failover::WorkloadHealth;
use super::entry::{Entry, EvictionTask};
use super::timeline::{Happening, Moment, TaskEnd};

/// `assessEvictionTasks` of a binding's `tasks` at `now`: a task never stamped gets `now` as its
/// `creationTimestamp` and is kept; a task with `suppressDeletion` true is kept (false: ended);
/// one whose time (`gracePeriodSeconds`, else `timeout`) has run out ends; so does every task
/// once the binding has been scheduled since its last change and every cluster of
/// `spec.clusters` reports Healthy (`healthy`: `allScheduledResourceInHealthyState`). Answers the
/// clusters whose tasks ended, and why. Before 1.16.3 a task's `gracePeriodSeconds` stays
/// the timeout of the tasks after it in the list (`resets` false: the loop did not reset it).
pub fn assess(
    tasks: &mut Vec<EvictionTask>,
    healthy: bool,
    timeout: i64,
    resets: bool,
    now: i64,
) -> Vec<(String, TaskEnd)> {
    let mut ended = Vec::new();
    let mut current = timeout;
    tasks.retain_mut(|t| {
        if t.unstamped {
            t.unstamped = false;
            t.created_at = now;
            return true;
        }
        if resets {
            current = timeout;
        }
        let limit = t.grace_period_seconds.unwrap_or(current);
        current = limit;
        let why = match t.suppress_deletion {
            Some(true) => None,
            Some(false) => Some(TaskEnd::Confirmed),
            // The requeue comes back a moment after `creationTimestamp + timeout`.
            None if now >= t.created_at.saturating_add(limit) => Some(TaskEnd::Timeout),
            None if healthy => Some(TaskEnd::Healthy),
            None => None,
        };
        if let Some(why) = why {
            ended.push((t.from_cluster.clone(), why));
        }
        why.is_none()
    });
    ended
}

/// Every cluster of `spec.clusters` has an aggregated status reporting Healthy.
pub fn all_healthy(e: &Entry) -> bool {
    e.state.clusters.keys().all(|c| {
        e.state
            .reported
            .get(c)
            .is_some_and(|r| r.health == WorkloadHealth::Healthy)
    })
}

/// `nextRetry`: when the controller looks at `e` again, the earliest end of a task that is
/// not suppressed; `None` when none is timed.
pub fn next_retry(e: &Entry, timeout: i64) -> Option<i64> {
    e.state
        .evictions
        .iter()
        .filter(|t| t.suppress_deletion.is_none() && !t.unstamped)
        .map(|t| {
            t.created_at
                .saturating_add(t.grace_period_seconds.unwrap_or(timeout))
        })
        .min()
}

impl super::Fleet {
    /// The graceful eviction controller reconciles binding `b` now (a binding with tasks,
    /// updated or due): the tasks that end leave `spec.gracefulEvictionTasks`, each a spec
    /// change. The binding counts as scheduled when it does not wait in the scheduler's queue
    /// and its last schedule succeeded.
    pub(super) fn reconcile_tasks(
        &mut self,
        b: usize,
        queue: &mut super::queue::Queue,
        out: &mut super::events::Enqueued,
    ) {
        let now = self.now;
        let timeout = self.settings.graceful_eviction_timeout;
        let resets = self.settings.version.resets_task_timeout();
        let Some(e) = self
            .entries
            .get(b)
            .filter(|e| !e.state.evictions.is_empty())
        else {
            return;
        };
        // `hasScheduled`: the scheduler observed the binding's generation, which it writes
        // only on success; a binding waiting in the queue or last failing has not.
        let scheduled = !queue.contains(b) && e.state.condition == super::entry::Condition::Success;
        let healthy = scheduled && all_healthy(e);
        let mut tasks = e.state.evictions.clone();
        let ended = assess(&mut tasks, healthy, timeout, resets, now);
        if tasks != e.state.evictions {
            if let Some(e) = self.entries.get_mut(b).map(alloc::rc::Rc::make_mut) {
                e.state.evictions = tasks;
            }
        }
        for (c, reason) in ended {
            if let Some(e) = self.entries.get(b) {
                self.journal.push(Moment::new(
                    now,
                    Happening::TaskEnded {
                        binding: e.id.clone(),
                        cluster: c.clone(),
                        reason,
                    },
                ));
            }
            self.waits.changed();
            let why = super::events::Why::SpecChanged {
                change: super::events::Change::EvictionEnded(c),
            };
            self.enqueue(b, why, queue, out);
        }
    }

    /// After the scheduler's passes: each binding it took was updated (its observed
    /// generation at least), which the graceful eviction controller sees (§33).
    pub fn scheduled(
        &mut self,
        taken: &[usize],
        queue: &mut super::queue::Queue,
    ) -> super::events::Enqueued {
        let mut out = super::events::Enqueued::default();
        for &b in taken {
            // With `assume_healthy`, each member reports the workload it was just given
            // Healthy: the report reconciles the tasks, and releases the assumption there.
            let placed: Vec<String> = match self.entries.get(b) {
                Some(e)
                    if self.settings.assume_healthy
                        && e.state.condition == super::entry::Condition::Success =>
                {
                    e.state
                        .clusters
                        .keys()
                        .filter(|c| {
                            e.state
                                .reported
                                .get(*c)
                                .is_none_or(|r| r.health != WorkloadHealth::Healthy)
                        })
                        .cloned()
                        .collect()
                }
                _ => Vec::new(),
            };
            if placed.is_empty() {
                self.reconcile_tasks(b, queue, &mut out);
            }
            for c in placed {
                if let Some(i) = self.cluster(&c) {
                    self.release(b, Some(i));
                }
                self.report(b, &c, WorkloadHealth::Healthy, queue, &mut out);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::String;
    use alloc::vec::Vec;

    use crate::karmada::fleet::app_failover::PurgeMode;
    use crate::karmada::fleet::entry::EvictionTask;
    use crate::karmada::fleet::events::Event;
    use crate::karmada::fleet::testing::*;
    use crate::karmada::fleet::Settings;
    use crate::karmada::Strategy;

    // buildTaskOptions, Directly: no grace period, no suppression; the task ends with the
    // controller's --graceful-eviction-timeout (or once the new placement is Healthy).
    #[test]
    fn directly_ends_with_the_timeout() {
        let f = three_with(
            divided(failover(PurgeMode::Directly, 0)),
            Settings::default(),
        );
        // tolerationSeconds 0: the first look records the time and asks no requeue; the next
        // look (here a second report) evicts.
        let once = fleet_after(&f, alloc::vec![unhealthy("b")]);
        assert_eq!(clusters(&once).get("b"), Some(&2));
        let f2 = fleet_after(&f, alloc::vec![unhealthy("b"), wait(1), unhealthy("b")]);
        let t = &tasks(&f2)[0];
        assert_eq!(t.purge_mode, PurgeMode::Directly);
        assert_eq!((t.grace_period_seconds, t.suppress_deletion), (None, None));
        let kept = fleet_after(&f2, alloc::vec![wait(599)]);
        assert_eq!(tasks(&kept).len(), 1);
        assert!(tasks(&fleet_after(&f2, alloc::vec![wait(600)])).is_empty());
    }

    // Gracefully: the task carries gracePeriodSeconds, which ends it rather than the
    // controller's timeout; every new cluster reporting Healthy ends it earlier
    // (assessSingleTask).
    #[test]
    fn gracefully_ends_at_its_grace_period_or_when_healthy() {
        let f = three_with(
            divided(failover(PurgeMode::Gracefully, 10)),
            Settings::default(),
        );
        let f2 = fleet_after(&f, alloc::vec![unhealthy("b"), wait(10)]);
        let t = &tasks(&f2)[0];
        assert_eq!(t.grace_period_seconds, Some(120));
        assert_eq!(tasks(&fleet_after(&f2, alloc::vec![wait(119)])).len(), 1);
        assert!(tasks(&fleet_after(&f2, alloc::vec![wait(120)])).is_empty());
        // Healthy reports from every cluster of the new placement end it at once.
        let new: Vec<String> = clusters(&f2).keys().cloned().collect();
        let mut events: Vec<Event> = new.iter().map(|c| healthy(c)).collect();
        let last = events.pop().unwrap();
        let partly = fleet_after(&f2, events.clone());
        assert_eq!(tasks(&partly).len(), 1, "{new:?}");
        events.push(last);
        assert!(tasks(&fleet_after(&f2, events)).is_empty());
    }

    // Never: suppressDeletion true; the task outlives any timeout and any Healthy report.
    #[test]
    fn never_keeps_the_task() {
        let f = three_with(divided(failover(PurgeMode::Never, 10)), Settings::default());
        let f2 = fleet_after(&f, alloc::vec![unhealthy("b"), wait(10)]);
        assert_eq!(tasks(&f2)[0].suppress_deletion, Some(true));
        let mut events: Vec<Event> = clusters(&f2).keys().map(|c| healthy(c)).collect();
        events.push(wait(100_000));
        let later = fleet_after(&f2, events);
        assert_eq!(tasks(&later).len(), 1);
        assert_eq!(clusters(&later).get("b"), None);
    }

    // assessEvictionTasks before 1.16.3: a task's gracePeriodSeconds stayed the timeout of the
    // tasks after it.
    #[test]
    fn before_1_16_3_a_grace_period_carries_over() {
        let run = |version: &str| {
            let mut e = entry("w", Strategy::StaticWeight, 2, &[("a", 2)]);
            let task = |c: &str, grace| EvictionTask {
                from_cluster: c.into(),
                created_at: 0,
                grace_period_seconds: grace,
                ..EvictionTask::default()
            };
            e.state.evictions = alloc::vec![task("b", Some(30)), task("c", None)];
            let settings = Settings {
                version: crate::karmada::version::Version::parse(version).unwrap(),
                ..Settings::default()
            };
            let f = three_with(e, settings);
            tasks(&fleet_after(&f, alloc::vec![wait(30)]))
                .into_iter()
                .map(|t| t.from_cluster)
                .collect::<Vec<_>>()
        };
        assert_eq!(run("1.16.2"), Vec::<String>::new());
        assert_eq!(run("1.16.3"), ["c"]);
    }
}
