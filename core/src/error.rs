//! Typed errors with stable codes.
//!
//! Every public function of the crate returns `Result<_, Error>` instead of panicking
//! (docs/rules/README.md decision 6). Each variant has a stable snake_case [`Error::code`] that the
//! bindings expose to JavaScript, and names the offending input field as a path such as
//! `clusters[2].weight`.

use alloc::string::String;

pub use crate::path::Path;

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
            | Error::NoClusterFit { field, .. }
            | Error::SpreadUnsatisfiable { field, .. }
            | Error::RefusedAtAdmission { field, .. }
            | Error::Input { field, .. } => field,
        }
    };
}

/// An error with a stable code, the field it concerns and a message a user can act on.
///
/// Its message is `field: reason` (the reason alone for the document's root); it serializes
/// as `{code, path, message}`, the shape the bindings and warnings use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A number that must not be negative is negative.
    #[error("{}must not be negative, got {value}", At(.field))]
    Negative { field: Path, value: i64 },
    /// A number, or a sum of numbers, is beyond what allot computes exactly.
    #[error("{}too large, allot accepts at most {limit}", At(.field))]
    TooLarge { field: Path, limit: u64 },
    /// Two entries of a list share a name that must be unique.
    #[error("{}the name {name:?} appears more than once", At(.field))]
    DuplicateName { field: Path, name: String },
    /// A name that must not be empty is empty.
    #[error("{}the name must not be empty", At(.field))]
    EmptyName { field: Path },
    /// There is nothing to schedule onto ("no clusters available to schedule").
    #[error("{}no clusters available to schedule", At(.field))]
    NoCandidates { field: Path },
    /// A label or field selector cannot be evaluated.
    #[error("{}invalid selector: {reason}", At(.field))]
    InvalidSelector { field: Path, reason: String },
    /// The targets cannot hold the requested replicas.
    #[error(
        "{}unschedulable: {requested} replicas requested but only {available} available \
         (short by {})",
        At(.field),
        short_by(.requested, .available)
    )]
    Unschedulable {
        field: Path,
        requested: u64,
        /// Negative where Karmada's sum of estimates is (docs/rules/versions.md "Resource
        /// models").
        available: i64,
    },
    /// An enum-like string has a value allot does not know.
    #[error("{}unknown value {value:?}, expected one of {expected}", At(.field))]
    UnknownValue {
        field: Path,
        value: String,
        expected: &'static str,
    },
    /// A field is required in this context and missing.
    #[error("{}required but missing", At(.field))]
    Missing { field: Path },
    /// A Kubernetes quantity string that cannot be read; `expected` says what a quantity is.
    #[error(
        "{}{value:?} is not a quantity allot reads: {}",
        At(.field),
        Suggested(.value, .expected)
    )]
    InvalidQuantity {
        field: Path,
        value: String,
        expected: &'static str,
    },
    /// eru: the nodes cannot hold what is asked (`need` instances, `available` possible).
    #[error(
        "{}insufficient resource: need: {need}, available: {available}{}",
        At(.field),
        Detail(.detail)
    )]
    InsufficientResource {
        field: Path,
        need: u64,
        available: u64,
        detail: String,
    },
    /// eru EACH: no node can take `need` instances.
    #[error("{}insufficient capacity: no node can take {need} new instances", At(.field))]
    InsufficientCapacity { field: Path, need: u64 },
    /// eru FILL: every selected node already has the instances asked for.
    #[error("{}already filled: every selected node already has {need} instances", At(.field))]
    AlreadyFilled { field: Path, need: u64 },
    /// eru: the deploy count is not positive.
    #[error("{}the deploy count must be positive, got {value}", At(.field))]
    InvalidCount { field: Path, value: i64 },
    /// eru: not a strategy; `expected` lists the strategies (AUTO, FILL, EACH, GLOBAL,
    /// DRAINED).
    #[error("{}{value:?} is not a strategy ({expected})", At(.field))]
    InvalidStrategy {
        field: Path,
        value: String,
        expected: &'static str,
    },
    /// eru: a resource request or node resource eru rejects; `code` is `invalid_cpu`,
    /// `invalid_memory`, `invalid_storage`, `invalid_volume` or `invalid_usage` (a bad usage
    /// ratio).
    #[error("{}{reason}", At(.field))]
    InvalidResource {
        field: Path,
        code: ErrorCode,
        reason: String,
    },
    /// A customized resource model breaks one of Karmada's rules (`rule` states it).
    #[error(
        "{}resource model grade {grade}{}: {rule}",
        At(.field),
        OfResource(.resource)
    )]
    InvalidModel {
        field: Path,
        rule: &'static str,
        grade: u64,
        resource: Option<String>,
    },
    /// Karmada's FitError: no cluster passed the filter plugins. The message is Karmada's
    /// (`0/3 clusters are available: 1 cluster(s) had untolerated taint {k:NoSchedule}, ...`).
    #[error("{}{message}", At(.field))]
    NoClusterFit { field: Path, message: String },
    /// The spread constraints cannot be met by the feasible clusters (Karmada's message).
    #[error("{}{message}", At(.field))]
    SpreadUnsatisfiable { field: Path, message: String },
    /// Karmada's policy webhook refuses the placement, so the policy never reaches the
    /// scheduler; `reason` is the webhook's, in its words (docs/rules/karmada.md §17).
    #[error("{}refused at admission: {reason}", At(.field))]
    RefusedAtAdmission { field: Path, reason: String },
    /// The input document does not have the expected shape: a wrong type, a missing or unknown
    /// field, an unreadable quantity. `code` is `invalid_input` or, when a value was read but
    /// rejected, that value's code (`invalid_quantity`, `negative`, `too_large`).
    #[error("{}{reason}", At(.field))]
    Input {
        field: Path,
        code: ErrorCode,
        reason: String,
    },
}

/// A message's `field: ` (nothing for the document's root).
struct At<'a>(&'a Path);

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_root() {
            Ok(())
        } else {
            write!(f, "{}: ", self.0)
        }
    }
}

fn short_by(requested: &u64, available: &i64) -> i128 {
    i128::from(*requested) - i128::from(*available)
}

/// What a quantity must be, after what the text was probably meant to be, if anything.
struct Suggested<'a>(&'a str, &'a str);

impl fmt::Display for Suggested<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match crate::quantity::suggestion(self.0) {
            Some(meant) => write!(f, "did you mean {meant}? (expected {})", self.1),
            None => write!(f, "expected {}", self.1),
        }
    }
}

/// `; detail`, when there is one.
struct Detail<'a>(&'a str);

impl fmt::Display for Detail<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            Ok(())
        } else {
            write!(f, "; {}", self.0)
        }
    }
}

/// `, resource NAME`, when the rule concerns one.
struct OfResource<'a>(&'a Option<String>);

impl fmt::Display for OfResource<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(r) => write!(f, ", resource {r}"),
            None => Ok(()),
        }
    }
}

/// Declares [`ErrorCode`] from one list of `Variant => "written_name"` pairs: the enum, its
/// `ALL` and its `as_str` (which serializes it).
macro_rules! error_codes {
    ($($variant:ident => $name:literal,)*) => {
        /// The stable machine-readable code of an [`Error`]: what bindings expose as `code`
        /// (`"unschedulable"`), written in snake_case.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum ErrorCode {
            $($variant,)*
        }

        impl ErrorCode {
            /// Every code, in documentation order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The code as bindings write it: `"too_large"`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $name,)*
                }
            }
        }
    };
}

error_codes! {
    Negative => "negative",
    TooLarge => "too_large",
    DuplicateName => "duplicate_name",
    EmptyName => "empty_name",
    NoCandidates => "no_candidates",
    InvalidSelector => "invalid_selector",
    Unschedulable => "unschedulable",
    UnknownValue => "unknown_value",
    Missing => "missing",
    InvalidQuantity => "invalid_quantity",
    InvalidModel => "invalid_model",
    InsufficientResource => "insufficient_resource",
    InsufficientCapacity => "insufficient_capacity",
    AlreadyFilled => "already_filled",
    InvalidCount => "invalid_count",
    InvalidStrategy => "invalid_strategy",
    InvalidCpu => "invalid_cpu",
    InvalidMemory => "invalid_memory",
    InvalidStorage => "invalid_storage",
    InvalidVolume => "invalid_volume",
    InvalidUsage => "invalid_usage",
    NoClusterFit => "no_cluster_fit",
    SpreadUnsatisfiable => "spread_unsatisfiable",
    RefusedAtAdmission => "refused_at_admission",
    InvalidInput => "invalid_input",
    UnsupportedVersion => "unsupported_version",
}

impl ErrorCode {
    /// The code written `name`, if it is one.
    pub fn from_name(name: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|c| c.as_str() == name)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Every code [`Error::code`] can return, for bindings that document them.
pub const CODES: &[ErrorCode] = ErrorCode::ALL;

impl Error {
    /// The stable machine-readable code, e.g. `"unschedulable"`.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::Negative { .. } => ErrorCode::Negative,
            Error::TooLarge { .. } => ErrorCode::TooLarge,
            Error::DuplicateName { .. } => ErrorCode::DuplicateName,
            Error::EmptyName { .. } => ErrorCode::EmptyName,
            Error::NoCandidates { .. } => ErrorCode::NoCandidates,
            Error::InvalidSelector { .. } => ErrorCode::InvalidSelector,
            Error::Unschedulable { .. } => ErrorCode::Unschedulable,
            Error::UnknownValue { .. } => ErrorCode::UnknownValue,
            Error::Missing { .. } => ErrorCode::Missing,
            Error::InvalidQuantity { .. } => ErrorCode::InvalidQuantity,
            Error::InvalidModel { .. } => ErrorCode::InvalidModel,
            Error::InsufficientResource { .. } => ErrorCode::InsufficientResource,
            Error::InsufficientCapacity { .. } => ErrorCode::InsufficientCapacity,
            Error::AlreadyFilled { .. } => ErrorCode::AlreadyFilled,
            Error::InvalidCount { .. } => ErrorCode::InvalidCount,
            Error::InvalidStrategy { .. } => ErrorCode::InvalidStrategy,
            Error::InvalidResource { code, .. } => *code,
            Error::NoClusterFit { .. } => ErrorCode::NoClusterFit,
            Error::SpreadUnsatisfiable { .. } => ErrorCode::SpreadUnsatisfiable,
            Error::RefusedAtAdmission { .. } => ErrorCode::RefusedAtAdmission,
            Error::Input { code, .. } => *code,
        }
    }

    /// This error as a deserializer's error, for values that check themselves while they are
    /// read (quantities, byte amounts). The code travels as data, not in the message:
    /// `invalid_value` with `Unexpected::Other(code)` and the reason as what was expected.
    /// allot's reader ([`crate::json`]) turns that back into this code and reason at the
    /// value's path; other deserializers word it as their own "invalid value" message.
    /// An error located inside the value (`min` of a model range) carries that location too,
    /// packed after the code and a U+001F ([`Path::packed`]), and the reader appends it.
    pub fn into_de<E: serde::de::Error>(&self) -> E {
        let field = self.field();
        if field.is_root() {
            return E::invalid_value(
                serde::de::Unexpected::Other(self.code().as_str()),
                &Reason(self),
            );
        }
        let tag = alloc::format!("{}{INNER}{}", self.code().as_str(), field.packed());
        E::invalid_value(serde::de::Unexpected::Other(&tag), &Reason(self))
    }

    /// The message without the leading `field: `.
    pub fn reason(&self) -> String {
        alloc::format!("{}", Reason(self))
    }

    /// Where the input value the error is about sits.
    pub fn field(&self) -> &Path {
        field_of!(self)
    }

    /// Locate the error within `outer` (`weight` becomes `clusters[2].weight`).
    pub fn within(mut self, outer: &Path) -> Self {
        let field: &mut Path = field_of!(&mut self);
        *field = core::mem::take(field).within(outer);
        self
    }

    /// The same error located at `field` instead.
    pub fn at(mut self, field: Path) -> Self {
        *field_of!(&mut self) = field;
        self
    }
}

impl serde::Serialize for Error {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Error", 3)?;
        st.serialize_field("code", &self.code())?;
        st.serialize_field("path", self.field())?;
        st.serialize_field("message", &alloc::format!("{self}"))?;
        st.end()
    }
}

/// An error's message without its field.
pub(crate) struct Reason<'a>(pub(crate) &'a Error);

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = alloc::format!("{}", self.0);
        let at = alloc::format!("{}", At(self.0.field()));
        f.write_str(message.strip_prefix(at.as_str()).unwrap_or(&message))
    }
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// Non-negative `value` as u64, or [`Error::Negative`] naming `field` (built only then).
pub fn non_negative(value: i64, field: impl FnOnce() -> Path) -> Result<u64> {
    u64::try_from(value).map_err(|_| Error::Negative {
        field: field(),
        value,
    })
}

/// The path `names[index]` (`names` as in [`Path::fields`]).
pub fn indexed(names: &'static str, index: usize) -> Path {
    Path::fields(names).index(index)
}

impl serde::de::Expected for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Separates the code from a packed inner location in [`Error::into_de`]'s tag.
pub(crate) const INNER: char = '\u{1f}';

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    fn at() -> Path {
        Path::fields("clusters").index(2).field("weight")
    }

    #[test]
    fn every_message_is_its_field_then_its_reason() {
        let s = |v: &str| v.to_string();
        let cases =
            vec![
            (
                Error::Negative { field: at(), value: -3 },
                "must not be negative, got -3",
            ),
            (
                Error::TooLarge { field: at(), limit: 7 },
                "too large, allot accepts at most 7",
            ),
            (
                Error::DuplicateName { field: at(), name: s("a") },
                "the name \"a\" appears more than once",
            ),
            (Error::EmptyName { field: at() }, "the name must not be empty"),
            (Error::NoCandidates { field: at() }, "no clusters available to schedule"),
            (
                Error::InvalidSelector { field: at(), reason: s("bad") },
                "invalid selector: bad",
            ),
            (
                Error::Unschedulable { field: at(), requested: 9, available: 4 },
                "unschedulable: 9 replicas requested but only 4 available (short by 5)",
            ),
            (
                Error::UnknownValue { field: at(), value: s("x"), expected: "a, b" },
                "unknown value \"x\", expected one of a, b",
            ),
            (Error::Missing { field: at() }, "required but missing"),
            (
                Error::InvalidQuantity { field: at(), value: s("32GB"), expected: "a number" },
                "\"32GB\" is not a quantity allot reads: did you mean 32Gi? (expected a number)",
            ),
            (
                Error::InvalidQuantity { field: at(), value: s("x"), expected: "a number" },
                "\"x\" is not a quantity allot reads: expected a number",
            ),
            (
                Error::InsufficientResource {
                    field: at(),
                    need: 3,
                    available: 1,
                    detail: s("n1: 1"),
                },
                "insufficient resource: need: 3, available: 1; n1: 1",
            ),
            (
                Error::InsufficientResource {
                    field: at(),
                    need: 3,
                    available: 1,
                    detail: s(""),
                },
                "insufficient resource: need: 3, available: 1",
            ),
            (
                Error::InsufficientCapacity { field: at(), need: 2 },
                "insufficient capacity: no node can take 2 new instances",
            ),
            (
                Error::AlreadyFilled { field: at(), need: 2 },
                "already filled: every selected node already has 2 instances",
            ),
            (
                Error::InvalidCount { field: at(), value: 0 },
                "the deploy count must be positive, got 0",
            ),
            (
                Error::InvalidStrategy {
                    field: at(),
                    value: s("X"),
                    expected: "AUTO, FILL, EACH, GLOBAL, DRAINED",
                },
                "\"X\" is not a strategy (AUTO, FILL, EACH, GLOBAL, DRAINED)",
            ),
            (
                Error::InvalidResource {
                    field: at(),
                    code: ErrorCode::InvalidCpu,
                    reason: s("no"),
                },
                "no",
            ),
            (
                Error::InvalidModel {
                    field: at(),
                    rule: "max must be greater than min",
                    grade: 1,
                    resource: Some(s("cpu")),
                },
                "resource model grade 1, resource cpu: max must be greater than min",
            ),
            (
                Error::InvalidModel {
                    field: at(),
                    rule: "the grade of each model must be different",
                    grade: 0,
                    resource: None,
                },
                "resource model grade 0: the grade of each model must be different",
            ),
            (
                Error::NoClusterFit { field: at(), message: s("0/1 clusters") },
                "0/1 clusters",
            ),
            (
                Error::SpreadUnsatisfiable { field: at(), message: s("spread") },
                "spread",
            ),
            (
                Error::RefusedAtAdmission { field: at(), reason: s("no") },
                "refused at admission: no",
            ),
            (
                Error::Input {
                    field: at(),
                    code: ErrorCode::InvalidInput,
                    reason: s("a number"),
                },
                "a number",
            ),
        ];
        for (e, reason) in cases {
            assert_eq!(e.reason(), reason);
            assert_eq!(
                e.to_string(),
                alloc::format!("clusters[2].weight: {reason}")
            );
            let root = e.clone().within(&Path::root());
            assert_eq!(
                root.to_string(),
                alloc::format!("clusters[2].weight: {reason}")
            );
        }
        // At the document's root the message is the reason alone.
        let e = Error::Missing {
            field: Path::root(),
        };
        assert_eq!(
            (e.to_string(), e.reason()),
            (s("required but missing"), s("required but missing"))
        );
    }

    #[test]
    fn an_eru_resource_error_has_its_resource_code() {
        let e = Error::InvalidResource {
            field: at(),
            code: ErrorCode::InvalidVolume,
            reason: "bad".into(),
        };
        assert_eq!(e.code(), ErrorCode::InvalidVolume);
    }
}
