//! Selectors: Kubernetes label selectors ([`label`]) and Karmada's cluster affinity
//! ([`cluster`], spec karmada.md §9) used by static weight rules.

pub mod cluster;
pub mod label;
