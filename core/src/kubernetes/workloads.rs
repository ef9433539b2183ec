//! A resource template to the workload Karmada's scheduler reads, and a binding to what
//! Karmada has recorded on it (docs/rules/karmada.md §16.1, §16.2): the template's replicas
//! and replica requirements through the built-in replica interpreter, after the API server's
//! default; a binding's `spec.clusters`, observed affinity term, graceful eviction tasks and
//! reschedule trigger, and, read without its template, its own copy of the workload.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::import::{entry, object, ImportReport};
use super::interpreter::interpret;
use super::objects::Object;
use crate::error::Result;
use crate::karmada::fleet::Workload;

/// A workload and the UID of the object it was read from.
pub(crate) struct Read {
    pub workload: Workload,
    pub uid: String,
}

/// The workload of the template `o` (the `i`th object); an error at its field when the
/// interpreter cannot read it.
pub(crate) fn template(o: &Object, i: usize, r: &mut ImportReport) -> Result<Read> {
    // The API server defaults `spec.replicas` (a Job's `spec.parallelism`) to 1 when the
    // template is created; a manifest not yet applied may leave it out.
    let mut stored = o.clone();
    let absent = match o.kind.as_str() {
        "Pod" => None,
        "Job" => stored
            .spec
            .parallelism
            .is_none()
            .then_some("spec.parallelism"),
        _ => stored.spec.replicas.is_none().then_some("spec.replicas"),
    };
    if let Some(field) = absent {
        if o.kind == "Job" {
            stored.spec.parallelism = Some(1);
        } else {
            stored.spec.replicas = Some(1);
        }
        r.defaulted
            .push(entry(o, field, "absent: 1 (the API server's default)"));
    }
    let (replicas, requirements) = interpret(&stored).map_err(|e| e.within(&object(i)))?;
    let mut w = Workload {
        replicas: replicas as i64,
        api_version: Some(o.api_version.clone()),
        kind: Some(o.kind.clone()),
        ..Workload::default()
    };
    let uid: String = o.metadata.uid.as_str().into();
    let replicas_field = match o.kind.as_str() {
        "Job" => "spec.parallelism, spec.completions",
        "Pod" => "(a Pod is one replica)",
        _ => "spec.replicas",
    };
    r.used.push(entry(o, replicas_field, "workload.replicas"));
    r.used.push(entry(
        o,
        "apiVersion, kind",
        "workload.apiVersion, workload.kind",
    ));
    if !uid.is_empty() {
        r.used.push(entry(o, "metadata.uid", "uid"));
    }
    if let Some(q) = requirements {
        let spec = if o.kind == "Pod" {
            "spec"
        } else {
            "spec.template.spec"
        };
        if let Some(request) = q.resource_request {
            w.requests = Some(request);
            r.used.push(entry(
                o,
                &format!("{spec}.containers[].resources, initContainers, overhead"),
                "workload.requests",
            ));
        }
        if let Some(claim) = q.node_claim {
            w.node_claim = Some(claim);
            r.used.push(entry(
                o,
                &format!("{spec}.nodeSelector, tolerations, affinity.nodeAffinity"),
                "workload.nodeClaim",
            ));
        }
    }
    Ok(Read { workload: w, uid })
}

/// What Karmada has recorded on a binding that a schedule reads.
#[derive(Debug, Clone, Default)]
pub(crate) struct Recorded {
    /// `spec.clusters`: cluster name -> replicas.
    pub previous: BTreeMap<String, i64>,
    /// `status.schedulerObservingAffinityName`.
    pub observed_affinity: String,
    /// `spec.gracefulEvictionTasks[].fromCluster`.
    pub graceful_evictions: Vec<String>,
    /// A reschedule triggered after the last schedule: divide afresh.
    pub fresh: bool,
}

/// What the binding `o` records.
pub(crate) fn binding(o: &Object, r: &mut ImportReport) -> Recorded {
    let spec = &o.spec;
    let status = &o.status;
    let mut out = Recorded::default();
    for c in &spec.clusters {
        out.previous.insert(c.name.clone(), c.replicas);
    }
    if !spec.clusters.is_empty() {
        r.used.push(entry(o, "spec.clusters", "previous"));
    }
    if !status.scheduler_observing_affinity_name.is_empty() {
        out.observed_affinity = status.scheduler_observing_affinity_name.clone();
        r.used.push(entry(
            o,
            "status.schedulerObservingAffinityName",
            "observedAffinity",
        ));
    }
    out.graceful_evictions = spec
        .graceful_eviction_tasks
        .iter()
        .map(|t| t.from_cluster.clone())
        .collect();
    if !out.graceful_evictions.is_empty() {
        r.used
            .push(entry(o, "spec.gracefulEvictionTasks", "gracefulEvictions"));
    }
    // A trigger after the last schedule asks for a fresh one (docs/rules/karmada.md §16.2).
    // RFC 3339 times as the API writes them (UTC, `Z`) order as text.
    if let Some(at) = &spec.reschedule_triggered_at {
        match &status.last_scheduled_time {
            Some(last) if at > last => {
                out.fresh = true;
                r.used.push(entry(
                    o,
                    "spec.rescheduleTriggeredAt, status.lastScheduledTime",
                    "policy.fresh",
                ));
            }
            Some(_) => r.ignored.push(entry(
                o,
                "spec.rescheduleTriggeredAt",
                "not after status.lastScheduledTime: already rescheduled",
            )),
            None => r.ignored.push(entry(
                o,
                "spec.rescheduleTriggeredAt",
                "no status.lastScheduledTime (the first schedule has not succeeded yet): \
                 Karmada waits for that schedule and does not reschedule afresh",
            )),
        }
    }
    out
}

/// The workload of a binding read without its template: the binding's own copy of what the
/// interpreter found (`spec.resource`, `spec.replicas`).
pub(crate) fn resource(o: &Object, r: &mut ImportReport) -> Read {
    let res = &o.spec.resource;
    r.used
        .push(entry(o, "spec.resource, spec.replicas", "workload, uid"));
    Read {
        workload: Workload {
            replicas: o.spec.replicas.unwrap_or(0),
            api_version: Some(res.api_version.clone()),
            kind: Some(res.kind.clone()),
            ..Workload::default()
        },
        uid: res.uid.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubernetes::objects::read_json;

    const BINDING: &str = r#"{"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
      "metadata": {"name": "web-deployment", "namespace": "shop"},
      "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "shop",
                            "name": "web", "uid": "u-1"},
               "replicas": 3, "clusters": [{"name": "member1", "replicas": 3}],
               "gracefulEvictionTasks": [{"fromCluster": "member2"}],
               "rescheduleTriggeredAt": "2024-05-01T12:00:01Z"},
      "status": {"lastScheduledTime": "2024-05-01T12:00:00Z",
                 "schedulerObservingAffinityName": "first"}}"#;

    // A template without `spec.replicas` has the API server's 1; its requests are the
    // containers' (the interpreter's).
    #[test]
    fn a_template_is_read_with_the_api_servers_default() {
        let o = read_json(
            r#"{"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "web", "namespace": "shop", "uid": "t-1"},
                "spec": {"template": {"spec": {"containers": [
                  {"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}}"#,
        )
        .unwrap()
        .remove(0);
        let mut r = ImportReport::default();
        let read = template(&o, 0, &mut r).unwrap();
        assert_eq!(read.workload.replicas, 1);
        assert_eq!(read.uid, "t-1");
        assert_eq!(read.workload.kind.as_deref(), Some("Deployment"));
        assert_eq!(read.workload.requests.unwrap().get("cpu"), 1000);
        assert_eq!(r.defaulted.len(), 1);
    }

    // What a binding records; a trigger after the last schedule asks for a fresh one; read
    // alone, its own copy of the workload.
    #[test]
    fn a_binding_records_its_placement_and_state() {
        let o = read_json(BINDING).unwrap().remove(0);
        let mut r = ImportReport::default();
        let rec = binding(&o, &mut r);
        assert_eq!(rec.previous.get("member1"), Some(&3));
        assert_eq!(rec.observed_affinity, "first");
        assert_eq!(rec.graceful_evictions, ["member2"]);
        assert!(rec.fresh);
        let alone = resource(&o, &mut r);
        assert_eq!(alone.workload.replicas, 3);
        assert_eq!(alone.uid, "u-1");
    }
}
