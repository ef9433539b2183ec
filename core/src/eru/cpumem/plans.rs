//! A node's CPU binding plans (docs/rules/eru.md C3), one per instance in the order instances
//! take them, held compactly as runs of (core, pieces) and written out as [`CpuPlan`]s only
//! when read.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use compact_str::CompactString;

use serde::{Deserialize, Serialize};

/// One instance's CPU binding.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CpuPlan {
    /// The NUMA node the plan lives on; `""` for cross-NUMA or no NUMA.
    pub numa_node: String,
    pub cpu_map: BTreeMap<String, u64>,
}

/// A node's CPU plans, in the order instances take them, held compactly: each plan a run of
/// (core, pieces) parts naming the node's cores by position. A plan is written out as a
/// [`CpuPlan`] only when it is read ([`CpuPlans::get`], [`CpuPlans::iter`]), so that counting
/// a node's plans does not build a map per plan. Serialized as the list of its [`CpuPlan`]s.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CpuPlans {
    /// The node's core ids, in id order; parts name cores by their position here.
    pub(super) cores: Vec<CompactString>,
    /// The NUMA nodes whose plans are held.
    pub(super) numa_nodes: Vec<String>,
    /// Each plan: its NUMA node (a position in `numa_nodes`; `None`: across NUMA nodes or no
    /// NUMA) and where its parts end.
    pub(super) plans: Vec<(Option<usize>, usize)>,
    /// (core, pieces), plan after plan.
    pub(super) parts: Vec<(usize, u64)>,
}

impl CpuPlans {
    /// How many plans.
    pub fn len(&self) -> usize {
        self.plans.len()
    }

    /// No plan at all.
    pub fn is_empty(&self) -> bool {
        self.plans.is_empty()
    }

    /// Plan `j` (the `j`-th instance's binding), written out.
    pub fn get(&self, j: usize) -> Option<CpuPlan> {
        let &(numa, end) = self.plans.get(j)?;
        let start = j.checked_sub(1).map_or(0, |p| self.plans[p].1);
        let mut cpu_map = BTreeMap::new();
        for &(core, pieces) in self.parts.get(start..end)? {
            let id = self.cores.get(core)?;
            *cpu_map.entry(String::from(id.as_str())).or_insert(0) += pieces;
        }
        Some(CpuPlan {
            numa_node: numa
                .and_then(|m| self.numa_nodes.get(m).cloned())
                .unwrap_or_default(),
            cpu_map,
        })
    }

    /// Every plan, written out one at a time.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = CpuPlan> + '_ {
        (0..self.len()).map(|j| self.get(j).unwrap_or_default())
    }

    /// Room for `plans` more plans of `parts` parts each (counted within
    /// [`MAX_BIND_ASSIGNMENTS`](super::MAX_BIND_ASSIGNMENTS) before they are made).
    pub(super) fn reserve(&mut self, plans: usize, parts: u64) {
        self.plans.reserve(plans);
        self.parts
            .reserve(plans.saturating_mul(usize::try_from(parts).unwrap_or(usize::MAX)));
    }

    /// Add a plan of `parts` on NUMA node `numa`.
    pub(super) fn push(
        &mut self,
        numa: Option<usize>,
        parts: impl IntoIterator<Item = (usize, u64)>,
    ) {
        self.parts.extend(parts);
        self.plans.push((numa, self.parts.len()));
    }
}

impl Serialize for CpuPlans {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}
