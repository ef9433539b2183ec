//! The cluster set compiled once for the filter pass (docs/rules/karmada.md §12): label keys
//! and values, providers, regions and zones interned as numbers, taints and API enablements
//! as positions in their lists of distinct ones, each cluster's share in one flat array. A
//! binding scheduled against the set compiles its affinities against these numbers and judges
//! each distinct taint and API list once ([`Judged`]); a cluster is then judged by comparing
//! numbers, without reading its scattered maps and lists of text. Compiled once, it serves
//! every binding scheduled against the set ([`super::cluster::Clusters`]).
//!
//! Made when first asked for, the set also lists the clusters stating each label value,
//! provider, region and zone ([`Compiled::stating`]): an affinity naming values then reads the
//! few clusters that can match it (docs/rules/karmada.md §12.5) rather than all of them.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::cell::OnceCell;
use core::cmp::Ordering;
use core::ops::Range;

use super::cluster::{Member, Members};
use super::constraints::{api_status, ApiEnablement, ApiStatus};
use super::filter::{ClusterView, Tolerations};
use crate::selector::node::Taint;

/// A text's number in the set.
pub type TextId = u32;

/// The set, compiled.
#[derive(Debug, Default)]
pub struct Compiled<'a> {
    members: Vec<&'a Member>,
    texts: BTreeMap<&'a str, TextId>,
    clusters: Vec<Compact>,
    /// Every cluster's labels `(key, value)`, each cluster's sorted by key.
    labels: Vec<(TextId, TextId)>,
    zones: Vec<TextId>,
    /// Every cluster's taints as positions in `distinct_taints`, in listed order.
    taints: Vec<u32>,
    distinct_taints: Vec<&'a Taint>,
    /// The distinct API enablement lists with their completeness condition.
    apis: Vec<ApiList<'a>>,
    /// Every value a cluster states, with the cluster, sorted ([`Compiled::stating`]).
    stated: OnceCell<Vec<(Stated, TextId, u32)>>,
}

/// What a cluster states a value of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stated {
    /// The label with this key.
    Label(TextId),
    Provider,
    Region,
    /// One of its zones.
    Zone,
}

/// One cluster's share of the flat arrays.
#[derive(Debug, Clone, Default)]
struct Compact {
    labels: Range<u32>,
    zones: Range<u32>,
    taints: Range<u32>,
    api: u32,
    provider: Option<TextId>,
    region: Option<TextId>,
    deleting: bool,
}

/// A cluster's API enablements and whether they are complete, compared as data.
#[derive(Debug, Clone, Copy)]
struct ApiList<'a>(&'a [ApiEnablement], Option<bool>);

impl ApiList<'_> {
    fn key(&self) -> impl Iterator<Item = (&str, &[crate::Name])> {
        self.0
            .iter()
            .map(|e| (e.group_version.as_str(), e.kinds.as_slice()))
    }
}

impl PartialEq for ApiList<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for ApiList<'_> {}
impl PartialOrd for ApiList<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for ApiList<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.1
            .cmp(&other.1)
            .then_with(|| self.key().cmp(other.key()))
    }
}

/// What the filters read of one cluster of the set.
#[derive(Debug, Clone, Copy)]
pub struct Facts<'s> {
    labels: &'s [(TextId, TextId)],
    pub zones: &'s [TextId],
    pub taints: &'s [u32],
    pub api: u32,
    /// `None`: not stated (empty).
    pub provider: Option<TextId>,
    pub region: Option<TextId>,
    pub deleting: bool,
}

impl Facts<'_> {
    /// The value of the label `key`.
    #[inline]
    pub fn label(&self, key: TextId) -> Option<TextId> {
        self.labels
            .binary_search_by_key(&key, |&(k, _)| k)
            .ok()
            .and_then(|i| self.labels.get(i))
            .map(|&(_, v)| v)
    }
}

fn range(start: usize, end: usize) -> Range<u32> {
    // The set holds at most MAX_TARGETS clusters of bounded size; saturating keeps it total.
    let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    at(start)..at(end)
}

impl<'a> Compiled<'a> {
    pub fn new(members: Vec<&'a Member>) -> Self {
        let mut c = Compiled::default();
        let mut texts = Interner::default();
        let mut taint_ids: BTreeMap<(TextId, TextId, u8), u32> = BTreeMap::new();
        let mut api_ids: BTreeMap<ApiList<'a>, u32> = BTreeMap::new();
        let mut last_api: Option<(ApiList<'a>, u32)> = None;
        c.clusters.reserve_exact(members.len());
        for &m in &members {
            let start = c.labels.len();
            for (k, v) in &m.labels {
                let pair = (texts.intern(k), texts.intern(v));
                c.labels.push(pair);
            }
            if let Some(own) = c.labels.get_mut(start..) {
                own.sort_unstable_by_key(|&(k, _)| k);
            }
            let labels = range(start, c.labels.len());
            let start = c.zones.len();
            c.zones.extend(m.zones.iter().map(|z| texts.intern(z)));
            let zones = range(start, c.zones.len());
            let start = c.taints.len();
            // Neighbours often carry the same taints: compared with the previous cluster's,
            // taint by taint, they are not looked up again.
            let previous = c.clusters.last().map_or(0..0, |p| p.taints.clone());
            let same = previous.len() == m.taints.len()
                && c.taints
                    .get(previous.start as usize..previous.end as usize)
                    .is_some_and(|ids| {
                        ids.iter()
                            .zip(&m.taints)
                            .all(|(&id, t)| c.taint(id).is_some_and(|d| d == t))
                    });
            if same {
                c.taints
                    .extend_from_within(previous.start as usize..previous.end as usize);
            } else {
                for t in &m.taints {
                    let key = (texts.intern(&t.key), texts.intern(&t.value), t.effect as u8);
                    let next = c.distinct_taints.len() as u32;
                    let id = *taint_ids.entry(key).or_insert(next);
                    if id == next {
                        c.distinct_taints.push(t);
                    }
                    c.taints.push(id);
                }
            }
            let taints = range(start, c.taints.len());
            let list = ApiList(&m.api_enablements, m.complete_api_enablements);
            let api = match last_api {
                // Neighbours often serve the same APIs: one comparison, no search.
                Some((last, id)) if last == list => id,
                _ => {
                    let next = c.apis.len() as u32;
                    let id = *api_ids.entry(list).or_insert(next);
                    if id == next {
                        c.apis.push(list);
                    }
                    id
                }
            };
            last_api = Some((list, api));
            c.clusters.push(Compact {
                labels,
                zones,
                taints,
                api,
                provider: (!m.provider.is_empty()).then(|| texts.intern(&m.provider)),
                region: (!m.region.is_empty()).then(|| texts.intern(&m.region)),
                deleting: m.deleting,
            });
        }
        c.texts = texts.ids;
        c.members = members;
        c
    }

    /// The clusters, in listed order.
    pub fn members(&self) -> Members<'_> {
        Members::new(&self.members)
    }

    /// The clusters, in listed order, as borrowed for the set's whole life.
    pub fn listed(&self) -> &[&'a Member] {
        &self.members
    }

    /// The number of `text`, when some cluster states it.
    pub fn text(&self, text: &str) -> Option<TextId> {
        self.texts.get(text).copied()
    }

    /// The clusters stating `value` as `what`, in listed order (each once: a cluster states
    /// one value per label key, provider and region, and lists a zone once or more).
    pub fn stating(&self, what: Stated, value: TextId) -> impl Iterator<Item = u32> + '_ {
        let stated = self.stated.get_or_init(|| self.list_stated());
        let from = stated.partition_point(|&(w, v, _)| (w, v) < (what, value));
        let to = stated.partition_point(|&(w, v, _)| (w, v) <= (what, value));
        let mut last = None;
        stated
            .get(from..to)
            .unwrap_or_default()
            .iter()
            .map(|&(_, _, i)| i)
            .filter(move |&i| last.replace(i) != Some(i))
    }

    fn list_stated(&self) -> Vec<(Stated, TextId, u32)> {
        let mut stated = Vec::with_capacity(self.labels.len() + self.zones.len());
        for (i, facts) in (0..self.clusters.len()).map_while(|i| Some((i as u32, self.cluster(i)?)))
        {
            stated.extend(facts.labels.iter().map(|&(k, v)| (Stated::Label(k), v, i)));
            stated.extend(facts.zones.iter().map(|&z| (Stated::Zone, z, i)));
            stated.extend(facts.provider.map(|p| (Stated::Provider, p, i)));
            stated.extend(facts.region.map(|r| (Stated::Region, r, i)));
        }
        stated.sort_unstable();
        stated
    }

    /// The cluster at `i`.
    #[inline]
    pub fn cluster(&self, i: usize) -> Option<Facts<'_>> {
        let c = self.clusters.get(i)?;
        let slice = |r: &Range<u32>| r.start as usize..r.end as usize;
        Some(Facts {
            labels: self.labels.get(slice(&c.labels)).unwrap_or_default(),
            zones: self.zones.get(slice(&c.zones)).unwrap_or_default(),
            taints: self.taints.get(slice(&c.taints)).unwrap_or_default(),
            api: c.api,
            provider: c.provider,
            region: c.region,
            deleting: c.deleting,
        })
    }

    /// What the filter plugins read of the cluster at `i`; `placed`: it is in the binding's
    /// previous result.
    #[inline]
    pub fn view(&self, i: usize, placed: bool) -> Option<ClusterView<'_>> {
        Some(ClusterView {
            member: self.members.get(i).copied()?,
            facts: self.cluster(i)?,
            set: self,
            placed,
        })
    }

    /// The distinct taint numbered `id`.
    #[inline]
    pub fn taint(&self, id: u32) -> Option<&'a Taint> {
        self.distinct_taints.get(id as usize).copied()
    }

    /// Each distinct taint and API list judged for one binding.
    pub fn judge(&self, tolerations: &Tolerations<'_>, resource: Option<(&str, &str)>) -> Judged {
        Judged {
            blocked: self
                .distinct_taints
                .iter()
                .map(|t| tolerations.block(t))
                .collect(),
            served: match resource {
                None => Vec::new(),
                Some((v, k)) => self
                    .apis
                    .iter()
                    .map(|a| api_status(a.0, a.1, v, k) == ApiStatus::APIEnabled)
                    .collect(),
            },
        }
    }
}

/// Texts numbered in the order first met. The same few texts (label keys and values, regions,
/// zones, taint keys) come back cluster after cluster: a small table of recent ones, found by
/// a hash of the text, answers most of them with one comparison before the ordered map is
/// searched (whose worst case bounds every input).
struct Interner<'a> {
    ids: BTreeMap<&'a str, TextId>,
    recent: Vec<Option<(&'a str, TextId)>>,
}

const RECENT: usize = 64;

impl Default for Interner<'_> {
    fn default() -> Self {
        Interner {
            ids: BTreeMap::new(),
            recent: alloc::vec![None; RECENT],
        }
    }
}

impl<'a> Interner<'a> {
    fn intern(&mut self, text: &'a str) -> TextId {
        // FNV-1a over the bytes.
        let h = text.bytes().fold(0x811c_9dc5u32, |h, b| {
            (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
        });
        let slot = h as usize % RECENT;
        if let Some(Some((t, id))) = self.recent.get(slot) {
            if *t == text {
                return *id;
            }
        }
        let next = self.ids.len() as TextId;
        let id = *self.ids.entry(text).or_insert(next);
        if let Some(r) = self.recent.get_mut(slot) {
            *r = Some((text, id));
        }
        id
    }
}

/// A binding's answers on the set's distinct taints and API lists: whether each taint keeps
/// a new placement out (a counted effect no toleration tolerates), and whether each API list
/// serves the binding's resource (empty when it states none).
#[derive(Debug, Clone, Default)]
pub struct Judged {
    blocked: Vec<bool>,
    served: Vec<bool>,
}

impl Judged {
    /// The first of `taints` (positions among the distinct ones) that keeps a new placement out.
    #[inline]
    pub fn first_blocking(&self, taints: &[u32]) -> Option<u32> {
        taints
            .iter()
            .copied()
            .find(|&id| self.blocked.get(id as usize).copied().unwrap_or(false))
    }

    /// Whether the API list numbered `api` serves the binding's resource.
    #[inline]
    pub fn served(&self, api: u32) -> bool {
        self.served.get(api as usize).copied().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selector::node::TaintEffect;
    use proptest::prelude::*;

    fn taint() -> impl Strategy<Value = Taint> {
        ("[ab]", "[xy]?", 0usize..3).prop_map(|(key, value, e)| Taint {
            key: key.into(),
            value: value.into(),
            effect: TaintEffect::ALL[e],
        })
    }

    proptest! {
        /// Each cluster's taints, read back through the set, are its own, in order; its
        /// labels, zones, provider and region read back as their texts' numbers.
        #[test]
        fn reads_back_as_listed(
            clusters in proptest::collection::vec(
                (
                    proptest::collection::vec(taint(), 0..3),
                    proptest::collection::btree_map("[kl]", "[ab]", 0..3),
                    "[ab]?",
                    proptest::collection::vec("[ab]", 0..2),
                ),
                0..6,
            ),
            repeat in any::<bool>(),
        ) {
            let mut members: Vec<Member> = clusters
                .into_iter()
                .map(|(taints, labels, region, zones)| Member {
                    taints,
                    labels: crate::selector::label::labels_of(labels),
                    region: region.into(),
                    zones: zones.into_iter().map(Into::into).collect(),
                    ..Member::default()
                })
                .collect();
            if repeat {
                if let Some(first) = members.first().cloned() {
                    members.push(first);
                }
            }
            let set = Compiled::new(members.iter().collect());
            for (i, m) in members.iter().enumerate() {
                let facts = set.cluster(i).unwrap();
                let taints: Vec<&Taint> = facts.taints.iter().map(|&id| set.taint(id).unwrap()).collect();
                prop_assert_eq!(taints, m.taints.iter().collect::<Vec<_>>());
                for (k, v) in &m.labels {
                    prop_assert_eq!(facts.label(set.text(k).unwrap()), set.text(v));
                }
                let zones: Vec<Option<TextId>> = m.zones.iter().map(|z| set.text(z)).collect();
                prop_assert_eq!(facts.zones.iter().copied().map(Some).collect::<Vec<_>>(), zones);
                let region = (!m.region.is_empty()).then(|| set.text(&m.region)).flatten();
                prop_assert_eq!(facts.region, region);
            }
        }
    }
}
