//! The scheduler's queue (docs/rules/fleet.md §22): one worker takes bindings one at a time.
//! With PriorityBasedScheduling (`Settings::priority_queue`) the active queue is ordered by
//! priority (higher first), then by the time of the push (`Less`,
//! pkg/scheduler/internal/queue/types.go); without it, a FIFO work queue. A key already waiting
//! is not added again, and keeps the priority it was pushed with.

use alloc::collections::{BTreeMap, BTreeSet};

/// Bindings waiting to be scheduled, by their index in the fleet.
#[derive(Debug, Clone, Default)]
pub struct Queue {
    /// (−priority, push order) -> binding; FIFO: priority 0 for every key.
    order: BTreeMap<(i64, u64), usize>,
    waiting: BTreeSet<usize>,
    /// The bindings whose entry an event pushed afresh (its attempts start again), not a
    /// retry's flush (which moves the entry with its attempts).
    fresh: BTreeSet<usize>,
    pushes: u64,
    by_priority: bool,
}

impl Queue {
    pub fn new(by_priority: bool) -> Self {
        Queue {
            by_priority,
            ..Queue::default()
        }
    }

    /// Push `binding` with `priority`: ignored when it already waits (§22 rule 2).
    /// Answers whether it was added.
    pub fn push(&mut self, binding: usize, priority: i32) -> bool {
        self.add(binding, priority, true)
    }

    /// Push a failed binding whose wait is over (`moveToActiveQ` of its entry, attempts kept).
    pub fn push_retry(&mut self, binding: usize, priority: i32) -> bool {
        self.add(binding, priority, false)
    }

    /// Whether the entry of `binding` (taken last) was pushed afresh by an event.
    pub fn fresh(&self, binding: usize) -> bool {
        self.fresh.contains(&binding)
    }

    fn add(&mut self, binding: usize, priority: i32, fresh: bool) -> bool {
        if !self.waiting.insert(binding) {
            return false;
        }
        if fresh {
            self.fresh.insert(binding);
        } else {
            self.fresh.remove(&binding);
        }
        let p = if self.by_priority {
            -i64::from(priority)
        } else {
            0
        };
        self.order.insert((p, self.pushes), binding);
        self.pushes += 1;
        true
    }

    /// The next binding to schedule.
    pub fn pop(&mut self) -> Option<usize> {
        let (_, b) = self.order.pop_first()?;
        self.waiting.remove(&b);
        Some(b)
    }

    /// Whether `binding` waits to be taken.
    pub fn contains(&self, binding: usize) -> bool {
        self.waiting.contains(&binding)
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use alloc::boxed::Box;
    use alloc::vec::Vec;

    use crate::karmada::fleet::events::Event;
    use crate::karmada::fleet::plan::Outcome;
    use crate::karmada::fleet::testing::*;
    use crate::karmada::fleet::Settings;
    use crate::karmada::gates::Gate;
    use crate::karmada::Strategy;

    // activeQ's Less (pkg/scheduler/internal/queue/types.go): priority, then push time.
    #[test]
    fn priority_then_push_order() {
        let mut q = Queue::new(true);
        q.push(0, 0);
        q.push(1, 10);
        q.push(2, 0);
        q.push(3, 10);
        let order: alloc::vec::Vec<usize> = core::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, [1, 3, 0, 2]);
    }

    // The FIFO work queue ignores priority; a waiting key is not added twice.
    #[test]
    fn fifo_without_the_gate_and_no_duplicates() {
        let mut q = Queue::new(false);
        assert!(q.push(0, 0));
        assert!(q.push(1, 10));
        assert!(!q.push(0, 99));
        assert_eq!(q.len(), 2);
        assert_eq!(q.pop(), Some(0));
        assert_eq!(q.pop(), Some(1));
        assert!(q.is_empty());
    }

    // The active queue's `Less`: a higher priority is scheduled first, and so takes the capacity
    // first under SchedulingOvercommitProtection.
    #[test]
    fn priority_orders_a_burst() {
        let mut settings = Settings::default();
        settings
            .feature_gates
            .set(Gate::SchedulingOvercommitProtection, true);
        settings
            .feature_gates
            .set(Gate::PriorityBasedScheduling, true);
        let f = fleet(alloc::vec![member("a", 6)], Vec::new(), settings);
        let mut high = entry("high", Strategy::Aggregated, 6, &[]);
        high.priority = 100;
        let events = alloc::vec![
            Event::Create {
                entry: Box::new(entry("low", Strategy::Aggregated, 6, &[]))
            },
            Event::Create {
                entry: Box::new(high)
            },
        ];
        let p = run(&f, events);
        assert_eq!(passes(&p, 1)[0].0, "high");
        assert_eq!(after(&p, "high"), placed(&[("a", 6)]));
        assert!(matches!(outcome(&p, "low"), Outcome::Unschedulable { .. }));
    }
}
