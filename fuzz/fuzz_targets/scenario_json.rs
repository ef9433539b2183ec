//! Scenario JSON text, as `schedule`, `estimate`, `divide`, `capacity` and `deploy` take it,
//! then the outcome writer on what they return.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| allot_tests::fuzzing::scenario_text(data));
