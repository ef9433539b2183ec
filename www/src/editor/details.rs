//! What a row shows when opened: a cluster's summary extras, grade counts, resource models,
//! nodes and pods; a node's taints; an eru node's NUMA, usage and disks.

use serde_json::Value;
use yew::prelude::*;

use super::models::Models;
use super::table::{col, Column, NewRow, Table};
use super::{plain, Plain};
use crate::doc;
use crate::field::Kind;
use crate::state::SharedProblem;

/// Which details a row has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Details {
    None,
    Cluster,
    Node,
    Pod,
    EruNode,
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
    ("resourceQuotas", "resource quotas (JSON)", Kind::Json),
    ("assumed", "assumed workloads (JSON)", Kind::Json),
];

const NODE_FIELDS: Plain = &[("taints", "taints (JSON: key, value, effect)", Kind::Json)];

const POD_FIELDS: Plain = &[
    (
        "containers",
        "containers (JSON: requests per container)",
        Kind::Json,
    ),
    ("initContainers", "init containers (JSON)", Kind::Json),
    ("overhead", "overhead", Kind::Amounts),
];

const ERU_FIELDS: Plain = &[
    ("numa", "NUMA: cpu=node", Kind::Labels),
    ("numaMemory", "NUMA memory", Kind::Amounts),
    ("usage.cpuMap", "CPU in use", Kind::Amounts),
    ("usage.memory", "memory in use", Kind::Quantity),
    ("usageStorage", "storage in use", Kind::Quantity),
    ("usageVolumes", "volumes in use", Kind::Amounts),
    ("originCpuMap", "current CPU binding", Kind::Amounts),
    ("disks", "disks (JSON)", Kind::Json),
    ("usageDisks", "disk I/O in use (JSON)", Kind::Json),
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
            Details::Cluster => html! {
                <div class="cluster-details">
                    { plain(path, row, problem, CLUSTER_FIELDS) }
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
