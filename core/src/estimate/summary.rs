//! A cluster's resource summary as the general estimator reads it (docs/rules/karmada.md §6):
//! the resources a scheduler reads most (`cpu`, `memory`, `pods`, `ephemeral-storage`) as
//! fixed-width numbers side by side, any other resource in a short list beside them, and the
//! grade counts. Compiled once per cluster set ([`crate::karmada::cluster::Clusters`]), it
//! answers `(allocatable, allocated, allocating)` of a resource without searching three lists
//! of names, and without leaving the cluster's few cache lines (a set of 10,000 clusters read
//! its summaries' scattered lists more slowly than it did everything else).

use alloc::vec::Vec;

use super::general::ResourceSummary;
use super::models::AllocatableModeling;
use crate::Name;

/// The resources held as fixed-width numbers, in slot order.
const FIXED: [&str; 4] = ["cpu", "memory", "pods", "ephemeral-storage"];

/// `(allocatable, allocated, allocating)`.
type Amounts = [u64; 3];

/// A resource summary, compiled.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Summary {
    /// Per resource of [`FIXED`]: its amounts.
    fixed: [Amounts; FIXED.len()],
    /// Bit `r`: `allocatable` lists `FIXED[r]` (even with 0).
    listed: u8,
    /// Every other resource of the three lists: its amounts, and whether `allocatable` lists it.
    others: Vec<(Name, Amounts, bool)>,
    /// Nodes per grade of the cluster's resource models.
    pub allocatable_modelings: Vec<AllocatableModeling>,
}

/// The slot of `r` in [`FIXED`] (matched by length first, as `match` does).
fn slot(r: &str) -> Option<usize> {
    match r {
        "cpu" => Some(0),
        "memory" => Some(1),
        "pods" => Some(2),
        "ephemeral-storage" => Some(3),
        _ => None,
    }
}

impl Summary {
    pub fn of(s: &ResourceSummary) -> Self {
        let mut out = Summary {
            allocatable_modelings: s.allocatable_modelings.clone(),
            ..Summary::default()
        };
        let lists = [&s.allocatable, &s.allocated, &s.allocating];
        for (k, list) in lists.into_iter().enumerate() {
            for (name, amount) in list.iter() {
                let amounts = match slot(name) {
                    Some(r) => {
                        if k == 0 {
                            out.listed |= 1 << r;
                        }
                        out.fixed.get_mut(r)
                    }
                    None => {
                        let at = match out.others.iter().position(|(n, _, _)| n == name) {
                            Some(at) => at,
                            None => {
                                out.others.push((name.into(), [0; 3], false));
                                out.others.len() - 1
                            }
                        };
                        out.others.get_mut(at).map(|(_, amounts, listed)| {
                            *listed |= k == 0;
                            amounts
                        })
                    }
                };
                if let Some(slot) = amounts.and_then(|a| a.get_mut(k)) {
                    *slot = amount;
                }
            }
        }
        out
    }

    /// `(allocatable, allocated, allocating)` of `r` as the summary states them (0 when not
    /// listed).
    pub fn amounts(&self, r: &str) -> (u64, u64, u64) {
        let found = match slot(r) {
            Some(i) => self.fixed.get(i),
            None => self
                .others
                .iter()
                .find(|(n, _, _)| n == r)
                .map(|(_, amounts, _)| amounts),
        };
        let [a, b, c] = found.copied().unwrap_or_default();
        (a, b, c)
    }

    /// Whether `allocatable` lists `r` (even with 0).
    pub fn has(&self, r: &str) -> bool {
        match slot(r) {
            Some(i) => self.listed & (1 << i) != 0,
            None => self.others.iter().any(|(n, _, listed)| n == r && *listed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::ResourceList;
    use proptest::prelude::*;

    fn list() -> impl Strategy<Value = ResourceList> {
        proptest::collection::vec(
            (
                prop_oneof![
                    Just("cpu"),
                    Just("memory"),
                    Just("pods"),
                    Just("ephemeral-storage"),
                    Just("nvidia.com/gpu"),
                    Just("hugepages-2Mi"),
                ],
                0u64..5,
            ),
            0..6,
        )
        .prop_map(ResourceList::from_units)
    }

    #[test]
    fn slots_follow_the_fixed_list() {
        for (i, r) in FIXED.iter().enumerate() {
            assert_eq!(slot(r), Some(i));
        }
        assert_eq!(slot("nvidia.com/gpu"), None);
    }

    proptest! {
        /// The compiled summary answers as the summary's lists do, for every resource.
        #[test]
        fn answers_as_the_lists(a in list(), b in list(), c in list()) {
            let s = ResourceSummary {
                allocatable: a,
                allocated: b,
                allocating: c,
                ..ResourceSummary::default()
            };
            let compiled = Summary::of(&s);
            for r in FIXED.iter().chain(&["nvidia.com/gpu", "hugepages-2Mi", "other"]) {
                prop_assert_eq!(
                    compiled.amounts(r),
                    (s.allocatable.get(r), s.allocated.get(r), s.allocating.get(r))
                );
                prop_assert_eq!(compiled.has(r), s.allocatable.has(r));
            }
        }
    }
}
