//! Every binding of the fleet, in the fleet's order, and what a cluster's change reads of
//! them (docs/rules/fleet.md §21.2 rule 5): the cluster affinity each binding is matched
//! against, grouped, so that a cluster event matches each distinct affinity once and reads
//! only the bindings it enqueues.
//!
//! The grouping is worked out when first asked for and shared by the copies of a fleet made
//! after it (a failure's plan copies the fleet it starts from); any change to a binding drops
//! it, as a changed placement or observed affinity term changes what the binding is matched
//! against (§20.1).

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cell::OnceCell;
use core::ops::Deref;

use super::entry::Entry;
use crate::selector::cluster::ClusterAffinity;

/// The fleet's bindings. Read as a slice; every write goes through [`Bindings::get_mut`],
/// [`Bindings::push`] or [`Bindings::as_mut_slice`], which drop the grouping.
#[derive(Debug, Clone, Default)]
pub struct Bindings {
    list: Vec<Rc<Entry>>,
    by_affinity: OnceCell<Rc<ByAffinity>>,
}

/// The bindings grouped by the affinity a cluster event checks them against.
#[derive(Debug, PartialEq, Eq)]
pub struct ByAffinity {
    /// Per binding: its group.
    group_of: Vec<usize>,
    /// Per group: a binding of it (whose affinity the group's is), or none for the bindings
    /// with no affinity, which every cluster event concerns.
    groups: Vec<Option<usize>>,
}

impl ByAffinity {
    fn of(list: &[Rc<Entry>]) -> ByAffinity {
        // Bindings of one policy share its affinity: grouped by the affinity itself.
        let mut seen: BTreeMap<*const ClusterAffinity, usize> = BTreeMap::new();
        let mut groups: Vec<Option<usize>> = Vec::new();
        let mut none = None;
        let group_of = list
            .iter()
            .enumerate()
            .map(
                |(b, e)| match e.rules.event_affinity(&e.state.observed_affinity) {
                    Some(a) => *seen.entry(a as *const ClusterAffinity).or_insert_with(|| {
                        groups.push(Some(b));
                        groups.len() - 1
                    }),
                    None => *none.get_or_insert_with(|| {
                        groups.push(None);
                        groups.len() - 1
                    }),
                },
            )
            .collect();
        ByAffinity { group_of, groups }
    }

    /// Whether each group's bindings are concerned, `concerns` answering for an affinity.
    pub fn concerned(
        &self,
        list: &[Rc<Entry>],
        mut concerns: impl FnMut(&ClusterAffinity) -> bool,
    ) -> Vec<bool> {
        self.groups
            .iter()
            .map(|g| match g.and_then(|b| list.get(b)) {
                Some(e) => e
                    .rules
                    .event_affinity(&e.state.observed_affinity)
                    .is_none_or(&mut concerns),
                None => true,
            })
            .collect()
    }

    /// Binding `b`'s group.
    pub fn group(&self, b: usize) -> Option<usize> {
        self.group_of.get(b).copied()
    }
}

impl Bindings {
    /// The bindings grouped by affinity, worked out now if no copy has yet.
    pub fn by_affinity(&self) -> Rc<ByAffinity> {
        self.by_affinity
            .get_or_init(|| Rc::new(ByAffinity::of(&self.list)))
            .clone()
    }

    /// Binding `b`, to change (copied first if another fleet shares it).
    pub fn get_mut(&mut self, b: usize) -> Option<&mut Rc<Entry>> {
        self.by_affinity.take();
        self.list.get_mut(b)
    }

    /// Every binding, to change.
    pub fn as_mut_slice(&mut self) -> &mut [Rc<Entry>] {
        self.by_affinity.take();
        &mut self.list
    }

    /// A binding added last.
    pub fn push(&mut self, entry: Rc<Entry>) {
        self.by_affinity.take();
        self.list.push(entry);
    }
}

/// Two fleets' bindings are the same when the bindings are (the grouping follows from them).
impl PartialEq for Bindings {
    fn eq(&self, other: &Bindings) -> bool {
        self.list == other.list
    }
}

impl Deref for Bindings {
    type Target = [Rc<Entry>];

    fn deref(&self) -> &[Rc<Entry>] {
        &self.list
    }
}

impl FromIterator<Rc<Entry>> for Bindings {
    fn from_iter<I: IntoIterator<Item = Rc<Entry>>>(iter: I) -> Bindings {
        Bindings {
            list: iter.into_iter().collect(),
            by_affinity: OnceCell::new(),
        }
    }
}

impl IntoIterator for Bindings {
    type Item = Rc<Entry>;
    type IntoIter = alloc::vec::IntoIter<Rc<Entry>>;

    fn into_iter(self) -> Self::IntoIter {
        self.list.into_iter()
    }
}

impl<'a> IntoIterator for &'a Bindings {
    type Item = &'a Rc<Entry>;
    type IntoIter = core::slice::Iter<'a, Rc<Entry>>;

    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

#[cfg(test)]
mod tests {
    use alloc::rc::Rc;
    use alloc::vec::Vec;

    use proptest::prelude::*;

    use super::{Bindings, Entry};
    use crate::karmada::fleet::testing::{entry, member};
    use crate::karmada::fleet::Rules;
    use crate::karmada::Strategy;
    use crate::selector::cluster::ClusterAffinity;

    /// Policy `k`'s rules: none selects every cluster; the others name some of a, b, c.
    fn rules(k: usize) -> Rules {
        let rules = Rules::of(Strategy::Duplicated);
        let names: Vec<&str> = ["a", "b", "c"]
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| k & (1 << i) != 0)
            .map(|(_, n)| n)
            .collect();
        if k == 0 {
            return rules;
        }
        rules.with_affinity(ClusterAffinity {
            cluster_names: names.into_iter().map(Into::into).collect(),
            ..ClusterAffinity::default()
        })
    }

    /// Whether a change of `cluster` concerns each binding, from the grouping and one by one.
    fn both(list: &Bindings, cluster: &str) -> (Vec<bool>, Vec<bool>) {
        let m = member(cluster, 1);
        let zones = crate::karmada::fleet::Settings::default().version.zone_in();
        let matches = |a: &ClusterAffinity| a.matches(&m.facts(), zones);
        let groups = list.by_affinity();
        let concerned = groups.concerned(list, matches);
        let grouped = (0..list.len())
            .map(|b| concerned[groups.group(b).unwrap()])
            .collect();
        let each = list
            .iter()
            .map(|e| {
                e.rules
                    .event_affinity(&e.state.observed_affinity)
                    .is_none_or(matches)
            })
            .collect();
        (grouped, each)
    }

    proptest! {
        // Bindings share their policy's rules or hold a copy of them; whatever is changed
        // after the grouping was made, a cluster's change concerns the same bindings read
        // through it as read one by one.
        #[test]
        fn grouped_as_one_by_one(
            given in proptest::collection::vec((0usize..8, any::<bool>()), 0..12),
            changes in proptest::collection::vec((0usize..16, 0usize..8, any::<bool>()), 0..6),
        ) {
            let policies: Vec<Rc<Rules>> = (0..8).map(|k| Rc::new(rules(k))).collect();
            let with = |b: usize, k: usize, copy: bool| -> Rc<Entry> {
                let mut e = entry(&alloc::format!("w{b}"), Strategy::Duplicated, 1, &[]);
                e.rules = if copy { Rc::new(rules(k)) } else { policies[k].clone() };
                Rc::new(e)
            };
            let mut list: Bindings =
                given.iter().enumerate().map(|(b, &(k, copy))| with(b, k, copy)).collect();
            for cluster in ["a", "b", "c"] {
                let (grouped, each) = both(&list, cluster);
                prop_assert_eq!(grouped, each);
            }
            for (b, k, copy) in changes {
                if let Some(e) = list.get_mut(b) {
                    Rc::make_mut(e).rules = with(b, k, copy).rules.clone();
                } else {
                    list.push(with(list.len(), k, copy));
                }
                for cluster in ["a", "b", "c"] {
                    let (grouped, each) = both(&list, cluster);
                    prop_assert_eq!(grouped, each);
                }
            }
        }
    }

    // The grouping is made once and shared by the copies made after it.
    #[test]
    fn copies_share_the_grouping() {
        let list: Bindings = (0..3)
            .map(|b| Rc::new(entry(&alloc::format!("w{b}"), Strategy::Duplicated, 1, &[])))
            .collect();
        let first = list.by_affinity();
        let copy = list.clone();
        assert!(Rc::ptr_eq(&first, &copy.by_affinity()));
        let mut changed = copy.clone();
        changed.get_mut(0);
        assert!(!Rc::ptr_eq(&first, &changed.by_affinity()));
    }
}
