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
    Negative { field: Path, value: i64 },
    /// A number, or a sum of numbers, is beyond what allot computes exactly.
    TooLarge { field: Path, limit: u64 },
    /// Two entries of a list share a name that must be unique.
    DuplicateName { field: Path, name: String },
    /// A name that must not be empty is empty.
    EmptyName { field: Path },
    /// There is nothing to schedule onto ("no clusters available to schedule").
    NoCandidates { field: Path },
    /// A label or field selector cannot be evaluated.
    InvalidSelector { field: Path, reason: String },
    /// The targets cannot hold the requested replicas.
    Unschedulable {
        field: Path,
        requested: u64,
        available: u64,
    },
    /// An enum-like string has a value allot does not know.
    UnknownValue {
        field: Path,
        value: String,
        expected: &'static str,
    },
    /// A field is required in this context and missing.
    Missing { field: Path },
    /// A Kubernetes quantity string that cannot be read.
    InvalidQuantity {
        field: Path,
        value: String,
        problem: crate::quantity::QuantityProblem,
    },
    /// eru: the nodes cannot hold what is asked (`need` instances, `available` possible).
    InsufficientResource {
        field: Path,
        need: u64,
        available: u64,
        detail: String,
    },
    /// eru EACH: no node can take `need` instances.
    InsufficientCapacity { field: Path, need: u64 },
    /// eru FILL: every selected node already has the instances asked for.
    AlreadyFilled { field: Path, need: u64 },
    /// eru: the deploy count is not positive.
    InvalidCount { field: Path, value: i64 },
    /// eru: not a strategy (AUTO, FILL, EACH, GLOBAL, DRAINED).
    InvalidStrategy { field: Path, value: String },
    /// eru: a resource request or node resource eru rejects (`invalid_cpu`, `invalid_memory`,
    /// `invalid_storage`, `invalid_volume`, or a bad usage ratio).
    InvalidResource {
        field: Path,
        kind: crate::eru::ResourceKind,
        reason: String,
    },
    /// A customized resource model breaks one of Karmada's rules.
    InvalidModel {
        field: Path,
        rule: crate::estimate::models::ModelRule,
        grade: u64,
        resource: Option<String>,
    },
    /// Karmada's FitError: no cluster passed the filter plugins. The message is Karmada's
    /// (`0/3 clusters are available: 1 cluster(s) had untolerated taint {k:NoSchedule}, ...`).
    NoClusterFit { field: Path, message: String },
    /// The spread constraints cannot be met by the feasible clusters (Karmada's message).
    SpreadUnsatisfiable { field: Path, message: String },
    /// The input document does not have the expected shape: a wrong type, a missing or unknown
    /// field, an unreadable quantity. `code` is `invalid_input` or, when a value was read but
    /// rejected, that value's code (`invalid_quantity`, `negative`, `too_large`).
    Input {
        field: Path,
        code: ErrorCode,
        reason: String,
    },
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
            Error::InvalidResource { kind, .. } => kind.code(),
            Error::NoClusterFit { .. } => ErrorCode::NoClusterFit,
            Error::SpreadUnsatisfiable { .. } => ErrorCode::SpreadUnsatisfiable,
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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = self.field();
        if !field.is_root() {
            write!(f, "{field}: ")?;
        }
        Reason(self).fmt(f)
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
        match self.0 {
            Error::Negative { value, .. } => {
                write!(f, "must not be negative, got {value}")
            }
            Error::TooLarge { limit, .. } => {
                write!(f, "too large, allot accepts at most {limit}")
            }
            Error::DuplicateName { name, .. } => {
                write!(f, "the name {name:?} appears more than once")
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
            } => write!(f, "unknown value {value:?}, expected one of {expected}"),
            Error::Missing { .. } => write!(f, "required but missing"),
            Error::InvalidQuantity { value, problem, .. } => {
                write!(f, "{value:?} is not a quantity allot reads: ")?;
                match crate::quantity::suggestion(value) {
                    Some(meant) => {
                        write!(f, "did you mean {meant}? (expected {})", problem.describe())
                    }
                    None => write!(f, "expected {}", problem.describe()),
                }
            }
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
                "{value:?} is not a strategy (AUTO, FILL, EACH, GLOBAL, DRAINED)"
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
            Error::NoClusterFit { message, .. } | Error::SpreadUnsatisfiable { message, .. } => {
                f.write_str(message)
            }
            Error::Input { reason, .. } => f.write_str(reason),
        }
    }
}

impl core::error::Error for Error {}

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
