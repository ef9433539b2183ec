//! Customized resource models, as `validateResourceModels` takes them.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| allot_tests::fuzzing::resource_models_text(data));
