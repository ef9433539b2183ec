//! A workload's node claim and whether a node satisfies it (docs/rules/karmada.md §10, "Node
//! filter"): nodeSelector, required node affinity (In, NotIn, Exists, DoesNotExist, Gt, Lt),
//! the unschedulable flag, and NoSchedule/NoExecute taints against tolerations.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use compact_str::CompactString;
use serde::{Deserialize, Serialize};

use super::label::{Labels, Requirement};
use crate::error::{indexed, Error, Result};

/// A node selector operator (label selectors plus `Gt` and `Lt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeOperator {
    In,
    NotIn,
    Exists,
    DoesNotExist,
    Gt,
    Lt,
}

impl NodeOperator {
    pub fn parse(name: &str) -> Option<NodeOperator> {
        Some(match name {
            "In" => NodeOperator::In,
            "NotIn" => NodeOperator::NotIn,
            "Exists" => NodeOperator::Exists,
            "DoesNotExist" => NodeOperator::DoesNotExist,
            "Gt" => NodeOperator::Gt,
            "Lt" => NodeOperator::Lt,
            _ => return None,
        })
    }

    /// Whether a node's `labels` satisfy `r` under this operator.
    pub fn matches(self, r: &Requirement, labels: &Labels) -> bool {
        self.matches_value(r, labels.get(r.key.as_str()).map(CompactString::as_str))
    }

    /// Whether `value` (the node's value for `r.key`, `None` when it has none) satisfies `r`.
    pub fn matches_value(self, r: &Requirement, value: Option<&str>) -> bool {
        match self {
            NodeOperator::In => value.is_some_and(|v| r.values.iter().any(|x| x == v)),
            NodeOperator::NotIn => value.is_none_or(|v| r.values.iter().all(|x| x != v)),
            NodeOperator::Exists => value.is_some(),
            NodeOperator::DoesNotExist => value.is_none(),
            NodeOperator::Gt | NodeOperator::Lt => {
                let [bound] = r.values.as_slice() else {
                    return false;
                };
                let (Some(v), Ok(b)) = (
                    value.and_then(|v| v.parse::<i64>().ok()),
                    bound.parse::<i64>(),
                ) else {
                    return false;
                };
                if self == NodeOperator::Gt {
                    v > b
                } else {
                    v < b
                }
            }
        }
    }
}

/// One node selector term: the AND of its expressions. An empty term matches nothing.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct NodeSelectorTerm {
    pub match_expressions: Vec<Requirement>,
    /// Requirements on the node's fields; Kubernetes knows one, `metadata.name`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub match_fields: Vec<Requirement>,
}

impl NodeSelectorTerm {
    /// Whether the node matches: a term with no requirement matches nothing.
    fn matches(&self, node: &NodeFacts<'_>) -> bool {
        let holds = |r: &Requirement, value: Option<&str>| {
            NodeOperator::parse(&r.operator).is_some_and(|op| op.matches_value(r, value))
        };
        (!self.match_expressions.is_empty() || !self.match_fields.is_empty())
            && self.match_expressions.iter().all(|r| {
                holds(
                    r,
                    node.labels.get(r.key.as_str()).map(CompactString::as_str),
                )
            })
            && self
                .match_fields
                .iter()
                .all(|r| holds(r, (r.key == NODE_NAME_FIELD).then_some(node.name)))
    }
}

/// The one node field a `matchFields` requirement can name.
pub const NODE_NAME_FIELD: &str = "metadata.name";

/// `requiredDuringSchedulingIgnoredDuringExecution`: the OR of its terms.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct NodeSelector {
    pub node_selector_terms: Vec<NodeSelectorTerm>,
}

/// A taint's effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum TaintEffect {
    NoSchedule,
    PreferNoSchedule,
    NoExecute,
}

impl TaintEffect {
    pub const ALL: [TaintEffect; 3] = [
        TaintEffect::NoSchedule,
        TaintEffect::PreferNoSchedule,
        TaintEffect::NoExecute,
    ];

    /// The effect as Kubernetes writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            TaintEffect::NoSchedule => "NoSchedule",
            TaintEffect::PreferNoSchedule => "PreferNoSchedule",
            TaintEffect::NoExecute => "NoExecute",
        }
    }

    /// The effect Kubernetes writes as `text`.
    pub fn parse(text: &str) -> Option<TaintEffect> {
        Self::ALL.into_iter().find(|e| e.as_str() == text)
    }
}

/// A node taint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Taint {
    pub key: CompactString,
    #[serde(default)]
    pub value: CompactString,
    pub effect: TaintEffect,
}

/// A toleration operator. `Lt` and `Gt` are accepted but never tolerate (as Karmada).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum TolerationOperator {
    #[default]
    Equal,
    Exists,
    Lt,
    Gt,
}

/// A pod toleration. Empty key with `Exists` tolerates every taint; no effect means any effect.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, default)]
pub struct Toleration {
    pub key: CompactString,
    pub operator: TolerationOperator,
    pub value: CompactString,
    pub effect: Option<TaintEffect>,
}

impl Toleration {
    /// Whether this toleration tolerates `taint`.
    pub fn tolerates(&self, taint: &Taint) -> bool {
        (self.key.is_empty() || self.key == taint.key) && self.tolerates_value(taint)
    }

    /// [`Toleration::tolerates`] for a taint whose key is known to be acceptable: the effect
    /// and the value.
    pub fn tolerates_value(&self, taint: &Taint) -> bool {
        self.tolerates_effect_and(taint.effect, || self.value == taint.value)
    }

    /// [`Toleration::tolerates_value`] with the value comparison given: `same_value` says
    /// whether this toleration's value is the taint's.
    pub fn tolerates_effect_and(
        &self,
        effect: TaintEffect,
        same_value: impl FnOnce() -> bool,
    ) -> bool {
        if self.effect.is_some_and(|e| e != effect) {
            return false;
        }
        match self.operator {
            TolerationOperator::Exists => true,
            TolerationOperator::Equal => same_value(),
            TolerationOperator::Lt | TolerationOperator::Gt => false,
        }
    }
}

/// What a workload asks of a node.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct NodeClaim {
    pub node_selector: BTreeMap<String, String>,
    pub hard_node_affinity: Option<NodeSelector>,
    pub tolerations: Vec<Toleration>,
}

/// The parts of a node the claim looks at.
#[derive(Debug, Clone, Copy)]
pub struct NodeFacts<'a> {
    /// `metadata.name`, what `matchFields` reads.
    pub name: &'a str,
    pub labels: &'a Labels,
    pub taints: &'a [Taint],
    pub unschedulable: bool,
}

/// Why a node does not satisfy a claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Mismatch {
    /// `nodeSelector` wants `key=value`.
    NodeSelector { key: String, value: String },
    /// No required node affinity term matches.
    NodeAffinity,
    /// The node is cordoned and the claim does not tolerate
    /// `node.kubernetes.io/unschedulable:NoSchedule`.
    Unschedulable,
    /// A NoSchedule or NoExecute taint is not tolerated.
    Taint { key: String, effect: TaintEffect },
}

/// The taint Kubernetes puts on cordoned nodes.
pub const UNSCHEDULABLE_TAINT: &str = "node.kubernetes.io/unschedulable";

impl NodeClaim {
    /// Check operators of every affinity expression; errors are located within the claim
    /// (`hardNodeAffinity.nodeSelectorTerms[0].matchExpressions[1].operator`).
    pub fn validate(&self) -> Result<()> {
        let Some(affinity) = &self.hard_node_affinity else {
            return Ok(());
        };
        for (t, term) in affinity.node_selector_terms.iter().enumerate() {
            let lists = [
                ("matchExpressions", &term.match_expressions),
                ("matchFields", &term.match_fields),
            ];
            for (list, r, e) in lists
                .into_iter()
                .flat_map(|(list, rs)| rs.iter().enumerate().map(move |(e, r)| (list, r, e)))
            {
                if NodeOperator::parse(&r.operator).is_none() {
                    return Err(Error::UnknownValue {
                        field: indexed("hardNodeAffinity.nodeSelectorTerms", t)
                            .field(list)
                            .index(e)
                            .field("operator"),
                        value: r.operator.clone(),
                        expected: "In, NotIn, Exists, DoesNotExist, Gt, Lt",
                    });
                }
            }
        }
        Ok(())
    }

    /// `Ok(())` when the node satisfies the claim, else the first reason it does not.
    /// Unknown operators match nothing (call [`NodeClaim::validate`] to reject them).
    pub fn check(&self, node: &NodeFacts<'_>) -> core::result::Result<(), Mismatch> {
        for (k, v) in &self.node_selector {
            if node.labels.get(k.as_str()).map(CompactString::as_str) != Some(v.as_str()) {
                return Err(Mismatch::NodeSelector {
                    key: k.clone(),
                    value: v.clone(),
                });
            }
        }
        if let Some(affinity) = &self.hard_node_affinity {
            let any = affinity.node_selector_terms.iter().any(|t| t.matches(node));
            if !any {
                return Err(Mismatch::NodeAffinity);
            }
        }
        if node.unschedulable {
            let cordon = Taint {
                key: UNSCHEDULABLE_TAINT.into(),
                value: CompactString::default(),
                effect: TaintEffect::NoSchedule,
            };
            if !self.tolerations.iter().any(|t| t.tolerates(&cordon)) {
                return Err(Mismatch::Unschedulable);
            }
        }
        for taint in node.taints {
            if taint.effect == TaintEffect::PreferNoSchedule {
                continue;
            }
            if !self.tolerations.iter().any(|t| t.tolerates(taint)) {
                return Err(Mismatch::Taint {
                    key: taint.key.as_str().into(),
                    effect: taint.effect,
                });
            }
        }
        Ok(())
    }

    /// Whether the node satisfies the claim.
    pub fn matches(&self, node: &NodeFacts<'_>) -> bool {
        self.check(node).is_ok()
    }
}

impl Mismatch {
    /// A sentence for the trace.
    pub fn describe(&self) -> String {
        match self {
            Mismatch::NodeSelector { key, value } => {
                format!("nodeSelector wants {key}={value}")
            }
            Mismatch::NodeAffinity => String::from("no required node affinity term matches"),
            Mismatch::Unschedulable => String::from("the node is cordoned (unschedulable)"),
            Mismatch::Taint { key, effect } => format!("taint {key}:{effect:?} is not tolerated"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        pairs.iter().map(|&(k, v)| (k.into(), v.into())).collect()
    }

    fn req(key: &str, op: &str, values: &[&str]) -> Requirement {
        Requirement {
            key: key.into(),
            operator: op.into(),
            values: values.iter().map(|&v| v.into()).collect(),
        }
    }

    fn affinity(terms: Vec<Vec<Requirement>>) -> NodeClaim {
        NodeClaim {
            hard_node_affinity: Some(NodeSelector {
                node_selector_terms: terms
                    .into_iter()
                    .map(|e| NodeSelectorTerm {
                        match_expressions: e,
                        match_fields: Vec::new(),
                    })
                    .collect(),
            }),
            ..NodeClaim::default()
        }
    }

    #[test]
    fn match_fields_read_the_node_name() {
        let term = |fields: Vec<Requirement>| NodeClaim {
            hard_node_affinity: Some(NodeSelector {
                node_selector_terms: alloc::vec![NodeSelectorTerm {
                    match_expressions: Vec::new(),
                    match_fields: fields,
                }],
            }),
            ..NodeClaim::default()
        };
        let l = labels(&[("metadata.name", "other")]);
        let node = facts(&l);
        assert!(term(alloc::vec![req("metadata.name", "In", &["node"])]).matches(&node));
        assert!(!term(alloc::vec![req("metadata.name", "In", &["other"])]).matches(&node));
        assert!(term(alloc::vec![req("metadata.name", "NotIn", &["other"])]).matches(&node));
        // Only metadata.name is a field: any other key has no value.
        assert!(!term(alloc::vec![req("metadata.namespace", "Exists", &[])]).matches(&node));
        // A term with no requirement at all matches nothing.
        assert!(!term(Vec::new()).matches(&node));
        let bad = term(alloc::vec![req("metadata.name", "Near", &["node"])]);
        assert_eq!(
            bad.validate().unwrap_err().field(),
            "hardNodeAffinity.nodeSelectorTerms[0].matchFields[0].operator"
        );
    }

    fn facts(l: &Labels) -> NodeFacts<'_> {
        NodeFacts {
            name: "node",
            labels: l,
            taints: &[],
            unschedulable: false,
        }
    }

    #[test]
    fn operators() {
        let l = labels(&[("zone", "a"), ("cores", "8")]);
        let m = |r: Requirement| affinity(vec![vec![r]]).matches(&facts(&l));
        assert!(m(req("zone", "In", &["a", "b"])));
        assert!(!m(req("zone", "NotIn", &["a"])));
        assert!(m(req("gpu", "NotIn", &["x"])));
        assert!(m(req("zone", "Exists", &[])));
        assert!(m(req("gpu", "DoesNotExist", &[])));
        assert!(m(req("cores", "Gt", &["4"])));
        assert!(!m(req("cores", "Lt", &["4"])));
        assert!(!m(req("cores", "Gt", &["4", "5"])));
        assert!(!m(req("zone", "Gt", &["4"])));
        assert!(!m(req("cores", "Gt", &["x"])));
        // OR of terms; an empty term matches nothing.
        assert!(!affinity(vec![vec![]]).matches(&facts(&l)));
        assert!(affinity(vec![vec![], vec![req("zone", "In", &["a"])]]).matches(&facts(&l)));
        assert!(!affinity(vec![]).matches(&facts(&l)));
    }

    #[test]
    fn unknown_operator_is_an_error() {
        let c = affinity(vec![vec![req("zone", "Near", &["a"])]]);
        let e = c.validate().unwrap_err().within(&"claim".into());
        assert_eq!(e.code(), "unknown_value");
        assert_eq!(
            e.field(),
            "claim.hardNodeAffinity.nodeSelectorTerms[0].matchExpressions[0].operator"
        );
    }

    #[test]
    fn taints_and_tolerations() {
        let l = Labels::new();
        let taints = [Taint {
            key: "gpu".into(),
            value: "yes".into(),
            effect: TaintEffect::NoSchedule,
        }];
        let node = NodeFacts {
            name: "node",
            labels: &l,
            taints: &taints,
            unschedulable: false,
        };
        let tol = |key: &str, op, value: &str, effect| NodeClaim {
            tolerations: vec![Toleration {
                key: key.into(),
                operator: op,
                value: value.into(),
                effect,
            }],
            ..NodeClaim::default()
        };
        use TolerationOperator::*;
        assert!(!NodeClaim::default().matches(&node));
        assert!(tol("gpu", Equal, "yes", None).matches(&node));
        assert!(!tol("gpu", Equal, "no", None).matches(&node));
        assert!(tol("gpu", Exists, "", Some(TaintEffect::NoSchedule)).matches(&node));
        assert!(!tol("gpu", Exists, "", Some(TaintEffect::NoExecute)).matches(&node));
        assert!(tol("", Exists, "", None).matches(&node));
        assert!(!tol("gpu", Gt, "yes", None).matches(&node));
        let soft = [Taint {
            key: "x".into(),
            value: CompactString::default(),
            effect: TaintEffect::PreferNoSchedule,
        }];
        assert!(NodeClaim::default().matches(&NodeFacts {
            name: "node",
            labels: &l,
            taints: &soft,
            unschedulable: false
        }));
        let cordoned = NodeFacts {
            name: "node",
            labels: &l,
            taints: &[],
            unschedulable: true,
        };
        assert_eq!(
            NodeClaim::default().check(&cordoned),
            Err(Mismatch::Unschedulable)
        );
        assert!(tol(
            UNSCHEDULABLE_TAINT,
            Exists,
            "",
            Some(TaintEffect::NoSchedule)
        )
        .matches(&cordoned));
    }
}
