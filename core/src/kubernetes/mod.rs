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
//! - [`import`]: objects to a scenario, with the report of what fed what.
//! - [`binding`]: what a schedule writes back into the binding, and what changes.

pub mod binding;
pub mod export;
pub mod import;
pub mod karmada;
pub mod meta;
pub mod objects;
pub mod pod;

/// Left at its default: not written.
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

fn is_false(v: &bool) -> bool {
    !*v
}
