//! eru editors: the workload (count, requests, limits, CPU binding, volumes), the strategy with
//! its nodes limit, and the nodes (CPU map, memory, storage, volumes, instances; opened: NUMA,
//! usage, disks).

use serde_json::Value;
use yew::prelude::*;

use super::details::Details;
use super::table::{col, Column, NewRow, Table};
use super::{common, section, Plain};
use crate::doc;
use crate::field::Kind;
use crate::state::SharedProblem;

/// eru's deploy strategies, as `policy.strategy` names them.
pub const STRATEGIES: &[(&str, &str)] = &[
    ("", "AUTO (default)"),
    ("AUTO", "AUTO (Communism: fewest first)"),
    ("FILL", "FILL (each up to the count)"),
    ("EACH", "EACH (count on every node)"),
    ("GLOBAL", "GLOBAL (even out usage)"),
    ("DRAINED", "DRAINED (empty first)"),
];

const WORKLOAD: Plain = &[
    ("count", "instances to deploy", Kind::Int),
    ("requests", "requests (cpu, memory, storage)", Kind::Amounts),
    ("limits", "limits (cpu, memory)", Kind::Amounts),
    ("cpuBind", "bind CPUs", Kind::Bool),
    ("volumes", "volumes (src:dst:flags:size)", Kind::List),
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

pub fn editors(d: &Value, problem: &SharedProblem) -> Html {
    let nodes = html! {
        <Table id="nodes" path="nodes" columns={NODES} rows={doc::items(d, "nodes").to_vec()}
               new_row={NewRow::EruNode} noun="node" problem={problem.clone()}
               details={Details::EruNode} />
    };
    common(
        d,
        problem,
        WORKLOAD,
        ("Strategy", POLICY),
        section("Nodes", nodes),
    )
}
