//! The APIEnablement filter (docs/rules/karmada.md §12.4): a new placement needs a cluster that
//! lists the resource's group-version and kind; clusters already placed on pass.

use super::{ClusterView, Failure};
use crate::karmada::constraints::{api_status, ApiStatus};

pub const REASON: &str = "cluster(s) did not have the API resource";

pub(super) fn filter(
    c: &ClusterView<'_>,
    api_version: &str,
    kind: &str,
) -> Option<Failure<'static>> {
    if c.placed {
        return None;
    }
    match api_status(
        &c.member.api_enablements,
        c.member.complete_api_enablements,
        api_version,
        kind,
    ) {
        ApiStatus::APIEnabled => None,
        ApiStatus::APIDisabled | ApiStatus::APIUnknown => Some(Failure::Fixed(REASON)),
    }
}
