//! eru editors: the workload (count, requests, limits, CPU binding, volumes, GPU cards), the
//! strategy with its nodes limit, and the nodes (CPU map, memory, storage, volumes, GPU cards,
//! instances; opened: NUMA, usage, disks).

use allot_core::eru::strategy::Strategy;
use serde_json::Value;
use yew::prelude::*;

use super::details::Details;
use super::table::{col, Column, NewRow};
use super::{options, Fields, Plain, Targets};
use crate::field::Kind;
use crate::problems::SharedProblem;

/// eru's deploy strategies, as `policy.strategy` names them.
pub const STRATEGIES: &[(&str, &str)] = &options!(Strategy, "AUTO (default)", strategy);

const fn strategy(s: Strategy) -> &'static str {
    match s {
        Strategy::Auto => "AUTO (Communism: fewest first)",
        Strategy::Fill => "FILL (each up to the count)",
        Strategy::Each => "EACH (count on every node)",
        Strategy::Global => "GLOBAL (even out usage)",
        Strategy::Drained => "DRAINED (empty first)",
    }
}

const WORKLOAD: Plain = &[
    ("count", "instances to deploy", Kind::Int),
    ("requests", "requests (cpu, memory, storage)", Kind::Amounts),
    ("limits", "limits (cpu, memory)", Kind::Amounts),
    ("cpuBind", "bind CPUs", Kind::Bool),
    ("volumes", "volumes (src:dst:flags:size)", Kind::List),
    ("gpus", "GPU cards (product=cards)", Kind::Amounts),
];

const POLICY: Plain = &[
    ("strategy", "strategy", Kind::Choice(STRATEGIES)),
    ("nodesLimit", "nodes limit (0: none)", Kind::Int),
    (
        "maxDeployCount",
        "max instances per node (storage)",
        Kind::Int,
    ),
    ("cpumem.shareBase", "pieces per core (100)", Kind::Int),
    (
        "cpumem.maxShare",
        "max fragment cores (-1: none)",
        Kind::Int,
    ),
];

const NODES: &[Column] = &[
    col("name", "node", Kind::Text),
    col("cpuMap", "CPU map (core=share)", Kind::Amounts),
    col("memory", "memory", Kind::Quantity),
    col("storage", "storage", Kind::Quantity),
    col("volumes", "volumes", Kind::Amounts),
    col("count", "instances", Kind::Int),
];

/// The workload section.
pub const WORKLOAD_SECTION: Fields = Fields {
    title: "Workload",
    key: "workload",
    fields: WORKLOAD,
    shown: WORKLOAD.len(),
};

/// The strategy section.
pub const POLICY_SECTION: Fields = Fields {
    title: "Strategy",
    key: "policy",
    fields: POLICY,
    shown: POLICY.len(),
};

/// The strategy alone.
pub const STRATEGY: Plain = &[("strategy", "strategy", Kind::Choice(STRATEGIES))];

/// The nodes' table.
pub const NODE_TABLE: Targets = Targets {
    title: "Nodes",
    key: "nodes",
    columns: NODES,
    new_row: NewRow::EruNode,
    noun: "node",
    details: Details::EruNode,
};

pub fn editors(d: &Value, problem: &SharedProblem) -> Html {
    html! { <>{ WORKLOAD_SECTION.view(d, problem) }{ POLICY_SECTION.view(d, problem) }{ NODE_TABLE.view(d, problem) }</> }
}
