//! Every binding of the fleet, in the fleet's order, and what events read of them without
//! reading each: the cluster affinity each binding is matched against when a cluster changes
//! (docs/rules/fleet.md §21.2 rule 5), grouped, so that a cluster event matches each distinct
//! affinity once and reads only the bindings it enqueues; and the bindings the failover
//! controllers watch (§32.3, §33: those with an application failover behavior or eviction
//! tasks), which their start reconciles.
//!
//! The grouping is worked out when first asked for and shared by the copies of a fleet made
//! after it (a failure's plan copies the fleet it starts from); any change to a binding drops
//! it, as a changed placement or observed affinity term changes what the binding is matched
//! against (§20.1).
//!
//! The list is held in chunks of [`CHUNK`] bindings, each shared by the copies of the fleet
//! until one of them changes a binding of it: a failure's plan copies a pointer per chunk, not
//! one per binding, and the chunks its passes write.

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cell::OnceCell;

use super::entry::Entry;
use crate::selector::cluster::ClusterAffinity;

/// How many bindings a chunk of the list holds.
pub const CHUNK: usize = 64;

/// The fleet's bindings, in order. Every write goes through [`Bindings::get_mut`] or
/// [`Bindings::push`], which drop the grouping.
#[derive(Debug, Clone, Default)]
pub struct Bindings {
    /// Full chunks of [`CHUNK`] bindings, the last one possibly shorter.
    chunks: Vec<Rc<Vec<Rc<Entry>>>>,
    index: OnceCell<Rc<Index>>,
}

/// The bindings in order.
pub type Iter<'a> = core::iter::FlatMap<
    core::slice::Iter<'a, Rc<Vec<Rc<Entry>>>>,
    core::slice::Iter<'a, Rc<Entry>>,
    fn(&'a Rc<Vec<Rc<Entry>>>) -> core::slice::Iter<'a, Rc<Entry>>,
>;

/// What events read of the bindings: grouped by the affinity a cluster event checks them
/// against, and those the failover controllers watch.
#[derive(Debug, PartialEq, Eq)]
pub struct Index {
    /// Per binding: its group.
    group_of: Vec<usize>,
    /// Per group: a binding of it (whose affinity the group's is), or none for the bindings
    /// with no affinity, which every cluster event concerns.
    groups: Vec<Option<usize>>,
    /// The bindings with an application failover behavior or eviction tasks, in order.
    watched: Vec<usize>,
}

impl Index {
    fn of(list: &Bindings) -> Index {
        // Bindings of one policy share its affinity: grouped by the affinity itself.
        let mut seen: BTreeMap<*const ClusterAffinity, usize> = BTreeMap::new();
        let mut groups: Vec<Option<usize>> = Vec::new();
        let mut none = None;
        let watched = list
            .iter()
            .enumerate()
            .filter(|(_, e)| e.app_failover.is_some() || !e.state.evictions.is_empty())
            .map(|(b, _)| b)
            .collect();
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
        Index {
            group_of,
            groups,
            watched,
        }
    }

    /// The bindings the failover controllers watch: an application failover behavior or
    /// eviction tasks.
    pub fn watched(&self) -> &[usize] {
        &self.watched
    }

    /// Whether each group's bindings are concerned, `concerns` answering for an affinity.
    pub fn concerned(
        &self,
        list: &Bindings,
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
    /// What events read of the bindings, worked out now if no copy has yet.
    pub fn index(&self) -> Rc<Index> {
        self.index.get_or_init(|| Rc::new(Index::of(self))).clone()
    }

    pub fn len(&self) -> usize {
        self.chunks
            .last()
            .map_or(0, |last| (self.chunks.len() - 1) * CHUNK + last.len())
    }

    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// Binding `b`.
    #[inline]
    pub fn get(&self, b: usize) -> Option<&Rc<Entry>> {
        self.chunks.get(b / CHUNK)?.get(b % CHUNK)
    }

    /// Every binding, in order.
    pub fn iter(&self) -> Iter<'_> {
        self.chunks.iter().flat_map(|c| c.iter())
    }

    /// Binding `b`, to change (its chunk copied first if another fleet shares it).
    pub fn get_mut(&mut self, b: usize) -> Option<&mut Rc<Entry>> {
        self.index.take();
        Rc::make_mut(self.chunks.get_mut(b / CHUNK)?).get_mut(b % CHUNK)
    }

    /// A binding added last.
    pub fn push(&mut self, entry: Rc<Entry>) {
        self.index.take();
        match self.chunks.last_mut() {
            Some(last) if last.len() < CHUNK => Rc::make_mut(last).push(entry),
            _ => {
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(entry);
                self.chunks.push(Rc::new(chunk));
            }
        }
    }

    /// The positions of the bindings that are not those of `other` (another copy of the
    /// same fleet, earlier or later): a chunk both share is passed over whole.
    pub fn differing(&self, other: &Bindings) -> Vec<usize> {
        let mut out = Vec::new();
        for (k, chunk) in self.chunks.iter().enumerate() {
            let theirs = other.chunks.get(k);
            if theirs.is_some_and(|t| Rc::ptr_eq(t, chunk)) {
                continue;
            }
            for (j, e) in chunk.iter().enumerate() {
                let b = k * CHUNK + j;
                if !other.get(b).is_some_and(|w| Rc::ptr_eq(w, e)) {
                    out.push(b);
                }
            }
        }
        out
    }
}

impl core::ops::Index<usize> for Bindings {
    type Output = Rc<Entry>;

    /// Binding `b`; `b` must be one of the list's (as a slice's index).
    fn index(&self, b: usize) -> &Rc<Entry> {
        &self.chunks[b / CHUNK][b % CHUNK]
    }
}

/// Two fleets' bindings are the same when the bindings are (the grouping follows from them).
impl PartialEq for Bindings {
    fn eq(&self, other: &Bindings) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl FromIterator<Rc<Entry>> for Bindings {
    fn from_iter<I: IntoIterator<Item = Rc<Entry>>>(iter: I) -> Bindings {
        let mut list = Bindings::default();
        list.extend(iter);
        list
    }
}

impl Extend<Rc<Entry>> for Bindings {
    fn extend<I: IntoIterator<Item = Rc<Entry>>>(&mut self, iter: I) {
        for e in iter {
            self.push(e);
        }
    }
}

impl<'a> IntoIterator for &'a Bindings {
    type Item = &'a Rc<Entry>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use alloc::rc::Rc;
    use alloc::vec::Vec;

    use proptest::prelude::*;

    use super::{Bindings, Entry};
    use crate::karmada::fleet::app_failover::PurgeMode;
    use crate::karmada::fleet::testing::{entry, failover, member};
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
        let groups = list.index();
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
        // through it as read one by one, and the watched bindings are those with an
        // application failover behavior or eviction tasks.
        #[test]
        fn grouped_as_one_by_one(
            given in proptest::collection::vec((0usize..8, any::<bool>()), 0..12),
            changes in proptest::collection::vec(
                (0usize..16, 0usize..8, any::<bool>(), any::<bool>()),
                0..6,
            ),
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
            for (b, k, copy, watched) in changes {
                let failover = watched.then(|| Rc::new(failover(PurgeMode::Directly, 60)));
                if let Some(e) = list.get_mut(b) {
                    let e = Rc::make_mut(e);
                    e.rules = with(b, k, copy).rules.clone();
                    e.app_failover = failover;
                } else {
                    let mut e = with(list.len(), k, copy);
                    Rc::make_mut(&mut e).app_failover = failover;
                    list.push(e);
                }
                let one_by_one: Vec<usize> = list
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.app_failover.is_some() || !e.state.evictions.is_empty())
                    .map(|(b, _)| b)
                    .collect();
                let index = list.index();
                prop_assert_eq!(index.watched(), &one_by_one[..]);
                for cluster in ["a", "b", "c"] {
                    let (grouped, each) = both(&list, cluster);
                    prop_assert_eq!(grouped, each);
                }
            }
        }
    }

    proptest! {
        // Held in chunks, the list reads as the list of every binding pushed and written
        // would, in every copy; a copy's change leaves the others alone; `differing` names
        // the positions whose binding is not the other copy's.
        #[test]
        fn chunks_read_as_one_list(
            given in 0usize..(3 * super::CHUNK),
            writes in proptest::collection::vec((0usize..(4 * super::CHUNK), 1i64..5), 0..8),
        ) {
            let make = |b: usize, replicas: i64| {
                Rc::new(entry(&alloc::format!("w{b}"), Strategy::Duplicated, replicas, &[]))
            };
            let model: Vec<Rc<Entry>> = (0..given).map(|b| make(b, 1)).collect();
            let first: Bindings = model.iter().cloned().collect();
            let mut copy = first.clone();
            let mut copied = model.clone();
            for (b, replicas) in writes {
                match copy.get_mut(b) {
                    Some(e) => *e = make(b, replicas),
                    None => copy.push(make(copy.len(), replicas)),
                }
                match copied.get_mut(b) {
                    Some(e) => *e = make(b, replicas),
                    None => copied.push(make(copied.len(), replicas)),
                }
            }
            for (list, model) in [(&first, &model), (&copy, &copied)] {
                prop_assert_eq!(list.len(), model.len());
                prop_assert!(list.iter().eq(model.iter()));
                for (b, e) in model.iter().enumerate() {
                    prop_assert_eq!(list.get(b), Some(e));
                    prop_assert_eq!(&list[b], e);
                }
                prop_assert_eq!(list.get(model.len()), None);
            }
            let differing: Vec<usize> = (0..copied.len())
                .filter(|&b| !model.get(b).is_some_and(|w| Rc::ptr_eq(w, &copied[b])))
                .collect();
            prop_assert_eq!(copy.differing(&first), differing);
        }
    }

    // The grouping is made once and shared by the copies made after it.
    #[test]
    fn copies_share_the_grouping() {
        let list: Bindings = (0..3)
            .map(|b| Rc::new(entry(&alloc::format!("w{b}"), Strategy::Duplicated, 1, &[])))
            .collect();
        let first = list.index();
        let copy = list.clone();
        assert!(Rc::ptr_eq(&first, &copy.index()));
        let mut changed = copy.clone();
        changed.get_mut(0);
        assert!(!Rc::ptr_eq(&first, &changed.index()));
    }
}
