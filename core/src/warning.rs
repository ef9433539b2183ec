//! Warnings: what is worth knowing about an answer without being an error. Each family's
//! pipeline writes them; every outcome carries them.

use alloc::string::String;

use serde::Serialize;

use crate::path::Path;

/// Something worth knowing about an answer that is not an error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Warning {
    /// Stable: `capacity_exceeded`, `estimator_without_input`, `karmada_sum_wraps`,
    /// `no_capacity`.
    pub code: &'static str,
    /// The scenario field it concerns.
    pub path: Path,
    pub message: String,
}
