//! Selectors: Kubernetes label selectors ([`label`]), Karmada's cluster affinity ([`cluster`],
//! docs/rules/karmada.md §9) used by static weight rules, and node claims ([`node`], §10) used by
//! the accurate estimator.

pub mod cluster;
pub mod label;
pub mod label_text;
pub mod node;
