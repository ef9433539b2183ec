//! Replica division methods: how N replicas are split among weighted clusters.
//!
//! - [`webster`]: Sainte-Laguë, Karmada >= v1.16 (spec karmada.md §2).
//!
//! Shared helpers for the methods live here.

pub mod method;
pub mod remainder;
pub mod request;
pub mod tie;
pub mod webster;

use crate::error::{indexed, Error, Result};

/// Check that every name is non-empty and unique; errors name `list[i].name`.
pub(crate) fn check_unique_names<'a>(
    names: impl Iterator<Item = &'a str>,
    list: &str,
) -> Result<()> {
    let (lower, _) = names.size_hint();
    let mut seen = hashbrown::HashSet::with_capacity(lower);
    for (i, name) in names.enumerate() {
        if name.is_empty() {
            return Err(Error::EmptyName {
                field: indexed(list, i) + ".name",
            });
        }
        if !seen.insert(name) {
            return Err(Error::DuplicateName {
                field: indexed(list, i) + ".name",
                name: name.into(),
            });
        }
    }
    Ok(())
}

/// `floor(weight · n / total)`, exact in 128 bits; 0 when total is 0. At most `n` when
/// `weight ≤ total`.
pub fn floor_share(weight: u64, n: u64, total: u64) -> u64 {
    (u128::from(weight) * u128::from(n))
        .checked_div(u128::from(total))
        .map_or(0, |s| s as u64)
}
