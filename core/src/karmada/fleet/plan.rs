//! The plan (docs/rules/fleet.md §30): apply events to a copy of the fleet, let the
//! scheduler's single worker take what they enqueue (events without time passing between
//! them are handled before any binding is scheduled, as a burst is), and compare: every
//! binding before and after (replicas per cluster, replicas moved, newly unschedulable with
//! Karmada's reason, unchanged with why), every cluster's load before and after against its
//! capacity (where a burst overcommits, and by how much), and a summary.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Deref;

use serde::{Deserialize, Serialize};

use super::bindings::Bindings;
use super::capacity::{self, Load};
use super::entry::{Condition, Entry, Id};
use super::events::{Enqueued, Event, Noted, Why, WhyNot};
use super::queue::Queue;
use super::timeline::Moment;
use super::triggers::Trigger;
use super::{Fleet, Pass};
use crate::error::Result;
use crate::names::NameIndex;
use crate::resource::ResourceList;

/// One event and what followed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub event: String,
    #[serde(flatten)]
    pub queued: Enqueued,
    /// The bindings the scheduler took after this event (everything enqueued since the last
    /// time it ran), in the queue's order, and what each pass did.
    pub passes: Vec<Noted<Pass>>,
}

/// How one binding ends up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "outcome")]
pub enum Outcome {
    /// Scheduled to a different result.
    Changed { trigger: Trigger },
    /// The taint manager removed clusters and the scheduler did not place the replicas
    /// again (the scheduler does not see the binding).
    Evicted,
    /// Its last pass failed: Karmada's condition and message.
    Unschedulable { condition: Condition },
    /// Same replicas per cluster as before, and why.
    Unchanged { why: Unchanged },
}

/// Why a binding did not change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "reason")]
pub enum Unchanged {
    /// No event concerned it.
    Untouched,
    /// The events left it out of the queue (the last reason given).
    NotEnqueued { why: WhyNot },
    /// Enqueued, but no trigger held (a Divided binding whose placement and replicas did not
    /// change).
    NoTrigger { enqueued: Why },
    /// Scheduled again, to the same result.
    SameResult { trigger: Trigger },
}

/// A binding's `spec.clusters` (cluster -> replicas) at one moment, read through the entry
/// that held it: the fleet before and the fleet after share their unchanged entries, so a
/// plan copies no binding's placement (in a large fleet most bindings are not concerned by a
/// what-if, and copying each one's placement twice was a tenth of the plan's time). Without
/// an entry (a binding created by an event had none before, a plan read back from JSON), the
/// placement it holds itself.
#[derive(Clone, Default)]
pub struct Placed(Option<Rc<Entry>>, BTreeMap<String, i64>);

impl Placed {
    /// The placement `entry` holds (none without one).
    pub fn of(entry: Option<&Rc<Entry>>) -> Placed {
        Placed(entry.cloned(), BTreeMap::new())
    }

    /// Read through the same entry as `other`.
    pub fn same_entry(&self, other: &Placed) -> bool {
        matches!((&self.0, &other.0), (Some(a), Some(b)) if Rc::ptr_eq(a, b))
    }

    /// The placement held by itself, keeping no entry alive.
    pub fn detached(&self) -> Placed {
        match self.0 {
            Some(_) => Placed::from((**self).clone()),
            None => self.clone(),
        }
    }
}

impl From<BTreeMap<String, i64>> for Placed {
    fn from(clusters: BTreeMap<String, i64>) -> Placed {
        Placed(None, clusters)
    }
}

impl Deref for Placed {
    type Target = BTreeMap<String, i64>;
    fn deref(&self) -> &BTreeMap<String, i64> {
        self.0.as_ref().map_or(&self.1, |e| &e.state.clusters)
    }
}

impl PartialEq for Placed {
    fn eq(&self, other: &Placed) -> bool {
        **self == **other
    }
}
impl Eq for Placed {}

impl core::fmt::Debug for Placed {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        (**self).fmt(f)
    }
}

impl Serialize for Placed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Placed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Placed, D::Error> {
        BTreeMap::deserialize(d).map(Placed::from)
    }
}

/// One binding, before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BindingPlan {
    pub id: Id,
    pub replicas: i64,
    pub before: Placed,
    pub after: Placed,
    /// Replicas that leave a cluster and land on another (of the replicas that leave one,
    /// Σ over clusters of before − after where positive, those another cluster takes).
    pub moved: u64,
    /// Replicas of the workload placed nowhere after (a Divided binding's replicas beyond
    /// the sum of its clusters; a Duplicated one's, when it has no cluster).
    pub unplaced: u64,
    /// Its change was already pending before the events: the scheduler starting over the
    /// fleet as it was (the drift) makes the same change (docs/rules/fleet.md §30.3).
    pub pending: bool,
    /// Why it ends as it does, in words ([`super::words::because`]).
    pub because: String,
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Its graceful eviction tasks afterwards: the clusters it is leaving (§25.3, §32.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evicting: Vec<super::entry::EvictionTask>,
}

impl BindingPlan {
    /// Whether the events change it (moved, evicted or unschedulable), apart from a change
    /// that was already pending.
    pub fn changes(&self) -> bool {
        !self.pending && !matches!(self.outcome, Outcome::Unchanged { .. })
    }
}

/// One cluster, before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterPlan {
    pub name: String,
    /// Its state before the events and after them, in words ([`super::words::cluster_state`]).
    pub state_before: String,
    pub state: String,
    pub before: Load,
    pub after: Load,
    /// `resourceSummary.allocatable`.
    pub allocatable: ResourceList,
    /// Free in the summary the scheduler read (`allocatable − allocated − allocating`).
    pub free: ResourceList,
    /// What the replicas newly placed here ask.
    pub added: Load,
    /// Per resource, how far `added` exceeds `free` (the member cluster leaves that many
    /// pods Pending; Karmada does not reschedule them).
    pub overcommit: ResourceList,
}

/// Counts. `changed`, `unschedulable`, `moved_replicas` and `unplaced_replicas` count what
/// the events cause; `pending`, the bindings whose change was pending before them.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub bindings: usize,
    pub changed: usize,
    pub unschedulable: usize,
    pub unchanged: usize,
    pub moved_replicas: u64,
    pub unplaced_replicas: u64,
    pub pending: usize,
    pub overcommitted_clusters: usize,
    /// The counts in one sentence ([`super::words::plan_summary`]), which the command prints
    /// and the fleet view shows.
    #[serde(default)]
    pub said: String,
}

impl Summary {
    /// The counts of `bindings` and `clusters`.
    pub fn of(bindings: &[BindingPlan], clusters: &[ClusterPlan]) -> Summary {
        let caused: Vec<&BindingPlan> = bindings.iter().filter(|b| !b.pending).collect();
        let count = |f: fn(&Outcome) -> bool| caused.iter().filter(|b| f(&b.outcome)).count();
        let mut s = Summary {
            bindings: bindings.len(),
            changed: count(|o| matches!(o, Outcome::Changed { .. } | Outcome::Evicted)),
            unschedulable: count(|o| matches!(o, Outcome::Unschedulable { .. })),
            unchanged: count(|o| matches!(o, Outcome::Unchanged { .. })),
            moved_replicas: caused.iter().map(|b| b.moved).sum(),
            unplaced_replicas: caused
                .iter()
                .filter(|b| !matches!(b.outcome, Outcome::Unchanged { .. }))
                .map(|b| b.unplaced)
                .sum(),
            pending: bindings.len() - caused.len(),
            overcommitted_clusters: clusters.iter().filter(|c| !c.overcommit.is_empty()).count(),
            said: String::new(),
        };
        s.said = super::words::plan_summary(&s);
        s
    }
}

/// The whole plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    /// Read back empty: the plan's readers (the fleet view) show its bindings, clusters and
    /// timeline, and do not pay the steps' reader; a [`Step`] reads back on its own.
    #[serde(default, skip_deserializing)]
    pub steps: Vec<Step>,
    /// What the controllers did, when (seconds after the events, §30.1).
    pub timeline: Vec<Moment>,
    pub bindings: Vec<BindingPlan>,
    pub clusters: Vec<ClusterPlan>,
    pub summary: Summary,
    /// What Karmada may do differently from one run to the next, which allot answers one
    /// way (§21.2): in words, for the reader; empty when nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub caveats: Vec<String>,
}

impl Plan {
    /// The plan for a large fleet, one event at a time: without the bindings the events did
    /// not concern (untouched, or left out of the queue because their affinity excludes the
    /// cluster that changed), and its steps without their per-binding lists (each binding
    /// listed says why it ends as it does). The summary still counts every binding.
    pub fn touched(mut self) -> Plan {
        self.bindings.retain(|b| {
            !matches!(
                b.outcome,
                Outcome::Unchanged {
                    why: Unchanged::Untouched
                        | Unchanged::NotEnqueued {
                            why: WhyNot::AffinityExcludes { .. }
                        }
                }
            )
        });
        for s in &mut self.steps {
            s.queued = Enqueued::default();
            s.passes = Vec::new();
        }
        self
    }
}

/// What happened to one binding during the plan, for its outcome.
#[derive(Default, Clone)]
struct Seen {
    not_enqueued: Option<WhyNot>,
    enqueued: Option<Why>,
    pass: Option<Pass>,
    /// The trigger of the last pass that changed `spec.clusters`.
    changed_by: Option<Trigger>,
}

/// What happened to each binding the plan touched, by its index: a plan notes what its
/// events touch, not a record per binding of the fleet.
type Ledger = BTreeMap<usize, Seen>;

/// Binding `b`'s record, started when first written.
fn at(seen: &mut Ledger, b: usize) -> &mut Seen {
    seen.entry(b).or_default()
}

/// Apply `events` to a copy of `fleet` and answer the plan, with the fleet afterwards (the
/// bindings Karmada would write).
pub fn plan(fleet: &Fleet, events: Vec<Event>) -> Result<(Plan, Fleet)> {
    plan_with(fleet, events, Fleet::drain)
}

/// [`plan`], telling `progress` the bindings the scheduler has taken of those waiting, after
/// each one ([`Fleet::drain_reporting`]).
pub fn plan_reporting(
    fleet: &Fleet,
    events: Vec<Event>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Plan, Fleet)> {
    plan_with(fleet, events, |f: &mut Fleet, q: &mut Queue| {
        f.drain_reporting(q, progress)
    })
}

/// [`plan_reporting`] listing only the bindings the events changed: those whose placement
/// changed (scheduled again, or evicted) and those whose pass failed. What the events left
/// as it was is not listed (a binding enqueued without a trigger, or scheduled to the same
/// result), nor noted in the steps (`notEnqueued` is empty), and no cluster's load is listed
/// (each would be a pass over every binding); the summary counts every binding as [`plan`]'s
/// does, but no overcommitted cluster. A plan that costs what it changes in a large fleet
/// (readiness: one per failure).
pub fn plan_touched(
    fleet: &Fleet,
    events: Vec<Event>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Plan, Fleet)> {
    plan_in(
        fleet,
        events,
        |f: &mut Fleet, q: &mut Queue| f.drain_reporting(q, progress),
        true,
    )
}

/// Every cluster's load as `fleet` stands (no event: before and after alike), with its
/// capacity.
pub fn loads(fleet: &Fleet) -> Vec<ClusterPlan> {
    let now: Vec<&BTreeMap<String, i64>> =
        fleet.entries.iter().map(|e| &e.state.clusters).collect();
    clusters_of(fleet, &now, None)
}

/// [`plan`], with `worker` taking what the events enqueue (as [`Fleet::drain`] does).
pub(super) fn plan_with(
    fleet: &Fleet,
    events: Vec<Event>,
    worker: impl FnMut(&mut Fleet, &mut Queue) -> Vec<(usize, Pass, bool)>,
) -> Result<(Plan, Fleet)> {
    plan_in(fleet, events, worker, false)
}

/// [`plan_with`]; `quiet`: only the changed bindings listed ([`plan_touched`]).
fn plan_in(
    fleet: &Fleet,
    events: Vec<Event>,
    mut worker: impl FnMut(&mut Fleet, &mut Queue) -> Vec<(usize, Pass, bool)>,
    quiet: bool,
) -> Result<(Plan, Fleet)> {
    // Grouped once for the plans that start from `fleet` (readiness plans one per failure).
    fleet.entries.index();
    let mut f = fleet.clone();
    f.quiet = quiet;
    let start = f.now;
    f.journal.clear();
    let mut queue = Queue::new(f.settings.by_priority());
    let mut steps: Vec<Step> = Vec::new();
    let mut seen = Ledger::new();
    let count = events.len();
    for (k, event) in events.into_iter().enumerate() {
        let label = event.label();
        // Time passes only after the scheduler has taken what is waiting.
        let advancing = matches!(event, Event::Advance { .. } | Event::Settle);
        if advancing {
            if let Some(last) = steps.last_mut() {
                let taken = drain(&mut f, &mut worker, &mut queue, &mut seen);
                last.passes.extend(taken);
            }
        }
        let (queued, mut passes) = match event {
            Event::Advance { seconds } => {
                advance(&mut f, seconds, &mut worker, &mut queue, &mut seen)?
            }
            Event::Settle => settle(&mut f, &mut worker, &mut queue, &mut seen)?,
            event => {
                let queued = f.apply(event, &mut queue)?;
                record(&queued, &mut seen);
                (queued, Vec::new())
            }
        };
        if k + 1 == count {
            passes.extend(drain(&mut f, &mut worker, &mut queue, &mut seen));
        }
        steps.push(Step {
            event: label,
            queued,
            passes,
        });
    }
    f.quiet = false;
    let mut timeline: Vec<Moment> = core::mem::take(&mut f.journal)
        .into_iter()
        .map(|m| Moment {
            at: m.at.saturating_sub(start),
            said: super::words::moment(&m.what),
            ..m
        })
        .collect();
    super::timeline::mark_again(&mut timeline);
    let bindings = outcomes(&f, &fleet.entries, &seen, quiet);
    // Every cluster's load is a pass over every binding: a touched plan lists none.
    let clusters = if quiet {
        Vec::new()
    } else {
        // Before: the given fleet's placements (a binding created by an event had none).
        let before: Vec<&BTreeMap<String, i64>> =
            fleet.entries.iter().map(|e| &e.state.clusters).collect();
        clusters_of(&f, &before, Some(fleet))
    };
    let mut summary = Summary::of(&bindings, &clusters);
    if quiet {
        // A touched plan lists what the events touched; it counts every binding, the
        // others unchanged.
        let unlisted = f.entries.len().saturating_sub(bindings.len());
        summary.bindings = f.entries.len();
        summary.unchanged += unlisted;
        summary.said = super::words::plan_summary(&summary);
    }
    let caveats = order_caveat(&f, &steps).into_iter().collect();
    Ok((
        Plan {
            steps,
            timeline,
            bindings,
            clusters,
            summary,
            caveats,
        },
        f,
    ))
}

/// Where the queue's order decides an answer Karmada does not decide the same way every run
/// (§21.2 rule 5): bindings scheduled together after one event, under a setting that makes
/// each one's schedule read the ones before it (SchedulingOvercommitProtection's
/// assumptions, WorkloadAffinity's groups).
fn order_caveat(f: &Fleet, steps: &[Step]) -> Option<String> {
    let setting = if f
        .settings
        .gate(crate::karmada::gates::Gate::SchedulingOvercommitProtection)
    {
        "SchedulingOvercommitProtection"
    } else if f.settings.workload_affinity() {
        "WorkloadAffinity"
    } else {
        return None;
    };
    let together: usize = steps
        .iter()
        .map(|s| s.passes.iter().filter(|p| p.why.succeeded()).count())
        .filter(|&n| n > 1)
        .sum();
    (together > 0).then(|| super::words::order_caveat(together, setting))
}

fn record(queued: &Enqueued, seen: &mut Ledger) {
    for q in &queued.enqueued {
        at(seen, q.index).enqueued = Some(q.why.clone());
    }
    for q in &queued.not_enqueued {
        at(seen, q.index).not_enqueued = Some(q.why.clone());
    }
}

/// Time passes by `seconds` (§22.1): the clock moves from one run of the scheduler to the
/// next, each when a failed binding's retry is due whose inputs changed since it failed, or
/// an assumption ends; the queue's flushes then enqueue what is due, and the scheduler takes
/// it, its passes able to change what the next retries read. Retries that would read what
/// their last pass read are passed over ([`super::clock::Waiting::skip_to`]); at most
/// [`super::clock::MAX_RUNS`] runs. What is enqueued at the end is left in the queue, as
/// any event's is.
fn advance(
    f: &mut Fleet,
    seconds: i64,
    worker: &mut impl FnMut(&mut Fleet, &mut Queue) -> Vec<(usize, Pass, bool)>,
    queue: &mut Queue,
    seen: &mut Ledger,
) -> Result<(Enqueued, Vec<Noted<Pass>>)> {
    let end = f.now.saturating_add(seconds.max(0));
    let mut queued = Enqueued::default();
    let mut passes = Vec::new();
    for run in 0.. {
        let next = match f.next_run(end) {
            Some(t) if run < super::clock::MAX_RUNS => t,
            _ => end,
        };
        let step = f.apply(
            Event::Advance {
                seconds: next - f.now,
            },
            queue,
        )?;
        record(&step, seen);
        queued.enqueued.extend(step.enqueued);
        queued.not_enqueued.extend(step.not_enqueued);
        if next >= end {
            break;
        }
        passes.extend(drain(f, worker, queue, seen));
    }
    Ok((queued, passes))
}

/// Time passes until every timed step has run (§30.1): from one timed step to the next
/// ([`Fleet::next_run`]: an eviction due, a graceful eviction task's end, a retry whose
/// inputs changed, an assumption's end), the scheduler taking what each enqueues, until none
/// is left (at most [`super::clock::MAX_RUNS`]).
fn settle(
    f: &mut Fleet,
    worker: &mut impl FnMut(&mut Fleet, &mut Queue) -> Vec<(usize, Pass, bool)>,
    queue: &mut Queue,
    seen: &mut Ledger,
) -> Result<(Enqueued, Vec<Noted<Pass>>)> {
    let mut queued = Enqueued::default();
    let mut passes = Vec::new();
    for _ in 0..super::clock::MAX_RUNS {
        let Some(next) = f.next_run(i64::MAX) else {
            break;
        };
        let (q, p) = advance(f, next.saturating_sub(f.now), worker, queue, seen)?;
        queued.enqueued.extend(q.enqueued);
        queued.not_enqueued.extend(q.not_enqueued);
        passes.extend(p);
        passes.extend(drain(f, worker, queue, seen));
    }
    Ok((queued, passes))
}

/// The scheduler takes every waiting binding, one at a time; the graceful eviction
/// controller then sees the bindings it updated, and what that enqueues is taken too.
fn drain(
    f: &mut Fleet,
    worker: &mut impl FnMut(&mut Fleet, &mut Queue) -> Vec<(usize, Pass, bool)>,
    queue: &mut Queue,
    seen: &mut Ledger,
) -> Vec<Noted<Pass>> {
    let mut passes = Vec::new();
    loop {
        let taken = worker(f, queue);
        let bindings: Vec<usize> = taken.iter().map(|(b, _, _)| *b).collect();
        passes.extend(noted(f, taken, seen));
        record(&f.scheduled(&bindings, queue), seen);
        if queue.is_empty() || bindings.is_empty() {
            return passes;
        }
    }
}

/// The passes of one drain, noted on each binding's record.
fn noted(f: &mut Fleet, taken: Vec<(usize, Pass, bool)>, seen: &mut Ledger) -> Vec<Noted<Pass>> {
    let mut passes = Vec::with_capacity(taken.len());
    for (b, pass, changed) in taken {
        let s = at(seen, b);
        if let (Pass::Scheduled { trigger, .. }, true) = (&pass, changed) {
            s.changed_by = Some(*trigger);
        }
        s.pass = Some(pass.clone());
        if let Some(e) = f.entries.get(b) {
            note_pass(&mut f.journal, e, &pass, changed, f.now);
            passes.push(Noted {
                index: b,
                binding: e.id.clone(),
                why: pass,
            });
        }
    }
    passes
}

/// Note a pass in the journal: one that wrote other clusters, or failed.
fn note_pass(journal: &mut Vec<Moment>, e: &Entry, pass: &Pass, changed: bool, now: i64) {
    use super::timeline::Happening;
    let what = match pass {
        Pass::Scheduled { condition, .. } if pass.failure().is_some() => Happening::Unschedulable {
            binding: e.id.clone(),
            condition: condition.clone(),
        },
        Pass::Scheduled { trigger, .. } if changed => Happening::Scheduled {
            binding: e.id.clone(),
            trigger: *trigger,
            clusters: e.state.clusters.clone(),
        },
        _ => return,
    };
    journal.push(Moment::new(now, what));
}

/// Every binding of `f` with its outcome; `was`: the entries before the events. `quiet`:
/// only those whose outcome is not `Unchanged`.
fn outcomes(f: &Fleet, was: &Bindings, seen: &Ledger, quiet: bool) -> Vec<BindingPlan> {
    // Quiet: the bindings taken or enqueued, and those changed otherwise (a copy of their
    // entry is no longer the one the plan started from), each once, in the fleet's order.
    let listed: Vec<usize> = if quiet {
        let taken = seen
            .iter()
            .filter(|(_, s)| s.pass.is_some() || s.enqueued.is_some())
            .map(|(&b, _)| b);
        let copied = f.entries.differing(was);
        let mut listed: Vec<usize> = taken.chain(copied).collect();
        listed.sort_unstable();
        listed.dedup();
        listed
    } else {
        (0..f.entries.len()).collect()
    };
    listed
        .into_iter()
        .filter_map(|b| Some((b, f.entries.get(b)?)))
        .filter_map(|(b, e)| {
            let placed = Placed::of(was.get(b));
            let before: &BTreeMap<String, i64> = &placed;
            let after = &e.state.clusters;
            // The entry the plan started from, or an equal placement: nothing left or arrived.
            let same = was.get(b).is_some_and(|w| Rc::ptr_eq(w, e)) || before == after;
            let unseen = Seen::default();
            let s = seen.get(&b).unwrap_or(&unseen);
            let outcome = match (&s.pass, s.changed_by) {
                (Some(pass), _) if pass.failure().is_some() => Outcome::Unschedulable {
                    condition: pass.failure().cloned().unwrap_or_default(),
                },
                _ if !same => match s.changed_by {
                    Some(trigger) => Outcome::Changed { trigger },
                    None => Outcome::Evicted,
                },
                (Some(Pass::Scheduled { trigger, .. }), _) => Outcome::Unchanged {
                    why: Unchanged::SameResult { trigger: *trigger },
                },
                (Some(Pass::Skipped { .. }), _) => Outcome::Unchanged {
                    why: Unchanged::NoTrigger {
                        enqueued: s.enqueued.clone().unwrap_or(Why::Restart),
                    },
                },
                (None, _) => Outcome::Unchanged {
                    why: match s.not_enqueued.clone() {
                        Some(why) => Unchanged::NotEnqueued { why },
                        None => Unchanged::Untouched,
                    },
                },
            };
            if quiet && matches!(outcome, Outcome::Unchanged { .. }) {
                return None;
            }
            let gone = |from: &BTreeMap<String, i64>, to: &BTreeMap<String, i64>| -> u64 {
                from.iter()
                    .map(|(c, &n)| (n - to.get(c).copied().unwrap_or(0)).max(0) as u64)
                    .sum()
            };
            let (left, arrived) = if same {
                (0, 0)
            } else {
                (gone(before, after), gone(after, before))
            };
            let sum: i64 = after.values().sum();
            let unplaced = if e.rules.placement().duplicated() {
                if after.is_empty() {
                    e.workload.replicas.max(0) as u64
                } else {
                    0
                }
            } else {
                (e.workload.replicas - sum).max(0) as u64
            };
            let because = super::words::because(&outcome, s.enqueued.as_ref(), before.is_empty());
            Some(BindingPlan {
                id: e.id.clone(),
                replicas: e.workload.replicas,
                before: placed,
                after: Placed::of(Some(e)),
                moved: left.min(arrived),
                unplaced,
                pending: false,
                because,
                outcome,
                evicting: e.state.evictions.clone(),
            })
        })
        .collect()
}

/// What `changed` bindings (entry after, placement before) newly place on each cluster of
/// `f`, and where that exceeds the cluster's free capacity: (cluster, overcommit) for each
/// overcommitted one, in the fleet's order, as [`plan`]'s clusters say it.
pub fn overcommitted<'a>(
    f: &Fleet,
    changed: impl Iterator<Item = (&'a Entry, &'a BTreeMap<String, i64>)>,
) -> Vec<(String, ResourceList)> {
    let members = f.members();
    let index = NameIndex::new(members.iter().map(|m| m.name.as_str()));
    let mut added: BTreeMap<usize, Load> = BTreeMap::new();
    for (e, old) in changed {
        for (c, &new) in &e.state.clusters {
            let had = old.get(c).copied().unwrap_or(0);
            if let (true, Some(i)) = (new > had, index.get(c)) {
                added.entry(i).or_default().add(e, new - had);
            }
        }
    }
    added
        .into_iter()
        .filter_map(|(i, load)| {
            let m = members.get(i)?;
            let over = capacity::overcommit(&capacity::free(m), &load);
            (!over.is_empty()).then(|| (String::from(m.name.as_str()), over))
        })
        .collect()
}

/// Every cluster of `f`, its load `before` (each binding's placement) and now; its state in
/// `was` (the fleet before the events), when there is one, else as now.
fn clusters_of(
    f: &Fleet,
    before: &[&BTreeMap<String, i64>],
    earlier: Option<&Fleet>,
) -> Vec<ClusterPlan> {
    // Each cluster's state in words, by its position in `fleet`.
    let state = |fleet: &Fleet, i: usize| -> Option<String> {
        let m = fleet.members().get(i)?;
        let h = fleet.health().get(i)?;
        let cordoned = m
            .taints
            .iter()
            .any(|t| t.key.as_str() == super::health::UNSCHEDULABLE);
        Some(super::words::cluster_state(h.ready, cordoned, m.deleting))
    };
    let members = f.members();
    let index = NameIndex::new(members.iter().map(|m| m.name.as_str()));
    let was_index = earlier.map(|w| NameIndex::new(w.members().iter().map(|m| m.name.as_str())));
    let mut was = alloc::vec![Load::default(); members.len()];
    let mut now = was.clone();
    // What each cluster newly holds: each binding's increase there, over its placements.
    let mut added = was.clone();
    // What the bindings whose placement the events left as it was (the same map, shared
    // with the fleet before) hold: before and after alike, summed once.
    let mut kept = was.clone();
    let empty = BTreeMap::new();
    // `e`'s replicas as `placed` places them, on each cluster's load in `loads`.
    let add = |loads: &mut [Load], placed: &BTreeMap<String, i64>, e: &Entry| {
        for (c, &n) in placed {
            if let Some(l) = index.get(c).and_then(|i| loads.get_mut(i)) {
                l.add(e, n);
            }
        }
    };
    for (b, e) in f.entries.iter().enumerate() {
        let old = before.get(b).copied().unwrap_or(&empty);
        if core::ptr::eq(old, &e.state.clusters) {
            add(&mut kept, old, e);
            continue;
        }
        add(&mut was, old, e);
        for (c, &new) in &e.state.clusters {
            let Some(i) = index.get(c) else {
                continue;
            };
            if let Some(l) = now.get_mut(i) {
                l.add(e, new);
            }
            let had = old.get(c).copied().unwrap_or(0);
            if let (true, Some(l)) = (new > had, added.get_mut(i)) {
                l.add(e, new - had);
            }
        }
    }
    for ((w, n), k) in was.iter_mut().zip(&mut now).zip(&kept) {
        w.merge(k);
        n.merge(k);
    }
    members
        .iter()
        .enumerate()
        .zip(was.into_iter().zip(now).zip(added))
        .map(|((i, m), ((before, after), added))| {
            let free = capacity::free(m);
            let now = state(f, i).unwrap_or_default();
            let state_before = match (earlier, &was_index) {
                (Some(w), Some(at)) => at
                    .get(m.name.as_str())
                    .and_then(|j| state(w, j))
                    .unwrap_or_else(|| "not joined".into()),
                _ => now.clone(),
            };
            ClusterPlan {
                name: String::from(m.name.as_str()),
                state_before,
                state: now,
                before,
                after,
                allocatable: m
                    .resource_summary
                    .as_ref()
                    .map(|s| s.allocatable.clone())
                    .unwrap_or_default(),
                overcommit: capacity::overcommit(&free, &added),
                free,
                added,
            }
        })
        .collect()
}

impl Event {
    /// A short description: `cluster member2 down`.
    pub fn label(&self) -> String {
        match self {
            Event::Restart => "scheduler restart".into(),
            Event::RestartOf { bindings } => {
                format!("scheduler restart ({} bindings)", bindings.len())
            }
            Event::ClusterDown { cluster } => format!("cluster {cluster} down"),
            Event::ClusterUp { cluster } => format!("cluster {cluster} ready"),
            Event::Join { member, .. } => format!("cluster {} joins", member.name),
            Event::Reported { cluster, ready } => format!(
                "cluster {cluster} reports Ready={}",
                match ready {
                    super::health::Readiness::Ready => "True",
                    super::health::Readiness::NotReady => "False",
                    super::health::Readiness::Unknown | super::health::Readiness::Never =>
                        "Unknown",
                }
            ),
            Event::Leave { cluster } => format!("cluster {cluster} deleted"),
            Event::Cordon { cluster } => format!("cluster {cluster} cordoned"),
            Event::Uncordon { cluster } => format!("cluster {cluster} uncordoned"),
            Event::Taint { cluster, taint, .. } => format!(
                "cluster {cluster} tainted {}:{}",
                taint.key,
                taint.effect.as_str()
            ),
            Event::Untaint {
                cluster,
                key,
                effect,
            } => format!("cluster {cluster} untainted {key}:{}", effect.as_str()),
            Event::Relabel { cluster, .. } => format!("cluster {cluster} relabelled"),
            Event::Capacity { cluster, .. } => format!("cluster {cluster} capacity changed"),
            Event::Create { entry } => format!("{} created", entry.id),
            Event::Place { binding, .. } => format!("{binding} placement changed"),
            Event::Unclaim { binding } => format!("{binding} unclaimed"),
            Event::Scale { binding, replicas } => format!("{binding} scaled to {replicas}"),
            Event::Rebalance { bindings } => {
                format!("WorkloadRebalancer for {} workloads", bindings.len())
            }
            Event::Advance { seconds } => format!("{seconds}s pass"),
            Event::Settle => "time passes until every timed step has run".into(),
            Event::TaintPolicies { policies } => {
                format!("{} ClusterTaintPolicies applied", policies.len())
            }
            Event::Healthy { binding, cluster } => {
                format!("{binding} reported Healthy on {cluster}")
            }
            Event::Unhealthy { binding, cluster } => {
                format!("{binding} reported Unhealthy on {cluster}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::boxed::Box;
    use alloc::rc::Rc;
    use alloc::vec::Vec;

    use super::{plan, Outcome};
    use crate::karmada::fleet::entry::Condition;
    use crate::karmada::fleet::events::{Event, WhyNot};
    use crate::karmada::fleet::eviction::Due;
    use crate::karmada::fleet::taint_policy::{ClusterTaintPolicy, MatchCondition, Operator};
    use crate::karmada::fleet::testing::*;
    use crate::karmada::fleet::Settings;
    use crate::karmada::Strategy;
    use crate::selector::node::{Taint, TaintEffect, Toleration, TolerationOperator};
    use proptest::prelude::{any, prop_assert, prop_assert_eq, proptest};

    /// `Ready` with `op` `True`.
    fn ready(op: Operator) -> MatchCondition {
        MatchCondition {
            condition_type: "Ready".into(),
            operator: op,
            status_values: alloc::vec!["True".into()],
        }
    }

    // A recorded sequence: a burst of creations, a cluster failure with a ClusterTaintPolicy's
    // NoExecute taint and the taint manager on, the eviction, and the recovery.
    #[test]
    fn replay_burst_failure_recovery() {
        let settings = Settings {
            no_execute_taint_eviction: true,
            feature_gates: crate::karmada::gates::FeatureGates::parse("Failover=true").unwrap(),
            taint_policies: alloc::vec![ClusterTaintPolicy {
                name: "failure".into(),
                target_clusters: None,
                add_on_conditions: alloc::vec![ready(Operator::NotIn)],
                remove_on_conditions: alloc::vec![ready(Operator::In)],
                taints: alloc::vec![Taint {
                    key: "failure".into(),
                    value: Default::default(),
                    effect: TaintEffect::NoExecute,
                }],
            }],
            ..Settings::default()
        };
        let f = fleet(
            alloc::vec![member("a", 8), member("b", 8)],
            Vec::new(),
            settings,
        );
        let mut tolerant = entry("tolerant", Strategy::DynamicWeight, 4, &[]);
        tolerant.rules = Rc::new((*tolerant.rules).clone().with_tolerations(alloc::vec![(
            Toleration {
                key: "failure".into(),
                operator: TolerationOperator::Exists,
                value: Default::default(),
                effect: Some(TaintEffect::NoExecute),
            },
            Some(300),
        )]));
        let events = alloc::vec![
            Event::Create {
                entry: Box::new(entry("web", Strategy::DynamicWeight, 4, &[]))
            },
            Event::Create {
                entry: Box::new(entry("api", Strategy::Duplicated, 1, &[]))
            },
            Event::Create {
                entry: Box::new(tolerant)
            },
            Event::Advance { seconds: 60 },
            Event::ClusterDown {
                cluster: "a".into()
            },
            Event::Advance { seconds: 60 },
            Event::ClusterUp {
                cluster: "a".into()
            },
        ];
        let (p, f2) = plan(&f, events).unwrap();
        // The burst: three creations scheduled in creation order after the last of them.
        let burst: Vec<&str> = passes(&p, 2).iter().map(|&(n, _)| n).collect();
        // api (Duplicated) is taken again: its write was a new generation (§23.4).
        assert_eq!(burst, ["web", "api", "tolerant", "api"]);
        // The failure evicts web (no toleration) and api from a; tolerant stays (300 s).
        assert_eq!(after(&p, "web"), placed(&[("b", 4)]));
        assert_eq!(after(&p, "api"), placed(&[("b", 1)]));
        assert_eq!(after(&p, "tolerant"), placed(&[("a", 2), ("b", 2)]));
        assert!(left(&p, 4).contains(&(
            id("tolerant"),
            WhyNot::Tolerated {
                cluster: "a".into(),
                due: Due::At(360)
            }
        )));
        // Recovery removes the taints; the graceful eviction task (600 s) still keeps api off a.
        assert!(f2.members()[0].taints.is_empty());
        assert_eq!(f2.entries[1].state.evictions.len(), 1);
    }

    // The plan as JSON: camelCase, each binding's outcome tagged, each step's bindings named.
    #[test]
    fn the_plan_reads_as_json() {
        let f = divided_over_two(6);
        let p = run(&f, alloc::vec![leave("a")]);
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(v["bindings"][0]["outcome"], "changed");
        assert_eq!(v["bindings"][0]["trigger"], "placedClusterDeleting");
        assert_eq!(v["bindings"][0]["after"]["b"], 6);
        assert_eq!(v["steps"][0]["enqueued"][0]["binding"]["name"], "div");
        assert_eq!(v["steps"][0]["enqueued"][0]["reason"], "clusterChanged");
        assert_eq!(v["steps"][0]["passes"][0]["pass"], "scheduled");
        assert_eq!(v["summary"]["movedReplicas"], 3);
        assert_eq!(v["clusters"][1]["after"]["replicas"], 6);
    }

    proptest! {
        // Whatever happens: every binding has one outcome; a binding no pass took keeps its
        // clusters unless evicted; results name only the fleet's clusters; a successful
        // Divided schedule places exactly the replicas.
        #[test]
        fn every_binding_is_accounted_for(
            cpus in proptest::collection::vec(0u64..12, 1..5),
            specs in proptest::collection::vec((strategy(), 1i64..10), 1..8),
            seed in 0u64..1000,
            protect in any::<bool>(),
            events in proptest::collection::vec(event(4, 8), 0..6),
        ) {
            let (f, all) = generated(&cpus, &specs, seed, protect, events);
            let Ok((p, g)) = plan(&f, all) else {
                // Only an event naming a cluster or binding the fleet lacks fails.
                return Ok(());
            };
            let s = &p.summary;
            let evicted = p.bindings.iter().filter(|b| b.outcome == Outcome::Evicted).count();
            prop_assert_eq!(s.changed + s.unschedulable + s.unchanged + evicted, s.bindings);
            let names: Vec<&str> = g.members().iter().map(|m| m.name.as_str()).collect();
            // Each cluster's load, summed binding by binding: the placement before (of the
            // binding as it is after, for its requests) and after.
            for (i, c) in p.clusters.iter().enumerate() {
                let (mut before, mut after) = (super::Load::default(), super::Load::default());
                for (b, e) in g.entries.iter().enumerate() {
                    if let Some(&n) = f.entries.get(b).and_then(|w| w.state.clusters.get(names[i])) {
                        before.add(e, n);
                    }
                    if let Some(&n) = e.state.clusters.get(names[i]) {
                        after.add(e, n);
                    }
                }
                prop_assert_eq!(&c.before, &before);
                prop_assert_eq!(&c.after, &after);
            }
            for (b, e) in p.bindings.iter().zip(g.entries.iter()) {
                prop_assert!(b.after.keys().all(|c| names.contains(&c.as_str())));
                if matches!(b.outcome, Outcome::Unchanged { .. }) {
                    prop_assert_eq!(&b.before, &b.after);
                }
                let divided = e.rules.strategy() != Strategy::Duplicated;
                if divided && e.state.condition == Condition::Success && e.workload.replicas > 0 {
                    let placed: i64 = e.state.clusters.values().sum();
                    let evicted: i64 = e.state.evictions.iter().filter_map(|t| t.replicas).sum();
                    prop_assert!(placed == e.workload.replicas || evicted > 0 || placed == 0);
                }
            }
        }
    }
}
