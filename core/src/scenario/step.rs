//! One step of a history: what changed in the scenario since the step it started from, and
//! what moved in the placement (docs/scenario.md, "Histories").
//!
//! A step is a scenario whose outcome was made the current placement ("apply as current"): for
//! Karmada its assignment becomes the next scenario's `previous`, for eru its new instances are
//! added to the nodes' counts. [`changes`] compares two steps' scenarios, [`moves`] a step's
//! outcome with the placement it started from.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{Outcome, Scenario};
use crate::names::NameIndex;

/// A change between two scenarios, as a person would name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// The first step: how many replicas (or instances) over how many targets.
    First { replicas: i64, targets: usize },
    /// The replica count (Karmada) or instance count (eru) changed.
    Scaled { from: i64, to: i64 },
    /// A cluster or node joined.
    Added(String),
    /// A cluster or node left.
    Removed(String),
    /// A cluster's own weight changed (`None`: none stated).
    Weight {
        name: String,
        from: Option<i64>,
        to: Option<i64>,
    },
    /// Something else about a cluster or node changed.
    Target(String),
    /// The policy changed (strategy, method, rules, estimators...).
    Policy,
    /// The workload changed other than its count (requests, components...).
    Workload,
}

/// A target whose placement differs: replicas (or instances) before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    pub name: String,
    pub from: i64,
    pub to: i64,
}

/// How many replicas (Karmada) or instances (eru) a scenario asks for.
fn asked(s: &Scenario) -> i64 {
    if s.nodes.is_some() {
        s.workload.count.unwrap_or(0)
    } else {
        s.workload.replicas.unwrap_or(0)
    }
}

/// The targets' names, each with its weight and a comparable view of the rest of it.
fn targets(s: &Scenario) -> Vec<(&str, Option<i64>, Target<'_>)> {
    match (&s.clusters, &s.nodes) {
        (Some(clusters), _) => clusters
            .iter()
            .map(|c| (c.name.as_str(), c.weight, Target::Cluster(c)))
            .collect(),
        (None, Some(nodes)) => nodes
            .iter()
            .map(|n| (n.name.as_str(), None, Target::Node(n)))
            .collect(),
        (None, None) => Vec::new(),
    }
}

/// A target as compared between steps: a cluster without its weight (reported on its own), a
/// node without its instance count (which a step itself grows).
#[derive(Debug, Clone, Copy)]
enum Target<'a> {
    Cluster(&'a super::Target),
    Node(&'a crate::eru::pipeline::EruNode),
}

impl Target<'_> {
    fn same(self, other: Target<'_>) -> bool {
        match (self, other) {
            (Target::Cluster(a), Target::Cluster(b)) => {
                super::Target {
                    weight: None,
                    ..a.clone()
                } == super::Target {
                    weight: None,
                    ..b.clone()
                }
            }
            (Target::Node(a), Target::Node(b)) => {
                crate::eru::pipeline::EruNode {
                    count: 0,
                    ..a.clone()
                } == crate::eru::pipeline::EruNode {
                    count: 0,
                    ..b.clone()
                }
            }
            _ => false,
        }
    }
}

/// What changed from `before` (the step this one started from; `None` for a first step) to
/// `after`: joins and departures in `after`'s order, then weights and other edits, then the
/// count, the policy and the workload. Titles, descriptions, seeds and the previous placement
/// are not changes of the problem.
pub fn changes(before: Option<&Scenario>, after: &Scenario) -> Vec<Change> {
    let now = targets(after);
    let Some(before) = before else {
        return alloc::vec![Change::First {
            replicas: asked(after),
            targets: now.len(),
        }];
    };
    let was = targets(before);
    // By name, as the scheduler looks clusters up (a step of 1,000 clusters compares each once).
    let was_at = NameIndex::new(was.iter().map(|(name, ..)| *name));
    let now_at = NameIndex::new(now.iter().map(|(name, ..)| *name));
    let mut out = Vec::new();
    for (name, ..) in &now {
        if was_at.get(name).is_none() {
            out.push(Change::Added((*name).into()));
        }
    }
    for (name, ..) in &was {
        if now_at.get(name).is_none() {
            out.push(Change::Removed((*name).into()));
        }
    }
    for (name, weight, target) in &now {
        let Some(i) = was_at.get(name) else { continue };
        let (_, old_weight, old) = &was[i];
        if old_weight != weight {
            out.push(Change::Weight {
                name: (*name).into(),
                from: *old_weight,
                to: *weight,
            });
        }
        if !target.same(*old) {
            out.push(Change::Target((*name).into()));
        }
    }
    if asked(before) != asked(after) {
        out.push(Change::Scaled {
            from: asked(before),
            to: asked(after),
        });
    }
    if before.policy != after.policy {
        out.push(Change::Policy);
    }
    let count_free = |s: &Scenario| super::Workload {
        replicas: None,
        count: None,
        ..s.workload.clone()
    };
    if count_free(before) != count_free(after) {
        out.push(Change::Workload);
    }
    out
}

/// What moved: each target whose placement after `outcome` differs from the one `scenario`
/// started from (Karmada: `previous` against the assignment; eru: the nodes' counts against
/// the counts plus the new instances), in name order.
pub fn moves(scenario: &Scenario, outcome: &Outcome) -> Vec<Move> {
    let mut placed: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    match outcome {
        Outcome::Karmada(k) => {
            for (name, &n) in &scenario.previous {
                placed.entry(name.clone()).or_default().0 = n;
            }
            for a in &k.assignment {
                placed.entry(a.name.to_string()).or_default().1 = a.replicas as i64;
            }
        }
        Outcome::Eru(e) => {
            for node in scenario.nodes.iter().flatten() {
                let had = node.count as i64;
                let given = e.deploy.get(&node.name).copied().unwrap_or(0) as i64;
                placed.insert(node.name.clone(), (had, had.saturating_add(given)));
            }
        }
    }
    placed
        .into_iter()
        .filter(|(_, (from, to))| from != to)
        .map(|(name, (from, to))| Move { name, from, to })
        .collect()
}

#[cfg(test)]
#[cfg(feature = "json")]
mod tests {
    use super::*;
    use crate::json::from_json;
    use crate::scenario::schedule;

    fn read(text: &str) -> Scenario {
        from_json(text).unwrap()
    }

    #[test]
    fn a_history_names_what_changed() {
        let one = read(
            r#"{"version":1,"clusters":[{"name":"a","weight":2},{"name":"b","weight":1}],
                "workload":{"replicas":7},"seed":1}"#,
        );
        assert_eq!(
            changes(None, &one),
            [Change::First {
                replicas: 7,
                targets: 2
            }]
        );
        let two = read(
            r#"{"version":1,"clusters":[{"name":"a","weight":3},{"name":"c","weight":1,"labels":{"x":"y"}}],
                "workload":{"replicas":8},"previous":{"a":5,"b":2},"seed":9,"title":"t"}"#,
        );
        assert_eq!(
            changes(Some(&one), &two),
            [
                Change::Added("c".into()),
                Change::Removed("b".into()),
                Change::Weight {
                    name: "a".into(),
                    from: Some(2),
                    to: Some(3)
                },
                Change::Scaled { from: 7, to: 8 },
            ]
        );
        assert!(changes(Some(&two), &two).is_empty());
    }

    #[test]
    fn moves_compare_the_placement_with_the_one_before() {
        let s = read(
            r#"{"version":1,"clusters":[{"name":"a","weight":1},{"name":"b","weight":1}],
                "workload":{"replicas":4},"previous":{"a":3,"c":1},"seed":1}"#,
        );
        let o = schedule(&s, 0).unwrap();
        assert_eq!(
            moves(&s, &o),
            [
                Move {
                    name: "a".into(),
                    from: 3,
                    to: 2
                },
                Move {
                    name: "b".into(),
                    from: 0,
                    to: 2
                },
                Move {
                    name: "c".into(),
                    from: 1,
                    to: 0
                },
            ]
        );
        let eru = read(
            r#"{"version":1,"nodes":[{"name":"n1","cpuMap":{"0":100},"memory":100,"count":1}],
                "workload":{"count":2,"requests":{"memory":10}}}"#,
        );
        let o = schedule(&eru, 0).unwrap();
        assert_eq!(
            moves(&eru, &o),
            [Move {
                name: "n1".into(),
                from: 1,
                to: 3
            }]
        );
    }
}
