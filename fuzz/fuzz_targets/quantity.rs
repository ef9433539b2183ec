//! Kubernetes quantities alone, as `parseQuantity` takes them.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| allot_tests::fuzzing::quantity_text(data));
