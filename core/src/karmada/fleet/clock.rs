//! What time passing does by itself (docs/rules/fleet.md §22.1, §29.3): the scheduler's queue
//! tries failed bindings again (a binding that failed with UnschedulableError after it has
//! waited more than five minutes in the unschedulable set, any other failure after its
//! backoff, which doubles with each attempt up to 10 s), and an assumption of
//! SchedulingOvercommitProtection ends after its time to live or once the member reports the
//! workload Healthy. The plan runs the scheduler whenever a retry whose inputs changed is due
//! ([`Waits::next_due`]) and whenever an eviction is due or a graceful eviction task ends
//! (§25: the taint manager's and the graceful eviction controller's own timers); a retry that would read what its binding's last pass read is passed
//! over ([`Waiting::skip_to`]).

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::entry::Condition;
use super::Fleet;

/// `DefaultBindingMaxInUnschedulableBindingsDuration`
/// (pkg/scheduler/internal/queue/scheduling_queue.go), seconds.
pub const UNSCHEDULABLE_MAX: i64 = 300;
/// `DefaultBindingInitialBackoffDuration`: the first backoff, seconds.
pub const BACKOFF_INITIAL: i64 = 1;
/// `DefaultBindingMaxBackoffDuration`: the longest backoff, seconds.
pub const BACKOFF_MAX: i64 = 10;
/// The time to live of an assumption (the scheduler's default `assumptionTTL`), seconds.
pub const ASSUMPTION_TTL: i64 = 300;
/// The most times the scheduler runs within one `Advance` (each time a retry is due whose
/// inputs changed since it failed): a bound on the timeline, never reached by the fleets the
/// plan is for (each binding succeeds or goes stale within a few runs).
pub const MAX_RUNS: usize = 10_000;

/// A duration as Go's `time.ParseDuration` writes whole seconds and more (`90s`, `5m`,
/// `1h30m`, `0`), or a bare number of seconds, in seconds; `None` for anything else (a
/// negative one, a unit below seconds, a fraction).
pub fn parse_duration(text: &str) -> Option<i64> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if text == "0" {
        return Some(0);
    }
    if let Ok(n) = text.parse::<i64>() {
        return (n >= 0).then_some(n);
    }
    let mut total: i64 = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit())?;
        let n: i64 = rest.get(..digits)?.parse().ok()?;
        rest = rest.get(digits..)?;
        let unit = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let scale = match rest.get(..unit)? {
            "h" => 3600,
            "m" => 60,
            "s" => 1,
            _ => return None,
        };
        total = total.checked_add(n.checked_mul(scale)?)?;
        rest = rest.get(unit..)?;
    }
    Some(total)
}

/// Where a failed binding waits (`handleErr`, pkg/scheduler/scheduler.go).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
}

/// `calculateBackoffDuration`: no backoff before any attempt, then `initial` doubled with each
/// attempt after the first, at most `max`.
pub fn backoff(attempts: u32, initial: i64, max: i64) -> i64 {
    if attempts == 0 {
        return 0;
    }
    let mut d = initial;
    for _ in 1..attempts {
        if d > max.saturating_sub(d) {
            return max;
        }
        d += d;
    }
    d
}

/// A failed binding waiting to be tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waiting {
    /// When its last pass failed (its queue entry's `Timestamp`).
    pub since: i64,
    pub wait: Wait,
    /// Its queue entry's `Attempts`: passes since an event last pushed it.
    pub attempts: u32,
    /// The fleet's [`Waits::generation`] after that pass: while it stays so, nothing the pass
    /// read has changed, and a retry fails the same way.
    pub generation: u64,
}

impl Waiting {
    /// When it is tried again: the priority queue's flushes (`flushBackoffQCompleted`, every
    /// second, once its backoff ended: [`backoff`] of its attempts;
    /// `flushUnschedulableBindingsLeftover` once it waited more than [`UNSCHEDULABLE_MAX`]);
    /// the work queue without PriorityBasedScheduling retries every failure with its rate
    /// limiter (`legacyHandleErr`), the first time within milliseconds: the next second.
    pub fn due(&self, by_priority: bool) -> i64 {
        let after = match (by_priority, self.wait) {
            (false, _) => 1,
            (true, Wait::Unschedulable) => UNSCHEDULABLE_MAX + 1,
            (true, Wait::Backoff) => backoff(self.attempts, BACKOFF_INITIAL, BACKOFF_MAX),
        };
        self.since.saturating_add(after.max(1))
    }

    /// Its retries due by `now` passed over, each failing as the last did (its inputs did not
    /// change): when the last of them failed and how many attempts it has made then. Step by
    /// step while the backoff grows, then in one jump of whole periods.
    pub fn skip_to(&mut self, now: i64, by_priority: bool) {
        loop {
            let due = self.due(by_priority);
            if due > now {
                return;
            }
            let period = due - self.since;
            let next = Waiting {
                since: due,
                attempts: self.attempts.saturating_add(1),
                ..*self
            };
            if next.due(by_priority) - due == period {
                let more = (now - due) / period;
                self.since = due.saturating_add(more.saturating_mul(period));
                let more = u32::try_from(more).unwrap_or(u32::MAX);
                self.attempts = next.attempts.saturating_add(more);
                return;
            }
            *self = next;
        }
    }
}

/// The queue's failed bindings (the unschedulable set and the backoff queue), each queue
/// entry's attempts, and a count of the changes to what a pass reads.
#[derive(Debug, Clone, Default)]
pub struct Waits {
    pub waiting: BTreeMap<usize, Waiting>,
    /// The attempts of the failed bindings back in the queue, by binding.
    attempts: BTreeMap<usize, u32>,
    /// Bumped by every change a pass could read: an event, a pass that wrote other clusters,
    /// an assumption or eviction ending.
    pub generation: u64,
}

impl Waits {
    /// Something a pass reads changed.
    pub fn changed(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The queue's note of a pass over binding `b` at `now` (`Pop` counts an attempt, on the
    /// entry an event pushed afresh when `fresh`; then `handleErr`): a failure waits to be
    /// retried where [`Wait::after`] puts it; any other answer ends a wait and forgets the
    /// entry. `changed`: the pass wrote other clusters.
    pub fn note(
        &mut self,
        b: usize,
        fresh: bool,
        failure: Option<&Condition>,
        changed: bool,
        now: i64,
    ) {
        if changed {
            self.changed();
        }
        let attempts = if fresh {
            1
        } else {
            self.attempts
                .get(&b)
                .copied()
                .unwrap_or(0)
                .saturating_add(1)
        };
        self.attempts.remove(&b);
        match failure.map(Wait::after) {
            Some(wait) => {
                let generation = self.generation;
                self.waiting.insert(
                    b,
                    Waiting {
                        since: now,
                        wait,
                        attempts,
                        generation,
                    },
                );
            }
            None => {
                self.waiting.remove(&b);
            }
        }
    }

    /// When the first retry is due, after `now` and by `end`, whose binding's inputs changed
    /// since it failed.
    pub fn next_due(&self, now: i64, end: i64, by_priority: bool) -> Option<i64> {
        self.waiting
            .values()
            .filter(|w| w.generation != self.generation)
            .map(|w| w.due(by_priority).max(now))
            .filter(|&t| t <= end)
            .min()
    }
}

impl Fleet {
    /// The failed bindings due to be tried again at the fleet's clock, in the order the flush
    /// pushes them (the queue orders them again by priority); each leaves the waiting sets. A
    /// binding whose inputs did not change since it failed would fail the same way: its
    /// retries due by now are passed over ([`Waiting::skip_to`]) and it keeps waiting.
    pub(super) fn due_retries(&mut self) -> Vec<(usize, Wait)> {
        let by_priority = self.settings.by_priority();
        let now = self.now;
        let waits = &mut self.waits;
        let generation = waits.generation;
        let mut due = Vec::new();
        for (&b, w) in waits.waiting.iter_mut() {
            if w.due(by_priority) > now {
                continue;
            }
            if w.generation == generation {
                w.skip_to(now, by_priority);
            } else {
                due.push((b, w.wait));
            }
        }
        for (b, _) in &due {
            if let Some(w) = waits.waiting.remove(b) {
                waits.attempts.insert(*b, w.attempts);
            }
        }
        due
    }

    /// When the scheduler next runs within an advance to `end`: the first retry due whose
    /// inputs changed, the first assumption to end (which frees capacity), or the first
    /// eviction or graceful eviction task's end ([`Fleet::next_timed`], §25); `None`: not
    /// before `end`.
    pub(super) fn next_run(&self, end: i64) -> Option<i64> {
        let now = self.now;
        let retry = self.waits.next_due(now, end, self.settings.by_priority());
        let expiry = self
            .assumed_at
            .values()
            .map(|&at| at.saturating_add(ASSUMPTION_TTL + 1).max(now))
            .min();
        retry
            .into_iter()
            .chain(expiry)
            .chain(self.next_timed())
            .filter(|&t| t < end)
            .min()
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
        if released {
            self.waits.changed();
        }
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
    use alloc::string::String;
    use proptest::prelude::*;

    use alloc::boxed::Box;
    use alloc::vec::Vec;

    use crate::estimate::general::ResourceSummary;
    use crate::karmada::fleet::entry::Condition;
    use crate::karmada::fleet::events::{Event, Why, WhyNot};
    use crate::karmada::fleet::plan::{plan, Outcome};
    use crate::karmada::fleet::testing::*;
    use crate::karmada::fleet::{Fleet, Settings};
    use crate::karmada::gates::Gate;
    use crate::karmada::Strategy;
    use crate::resource::ResourceList;

    // Durations as Karmada's flags write them.
    #[test]
    fn durations_read_as_seconds() {
        assert_eq!(parse_duration("90s"), Some(90));
        assert_eq!(parse_duration("5m"), Some(300));
        assert_eq!(parse_duration("1h30m"), Some(5400));
        assert_eq!(parse_duration("10m0s"), Some(600));
        assert_eq!(parse_duration("300"), Some(300));
        assert_eq!(parse_duration("0"), Some(0));
        for wrong in ["", "5x", "-5m", "1.5h", "m", "500ms"] {
            assert_eq!(parse_duration(wrong), None, "{wrong}");
        }
    }

    // TestBackoffQueue_calculateBackoffDuration
    // (pkg/scheduler/internal/queue/scheduling_queue_test.go): no backoff before an attempt,
    // doubling from the initial one, the maximum reached without overflowing.
    #[test]
    fn backoff_doubles_to_its_maximum() {
        assert_eq!(backoff(0, 1, 32), 0);
        assert_eq!(backoff(3, 1, 32), 4);
        assert_eq!(backoff(16, 1, 32), 32);
        assert_eq!(backoff(32, 1, i64::from(i32::MAX)), i64::from(i32::MAX));
        assert_eq!(backoff(64, 1, i64::MAX), i64::MAX);
        // TestBackoffQueue_getBackoffTime: the fourth attempt waits 1 s * 2^3.
        let w = Waiting {
            since: 0,
            wait: Wait::Backoff,
            attempts: 4,
            generation: 0,
        };
        assert_eq!(w.due(true), 8);
        let steps: Vec<i64> = (1..=6)
            .map(|a| backoff(a, BACKOFF_INITIAL, BACKOFF_MAX))
            .collect();
        assert_eq!(steps, [1, 2, 4, 8, 10, 10]);
    }

    // handleErr: an UnschedulableError waits more than five minutes (flushed by
    // flushUnschedulableBindingsLeftover); any other failure its backoff; the legacy work
    // queue retries at once (the next second).
    #[test]
    fn failures_wait_as_the_queue_keeps_them() {
        let u = Wait::after(&Condition::Unschedulable(String::new()));
        assert_eq!(u, Wait::Unschedulable);
        let f = Wait::after(&Condition::NoClusterFit(String::new()));
        assert_eq!(f, Wait::Backoff);
        let at = |wait, attempts| Waiting {
            since: 100,
            wait,
            attempts,
            generation: 0,
        };
        assert_eq!(at(u, 1).due(true), 401);
        assert_eq!(at(f, 1).due(true), 101);
        assert_eq!(at(f, 3).due(true), 104);
        assert_eq!(at(u, 1).due(false), 101);
        assert_eq!(at(f, 7).due(false), 101);
    }

    /// The retries due by `now`, one at a time: what [`Waiting::skip_to`] jumps over.
    fn stepped(mut w: Waiting, now: i64, by_priority: bool) -> Waiting {
        while w.due(by_priority) <= now {
            w = Waiting {
                since: w.due(by_priority),
                attempts: w.attempts + 1,
                ..w
            };
        }
        w
    }

    proptest! {
        // Passing over the retries in whole periods lands where stepping through them does.
        #[test]
        fn skipping_retries_is_stepping_through_them(
            since in 0i64..1000,
            attempts in 1u32..8,
            unschedulable in any::<bool>(),
            by_priority in any::<bool>(),
            later in 0i64..5000,
        ) {
            let wait = if unschedulable { Wait::Unschedulable } else { Wait::Backoff };
            let w = Waiting { since, wait, attempts, generation: 0 };
            let mut skipped = w;
            skipped.skip_to(since + later, by_priority);
            prop_assert_eq!(skipped, stepped(w, since + later, by_priority));
            prop_assert!(skipped.due(by_priority) > since + later);
        }
    }

    // A binding that failed with UnschedulableError waits in the unschedulable set
    // (`PushUnschedulableIfNotPresent`, `handleErr`); `flushUnschedulableBindingsLeftover`
    // (pkg/scheduler/internal/queue/scheduling_queue.go) moves it back once it has waited more
    // than five minutes, and it is scheduled against the capacity then (the queue of gate
    // PriorityBasedScheduling).
    #[test]
    fn an_unschedulable_binding_is_retried_after_five_minutes() {
        let mut f = two(Vec::new());
        f.settings
            .feature_gates
            .set(Gate::PriorityBasedScheduling, true);
        let big = entry("big", Strategy::Aggregated, 30, &[]);
        let grow = |cluster: &str| Event::Capacity {
            cluster: cluster.into(),
            summary: Box::new(ResourceSummary {
                allocatable: ResourceList::from_units([("cpu", 20_000), ("pods", 110)]),
                ..ResourceSummary::default()
            }),
        };
        let p = run(
            &f,
            alloc::vec![
                Event::Create {
                    entry: Box::new(big.clone())
                },
                Event::Advance { seconds: 0 },
                grow("a"),
                grow("b"),
                Event::Advance { seconds: 300 },
            ],
        );
        // The message names the binding's own field.
        assert!(matches!(
            outcome(&p, "big"),
            Outcome::Unschedulable {
                condition: Condition::Unschedulable(m)
            } if m.starts_with("replicas: unschedulable: 30 replicas requested")
        ));
        assert!(
            enqueued(&p, 4).is_empty(),
            "300 s is not more than five minutes"
        );
        let p = run(
            &f,
            alloc::vec![
                Event::Create {
                    entry: Box::new(big)
                },
                Event::Advance { seconds: 0 },
                grow("a"),
                grow("b"),
                Event::Advance { seconds: 301 },
            ],
        );
        assert_eq!(
            enqueued(&p, 4),
            [(
                id("big"),
                Why::Retried {
                    waited: Wait::Unschedulable
                }
            )]
        );
        assert_eq!(after(&p, "big").iter().map(|(_, n)| n).sum::<i64>(), 30);
    }

    // handleErr puts a FitError in the backoff queue; flushBackoffQCompleted
    // (pkg/scheduler/internal/queue/scheduling_queue.go) moves it back once its backoff, 1 s doubled
    // with each attempt up to 10 s (calculateBackoffDuration), has run: retries at 1, 3, 7, 15,
    // 25 s... A retry that reads what the failed pass read fails the same way, so while nothing
    // changes none is run: the binding keeps waiting with the attempts it would have made; an
    // event pushes it afresh, and its attempts start again.
    #[test]
    fn a_backoff_retry_runs_only_once_its_inputs_changed() {
        let f = two(Vec::new());
        let mut settings = f.settings.clone();
        settings
            .feature_gates
            .set(Gate::PriorityBasedScheduling, true);
        let f = Fleet { settings, ..f };
        let down = |c: &str| Event::ClusterDown { cluster: c.into() };
        let create = Event::Create {
            entry: Box::new(entry("w", Strategy::Aggregated, 2, &[])),
        };
        let (p, g) = plan(
            &f,
            alloc::vec![
                down("a"),
                down("b"),
                create,
                Event::Advance { seconds: 0 },
                Event::Advance { seconds: 30 },
            ],
        )
        .unwrap();
        assert!(matches!(
            outcome(&p, "w"),
            Outcome::Unschedulable {
                condition: Condition::NoClusterFit(_)
            }
        ));
        assert!(enqueued(&p, 4).is_empty(), "nothing changed: no retry runs");
        let b = g.binding(&id("w")).unwrap();
        let w = g.waits.waiting.get(&b).copied().unwrap();
        assert_eq!(
            (w.since, w.attempts),
            (25, 6),
            "retries at 1, 3, 7, 15 and 25 s passed over"
        );
        // An event pushes it afresh: a cluster back (its taint removed, a spec change) enqueues
        // it at once, and it is placed; it waits no more.
        let up = Event::ClusterUp {
            cluster: "a".into(),
        };
        let (p, g) = plan(&g, alloc::vec![up]).unwrap();
        assert_eq!(
            enqueued(&p, 0),
            [(
                id("w"),
                Why::ClusterChanged {
                    cluster: "a".into()
                }
            )]
        );
        assert_eq!(after(&p, "w"), placed(&[("a", 2)]));
        assert!(g.waits.waiting.is_empty());
    }

    // The timeline within one advance: an assumption's end at 301 s frees capacity; the binding
    // that failed for want of it at 0 s is due then too (more than five minutes in the
    // unschedulable set), runs at 301 s and is assumed then, so its own assumption ends at 602 s,
    // not at the end of the advance.
    #[test]
    fn an_advance_runs_the_scheduler_when_a_retry_is_due() {
        let mut settings = Settings::default();
        settings
            .feature_gates
            .set(Gate::SchedulingOvercommitProtection, true);
        let f = fleet(alloc::vec![member("a", 10)], Vec::new(), settings);
        let create = |n: &str| Event::Create {
            entry: Box::new(entry(n, Strategy::Aggregated, 6, &[])),
        };
        let (p, g) = plan(
            &f,
            alloc::vec![
                create("w1"),
                create("w2"),
                Event::Advance { seconds: 0 },
                Event::Advance { seconds: 500 },
            ],
        )
        .unwrap();
        assert_eq!(after(&p, "w2"), placed(&[("a", 6)]));
        let w2 = g.binding(&id("w2")).unwrap();
        assert_eq!(g.assumed_at.get(&w2), Some(&301));
        assert_eq!(g.now, 500);
    }

    // SchedulingOvercommitProtection's assumption ends once the member reports the workload
    // Healthy on that cluster (`releaseHealthyClusterAssumptions`, pkg/scheduler/event_handler.go,
    // 1.18.2 on) or after its time to live (`DefaultAssumptionTTL`, `GetAssumedWorkloads`):
    // the next binding reads the summary alone there again.
    #[test]
    fn an_assumption_ends_when_healthy_or_after_five_minutes() {
        let mut settings = Settings::default();
        settings
            .feature_gates
            .set(Gate::SchedulingOvercommitProtection, true);
        let f = fleet(alloc::vec![member("a", 10)], Vec::new(), settings);
        let create = |n: &str| Event::Create {
            entry: Box::new(entry(n, Strategy::Aggregated, 6, &[])),
        };
        // Without a release the second does not fit beside the first's assumption.
        let p = run(
            &f,
            alloc::vec![create("w1"), Event::Advance { seconds: 1 }, create("w2")],
        );
        assert!(matches!(outcome(&p, "w2"), Outcome::Unschedulable { .. }));
        let healthy = Event::Healthy {
            binding: id("w1"),
            cluster: "a".into(),
        };
        let (p, after_fleet) = plan(
            &f,
            alloc::vec![
                create("w1"),
                Event::Advance { seconds: 1 },
                healthy,
                create("w2")
            ],
        )
        .unwrap();
        assert_eq!(after(&p, "w2"), placed(&[("a", 6)]));
        assert!(matches!(left(&p, 2)[0].1, WhyNot::StatusOnly { .. }));
        assert_eq!(after_fleet.assumptions()[0].len(), 1, "only w2's");
        let p = run(
            &f,
            alloc::vec![create("w1"), Event::Advance { seconds: 301 }, create("w2")],
        );
        assert_eq!(after(&p, "w2"), placed(&[("a", 6)]));
    }

    proptest! {
        // Time passing is a loop of runs of the scheduler, each when a retry whose inputs
        // changed is due (§22.1): however long the time and however the fleet fails, it ends,
        // each run taking each binding at most once, and the runs within one advance no more
        // than the changes they can make (each binding succeeds, is emptied by a FitError and
        // has an assumption end at most once), plus one.
        #[test]
        fn time_passing_never_loops(
            cpus in proptest::collection::vec(0u64..6, 1..4),
            specs in proptest::collection::vec((strategy(), 1i64..12), 1..8),
            seed in 0u64..1000,
            protect in any::<bool>(),
            priority in any::<bool>(),
            events in proptest::collection::vec(event(3, 8), 0..5),
            long in 0i64..10_000_000,
        ) {
            let (mut f, mut all) = generated(&cpus, &specs, seed, protect, events);
            f.settings.feature_gates.set(Gate::PriorityBasedScheduling, priority);
            all.push(Event::Advance { seconds: long });
            let Ok((p, _)) = plan(&f, all) else {
                return Ok(());
            };
            let n = specs.len();
            for step in &p.steps {
                prop_assert!(step.passes.len() <= n * (3 * n + 2), "{}", step.passes.len());
            }
        }
    }
}
