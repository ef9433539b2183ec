//! Scenario documents and outcomes as JSON text (`docs/scenario.md`).
//!
//! - [`from_json`] reads a document from text in one pass, with errors that name the offending
//!   field's path (`clusters[1].resourceSummary.allocatable.cpu`);
//! - [`to_json`] writes an outcome (or a scenario) as compact text;
//! - `from_value` (feature `value`) reads a document already parsed into a `serde_json::Value`.
//!
//! Both readers and the writer are small serde (de)serializers of their own: the npm package
//! carries no general JSON library, and reading builds the typed document without an
//! intermediate tree.

mod path;
mod read;
#[cfg(feature = "value")]
mod value;
mod write;

pub use path::path_at;
pub use read::from_json;
#[cfg(feature = "value")]
pub use value::from_value;
pub use write::{to_json, to_json_bytes, WriteError};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use alloc::string::String;

    fn path(text: &str) -> (String, &'static str) {
        let e = from_json::<Scenario>(text).unwrap_err();
        (e.field().into(), e.code())
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
    }

    #[test]
    fn positions_past_the_end_are_clamped() {
        assert_eq!(path_at("[1,2", 9, 99), "[1]");
        assert_eq!(path_at("", 1, 1), "");
    }
}
