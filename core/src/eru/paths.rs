//! Where a deploy's inputs sit in the caller's document, so that every error is located where
//! the input is read (docs/rules/README.md decision 6). The pipeline's own input ([`Paths::DEPLOY`],
//! the fields of [`super::pipeline::Deploy`]) and a scenario ([`Paths::SCENARIO`],
//! `docs/scenario.md`) name the same values differently; the components take the caller's
//! names. A node's own fields are located within the node by whoever knows its index.

/// The field of each deploy-wide input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paths {
    pub strategy: &'static str,
    pub count: &'static str,
    pub nodes_limit: &'static str,
    pub share_base: &'static str,
    pub max_deploy_count: &'static str,
    pub cpu_request: &'static str,
    pub cpu_limit: &'static str,
    pub memory_request: &'static str,
    pub memory_limit: &'static str,
    pub storage: &'static str,
    /// A list: `[i]` follows.
    pub volumes: &'static str,
    /// A map: the product follows.
    pub gpus: &'static str,
}

impl Paths {
    /// [`super::pipeline::Deploy`]'s own field names; the components' too.
    pub const DEPLOY: Paths = Paths {
        strategy: "strategy",
        count: "count",
        nodes_limit: "nodesLimit",
        share_base: "config.shareBase",
        max_deploy_count: "maxDeployCount",
        cpu_request: "request.cpuRequest",
        cpu_limit: "request.cpuLimit",
        memory_request: "request.memoryRequest",
        memory_limit: "request.memoryLimit",
        storage: "request.storage",
        volumes: "request.volumes",
        gpus: "request.gpus",
    };

    /// Where a scenario holds them.
    pub const SCENARIO: Paths = Paths {
        strategy: "policy.strategy",
        count: "workload.count",
        nodes_limit: "policy.nodesLimit",
        share_base: "policy.cpumem.shareBase",
        max_deploy_count: "policy.maxDeployCount",
        cpu_request: "workload.requests.cpu",
        cpu_limit: "workload.limits.cpu",
        memory_request: "workload.requests.memory",
        memory_limit: "workload.limits.memory",
        storage: "workload.requests.storage",
        volumes: "workload.volumes",
        gpus: "workload.gpus",
    };
}
