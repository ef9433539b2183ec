//! ClusterTaintPolicies (policy.karmada.io/v1alpha1, from Karmada 1.14) read from
//! objects straight into the fleet's [`ClusterTaintPolicy`] (docs/rules/fleet.md §24.3):
//! `spec.targetClusters`, `spec.addOnConditions` and `spec.removeOnConditions` (each a
//! `conditionType`, an `operator` In or NotIn and `statusValues`) and `spec.taints`, in
//! creation order. A field Karmada's CRD would refuse is a problem at that field, and the
//! policy is left out.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::fleet::Problem;
use super::objects::Object;
use crate::karmada::fleet::taint_policy::{self, ClusterTaintPolicy, Operator};
use crate::karmada::version::Version;
use crate::selector::node::{Taint, TaintEffect};

/// A `MatchCondition` as written.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MatchCondition {
    pub condition_type: String,
    pub operator: String,
    pub status_values: Vec<String>,
}

/// Every ClusterTaintPolicy of `objects`, oldest first (`creationTimestamp`; one without, or
/// of the same time, in the dump's order), with the problems of those left out. A release
/// before 1.14 has no such kind: each is a problem, and none is read.
pub fn read(
    objects: &[&Object],
    version: Version,
    problems: &mut Vec<Problem>,
) -> Vec<ClusterTaintPolicy> {
    if !version.at_least(14, 0) {
        problems.extend(objects.iter().map(|o| {
            let message = format!("Karmada {version} has no ClusterTaintPolicy (from 1.14)");
            Problem::at(o, "kind", message)
        }));
        return Vec::new();
    }
    let mut dated: Vec<(Option<i64>, &Object)> = objects
        .iter()
        .map(|o| {
            let at = o.metadata.creation_timestamp.as_deref();
            (at.and_then(super::time::seconds), *o)
        })
        .collect();
    dated.sort_by_key(|(at, _)| at.unwrap_or(i64::MIN));
    dated
        .into_iter()
        .filter_map(|(_, o)| match policy(o) {
            Ok(p) => Some(p),
            Err(problem) => {
                problems.push(problem);
                None
            }
        })
        .collect()
}

/// One ClusterTaintPolicy, or the problem at its first wrong field.
pub fn policy(o: &Object) -> Result<ClusterTaintPolicy, Problem> {
    let at = |field: String, message: String| Problem::at(o, &field, message);
    if o.spec.taints.is_empty() {
        return Err(at(
            "spec.taints".into(),
            "required: a policy adds taints".into(),
        ));
    }
    let taints = o
        .spec
        .taints
        .iter()
        .enumerate()
        .map(|(i, t)| match TaintEffect::parse(&t.effect) {
            Some(effect @ (TaintEffect::NoSchedule | TaintEffect::NoExecute))
                if !t.key.is_empty() =>
            {
                Ok(Taint {
                    key: t.key.as_str().into(),
                    value: t.value.as_str().into(),
                    effect,
                })
            }
            _ if t.key.is_empty() => Err(at(format!("spec.taints[{i}].key"), "required".into())),
            _ => Err(at(
                format!("spec.taints[{i}].effect"),
                format!("{:?}: NoSchedule or NoExecute", t.effect),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let conditions = |field: &str, list: &[MatchCondition]| {
        list.iter()
            .enumerate()
            .map(|(i, c)| {
                let operator = Operator::parse(&c.operator).ok_or_else(|| {
                    at(
                        format!("spec.{field}[{i}].operator"),
                        format!("{:?}: In or NotIn", c.operator),
                    )
                })?;
                if c.condition_type.is_empty() {
                    return Err(at(
                        format!("spec.{field}[{i}].conditionType"),
                        "required".into(),
                    ));
                }
                Ok(taint_policy::MatchCondition {
                    condition_type: c.condition_type.clone(),
                    operator,
                    status_values: c.status_values.clone(),
                })
            })
            .collect::<Result<Vec<_>, Problem>>()
    };
    let add_on_conditions = conditions("addOnConditions", &o.spec.add_on_conditions)?;
    let remove_on_conditions = conditions("removeOnConditions", &o.spec.remove_on_conditions)?;
    if let Some(a) = &o.spec.target_clusters {
        a.validate()
            .map_err(|e| at("spec.targetClusters".into(), format!("{e}")))?;
    }
    Ok(ClusterTaintPolicy {
        name: o.metadata.name.clone(),
        target_clusters: o.spec.target_clusters.clone(),
        add_on_conditions,
        remove_on_conditions,
        taints,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn objects(text: &str) -> Vec<Object> {
        let o: super::super::objects::Objects = serde_json::from_str(text).unwrap();
        o.0
    }

    // The CRD's fields straight into the controller's policy, oldest first; a wrong operator
    // is a problem at its field and the policy is left out.
    #[test]
    fn policies_are_read_oldest_first_with_problems_at_their_fields() {
        let o = objects(
            r#"[
 {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterTaintPolicy",
  "metadata": {"name": "late", "creationTimestamp": "2026-01-02T00:00:00Z"},
  "spec": {"targetClusters": {"clusterNames": ["member2"]},
           "addOnConditions": [{"conditionType": "Ready", "operator": "NotIn", "statusValues": ["True"]}],
           "removeOnConditions": [{"conditionType": "Ready", "operator": "In", "statusValues": ["True"]}],
           "taints": [{"key": "not-ready", "effect": "NoExecute"}]}},
 {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterTaintPolicy",
  "metadata": {"name": "early", "creationTimestamp": "2026-01-01T00:00:00Z"},
  "spec": {"addOnConditions": [{"conditionType": "Ready", "operator": "In", "statusValues": ["False"]}],
           "taints": [{"key": "down", "effect": "NoSchedule"}]}},
 {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterTaintPolicy",
  "metadata": {"name": "wrong"},
  "spec": {"addOnConditions": [{"conditionType": "Ready", "operator": "Exists"}],
           "taints": [{"key": "x", "effect": "NoExecute"}]}}
]"#,
        );
        let refs: Vec<&Object> = o.iter().collect();
        let mut problems = Vec::new();
        let got = read(&refs, Version::NEWEST, &mut problems);
        let names: Vec<&str> = got.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["early", "late"]);
        let late = &got[1];
        assert_eq!(late.add_on_conditions[0].operator, Operator::NotIn);
        assert_eq!(late.remove_on_conditions[0].status_values, ["True"]);
        assert_eq!(late.taints[0].effect, TaintEffect::NoExecute);
        assert_eq!(
            late.target_clusters
                .as_ref()
                .map(|a| a.cluster_names.clone()),
            Some(alloc::vec![String::from("member2")])
        );
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].object, "ClusterTaintPolicy wrong");
        assert_eq!(problems[0].field, "spec.addOnConditions[0].operator");
        // Before 1.14 the kind does not exist.
        let mut problems = Vec::new();
        let old = Version::parse("1.13").unwrap();
        assert!(read(&refs, old, &mut problems).is_empty());
        assert_eq!(problems.len(), 3);
        assert_eq!(problems[0].field, "kind");
    }
}
