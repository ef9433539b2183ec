//! A control plane's dump planned under what-ifs (clusters down, cordoned, deleted, joining;
//! a workload scaled): every binding of the fleet scheduled, read and written.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| allot_tests::fuzzing::fleet_text(data));
