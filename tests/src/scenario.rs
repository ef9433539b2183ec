//! The native entry point for scenario documents: JSON text in, an outcome or a typed error
//! naming the field's path out (the same reader the wasm bindings use).

use allot_core::scenario::{self, Outcome, Scenario};
use allot_core::Error;

/// Read a scenario from JSON text.
pub fn read(text: &str) -> Result<Scenario, Error> {
    scenario::from_json(text)
}

/// Read and schedule; a scenario without a seed uses seed 0.
pub fn schedule(text: &str) -> Result<Outcome, Error> {
    scenario::schedule(&read(text)?, 0)
}
