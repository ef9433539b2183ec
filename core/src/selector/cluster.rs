//! Karmada cluster affinity (docs/rules/karmada.md §9): which clusters a static weight rule's
//! `targetCluster` selects, by names, excluded names, label selector and field selector
//! (`provider`, `region`, `zone`).

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::label::{LabelSelector, Labels, Operator, Requirement};
use crate::error::{indexed, Error, Path, Result};

/// What the matcher needs to know of a cluster.
#[derive(Debug, Clone, Copy)]
pub struct ClusterFacts<'a> {
    pub name: &'a str,
    pub labels: &'a Labels,
    pub provider: &'a str,
    pub region: &'a str,
    pub zones: &'a [crate::Name],
}

/// How `zone In` reads a cluster's zones (docs/rules/versions.md "Zones").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ZoneIn {
    /// One of the cluster's zones is listed (Karmada 1.18 and later).
    #[default]
    Any,
    /// Every one of the cluster's zones is listed (before 1.18).
    Every,
}

/// The [`ClusterFacts`] of a value with the fields `name`, `labels`, `provider`, `region` and
/// `zones` (a member cluster, a division candidate).
macro_rules! facts_of {
    ($c:expr) => {
        $crate::selector::cluster::ClusterFacts {
            name: &$c.name,
            labels: &$c.labels,
            provider: &$c.provider,
            region: &$c.region,
            zones: &$c.zones,
        }
    };
}
pub(crate) use facts_of;

/// `fieldSelector`: requirements on `provider`, `region` and `zone`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct FieldSelector {
    pub match_expressions: Vec<Requirement>,
}

/// A ClusterAffinity. Empty matches every cluster.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ClusterAffinity {
    pub cluster_names: Vec<String>,
    pub exclude: Vec<String>,
    pub label_selector: Option<LabelSelector>,
    pub field_selector: Option<FieldSelector>,
}

const FIELD_KEYS: &str = "provider, region, zone";

impl ClusterAffinity {
    /// Reject selectors Karmada would silently never match: invalid label selectors, field keys
    /// other than provider/region/zone, bad operators or values.
    /// Errors are located within the affinity (`labelSelector.matchLabels.app`).
    pub fn validate(&self) -> Result<()> {
        if let Some(ls) = &self.label_selector {
            ls.validate()
                .map_err(|e| e.within(&Path::fields("labelSelector")))?;
        }
        if let Some(fs) = &self.field_selector {
            for (i, r) in fs.match_expressions.iter().enumerate() {
                let at = || indexed("fieldSelector.matchExpressions", i);
                if !matches!(r.key.as_str(), "provider" | "region" | "zone") {
                    return Err(Error::UnknownValue {
                        field: at().field("key"),
                        value: r.key.clone(),
                        expected: FIELD_KEYS,
                    });
                }
                r.validate().map_err(|e| e.within(&at()))?;
            }
        }
        Ok(())
    }

    /// Whether the affinity selects `cluster`, `zone In` read as `zones` says; invalid
    /// selectors match nothing (as Karmada).
    pub fn matches(&self, cluster: &ClusterFacts<'_>, zones: ZoneIn) -> bool {
        let labels_ok = self
            .label_selector
            .as_ref()
            .is_none_or(|ls| ls.validate().is_ok());
        labels_ok && self.matches_validated(cluster, zones)
    }

    /// [`ClusterAffinity::matches`] for an affinity already validated.
    pub fn matches_validated(&self, cluster: &ClusterFacts<'_>, zones: ZoneIn) -> bool {
        if self.exclude.iter().any(|n| n == cluster.name) {
            return false;
        }
        if let Some(ls) = &self.label_selector {
            if !ls.matches_validated(cluster.labels) {
                return false;
            }
        }
        if let Some(fs) = &self.field_selector {
            if !fs
                .match_expressions
                .iter()
                .all(|r| field_matches(r, cluster, zones))
            {
                return false;
            }
        }
        self.cluster_names.is_empty() || self.cluster_names.iter().any(|n| n == cluster.name)
    }
}

fn field_matches(r: &Requirement, cluster: &ClusterFacts<'_>, zones: ZoneIn) -> bool {
    match r.key.as_str() {
        "zone" => match_zones(&r.operator, &r.values, cluster.zones, zones),
        "provider" | "region" => {
            let Ok(op) = r.validate() else { return false };
            // The field as a label of its name, absent when empty.
            let field = if r.key == "provider" {
                cluster.provider
            } else {
                cluster.region
            };
            r.matches_value(op, (!field.is_empty()).then_some(field))
        }
        _ => false,
    }
}

/// The `zone` field against a cluster's zones: In needs zones and an overlap (or, as `how`
/// says, every zone listed), NotIn no overlap, Exists some zone, DoesNotExist none; any other
/// operator never matches.
pub fn match_zones(operator: &str, values: &[String], zones: &[crate::Name], how: ZoneIn) -> bool {
    let listed = |z: &crate::Name| values.iter().any(|v| v == z);
    match Operator::parse(operator) {
        Some(Operator::In) => {
            !zones.is_empty()
                && match how {
                    ZoneIn::Any => zones.iter().any(listed),
                    ZoneIn::Every => zones.iter().all(listed),
                }
        }
        Some(Operator::NotIn) => !zones.iter().any(|z| values.iter().any(|v| v == z)),
        Some(Operator::Exists) => !zones.is_empty(),
        Some(Operator::DoesNotExist) => zones.is_empty(),
        None => false,
    }
}
