//! The score plugins (docs/rules/karmada.md §13): ClusterLocality gives 100 to clusters in the
//! previous result (when there is one), ClusterAffinity always 0; a cluster's score is the sum
//! over the enabled plugins, every weight being 1.

use alloc::collections::BTreeMap;
use alloc::string::String;

use serde::Serialize;

use super::plugins::{Plugin, PluginSet};

/// The highest score a plugin gives.
pub const MAX_CLUSTER_SCORE: i64 = 100;

/// One cluster's scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Scores {
    /// `None`: the plugin is disabled.
    pub cluster_locality: Option<i64>,
    pub cluster_affinity: Option<i64>,
    pub total: i64,
}

/// A plugin's score for `cluster`, given the previous result.
pub fn score(plugin: Plugin, previous: &BTreeMap<String, i64>, cluster: &str) -> i64 {
    score_placed(plugin, previous.contains_key(cluster))
}

/// A plugin's score for a cluster that is (`placed`) or is not in the previous result.
pub fn score_placed(plugin: Plugin, placed: bool) -> i64 {
    match plugin {
        Plugin::ClusterLocality if placed => MAX_CLUSTER_SCORE,
        _ => 0,
    }
}

/// Whether a score plugin has a normalization step (ClusterAffinity's changes nothing).
pub fn has_normalize(plugin: Plugin) -> bool {
    plugin == Plugin::ClusterAffinity
}

/// Every enabled score plugin on a cluster that is (`placed`) or is not in the previous result.
pub fn scores(plugins: &PluginSet, placed: bool) -> Scores {
    let one = |p: Plugin| plugins.enabled(p).then(|| score_placed(p, placed));
    let (l, a) = (one(Plugin::ClusterLocality), one(Plugin::ClusterAffinity));
    Scores {
        cluster_locality: l,
        cluster_affinity: a,
        total: l.unwrap_or(0) + a.unwrap_or(0),
    }
}
