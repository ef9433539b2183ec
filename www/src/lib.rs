//! What the playground's two apps share, a library beside them: the scenario playground
//! (`allot-www`) and the fleet view (`allot-fleet`), each its own wasm module so that neither
//! carries the other. Its pure pieces are tested and fuzzed natively: share links ([`share`]),
//! document paths ([`doc`]) and how a field's value is written as text ([`text`]); beside
//! them, the browser around the page ([`platform`]), long lists in pages ([`pager`]) and a
//! view mounted in a widget ([`mounted`]).

pub mod doc;
pub mod mounted;
pub mod pager;
pub mod platform;
pub mod share;
pub mod text;
