//! Replica division methods: how N replicas are split among weighted clusters.
//!
//! - [`webster`]: Sainte-Laguë, Karmada >= v1.16 (spec karmada.md §2).
//!
//! Shared helpers for the methods live here.

pub mod request;
pub mod tie;
pub mod webster;

use alloc::collections::BTreeSet;

use crate::error::{indexed, Error, Result};

/// Check that every name is non-empty and unique; errors name `list[i].name`.
pub(crate) fn check_unique_names<'a>(
    names: impl Iterator<Item = &'a str>,
    list: &str,
) -> Result<()> {
    let mut seen = BTreeSet::new();
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
