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
