//! What a row shows when opened: a cluster's summary extras, grade counts, resource models,
//! nodes and pods; a node's taints; an eru node's NUMA, usage and disks.

use serde_json::Value;
use yew::prelude::*;

use super::models::Models;
use super::table::{col, Column, NewRow, Table};
use super::{plain, Plain};
use crate::doc;
use crate::field::Kind;
use crate::problems::SharedProblem;

/// Which details a row has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Details {
    None,
    Cluster,
    Node,
    Pod,
    EruNode,
    /// An affinity term: its overflow tiers.
    Term,
}

const PHASES: &[(&str, &str)] = &[
    ("", "Running"),
    ("Pending", "Pending"),
    ("Succeeded", "Succeeded"),
    ("Failed", "Failed"),
    ("Unknown", "Unknown"),
];

const GRADE_COUNTS: &[Column] = &[
    col("grade", "grade", Kind::Int),
    col("count", "nodes", Kind::Int),
];

const NODES: &[Column] = &[
    col("name", "node", Kind::Text),
    col("labels", "labels", Kind::Labels),
    col("allocatable", "allocatable", Kind::Amounts),
    col("unschedulable", "unschedulable", Kind::Bool),
];

const PODS: &[Column] = &[
    col("name", "pod", Kind::Text),
    col("nodeName", "node", Kind::Text),
    col("requests", "requests", Kind::Amounts),
    col("phase", "phase", Kind::Choice(PHASES)),
];

const CLUSTER_FIELDS: Plain = &[
    ("provider", "provider", Kind::Text),
    ("region", "region", Kind::Text),
    ("zones", "zones", Kind::List),
    ("overflowOrder", "overflow tier", Kind::Int),
    ("resourceSummary.allocating", "allocating", Kind::Amounts),
    (
        "resourceQuotas",
        "resource quotas (YAML or JSON)",
        Kind::Json,
    ),
    ("assumed", "assumed workloads (YAML or JSON)", Kind::Json),
];

/// A taint's effect (cluster and node taints).
pub const EFFECTS: &[(&str, &str)] = &[
    ("NoSchedule", "NoSchedule"),
    ("NoExecute", "NoExecute"),
    ("PreferNoSchedule", "PreferNoSchedule"),
];

const TAINTS: &[Column] = &[
    col("key", "key", Kind::Text),
    col("value", "value", Kind::Text),
    col("effect", "effect", Kind::Choice(EFFECTS)),
];

const APIS: &[Column] = &[
    col("groupVersion", "group/version", Kind::Text),
    col("kinds", "kinds", Kind::List),
];

/// An affinity's columns, inside a row that holds it under `affinity`.
pub const AFFINITY_ROW: &[Column] = &[
    col("affinityName", "name", Kind::Text),
    col("affinity.clusterNames", "cluster names", Kind::List),
    col("affinity.labelSelector.matchLabels", "labels", Kind::Labels),
    col("affinity.exclude", "except", Kind::List),
];

const API_COMPLETE: &[(&str, &str)] = &[
    ("", "not stated"),
    ("true", "complete list"),
    ("false", "maybe partial"),
];

const SCHEDULING_FIELDS: Plain = &[
    ("deleting", "being deleted", Kind::Bool),
    (
        "completeApiEnablements",
        "API list",
        Kind::JsonChoice(API_COMPLETE),
    ),
];

const NODE_FIELDS: Plain = &[("taints", "taints (YAML or JSON)", Kind::Json)];

const POD_FIELDS: Plain = &[
    (
        "containers",
        "containers (YAML or JSON, requests per container)",
        Kind::Json,
    ),
    (
        "initContainers",
        "init containers (YAML or JSON)",
        Kind::Json,
    ),
    ("overhead", "overhead", Kind::Amounts),
];

const ERU_FIELDS: Plain = &[
    ("numa", "NUMA: cpu=node", Kind::Labels),
    ("numaMemory", "NUMA memory", Kind::Amounts),
    ("usage.cpuMap", "CPU in use", Kind::Amounts),
    ("usage.memory", "memory in use", Kind::Quantity),
    ("usageStorage", "storage in use", Kind::Quantity),
    ("usageVolumes", "volumes in use", Kind::Amounts),
    ("gpus", "GPU cards (product=cards)", Kind::Amounts),
    ("usageGpus", "GPU cards in use", Kind::Amounts),
    ("originCpuMap", "current CPU binding", Kind::Amounts),
    ("disks", "disks (YAML or JSON)", Kind::Json),
    ("usageDisks", "disk I/O in use (YAML or JSON)", Kind::Json),
];

fn rows(row: &Value, key: &str) -> Vec<Value> {
    doc::items(row, key).to_vec()
}

impl Details {
    pub fn render(self, path: &str, row: &Value, problem: &SharedProblem) -> Html {
        let sub = |key: &str| -> AttrValue { format!("{path}.{key}").into() };
        match self {
            Details::None => Html::default(),
            Details::Node => plain(path, row, problem, NODE_FIELDS),
            Details::Pod => plain(path, row, problem, POD_FIELDS),
            Details::EruNode => plain(path, row, problem, ERU_FIELDS),
            Details::Term => html! {
                <div class="term-details">
                    <h4>{ "Overflow tiers (filled in order after this term's clusters)" }</h4>
                    <Table path={sub("overflowAffinities")} columns={AFFINITY_ROW}
                           rows={rows(row, "overflowAffinities")}
                           new_row={NewRow::Overflow} noun="overflow tier" problem={problem.clone()} />
                </div>
            },
            Details::Cluster => html! {
                <div class="cluster-details">
                    { plain(path, row, problem, CLUSTER_FIELDS) }
                    { plain(path, row, problem, SCHEDULING_FIELDS) }
                    <h4>{ "Taints" }</h4>
                    <Table path={sub("taints")} columns={TAINTS} rows={rows(row, "taints")}
                           new_row={NewRow::Taint} noun="taint" problem={problem.clone()} />
                    <h4>{ "API enablements" }</h4>
                    <Table path={sub("apiEnablements")} columns={APIS} rows={rows(row, "apiEnablements")}
                           new_row={NewRow::Api} noun="API" problem={problem.clone()} />
                    <h4>{ "Grade counts (allocatableModelings)" }</h4>
                    <Table path={sub("resourceSummary.allocatableModelings")} columns={GRADE_COUNTS}
                           rows={rows(row, "resourceSummary.allocatableModelings")}
                           new_row={NewRow::GradeCount} noun="grade count" problem={problem.clone()} />
                    <h4>{ "Resource models" }</h4>
                    <Models path={sub("resourceModels")} models={rows(row, "resourceModels")}
                            problem={problem.clone()} />
                    <h4>{ "Nodes (accurate estimator)" }</h4>
                    <Table path={sub("nodes")} columns={NODES} rows={rows(row, "nodes")}
                           new_row={NewRow::Node} noun="node" problem={problem.clone()}
                           details={Details::Node} />
                    <h4>{ "Pods" }</h4>
                    <Table path={sub("pods")} columns={PODS} rows={rows(row, "pods")}
                           new_row={NewRow::Pod} noun="pod" problem={problem.clone()}
                           details={Details::Pod} />
                </div>
            },
        }
    }
}
