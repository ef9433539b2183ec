//! A weighted division request as it arrives from JSON or JavaScript: names, signed weights,
//! the replicas to divide. Validation turns it into Webster parties or a typed error naming
//! the field (docs/rules/README.md decision 6).

use alloc::string::String;
use alloc::vec::Vec;

use super::tie::TieBreak;
use super::webster::{self, Party};
use crate::error::{indexed, Error, Result};

/// One cluster and its weight.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightedCluster {
    pub name: String,
    pub weight: i64,
}

/// Divide `replicas` among `clusters` in proportion to their weights.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightedRequest {
    pub replicas: i64,
    pub clusters: Vec<WeightedCluster>,
    /// The ResourceBinding UID whose FNV-1a hash picks the name tie direction.
    #[serde(default)]
    pub uid: String,
}

/// Replicas per cluster, in the request's cluster order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Share {
    pub name: String,
    pub replicas: u64,
}

/// Non-negative `value` as u64, or [`Error::Negative`] naming `field`.
pub fn non_negative(value: i64, field: impl FnOnce() -> String) -> Result<u64> {
    u64::try_from(value).map_err(|_| Error::Negative {
        field: field(),
        value,
    })
}

/// Divide with Webster's method (Karmada >= v1.16).
pub fn divide_webster(request: &WeightedRequest) -> Result<Vec<Share>> {
    let replicas = non_negative(request.replicas, || "replicas".into())?;
    let parties = request
        .clusters
        .iter()
        .enumerate()
        .map(|(i, c)| {
            Ok(Party {
                name: &c.name,
                votes: non_negative(c.weight, || indexed("clusters", i) + ".weight")?,
                initial: 0,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let seats = webster::allocate(replicas, &parties, TieBreak::from_uid(&request.uid))?;
    Ok(request
        .clusters
        .iter()
        .zip(seats)
        .map(|(c, replicas)| Share {
            name: c.name.clone(),
            replicas,
        })
        .collect())
}
