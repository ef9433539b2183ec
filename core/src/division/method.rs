//! One entry point for the three division methods, shared by the static and dynamic strategies
//! (docs/rules/karmada.md §2, §5), returning the new replicas and an explanation.
//!
//! - `webster`: Sainte-Laguë over the weights, seats already held (`initial`) count.
//! - `remainder`: floor shares, remainder by weight, previous replicas, then seeded random.
//! - `name-order`: floor shares, remainder by weight, then name.

use crate::Name;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::remainder::{self, OrderReason, TieOrder};
use super::tie::TieBreak;
use super::webster::{self, Party};
use crate::error::{Error, Result, MAX_WEIGHT};

/// The division method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Sainte-Laguë, Karmada >= v1.16 (the default).
    #[default]
    Webster,
    /// The proposal: floor shares, remainder by weight, previous replicas, then random.
    Remainder,
    /// Karmada <= v1.7: floor shares, remainder by weight, then name.
    NameOrder,
}

// Every method, Karmada's current one first.
crate::choice::names!(Method {
    Webster => "webster",
    Remainder => "remainder",
    NameOrder => "name-order",
});

/// A cluster taking part in one division.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Input<'a> {
    pub name: &'a str,
    pub weight: u64,
    /// Replicas the cluster keeps whatever happens (scale-up keeps previous placements).
    pub initial: u64,
    /// Replicas in the previous result: the remainder method's inertia key.
    pub last: u64,
}

/// One cluster's part of a division, for the explanation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EntryTrace {
    pub cluster: Name,
    pub weight: u64,
    /// `floor(weight · target / Σweight)`.
    pub floor_share: u64,
    /// The fractional part of the exact share, in thousandths (for display).
    pub fraction_milli: u64,
    /// New replicas from this division.
    pub added: u64,
    /// Replicas held before (kept).
    pub initial: u64,
    /// Whether a remainder replica went here (floor-plus-remainder methods).
    pub got_remainder: bool,
}

/// A step of the remainder order and why the cluster comes before the next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OrderStep {
    pub cluster: Name,
    pub reason: OrderReason,
}

/// How one division went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DivisionTrace {
    pub method: Method,
    pub target: u64,
    pub total_weight: u64,
    pub entries: Vec<EntryTrace>,
    /// `target − Σ floor shares`.
    pub remainder: u64,
    /// The remainder order (floor-plus-remainder methods; empty for Webster).
    pub order: Vec<OrderStep>,
    /// Whether the seeded random order decided who got a remainder replica.
    pub random_decided: bool,
}

/// Divide `target` new replicas among `inputs`; returns each input's final replicas
/// (`initial + added`) in input order, and the trace. Σweight above `i64::MAX` is
/// [`Error::TooLarge`] on `weights`; an empty or repeated name is an error on `clusters`.
pub fn divide(
    method: Method,
    target: u64,
    inputs: &[Input<'_>],
    uid: &str,
    seed: u64,
) -> Result<(Vec<u64>, DivisionTrace)> {
    super::check_unique_names(inputs.iter().map(|i| i.name), "clusters")?;
    divide_named(method, target, inputs, uid, seed)
}

/// [`divide`] for inputs whose names the caller has already checked.
pub(crate) fn divide_named(
    method: Method,
    target: u64,
    inputs: &[Input<'_>],
    uid: &str,
    seed: u64,
) -> Result<(Vec<u64>, DivisionTrace)> {
    let total: u128 = inputs.iter().map(|i| u128::from(i.weight)).sum();
    let total = u64::try_from(total)
        .ok()
        .filter(|&t| t <= MAX_WEIGHT)
        .ok_or_else(|| Error::TooLarge {
            field: "weights".into(),
            limit: MAX_WEIGHT,
        })?;
    let floors: Vec<u64> = inputs
        .iter()
        .map(|i| super::floor_share(i.weight, target, total))
        .collect();
    let (added, remainder, order, random_decided): (Vec<u64>, u64, Vec<OrderStep>, bool) =
        match method {
            Method::Webster => {
                let parties: Vec<Party<'_>> = inputs
                    .iter()
                    .map(|i| Party {
                        name: i.name,
                        votes: i.weight,
                        initial: 0,
                    })
                    .collect();
                // Dispenser.AllocateByWeight: no weight at all -> nothing new.
                let seats = if total == 0 {
                    alloc::vec![0; inputs.len()]
                } else {
                    webster::allocate_named(target, &parties, TieBreak::from_uid(uid))?
                };
                let remainder = target - floors.iter().sum::<u64>();
                (seats, remainder, Vec::new(), false)
            }
            Method::Remainder | Method::NameOrder => {
                let entries: Vec<remainder::Entry<'_>> = inputs
                    .iter()
                    .map(|i| remainder::Entry {
                        name: i.name,
                        weight: i.weight,
                        last: i.last,
                    })
                    .collect();
                let ties = if method == Method::Remainder {
                    TieOrder::Random { seed }
                } else {
                    TieOrder::Name
                };
                let d = remainder::take_by_weight(target, &entries, ties);
                let order = d
                    .order
                    .iter()
                    .zip(&d.reasons)
                    .map(|(&i, &reason)| OrderStep {
                        cluster: inputs[i].name.into(),
                        reason,
                    })
                    .collect();
                (d.replicas, d.remainder, order, d.random_decided)
            }
        };
    let entries = inputs
        .iter()
        .enumerate()
        .map(|(k, i)| EntryTrace {
            cluster: i.name.into(),
            weight: i.weight,
            floor_share: floors[k],
            fraction_milli: fraction_milli(target, i.weight, total),
            added: added[k],
            initial: i.initial,
            got_remainder: added[k] > floors[k],
        })
        .collect();
    let finals = inputs
        .iter()
        .zip(&added)
        .map(|(i, a)| i.initial + a)
        .collect();
    Ok((
        finals,
        DivisionTrace {
            method,
            target,
            total_weight: total,
            entries,
            remainder,
            order,
            random_decided,
        },
    ))
}

fn fraction_milli(target: u64, weight: u64, total: u64) -> u64 {
    if total == 0 {
        return 0;
    }
    let num = u128::from(weight) * u128::from(target) % u128::from(total);
    (num * 1000 / u128::from(total)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_scenario_names() {
        for m in Method::ALL {
            assert_eq!(
                serde_json::to_value(m).unwrap(),
                serde_json::json!(m.name())
            );
            assert_eq!(Method::named(m.name()), Some(m));
        }
        assert_eq!(Method::named("evenly"), None);
    }
}
