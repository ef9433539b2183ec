//! Kubernetes and Karmada objects as `kubectl get -o json` prints them, imported and scheduled.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| allot_tests::fuzzing::objects_text(data));
