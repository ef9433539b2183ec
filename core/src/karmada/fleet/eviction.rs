//! The NoExecute taint manager and graceful eviction tasks (docs/rules/fleet.md §25), as
//! `syncBindingEviction` and `needEvictionWithCurrentTime`
//! (pkg/controllers/cluster/taint_manager.go), `GracefulEvictCluster`
//! (pkg/apis/work/v1alpha2/binding_types_helper.go) and `assessSingleTask`
//! (pkg/controllers/gracefuleviction/evictiontask.go) decide.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::entry::{Entry, EvictionTask};
use super::health::Health;
use crate::karmada::cluster::Member;
use crate::selector::node::TaintEffect;

/// When a binding placed on a NoExecute-tainted cluster is evicted from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "when", content = "at")]
pub enum Due {
    /// Some NoExecute taint is tolerated by none of the tolerations: now.
    Now,
    /// The earliest `timeAdded + tolerationSeconds` of the tolerations used.
    At(i64),
    /// Every NoExecute taint tolerated with no `tolerationSeconds` (or a taint without
    /// `timeAdded`): never.
    Never,
}

/// When `e` is evicted from the cluster `m` (with health `h`); `None` when the cluster has no
/// NoExecute taint, or the binding has no applied placement (Karmada's taint manager then
/// fails on it and evicts nothing). The tolerations are the applied placement's (§25.2 rule
/// 2): `GetMatchingTolerations` picks, per NoExecute taint, the first toleration of it (none:
/// evict now); `GetMinTolerationTimeWithCurrentTime` takes the earliest `timeAdded +
/// tolerationSeconds` over every pair of a used toleration with seconds and a timed taint it
/// tolerates (none: never).
pub fn due(e: &Entry, m: &Member, h: &Health) -> Option<Due> {
    let applied = e.state.applied.as_ref()?;
    let taints: Vec<_> = m
        .taints
        .iter()
        .filter(|t| t.effect == TaintEffect::NoExecute)
        .collect();
    if taints.is_empty() {
        return None;
    }
    let mut used = Vec::with_capacity(taints.len());
    for taint in &taints {
        match applied
            .timed_tolerations()
            .find(|(t, _)| t.tolerates(taint))
        {
            Some(pair) => used.push(pair),
            None => return Some(Due::Now),
        }
    }
    let earliest = used
        .iter()
        .filter_map(|&(t, seconds)| Some((t, seconds?)))
        .flat_map(|(t, seconds)| {
            taints.iter().filter_map(move |taint| {
                let added = h.added_at(&taint.key, taint.effect)?;
                t.tolerates(taint).then(|| added.saturating_add(seconds))
            })
        })
        .min();
    Some(earliest.map_or(Due::Never, Due::At))
}

/// Evict `e` from `cluster` (`GracefulEvictCluster`): the entry leaves `spec.clusters`, and a
/// graceful eviction task is appended unless one for the cluster exists. Answers whether the
/// binding changed.
pub fn evict(e: &mut Entry, cluster: &str, now: i64) -> bool {
    let task = EvictionTask {
        from_cluster: String::from(cluster),
        replicas: e.state.clusters.get(cluster).copied().filter(|&r| r > 0),
        created_at: now,
        ..EvictionTask::default()
    };
    evict_with(e, cluster, task)
}

/// `GracefulEvictCluster` with the task its caller built: the cluster leaves `spec.clusters`
/// and `task` is appended unless a task for the cluster exists. Answers whether the binding
/// changed.
pub fn evict_with(e: &mut Entry, cluster: &str, task: EvictionTask) -> bool {
    if e.state.clusters.remove(cluster).is_none() {
        return false;
    }
    if !e.state.evictions.iter().any(|t| t.from_cluster == cluster) {
        e.state.evictions.push(task);
    }
    true
}

/// Remove the tasks whose timeout has passed (`--graceful-eviction-timeout`, §25.4); answers
/// the clusters whose tasks ended.
pub fn expire(e: &mut Entry, timeout: i64, now: i64) -> Vec<String> {
    let mut ended = Vec::new();
    e.state.evictions.retain(|t| {
        let done = t.created_at.saturating_add(timeout) <= now;
        if done {
            ended.push(t.from_cluster.clone());
        }
        !done
    });
    ended
}
