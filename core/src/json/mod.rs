//! JSON text in and out, for scenario documents and outcomes (`docs/scenario.md`): the format
//! layer, apart from the domain types it reads and writes through their serde derives.
//!
//! - [`from_json`] reads any `Deserialize` type from text in one pass, with errors that carry
//!   their code and the offending field's path (`clusters[1].resourceSummary.allocatable.cpu`);
//!   the npm package and the playground both read documents through it.
//! - [`to_json`] and [`to_json_bytes`] write an outcome (or a scenario) as compact, 7-bit text.
//!
//! Why allot has its own reader rather than serde_json's: serde_json's error is a message,
//! while allot's errors carry a stable code as data. The reader's error type keeps what
//! serde's constructors say as data (a missing field's name, a value's own code through
//! [`crate::Error::into_de`]) and where it arose, so no code or path is ever recovered from a
//! message. The writer is serde_json's text with two differences worth their code in the
//! package's Node benchmarks: outcomes of megabytes are written in 4 KB chunks as 7-bit ASCII
//! (JS engines decode one-byte text on their fast path), and exact short decimals are written
//! without the shortest-float algorithm, whose 128-bit arithmetic runs in software in wasm.

mod path;
mod read;
mod write;

pub use path::path_at;
pub use read::{from_json, from_json_noting};
pub use write::{to_json, to_json_bytes, write_json, WriteError};

/// The high bit of every byte of a word.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The bytes of `w` that end a plain run of string text, a quote, a backslash or a control
/// character, marked in their high bit (other bits clear). Each test is the classic borrow
/// test: `x - 0x0101..` borrows through a byte only where that byte is 0 (against `0x2020..`,
/// below 0x20), and a borrow only ever marks bytes after the one it came from, so the lowest
/// mark is exact (bytes above it may be marked wrongly). Strings in scenario documents and
/// outcomes are short (names, keys, values): a word or two each, rather than a branch per byte.
fn specials(w: [u8; 8]) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let w = u64::from_le_bytes(w);
    let zero = |x: u64| x.wrapping_sub(ONES) & !x;
    let quote = zero(w ^ (ONES * u64::from(b'"')));
    let backslash = zero(w ^ (ONES * u64::from(b'\\')));
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    (quote | backslash | control) & HIGH
}

/// The position of the lowest marked byte of a [`specials`] answer.
fn first_marked(marks: u64) -> Option<usize> {
    (marks != 0).then(|| (marks.trailing_zeros() / 8) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use alloc::string::String;

    fn path(text: &str) -> (String, &'static str) {
        let e = from_json::<Scenario>(text).unwrap_err();
        (e.field().text(), e.code().as_str())
    }

    #[test]
    fn errors_name_the_field() {
        let p = |s: &str, c: &'static str| (String::from(s), c);
        assert_eq!(
            path(r#"{"version":1,"clusters":[{"name":"a","wieght":1}]}"#),
            p("clusters[0].wieght", "invalid_input")
        );
        assert_eq!(
            path(r#"{"version":1,"clusters":[{"name":"a"}],"workload":{"replicas":"three"}}"#),
            p("workload.replicas", "invalid_input")
        );
        assert_eq!(
            path(r#"{"clusters":[{"name":"a"}]}"#),
            p("version", "missing")
        );
        assert_eq!(
            path("{\"version\":1,\n \"clusters\":[{\"name\":\"a\"},\n  {\"weight\":1}]}"),
            p("clusters[1].name", "missing")
        );
        assert_eq!(
            path(
                r#"{"version":1,"clusters":[{"name":"a","resourceSummary":{"allocatable":{"memory":"16 GB"}}}]}"#
            ),
            p(
                "clusters[0].resourceSummary.allocatable.memory",
                "invalid_quantity"
            )
        );
        assert_eq!(
            path(r#"{"version":1,"clusters":[{"name":"a"},{"name":"b","zones":["x",3]}]}"#),
            p("clusters[1].zones[1]", "invalid_input")
        );
        assert_eq!(
            path(r#"{"version":1,"clusters":[{"name":"a\"}\"","labels":{"x":1}}]}"#),
            p("clusters[0].labels.x", "invalid_input")
        );
        assert_eq!(path(r#"{"version":1} x"#), p("", "invalid_input"));
        // A value read whole (a model range, whose unit comes from its name) still places
        // its error at the field inside it.
        assert_eq!(
            path(
                r#"{"version":1,"clusters":[{"name":"a","resourceModels":[{"grade":0,"ranges":[{"name":"cpu","min":0,"max":"x.y"}]}]}]}"#
            ),
            p(
                "clusters[0].resourceModels[0].ranges[0].max",
                "invalid_quantity"
            )
        );
    }

    #[test]
    fn messages_speak_json_not_rust() {
        let reason = |text: &str| from_json::<Scenario>(text).unwrap_err().reason();
        assert_eq!(
            reason(r#"{"version":1,"clusters":[{"name":"a","weight":"1x"}]}"#),
            r#"expected a whole number, got "1x""#
        );
        assert_eq!(
            reason(r#"{"version":1,"clusters":[{"name":"a","taints":{"key":"x"}}]}"#),
            "expected a list, got an object"
        );
        assert_eq!(
            reason(
                r#"{"version":1,"clusters":[{"name":"a","resourceSummary":{"allocatable":{"memory":"32GB"}}}]}"#
            ),
            r#""32GB" is not a quantity allot reads: did you mean 32Gi? (expected a number with an optional suffix (m, k, M, G, Ki, Mi, Gi, e3, ...))"#
        );
        assert_eq!(
            crate::quantity::suggestion("16 Gi").as_deref(),
            Some("16Gi")
        );
        assert_eq!(crate::quantity::suggestion("2gib").as_deref(), Some("2Gi"));
        assert_eq!(crate::quantity::suggestion("abc"), None);
        assert_eq!(crate::quantity::suggestion("B"), None);
        assert_eq!(crate::quantity::suggestion("1é"), None);
    }

    #[test]
    fn packed_paths_read_back_exactly() {
        let odd = crate::error::Path::root()
            .field("a.b[1]")
            .index(3)
            .field("#x");
        assert_eq!(crate::error::Path::unpack(&odd.packed()), Some(odd));
        assert_eq!(crate::error::Path::unpack("min"), None);
    }

    #[test]
    fn positions_past_the_end_are_clamped() {
        assert_eq!(path_at("[1,2", 9, 99), "[1]");
        assert_eq!(path_at("", 1, 1), "");
    }
}
