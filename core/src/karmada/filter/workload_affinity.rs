//! The WorkloadAffinity and WorkloadAntiAffinity filters (docs/rules/fleet.md §31): a binding
//! of an affinity group goes only where every other scheduled binding of its group is; one of
//! an anti-affinity group only where no other binding of its group is. Both read other
//! bindings, so only a fleet gives them something to read ([`GroupView`]); a cluster the
//! binding already holds always passes.
//!
//! The groups are what Karmada's detector writes on a ResourceBinding
//! (`spec.workloadAffinityGroups`, [`Groups::of_template`]); the policy's terms are checked
//! by admission (docs/rules/karmada.md §17).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;

use serde::{Deserialize, Serialize};

use super::{BindingView, ClusterView, Failure};
use crate::selector::label::Labels;

/// WorkloadAffinity's reason (`FilterWithContext`).
pub const AFFINITY_REASON: &str =
    "ResourceBinding with the same affinity group does not target this cluster";
/// WorkloadAntiAffinity's reason.
pub const ANTI_AFFINITY_REASON: &str =
    "cluster already has workload with the same anti-affinity group";

/// A policy's `placement.workloadAffinity`: the label key of each term given.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct WorkloadAffinity {
    /// `affinity.groupByLabelKey`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub affinity: Option<String>,
    /// `antiAffinity.groupByLabelKey`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anti_affinity: Option<String>,
}

/// A ResourceBinding's `spec.workloadAffinityGroups`: each group as `key=value` (empty: none).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Groups {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub affinity_group: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub anti_affinity_group: String,
}

impl Groups {
    /// What the detector writes for a template with `labels` under a policy's `terms`
    /// (`getWorkloadAffinityGroups`, pkg/detector/detector.go): each term whose key the
    /// template carries gives `key=value`; `None` when neither does.
    pub fn of_template(terms: Option<&WorkloadAffinity>, labels: &Labels) -> Option<Groups> {
        let terms = terms?;
        let group = |key: &Option<String>| {
            key.as_ref()
                .and_then(|k| labels.get(k.as_str()).map(|v| format!("{k}={v}")))
                .unwrap_or_default()
        };
        let groups = Groups {
            affinity_group: group(&terms.affinity),
            anti_affinity_group: group(&terms.anti_affinity),
        };
        (!groups.is_empty()).then_some(groups)
    }

    pub fn is_empty(&self) -> bool {
        self.affinity_group.is_empty() && self.anti_affinity_group.is_empty()
    }
}

/// Another ResourceBinding as the two plugins read it.
#[derive(Debug, Clone, Copy)]
pub struct Other<'a> {
    pub namespace: &'a str,
    pub name: &'a str,
    pub groups: Option<&'a Groups>,
    /// Its `spec.clusters`.
    pub clusters: &'a BTreeMap<String, i64>,
}

/// The binding being scheduled: its namespace, name and groups.
#[derive(Debug, Clone, Copy)]
pub struct Own<'a> {
    pub namespace: &'a str,
    pub name: &'a str,
    pub groups: &'a Groups,
}

/// `obeyAffinityGroup` (workload_affinity.go): whether `other` lets the binding go to
/// `cluster`. Another namespace or group, no clusters yet (the group's first workload does not
/// block), or the binding itself: yes; else only where `other` is.
pub fn obey_affinity(own: &Own<'_>, other: &Other<'_>, cluster: &str) -> bool {
    if !shares(own, other, |g| &g.affinity_group) {
        return true;
    }
    other.clusters.is_empty() || other.name == own.name || other.clusters.contains_key(cluster)
}

/// `obeyAntiAffinityGroup` (workload_anti_affinity.go): another namespace or group, or the
/// binding itself: yes; else only where `other` is not.
pub fn obey_anti_affinity(own: &Own<'_>, other: &Other<'_>, cluster: &str) -> bool {
    if !shares(own, other, |g| &g.anti_affinity_group) {
        return true;
    }
    other.name == own.name || !other.clusters.contains_key(cluster)
}

/// Whether `other` is in the binding's group (the one `group` picks) and namespace.
fn shares(own: &Own<'_>, other: &Other<'_>, group: impl Fn(&Groups) -> &String) -> bool {
    let mine = group(own.groups);
    !mine.is_empty()
        && other.namespace == own.namespace
        && other.groups.is_some_and(|g| group(g) == mine)
}

/// What the two filters read for one binding: the placements of the other members of its
/// groups, as they are when it is dequeued (the fleet builds it in queue order, so a member
/// scheduled just before is seen with its new clusters, as Karmada's cache of bindings being
/// assigned lets it be).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupView {
    /// WorkloadAffinity enabled and the binding in an affinity group: the clusters of each
    /// other member that has any.
    pub together: Option<alloc::vec::Vec<BTreeSet<String>>>,
    /// WorkloadAntiAffinity enabled and the binding in an anti-affinity group: the clusters
    /// any other member targets.
    pub apart: Option<BTreeSet<String>>,
}

impl GroupView {
    /// The view of `own` among `others` (the bindings of the fleet, itself included or not),
    /// each plugin when enabled.
    pub fn of<'a>(
        own: &Own<'_>,
        others: impl IntoIterator<Item = Other<'a>>,
        affinity: bool,
        anti: bool,
    ) -> GroupView {
        let affinity = affinity && !own.groups.affinity_group.is_empty();
        let anti = anti && !own.groups.anti_affinity_group.is_empty();
        let mut view = GroupView {
            together: affinity.then(alloc::vec::Vec::new),
            apart: anti.then(BTreeSet::new),
        };
        for o in others {
            // A member whose clusters all pass `obey_affinity` adds no constraint.
            if let Some(t) = view.together.as_mut() {
                if !obey_affinity(own, &o, "") {
                    t.push(o.clusters.keys().cloned().collect());
                }
            }
            if let Some(a) = view.apart.as_mut() {
                a.extend(
                    o.clusters
                        .keys()
                        .filter(|c| !obey_anti_affinity(own, &o, c))
                        .cloned(),
                );
            }
        }
        view
    }

    /// The first of the two filters that turns `cluster` away (WorkloadAffinity, then
    /// WorkloadAntiAffinity), with its reason.
    pub fn failure(&self, cluster: &str) -> Option<&'static str> {
        if self
            .together
            .as_ref()
            .is_some_and(|t| t.iter().any(|s| !s.contains(cluster)))
        {
            return Some(AFFINITY_REASON);
        }
        if self.apart.as_ref().is_some_and(|a| a.contains(cluster)) {
            return Some(ANTI_AFFINITY_REASON);
        }
        None
    }
}

/// The plugin of the pair whose reason `reason` is.
pub fn plugin_of(reason: &str) -> Option<&'static str> {
    let [affinity, anti] = crate::karmada::plugins::WORKLOAD_PAIR;
    match reason {
        AFFINITY_REASON => Some(affinity),
        ANTI_AFFINITY_REASON => Some(anti),
        _ => None,
    }
}

/// Both filters on one cluster: a cluster in `spec.clusters` passes (`TargetContains`).
#[inline]
pub(super) fn filter(b: &BindingView<'_>, c: &ClusterView<'_>) -> Option<Failure<'static>> {
    let view = b.groups?;
    if c.placed {
        return None;
    }
    view.failure(c.member.name.as_str()).map(Failure::Fixed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn groups(affinity: &str, anti: &str) -> Groups {
        Groups {
            affinity_group: affinity.into(),
            anti_affinity_group: anti.into(),
        }
    }

    fn placed(names: &[&str]) -> BTreeMap<String, i64> {
        names.iter().map(|n| (String::from(*n), 1)).collect()
    }

    // getWorkloadAffinityGroups (pkg/detector/detector.go): `key=value` per term whose key
    // the template has; none when neither.
    #[test]
    fn the_detector_names_groups_from_the_templates_labels() {
        let terms = WorkloadAffinity {
            affinity: Some("app.group".into()),
            anti_affinity: Some("tier".into()),
        };
        let labels: Labels = [("app.group".into(), "frontend".into())]
            .into_iter()
            .collect();
        let g = Groups::of_template(Some(&terms), &labels).unwrap();
        assert_eq!(g, groups("app.group=frontend", ""));
        assert_eq!(Groups::of_template(Some(&terms), &BTreeMap::new()), None);
        assert_eq!(Groups::of_template(None, &labels), None);
    }

    // obeyAffinityGroup (workload_affinity.go): another namespace, another group, an
    // unscheduled member or the binding itself never blocks; otherwise only its clusters pass.
    #[test]
    fn affinity_follows_the_scheduled_members() {
        let g = groups("app=a", "");
        let own = Own {
            namespace: "ns",
            name: "x",
            groups: &g,
        };
        let there = placed(&["m1"]);
        let none = BTreeMap::new();
        let other = |namespace, name, groups, clusters| Other {
            namespace,
            name,
            groups,
            clusters,
        };
        let b = groups("app=b", "");
        assert!(obey_affinity(
            &own,
            &other("ns", "y", Some(&g), &there),
            "m1"
        ));
        assert!(!obey_affinity(
            &own,
            &other("ns", "y", Some(&g), &there),
            "m2"
        ));
        assert!(obey_affinity(
            &own,
            &other("ns", "y", Some(&g), &none),
            "m2"
        ));
        assert!(obey_affinity(
            &own,
            &other("ns", "x", Some(&g), &there),
            "m2"
        ));
        assert!(obey_affinity(
            &own,
            &other("other", "y", Some(&g), &there),
            "m2"
        ));
        assert!(obey_affinity(
            &own,
            &other("ns", "y", Some(&b), &there),
            "m2"
        ));
        assert!(obey_affinity(&own, &other("ns", "y", None, &there), "m2"));
        // Two members on different clusters: no cluster is left but theirs in common.
        let there2 = placed(&["m2"]);
        let view = GroupView::of(
            &own,
            [
                other("ns", "y", Some(&g), &there),
                other("ns", "z", Some(&g), &there2),
            ],
            true,
            true,
        );
        assert_eq!(view.failure("m1"), Some(AFFINITY_REASON));
        assert_eq!(view.failure("m2"), Some(AFFINITY_REASON));
        assert_eq!(view.failure("m3"), Some(AFFINITY_REASON));
    }

    // obeyAntiAffinityGroup (workload_anti_affinity.go): a cluster any other member of the
    // group targets is turned away; a member with no clusters blocks nothing.
    #[test]
    fn anti_affinity_avoids_every_member() {
        let g = groups("", "app=a");
        let own = Own {
            namespace: "ns",
            name: "x",
            groups: &g,
        };
        let y = placed(&["m1", "m2"]);
        let z = placed(&["m3"]);
        let others: Vec<Other<'_>> = [("y", &y), ("z", &z), ("x", &z)]
            .into_iter()
            .map(|(name, clusters)| Other {
                namespace: "ns",
                name,
                groups: Some(&g),
                clusters,
            })
            .collect();
        assert!(!obey_anti_affinity(&own, &others[0], "m1"));
        assert!(obey_anti_affinity(&own, &others[2], "m3"), "itself");
        let view = GroupView::of(&own, others.iter().copied(), true, true);
        for m in ["m1", "m2", "m3"] {
            assert_eq!(view.failure(m), Some(ANTI_AFFINITY_REASON), "{m}");
        }
        assert_eq!(view.failure("m4"), None);
        // Disabled (`--plugins=-WorkloadAntiAffinity`): nothing turned away.
        let off = GroupView::of(&own, others.iter().copied(), true, false);
        assert_eq!(off.failure("m1"), None);
    }
}
