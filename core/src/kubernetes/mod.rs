//! Kubernetes objects as `kubectl get -o yaml` or `-o json` prints them: the parts Karmada reads
//! (docs/rules/karmada.md §16), every other field ignored, since real objects carry many
//! (`managedFields`, `status`, annotations, fields of newer API versions).
//!
//! The models are allot's own, minimal ones: k8s-openapi's types need `std` and would carry
//! every field of every kind into the module.
//!
//! - [`objects`]: a document of objects (one, a `List`, an array) read whatever their kinds.
//! - [`meta`]: what is read of every object's `metadata`.
//! - [`karmada`]: the parts of Clusters, the propagation policies and the bindings.
//! - [`pod`]: pod specs and templates, containers and their resources.
//! - [`interpreter`]: Karmada's built-in replica interpreter: a template's replicas and
//!   replica requirements.
//! - [`import`]: objects sorted by role, the policy of one template, with the report of what
//!   fed what; [`clusters`]: Clusters (and members' Nodes and Pods) to members; [`workloads`]: templates to workloads, bindings to
//!   what Karmada recorded; [`placement`]: a policy's (or the applied-placement
//!   annotation's) placement to the rules the scheduler reads.
//! - [`fleet`]: a dump of objects to a fleet (every binding at once), from those readers and
//!   the pairing of templates with their bindings (`pairing`);
//!   [`plan`]: what-ifs over it, and the bindings Karmada would write.
//! - [`app_failover`]: what application failover reads: `spec.failover.application`,
//!   `aggregatedStatus`, graceful eviction tasks.
//! - [`policy`]: which policy propagates the template, as Karmada's detector chooses it.
//! - [`binding`]: what a schedule writes back into the binding, and what changes.
//!
//! A scenario is one more consumer of these readers: its `objects` module makes one of
//! objects, its `export` module objects of one.

pub mod app_failover;
pub mod binding;
pub mod clusters;
pub mod destination;
/// A workload's objects explained, at the path code written before the scenario became one
/// consumer of the object readers still names (the functions live in [`crate::scenario::explain`]).
pub mod explain {
    pub use crate::scenario::explain::*;
}
pub mod failover;
#[cfg(test)]
mod fixtures;
pub mod fleet;
pub mod import;
pub mod interpreter;
pub mod karmada;
pub mod meta;
pub mod objects;
mod pairing;
pub mod placement;
pub mod plan;
#[cfg(test)]
mod plan_round_trip;
pub mod pod;
pub mod policy;
pub mod readiness;
pub mod taint_policy;
pub mod time;
pub mod workloads;

/// Left at its default: not written.
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

fn is_false(v: &bool) -> bool {
    !*v
}

/// A Kubernetes object in the JSON Schema: any object with its `apiVersion` and `kind`, other
/// fields as they come (the package's declarations call it `KubernetesObject`).
#[cfg(feature = "schema")]
impl schemars::JsonSchema for objects::Object {
    fn schema_name() -> alloc::borrow::Cow<'static, str> {
        "KubernetesObject".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A Kubernetes or Karmada object, as `kubectl get -o json` prints it.",
            "type": "object",
            "properties": {
                "apiVersion": {"type": "string"},
                "kind": {"type": "string"},
                "metadata": {"type": "object", "additionalProperties": true}
            },
            "required": ["apiVersion", "kind"],
            "additionalProperties": true
        })
    }
}
