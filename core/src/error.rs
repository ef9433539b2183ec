//! Typed errors with stable codes.
//!
//! Every public function of the crate returns `Result<_, Error>` instead of panicking
//! (spec README, decision 6). Each variant has a stable snake_case [`Error::code`] that the
//! bindings expose to JavaScript, and names the offending input field as a path such as
//! `clusters[2].weight`.

use alloc::string::String;

use crate::text::Quoted;
use core::fmt;

/// Largest number of replicas (seats) allot divides in one call: 2^53, the largest integer a
/// JavaScript number holds exactly. Larger inputs get [`Error::TooLarge`].
pub const MAX_REPLICAS: u64 = 1 << 53;

/// Largest weight or vote allot accepts: `i64::MAX`, as Karmada's int64 weights.
pub const MAX_WEIGHT: u64 = i64::MAX as u64;

/// Largest number of targets (clusters, parties, nodes) in one call.
pub const MAX_TARGETS: usize = 1 << 20;

/// The `field` of any variant (every variant has one; the list of variants lives here once).
macro_rules! field_of {
    ($e:expr) => {
        match $e {
            Error::Negative { field, .. }
            | Error::TooLarge { field, .. }
            | Error::DuplicateName { field, .. }
            | Error::EmptyName { field }
            | Error::NoCandidates { field }
            | Error::InvalidSelector { field, .. }
            | Error::Unschedulable { field, .. }
            | Error::UnknownValue { field, .. }
            | Error::Missing { field }
            | Error::InvalidQuantity { field, .. }
            | Error::InsufficientResource { field, .. }
            | Error::InsufficientCapacity { field, .. }
            | Error::AlreadyFilled { field, .. }
            | Error::InvalidCount { field, .. }
            | Error::InvalidStrategy { field, .. }
            | Error::InvalidResource { field, .. }
            | Error::InvalidModel { field, .. }
            | Error::Input { field, .. } => field,
        }
    };
}

/// An error with a stable code, the field it concerns and a message a user can act on.
///
/// It serializes as `{code, path, message}`, the shape the bindings and warnings use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A number that must not be negative is negative.
    Negative { field: String, value: i64 },
    /// A number, or a sum of numbers, is beyond what allot computes exactly.
    TooLarge { field: String, limit: u64 },
    /// Two entries of a list share a name that must be unique.
    DuplicateName { field: String, name: String },
    /// A name that must not be empty is empty.
    EmptyName { field: String },
    /// There is nothing to schedule onto ("no clusters available to schedule").
    NoCandidates { field: String },
    /// A label or field selector cannot be evaluated.
    InvalidSelector { field: String, reason: String },
    /// The targets cannot hold the requested replicas.
    Unschedulable {
        field: String,
        requested: u64,
        available: u64,
    },
    /// An enum-like string has a value allot does not know.
    UnknownValue {
        field: String,
        value: String,
        expected: &'static str,
    },
    /// A field is required in this context and missing.
    Missing { field: String },
    /// A Kubernetes quantity string that cannot be read.
    InvalidQuantity {
        field: String,
        value: String,
        problem: crate::quantity::QuantityProblem,
    },
    /// eru: the nodes cannot hold what is asked (`need` instances, `available` possible).
    InsufficientResource {
        field: String,
        need: u64,
        available: u64,
        detail: String,
    },
    /// eru EACH: no node can take `need` instances.
    InsufficientCapacity { field: String, need: u64 },
    /// eru FILL: every selected node already has the instances asked for.
    AlreadyFilled { field: String, need: u64 },
    /// eru: the deploy count is not positive.
    InvalidCount { field: String, value: i64 },
    /// eru: not a strategy (AUTO, FILL, EACH, GLOBAL, DRAINED).
    InvalidStrategy { field: String, value: String },
    /// eru: a resource request or node resource eru rejects (`invalid_cpu`, `invalid_memory`,
    /// `invalid_storage`, `invalid_volume`, or a bad usage ratio).
    InvalidResource {
        field: String,
        kind: crate::eru::ResourceKind,
        reason: String,
    },
    /// A customized resource model breaks one of Karmada's rules.
    InvalidModel {
        field: String,
        rule: crate::estimate::models::ModelRule,
        grade: u64,
        resource: Option<String>,
    },
    /// The input document does not have the expected shape: a wrong type, a missing or unknown
    /// field, an unreadable quantity. `code` is `invalid_input` or, when a value was read but
    /// rejected, that value's code (`invalid_quantity`, `negative`, `too_large`).
    Input {
        field: String,
        code: &'static str,
        reason: String,
    },
}

/// Every code [`Error::code`] can return, for bindings that document them.
pub const CODES: &[&str] = &[
    "negative",
    "too_large",
    "duplicate_name",
    "empty_name",
    "no_candidates",
    "invalid_selector",
    "unschedulable",
    "unknown_value",
    "missing",
    "invalid_quantity",
    "invalid_model",
    "insufficient_resource",
    "insufficient_capacity",
    "already_filled",
    "invalid_count",
    "invalid_strategy",
    "invalid_cpu",
    "invalid_memory",
    "invalid_storage",
    "invalid_volume",
    "invalid_usage",
    "invalid_input",
    "unsupported_version",
];

impl Error {
    /// The stable machine-readable code, e.g. `"unschedulable"`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Negative { .. } => "negative",
            Error::TooLarge { .. } => "too_large",
            Error::DuplicateName { .. } => "duplicate_name",
            Error::EmptyName { .. } => "empty_name",
            Error::NoCandidates { .. } => "no_candidates",
            Error::InvalidSelector { .. } => "invalid_selector",
            Error::Unschedulable { .. } => "unschedulable",
            Error::UnknownValue { .. } => "unknown_value",
            Error::Missing { .. } => "missing",
            Error::InvalidQuantity { .. } => "invalid_quantity",
            Error::InvalidModel { .. } => "invalid_model",
            Error::InsufficientResource { .. } => "insufficient_resource",
            Error::InsufficientCapacity { .. } => "insufficient_capacity",
            Error::AlreadyFilled { .. } => "already_filled",
            Error::InvalidCount { .. } => "invalid_count",
            Error::InvalidStrategy { .. } => "invalid_strategy",
            Error::InvalidResource { kind, .. } => kind.code(),
            Error::Input { code, .. } => code,
        }
    }

    /// An input error at `path` from a deserializer's message. Messages of allot's own
    /// deserializers carry their code as a `[code] ` prefix (see [`Error::tagged`]); any other
    /// message (wrong type, unknown field) is `invalid_input`. serde_json's
    /// ` at line L column C` suffix is dropped: the path says where.
    pub fn from_deserialize(path: &str, message: &str) -> Error {
        let path = if path == "." { "" } else { path };
        let message = without_position(message);
        // serde names a missing field in the message, at its parent's path.
        if let Some(name) = message
            .strip_prefix("missing field `")
            .and_then(|m| m.strip_suffix('`'))
        {
            return Error::Input {
                field: if path.is_empty() {
                    name.into()
                } else {
                    alloc::format!("{path}.{name}")
                },
                code: "missing",
                reason: "required but missing".into(),
            };
        }
        let (code, reason) = message
            .strip_prefix('[')
            .and_then(|m| m.split_once(']'))
            .and_then(|(c, r)| Some((c, r.strip_prefix(' ')?)))
            .and_then(|(c, r)| CODES.iter().find(|&&k| k == c).map(|&k| (k, r)))
            .unwrap_or(("invalid_input", message));
        Error::Input {
            field: path.into(),
            code,
            reason: reason.into(),
        }
    }

    /// The message a deserializer reports for this error: `[code] reason`, read back by
    /// [`Error::from_deserialize`] with the path the deserializer knows.
    pub fn tagged(&self) -> String {
        alloc::format!("[{}] {}", self.code(), self.reason())
    }

    /// The message without the leading `field: `.
    pub fn reason(&self) -> String {
        alloc::format!("{}", Reason(self))
    }

    /// The path of the input field the error is about.
    pub fn field(&self) -> &str {
        field_of!(self)
    }

    /// Prefix the field path with `outer` (`weight` becomes `clusters[2].weight`).
    pub fn within(self, outer: &str) -> Self {
        self.map_field(|field| {
            if field.is_empty() {
                String::from(outer)
            } else if field.starts_with('[') {
                alloc::format!("{outer}{field}")
            } else {
                alloc::format!("{outer}.{field}")
            }
        })
    }

    /// Replace the field path with `f(path)`.
    pub fn map_field(mut self, f: impl FnOnce(&str) -> String) -> Self {
        let field: &mut String = field_of!(&mut self);
        *field = f(field);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = self.field();
        if !field.is_empty() {
            write!(f, "{field}: ")?;
        }
        Reason(self).fmt(f)
    }
}

impl serde::Serialize for Error {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Error", 3)?;
        st.serialize_field("code", self.code())?;
        st.serialize_field("path", self.field())?;
        st.serialize_field("message", &alloc::format!("{self}"))?;
        st.end()
    }
}

/// `s` without the digits it ends with, if it ends with any.
fn number_stripped(s: &str) -> Option<&str> {
    let head = s.trim_end_matches(|c: char| c.is_ascii_digit());
    (head.len() < s.len()).then_some(head)
}

/// `message` without serde_json's ` at line L column C` suffix. (Read from the end with
/// `strip_suffix`: a substring search would link a string searcher into the wasm module.)
fn without_position(message: &str) -> &str {
    number_stripped(message)
        .and_then(|m| m.strip_suffix(" column "))
        .and_then(number_stripped)
        .and_then(|m| m.strip_suffix(" at line "))
        .unwrap_or(message)
}

/// An error's message without its field.
struct Reason<'a>(&'a Error);

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Error::Negative { value, .. } => {
                write!(f, "must not be negative, got {value}")
            }
            Error::TooLarge { limit, .. } => {
                write!(f, "too large, allot accepts at most {limit}")
            }
            Error::DuplicateName { name, .. } => {
                write!(f, "the name {} appears more than once", Quoted(name))
            }
            Error::EmptyName { .. } => write!(f, "the name must not be empty"),
            Error::NoCandidates { .. } => {
                write!(f, "no clusters available to schedule")
            }
            Error::InvalidSelector { reason, .. } => {
                write!(f, "invalid selector: {reason}")
            }
            Error::Unschedulable {
                requested,
                available,
                ..
            } => write!(
                f,
                "unschedulable: {requested} replicas requested but only {available} \
                 available (short by {})",
                requested.saturating_sub(*available)
            ),
            Error::UnknownValue {
                value, expected, ..
            } => write!(
                f,
                "unknown value {}, expected one of {expected}",
                Quoted(value)
            ),
            Error::Missing { .. } => write!(f, "required but missing"),
            Error::InvalidQuantity { value, problem, .. } => write!(
                f,
                "{} is not a quantity allot reads: {}",
                Quoted(value),
                problem.describe()
            ),
            Error::InsufficientResource {
                need,
                available,
                detail,
                ..
            } => write!(
                f,
                "insufficient resource: need: {need}, available: {available}{}{detail}",
                if detail.is_empty() { "" } else { "; " }
            ),
            Error::InsufficientCapacity { need, .. } => write!(
                f,
                "insufficient capacity: no node can take {need} new instances"
            ),
            Error::AlreadyFilled { need, .. } => write!(
                f,
                "already filled: every selected node already has {need} instances"
            ),
            Error::InvalidCount { value, .. } => {
                write!(f, "the deploy count must be positive, got {value}")
            }
            Error::InvalidStrategy { value, .. } => write!(
                f,
                "{} is not a strategy (AUTO, FILL, EACH, GLOBAL, DRAINED)",
                Quoted(value)
            ),
            Error::InvalidResource { reason, .. } => f.write_str(reason),
            Error::InvalidModel {
                rule,
                grade,
                resource,
                ..
            } => {
                write!(f, "resource model grade {grade}")?;
                if let Some(r) = resource {
                    write!(f, ", resource {r}")?;
                }
                write!(f, ": {}", rule.describe())
            }
            Error::Input { reason, .. } => f.write_str(reason),
        }
    }
}

impl core::error::Error for Error {}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// Build a field path `name[index]`.
pub fn indexed(name: &str, index: usize) -> String {
    alloc::format!("{name}[{index}]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deserializer_messages_become_coded_errors() {
        let e = Error::from_deserialize(
            "a.b",
            "invalid type: null, expected u64 at line 3 column 17",
        );
        assert_eq!((e.code(), e.field()), ("invalid_input", "a.b"));
        assert_eq!(
            alloc::format!("{e}"),
            "a.b: invalid type: null, expected u64"
        );
        // Only a complete position suffix is dropped.
        for kept in [
            "ends at line 3",
            "at line x column 2",
            "column 4",
            "no digits at line  column ",
        ] {
            let e = Error::from_deserialize("p", kept);
            assert_eq!(alloc::format!("{e}"), alloc::format!("p: {kept}"));
        }
        let e = Error::from_deserialize("p", "[negative] must not be negative, got -1");
        assert_eq!(
            (e.code(), alloc::format!("{e}").as_str()),
            ("negative", "p: must not be negative, got -1")
        );
        let e = Error::from_deserialize("p", "[nonsense] x");
        assert_eq!(e.code(), "invalid_input");
        let e = Error::from_deserialize("p", "missing field `name` at line 1 column 2");
        assert_eq!((e.code(), e.field()), ("missing", "p.name"));
    }
}
