//! What the scheduler's write of a result changes (docs/rules/fleet.md §23.4), as
//! `patchScheduleResultForResourceBinding` (pkg/scheduler/scheduler.go) writes it: the
//! binding with its new `spec.clusters` (the whole list, in the result's order) and its
//! applied-placement annotation, as a merge patch against the binding as it was. An empty
//! patch is no write; a patch that changes the spec is a new generation, which the
//! scheduler's own update handler enqueues again (§21.2 rule 2); under
//! SchedulingOvercommitProtection every write assumes the binding's footprint
//! (`updateAssumptionsCache`, §29.2).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;

use super::entry::{Rules, State};
use crate::karmada::Strategy;

/// `spec.clusters` as a list: the clusters of `state.order` first, in that order, then the
/// others by name.
pub fn listed(state: &State) -> Vec<(&str, i64)> {
    // Each name once, as the first of its entries (a set: a Duplicated binding may list
    // every cluster of a large fleet).
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut out: Vec<(&str, i64)> = Vec::with_capacity(state.clusters.len());
    for name in &state.order {
        if let Some((c, &n)) = state.clusters.get_key_value(name) {
            if seen.insert(c.as_str()) {
                out.push((c.as_str(), n));
            }
        }
    }
    for (c, &n) in &state.clusters {
        if seen.insert(c.as_str()) {
            out.push((c.as_str(), n));
        }
    }
    out
}

/// What a write did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Written {
    /// `spec.clusters` before the write.
    pub before: BTreeMap<String, i64>,
    /// The patch changes the spec (`spec.clusters`, order included): a new generation.
    pub spec: bool,
    /// The patch is not empty (the spec, or the applied-placement annotation): it is
    /// written, and its footprint assumed under SchedulingOvercommitProtection.
    pub patched: bool,
}

/// Write `result` (in the result's order) and the applied `rules` on `state`. Whether a
/// reorder alone changes the list is only followed where allot's order is Karmada's: a
/// Duplicated result, in the selection's order (`assignByDuplicatedStrategy`, the
/// candidates sorted by `sortClusters`); a Divided result is compared by cluster and replicas.
pub fn write(
    state: &mut State,
    result: Vec<(String, i64)>,
    rules: &alloc::rc::Rc<Rules>,
) -> Written {
    // The same policy's placement is most often the same shared value: compared by address
    // first.
    let annotation = !state
        .applied
        .as_ref()
        .is_some_and(|a| alloc::rc::Rc::ptr_eq(a, rules) || **a == **rules);
    let new: BTreeMap<String, i64> = result.iter().cloned().collect();
    // The list before is `state.clusters`, each cluster once: a Divided result is the same
    // spec when it places the same replicas on the same clusters.
    let same_clusters = new == state.clusters;
    let spec = if rules.strategy() == Strategy::Duplicated {
        !(same_clusters && same_list(state, &result, new.len()))
    } else {
        !same_clusters
    };
    let order: Vec<String> = result.into_iter().map(|(c, _)| c).collect();
    let before = core::mem::replace(&mut state.clusters, new);
    state.order = order;
    state.applied = Some(rules.clone());
    Written {
        before,
        spec,
        patched: spec || annotation,
    }
}

/// Whether `result` (whose clusters, `distinct` of them, place what `state.clusters` places)
/// is [`listed`]`(state)`, order included. Most often the order recorded is the result's own
/// names, each once, which settles it without a look-up per name; else the list is built.
fn same_list(state: &State, result: &[(String, i64)], distinct: usize) -> bool {
    let as_recorded = distinct == result.len()
        && state.order.len() == result.len()
        && state.order.iter().zip(result).all(|(o, (c, _))| o == c);
    as_recorded
        || listed(state)
            .into_iter()
            .eq(result.iter().map(|(c, n)| (c.as_str(), *n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    use alloc::string::String;
    use alloc::vec::Vec;

    use crate::karmada::fleet::entry::{Rules, State};
    use crate::karmada::fleet::events::Event;
    use crate::karmada::fleet::testing::*;
    use crate::karmada::fleet::Settings;
    use crate::karmada::gates::Gate;
    use crate::karmada::Strategy;

    fn rules_of(s: Strategy) -> alloc::rc::Rc<Rules> {
        alloc::rc::Rc::new(Rules::of(s))
    }

    fn state(list: &[(&str, i64)], rules: &alloc::rc::Rc<Rules>) -> State {
        State {
            clusters: list.iter().map(|&(c, n)| (c.into(), n)).collect(),
            order: list.iter().map(|&(c, _)| c.into()).collect(),
            applied: Some(rules.clone()),
            ..State::default()
        }
    }

    fn result(list: &[(&str, i64)]) -> Vec<(String, i64)> {
        list.iter().map(|&(c, n)| (c.into(), n)).collect()
    }

    // patchScheduleResultForResourceBinding patches the whole list: a Duplicated result that
    // only changes the order is a new generation, and written.
    #[test]
    fn a_reordered_duplicated_result_is_a_new_spec() {
        let dup = rules_of(Strategy::Duplicated);
        let mut s = state(&[("a", 3), ("b", 3)], &dup);
        let w = write(&mut s, result(&[("b", 3), ("a", 3)]), &dup);
        assert!(w.spec && w.patched);
        assert_eq!(listed(&s), [("b", 3), ("a", 3)]);
        let w = write(&mut s, result(&[("b", 3), ("a", 3)]), &dup);
        assert!(!w.spec && !w.patched, "the same list: an empty patch");
    }

    // A Divided result is compared by cluster and replicas (allot does not follow the order
    // of a division's result).
    #[test]
    fn a_divided_result_is_compared_by_cluster() {
        let div = rules_of(Strategy::DynamicWeight);
        let mut s = state(&[("a", 4), ("b", 2)], &div);
        let w = write(&mut s, result(&[("b", 2), ("a", 4)]), &div);
        assert!(!w.spec && !w.patched);
        let w = write(&mut s, result(&[("b", 3), ("a", 3)]), &div);
        assert!(w.spec && w.patched);
    }

    // The applied-placement annotation is part of the patch, not of the spec.
    #[test]
    fn a_new_placement_alone_is_written_not_a_new_generation() {
        let dup = rules_of(Strategy::Duplicated);
        let mut s = state(&[("a", 3)], &dup);
        s.applied = None;
        let w = write(&mut s, result(&[("a", 3)]), &dup);
        assert!(!w.spec && w.patched);
    }

    // `patchScheduleResultForResourceBinding` (pkg/scheduler/scheduler.go) patches the whole
    // `spec.clusters` list: a Duplicated result that lists the same clusters in another order (the
    // selection's order: available replicas, then name) is written, and under
    // SchedulingOvercommitProtection `updateAssumptionsCache` assumes its whole footprint, which
    // the bindings after it in the burst read. The binding, a new generation, is taken again.
    #[test]
    fn a_reordered_duplicated_result_is_written_and_assumed() {
        let reordered = |order: &[&str]| {
            let mut dup = entry("dup", Strategy::Duplicated, 3, &[("a", 3), ("b", 3)]);
            dup.state.order = order.iter().map(|&c| String::from(c)).collect();
            let late = entry("late", Strategy::Aggregated, 8, &[]);
            let settings = Settings::default().with(Gate::SchedulingOvercommitProtection, true);
            fleet(
                alloc::vec![member("a", 10), member("b", 4)],
                alloc::vec![dup, late],
                settings,
            )
        };
        // Written as b, a; the selection orders a (10 free) before b (4 free).
        let p = run(&reordered(&["b", "a"]), alloc::vec![Event::Restart]);
        let taken: Vec<&str> = passes(&p, 0).iter().map(|&(n, _)| n).collect();
        assert_eq!(taken, ["dup", "late", "dup"]);
        // dup's 3 CPUs are assumed on a: 7 left there, so late needs b too.
        assert_eq!(after(&p, "late"), placed(&[("a", 7), ("b", 1)]));
        // Written as a, b: the same list, an empty patch, nothing assumed: late fits on a.
        let p = run(&reordered(&["a", "b"]), alloc::vec![Event::Restart]);
        let taken: Vec<&str> = passes(&p, 0).iter().map(|&(n, _)| n).collect();
        assert_eq!(taken, ["dup", "late"]);
        assert_eq!(after(&p, "late"), placed(&[("a", 8)]));
    }
    // An order recorded with a repeated name, or a name no longer placed, still lists each
    // placed cluster once: a result equal to that list is the same spec.
    #[test]
    fn an_untidy_recorded_order_is_compared_as_listed() {
        let dup = rules_of(Strategy::Duplicated);
        let mut s = state(&[("a", 3), ("b", 3)], &dup);
        s.order = ["b", "gone", "b", "a"].map(String::from).to_vec();
        let w = write(&mut s, result(&[("b", 3), ("a", 3)]), &dup);
        assert!(!w.spec && !w.patched);
        let mut s = state(&[("a", 3), ("b", 3)], &dup);
        s.order = ["b", "b"].map(String::from).to_vec();
        let w = write(&mut s, result(&[("a", 3), ("b", 3)]), &dup);
        assert!(w.spec, "listed as b, a");
    }

    proptest::proptest! {
        // Whether a write changes the spec is what comparing the whole list before with the
        // result says: in order for a Duplicated result, by cluster for a Divided one.
        #[test]
        fn a_write_changes_the_spec_as_the_list_says(
            placed in proptest::collection::btree_map(0u8..6, 0i64..3, 0..5),
            order in proptest::collection::vec(0u8..7, 0..7),
            got in proptest::collection::vec((0u8..6, 0i64..3), 0..6),
            duplicated in proptest::bool::ANY,
        ) {
            let name = |c: u8| alloc::format!("c{c}");
            let rules = rules_of(if duplicated { Strategy::Duplicated } else { Strategy::DynamicWeight });
            let mut s = State {
                clusters: placed.iter().map(|(&c, &n)| (name(c), n)).collect(),
                order: order.iter().map(|&c| name(c)).collect(),
                applied: Some(rules.clone()),
                ..State::default()
            };
            let result: Vec<(String, i64)> = got.iter().map(|&(c, n)| (name(c), n)).collect();
            let old: Vec<(String, i64)> =
                listed(&s).into_iter().map(|(c, n)| (String::from(c), n)).collect();
            let new: BTreeMap<String, i64> = result.iter().cloned().collect();
            let expected = if duplicated {
                old != result
            } else {
                old.len() != new.len() || old.iter().any(|(c, n)| new.get(c) != Some(n))
            };
            let w = write(&mut s, result.clone(), &rules);
            proptest::prop_assert_eq!(w.spec, expected);
            proptest::prop_assert_eq!(s.clusters, new);
            proptest::prop_assert_eq!(s.order, result.into_iter().map(|(c, _)| c).collect::<Vec<_>>());
        }
    }
}
