//! The native entry point for scenario documents: JSON text in, a scenario or a typed error
//! naming the field's path out (the same mapping the wasm bindings apply to JS values).

use allot_core::scenario::{self, Outcome, Scenario};
use allot_core::Error;

/// Read a scenario from JSON text.
pub fn read(text: &str) -> Result<Scenario, Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let scenario: Scenario = serde_path_to_error::deserialize(&mut de)
        .map_err(|e| Error::from_deserialize(&e.path().to_string(), &e.inner().to_string()))?;
    de.end()
        .map_err(|e| Error::from_deserialize("", &e.to_string()))?;
    Ok(scenario)
}

/// Read and schedule; a scenario without a seed uses seed 0.
pub fn schedule(text: &str) -> Result<Outcome, Error> {
    scenario::schedule(&read(text)?, 0)
}
