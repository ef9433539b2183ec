//! What the WorkloadAffinity pair reads of the other bindings (docs/rules/fleet.md §31): the
//! scheduler's index of ResourceBindings by affinity group and by anti-affinity group
//! (`addIndexers`, pkg/scheduler/indexer.go), built once per drain of the queue, and for each
//! dequeued binding the placements of the other members of its groups as they are then, so a
//! member scheduled earlier in the same drain is seen where it now is.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::bindings::Bindings;
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
    pub fn new(entries: &Bindings, settings: &Settings) -> Index {
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
    pub fn view(&self, entries: &Bindings, b: usize) -> Option<GroupView> {
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
    entries: &'a Bindings,
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

#[cfg(test)]
mod tests {
    use alloc::boxed::Box;
    use alloc::collections::BTreeMap;
    use alloc::rc::Rc;
    use alloc::string::String;
    use alloc::vec::Vec;

    use crate::karmada::cluster::Clusters;
    use crate::karmada::fleet::entry::{Condition, Entry, Rules};
    use crate::karmada::fleet::events::Event;
    use crate::karmada::fleet::plan::{plan, Outcome};
    use crate::karmada::fleet::testing::*;
    use crate::karmada::fleet::{Fleet, Settings};
    use crate::karmada::gates::Gate;
    use crate::karmada::Strategy;
    use crate::selector::cluster::ClusterAffinity;
    use proptest::prelude::{any, prop_assert, proptest};

    /// `entry` in the workload affinity groups `affinity` and `anti` (empty: none).
    fn grouped(
        name: &str,
        strategy: Strategy,
        clusters: &[(&str, i64)],
        affinity: &str,
        anti: &str,
    ) -> Entry {
        let mut e = entry(name, strategy, 2, clusters);
        e.groups = Some(crate::karmada::filter::workload_affinity::Groups {
            affinity_group: affinity.into(),
            anti_affinity_group: anti.into(),
        });
        e
    }

    /// Clusters a, b and c (a has the most room, so a binding alone goes there), the gate on.
    fn three(entries: Vec<Entry>, gate: bool) -> Fleet {
        let settings = Settings::default().with(Gate::WorkloadAffinity, gate);
        fleet(
            alloc::vec![member("a", 10), member("b", 8), member("c", 6)],
            entries,
            settings,
        )
    }

    fn burst_of(entries: Vec<Entry>) -> Vec<Event> {
        entries
            .into_iter()
            .map(|e| Event::Create { entry: Box::new(e) })
            .collect()
    }

    // WorkloadAffinity (`FilterWithContext`, workload_affinity.go) in queue order: the group's
    // first binding is not blocked (no member has clusters yet); each later one reads where the
    // earlier ones were just placed (the scheduler's cache of bindings being assigned), so the
    // whole burst lands together even where another cluster has more room.
    #[test]
    fn an_affinity_group_follows_its_first_member_in_queue_order() {
        let f = three(Vec::new(), true);
        let mut first = grouped("w1", Strategy::Aggregated, &[], "app=shop", "");
        first.rules = Rc::new(
            Rules::of(Strategy::Aggregated).with_affinity(ClusterAffinity {
                cluster_names: alloc::vec!["c".into()],
                ..ClusterAffinity::default()
            }),
        );
        let p = run(
            &f,
            burst_of(alloc::vec![
                first,
                grouped("w2", Strategy::Aggregated, &[], "app=shop", ""),
                grouped("w3", Strategy::Duplicated, &[], "app=shop", ""),
            ]),
        );
        assert_eq!(after(&p, "w1"), placed(&[("c", 2)]));
        assert_eq!(after(&p, "w2"), placed(&[("c", 2)]));
        assert_eq!(after(&p, "w3"), placed(&[("c", 2)]));
        // Gate off: the group means nothing, w2 takes the cluster with the most room.
        let off = run(
            &three(Vec::new(), false),
            burst_of(alloc::vec![grouped(
                "w2",
                Strategy::Aggregated,
                &[],
                "app=shop",
                ""
            )]),
        );
        assert_eq!(after(&off, "w2"), placed(&[("a", 2)]));
    }

    // WorkloadAntiAffinity (workload_anti_affinity.go): each member avoids every cluster another
    // member targets; with no cluster left, the FitError names the plugin's reason for each.
    #[test]
    fn an_anti_affinity_group_spreads_and_then_does_not_fit() {
        let f = three(Vec::new(), true);
        let names = ["w1", "w2", "w3", "w4"];
        let p = run(
            &f,
            burst_of(
                names
                    .iter()
                    .map(|n| grouped(n, Strategy::Aggregated, &[], "", "app=db"))
                    .collect(),
            ),
        );
        assert_eq!(after(&p, "w1"), placed(&[("a", 2)]));
        assert_eq!(after(&p, "w2"), placed(&[("b", 2)]));
        assert_eq!(after(&p, "w3"), placed(&[("c", 2)]));
        let Outcome::Unschedulable {
            condition: Condition::NoClusterFit(message),
        } = outcome(&p, "w4")
        else {
            panic!("{:?}", outcome(&p, "w4"));
        };
        assert!(
            message.ends_with(
                "0/3 clusters are available: 3 cluster already has workload with the same \
                 anti-affinity group."
            ),
            "{message}"
        );
    }

    // Both plugins pass a cluster the binding already targets (`TargetContains`): the scheduler
    // never removes a placement for them. Another namespace is another group (`obey*Group`).
    #[test]
    fn a_placed_cluster_and_another_namespace_pass() {
        let mut other_ns = grouped("x", Strategy::Aggregated, &[("b", 2)], "", "app=db");
        other_ns.id.namespace = "elsewhere".into();
        let f = three(
            alloc::vec![
                grouped("w1", Strategy::Duplicated, &[("a", 2)], "", "app=db"),
                grouped("w2", Strategy::Duplicated, &[("a", 2)], "", "app=db"),
                other_ns,
            ],
            true,
        );
        let p = run(&f, alloc::vec![Event::Restart]);
        // Duplicated: each keeps a (placed there) and adds b and c, except where the other is.
        assert_eq!(after(&p, "w1"), placed(&[("a", 2), ("b", 2), ("c", 2)]));
        assert_eq!(after(&p, "w2"), placed(&[("a", 2)]));
    }

    // Members of one affinity group placed apart (each allowed only where the others are) are a
    // defined behaviour, never a loop: a binding's schedule enqueues no other member (no handler
    // of pkg/scheduler/event_handler.go does), and each keeps the clusters it holds
    // (`TargetContains`). Duplicated members gather, each adding where the earlier ones are;
    // Divided ones have no trigger and stay apart, and a new member finds no cluster every other
    // member targets.
    #[test]
    fn members_placed_apart_settle_in_one_pass() {
        let members = |strategy| {
            alloc::vec![
                grouped("w1", strategy, &[("a", 2)], "app=shop", ""),
                grouped("w2", strategy, &[("b", 2)], "app=shop", ""),
                grouped("w3", strategy, &[], "app=shop", ""),
            ]
        };
        let p = run(
            &three(members(Strategy::Duplicated), true),
            alloc::vec![Event::Restart],
        );
        // Each member once, then each whose result changed again (its new generation, §23.4),
        // until a pass writes the same list.
        let taken: Vec<&str> = passes(&p, 0).iter().map(|&(n, _)| n).collect();
        assert_eq!(taken, ["w1", "w2", "w3", "w1", "w2", "w3", "w2"]);
        for w in ["w1", "w2", "w3"] {
            assert_eq!(after(&p, w), placed(&[("a", 2), ("b", 2)]), "{w}");
        }
        let p = run(
            &three(members(Strategy::Aggregated), true),
            alloc::vec![Event::Restart],
        );
        assert_eq!(p.steps[0].passes.len(), 3);
        assert_eq!(after(&p, "w1"), placed(&[("a", 2)]));
        assert_eq!(after(&p, "w2"), placed(&[("b", 2)]));
        assert!(matches!(
            outcome(&p, "w3"),
            Outcome::Unschedulable {
                condition: Condition::NoClusterFit(m)
            } if m.ends_with("3 ResourceBinding with the same affinity group does not target this cluster.")
        ));
    }

    // `--plugins=*,-WorkloadAntiAffinity` turns one plugin of the pair off.
    #[test]
    fn plugins_flag_disables_one_of_the_pair() {
        let mut f = three(Vec::new(), true);
        f.settings.plugins = Some(alloc::vec!["*".into(), "-WorkloadAntiAffinity".into()]);
        let p = run(
            &f,
            burst_of(alloc::vec![
                grouped("w1", Strategy::Aggregated, &[], "", "app=db"),
                grouped("w2", Strategy::Aggregated, &[], "", "app=db"),
            ]),
        );
        assert_eq!(after(&p, "w2"), placed(&[("a", 2)]));
    }

    // The explained schedule of a member names the plugin that turned a cluster away and
    // records its reason (the filter pass with the pair, docs/rules/fleet.md §31.3).
    #[test]
    fn an_explained_member_names_the_workload_affinity_plugin() {
        use crate::karmada::filter::workload_affinity::{GroupView, AFFINITY_REASON};
        let e = grouped("w2", Strategy::Aggregated, &[], "app=shop", "");
        let settings = Settings::default();
        let members = alloc::vec![member("a", 10), member("b", 10)];
        let view = GroupView {
            together: Some(alloc::vec![["b".into()].into_iter().collect()]),
            apart: None,
        };
        let mut binding = e.binding(&settings, &[], false);
        binding.workload_groups = Some(&view);
        let (d, r) =
            crate::karmada::pipeline::explain(&binding, &Clusters::new(&members), 0).unwrap();
        assert_eq!(
            d.assignment
                .iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>(),
            ["b"]
        );
        let a = &r.pipeline.clusters[0].filter;
        assert_eq!(a.reason.as_deref(), Some(AFFINITY_REASON));
        assert!(r
            .pipeline
            .explanation
            .iter()
            .any(|s| s.starts_with("a is out (WorkloadAffinity)")));
    }

    proptest! {
        // A burst of new members of one group (§31.3), whatever their strategies and the
        // clusters' room: with anti-affinity no two members share a cluster; with affinity
        // every later member stays within the clusters of each earlier one that was placed.
        #[test]
        fn a_new_group_keeps_its_rule(
            cpus in proptest::collection::vec(0u64..12, 1..6),
            specs in proptest::collection::vec((strategy(), 1i64..6), 1..8),
            anti in any::<bool>(),
            seed in 0u64..1000,
        ) {
            let (mut f, _) = generated(&cpus, &[], seed, false, Vec::new());
            f.settings.feature_gates.set(Gate::WorkloadAffinity, true);
            let (affinity, apart) = if anti { ("", "g=1") } else { ("g=1", "") };
            let events = specs
                .iter()
                .enumerate()
                .map(|(i, &(s, r))| {
                    let mut e = grouped(&alloc::format!("w{i}"), s, &[], affinity, apart);
                    e.workload.replicas = r;
                    Event::Create { entry: Box::new(e) }
                })
                .collect();
            let (_, g) = plan(&f, events).unwrap();
            let placed: Vec<&BTreeMap<String, i64>> = g
                .entries
                .iter()
                .map(|e| &e.state.clusters)
                .filter(|c| !c.is_empty())
                .collect();
            for (k, later) in placed.iter().enumerate() {
                for earlier in &placed[..k] {
                    if anti {
                        prop_assert!(later.keys().all(|c| !earlier.contains_key(c)));
                    } else {
                        prop_assert!(later.keys().all(|c| earlier.contains_key(c)));
                    }
                }
            }
        }
    }
}
