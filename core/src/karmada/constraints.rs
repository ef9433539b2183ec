//! The placement rules that decide which clusters are candidates before any replica is divided
//! (docs/rules/karmada.md §12-15): cluster taints and API lists, the policy's affinity terms,
//! tolerations and spread constraints, and the binding state the scheduler reads (the observed
//! affinity term, evictions in progress, the resource's kind).

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::version::Version;
use crate::error::{indexed, Path, Result};
use crate::selector::cluster::{ClusterAffinity, ZoneIn};

/// A topology field clusters can be spread over (`spreadByField`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum SpreadField {
    Cluster,
    Region,
    Zone,
    Provider,
}

impl SpreadField {
    /// The field as Karmada writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            SpreadField::Cluster => "cluster",
            SpreadField::Region => "region",
            SpreadField::Zone => "zone",
            SpreadField::Provider => "provider",
        }
    }
}

/// One `spreadConstraints` entry. With neither `spreadByField` nor `spreadByLabel` it spreads by
/// cluster (the policy webhook's default); `minGroups: 0` means 1, as the webhook defaults it;
/// `maxGroups` has no default (0).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct SpreadConstraint {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spread_by_field: Option<SpreadField>,
    /// Spreading by a label: accepted, but Karmada's selection cannot schedule it (§14.4).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub spread_by_label: String,
    pub min_groups: u32,
    pub max_groups: u32,
}

impl SpreadConstraint {
    /// The field spread over: `None` for a label.
    pub fn field(&self) -> Option<SpreadField> {
        match (self.spread_by_field, self.spread_by_label.is_empty()) {
            (Some(f), _) => Some(f),
            (None, true) => Some(SpreadField::Cluster),
            (None, false) => None,
        }
    }

    /// As the webhook leaves it: `minGroups` 0 becomes 1.
    pub fn defaulted(&self) -> SpreadConstraint {
        SpreadConstraint {
            spread_by_field: self.field(),
            spread_by_label: self.spread_by_label.clone(),
            min_groups: self.min_groups.max(1),
            max_groups: self.max_groups,
        }
    }
}

/// An affinity with a name (an overflow tier of a term).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct NamedAffinity {
    pub affinity_name: String,
    pub affinity: ClusterAffinity,
}

/// One of `clusterAffinities`: tried in order, the first that schedules wins (§15.3); its
/// `overflowAffinities` are further tiers filled after the inline affinity (§0 step 4).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct AffinityTerm {
    pub affinity_name: String,
    pub affinity: ClusterAffinity,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overflow_affinities: Vec<NamedAffinity>,
}

/// A group-version a cluster serves and the kinds it serves there (`status.apiEnablements`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ApiEnablement {
    /// `apps/v1`, or `v1` for the core group.
    pub group_version: crate::Name,
    pub kinds: Vec<crate::Name>,
}

/// Whether a cluster serves an API (§12.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ApiStatus {
    APIEnabled,
    APIDisabled,
    APIUnknown,
}

/// The group-version Karmada compares for `apiVersion`: `g/v`, or `v` for the core group (an
/// unparseable string compares as empty).
pub fn target_group_version(api_version: &str) -> &str {
    match api_version.split_once('/') {
        None => api_version,
        Some((g, v)) if !v.contains('/') && !g.is_empty() => api_version,
        Some(("", v)) if !v.contains('/') => v,
        Some(_) => "",
    }
}

/// A cluster's status for `apiVersion`/`kind` (§12.4): enabled when listed; disabled when not
/// listed and the list is declared complete; unknown otherwise.
pub fn api_status(
    enablements: &[ApiEnablement],
    complete: Option<bool>,
    api_version: &str,
    kind: &str,
) -> ApiStatus {
    let target = target_group_version(api_version);
    let listed = enablements
        .iter()
        .any(|e| e.group_version == target && e.kinds.iter().any(|k| k == kind));
    if listed {
        ApiStatus::APIEnabled
    } else if complete == Some(true) {
        ApiStatus::APIDisabled
    } else {
        ApiStatus::APIUnknown
    }
}

/// How the placement divides replicas, as far as selection cares (§14.2, §14.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Division {
    /// `replicaScheduling` absent or Duplicated: capacity is ignored when selecting.
    Duplicated,
    /// Any other type. `ignore_spread`: static weighting, which sees every feasible cluster.
    Divided { ignore_spread: bool },
}

impl Division {
    /// What a strategy makes of spread constraints (§14.2): static weights with a rule list
    /// (or with no weight preference at all, `static_weights: None`) see every feasible
    /// cluster; an empty list does not count as static weighting.
    pub fn of(
        strategy: super::Strategy,
        static_weights: Option<&[super::StaticWeightRule]>,
    ) -> Division {
        match strategy {
            super::Strategy::Duplicated => Division::Duplicated,
            super::Strategy::StaticWeight => Division::Divided {
                ignore_spread: static_weights.is_none_or(|l| !l.is_empty()),
            },
            super::Strategy::DynamicWeight | super::Strategy::Aggregated => Division::Divided {
                ignore_spread: false,
            },
        }
    }
}

/// The placement's candidate rules, borrowed from wherever they were read.
#[derive(Debug, Clone, Copy)]
pub struct Rules<'a> {
    pub cluster_affinity: Option<&'a ClusterAffinity>,
    pub cluster_affinities: Option<&'a [AffinityTerm]>,
    pub cluster_tolerations: &'a [crate::selector::node::Toleration],
    pub spread_constraints: &'a [SpreadConstraint],
    pub division: Division,
    /// The Karmada release whose reading of them applies (docs/rules/versions.md).
    pub version: Version,
}

impl<'a> Rules<'a> {
    /// The overflow affinities of `term` as this release reads them: none before 1.18
    /// (docs/rules/versions.md "Overflow").
    pub fn overflow_affinities(&self, term: &'a AffinityTerm) -> &'a [NamedAffinity] {
        if self.version.overflow_affinities() {
            &term.overflow_affinities
        } else {
            &[]
        }
    }

    /// How `zone In` reads a cluster's zones in this release.
    pub fn zone_in(&self) -> ZoneIn {
        self.version.zone_in()
    }

    /// The term named `observed`, when the placement uses ordered terms (no `clusterAffinity`).
    pub fn observed_term(&self, observed: &str) -> Option<&'a AffinityTerm> {
        if self.cluster_affinity.is_some() {
            return None;
        }
        self.cluster_affinities?
            .iter()
            .find(|t| t.affinity_name == observed)
    }

    /// Overflow tiers are on (§15.5): ordered terms, and the observed one has overflow tiers.
    pub fn overflow(&self, observed: &str) -> bool {
        !observed.is_empty()
            && self
                .observed_term(observed)
                .is_some_and(|t| !self.overflow_affinities(t).is_empty())
    }

    /// The constraint for `field` (the last one wins), as given: callers that read policies
    /// pass constraints through [`SpreadConstraint::defaulted`] first.
    pub fn constraint(&self, field: SpreadField) -> Option<&SpreadConstraint> {
        self.spread_constraints
            .iter()
            .rev()
            .find(|c| c.field() == Some(field))
    }

    /// Validate what Karmada cannot evaluate (a selector it would never match); what its
    /// policy webhook refuses is refused before (`super::admission`). Errors are located
    /// relative to the policy (`clusterAffinity.labelSelector`).
    pub fn validate(&self) -> Result<()> {
        if let Some(a) = self.cluster_affinity {
            a.validate()
                .map_err(|e| e.within(&Path::fields("clusterAffinity")))?;
        }
        for (i, t) in self
            .cluster_affinities
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let at = || indexed("clusterAffinities", i);
            t.affinity
                .validate()
                .map_err(|e| e.within(&at().field("affinity")))?;
            for (k, o) in t.overflow_affinities.iter().enumerate() {
                o.affinity.validate().map_err(|e| {
                    e.within(&at().field("overflowAffinities").index(k).field("affinity"))
                })?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_versions() {
        assert_eq!(target_group_version("apps/v1"), "apps/v1");
        assert_eq!(target_group_version("v1"), "v1");
        assert_eq!(target_group_version("a/b/c"), "");
    }

    #[test]
    fn api_status_rules() {
        let list = [ApiEnablement {
            group_version: "apps/v1".into(),
            kinds: alloc::vec!["Deployment".into()],
        }];
        assert_eq!(
            api_status(&list, None, "apps/v1", "Deployment"),
            ApiStatus::APIEnabled
        );
        assert_eq!(
            api_status(&list, None, "apps/v1", "deployment"),
            ApiStatus::APIUnknown
        );
        assert_eq!(
            api_status(&list, Some(true), "batch/v1", "Job"),
            ApiStatus::APIDisabled
        );
        assert_eq!(
            api_status(&list, Some(false), "batch/v1", "Job"),
            ApiStatus::APIUnknown
        );
    }
}
