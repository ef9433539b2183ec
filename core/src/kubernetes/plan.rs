//! `allot plan` over a dump of objects (docs/rules/fleet.md §30): the fleet read once
//! ([`super::fleet`]), the what-ifs a user asks (clusters down, cordoned, deleted or added;
//! policies or templates applied; workloads scaled or rebalanced) as events, the plan, and the
//! ResourceBindings Karmada would write. Without a what-if, the scheduler starting over today's
//! bindings: the drift between today's placements and what it would decide now.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::fleet::{read, read_claimed, Claims, FleetReport};
use super::import::{self, Choice, ImportReport};
use super::karmada::TargetCluster;
use super::meta::ObjectMeta;
use super::objects::Object;
use super::pairing::binding_id;
use crate::error::{indexed, Error, ErrorCode, Result};
use crate::karmada::fleet::clock::parse_duration;
use crate::karmada::fleet::entry::Condition;
use crate::karmada::fleet::events::Event;
use crate::karmada::fleet::eviction::PurgeMode;
use crate::karmada::fleet::health::UNSCHEDULABLE;
use crate::karmada::fleet::plan::{
    loads, plan_reporting, plan_touched, ClusterPlan, Outcome, Plan, Summary,
};
use crate::karmada::fleet::{BindingKind, Entry, Fleet, Id, Readiness, Settings};
use crate::karmada::gates::{FeatureGates, Gate};
use crate::path::Path;

/// What to ask: each list names clusters, or workloads as `KIND/NAMESPACE/NAME`
/// (`deploy/shop/web`; `KIND/NAME` for a cluster-scoped one), `scale` with `=REPLICAS`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct WhatIf {
    pub cluster_down: Vec<String>,
    pub cluster_up: Vec<String>,
    pub cordon: Vec<String>,
    pub uncordon: Vec<String>,
    pub delete_cluster: Vec<String>,
    pub scale: Vec<String>,
    pub rebalance: Vec<String>,
    /// Karmada's feature gates (`--feature-gates`, docs/rules/versions.md "Feature gates"):
    /// `"Failover=true,GracefulEviction=false"` or `{"Failover": true}`; an unset gate takes
    /// the release's default.
    pub feature_gates: FeatureGates,
    /// Shorthand for gate SchedulingOvercommitProtection on (docs/rules/fleet.md §29.2).
    pub overcommit_protection: bool,
    /// Shorthand for gate Failover on and `--enable-no-execute-taint-eviction` (§25.1).
    pub taint_eviction: bool,
    /// The controller-manager's `--enable-no-execute-taint-eviction` (with gate Failover, the
    /// taint manager evicts, §25.1).
    pub enable_no_execute_taint_eviction: bool,
    /// `--no-execute-taint-eviction-purge-mode`: `Gracefully` (default) or `Directly`.
    pub no_execute_taint_eviction_purge_mode: Option<String>,
    /// `--graceful-eviction-timeout` (`10m` by default).
    pub graceful_eviction_timeout: Option<String>,
    /// Plan the fleet as it stands this long after the events (`90s`, `5m`); absent: once
    /// every timed step has run (docs/rules/fleet.md §30.1).
    pub at: Option<String>,
    /// Shorthand for gate PriorityBasedScheduling set (§22); absent: as `featureGates` says.
    pub priority_queue: Option<bool>,
    /// Shorthand for gate WorkloadAffinity on (1.17+): the detector writes groups and the
    /// scheduler filters by them (docs/rules/fleet.md §31).
    pub workload_affinity: bool,
    /// Policies deleted: `NAMESPACE/NAME` for a PropagationPolicy, `NAME` for a
    /// ClusterPropagationPolicy (§27.3).
    pub delete_policy: Vec<String>,
    /// The member reports the workload Unhealthy on the cluster when the events happen:
    /// `KIND/NAMESPACE/NAME@CLUSTER` (application failover, §32).
    pub unhealthy: Vec<String>,
    /// The member reports the workload Healthy on the cluster: `KIND/NAMESPACE/NAME@CLUSTER`.
    pub healthy: Vec<String>,
    /// Gate GracefulEviction in the controller-manager; absent: on (Karmada's default).
    pub graceful_eviction: Option<bool>,
    /// Gate StatefulFailoverInjection on (state preservation, §32.5).
    pub stateful_failover_injection: bool,
    /// The members report a workload Healthy on each cluster as soon as the scheduler places
    /// it there (§33): its graceful eviction tasks may end at once, and its assumptions
    /// under SchedulingOvercommitProtection are released (§29.3).
    pub assume_healthy: bool,
}

impl WhatIf {
    /// The gates and flags of `settings` as this what-if sets them: `featureGates`, then each
    /// shorthand (one that contradicts `featureGates` is an error at the gate), checked
    /// against the release.
    pub fn settings_into(&self, settings: &mut Settings) -> Result<()> {
        let at = crate::path::Path::fields("featureGates");
        let mut gates = self.feature_gates.clone();
        let mut shorthand = |gate: Gate, on: bool, what: &str| -> Result<()> {
            let mut one = FeatureGates::default();
            one.set(gate, on);
            gates.merge(&one, &at, what)
        };
        if self.overcommit_protection {
            shorthand(
                Gate::SchedulingOvercommitProtection,
                true,
                "overcommitProtection",
            )?;
        }
        if self.taint_eviction {
            shorthand(Gate::Failover, true, "taintEviction")?;
        }
        if let Some(on) = self.priority_queue {
            shorthand(Gate::PriorityBasedScheduling, on, "priorityQueue")?;
        }
        if self.workload_affinity {
            shorthand(Gate::WorkloadAffinity, true, "workloadAffinity")?;
        }
        settings.feature_gates = gates;
        // The shorthand sets the flag where the release has it (from 1.14; before, gate
        // Failover alone evicts).
        settings.no_execute_taint_eviction = self.enable_no_execute_taint_eviction
            || (self.taint_eviction && settings.version.at_least(14, 0));
        settings.check()
    }

    pub(super) fn is_empty(&self, added: &[Object], applied: &[Object]) -> bool {
        self.cluster_down.is_empty()
            && self.cluster_up.is_empty()
            && self.cordon.is_empty()
            && self.uncordon.is_empty()
            && self.delete_cluster.is_empty()
            && self.scale.is_empty()
            && self.rebalance.is_empty()
            && self.delete_policy.is_empty()
            && self.unhealthy.is_empty()
            && self.healthy.is_empty()
            && added.is_empty()
            && applied.is_empty()
    }
}

/// The plan, how the dump was read, and the bindings Karmada would write.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Planned {
    #[serde(flatten)]
    pub plan: Plan,
    pub report: FleetReport,
    /// Every ResourceBinding and ClusterResourceBinding whose `spec.clusters` changes, as
    /// Karmada would write it: the dump's object with its new `spec.clusters`, else a new one.
    pub resource_bindings: Vec<Object>,
}

/// Plan `what` over `objects`; `added` are Clusters that join, `applied` are policies and
/// templates applied over the dump's (same kind, namespace and name: replaced).
pub fn plan(
    objects: &[Object],
    choice: &Choice<'_>,
    what: &WhatIf,
    added: &[Object],
    applied: &[Object],
) -> Result<Planned> {
    let before = read_now(objects, choice, Some(what))?;
    let (plan, after, _) = step(
        &before.fleet,
        objects,
        choice,
        what,
        added,
        applied,
        &mut |_, _| {},
    )?;
    let resource_bindings = written(&plan, &after, objects, applied);
    let mut report = before.report;
    report.warnings.extend(super::fleet::warnings(added));
    report.warnings.extend(super::fleet::warnings(applied));
    Ok(Planned {
        plan,
        report,
        resource_bindings,
    })
}

/// The fleet `objects` describe, under `what`'s settings (else the release's defaults), its
/// clock at its last schedule.
pub(super) fn read_now(
    objects: &[Object],
    choice: &Choice<'_>,
    what: Option<&WhatIf>,
) -> Result<super::fleet::Read> {
    let mut settings = Settings {
        version: choice.version,
        ..Settings::default()
    };
    if let Some(what) = what {
        what.settings_into(&mut settings)?;
    }
    let mut read = read(objects, choice, settings)?;
    read.fleet.now = latest(&read.fleet);
    Ok(read)
}

/// The time of the fleet's last schedule: a what-if happens after it (a rebalancer created
/// after every binding's last schedule).
pub(super) fn latest(fleet: &Fleet) -> i64 {
    fleet
        .entries
        .iter()
        .filter_map(|e| e.state.last_scheduled)
        .max()
        .unwrap_or(0)
}

/// The events of `what` (without one: the scheduler restarting, the drift), applied to
/// `fleet` under `what`'s settings: the plan, the fleet after it, and the objects with
/// `applied` merged when some were applied. `progress` is told the bindings scheduled of
/// those waiting as the scheduler takes them.
pub(super) fn step(
    fleet: &Fleet,
    objects: &[Object],
    choice: &Choice<'_>,
    what: &WhatIf,
    added: &[Object],
    applied: &[Object],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Plan, Fleet, Option<Vec<Object>>)> {
    let before = under(fleet, what)?;
    step_under(
        &before, objects, choice, what, added, applied, progress, false,
    )
}

/// `fleet` under `what`'s settings: the scheduler's and the controller-manager's gates and
/// flags (what a failover readiness keeps for every failure it plans).
pub(super) fn under(fleet: &Fleet, what: &WhatIf) -> Result<Fleet> {
    let mut before = fleet.clone();
    what.settings_into(&mut before.settings)?;
    failover_settings(&mut before.settings, what)?;
    Ok(before)
}

/// [`step`] over a fleet already [`under`] `what`'s settings; `touched`: the plan lists only
/// the bindings the what-ifs changed ([`plan_touched`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn step_under(
    before: &Fleet,
    objects: &[Object],
    choice: &Choice<'_>,
    what: &WhatIf,
    added: &[Object],
    applied: &[Object],
    progress: &mut dyn FnMut(usize, usize),
    touched: bool,
) -> Result<(Plan, Fleet, Option<Vec<Object>>)> {
    named(before, what, added, choice)?;
    let mut events = Vec::new();
    if what.is_empty(added, applied) {
        events.push(Event::Restart);
    }
    let clusters = |list: &[String], make: fn(String) -> Event| -> Vec<Event> {
        list.iter().cloned().map(make).collect()
    };
    events.extend(clusters(&what.cluster_down, |cluster| Event::ClusterDown {
        cluster,
    }));
    events.extend(clusters(&what.cluster_up, |cluster| Event::ClusterUp {
        cluster,
    }));
    events.extend(clusters(&what.cordon, |cluster| Event::Cordon { cluster }));
    events.extend(clusters(&what.uncordon, |cluster| Event::Uncordon {
        cluster,
    }));
    events.extend(clusters(&what.delete_cluster, |cluster| Event::Leave {
        cluster,
    }));
    events.extend(joins(added, choice)?);
    let deleted = deleted_policies(objects, &what.delete_policy)?;
    let mut merged = None;
    if !applied.is_empty() || !deleted.is_empty() {
        let (more, objects) = apply(before, objects, applied, &deleted, choice)?;
        events.extend(more);
        merged = Some(objects);
    }
    for (k, s) in what.scale.iter().enumerate() {
        let (workload, replicas) = s
            .rsplit_once('=')
            .ok_or_else(|| wrong(indexed("scale", k), s, "KIND/NAMESPACE/NAME=REPLICAS"))?;
        let replicas: i64 = replicas
            .trim()
            .parse()
            .map_err(|_| wrong(indexed("scale", k), s, "REPLICAS a whole number"))?;
        if replicas < 0 {
            return Err(wrong(indexed("scale", k), s, "REPLICAS 0 or more"));
        }
        let binding = workload_id(workload)
            .ok_or_else(|| wrong(indexed("scale", k), s, "KIND/NAMESPACE/NAME=REPLICAS"))?;
        events.push(Event::Scale { binding, replicas });
    }
    let rebalanced = what
        .rebalance
        .iter()
        .enumerate()
        .map(|(k, w)| {
            workload_id(w).ok_or_else(|| wrong(indexed("rebalance", k), w, "KIND/NAMESPACE/NAME"))
        })
        .collect::<Result<Vec<Id>>>()?;
    if !rebalanced.is_empty() {
        // A rebalancer created after every binding's last schedule (to the second).
        events.push(Event::Advance { seconds: 1 });
        events.push(Event::Rebalance {
            bindings: rebalanced,
        });
    }
    events.extend(reports(what)?);
    let drift = events.first() != Some(&Event::Restart);
    // Time after the events: as long as asked, else until every timed step has run (the
    // drift, with no event, is today's fleet: no time passes).
    match &what.at {
        Some(text) => events.push(Event::Advance {
            seconds: parse_duration(text)
                .ok_or_else(|| wrong(Path::fields("at"), text, "a duration (90s, 5m, 1h30m)"))?,
        }),
        None if drift => events.push(Event::Settle),
        None => {}
    }
    let (mut plan, after) = if touched {
        plan_touched(before, events, progress)?
    } else {
        plan_reporting(before, events, progress)?
    };
    // A touched plan (one failure of a readiness) does not pay a second plan: its caller
    // compares with the drift once. The drift's own plan lists only what it changes: its
    // unchanged bindings are none of `plan`'s pending changes, and its loads are not read.
    if drift && !touched {
        let (pending, _) = plan_touched(before, drift_event(before, &plan), &mut |_, _| {})?;
        mark_pending(&mut plan, &pending);
    }
    Ok((plan, after, merged))
}

/// The restart whose plan tells which of `plan`'s changes were pending already: where each
/// binding's schedule is its own ([`crate::karmada::fleet::Settings::independent`]), the
/// restart of the bindings `plan` changes alone (a what-if over a large fleet then pays for
/// what it changes, not for scheduling every binding again); else every binding's.
fn drift_event(before: &Fleet, plan: &Plan) -> Vec<Event> {
    if !before.settings.independent() {
        return alloc::vec![Event::Restart];
    }
    let bindings = plan
        .bindings
        .iter()
        .enumerate()
        .filter(|(b, p)| {
            *b < before.entries.len() && !matches!(p.outcome, Outcome::Unchanged { .. })
        })
        .map(|(b, _)| b)
        .collect();
    alloc::vec![Event::RestartOf { bindings }]
}

/// The members' reports `what` asks: `--unhealthy` and `--healthy`, each
/// `KIND/NAMESPACE/NAME@CLUSTER` (§32).
fn reports(what: &WhatIf) -> Result<Vec<Event>> {
    let unhealthy = what.unhealthy.iter().map(|w| ("unhealthy", w));
    let healthy = what.healthy.iter().map(|w| ("healthy", w));
    let mut counts = [0usize; 2];
    unhealthy
        .chain(healthy)
        .map(|(field, text)| {
            let k = &mut counts[usize::from(field == "healthy")];
            let at = indexed(field, *k);
            *k += 1;
            let (workload, cluster) = text
                .rsplit_once('@')
                .filter(|(_, c)| !c.is_empty())
                .ok_or_else(|| wrong(at.clone(), text, "KIND/NAMESPACE/NAME@CLUSTER"))?;
            let binding = workload_id(workload)
                .ok_or_else(|| wrong(at, text, "KIND/NAMESPACE/NAME@CLUSTER"))?;
            let cluster = cluster.into();
            Ok(if field == "healthy" {
                Event::Healthy { binding, cluster }
            } else {
                Event::Unhealthy { binding, cluster }
            })
        })
        .collect()
}

/// The controller-manager's failover settings `what` asks (§25), Karmada's defaults for those
/// it leaves; a value Karmada refuses is an error at its field.
fn failover_settings(settings: &mut Settings, what: &WhatIf) -> Result<()> {
    if let Some(on) = what.graceful_eviction {
        settings.feature_gates.set(Gate::GracefulEviction, on);
    }
    if what.stateful_failover_injection {
        settings
            .feature_gates
            .set(Gate::StatefulFailoverInjection, true);
    }
    settings.assume_healthy = what.assume_healthy;
    if let Some(mode) = &what.no_execute_taint_eviction_purge_mode {
        settings.no_execute_taint_eviction_purge_mode =
            PurgeMode::parse(mode).ok_or_else(|| {
                wrong(
                    Path::fields("noExecuteTaintEvictionPurgeMode"),
                    mode,
                    "Gracefully or Directly",
                )
            })?;
    }
    if let Some(timeout) = &what.graceful_eviction_timeout {
        settings.graceful_eviction_timeout = parse_duration(timeout).ok_or_else(|| {
            wrong(
                Path::fields("gracefulEvictionTimeout"),
                timeout,
                "a duration (10m, 600s)",
            )
        })?;
    }
    Ok(())
}

/// Mark in `plan` the bindings whose change was already pending before its events: the
/// scheduler starting over the fleet as it was (`drift`, the bindings it changed or failed)
/// changes them to the same placement (or fails them too); each other change is the events'
/// (docs/rules/fleet.md §30.3).
fn mark_pending(plan: &mut Plan, drift: &Plan) {
    let drifted: BTreeMap<&Id, &crate::karmada::fleet::plan::BindingPlan> =
        drift.bindings.iter().map(|d| (&d.id, d)).collect();
    for b in &mut plan.bindings {
        let d = drifted.get(&b.id);
        b.pending = match (&b.outcome, d.map(|d| &d.outcome)) {
            (Outcome::Unchanged { .. }, _) => false,
            (Outcome::Unschedulable { .. }, Some(Outcome::Unschedulable { .. })) => true,
            (Outcome::Unschedulable { .. }, _) => false,
            _ => d.is_some_and(|d| d.before != d.after && d.after == b.after),
        };
    }
    plan.summary = Summary::of(&plan.bindings, &plan.clusters);
}

/// A fleet kept between what-ifs: read from a dump once, then each what-if planned against
/// the fleet as the ones before it left it (the playground's fleet view, one event at a
/// time). A session is cheap to keep: the fleet after a what-if shares every binding the
/// what-if did not change with the fleet before it, so going back is keeping the session
/// before.
#[derive(Debug, Clone)]
pub struct Session {
    pub(super) objects: Rc<Vec<Object>>,
    pub(super) fleet: Fleet,
    pub(super) report: Rc<FleetReport>,
}

impl Session {
    /// The fleet `objects` describe, as [`plan`] reads it.
    pub fn read(objects: Vec<Object>, choice: &Choice<'_>) -> Result<Session> {
        let read = read_now(&objects, choice, None)?;
        Ok(Session {
            objects: Rc::new(objects),
            fleet: read.fleet,
            report: Rc::new(read.report),
        })
    }

    pub fn fleet(&self) -> &Fleet {
        &self.fleet
    }

    /// How the dump was read.
    pub fn report(&self) -> &FleetReport {
        &self.report
    }

    /// The PropagationPolicies and ClusterPropagationPolicies as they are now (the dump's,
    /// with those applied since), as allot reads them: what a form edits and applies again.
    pub fn policies(&self) -> Vec<&Object> {
        self.objects
            .iter()
            .filter(|o| {
                matches!(
                    o.kind.as_str(),
                    "PropagationPolicy" | "ClusterPropagationPolicy"
                )
            })
            .collect()
    }

    /// Plan `what` (as [`plan`] does: `added` Clusters join, `applied` objects are applied)
    /// over the fleet as it is now: the plan, and the session after it.
    pub fn plan(
        &self,
        choice: &Choice<'_>,
        what: &WhatIf,
        added: &[Object],
        applied: &[Object],
    ) -> Result<(Plan, Session)> {
        self.plan_reporting(choice, what, added, applied, &mut |_, _| {})
    }

    /// [`Session::plan`], telling `progress` the bindings the scheduler has taken of those
    /// waiting, after each one (a page's progress bar over a large fleet).
    pub fn plan_reporting(
        &self,
        choice: &Choice<'_>,
        what: &WhatIf,
        added: &[Object],
        applied: &[Object],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<(Plan, Session)> {
        let (plan, fleet, merged) = step(
            &self.fleet,
            &self.objects,
            choice,
            what,
            added,
            applied,
            progress,
        )?;
        let after = Session {
            objects: merged.map_or_else(|| self.objects.clone(), Rc::new),
            fleet,
            report: self.report.clone(),
        };
        Ok((plan, after))
    }

    /// The ResourceBindings Karmada would write for `plan`, which led to this session.
    pub fn written(&self, plan: &Plan) -> Vec<Object> {
        // The session's objects hold what was applied.
        written(plan, &self.fleet, &self.objects, &[])
    }

    /// The fleet as it is: every cluster with its health, taints and load, every binding with
    /// its placement and the workload a what-if names it by.
    pub fn state(&self) -> State {
        let bindings = self
            .fleet
            .entries
            .iter()
            .map(|e| {
                Rc::new(BindingState {
                    id: e.id.clone(),
                    workload: workload_of(e),
                    policy: e.policy.as_ref().map(|(ns, name)| {
                        if ns.is_empty() {
                            name.clone()
                        } else {
                            format!("{ns}/{name}")
                        }
                    }),
                    claimed: e.claimed,
                    replicas: e.workload.replicas,
                    clusters: e.state.clusters.clone(),
                    condition: e.state.condition.clone(),
                })
            })
            .collect();
        State {
            clusters: self.clusters(),
            bindings,
        }
    }

    /// Every cluster as it is: its health, taints, labels, load and capacity.
    pub fn clusters(&self) -> Vec<ClusterState> {
        let loads = loads(&self.fleet);
        self.fleet
            .members()
            .iter()
            .zip(self.fleet.health())
            .zip(loads)
            .map(|((m, h), load)| ClusterState {
                ready: h.ready,
                cordoned: m.taints.iter().any(|t| t.key.as_str() == UNSCHEDULABLE),
                deleting: m.deleting,
                taints: m.taints.clone(),
                labels: m
                    .labels
                    .iter()
                    .map(|(k, v)| (String::from(k.as_str()), String::from(v.as_str())))
                    .collect(),
                load,
            })
            .collect()
    }
}

/// A session's fleet as it is ([`Session::state`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct State {
    pub clusters: Vec<ClusterState>,
    /// Each in an `Rc`: a reader that follows the fleet from state to state (the fleet view)
    /// shares a binding with the state before while it does not change.
    pub bindings: Vec<Rc<BindingState>>,
}

/// One member cluster now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterState {
    pub ready: Readiness,
    /// `karmadactl cordon`'s taint is on it.
    pub cordoned: bool,
    /// It is being deleted (unjoined): no what-if applies to it any more.
    pub deleting: bool,
    pub taints: Vec<crate::selector::node::Taint>,
    pub labels: BTreeMap<String, String>,
    /// Its name, state in words (`state`, docs/rules/fleet.md §30.2), load (before = after)
    /// and capacity.
    #[serde(flatten)]
    pub load: ClusterPlan,
}

/// One binding now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BindingState {
    pub id: Id,
    /// The template as a what-if names it (`Deployment/shop/web`), when its binding's name
    /// is Karmada's for it.
    pub workload: Option<String>,
    /// The claiming policy (`namespace/name`; a ClusterPropagationPolicy's name alone).
    pub policy: Option<String>,
    pub claimed: bool,
    pub replicas: i64,
    pub clusters: BTreeMap<String, i64>,
    pub condition: Condition,
}

/// `KIND/NAMESPACE/NAME` of the template whose binding `e` is, when [`workload_id`] names
/// `e` back from it.
fn workload_of(e: &Entry) -> Option<String> {
    let kind = e.workload.kind.as_deref()?;
    let suffix = format!("-{}", kind.replace(':', ".").to_lowercase());
    let name = e.id.name.strip_suffix(suffix.as_str())?;
    let text = format!("{kind}/{}/{name}", e.id.namespace);
    let text = if e.id.namespace.is_empty() {
        format!("{kind}/{name}")
    } else {
        text
    };
    (workload_id(&text).as_ref() == Some(&e.id)).then_some(text)
}

/// Every cluster and workload a what-if names is in the dump (or joins), else an error at the
/// what-if's entry (`clusterDown[0]`).
/// The workloads of `--unhealthy` or `--healthy` (`field`), each with its position.
fn reported<'a>(
    list: &'a [String],
    field: &'static str,
) -> impl Iterator<Item = (usize, (&'a str, &'static str))> + 'a {
    list.iter()
        .map(move |w| (w.rsplit_once('@').map_or(w.as_str(), |(w, _)| w), field))
        .enumerate()
}

fn named(fleet: &Fleet, what: &WhatIf, added: &[Object], choice: &Choice<'_>) -> Result<()> {
    let joining: Vec<String> = joins(added, choice)?
        .iter()
        .filter_map(|e| match e {
            Event::Join { member, .. } => Some(String::from(member.name.as_str())),
            _ => None,
        })
        .collect();
    let lists: [(&str, &[String]); 5] = [
        ("clusterDown", &what.cluster_down),
        ("clusterUp", &what.cluster_up),
        ("cordon", &what.cordon),
        ("uncordon", &what.uncordon),
        ("deleteCluster", &what.delete_cluster),
    ];
    for (field, list) in lists {
        for (k, name) in list.iter().enumerate() {
            if fleet.cluster(name).is_none() && !joining.contains(name) {
                return Err(Error::Input {
                    field: indexed(field, k),
                    code: ErrorCode::UnknownValue,
                    reason: format!("no Cluster named {name} in the dump"),
                });
            }
        }
    }
    let workloads = what
        .scale
        .iter()
        .map(|s| (s.rsplit_once('=').map_or(s.as_str(), |(w, _)| w), "scale"))
        .enumerate()
        .chain(
            what.rebalance
                .iter()
                .map(|w| (w.as_str(), "rebalance"))
                .enumerate(),
        )
        .chain(reported(&what.unhealthy, "unhealthy"))
        .chain(reported(&what.healthy, "healthy"));
    for (field, list) in [("unhealthy", &what.unhealthy), ("healthy", &what.healthy)] {
        for (k, text) in list.iter().enumerate() {
            let cluster = text.rsplit_once('@').map_or("", |(_, c)| c);
            if !cluster.is_empty() && fleet.cluster(cluster).is_none() {
                return Err(Error::Input {
                    field: indexed(field, k),
                    code: ErrorCode::UnknownValue,
                    reason: format!("no Cluster named {cluster} in the dump"),
                });
            }
        }
    }
    for (k, (w, field)) in workloads {
        if let Some(id) = workload_id(w) {
            if fleet.binding(&id).is_none() {
                return Err(Error::Input {
                    field: indexed(field, k),
                    code: ErrorCode::UnknownValue,
                    reason: format!("no binding {id} in the dump (no such workload, or no policy propagates it)"),
                });
            }
        }
    }
    Ok(())
}

/// The object an error's path starts at (`objects[3]`), and the rest of the path.
fn object_at(field: &Path) -> Option<(usize, Path)> {
    use crate::path::Step;
    match field.steps() {
        [Step::Field(f), Step::Index(j), rest @ ..] if f == "objects" => {
            let tail = rest.iter().fold(Path::root(), |p, s| match s {
                Step::Field(name) => p.field(name.clone()),
                Step::Index(k) => p.index(*k),
            });
            Some((*j, tail))
        }
        _ => None,
    }
}

fn wrong(field: crate::path::Path, value: &str, expected: &str) -> Error {
    Error::Input {
        field,
        code: ErrorCode::InvalidInput,
        reason: format!("{value:?}: expected {expected}"),
    }
}

/// The binding of a workload named `KIND/NAMESPACE/NAME` (or `KIND/NAME`), as Karmada names
/// it; kubectl's short kinds read (`deploy`, `sts`, `rs`, `job`, `po`).
pub fn workload_id(text: &str) -> Option<Id> {
    let parts: Vec<&str> = text.split('/').collect();
    let (kind, namespace, name) = match parts.as_slice() {
        [kind, namespace, name] => (*kind, *namespace, *name),
        [kind, name] => (*kind, "", *name),
        _ => return None,
    };
    if kind.is_empty() || name.is_empty() {
        return None;
    }
    let kind = match kind.to_lowercase().as_str() {
        "deploy" | "deployment" | "deployments" => "Deployment".into(),
        "sts" | "statefulset" | "statefulsets" => "StatefulSet".into(),
        "rs" | "replicaset" | "replicasets" => "ReplicaSet".into(),
        "job" | "jobs" => "Job".into(),
        "po" | "pod" | "pods" => "Pod".into(),
        _ => String::from(kind),
    };
    Some(binding_id(&kind, namespace, name))
}

/// Clusters that join: read as the dump's are, Ready unless they say otherwise.
fn joins(added: &[Object], choice: &Choice<'_>) -> Result<Vec<Event>> {
    if !added.is_empty() && !added.iter().any(|o| o.kind == "Cluster") {
        return Err(Error::Input {
            field: Path::fields("addClusters"),
            code: ErrorCode::Missing,
            reason: "no Cluster among the objects that join: give the Clusters' YAML".into(),
        });
    }
    let mut r = ImportReport::default();
    let sorted = import::sort(
        added,
        &Choice {
            members: &[],
            ..choice.clone()
        },
        &mut r,
    )?;
    let mut events = Vec::new();
    for member in sorted.clusters {
        let object = added
            .iter()
            .find(|o| o.kind == "Cluster" && o.metadata.name == member.name.as_str());
        let health = object.map(super::clusters::health).unwrap_or_default();
        // The API server drops a new Cluster's status: the cluster controller taints it
        // not-ready, and the bindings that enqueues are scheduled (without it) before the
        // status controller reports the object's condition, Ready without one (§26.1).
        let name = String::from(member.name.as_str());
        let ready = health.ready;
        events.push(Event::Join {
            member: Box::new(member),
            health,
        });
        events.push(Event::Advance { seconds: 0 });
        events.push(match ready {
            Readiness::Ready | Readiness::Never => Event::ClusterUp { cluster: name },
            ready => Event::Reported {
                cluster: name,
                ready,
            },
        });
    }
    Ok(events)
}

/// The events of applying `applied` over the dump: each binding whose claiming policy changed
/// its placement gets the new one (claims are sticky, §27.2); a binding no policy claims any
/// more loses its claim; a template newly propagated gets a binding.
fn apply(
    fleet: &Fleet,
    objects: &[Object],
    applied: &[Object],
    deleted: &[usize],
    choice: &Choice<'_>,
) -> Result<(Vec<Event>, Vec<Object>)> {
    let same = |a: &Object, b: &Object| {
        a.kind == b.kind
            && a.metadata.namespace == b.metadata.namespace
            && a.metadata.name == b.metadata.name
    };
    let mut merged: Vec<Object> = objects
        .iter()
        .enumerate()
        .filter(|(i, _)| !deleted.contains(i))
        .map(|(_, o)| applied.iter().find(|a| same(a, o)).unwrap_or(o).clone())
        .collect();
    merged.extend(
        applied
            .iter()
            .filter(|a| !objects.iter().any(|o| same(a, o)))
            .cloned(),
    );
    let claims: Claims = fleet
        .entries
        .iter()
        .filter_map(|e| Some((e.id.clone(), e.policy.clone()?)))
        .collect();
    if let Some((k, c)) = applied
        .iter()
        .enumerate()
        .find(|(_, o)| o.kind == "Cluster")
    {
        return Err(Error::Input {
            field: indexed("apply", k),
            code: ErrorCode::InvalidInput,
            reason: format!(
                "Cluster {}: a Cluster is not applied, it joins: give it to --add-cluster \
                 (addClusters)",
                c.metadata.name
            ),
        });
    }
    // An error at an object of `merged` is said where the user wrote it: an applied object at
    // `apply[k]`, one of the dump at its place among the dump's objects.
    let kept: Vec<usize> = (0..objects.len())
        .filter(|i| !deleted.contains(i))
        .collect();
    let located = |e: Error| -> Error {
        let Some((j, rest)) = object_at(e.field()) else {
            return e;
        };
        let o = merged.get(j);
        let k = o.and_then(|o| applied.iter().position(|a| same(a, o)));
        let field = match (k, kept.get(j)) {
            (Some(k), _) => indexed("apply", k),
            (None, Some(&i)) => indexed("objects", i),
            (None, None) => return e,
        };
        e.at(field.join(&rest))
    };
    let after = read_claimed(&merged, choice, fleet.settings.clone(), &claims).map_err(located)?;
    let index: BTreeMap<&Id, usize> = fleet
        .entries
        .iter()
        .enumerate()
        .map(|(b, e)| (&e.id, b))
        .collect();
    // The templates applied: only their replicas are the applied objects' (the fleet's may
    // have been scaled since the dump).
    let templates: Vec<Id> = applied
        .iter()
        .filter_map(|a| {
            let m = &a.metadata;
            (!a.kind.is_empty() && !m.name.is_empty())
                .then(|| binding_id(&a.kind, &m.namespace, &m.name))
        })
        .collect();
    let mut events = Vec::new();
    // ClusterTaintPolicies created or changed: the controller reconciles the clusters they
    // target (docs/rules/fleet.md §24.3).
    if after.fleet.settings.taint_policies != fleet.settings.taint_policies {
        events.push(Event::TaintPolicies {
            policies: after.fleet.settings.taint_policies.clone(),
        });
    }
    // Karmada's detector updates the bindings policy by policy, in the order the policies are
    // applied, each policy's bindings by name (§27.2): the rank of a binding's policy among
    // the applied ones, then its name; bindings of no applied policy keep the fleet's order,
    // after them.
    let policies: Vec<(&str, &str)> = applied
        .iter()
        .filter(|a| import::POLICY_KINDS.contains(&a.kind.as_str()))
        .map(|a| (a.metadata.namespace.as_str(), a.metadata.name.as_str()))
        .collect();
    let rank = |p: Option<&(String, String)>| -> usize {
        p.and_then(|(ns, n)| {
            policies
                .iter()
                .position(|&(pns, pn)| pns == ns.as_str() && pn == n.as_str())
        })
        .unwrap_or(usize::MAX)
    };
    let mut ranked: Vec<(usize, String, Event)> = Vec::new();
    for e in &after.fleet.entries {
        let Some(&b) = index.get(&e.id) else {
            ranked.push((
                usize::MAX,
                String::new(),
                Event::Create {
                    entry: Box::new(Entry::clone(e)),
                },
            ));
            continue;
        };
        let Some(old) = fleet.entries.get(b) else {
            continue;
        };
        let r = rank(e.policy.as_ref().or(old.policy.as_ref()));
        let name = if r == usize::MAX {
            String::new()
        } else {
            e.id.name.as_str().into()
        };
        let mut push = |event: Event| ranked.push((r, name.clone(), event));
        let changed = e.rules != old.rules
            || e.groups != old.groups
            || e.policy != old.policy
            || e.failover != old.failover
            || e.app_failover != old.app_failover;
        if e.claimed && (changed || !old.claimed) {
            push(Event::Place {
                binding: e.id.clone(),
                rules: e.rules.clone(),
                policy: e.policy.clone(),
                groups: e.groups.clone(),
                failover: e.failover.clone(),
                app_failover: e.app_failover.clone(),
            });
        } else if !e.claimed && old.claimed {
            push(Event::Unclaim {
                binding: e.id.clone(),
            });
        }
        if e.workload.replicas != old.workload.replicas && templates.contains(&e.id) {
            push(Event::Scale {
                binding: e.id.clone(),
                replicas: e.workload.replicas,
            });
        }
    }
    // A stable sort: a binding's events keep their order, as do those of no applied policy.
    ranked.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    events.extend(ranked.into_iter().map(|(_, _, e)| e));
    Ok((events, merged))
}

/// The positions in `objects` of the policies `names` deletes (`NAMESPACE/NAME`: a
/// PropagationPolicy; `NAME`: a ClusterPropagationPolicy); a name the dump lacks is an error
/// at `deletePolicy[i]`.
fn deleted_policies(objects: &[Object], names: &[String]) -> Result<Vec<usize>> {
    names
        .iter()
        .enumerate()
        .map(|(k, text)| {
            let (kind, namespace, name) = match text.split_once('/') {
                Some((ns, n)) => ("PropagationPolicy", ns, n),
                None => ("ClusterPropagationPolicy", "", text.as_str()),
            };
            objects
                .iter()
                .position(|o| {
                    o.kind == kind && o.metadata.namespace == namespace && o.metadata.name == name
                })
                .ok_or_else(|| Error::Input {
                    field: indexed("deletePolicy", k),
                    code: ErrorCode::UnknownValue,
                    reason: format!("no {kind} {text} in the dump"),
                })
        })
        .collect()
}

/// The policies among `objects` as `deletePolicy` names them (`NAMESPACE/NAME` for a
/// PropagationPolicy, `NAME` for a ClusterPropagationPolicy): what `allot plan --delete FILE`
/// deletes. Any other kind is an error at `delete[i]`.
pub fn policy_names(objects: &[Object]) -> Result<Vec<String>> {
    objects
        .iter()
        .enumerate()
        .map(|(k, o)| match o.kind.as_str() {
            "PropagationPolicy" => Ok(format!("{}/{}", o.metadata.namespace, o.metadata.name)),
            "ClusterPropagationPolicy" => Ok(o.metadata.name.clone()),
            other => Err(Error::Input {
                field: indexed("delete", k),
                code: ErrorCode::InvalidInput,
                reason: format!(
                    "{other} {}: only PropagationPolicies and ClusterPropagationPolicies are \
                     deleted",
                    o.metadata.name
                ),
            }),
        })
        .collect()
}

/// The bindings whose `spec.clusters` changes, as Karmada would write them.
/// With its new `spec.clusters`, each carries what the scheduler writes beside them (the
/// placement it applied, as its claiming policy states it, in the applied-placement
/// annotation; the observed term) and the detector's `workloadAffinityGroups`.
fn written(plan: &Plan, after: &Fleet, objects: &[Object], applied: &[Object]) -> Vec<Object> {
    if plan.bindings.iter().all(|b| b.before == b.after) {
        return Vec::new();
    }
    // The dump's bindings by kind, namespace and name (the first of each, as a scan finds it).
    let mut given_bindings: BTreeMap<(&str, &str, &str), &Object> = BTreeMap::new();
    for o in objects {
        if matches!(
            o.kind.as_str(),
            "ResourceBinding" | "ClusterResourceBinding"
        ) {
            let key = (
                o.kind.as_str(),
                o.metadata.namespace.as_str(),
                o.metadata.name.as_str(),
            );
            given_bindings.entry(key).or_insert(o);
        }
    }
    // The policies by namespace and name, the applied ones first (the first of each, as a
    // scan of `applied` then `objects` finds it).
    let mut policies: BTreeMap<(&str, &str), &Object> = BTreeMap::new();
    for p in applied.iter().chain(objects) {
        if p.kind.ends_with("PropagationPolicy") {
            policies
                .entry((p.metadata.namespace.as_str(), p.metadata.name.as_str()))
                .or_insert(p);
        }
    }
    let mut out = Vec::new();
    // The plan lists the fleet's bindings in the fleet's order.
    for (k, b) in plan.bindings.iter().enumerate() {
        if b.before == b.after {
            continue;
        }
        let kind = match b.id.kind {
            BindingKind::ResourceBinding => "ResourceBinding",
            BindingKind::ClusterResourceBinding => "ClusterResourceBinding",
        };
        let given = given_bindings
            .get(&(kind, b.id.namespace.as_str(), b.id.name.as_str()))
            .copied();
        let mut o = given.cloned().unwrap_or_else(|| Object {
            api_version: "work.karmada.io/v1alpha2".into(),
            kind: kind.into(),
            metadata: ObjectMeta {
                name: b.id.name.as_str().into(),
                namespace: b.id.namespace.as_str().into(),
                ..ObjectMeta::default()
            },
            ..Object::default()
        });
        o.spec.clusters = b
            .after
            .iter()
            .map(|(name, &replicas)| TargetCluster {
                name: name.clone(),
                replicas,
            })
            .collect();
        let entry = match after.entries.get(k) {
            Some(e) if e.id == b.id => Some(e),
            _ => after.binding(&b.id).and_then(|i| after.entries.get(i)),
        };
        if let Some(e) = entry {
            o.status.scheduler_observing_affinity_name = e.state.observed_affinity.clone();
            o.spec.workload_affinity_groups = e.groups.clone();
            o.spec.graceful_eviction_tasks = super::app_failover::task_objects(&e.state.evictions);
            let policy = e
                .policy
                .as_ref()
                .and_then(|(namespace, name)| policies.get(&(namespace.as_str(), name.as_str())));
            let placement = policy
                .filter(|_| e.state.applied.is_some())
                .and_then(|p| crate::json::to_json(&p.spec.placement).ok());
            if let Some(text) = placement {
                o.metadata
                    .annotations
                    .insert(super::fleet::APPLIED_PLACEMENT.into(), text);
            }
        }
        out.push(o);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workloads_are_named_as_kubectl_names_them() {
        let id = workload_id("deploy/shop/web").unwrap();
        assert_eq!(id.namespace, "shop");
        assert_eq!(id.name, "web-deployment");
        assert_eq!(id.kind, BindingKind::ResourceBinding);
        let crb = workload_id("ClusterRole/admin").unwrap();
        assert_eq!(crb.kind, BindingKind::ClusterResourceBinding);
        assert_eq!(crb.name, "admin-clusterrole");
        assert_eq!(workload_id("web"), None);
    }

    use crate::karmada::fleet::plan::{Outcome, Unchanged};
    use crate::karmada::fleet::triggers::Trigger;
    use crate::kubernetes::fixtures::what_if;
    use crate::kubernetes::fleet::dump::DUMP;
    use crate::kubernetes::objects::Objects;

    pub(super) fn objects(text: &str) -> Vec<Object> {
        serde_json::from_str::<Objects>(text).unwrap().0
    }

    fn web(p: &Planned) -> &crate::karmada::fleet::plan::BindingPlan {
        web_of(&p.plan)
    }

    fn ask(what: WhatIf, added: &[Object], applied: &[Object]) -> Planned {
        plan(&objects(DUMP), &Choice::default(), &what, added, applied).unwrap()
    }

    /// The error planning the dump under `what`, with `applied`, answers.
    fn error_of(what: &WhatIf, applied: &[Object]) -> Error {
        plan(&objects(DUMP), &Choice::default(), what, &[], applied).unwrap_err()
    }

    /// Planning the dump under each what-if (JSON text, as the package reads it) is an error
    /// at the entry named, with the code where one is given.
    fn errors_at(cases: &[(&str, &str, Option<ErrorCode>)]) {
        for (json, field, code) in cases {
            let err = error_of(&what_if(json), &[]);
            assert_eq!(err.field().text(), *field, "{json}");
            if let Some(code) = code {
                assert_eq!(&err.code(), code, "{json}");
            }
        }
    }

    // Without a what-if: the scheduler starting over today's bindings. A Divided binding whose
    // placement and replicas are as applied finds no trigger (`doScheduleBinding`).
    #[test]
    fn drift_of_a_divided_binding_is_none() {
        let p = ask(WhatIf::default(), &[], &[]);
        assert!(matches!(
            web(&p).outcome,
            Outcome::Unchanged {
                why: Unchanged::NoTrigger { .. }
            }
        ));
        assert!(p.resource_bindings.is_empty());
    }

    // A cluster down leaves a Divided binding (docs/rules/fleet.md §24.2); deleting it moves
    // the replicas and writes the binding.
    #[test]
    fn down_keeps_and_delete_moves() {
        let down = WhatIf {
            cluster_down: alloc::vec!["member1".into()],
            ..WhatIf::default()
        };
        assert_eq!(
            web(&ask(down, &[], &[])).before,
            web(&ask(WhatIf::default(), &[], &[])).after
        );
        let delete = delete_member1();
        let p = ask(delete, &[], &[]);
        assert_eq!(
            web(&p).outcome,
            Outcome::Changed {
                trigger: Trigger::PlacedClusterDeleting
            }
        );
        assert_eq!(p.resource_bindings.len(), 1);
        let rb = &p.resource_bindings[0];
        assert_eq!(rb.metadata.name, "web-deployment");
        assert!(rb.spec.clusters.iter().all(|c| c.name != "member1"));
        assert_eq!(
            rb.spec.resource.name, "web",
            "the dump's binding, its other fields kept"
        );
    }

    // A joined cluster does not take a Divided binding's replicas (§26.1); a scale does
    // (§27.4).
    #[test]
    fn a_join_moves_nothing_and_a_scale_places_more() {
        let joined = objects(
            r#"{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
                "metadata": {"name": "member3"},
                "status": {"resourceSummary": {"allocatable": {"cpu": "64", "pods": "110"}}}}"#,
        );
        let p = ask(WhatIf::default(), &joined, &[]);
        assert_eq!(web(&p).before, web(&p).after);
        let scale = WhatIf {
            scale: alloc::vec!["deploy/shop/web=6".into()],
            ..WhatIf::default()
        };
        let p = ask(scale, &[], &[]);
        assert_eq!(
            web(&p).outcome,
            Outcome::Changed {
                trigger: Trigger::ReplicasChanged
            }
        );
        assert_eq!(web(&p).after.values().sum::<i64>(), 6);
    }

    // A joining Cluster is Ready unless its Ready condition says otherwise: one that says
    // False joins not ready (a session's state shows it so).
    #[test]
    fn a_joining_cluster_is_ready_unless_it_says_otherwise() {
        let joining = |condition: &str| {
            objects(&format!(
                r#"{{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
                    "metadata": {{"name": "member3"}},
                    "status": {{{condition}"resourceSummary": {{"allocatable": {{"cpu": "64", "pods": "110"}}}}}}}}"#
            ))
        };
        let ready_of = |added: &[Object]| {
            let (_, s) = session()
                .plan(&Choice::default(), &WhatIf::default(), added, &[])
                .unwrap();
            s.clusters()
                .into_iter()
                .find(|c| c.load.name == "member3")
                .map(|c| c.ready)
        };
        assert_eq!(ready_of(&joining("")), Some(Readiness::Ready));
        let down = r#""conditions": [{"type": "Ready", "status": "False"}], "#;
        assert_eq!(ready_of(&joining(down)), Some(Readiness::NotReady));
    }

    /// The web policy edited: member2 alone, aggregated.
    fn web_to_member2() -> Vec<Object> {
        objects(web_to_member2_text())
    }

    fn web_to_member2_text() -> &'static str {
        r#"{"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
                "metadata": {"name": "web", "namespace": "shop"},
                "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}],
                         "placement": {"clusterAffinity": {"clusterNames": ["member2"]},
                           "replicaScheduling": {"replicaSchedulingType": "Divided",
                           "replicaDivisionPreference": "Aggregated"}}}}"#
    }

    // Editing the claiming policy is a placement change, scheduled in Steady mode; a new
    // policy with a higher priority does not take a claimed template (claims are sticky).
    #[test]
    fn an_applied_policy_edit_reschedules_and_a_rival_does_not() {
        let edit = web_to_member2();
        let p = ask(WhatIf::default(), &[], &edit);
        assert_eq!(
            web(&p).outcome,
            Outcome::Changed {
                trigger: Trigger::PlacementChanged
            }
        );
        assert_eq!(web(&p).after.keys().collect::<Vec<_>>(), ["member2"]);
        let rival = objects(
            r#"{"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
                "metadata": {"name": "rival", "namespace": "shop"},
                "spec": {"priority": 100,
                         "resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}],
                         "placement": {"clusterAffinity": {"clusterNames": ["member2"]}}}}"#,
        );
        let p = ask(WhatIf::default(), &[], &rival);
        assert_eq!(web(&p).before, web(&p).after);
    }

    #[test]
    fn an_unknown_cluster_or_workload_is_an_error_at_its_entry() {
        errors_at(&[
            (
                r#"{"cordon": ["member1", "member9"]}"#,
                "cordon[1]",
                Some(ErrorCode::UnknownValue),
            ),
            (
                r#"{"rebalance": ["deploy/shop/nothing"]}"#,
                "rebalance[0]",
                None,
            ),
        ]);
    }

    // What cannot be applied is an error at the applied object, not a policy left out while
    // the rest applies: a policy that cannot be read, a Cluster (which joins, not applies).
    #[test]
    fn an_invalid_applied_object_is_an_error_at_it() {
        let bad = objects(&web_to_member2_text().replace("\"Divided\"", "\"Dividd\""));
        let err = error_of(&WhatIf::default(), &bad);
        assert_eq!(
            err.field().text(),
            "apply[0].spec.placement.replicaScheduling.replicaSchedulingType"
        );
        assert!(
            alloc::format!("{err}").contains("Duplicated or Divided"),
            "{err}"
        );
        let mut with_cluster = web_to_member2();
        with_cluster.push(objects(DUMP).remove(0));
        let err = error_of(&WhatIf::default(), &with_cluster);
        assert_eq!(err.field().text(), "apply[1]");
        assert!(alloc::format!("{err}").contains("--add-cluster"), "{err}");
    }

    // An unknown field of an applied policy is a warning of the plan's report.
    #[test]
    fn an_applied_policys_unknown_field_is_warned() {
        let text = web_to_member2_text().replace(
            "\"replicaSchedulingType\"",
            "\"weightPreference\": {\"staticWeightLis\": []}, \"replicaSchedulingType\"",
        );
        let applied = crate::kubernetes::objects::read_json(&text).unwrap();
        let p = ask(WhatIf::default(), &[], &applied);
        let w = p.report.warnings.last().unwrap();
        assert_eq!(w.object, "PropagationPolicy shop/web");
        let typo = "spec.placement.replicaScheduling.weightPreference.staticWeightLis";
        assert_eq!(w.field, typo);
    }

    // The dump's web is scaled to 6 since its binding was scheduled: its reschedule is
    // pending before any event (replicasChanged). Cordoning member3 (tainted, never a candidate of web) enqueues web
    // and reschedules it exactly as the drift would: a change already pending, not the
    // event's; the summary counts the event's alone.
    /// The dump with a tainted member3, and web scaled to 6 since its binding was scheduled.
    fn drifting() -> Vec<Object> {
        let member3 = r#"{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
           "metadata": {"name": "member3"},
           "spec": {"taints": [{"key": "dedicated", "effect": "NoSchedule"}]},
           "status": {"conditions": [{"type": "Ready", "status": "True"}],
                      "resourceSummary": {"allocatable": {"cpu": "8", "pods": "110"}}}},"#;
        let text = DUMP
            .replacen(
                r#""items": ["#,
                &alloc::format!(r#""items": [{member3}"#),
                1,
            )
            .replacen(
                r#""spec": {"replicas": 4, "template""#,
                r#""spec": {"replicas": 6, "template""#,
                1,
            );
        objects(&text)
    }

    // Where no binding's schedule reads another's, the drift of the bindings a what-if
    // changes marks as pending exactly what the restart of every binding marks.
    #[test]
    fn the_drift_of_the_changed_bindings_marks_what_a_whole_restart_marks() {
        let dump = drifting();
        let choice = Choice::default();
        let clusters = ["member1", "member2", "member3"];
        let mut asks: Vec<WhatIf> = Vec::new();
        for c in clusters {
            let one = alloc::vec![String::from(c)];
            asks.push(WhatIf {
                cluster_down: one.clone(),
                ..WhatIf::default()
            });
            asks.push(WhatIf {
                cordon: one.clone(),
                ..WhatIf::default()
            });
            asks.push(WhatIf {
                delete_cluster: one,
                ..WhatIf::default()
            });
        }
        let mut marked = 0;
        for what in &asks {
            let p = plan(&dump, &choice, what, &[], &[]).unwrap().plan;
            let read = read_now(&dump, &choice, Some(what)).unwrap();
            let before = under(&read.fleet, what).unwrap();
            assert!(before.settings.independent());
            let (whole, _) =
                crate::karmada::fleet::plan::plan(&before, alloc::vec![Event::Restart]).unwrap();
            let mut again = p.clone();
            mark_pending(&mut again, &whole);
            let pending = |p: &Plan| p.bindings.iter().map(|b| b.pending).collect::<Vec<_>>();
            assert_eq!(pending(&p), pending(&again), "{what:?}");
            assert_eq!(p.summary, again.summary, "{what:?}");
            marked += pending(&p).iter().filter(|&&b| b).count();
        }
        assert!(marked > 0, "some what-if finds a pending change");
    }

    #[test]
    fn a_change_the_drift_makes_too_is_pending_not_the_events() {
        let dump = drifting();
        let cordon = WhatIf {
            cordon: alloc::vec!["member3".into()],
            ..WhatIf::default()
        };
        let p = plan(&dump, &Choice::default(), &cordon, &[], &[]).unwrap();
        let b = web(&p);
        assert!(matches!(b.outcome, Outcome::Changed { .. }), "{b:?}");
        assert!(b.pending, "{b:?}");
        assert_eq!(p.plan.summary.changed, 0);
        assert_eq!(p.plan.summary.pending, 1);
        assert_eq!(p.plan.summary.moved_replicas, 0);
        // Without a what-if the drift itself is the plan: nothing is pending.
        let drift = plan(&dump, &Choice::default(), &WhatIf::default(), &[], &[]).unwrap();
        assert!(!web(&drift).pending);
        assert_eq!(drift.plan.summary.changed, 1);
        // Deleting member1, where web is, changes it otherwise than the drift: the event's.
        let gone = delete_member1();
        let p = plan(&dump, &Choice::default(), &gone, &[], &[]).unwrap();
        assert!(!web(&p).pending, "{:?}", web(&p));
        assert_eq!(p.plan.summary.changed, 1);
        let states: Vec<(&str, &str)> = p
            .plan
            .clusters
            .iter()
            .map(|c| (c.state_before.as_str(), c.state.as_str()))
            .collect();
        assert!(
            states.contains(&("Ready", "Ready, being deleted")),
            "{states:?}"
        );
    }

    #[test]
    fn a_malformed_scale_is_an_error_at_its_entry() {
        errors_at(&[
            (
                r#"{"scale": ["deploy/shop/web=-1"]}"#,
                "scale[0]",
                Some(ErrorCode::InvalidInput),
            ),
            (r#"{"scale": ["deploy/shop/web"]}"#, "scale[0]", None),
        ]);
    }

    // A deleted policy (`handlePolicyDeletion`, pkg/detector/detector.go) takes its claim off
    // the binding: the scheduler no longer sees it and it keeps its clusters (§27.3); with a
    // rival that selects the template, the rival claims it and its placement is scheduled.
    #[test]
    fn a_deleted_policy_unclaims_or_hands_over() {
        let what = WhatIf {
            delete_policy: alloc::vec!["shop/web".into()],
            ..WhatIf::default()
        };
        let p = ask(what.clone(), &[], &[]);
        assert_eq!(web(&p).before, web(&p).after);
        assert!(matches!(
            &web(&p).outcome,
            Outcome::Unchanged {
                why: Unchanged::NotEnqueued {
                    why: crate::karmada::fleet::events::WhyNot::NotClaimed
                }
            }
        ));
        let rival = objects(
            r#"{"apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterPropagationPolicy",
                "metadata": {"name": "everything"},
                "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
                         "placement": {"clusterAffinity": {"clusterNames": ["member2"]},
                           "replicaScheduling": {"replicaSchedulingType": "Divided",
                           "replicaDivisionPreference": "Aggregated"}}}}"#,
        );
        let mut dump = objects(DUMP);
        dump.extend(rival);
        let p = plan(&dump, &Choice::default(), &what, &[], &[]).unwrap();
        assert_eq!(web(&p).after.keys().collect::<Vec<_>>(), ["member2"]);
        // `--delete FILE`: the file's policies by name; another kind is an error at it.
        let names = policy_names(&objects(DUMP)[2..4]).unwrap();
        assert_eq!(names, ["shop/web", "shop/nothing"]);
        let err = policy_names(&objects(DUMP)[..1]).unwrap_err();
        assert_eq!(err.field().text(), "delete[0]");
        let what = WhatIf {
            delete_policy: alloc::vec!["nothing-here".into()],
            ..WhatIf::default()
        };
        let err = error_of(&what, &[]);
        assert_eq!(err.field().text(), "deletePolicy[0]");
    }

    // What the plan writes is what the scheduler would: read back in place of the dump's
    // bindings, the drift is none (the applied-placement annotation says the placement was
    // applied, `placementChanged`, pkg/scheduler/helper.go).
    #[test]
    fn written_bindings_read_back_without_drift() {
        let edit = web_to_member2();
        let p = ask(WhatIf::default(), &[], &edit);
        let rb = &p.resource_bindings[0];
        assert!(rb
            .metadata
            .annotations
            .contains_key(super::super::fleet::APPLIED_PLACEMENT));
        let same = |a: &Object, b: &Object| a.kind == b.kind && a.metadata.name == b.metadata.name;
        let next: Vec<Object> = objects(DUMP)
            .into_iter()
            .map(|o| {
                let new = p
                    .resource_bindings
                    .iter()
                    .chain(&edit)
                    .find(|n| same(n, &o));
                new.cloned().unwrap_or(o)
            })
            .collect();
        let drift = plan(&next, &Choice::default(), &WhatIf::default(), &[], &[]).unwrap();
        assert_eq!(web(&drift).before, web(&drift).after);
        assert!(matches!(
            web(&drift).outcome,
            Outcome::Unchanged {
                why: Unchanged::NoTrigger { .. }
            }
        ));
    }

    /// The what-if that deletes member1, where web is.
    fn delete_member1() -> WhatIf {
        WhatIf {
            delete_cluster: alloc::vec!["member1".into()],
            ..WhatIf::default()
        }
    }

    fn session() -> Session {
        Session::read(objects(DUMP), &Choice::default()).unwrap()
    }

    fn placements(f: &Fleet) -> Vec<(Id, BTreeMap<String, i64>)> {
        f.entries
            .iter()
            .map(|e| (e.id.clone(), e.state.clusters.clone()))
            .collect()
    }

    // A session planning one what-if at a time ends where one plan of them all ends: the
    // fleet after each step is the next one's.
    #[test]
    fn a_session_one_event_at_a_time_equals_one_plan() {
        let steps = [
            what_if(r#"{"cordon": ["member2"]}"#),
            what_if(r#"{"deleteCluster": ["member1"]}"#),
            what_if(r#"{"scale": ["deploy/shop/web=7"]}"#),
        ];
        let all = WhatIf {
            cordon: steps[0].cordon.clone(),
            delete_cluster: steps[1].delete_cluster.clone(),
            scale: steps[2].scale.clone(),
            ..WhatIf::default()
        };
        let one = ask(all, &[], &[]);
        let mut s = session();
        let mut last = None;
        for w in &steps {
            let (plan, next) = s.plan(&Choice::default(), w, &[], &[]).unwrap();
            // Each step's before is the previous step's after.
            assert_eq!(
                plan.bindings.iter().map(|b| &*b.before).collect::<Vec<_>>(),
                placements(&s.fleet)
                    .iter()
                    .map(|(_, c)| c)
                    .collect::<Vec<_>>()
            );
            s = next;
            last = Some(plan);
        }
        let after: Vec<_> = one
            .plan
            .bindings
            .iter()
            .map(|b| (b.id.clone(), (*b.after).clone()))
            .collect();
        assert_eq!(placements(&s.fleet), after);
        assert_eq!(
            last.unwrap()
                .clusters
                .iter()
                .map(|c| &c.after)
                .collect::<Vec<_>>(),
            one.plan
                .clusters
                .iter()
                .map(|c| &c.after)
                .collect::<Vec<_>>()
        );
        let first = session()
            .plan(&Choice::default(), &WhatIf::default(), &[], &[])
            .unwrap()
            .0;
        assert_eq!(
            first,
            ask(WhatIf::default(), &[], &[]).plan,
            "the drift is planFleet's"
        );
    }

    // A cluster's state is written once: its key is not both the cluster's and its load's
    // (a reader that refuses duplicate keys, as serde's derived structs do, reads it).
    #[test]
    fn a_cluster_state_writes_each_key_once() {
        let s = session();
        for c in s.clusters() {
            let text = serde_json::to_string(&c).unwrap();
            assert_eq!(text.matches("\"state\":").count(), 1, "{text}");
            assert!(text.contains("\"stateBefore\":"), "{text}");
        }
    }

    // Going back is keeping the session before: a what-if leaves the session it starts from
    // as it was.
    #[test]
    fn a_session_is_left_as_it_was() {
        let s = session();
        let state = s.state();
        let down = delete_member1();
        let (plan, next) = s.plan(&Choice::default(), &down, &[], &[]).unwrap();
        assert_eq!(s.state(), state);
        assert_ne!(next.state(), state);
        // The deleted cluster is said so.
        let member1 = |s: &Session| {
            s.clusters()
                .into_iter()
                .find(|c| c.load.name == "member1")
                .unwrap()
        };
        assert!(!member1(&s).deleting);
        assert!(member1(&next).deleting);
        assert_eq!(member1(&next).load.state, "Ready, being deleted");
        assert_eq!(next.written(&plan).len(), 1);
    }

    // Each cluster's load as a session stands is its load after the what-if that led there,
    // before and after alike (no event), with the capacity the plan read.
    #[test]
    fn a_sessions_clusters_carry_the_loads_its_plan_left() {
        let gone = delete_member1();
        let (plan, next) = session().plan(&Choice::default(), &gone, &[], &[]).unwrap();
        let clusters = next.clusters();
        assert_eq!(clusters.len(), plan.clusters.len());
        for (now, planned) in clusters.iter().zip(&plan.clusters) {
            assert_eq!(now.load.name, planned.name);
            assert_eq!(now.load.before, planned.after);
            assert_eq!(now.load.after, planned.after);
            assert_eq!(now.load.allocatable, planned.allocatable);
            assert!(now.load.overcommit.is_empty());
        }
        assert!(plan.clusters.iter().any(|c| c.before != c.after));
    }

    // An applied policy after a scale keeps the scaled replicas (only applied templates bring
    // their own), and the applied policy stays for the next step.
    #[test]
    fn a_session_applies_a_policy_after_a_scale() {
        let scale = WhatIf {
            scale: alloc::vec!["deploy/shop/web=6".into()],
            ..WhatIf::default()
        };
        let (_, s) = session()
            .plan(&Choice::default(), &scale, &[], &[])
            .unwrap();
        let edit = web_to_member2();
        let (plan, s) = s
            .plan(&Choice::default(), &WhatIf::default(), &[], &edit)
            .unwrap();
        let b = web_of(&plan);
        assert_eq!(b.after.keys().collect::<Vec<_>>(), ["member2"]);
        assert_eq!(b.after.values().sum::<i64>(), 6);
        let state = s.state();
        let web = state
            .bindings
            .iter()
            .find(|b| b.id.name == "web-deployment")
            .unwrap();
        assert_eq!(web.workload.as_deref(), Some("Deployment/shop/web"));
        assert_eq!(web.policy.as_deref(), Some("shop/web"));
        assert_eq!(web.replicas, 6);
    }

    // The progress a session reports: one call per binding the scheduler takes, the count
    // taken rising by one, the whole never below it, ending at every pass of the plan; the
    // plan the one without a hook makes.
    #[test]
    fn a_sessions_progress_counts_every_pass() {
        let gone = delete_member1();
        let mut calls: Vec<(usize, usize)> = Vec::new();
        let (plan, _) = session()
            .plan_reporting(&Choice::default(), &gone, &[], &[], &mut |done, total| {
                calls.push((done, total))
            })
            .unwrap();
        let passes: usize = plan.steps.iter().map(|s| s.passes.len()).sum();
        assert!(passes > 0);
        assert_eq!(calls.len(), passes);
        for (k, &(done, total)) in calls.iter().enumerate() {
            assert!(done <= total, "{calls:?}");
            // Each drain counts from its first binding.
            assert!(done == 1 || calls[k - 1].0 + 1 == done, "{calls:?}");
        }
        assert_eq!(calls.last().map(|&(d, t)| d == t), Some(true));
        let (silent, _) = session().plan(&Choice::default(), &gone, &[], &[]).unwrap();
        assert_eq!(plan, silent);
    }

    // A session's policies are the dump's with those applied since: what a form starts from.
    #[test]
    fn a_sessions_policies_are_those_applied() {
        let s = session();
        let named = |s: &Session| -> Vec<(String, String)> {
            s.policies()
                .iter()
                .map(|o| (o.kind.clone(), o.metadata.name.clone()))
                .collect()
        };
        let before = named(&s);
        assert!(before.iter().any(|(_, n)| n == "web"));
        let edit = web_to_member2();
        let (_, next) = s
            .plan(&Choice::default(), &WhatIf::default(), &[], &edit)
            .unwrap();
        assert_eq!(named(&next), before, "replaced in place");
        let web = next
            .policies()
            .into_iter()
            .find(|o| o.metadata.name == "web")
            .unwrap();
        assert_eq!(web, &edit[0]);
    }

    fn web_of(p: &Plan) -> &crate::karmada::fleet::plan::BindingPlan {
        p.bindings
            .iter()
            .find(|b| b.id.name == "web-deployment")
            .unwrap()
    }
}

#[cfg(test)]
mod gate_tests {
    use super::*;
    use alloc::string::ToString;

    fn what(json: &str) -> core::result::Result<WhatIf, Error> {
        crate::json::from_json(json)
    }

    fn settings(version: &str, what: &WhatIf) -> Result<Settings> {
        let mut s = Settings {
            version: crate::karmada::version::Version::parse(version).unwrap(),
            ..Settings::default()
        };
        what.settings_into(&mut s).map(|()| s)
    }

    // The what-if's featureGates, as text or as a map, and the shorthands, read into one set.
    #[test]
    fn gates_as_text_map_and_shorthands() {
        let text =
            what(r#"{"featureGates": "Failover=true,PriorityBasedScheduling=true"}"#).unwrap();
        let map = what(r#"{"featureGates": {"Failover": true, "PriorityBasedScheduling": true}}"#)
            .unwrap();
        assert_eq!(text, map);
        let s = settings("1.19", &text).unwrap();
        assert!(s.gate(Gate::Failover) && s.by_priority());
        assert!(!s.taint_eviction(), "Failover alone: the flag is off");
        let short = what(r#"{"taintEviction": true, "overcommitProtection": true}"#).unwrap();
        let s = settings("1.19", &short).unwrap();
        assert!(s.taint_eviction());
        assert!(s.gate(Gate::SchedulingOvercommitProtection));
        assert!(
            !s.by_priority(),
            "PriorityBasedScheduling is off by default in 1.19"
        );
    }

    #[test]
    fn a_wrong_gate_is_an_error_at_it() {
        let e = what(r#"{"featureGates": "Failover=true,Nope=true"}"#).unwrap_err();
        assert_eq!(e.field().to_string(), "featureGates");
        assert!(
            e.to_string().contains("unrecognized feature gate: Nope"),
            "{e}"
        );
        let e = what(r#"{"featureGates": {"Failover": "maybe"}}"#).unwrap_err();
        assert!(e.field().to_string().starts_with("featureGates"), "{e}");
        assert!(
            e.to_string().contains("invalid value of Failover=maybe"),
            "{e}"
        );
        let lacking = what(r#"{"featureGates": "SchedulingOvercommitProtection=true"}"#).unwrap();
        let e = settings("1.17", &lacking).unwrap_err();
        assert_eq!(
            e.field().to_string(),
            "featureGates.SchedulingOvercommitProtection"
        );
        let shorthand = what(r#"{"workloadAffinity": true}"#).unwrap();
        let e = settings("1.16", &shorthand).unwrap_err();
        assert_eq!(e.field().to_string(), "featureGates.WorkloadAffinity");
        let both = what(r#"{"featureGates": "Failover=false", "taintEviction": true}"#).unwrap();
        let e = settings("1.19", &both).unwrap_err();
        assert_eq!(e.field().to_string(), "featureGates.Failover");
        assert!(e.to_string().contains("contradicts taintEviction"), "{e}");
    }
}

#[cfg(test)]
mod apply_order_tests {
    use super::tests::objects;
    use super::*;

    const TWO: &str = r#"{"apiVersion": "v1", "kind": "List", "items": [
      {"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
       "metadata": {"name": "member1"},
       "status": {"conditions": [{"type": "Ready", "status": "True"}],
                  "resourceSummary": {"allocatable": {"cpu": "8", "pods": "110"}}}},
      {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
       "metadata": {"name": "pa", "namespace": "shop"},
       "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "a"}],
                "placement": {}}},
      {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
       "metadata": {"name": "pz", "namespace": "shop"},
       "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "z1"},
                                      {"apiVersion": "apps/v1", "kind": "Deployment", "name": "z0"}],
                "placement": {}}},
      {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "a", "namespace": "shop"},
       "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "c"}]}}}},
      {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "z0", "namespace": "shop"},
       "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "c"}]}}}},
      {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "z1", "namespace": "shop"},
       "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "c"}]}}}}
    ]}"#;

    // The detector updates the bindings of the applied policies policy by policy, in the order
    // they are applied, each policy's by name (§27.2): pz's (z0, z1) before pa's (a).
    #[test]
    fn applied_policies_place_their_bindings_in_file_order() {
        let all = objects(TWO);
        let placed = |name: &str| {
            let mut p = all
                .iter()
                .find(|o| o.kind == "PropagationPolicy" && o.metadata.name == name)
                .unwrap()
                .clone();
            p.spec.placement =
                serde_json::from_str(r#"{"clusterAffinity": {"clusterNames": ["member1"]}}"#)
                    .unwrap();
            p
        };
        let applied = [placed("pz"), placed("pa")];
        let p = plan(&all, &Choice::default(), &WhatIf::default(), &[], &applied).unwrap();
        let taken: Vec<&str> = p
            .plan
            .steps
            .iter()
            .flat_map(|s| s.passes.iter().map(|n| n.binding.name.as_str()))
            .collect();
        assert_eq!(taken, ["z0-deployment", "z1-deployment", "a-deployment"]);
    }
}

#[cfg(test)]
mod join_tests {
    use super::tests::objects;
    use super::*;
    use crate::kubernetes::fixtures::{cluster, list};

    const ONE: &str = list!(
        cluster!("member1", "8"),
        r#"
      {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
       "metadata": {"name": "pa", "namespace": "shop"},
       "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "a"}],
                "placement": {}}},
      {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "a", "namespace": "shop"},
       "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "c"}]}}}},
      {"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
       "metadata": {"name": "a-deployment", "namespace": "shop"},
       "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "shop", "name": "a"},
                "replicas": 1, "clusters": [{"name": "member1", "replicas": 1}]},
       "status": {"lastScheduledTime": "2024-05-01T12:00:00Z"}}"#
    );

    const NEW: &str = r#"{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
       "metadata": {"name": "member2"},
       "status": {"apiEnablements": [{"groupVersion": "apps/v1",
                                      "resources": [{"name": "deployments", "kind": "Deployment"}]}],
                  "resourceSummary": {"allocatable": {"cpu": "8", "pods": "110"}}}}"#;

    // A Cluster created without a status is tainted not-ready first (the cluster controller):
    // the bindings that enqueues are scheduled without it; then Ready, the taint removed, and
    // they are scheduled with it (§26.1).
    #[test]
    fn a_joining_cluster_is_not_ready_first() {
        let all = objects(ONE);
        let added = vec_of(NEW);
        let p = plan(&all, &Choice::default(), &WhatIf::default(), &added, &[]).unwrap();
        let taken: Vec<(&str, usize)> = p
            .plan
            .steps
            .iter()
            .enumerate()
            .flat_map(|(k, s)| s.passes.iter().map(move |n| (n.binding.name.as_str(), k)))
            .collect();
        // Once in the window (the join's step, without member2), then after Ready (a later
        // step), and once more after its new result (§23.4).
        let events: Vec<&str> = p.plan.steps.iter().map(|s| s.event.as_str()).collect();
        let ready = events
            .iter()
            .position(|e| e.ends_with(" ready"))
            .unwrap_or_else(|| panic!("no Ready step in {events:?}"));
        assert!(ready > 0, "{events:?}");
        assert_eq!(
            taken,
            [
                ("a-deployment", 0),
                ("a-deployment", ready),
                ("a-deployment", ready)
            ]
        );
        let b = &p.plan.bindings[0];
        assert_eq!(b.after.len(), 2, "member2 added once Ready");
    }

    // The API server drops a created Cluster's status (`PrepareForCreate`): one given with a
    // Ready condition goes through the same window, and its condition is the status
    // controller's first report (§26.1).
    #[test]
    fn a_cluster_joined_with_its_status_is_not_ready_first_too() {
        let all = objects(ONE);
        for (status, ready) in [("True", true), ("False", false)] {
            let with = NEW.replacen(
                r#""status": {"#,
                &format!(
                    r#""status": {{"conditions": [{{"type": "Ready", "status": "{status}"}}], "#
                ),
                1,
            );
            let p = plan(
                &all,
                &Choice::default(),
                &WhatIf::default(),
                &vec_of(&with),
                &[],
            )
            .unwrap();
            let events: Vec<&str> = p.plan.steps.iter().map(|s| s.event.as_str()).collect();
            assert_eq!(events[0], "cluster member2 joins", "{events:?}");
            assert_eq!(
                p.plan.steps[0].passes.len(),
                1,
                "scheduled in the window: {events:?}"
            );
            let b = &p.plan.bindings[0];
            assert_eq!(
                b.after.contains_key("member2"),
                ready,
                "{status}: {:?}",
                b.after
            );
        }
    }

    fn vec_of(text: &str) -> Vec<Object> {
        alloc::vec![serde_json::from_str::<Object>(text).unwrap()]
    }
}
