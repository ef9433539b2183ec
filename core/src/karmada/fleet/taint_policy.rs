//! The ClusterTaintPolicy controller (docs/rules/fleet.md §24.3), as `Reconcile`,
//! `conditionMatches`, `addTaintsOnCluster` and `removeTaintsFromCluster`
//! (pkg/controllers/taint/clustertaintpolicy_controller.go) decide: for one cluster whose
//! conditions changed (or when a policy is created or its spec changes), every policy in
//! creation order that targets the cluster adds its taints (with `timeAdded`) when all its
//! `addOnConditions` match, then removes them when all its `removeOnConditions` match.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::health::{self, Health, Readiness};
use crate::karmada::cluster::Member;
use crate::karmada::version::Version;
use crate::selector::cluster::ClusterAffinity;
use crate::selector::node::Taint;

/// A `MatchCondition`'s operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Operator {
    In,
    NotIn,
}

impl Operator {
    pub fn parse(text: &str) -> Option<Operator> {
        match text {
            "In" => Some(Operator::In),
            "NotIn" => Some(Operator::NotIn),
            _ => None,
        }
    }
}

/// One of `addOnConditions` or `removeOnConditions`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MatchCondition {
    pub condition_type: String,
    pub operator: Operator,
    pub status_values: Vec<String>,
}

/// A ClusterTaintPolicy (policy.karmada.io/v1alpha1, from Karmada 1.16).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClusterTaintPolicy {
    pub name: String,
    /// `spec.targetClusters`; absent: every cluster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_clusters: Option<ClusterAffinity>,
    #[serde(default)]
    pub add_on_conditions: Vec<MatchCondition>,
    #[serde(default)]
    pub remove_on_conditions: Vec<MatchCondition>,
    pub taints: Vec<Taint>,
}

/// A cluster condition (`type`, `status`).
pub type Status<'a> = (&'a str, &'a str);

/// The cluster's conditions as the controller reads them: `Ready` with its status (none
/// before the first report).
pub fn conditions(h: &Health) -> Vec<Status<'static>> {
    let ready = match h.ready {
        Readiness::Ready => "True",
        Readiness::NotReady => "False",
        Readiness::Unknown => "Unknown",
        Readiness::Never => return Vec::new(),
    };
    alloc::vec![("Ready", ready)]
}

/// `conditionMatches`: every match condition (ANDed) holds; none given never matches. A
/// condition holds when a cluster condition of its type has (`In`) or lacks (`NotIn`) one of
/// its values (the last condition of the type decides `NotIn`); a type the cluster does not
/// report does not hold.
pub fn condition_matches(conditions: &[Status<'_>], matches: &[MatchCondition]) -> bool {
    if matches.is_empty() {
        return false;
    }
    matches.iter().all(|m| {
        let mut hit = false;
        for &(kind, status) in conditions {
            if kind != m.condition_type {
                continue;
            }
            let listed = m.status_values.iter().any(|v| v == status);
            match m.operator {
                Operator::In => hit |= listed,
                Operator::NotIn => hit = !listed,
            }
        }
        hit
    })
}

impl ClusterTaintPolicy {
    /// Whether the policy targets cluster `m` (`util.ClusterMatches`).
    pub fn targets(&self, m: &Member, version: Version) -> bool {
        self.target_clusters
            .as_ref()
            .is_none_or(|a| a.matches(&m.facts(), version.zone_in()))
    }
}

/// What one reconcile changed: each taint added or removed, and by which policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub policy: String,
    pub taint: Taint,
    pub added: bool,
}

/// `Reconcile` for cluster `m` at `now`: each policy in order (Karmada sorts them by
/// creation time; the caller keeps them so) adds its taints when its `addOnConditions` match
/// and removes them when its `removeOnConditions` match. A taint of the same key and effect
/// already there is not added again; removal removes the first of that key and effect.
pub fn reconcile(
    m: &mut Member,
    h: &mut Health,
    policies: &[ClusterTaintPolicy],
    version: Version,
    now: i64,
) -> Vec<Change> {
    let mut changes = Vec::new();
    for p in policies {
        if !p.targets(m, version) {
            continue;
        }
        let status = conditions(h);
        if condition_matches(&status, &p.add_on_conditions) {
            for t in &p.taints {
                if health::add_taint(m, h, t.clone(), Some(now)) {
                    changes.push(Change {
                        policy: p.name.clone(),
                        taint: t.clone(),
                        added: true,
                    });
                }
            }
        }
        if condition_matches(&status, &p.remove_on_conditions) {
            for t in &p.taints {
                if health::remove_taint(m, h, &t.key, t.effect) {
                    changes.push(Change {
                        policy: p.name.clone(),
                        taint: t.clone(),
                        added: false,
                    });
                }
            }
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selector::node::TaintEffect;

    fn cond(kind: &str, op: Operator, values: &[&str]) -> MatchCondition {
        MatchCondition {
            condition_type: kind.into(),
            operator: op,
            status_values: values.iter().map(|&v| v.into()).collect(),
        }
    }

    fn no_execute(key: &str) -> Taint {
        Taint {
            key: key.into(),
            value: Default::default(),
            effect: TaintEffect::NoExecute,
        }
    }

    fn policy(name: &str, target: Option<ClusterAffinity>) -> ClusterTaintPolicy {
        ClusterTaintPolicy {
            name: name.into(),
            target_clusters: target,
            add_on_conditions: alloc::vec![cond("Ready", Operator::NotIn, &["True"])],
            remove_on_conditions: alloc::vec![cond("Ready", Operator::In, &["True"])],
            taints: alloc::vec![no_execute("not-ready")],
        }
    }

    fn member(name: &str) -> Member {
        Member {
            name: name.into(),
            ..Member::default()
        }
    }

    // TestConditionMatches (clustertaintpolicy_controller_test.go): the conditions are
    // ANDed, none never matches, a type the cluster lacks does not match, NotIn holds when
    // the status is not listed.
    #[test]
    fn match_conditions_are_anded_and_need_the_type() {
        let ready_false = [("Ready", "False")];
        let not_true = cond("Ready", Operator::NotIn, &["True"]);
        let is_false = cond("Ready", Operator::In, &["False", "Unknown"]);
        let other = cond("NetworkAvailable", Operator::NotIn, &["True"]);
        assert!(condition_matches(
            &ready_false,
            core::slice::from_ref(&not_true)
        ));
        assert!(condition_matches(
            &ready_false,
            &[not_true.clone(), is_false]
        ));
        assert!(!condition_matches(&ready_false, &[not_true.clone(), other]));
        assert!(!condition_matches(&ready_false, &[]));
        assert!(!condition_matches(
            &[("Ready", "True")],
            core::slice::from_ref(&not_true)
        ));
        assert!(!condition_matches(&[], &[not_true]));
    }

    // Reconcile: a policy targeting the cluster adds its taint with timeAdded while Ready is
    // not True and removes it once Ready is True; one targeting other clusters does nothing.
    #[test]
    fn a_policy_taints_while_its_conditions_hold() {
        let mut m = member("member2");
        let mut h = Health {
            ready: Readiness::NotReady,
            ..Health::default()
        };
        let others = ClusterAffinity {
            cluster_names: alloc::vec!["member1".into()],
            ..ClusterAffinity::default()
        };
        let policies = [policy("elsewhere", Some(others)), policy("down", None)];
        let changes = reconcile(&mut m, &mut h, &policies, Version::NEWEST, 40);
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].policy, "down");
        assert_eq!(m.taints, [no_execute("not-ready")]);
        assert_eq!(h.added_at("not-ready", TaintEffect::NoExecute), Some(40));
        // Reconciled again: the taint is there, its timeAdded kept.
        assert!(reconcile(&mut m, &mut h, &policies, Version::NEWEST, 90).is_empty());
        assert_eq!(h.added_at("not-ready", TaintEffect::NoExecute), Some(40));
        h.ready = Readiness::Ready;
        let changes = reconcile(&mut m, &mut h, &policies, Version::NEWEST, 120);
        assert!(!changes[0].added);
        assert!(m.taints.is_empty());
        // A cluster never reported has no condition: nothing matches.
        h.ready = Readiness::Never;
        assert!(reconcile(&mut m, &mut h, &policies, Version::NEWEST, 130).is_empty());
    }
}
