//! JavaScript bindings of allot-core: the npm package `allot`. This crate only translates:
//! scenario documents in (objects or JSON text), outcomes out as JSON text (the package's JS
//! parses them into plain objects), other answers as plain objects, core errors as JS `Error`s
//! carrying a stable `code` and the offending field's `path`. The rules, and the reading of
//! documents, live in allot-core.
//!
//! Features: `bindings` (default) is the npm package's main module; `yaml` reads objects from
//! YAML or JSON text and writes YAML (the playground uses it alone); `kubernetes` is the
//! `allot/kubernetes` module: the bindings, YAML, and objects in and out; `fleet` is the
//! `allot/fleet` module: all of `kubernetes`, and a whole dump planned under what-ifs.

#[cfg(feature = "bindings")]
mod bindings;
#[cfg(feature = "fleet")]
mod fleet;
/// Talc instead of Rust's default wasm allocator (dlmalloc): a call allocates and frees tens of
/// thousands of small strings and vectors, which talc serves faster, and its code is smaller.
#[cfg(all(
    feature = "bindings",
    target_arch = "wasm32",
    not(target_feature = "atomics")
))]
mod heap;
#[cfg(feature = "kubernetes")]
mod kubernetes;
#[cfg(feature = "yaml")]
pub mod yaml;

#[cfg(feature = "bindings")]
pub use bindings::*;
