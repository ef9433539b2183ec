//! What application failover reads of the objects (docs/rules/fleet.md §32.1): a policy's or
//! a binding's `spec.failover.application`, a binding's `status.aggregatedStatus` (each
//! member's health, and the labels state preservation takes from its `status`), and the
//! graceful eviction tasks a binding already carries, straight into the fleet's types, each
//! problem at the object's own field.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::fleet::Problem;
use super::objects::Object;
use super::time::{rfc3339, seconds};
use crate::karmada::fleet::app_failover::{
    ApplicationFailover, PreservationRule, Reported, WorkloadHealth, GRACE_PERIOD_SECONDS,
    TOLERATION_SECONDS,
};
use crate::karmada::fleet::entry::EvictionTask;
use crate::karmada::fleet::eviction::PurgeMode;
use crate::karmada::version::Version;

/// `spec.failover.application`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Application {
    pub decision_conditions: DecisionConditions,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub purge_mode: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grace_period_seconds: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_preservation: Option<super::failover::StatePreservation>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DecisionConditions {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toleration_seconds: Option<i64>,
}

/// A `status.aggregatedStatus[]` entry.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StatusItem {
    pub cluster_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Value>,
    #[serde(skip_serializing_if = "super::is_false")]
    pub applied: bool,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub health: String,
}

/// Any JSON value (a member's `status`, read by state preservation's paths).
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    /// A number as its text.
    Number(String),
    String(String),
    Array(Vec<Value>),
    Object(BTreeMap<String, Value>),
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Value;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E>(self) -> Result<Value, E> {
                Ok(Value::Null)
            }
            fn visit_none<E>(self) -> Result<Value, E> {
                Ok(Value::Null)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
                Value::deserialize(d)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
                Ok(Value::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
                Ok(Value::Number(format!("{v}")))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
                Ok(Value::Number(format!("{v}")))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
                Ok(Value::Number(format!("{v}")))
            }
            fn visit_str<E>(self, v: &str) -> Result<Value, E> {
                Ok(Value::String(v.into()))
            }
            fn visit_string<E>(self, v: String) -> Result<Value, E> {
                Ok(Value::String(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Value, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = a.next_element()? {
                    v.push(x);
                }
                Ok(Value::Array(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Value, A::Error> {
                let mut m = BTreeMap::new();
                while let Some((k, v)) = a.next_entry::<String, Value>()? {
                    m.insert(k, v);
                }
                Ok(Value::Object(m))
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => match n.parse::<i64>() {
                Ok(i) => s.serialize_i64(i),
                Err(_) => s.serialize_f64(n.parse().unwrap_or(0.0)),
            },
            Value::String(t) => s.serialize_str(t),
            Value::Array(v) => v.serialize(s),
            Value::Object(m) => m.serialize(s),
        }
    }
}

/// What a binding's own `spec.gracefulEvictionTasks[]` entry holds.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Task {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub from_cluster: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i64>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub producer: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub purge_mode: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grace_period_seconds: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppress_deletion: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preserved_label_state: Option<BTreeMap<String, String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clusters_before_failover: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<String>,
}

/// The native kinds Karmada's default interpreter tells the health of
/// (`getAllDefaultHealthInterpreter`): the application failover controller skips any other
/// (`bindingFilter`).
const HEALTH_INTERPRETED: &[&str] = &[
    "Deployment",
    "StatefulSet",
    "ReplicaSet",
    "DaemonSet",
    "Service",
    "Ingress",
    "PersistentVolumeClaim",
    "Pod",
    "PodDisruptionBudget",
];

/// The application failover behaviour of `o` (a policy, or a binding read alone) as the
/// controller acts on it, for a template of `kind`, under `version`: `None` without one, or
/// when the controller skips the binding (`propagateDeps` false, a kind without a health
/// interpreter), or when Karmada's API would not have admitted it (each a problem).
pub fn application(
    o: &Object,
    kind: &str,
    version: Version,
    problems: &mut Vec<Problem>,
) -> Option<ApplicationFailover> {
    let a = o.spec.failover.as_ref()?.application.as_ref()?;
    let field = "spec.failover.application";
    let mut bad = |at: &str, message: String| {
        problems.push(Problem::at(o, &format!("{field}{at}"), message));
        None
    };
    let Some(purge_mode) = PurgeMode::parse_application(&a.purge_mode, version) else {
        let accepted = if version.at_least(19, 0) {
            "Directly, Gracefully or Never"
        } else {
            "Directly, Gracefully, Never, Immediately or Graciously"
        };
        let message = format!(
            "purgeMode {:?}: Karmada {version} accepts {accepted}",
            a.purge_mode
        );
        return bad(".purgeMode", message);
    };
    let toleration_seconds = a
        .decision_conditions
        .toleration_seconds
        .unwrap_or(TOLERATION_SECONDS);
    if toleration_seconds < 0 {
        let message = "must be greater than or equal to 0".into();
        return bad(".decisionConditions.tolerationSeconds", message);
    }
    // The policy webhook (`ValidateApplicationFailover`, `SetDefaultGracePeriodSeconds`).
    let grace_period_seconds = match (purge_mode, a.grace_period_seconds) {
        (PurgeMode::Gracefully, None) => Some(GRACE_PERIOD_SECONDS),
        (_, Some(g)) if g <= 0 => {
            return bad(".gracePeriodSeconds", "must be greater than 0".into())
        }
        (PurgeMode::Gracefully, given) => given,
        (_, Some(_)) => {
            let message = "only takes effect when purgeMode is Gracefully".into();
            return bad(".gracePeriodSeconds", message);
        }
        (_, None) => None,
    };
    if !o.spec.propagate_deps {
        let message = "application failover needs spec.propagateDeps true (the webhook \
                       rejects a policy without it; the controller skips such a binding)";
        problems.push(Problem::at(o, "spec.propagateDeps", message));
        return None;
    }
    if !HEALTH_INTERPRETED.contains(&kind) {
        let message = format!(
            "Karmada's default interpreter tells no health of a {kind}: the application \
             failover controller skips its binding"
        );
        return bad("", message);
    }
    let state_preservation = a
        .state_preservation
        .iter()
        .flat_map(|s| s.rules.iter())
        .map(|r| PreservationRule {
            alias_label_name: r.alias_label_name.clone(),
            json_path: r.json_path.clone(),
        })
        .collect();
    Some(ApplicationFailover {
        toleration_seconds,
        purge_mode,
        grace_period_seconds,
        state_preservation,
    })
}

/// A binding's `status.aggregatedStatus`, by cluster, with the labels `rules` read from each
/// member's status. An unknown `health` is a problem (the entry is left out).
pub fn reported(
    b: &Object,
    rules: &[PreservationRule],
    problems: &mut Vec<Problem>,
) -> BTreeMap<String, Reported> {
    let mut out = BTreeMap::new();
    for (k, item) in b.status.aggregated_status.iter().enumerate() {
        let health = match item.health.as_str() {
            "Healthy" => WorkloadHealth::Healthy,
            "Unhealthy" => WorkloadHealth::Unhealthy,
            "Unknown" | "" => WorkloadHealth::Unknown,
            other => {
                let field = format!("status.aggregatedStatus[{k}].health");
                let message = format!("{other:?}: expected Healthy, Unhealthy or Unknown");
                problems.push(Problem::at(b, &field, message));
                continue;
            }
        };
        let preserved = item.status.as_ref().map(|status| {
            rules
                .iter()
                .map(|r| Ok((r.alias_label_name.clone(), json_path(status, &r.json_path)?)))
                .collect()
        });
        out.insert(item.cluster_name.clone(), Reported { health, preserved });
    }
    out
}

/// A binding's graceful eviction tasks, as read (`creationTimestamp` absent: stamped when
/// the controller first sees it); a purge mode the release does not accept is a problem,
/// read as the controllers read an unknown one (neither `Directly` nor suppressed).
pub fn tasks(b: &Object, version: Version, problems: &mut Vec<Problem>) -> Vec<EvictionTask> {
    b.spec
        .graceful_eviction_tasks
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let text = t.purge_mode.as_str();
            let purge_mode = PurgeMode::parse_application(text, version).unwrap_or_else(|| {
                let field = format!("spec.gracefulEvictionTasks[{k}].purgeMode");
                let message = format!("{text:?}: Karmada {version} does not accept it");
                problems.push(Problem::at(b, &field, message));
                PurgeMode::Gracefully
            });
            let created = t.creation_timestamp.as_deref().and_then(seconds);
            let text = |s: &str| (!s.is_empty()).then(|| String::from(s));
            EvictionTask {
                from_cluster: t.from_cluster.clone(),
                replicas: t.replicas.filter(|&r| r > 0),
                created_at: created.unwrap_or(0),
                unstamped: created.is_none(),
                purge_mode,
                grace_period_seconds: t.grace_period_seconds,
                suppress_deletion: t.suppress_deletion,
                producer: text(&t.producer),
                reason: text(&t.reason),
                preserved_label_state: t.preserved_label_state.clone().unwrap_or_default(),
                clusters_before_failover: t.clusters_before_failover.clone(),
            }
        })
        .collect()
}

/// Each graceful eviction task of the fleet as the binding's `spec.gracefulEvictionTasks[]`
/// entry Karmada writes (`creationTimestamp` from the fleet's clock).
pub fn task_objects(tasks: &[EvictionTask]) -> Vec<Task> {
    tasks
        .iter()
        .map(|t| Task {
            from_cluster: t.from_cluster.clone(),
            replicas: t.replicas,
            reason: t.reason.clone().unwrap_or_default(),
            producer: t.producer.clone().unwrap_or_default(),
            purge_mode: String::from(t.purge_mode.as_str()),
            grace_period_seconds: t.grace_period_seconds,
            suppress_deletion: t.suppress_deletion,
            preserved_label_state: (!t.preserved_label_state.is_empty())
                .then(|| t.preserved_label_state.clone()),
            clusters_before_failover: t.clusters_before_failover.clone(),
            creation_timestamp: (!t.unstamped).then(|| rfc3339(t.created_at)),
            ..Task::default()
        })
        .collect()
}

/// The text Kubernetes' JSONPath `path` (`{.a.b[0].c}`, read from the status) prints of
/// `status`, as `BuildPreservedLabelState` takes it: a missing key is an error (Karmada does
/// not allow missing keys). allot reads field and index steps; other JSONPath features are
/// an error saying so.
pub fn json_path(status: &Value, path: &str) -> Result<String, String> {
    let inner = path
        .trim()
        .strip_prefix('{')
        .and_then(|p| p.strip_suffix('}'))
        .unwrap_or(path.trim());
    let unsupported = || format!("jsonPath {path:?}: allot reads only .field and [index] steps");
    let mut at = status;
    let rest = inner.strip_prefix('.').ok_or_else(unsupported)?;
    for step in rest.split('.').filter(|s| !s.is_empty()) {
        let (name, indices) = match step.find('[') {
            Some(i) => (&step[..i], &step[i..]),
            None => (step, ""),
        };
        if name.contains(['*', '?', '@', '$', '(']) {
            return Err(unsupported());
        }
        if !name.is_empty() {
            at = match at {
                Value::Object(m) => m
                    .get(name)
                    .ok_or_else(|| format!("jsonPath {path:?}: {name} is not found"))?,
                _ => return Err(format!("jsonPath {path:?}: {name} is not found")),
            };
        }
        let mut idx = indices;
        while let Some(open) = idx.strip_prefix('[') {
            let (n, after) = open.split_once(']').ok_or_else(unsupported)?;
            let n: usize = n.parse().map_err(|_| unsupported())?;
            at = match at {
                Value::Array(v) => v
                    .get(n)
                    .ok_or_else(|| format!("jsonPath {path:?}: array index out of bounds"))?,
                _ => return Err(unsupported()),
            };
            idx = after;
        }
        if !idx.is_empty() {
            return Err(unsupported());
        }
    }
    match at {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.clone()),
        Value::Bool(b) => Ok(format!("{b}")),
        Value::Null => Ok(String::from("<nil>")),
        other => crate::json::to_json(other).map_err(|e| format!("{e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> Value {
        crate::json::from_json(text).unwrap()
    }

    // BuildPreservedLabelState (pkg/util/helper/failover.go): a path from the status, a
    // missing key an error.
    #[test]
    fn json_paths_read_fields_and_indices() {
        let s = value(r#"{"replicas":3,"conditions":[{"type":"Available"}],"name":"x"}"#);
        assert_eq!(json_path(&s, "{.replicas}").unwrap(), "3");
        assert_eq!(json_path(&s, "{.conditions[0].type}").unwrap(), "Available");
        assert_eq!(json_path(&s, "{.name}").unwrap(), "x");
        assert!(json_path(&s, "{.missing}")
            .unwrap_err()
            .contains("not found"));
        assert!(json_path(&s, "{.conditions[*].type}").is_err());
    }

    // The purge modes each release's CRD accepts: 1.19 dropped Immediately and Graciously.
    #[test]
    fn purge_modes_by_release() {
        let v18 = Version::parse("1.18").unwrap();
        let v19 = Version::parse("1.19").unwrap();
        let parse = PurgeMode::parse_application;
        assert_eq!(parse("Immediately", v18), Some(PurgeMode::Directly));
        assert_eq!(parse("Graciously", v18), Some(PurgeMode::Gracefully));
        assert_eq!(parse("Immediately", v19), None);
        assert_eq!(parse("Graciously", v19), None);
        assert_eq!(parse("Never", v19), Some(PurgeMode::Never));
        assert_eq!(parse("", v19), Some(PurgeMode::Gracefully));
        // The taint manager's purge modes are the cluster failover's: no Never.
        assert_eq!(PurgeMode::parse("Never"), None);
    }
}
