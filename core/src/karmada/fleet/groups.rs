//! What the WorkloadAffinity pair reads of the other bindings (docs/rules/fleet.md §31): the
//! scheduler's index of ResourceBindings by affinity group and by anti-affinity group
//! (`addIndexers`, pkg/scheduler/indexer.go), built once per drain of the queue, and for each
//! dequeued binding the placements of the other members of its groups as they are then, so a
//! member scheduled earlier in the same drain is seen where it now is.

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::entry::{BindingKind, Entry};
use super::Settings;
use crate::karmada::filter::workload_affinity::{GroupView, Other, Own};
use crate::karmada::plugins::workload_pair;

/// The ResourceBindings of each group, by their position in the fleet.
#[derive(Debug, Default)]
pub struct Index {
    /// WorkloadAffinity and WorkloadAntiAffinity enabled (gate and `--plugins`).
    on: [bool; 2],
    affinity: BTreeMap<String, Vec<usize>>,
    anti: BTreeMap<String, Vec<usize>>,
}

impl Index {
    /// The index of `entries`; empty when the gate is off or the release lacks it.
    pub fn new(entries: &[Rc<Entry>], settings: &Settings) -> Index {
        let gate = settings.workload_affinity();
        if !gate {
            return Index::default();
        }
        let mut index = Index {
            on: workload_pair(settings.plugins.as_deref()),
            ..Index::default()
        };
        for (i, e) in entries.iter().enumerate() {
            let Some(g) = grouped(e) else {
                continue;
            };
            for (map, group) in [
                (&mut index.affinity, &g.affinity_group),
                (&mut index.anti, &g.anti_affinity_group),
            ] {
                if !group.is_empty() {
                    map.entry(group.clone()).or_default().push(i);
                }
            }
        }
        index
    }

    /// What the pair reads for binding `b`: `None` when neither runs for it.
    pub fn view(&self, entries: &[Rc<Entry>], b: usize) -> Option<GroupView> {
        if self.on == [false; 2] {
            return None;
        }
        let e = entries.get(b)?;
        let groups = grouped(e)?;
        let own = Own {
            namespace: &e.id.namespace,
            name: &e.id.name,
            groups,
        };
        let others = members(entries, b, &self.affinity, &groups.affinity_group).chain(members(
            entries,
            b,
            &self.anti,
            &groups.anti_affinity_group,
        ));
        let [affinity, anti] = self.on;
        Some(GroupView::of(&own, others, affinity, anti))
    }
}

/// The bindings of `group` in `map` other than `b`, as the plugins read them.
fn members<'a>(
    entries: &'a [Rc<Entry>],
    b: usize,
    map: &'a BTreeMap<String, Vec<usize>>,
    group: &str,
) -> impl Iterator<Item = Other<'a>> + 'a {
    map.get(group)
        .into_iter()
        .flatten()
        .filter(move |&&i| i != b)
        .filter_map(|&i| entries.get(i))
        .map(|o| Other {
            namespace: &o.id.namespace,
            name: &o.id.name,
            groups: o.groups.as_ref(),
            clusters: &o.state.clusters,
        })
}

/// The groups of a ResourceBinding (a ClusterResourceBinding has none: `spec.workloadAffinityGroups`
/// is never set on one, and the index holds ResourceBindings only).
fn grouped(e: &Entry) -> Option<&crate::karmada::filter::workload_affinity::Groups> {
    match e.id.kind {
        BindingKind::ResourceBinding => e.groups.as_ref().filter(|g| !g.is_empty()),
        BindingKind::ClusterResourceBinding => None,
    }
}
