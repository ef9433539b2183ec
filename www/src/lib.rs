//! The playground's pure pieces, a library beside the page so that they can be tested and
//! fuzzed natively: share links ([`share`]), document paths ([`doc`]) and how a field's value
//! is written as text ([`text`]).

pub mod doc;
pub mod share;
pub mod text;
