//! eru-core scheduling (docs/rules/eru.md, with the design document's examples): per-node
//! capacity from resources (memory, CPU binding, volumes, storage) and the orchestration
//! strategies that turn capacities into a deploy map.
//!
//! - [`strategy`]: AUTO (Communism), FILL, EACH (Average), GLOBAL, DRAINED (§A).
//! - [`cpumem`]: memory-only capacity and CPU binding plans (§C).
//! - [`storage`] and [`volume`]: storage quota and volume plans (§D).
//! - [`gpu`]: whole GPU cards by product (§E).
//! - [`merge`]: per-node minimum over resources, weighted usage and rate (§B).
//! - [`pipeline`]: nodes + request + strategy -> capacities, deploy map and plans.
//! - [`paths`]: where a deploy's inputs sit in the caller's document, for errors.

pub mod cpumem;
pub mod gpu;
pub mod merge;
pub mod paths;
pub mod pipeline;
pub mod storage;
pub mod strategy;
pub mod volume;

use core::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// Which resource an `invalid_*` error is about; each has its own stable code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    Cpu,
    Memory,
    Storage,
    Volume,
    /// A usage or rate ratio (negative or not a number).
    Usage,
}

impl ResourceKind {
    pub fn code(self) -> crate::ErrorCode {
        use crate::ErrorCode;
        match self {
            ResourceKind::Cpu => ErrorCode::InvalidCpu,
            ResourceKind::Memory => ErrorCode::InvalidMemory,
            ResourceKind::Storage => ErrorCode::InvalidStorage,
            ResourceKind::Volume => ErrorCode::InvalidVolume,
            ResourceKind::Usage => ErrorCode::InvalidUsage,
        }
    }
}

/// How many more instances a node takes: a count, or unlimited (nothing requested limits it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Capacity {
    Finite(u64),
    Unlimited,
}

impl Capacity {
    /// The count, with unlimited as `u64::MAX` (for arithmetic that saturates).
    pub fn saturating(self) -> u64 {
        match self {
            Capacity::Finite(n) => n,
            Capacity::Unlimited => u64::MAX,
        }
    }

    pub fn min(self, other: Capacity) -> Capacity {
        core::cmp::min(self, other)
    }

    pub fn is_zero(self) -> bool {
        self == Capacity::Finite(0)
    }

    /// Σ capacities; unlimited if any is.
    pub fn sum(items: impl IntoIterator<Item = Capacity>) -> Capacity {
        let mut total: u64 = 0;
        for c in items {
            match c {
                Capacity::Unlimited => return Capacity::Unlimited,
                Capacity::Finite(n) => match total.checked_add(n) {
                    Some(t) => total = t,
                    None => return Capacity::Unlimited,
                },
            }
        }
        Capacity::Finite(total)
    }
}

impl fmt::Display for Capacity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Capacity::Finite(n) => write!(f, "{n}"),
            Capacity::Unlimited => f.write_str("unlimited"),
        }
    }
}

impl Serialize for Capacity {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Capacity::Finite(n) => s.serialize_u64(*n),
            Capacity::Unlimited => s.serialize_str("unlimited"),
        }
    }
}

impl<'de> Deserialize<'de> for Capacity {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Capacity;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a non-negative integer or \"unlimited\"")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Capacity, E> {
                Ok(Capacity::Finite(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Capacity, E> {
                u64::try_from(v)
                    .map(Capacity::Finite)
                    .map_err(|_| E::custom("a capacity must not be negative"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Capacity, E> {
                if v == "unlimited" {
                    Ok(Capacity::Unlimited)
                } else {
                    Err(E::custom("expected \"unlimited\""))
                }
            }
        }
        d.deserialize_any(V)
    }
}
