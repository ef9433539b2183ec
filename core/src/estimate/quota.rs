//! The ResourceQuota estimate plugin (docs/rules/karmada.md §10, "ResourceQuotaEstimator"; gate
//! ResourceQuotaEstimate): how many replicas the namespace's quotas still admit.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::framework::{Code, PluginResult};
use super::{per, MAX_INT32};
use crate::resource::ResourceList;

/// A scope selector expression (`scopeName`, `operator`, `values`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScopeRequirement {
    pub scope_name: String,
    pub operator: String,
    #[serde(default)]
    pub values: Vec<String>,
}

/// A namespace's ResourceQuota: `hard` limits, `used` amounts, scopes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ResourceQuota {
    pub name: String,
    pub hard: ResourceList,
    pub used: ResourceList,
    pub scopes: Vec<String>,
    pub scope_selector: Vec<ScopeRequirement>,
}

impl ResourceQuota {
    /// Whether the quota applies to a workload with `priority_class`: no scopes at all, or
    /// only PriorityClass scopes that match. Other scopes never match.
    pub fn applies(&self, priority_class: Option<&str>) -> bool {
        let scopes_ok = self
            .scopes
            .iter()
            .all(|s| s == "PriorityClass" && priority_class.is_some());
        let selector_ok = self.scope_selector.iter().all(|r| {
            r.scope_name == "PriorityClass"
                && match r.operator.as_str() {
                    "In" => priority_class.is_some_and(|p| r.values.iter().any(|v| v == p)),
                    "NotIn" => priority_class.is_none_or(|p| !r.values.iter().any(|v| v == p)),
                    "Exists" => priority_class.is_some(),
                    "DoesNotExist" => priority_class.is_none(),
                    _ => false,
                }
        });
        scopes_ok && selector_ok
    }

    /// `hard − used` per requestable resource: `cpu`, `memory`, `requests.*` (prefix
    /// stripped) and extended resources (names with a `/`); `limits.*` and counts ignored.
    pub fn free(&self) -> Vec<(String, i128)> {
        self.hard
            .iter()
            .filter_map(|(name, hard)| {
                let key = if let Some(r) = name.strip_prefix("requests.") {
                    r
                } else if matches!(name, "cpu" | "memory")
                    || (name.contains('/')
                        && !name.starts_with("count/")
                        && !name.starts_with("limits."))
                {
                    name
                } else {
                    return None;
                };
                Some((
                    key.into(),
                    i128::from(hard) - i128::from(self.used.get(name)),
                ))
            })
            .collect()
    }
}

/// The plugin's answer: the minimum over applying quotas of `min floor(free / request)` over
/// requested resources the quota limits; none applying gives MaxInt32 (Success); 0 is
/// Unschedulable.
pub fn estimate(
    quotas: &[ResourceQuota],
    request: &ResourceList,
    priority_class: Option<&str>,
) -> PluginResult {
    let mut replicas = MAX_INT32;
    for q in quotas.iter().filter(|q| q.applies(priority_class)) {
        for (r, free) in q.free() {
            let want = request.get(&r);
            if want == 0 {
                continue;
            }
            let bound = if free <= 0 { 0 } else { per(free as u64, want) };
            replicas = replicas.min(bound);
        }
    }
    PluginResult {
        replicas,
        code: if replicas == 0 {
            Code::Unschedulable
        } else {
            Code::Success
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn quotas_bound_requests() {
        let q = ResourceQuota {
            hard: ResourceList::from_units([
                ("requests.cpu", 10_000),
                ("limits.cpu", 1),
                ("pods", 1),
            ]),
            used: ResourceList::from_units([("requests.cpu", 4_000)]),
            ..ResourceQuota::default()
        };
        let req = ResourceList::from_units([("cpu", 1_500)]);
        assert_eq!(estimate(core::slice::from_ref(&q), &req, None).replicas, 4);
        assert_eq!(estimate(&[], &req, None).replicas, MAX_INT32);
        let scoped = ResourceQuota {
            scope_selector: vec![ScopeRequirement {
                scope_name: "PriorityClass".into(),
                operator: "In".into(),
                values: vec!["high".into()],
            }],
            ..q.clone()
        };
        assert_eq!(
            estimate(core::slice::from_ref(&scoped), &req, Some("low")).replicas,
            MAX_INT32
        );
        assert_eq!(estimate(&[scoped], &req, Some("high")).replicas, 4);
        let other = ResourceQuota {
            scopes: vec!["BestEffort".into()],
            ..q
        };
        assert_eq!(estimate(&[other], &req, None).replicas, MAX_INT32);
        let full = ResourceQuota {
            hard: ResourceList::from_units([("memory", 1)]),
            used: ResourceList::from_units([("memory", 1)]),
            ..ResourceQuota::default()
        };
        let r = estimate(&[full], &ResourceList::from_units([("memory", 1)]), None);
        assert_eq!((r.replicas, r.code), (0, Code::Unschedulable));
    }
}
