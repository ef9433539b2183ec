//! The APIEnablement filter (docs/rules/karmada.md §12.4): a new placement needs a cluster that
//! lists the resource's group-version and kind; clusters already placed on pass.

use super::{BindingView, ClusterView, Failure};
#[cfg(doc)]
use crate::karmada::constraints::api_status;

pub const REASON: &str = "cluster(s) did not have the API resource";

/// `b.judged` says which of the set's API lists serve the resource ([`api_status`] enabled).
#[inline]
pub(super) fn filter(b: &BindingView<'_>, c: &ClusterView<'_>) -> Option<Failure<'static>> {
    if c.placed || b.judged.served(c.facts.api) {
        return None;
    }
    Some(Failure::Fixed(REASON))
}
