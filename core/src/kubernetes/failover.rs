//! A PropagationPolicy's or ClusterPropagationPolicy's `spec.failover.cluster` (from Karmada
//! 1.15) read straight into the fleet's [`ClusterFailover`] (docs/rules/fleet.md §25.3):
//! `purgeMode` (Directly or Gracefully, the CRD's default Gracefully) and the
//! `statePreservation` rules' label names. A value the CRD refuses is a problem at that field.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::fleet::Problem;
use super::objects::Object;
use crate::karmada::fleet::entry::ClusterFailover;
use crate::karmada::fleet::eviction::PurgeMode;
use crate::karmada::version::Version;

/// `spec.failover` as written (its `application` part is read by [`super::app_failover`]).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Failover {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<ClusterBehavior>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub application: Option<super::app_failover::Application>,
}

/// `spec.failover.cluster` as written.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClusterBehavior {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub purge_mode: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_preservation: Option<StatePreservation>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StatePreservation {
    pub rules: Vec<StatePreservationRule>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StatePreservationRule {
    pub alias_label_name: String,
    #[serde(rename = "jsonPath")]
    pub json_path: String,
}

/// The policy `p`'s `spec.failover.cluster`; absent: none. A `purgeMode` other than Directly
/// or Gracefully is a problem, and read as the default; a release before 1.15 has no such
/// field (a problem, and none).
pub fn cluster(
    p: &Object,
    version: Version,
    problems: &mut Vec<Problem>,
) -> Option<ClusterFailover> {
    let c = p.spec.failover.as_ref()?.cluster.as_ref()?;
    if !version.at_least(15, 0) {
        let message = format!("Karmada {version} has no failover.cluster (from 1.15): not read");
        problems.push(Problem::at(p, "spec.failover.cluster", message));
        return None;
    }
    let purge_mode = if c.purge_mode.is_empty() {
        PurgeMode::Gracefully
    } else {
        PurgeMode::parse(&c.purge_mode).unwrap_or_else(|| {
            problems.push(Problem::at(
                p,
                "spec.failover.cluster.purgeMode",
                format!(
                    "{:?}: Directly or Gracefully; read as Gracefully",
                    c.purge_mode
                ),
            ));
            PurgeMode::Gracefully
        })
    };
    let preserved_labels = c
        .state_preservation
        .iter()
        .flat_map(|s| &s.rules)
        .map(|r| r.alias_label_name.clone())
        .collect();
    Some(ClusterFailover {
        purge_mode,
        preserved_labels,
    })
}
