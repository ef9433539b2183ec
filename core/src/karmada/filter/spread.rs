//! The SpreadConstraint filter (docs/rules/karmada.md §12.6): spreading by provider, region or
//! zone needs the cluster to state that property. Clusters already placed on are not exempt,
//! and the filter runs even where selection ignores spread constraints.

use super::{BindingView, ClusterView, Failure};
use crate::karmada::constraints::SpreadField;

#[inline]
pub(super) fn filter(b: &BindingView<'_>, c: &ClusterView<'_>) -> Option<Failure<'static>> {
    b.rules.spread_constraints.iter().find_map(|s| {
        let missing = match s.field()? {
            SpreadField::Provider => c.facts.provider.is_none().then_some("provider"),
            SpreadField::Region => c.facts.region.is_none().then_some("region"),
            SpreadField::Zone => c.facts.zones.is_empty().then_some("zones"),
            SpreadField::Cluster => None,
        }?;
        Some(Failure::Missing(missing))
    })
}
