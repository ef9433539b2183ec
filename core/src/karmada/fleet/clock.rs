//! What time passing does by itself (docs/rules/fleet.md §22.1, §29.3): the scheduler's queue
//! tries failed bindings again (a binding that failed with UnschedulableError after it has
//! waited more than five minutes in the unschedulable set, any other failure after its
//! backoff), and an assumption of SchedulingOvercommitProtection ends after its time to live
//! or once the member reports the workload Healthy.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use serde::Serialize;

use super::entry::Condition;
use super::Fleet;

/// `DefaultBindingMaxInUnschedulableBindingsDuration`
/// (pkg/scheduler/internal/queue/scheduling_queue.go), seconds.
pub const UNSCHEDULABLE_MAX: i64 = 300;
/// `DefaultBindingMaxBackoffDuration`: the longest backoff, seconds.
pub const BACKOFF_MAX: i64 = 10;
/// The time to live of an assumption (the scheduler's default `assumptionTTL`), seconds.
pub const ASSUMPTION_TTL: i64 = 300;

/// Where a failed binding waits (`handleErr`, pkg/scheduler/scheduler.go).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Wait {
    /// UnschedulableError: the unschedulable set (`PushUnschedulableIfNotPresent`).
    Unschedulable,
    /// Any other failure (a FitError too): the backoff queue (`PushBackoffIfNotPresent`).
    Backoff,
}

impl Wait {
    /// Where a pass that failed with `condition` waits.
    pub fn after(condition: &Condition) -> Wait {
        match condition {
            Condition::Unschedulable(_) => Wait::Unschedulable,
            _ => Wait::Backoff,
        }
    }

    /// Whether a binding that has waited `waited` seconds is tried again: the priority
    /// queue's flushes (`flushUnschedulableBindingsLeftover`, every 30 s, moves those that
    /// waited more than [`UNSCHEDULABLE_MAX`]; `flushBackoffQCompleted`, every second, those
    /// whose backoff ended, at most [`BACKOFF_MAX`]); the work queue without
    /// PriorityBasedScheduling retries every failure with its rate limiter
    /// (`legacyHandleErr`), the first time within milliseconds.
    pub fn due(self, waited: i64, by_priority: bool) -> bool {
        if !by_priority {
            return waited > 0;
        }
        match self {
            Wait::Unschedulable => waited > UNSCHEDULABLE_MAX,
            Wait::Backoff => waited >= BACKOFF_MAX,
        }
    }
}

/// The queue's note of a pass over binding `b` at `now` (`handleErr`): a failure waits to be
/// retried where [`Wait::after`] puts it; any other answer ends a wait.
pub(super) fn note(
    waiting: &mut BTreeMap<usize, (i64, Wait)>,
    b: usize,
    failure: Option<&Condition>,
    now: i64,
) {
    match failure.map(Wait::after) {
        Some(wait) => {
            waiting.insert(b, (now, wait));
        }
        None => {
            waiting.remove(&b);
        }
    }
}

impl Fleet {
    /// The failed bindings due to be tried again at the fleet's clock, in the order the flush
    /// pushes them (the queue orders them again by priority); each leaves the waiting sets.
    pub(super) fn due_retries(&mut self) -> Vec<(usize, Wait)> {
        let by_priority = self.settings.by_priority();
        let now = self.now;
        let due: Vec<(usize, Wait)> = self
            .waiting
            .iter()
            .filter(|(_, &(since, wait))| wait.due(now.saturating_sub(since), by_priority))
            .map(|(&b, &(_, wait))| (b, wait))
            .collect();
        for (b, _) in &due {
            self.waiting.remove(b);
        }
        due
    }

    /// Assumptions older than [`ASSUMPTION_TTL`] end (`GetAssumedWorkloads` skips an expired
    /// one, `GC` removes it: pkg/scheduler/cache/cache.go).
    pub(super) fn expire_assumptions(&mut self) {
        let now = self.now;
        let expired: Vec<usize> = self
            .assumed_at
            .iter()
            .filter(|(_, &at)| now.saturating_sub(at) > ASSUMPTION_TTL)
            .map(|(&b, _)| b)
            .collect();
        for b in expired {
            self.assumed_at.remove(&b);
            self.release(b, None);
        }
    }

    /// Release binding `b`'s assumption on the cluster at `cluster`, or on every cluster
    /// (`ReleaseClusterAssumption`, `ReleaseAssumption`). Answers whether one was released.
    pub(super) fn release(&mut self, b: usize, cluster: Option<usize>) -> bool {
        let mut touched = Vec::new();
        for (i, a) in self.assumed.iter_mut().enumerate() {
            if cluster.is_none_or(|c| c == i) && a.remove(&b).is_some() {
                touched.push(i);
            }
        }
        if !self.assumed.iter().any(|a| a.contains_key(&b)) {
            self.assumed_at.remove(&b);
        }
        let released = !touched.is_empty();
        self.write_back(touched);
        released
    }

    /// The workloads assumed on each cluster, by binding (a view for reports and tests).
    pub fn assumptions(&self) -> &[BTreeMap<usize, crate::estimate::AssumedWorkload>] {
        &self.assumed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // handleErr: an UnschedulableError waits more than five minutes (flushed by
    // flushUnschedulableBindingsLeftover); any other failure its backoff, at most 10 s; the
    // legacy work queue retries at once.
    #[test]
    fn failures_wait_as_the_queue_keeps_them() {
        let u = Wait::after(&Condition::Unschedulable(String::new()));
        assert_eq!(u, Wait::Unschedulable);
        assert!(!u.due(300, true));
        assert!(u.due(301, true));
        let f = Wait::after(&Condition::NoClusterFit(String::new()));
        assert_eq!(f, Wait::Backoff);
        assert!(!f.due(9, true));
        assert!(f.due(10, true));
        assert!(u.due(1, false));
        assert!(!u.due(0, false));
    }

    use alloc::string::String;
}
