//! Failover readiness (docs/rules/fleet.md §34): N-1 contingency over the fleet. Each
//! failure is one cluster, or every cluster of a zone or a region, down at once; its row is
//! read from the plan of that failure exactly as `allot plan --cluster-down` plans it
//! ([`Row::of`]): the bindings affected, the replicas that reschedule and where to, those
//! left unplaced (grouped by Karmada's reason), those lost until recovery (kept on a failed
//! cluster), the clusters pushed past their capacity and by how much, and the time until the
//! fleet settles. Rows are ordered worst first ([`worst_first`]).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use serde::{Deserialize, Serialize};

use super::entry::{Condition, Id};
use super::plan::{BindingPlan, Outcome, Placed, Plan};
use crate::resource::ResourceList;
use crate::selector::label::{LabelSelector, Labels};

/// What fails together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Each {
    /// Every cluster on its own.
    #[default]
    Cluster,
    /// Every cluster of one zone (`spec.zone`, or listed in `spec.zones`) at once.
    Zone,
    /// Every cluster of one region (`spec.region`) at once.
    Region,
}

/// A member cluster as readiness groups it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Site {
    pub name: String,
    pub labels: Labels,
    pub region: String,
    /// `spec.zone` and `spec.zones`, without repeats.
    pub zones: Vec<String>,
}

/// One failure: its name (the cluster's, the zone's or the region's) and the clusters down.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    pub name: String,
    pub clusters: Vec<String>,
}

/// The failures of `each` over `sites`, in name order, each with the clusters `select`
/// matches (every cluster without one); a zone or region none of whose clusters is selected
/// is no failure, and a cluster without a zone (region) is in no zone (region) failure.
pub fn failures(sites: &[Site], each: Each, select: Option<&LabelSelector>) -> Vec<Failure> {
    let mut groups: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for s in sites {
        if select.is_some_and(|sel| !sel.matches_validated(&s.labels)) {
            continue;
        }
        let keys: Vec<&str> = match each {
            Each::Cluster => alloc::vec![s.name.as_str()],
            Each::Region if s.region.is_empty() => Vec::new(),
            Each::Region => alloc::vec![s.region.as_str()],
            Each::Zone => s.zones.iter().map(String::as_str).collect(),
        };
        for k in keys {
            groups.entry(k).or_default().push(s.name.clone());
        }
    }
    groups
        .into_iter()
        .map(|(name, clusters)| Failure {
            name: name.into(),
            clusters,
        })
        .collect()
}

/// Replicas that reschedule onto one cluster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Destination {
    pub cluster: String,
    pub replicas: u64,
}

/// Replicas left unplaced for one reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Unplaced {
    /// Karmada's condition reason (`NoClusterFit`, `Unschedulable`, `SchedulerError`), or
    /// `Evicted` (the taint manager removed the cluster and the scheduler did not place the
    /// replicas again), or `Fewer` (scheduled again to fewer replicas).
    pub reason: String,
    /// The condition's message (empty for `Evicted` and `Fewer`).
    pub message: String,
    pub replicas: u64,
    pub bindings: usize,
    /// The group in words: `2 replicas unplaced (1 binding): no cluster fits
    /// (Scheduled=False, NoClusterFit): 0/3 clusters are available`
    /// ([`super::readiness_words::unplaced`]).
    #[serde(default)]
    pub said: String,
}

/// A cluster pushed past its capacity, and by how much per resource.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Overcommit {
    pub cluster: String,
    pub by: ResourceList,
}

/// One binding the failure affects (`-o wide`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Affected {
    pub id: Id,
    /// Read through the fleet's entry (rows share it rather than copy it).
    pub before: Placed,
    pub after: Placed,
    /// The plan's outcome: `changed`, `evicted`, `unschedulable` or `unchanged`.
    pub outcome: String,
    /// Replicas kept on a failed cluster.
    pub lost: u64,
    /// Replicas no cluster holds any more.
    pub unplaced: u64,
    /// It had replicas before and has none on a cluster that stays up: the workload is down.
    pub outage: bool,
}

/// One failure's row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    #[serde(flatten)]
    pub failure: Failure,
    /// Bindings placed on a failed cluster before, or that the plan changes.
    pub bindings: usize,
    /// Replicas newly placed on a cluster that stays up (Σ of after − before, where
    /// positive), and where they go (most first, then by name).
    pub rescheduled: u64,
    pub to: Vec<Destination>,
    /// Replicas no cluster holds any more (Σ before − Σ after per binding, where positive),
    /// grouped by reason (most first).
    pub unplaced: u64,
    pub unplaced_by: Vec<Unplaced>,
    /// Replicas the plan keeps on a failed cluster: lost until it recovers.
    pub lost: u64,
    /// Its harm in a few words: `5 lost, 2 unplaced`, or `-`
    /// ([`super::readiness_words::harm`]).
    #[serde(default)]
    pub harm: String,
    /// Clusters pushed past their capacity, in the fleet's order.
    pub overcommitted: Vec<Overcommit>,
    /// Bindings that had replicas before and have none on a cluster that stays up: the
    /// failure takes their workload down entirely (a single point of failure for it).
    pub outages: usize,
    /// Seconds after the failure until the controllers take no more steps: the last moment
    /// of its plan's timeline (0: at once).
    pub settled_after: i64,
    /// Every binding affected, by identity.
    pub workloads: Vec<Affected>,
}

impl Row {
    /// Whether the failure leaves every replica placed on a cluster that is up and no cluster
    /// overcommitted.
    pub fn clean(&self) -> bool {
        self.unplaced == 0 && self.lost == 0 && self.overcommitted.is_empty()
    }

    /// Read `failure`'s row from its plan (the plan of `--cluster-down` each of its
    /// clusters, every binding listed).
    pub fn of(failure: Failure, plan: &Plan) -> Row {
        let views = plan.bindings.iter().map(View::of);
        let over = plan
            .clusters
            .iter()
            .filter(|c| !c.overcommit.is_empty())
            .map(|c| Overcommit {
                cluster: c.name.clone(),
                by: c.overcommit.clone(),
            })
            .collect();
        Row::of_views(failure, views, over, settled_after(plan))
    }

    /// [`Row::of`] from the bindings that matter: every binding placed on a failed cluster
    /// before, and every binding the plan does not leave as it was (others add nothing).
    pub fn of_views<'a>(
        failure: Failure,
        bindings: impl Iterator<Item = View<'a>>,
        overcommitted: Vec<Overcommit>,
        settled_after: i64,
    ) -> Row {
        let down: BTreeSet<&str> = failure.clusters.iter().map(String::as_str).collect();
        let mut to: BTreeMap<String, u64> = BTreeMap::new();
        let mut unplaced: BTreeMap<(String, String), (u64, usize, String)> = BTreeMap::new();
        let mut workloads = Vec::new();
        let (mut rescheduled, mut lost_all, mut unplaced_all) = (0u64, 0u64, 0u64);
        for b in bindings {
            let on_down = b.before.keys().any(|c| down.contains(c.as_str()));
            let unchanged = b
                .outcome
                .is_none_or(|o| matches!(o, Outcome::Unchanged { .. }))
                && b.before == b.after;
            if !on_down && unchanged {
                continue;
            }
            for (c, &n) in b.after.iter() {
                let had = b.before.get(c).copied().unwrap_or(0);
                if n > had && !down.contains(c.as_str()) {
                    let more = (n - had) as u64;
                    rescheduled += more;
                    match to.get_mut(c.as_str()) {
                        Some(n) => *n += more,
                        None => {
                            to.insert(c.clone(), more);
                        }
                    }
                }
            }
            let lost: u64 = b
                .after
                .iter()
                .filter(|(c, _)| down.contains(c.as_str()))
                .map(|(_, &n)| n.max(0) as u64)
                .sum();
            let total =
                |m: &BTreeMap<String, i64>| m.values().map(|&n| n.max(0) as u64).sum::<u64>();
            let short = total(&b.before).saturating_sub(total(&b.after));
            if short > 0 {
                let (code, message, why) = reason(b.outcome);
                let slot = unplaced.entry((code, message)).or_default();
                slot.0 += short;
                slot.1 += 1;
                slot.2 = why;
            }
            let up = |m: &BTreeMap<String, i64>| {
                m.iter()
                    .filter(|(c, _)| !down.contains(c.as_str()))
                    .map(|(_, &n)| n.max(0) as u64)
                    .sum::<u64>()
            };
            let outage = total(&b.before) > 0 && up(&b.after) == 0;
            lost_all += lost;
            unplaced_all += short;
            // The placement before is the fleet's, kept anyway; one the failure changed is
            // copied, so the row keeps no entry of the failure's fleet alive.
            let after = if b.after.same_entry(&b.before) {
                b.after
            } else {
                b.after.detached()
            };
            workloads.push(Affected {
                id: b.id.clone(),
                before: b.before,
                after,
                outcome: b.outcome.map_or("unchanged", outcome_name).into(),
                lost,
                unplaced: short,
                outage,
            });
        }
        workloads.sort_by(|a, b| a.id.cmp(&b.id));
        let mut to: Vec<Destination> = to
            .into_iter()
            .map(|(c, replicas)| Destination {
                cluster: c,
                replicas,
            })
            .collect();
        to.sort_by(|a, b| b.replicas.cmp(&a.replicas).then(a.cluster.cmp(&b.cluster)));
        let mut unplaced_by: Vec<Unplaced> = unplaced
            .into_iter()
            .map(|((reason, message), (replicas, bindings, why))| Unplaced {
                said: super::readiness_words::unplaced(replicas, bindings, &why),
                reason,
                message,
                replicas,
                bindings,
            })
            .collect();
        unplaced_by.sort_by_key(|u| core::cmp::Reverse(u.replicas));
        Row {
            failure,
            bindings: workloads.len(),
            rescheduled,
            to,
            unplaced: unplaced_all,
            unplaced_by,
            lost: lost_all,
            harm: super::readiness_words::harm_of(lost_all, unplaced_all),
            overcommitted,
            outages: workloads.iter().filter(|w| w.outage).count(),
            settled_after,
            workloads,
        }
    }
}

/// One binding as a row reads it: before and after the failure, and the plan's outcome
/// (`None`: the plan did not list it, it stays as it was).
#[derive(Debug, Clone)]
pub struct View<'a> {
    pub id: &'a Id,
    pub before: Placed,
    pub after: Placed,
    pub outcome: Option<&'a Outcome>,
}

impl<'a> View<'a> {
    pub fn of(b: &'a BindingPlan) -> View<'a> {
        View {
            id: &b.id,
            before: b.before.clone(),
            after: b.after.clone(),
            outcome: Some(&b.outcome),
        }
    }
}

/// Seconds after the events until the fleet is settled: the last step of the plan's timeline
/// (0 without one).
pub fn settled_after(plan: &Plan) -> i64 {
    plan.timeline.iter().map(|m| m.at).max().unwrap_or(0).max(0)
}

/// The reason a binding holds fewer replicas: its condition when its last pass failed, its
/// message, and the reason in words ([`super::words`]).
fn reason(outcome: Option<&Outcome>) -> (String, String, String) {
    let fewer = || {
        (
            "Fewer".into(),
            String::new(),
            "scheduled again to fewer replicas".into(),
        )
    };
    let Some(outcome) = outcome else {
        return fewer();
    };
    let said = |c: &Condition| super::words::condition_words(c);
    match outcome {
        Outcome::Unschedulable { condition } => match condition {
            Condition::NoClusterFit(m) => ("NoClusterFit".into(), m.clone(), said(condition)),
            Condition::Unschedulable(m) => ("Unschedulable".into(), m.clone(), said(condition)),
            Condition::SchedulerError(m) => ("SchedulerError".into(), m.clone(), said(condition)),
            Condition::Pending | Condition::Success => {
                ("Pending".into(), String::new(), said(&Condition::Pending))
            }
        },
        Outcome::Evicted => (
            "Evicted".into(),
            String::new(),
            super::words::because(outcome, None, false),
        ),
        _ => fewer(),
    }
}

fn outcome_name(o: &Outcome) -> &'static str {
    match o {
        Outcome::Changed { .. } => "changed",
        Outcome::Evicted => "evicted",
        Outcome::Unschedulable { .. } => "unschedulable",
        Outcome::Unchanged { .. } => "unchanged",
    }
}

/// The order of rows, worst first: more replicas unplaced or lost, then more clusters
/// overcommitted, then more replicas over capacity in all, then the failure's name.
pub fn worst_first(a: &Row, b: &Row) -> Ordering {
    let harm = |r: &Row| r.unplaced + r.lost;
    let over = |r: &Row| -> u64 {
        r.overcommitted
            .iter()
            .flat_map(|o| o.by.iter().map(|(_, n)| n))
            .fold(0u64, |s, n| s.saturating_add(n))
    };
    harm(b)
        .cmp(&harm(a))
        .then(b.overcommitted.len().cmp(&a.overcommitted.len()))
        .then(over(b).cmp(&over(a)))
        .then(a.failure.name.cmp(&b.failure.name))
}

/// Counts over the rows.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub failures: usize,
    /// Failures that leave a replica unplaced or lost, or a cluster overcommitted.
    pub harmful: usize,
    /// The worst failure's name (none without failures).
    pub worst: Option<String>,
}

impl Summary {
    pub fn of(rows: &[Row]) -> Summary {
        Summary {
            failures: rows.len(),
            harmful: rows.iter().filter(|r| !r.clean()).count(),
            worst: rows.first().map(|r| r.failure.name.clone()),
        }
    }
}
