//! allot-core: how many replicas fit where, and which target gets how many, computed the way
//! Karmada and eru compute it, exactly and with an explanation.
//!
//! The crate is unconditionally `#![no_std]` with `alloc`; it does no I/O and knows nothing of
//! wasm. The `std` feature is accepted for downstream crates that want it but changes nothing
//! in the algorithms.

#![no_std]
#![forbid(unsafe_code)]
// Never panic on input (docs/rules/README.md decision 6), held by the compiler where it can be:
// no unwrap, expect or panic outside tests (clippy.toml allows them in tests). Not
// `clippy::indexing_slicing`: about 250 indexings and slicings, nearly all at positions the
// code computed from the same slice (an enumerate, a search, a sorted order); each rewritten
// as `get` would add an error path no input can reach.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

extern crate alloc;

mod choice;
pub mod division;
pub mod error;
pub mod eru;
pub mod estimate;
#[cfg(feature = "json")]
pub mod json;
pub mod karmada;
pub mod kubernetes;
mod names;
mod order;
pub mod path;
pub mod quantity;
pub mod resource;
pub mod rng;
pub mod scenario;
#[cfg(feature = "schema")]
pub mod schema;
pub mod selector;
mod text;
pub mod warning;

pub use error::{Error, ErrorCode, Result};
pub use names::Name;
pub use text::plural;

/// The version of allot-core.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
