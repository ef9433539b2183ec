//! Karmada's built-in replica interpreter (docs/rules/karmada.md §16.1): a resource template's
//! replicas and the replica requirements every replica has (node claim and resource request),
//! as the binding controller writes them into `spec.replicas` and `spec.replicaRequirements`.

use alloc::format;
use alloc::vec::Vec;

use serde::Serialize;

use super::objects::Object;
use super::pod::{Container, PodSpec};
use crate::error::{indexed, non_negative, Error, Path, Result};
use crate::estimate::accurate::{Container as AccurateContainer, Pod};
use crate::resource::ResourceList;
use crate::selector::node::NodeClaim;

/// The kinds with a built-in interpreter, as `(apiVersion, kind)`.
pub const SUPPORTED: [(&str, &str); 5] = [
    ("apps/v1", "Deployment"),
    ("apps/v1", "ReplicaSet"),
    ("apps/v1", "StatefulSet"),
    ("batch/v1", "Job"),
    ("v1", "Pod"),
];

const SUPPORTED_TEXT: &str = "apps/v1 Deployment, ReplicaSet or StatefulSet, batch/v1 Job, v1 Pod";

/// What every replica needs: `spec.replicaRequirements` (either part may be absent).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaRequirements {
    pub node_claim: Option<NodeClaim>,
    pub resource_request: Option<ResourceList>,
}

/// A template's replicas and requirements (`None`: neither a node claim nor a request).
/// A kind without a built-in interpreter is an error at `kind`, as Karmada's
/// `default InterpretReplica interpreter for "<apiVersion>, Kind=<kind>" not found`.
pub fn interpret(w: &Object) -> Result<(u64, Option<ReplicaRequirements>)> {
    let kind = (w.api_version.as_str(), w.kind.as_str());
    if !SUPPORTED.contains(&kind) {
        return Err(Error::UnknownValue {
            field: "kind".into(),
            value: format!("{}, Kind={}", w.api_version, w.kind),
            expected: SUPPORTED_TEXT,
        });
    }
    let count = |v: Option<i64>, name: &'static str| {
        non_negative(v.unwrap_or(0), || Path::fields("spec").field(name))
    };
    let replicas = match kind.1 {
        "Pod" => 1,
        "Job" => {
            let parallelism = count(w.spec.parallelism, "parallelism")?;
            let completions = match w.spec.completions {
                None => parallelism,
                some => count(some, "completions")?,
            };
            parallelism.min(completions)
        }
        _ => count(w.spec.replicas, "replicas")?,
    };
    let pod;
    let (spec, at) = match (kind.1, &w.spec.template) {
        ("Pod", _) => {
            pod = w.spec.pod();
            (&pod, Path::fields("spec"))
        }
        (_, Some(t)) => (&t.spec, Path::fields("spec.template.spec")),
        (_, None) => return Ok((replicas, None)),
    };
    let requirements = requirements(spec).map_err(|e| e.within(&at))?;
    Ok((replicas, requirements))
}

/// The requirements of one replica of `spec` (`None` when it has neither part).
pub fn requirements(spec: &PodSpec) -> Result<Option<ReplicaRequirements>> {
    let node_claim = node_claim(spec)?;
    let request = pod_request(spec);
    let resource_request = (!request.is_empty()).then_some(request);
    Ok(
        (node_claim.is_some() || resource_request.is_some()).then_some(ReplicaRequirements {
            node_claim,
            resource_request,
        }),
    )
}

/// The node claim of `spec`: its node selector (when given, even empty), its tolerations
/// (when any) and its required node affinity; `None` when none of the three is set.
pub fn node_claim(spec: &PodSpec) -> Result<Option<NodeClaim>> {
    let hard = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|n| n.required.clone());
    if spec.node_selector.is_none() && spec.tolerations.is_empty() && hard.is_none() {
        return Ok(None);
    }
    let tolerations = spec
        .tolerations
        .iter()
        .enumerate()
        .map(|(i, t)| {
            t.toleration().ok_or_else(|| Error::UnknownValue {
                field: indexed("tolerations", i).field("effect"),
                value: t.effect.clone().unwrap_or_default(),
                expected: "NoSchedule, PreferNoSchedule, NoExecute or empty",
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let claim = NodeClaim {
        node_selector: spec.node_selector.clone().unwrap_or_default(),
        hard_node_affinity: hard,
        tolerations,
    };
    claim
        .validate()
        .map_err(|e| e.within(&"affinity.nodeAffinity".into()))?;
    Ok(Some(claim))
}

/// One pod's effective request: each container's requests with limit-only resources added,
/// summed over containers, raised to each init container's, plus the overhead; then only the
/// resources Karmada keeps, without zeros.
pub fn pod_request(spec: &PodSpec) -> ResourceList {
    let pod = Pod {
        containers: spec.containers.iter().map(effective).collect(),
        init_containers: spec.init_containers.iter().map(effective).collect(),
        overhead: spec.overhead.clone().unwrap_or_default(),
        ..Pod::default()
    };
    pod.requests()
        .positive()
        .filter(|&(name, _)| kept(name))
        .map(|(name, amount)| (name.into(), amount))
        .collect()
}

/// A container's requests, with each resource given only as a limit at its limit.
fn effective(c: &Container) -> AccurateContainer {
    let mut requests = c.resources.requests.clone();
    for (name, amount) in c.resources.limits.iter() {
        if !requests.has(name) {
            requests.insert(name, amount);
        }
    }
    AccurateContainer { requests }
}

/// Karmada's `SetMaxResource`: raise each resource of `current` to `other`'s amount where
/// that is larger.
pub fn set_max(current: &mut ResourceList, other: &ResourceList) {
    for (name, amount) in other.iter() {
        current.insert(name, amount.max(current.get(name)));
    }
}

/// The resources a request keeps: `cpu`, `memory`, `ephemeral-storage`, `pods`, and the
/// scalar ones (prefixed names, `hugepages-*`, `attachable-volumes-*`).
fn kept(name: &str) -> bool {
    matches!(name, "cpu" | "memory" | "ephemeral-storage" | "pods")
        || name.contains('/')
        || name.starts_with("hugepages-")
        || name.starts_with("attachable-volumes-")
}
