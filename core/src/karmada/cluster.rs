//! Karmada's member clusters (docs/rules/karmada.md §12, §16.2): each cluster's facts as the
//! filters, the scores, selection and the estimators read them ([`Member`]: labels, provider,
//! region and zones, taints, API enablements, resource summary and models, nodes and pods,
//! deletion), and the set of them a binding is scheduled against, built once ([`Clusters`]),
//! with what scheduling changes of each cluster ([`Capacity`]: the summary compiled, assumed
//! workloads, stated replicas) held apart, so that one cluster's can change without building
//! the set again.

use alloc::format;
use alloc::vec::Vec;
use core::borrow::Borrow;
use core::cell::{OnceCell, RefCell};

use serde::{Deserialize, Serialize};

use super::compiled::Compiled;
use super::constraints::ApiEnablement;
use super::estimates::GeneralMemo;
use crate::error::{indexed, Error, ErrorCode, Result};
use crate::estimate::accurate::{Node, Pod};
use crate::estimate::general::ResourceSummary;
use crate::estimate::models::ResourceModel;
use crate::estimate::quota::ResourceQuota;
use crate::estimate::summary::Summary;
use crate::estimate::AssumedWorkload;
use crate::names::NameIndex;
use crate::selector::cluster::ClusterFacts;
use crate::selector::label::Labels;
use crate::selector::node::Taint;
use crate::Name;

/// A Karmada member cluster with whatever its estimators look at.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "Cluster"))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Member {
    pub name: Name,
    #[serde(skip_serializing_if = "Labels::is_empty")]
    #[serde(default)]
    pub labels: Labels,
    #[serde(skip_serializing_if = "Name::is_empty")]
    #[serde(default)]
    pub provider: Name,
    #[serde(skip_serializing_if = "Name::is_empty")]
    #[serde(default)]
    pub region: Name,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(default)]
    pub zones: Vec<Name>,
    /// Shorthand static weight: the cluster's own rule. Either every weighted cluster says it
    /// here or `policy.staticWeights` lists rules, not both.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub weight: Option<i64>,
    /// Overflow tier (lower first), used when `policy.overflow` is on.
    #[serde(skip_serializing_if = "is_zero")]
    #[serde(default)]
    pub overflow_order: i64,
    /// Replicas the cluster can take, as stated (an estimator answer named `given`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub available_replicas: Option<i64>,
    /// `status.resourceSummary`: the general estimator's input.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub resource_summary: Option<ResourceSummary>,
    /// `spec.resourceModels`: grades for the summary's `allocatableModelings`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(default)]
    pub resource_models: Vec<ResourceModel>,
    /// Nodes: the accurate estimator's input.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub nodes: Option<Vec<Node>>,
    /// Pods bound to those nodes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(default)]
    pub pods: Vec<Pod>,
    /// ResourceQuotas of the workload's namespace (the accurate estimator's quota plugin).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(default)]
    pub resource_quotas: Vec<ResourceQuota>,
    /// Workloads scheduled here but not yet running (SchedulingOvercommitProtection).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(default)]
    pub assumed: Vec<AssumedWorkload>,
    /// `spec.taints`: `NoSchedule` and `NoExecute` taints keep new placements out unless the
    /// policy tolerates them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(default)]
    pub taints: Vec<Taint>,
    /// `status.apiEnablements`: the APIs the cluster serves (read when the workload states its
    /// `apiVersion` and `kind`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(default)]
    pub api_enablements: Vec<ApiEnablement>,
    /// The `CompleteAPIEnablements` condition: `true` when `apiEnablements` is the complete
    /// list; absent when the cluster does not say.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub complete_api_enablements: Option<bool>,
    /// Being deleted (`metadata.deletionTimestamp` set): never a candidate.
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    #[serde(default)]
    pub deleting: bool,
}

impl Member {
    /// What affinities and spreading read of the cluster.
    pub fn facts(&self) -> ClusterFacts<'_> {
        crate::selector::cluster::facts_of!(self)
    }

    /// Whether the cluster states a fact of the steps before the division (taints, API
    /// enablements, deletion). Every field is named, so a new one is a compile error here until
    /// it is said whether it engages those steps.
    pub fn engaged(&self) -> bool {
        let Member {
            name: _,
            labels: _,
            provider: _,
            region: _,
            zones: _,
            weight: _,
            overflow_order: _,
            available_replicas: _,
            resource_summary: _,
            resource_models: _,
            nodes: _,
            pods: _,
            resource_quotas: _,
            assumed: _,
            taints,
            api_enablements,
            complete_api_enablements,
            deleting,
        } = self;
        !taints.is_empty()
            || !api_enablements.is_empty()
            || complete_api_enablements.is_some()
            || *deleting
    }
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// What the estimators read of a cluster that scheduling changes: its resource summary
/// (compiled, [`Summary`]), the workloads assumed on it, and the replicas it states it can
/// take. Held by [`Clusters`] beside the members, one per cluster, each replaceable alone.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Capacity {
    /// `status.resourceSummary`; `None`: the cluster reports none.
    pub summary: Option<Summary>,
    /// Workloads scheduled here but not yet running.
    pub assumed: Vec<AssumedWorkload>,
    /// `availableReplicas` as stated.
    pub available_replicas: Option<i64>,
}

impl Capacity {
    /// The member's capacity as it states it.
    pub fn of(m: &Member) -> Self {
        Capacity {
            summary: m.resource_summary.as_ref().map(Summary::of),
            assumed: m.assumed.clone(),
            available_replicas: m.available_replicas,
        }
    }
}

/// The clusters of a set in listed order, wherever they are kept: a slice's own methods, each
/// answering the member itself.
#[derive(Debug, Clone, Copy)]
pub struct Members<'a>(&'a [&'a Member]);

impl<'a> Members<'a> {
    pub fn new(members: &'a [&'a Member]) -> Self {
        Members(members)
    }

    pub fn len(self) -> usize {
        self.0.len()
    }

    pub fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// The cluster at `i`.
    pub fn get(self, i: usize) -> Option<&'a Member> {
        self.0.get(i).copied()
    }

    pub fn iter(self) -> core::iter::Copied<core::slice::Iter<'a, &'a Member>> {
        self.0.iter().copied()
    }
}

/// The clusters one binding (or many) is scheduled against, in listed order, with their
/// names indexed once (when first looked up: a binding without a previous result never
/// looks a name up), and each cluster's [`Capacity`] compiled once for every binding
/// scheduled against the set.
pub struct Clusters<'a> {
    names: OnceCell<NameIndex<'a>>,
    engaged: bool,
    compiled: Compiled<'a>,
    capacity: Vec<Capacity>,
    /// Karmada's default grades, for every cluster that states none (made when first read).
    default_models: OnceCell<Vec<ResourceModel>>,
    /// The general estimator's last answers over the set, forgotten when a capacity changes.
    general: RefCell<Option<GeneralMemo>>,
    /// The estimators' check of the set's sizes, made once ([`Clusters::sizes`]).
    sizes: OnceCell<Result<()>>,
    /// Whether some cluster lists its nodes, found once.
    lists_nodes: OnceCell<bool>,
}

impl<'a> Clusters<'a> {
    /// The set of `members`, in listed order: a scenario's list of clusters, or a fleet's
    /// shared ones (`Rc<Member>`).
    pub fn new<M: Borrow<Member>>(members: &'a [M]) -> Self {
        let members: Vec<&'a Member> = members.iter().map(Borrow::borrow).collect();
        Clusters {
            names: OnceCell::new(),
            engaged: members.iter().any(|m| m.engaged()),
            capacity: members.iter().map(|m| Capacity::of(m)).collect(),
            compiled: Compiled::new(members),
            default_models: OnceCell::new(),
            general: RefCell::new(None),
            sizes: OnceCell::new(),
            lists_nodes: OnceCell::new(),
        }
    }

    /// `check` of the members' sizes, made once for the set: every binding scheduled against
    /// it reads the same answer.
    pub fn sizes(&self, check: impl FnOnce(Members<'_>) -> Result<()>) -> Result<()> {
        self.sizes.get_or_init(|| check(self.members())).clone()
    }

    /// Whether some cluster lists its nodes (the accurate estimator's input).
    pub fn lists_nodes(&self) -> bool {
        *self
            .lists_nodes
            .get_or_init(|| self.members().iter().any(|t| t.nodes.is_some()))
    }

    /// The resource models Karmada's defaulting gives a cluster that states none
    /// ([`crate::estimate::models::default_models`]), made once for the set.
    pub fn default_models(&self) -> &[ResourceModel] {
        self.default_models
            .get_or_init(crate::estimate::models::default_models)
    }

    /// Read or replace the general estimator's last answers over the set
    /// ([`GeneralMemo`]); `None` while another call holds them.
    pub fn general_memo<T>(&self, f: impl FnOnce(&mut Option<GeneralMemo>) -> T) -> Option<T> {
        self.general.try_borrow_mut().ok().map(|mut m| f(&mut m))
    }

    /// The clusters, in listed order.
    pub fn members(&self) -> Members<'_> {
        self.compiled.members()
    }

    pub fn len(&self) -> usize {
        self.members().len()
    }

    pub fn is_empty(&self) -> bool {
        self.members().is_empty()
    }

    /// The position of the cluster named `name` (the last, when a name is listed twice).
    pub fn position(&self, name: &str) -> Option<usize> {
        self.names
            .get_or_init(|| NameIndex::new(self.compiled.listed().iter().map(|m| m.name.as_str())))
            .get(name)
    }

    /// Whether some cluster states a fact of the steps before the division ([`Member::engaged`]).
    pub fn engaged(&self) -> bool {
        self.engaged
    }

    /// The facts the filters read, compiled ([`Compiled`]).
    pub fn compiled(&self) -> &Compiled<'a> {
        &self.compiled
    }

    /// Each cluster's capacity, in listed order.
    pub fn capacities(&self) -> &[Capacity] {
        &self.capacity
    }

    /// Replace the capacity of the cluster at `index` (what a decision consumed, a new
    /// summary): the next binding scheduled against the set reads it. The other clusters are
    /// left as compiled.
    pub fn set_capacity(&mut self, index: usize, capacity: Capacity) -> Result<()> {
        *self.capacity_at(index)? = capacity;
        Ok(())
    }

    /// Replace the resource summary of the cluster at `index` ([`Clusters::set_capacity`]).
    pub fn set_summary(&mut self, index: usize, summary: Option<&ResourceSummary>) -> Result<()> {
        self.capacity_at(index)?.summary = summary.map(Summary::of);
        Ok(())
    }

    /// Replace the workloads assumed on the cluster at `index` ([`Clusters::set_capacity`]).
    pub fn set_assumed(&mut self, index: usize, assumed: Vec<AssumedWorkload>) -> Result<()> {
        self.capacity_at(index)?.assumed = assumed;
        Ok(())
    }

    fn capacity_at(&mut self, index: usize) -> Result<&mut Capacity> {
        // Every estimate read the capacity about to change.
        *self.general.get_mut() = None;
        self.capacity.get_mut(index).ok_or_else(|| Error::Input {
            field: indexed("clusters", index),
            code: ErrorCode::InvalidInput,
            reason: format!("no cluster at position {index}"),
        })
    }
}
