//! Typed errors with stable codes.
//!
//! Every public function of the crate returns `Result<_, Error>` instead of panicking
//! (spec README, decision 6). Each variant has a stable snake_case [`Error::code`] that the
//! bindings expose to JavaScript, and names the offending input field as a path such as
//! `clusters[2].weight`.

use alloc::string::String;
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
            | Error::InvalidModel { field, .. } => field,
        }
    };
}

/// An error with a stable code, the field it concerns and a message a user can act on.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
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
}

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
        }
    }

    /// The path of the input field the error is about.
    pub fn field(&self) -> &str {
        field_of!(self)
    }

    /// Prefix the field path with `outer` (`weight` becomes `clusters[2].weight`).
    pub fn within(mut self, outer: &str) -> Self {
        let field: &mut String = field_of!(&mut self);
        *field = if field.is_empty() {
            String::from(outer)
        } else if field.starts_with('[') {
            alloc::format!("{outer}{field}")
        } else {
            alloc::format!("{outer}.{field}")
        };
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Negative { field, value } => {
                write!(f, "{field}: must not be negative, got {value}")
            }
            Error::TooLarge { field, limit } => {
                write!(f, "{field}: too large, allot accepts at most {limit}")
            }
            Error::DuplicateName { field, name } => {
                write!(f, "{field}: the name {name:?} appears more than once")
            }
            Error::EmptyName { field } => write!(f, "{field}: the name must not be empty"),
            Error::NoCandidates { field } => {
                write!(f, "{field}: no clusters available to schedule")
            }
            Error::InvalidSelector { field, reason } => {
                write!(f, "{field}: invalid selector: {reason}")
            }
            Error::Unschedulable {
                field,
                requested,
                available,
            } => write!(
                f,
                "{field}: unschedulable: {requested} replicas requested but only {available} \
                 available (short by {})",
                requested.saturating_sub(*available)
            ),
            Error::UnknownValue {
                field,
                value,
                expected,
            } => write!(
                f,
                "{field}: unknown value {value:?}, expected one of {expected}"
            ),
            Error::Missing { field } => write!(f, "{field}: required but missing"),
            Error::InvalidQuantity {
                field,
                value,
                problem,
            } => write!(
                f,
                "{field}: {value:?} is not a quantity allot reads: {}",
                problem.describe()
            ),
            Error::InsufficientResource {
                field,
                need,
                available,
                detail,
            } => write!(
                f,
                "{field}: insufficient resource: need: {need}, available: {available}{}{detail}",
                if detail.is_empty() { "" } else { "; " }
            ),
            Error::InsufficientCapacity { field, need } => write!(
                f,
                "{field}: insufficient capacity: no node can take {need} new instances"
            ),
            Error::AlreadyFilled { field, need } => write!(
                f,
                "{field}: already filled: every selected node already has {need} instances"
            ),
            Error::InvalidCount { field, value } => {
                write!(f, "{field}: the deploy count must be positive, got {value}")
            }
            Error::InvalidStrategy { field, value } => write!(
                f,
                "{field}: {value:?} is not a strategy (AUTO, FILL, EACH, GLOBAL, DRAINED)"
            ),
            Error::InvalidResource { field, reason, .. } => write!(f, "{field}: {reason}"),
            Error::InvalidModel {
                field,
                rule,
                grade,
                resource,
            } => {
                write!(f, "{field}: resource model grade {grade}")?;
                if let Some(r) = resource {
                    write!(f, ", resource {r}")?;
                }
                write!(f, ": {}", rule.describe())
            }
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
