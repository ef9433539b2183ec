//! Dispatch from a vector file name to its family runner.

pub mod affinity;
pub mod division;
pub mod eru;
pub mod estimators;
pub mod interpreter;
pub mod scheduler;
pub mod webster;

use crate::CaseRunner;

/// What the runner does with a file.
pub enum Dispatch {
    Run(CaseRunner),
    /// A known family whose implementation has not landed yet.
    NotYet(&'static str),
    Unknown,
}

/// The runner for a vector file name, e.g. `webster.json`.
pub fn runner_for(file_name: &str) -> Dispatch {
    match file_name {
        "webster.json" => Dispatch::Run(webster::run),
        "static_weight.json" | "dynamic_division.json" | "replica_division_legacy.json" => {
            Dispatch::Run(division::run)
        }
        "cluster_affinity_match.json" => Dispatch::Run(affinity::run),
        "general_estimator.json" | "resource_models.json" | "accurate_estimator.json" => {
            Dispatch::Run(estimators::run)
        }
        "strategies.json" => Dispatch::Run(eru::run_strategies),
        "cpu_capacity.json" | "memory_capacity.json" => Dispatch::Run(eru::run_cpumem),
        "volume_capacity.json" => Dispatch::Run(eru::run_volume),
        "storage_capacity.json" => Dispatch::Run(eru::run_storage),
        "pipeline.json" => Dispatch::Run(eru::run_pipeline),
        "capacity_merge.json" => Dispatch::Run(eru::run_merge),
        "filter_plugins.json" => Dispatch::Run(scheduler::run_filter),
        "score_plugins.json" => Dispatch::Run(scheduler::run_score),
        "select_clusters.json" => Dispatch::Run(scheduler::run_select),
        "affinity_terms.json" => Dispatch::Run(scheduler::run_affinity_terms),
        "workload_interpreter.json" => Dispatch::Run(interpreter::run),
        _ => Dispatch::Unknown,
    }
}
