//! Kubernetes objects as `kubectl get -o yaml` or `-o json` prints them: the parts Karmada reads
//! (docs/rules/karmada.md §16), every other field ignored, since real objects carry many
//! (`managedFields`, `status`, annotations, fields of newer API versions).
//!
//! The models are allot's own, minimal ones: k8s-openapi's types need `std` and would carry
//! every field of every kind into the module.
//!
//! - [`pod`]: pod specs and templates, containers and their resources.
//! - [`workload`]: the workload kinds with a built-in replica interpreter.

pub mod pod;
pub mod workload;
