//! The playground's own readers of outside text: share-link fragments (`#s=1.<data>`,
//! `#h=1.<data>`), the field parsers (what a typed value means), and document paths.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| allot_tests::fuzzing::playground_text(data));
