//! Replica division methods: how N replicas are split among weighted clusters.
//!
//! - [`webster`]: Sainte-Laguë, Karmada >= v1.16 (docs/rules/karmada.md §2).
//! - [`remainder`]: floor shares plus a remainder in a sorted order, with seeded random ties
//!   (the proposal, Karmada v1.8-v1.15) or [`name_order`] (Karmada <= v1.7) (§5).
//!
//! Shared helpers for the methods live here.

pub mod method;
pub mod name_order;
pub mod remainder;
pub mod tie;
pub mod webster;

use crate::error::Result;

/// Check that every name is non-empty and unique; errors name `list[i].name`.
pub(crate) fn check_unique_names<'a>(
    names: impl Iterator<Item = &'a str>,
    list: &'static str,
) -> Result<()> {
    crate::names::NameIndex::unique(names, list).map(drop)
}

/// `floor(weight · n / total)`, exact in 128 bits; 0 when total is 0. At most `n` when
/// `weight ≤ total`.
pub fn floor_share(weight: u64, n: u64, total: u64) -> u64 {
    (u128::from(weight) * u128::from(n))
        .checked_div(u128::from(total))
        .map_or(0, |s| s as u64)
}
