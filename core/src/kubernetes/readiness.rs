//! `allot plan --each cluster|zone|region` over a dump (docs/rules/fleet.md §34):
//! every failure of the fleet planned as `allot plan --cluster-down` plans it, under the same
//! settings (the fleet read once and put under the settings once; each failure's plan then
//! copies only what its events change), one row per failure, worst first. With what-ifs
//! besides the settings (a policy applied, a cluster cordoned...), the fleet after them is
//! answered beside the fleet before: whether the change makes the fleet less resilient.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::fleet::FleetReport;
use super::import::Choice;
use super::objects::Object;
use super::plan::{read_now, step, step_under, under, Session, WhatIf};
use crate::error::Result;
use crate::karmada::fleet::plan::{overcommitted, Placed};
use crate::karmada::fleet::readiness::{
    failures, settled_after, worst_first, Each, Failure, Overcommit, Row, Site, Summary, View,
};
use crate::karmada::fleet::readiness_words;
use crate::karmada::fleet::Fleet;
use crate::karmada::fleet::Id;
use crate::path::Path;

/// Which failures to answer.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Ask {
    /// Each cluster, each zone or each region.
    pub each: Each,
    /// Only the clusters this label selector matches fail (kubectl's `-l` syntax).
    pub select: Option<String>,
}

/// Every failure's row, worst first, and how the dump was read. Read back (the fleet view
/// reads the package's answer into it) without `report`, which is written but not read: how
/// the dump was read is the session's own report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub each: Each,
    pub select: Option<String>,
    pub rows: Vec<Row>,
    pub summary: Summary,
    /// The answer in one sentence ([`readiness_words::summary`]), which the command prints
    /// and the fleet view shows.
    #[serde(default)]
    pub said: String,
    /// With what-ifs besides the settings: the fleet before them, answered the same way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<Before>,
    #[serde(skip_deserializing)]
    pub report: FleetReport,
}

/// The fleet before the what-ifs, and how each failure compares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Before {
    pub rows: Vec<Row>,
    pub summary: Summary,
    /// Failures that leave more replicas unplaced or lost, more workloads down, or more
    /// clusters overcommitted after the what-ifs than before (a failure new after them
    /// counts when it harms), in name order.
    pub worse: Vec<String>,
    /// Failures that harm less after the what-ifs, in name order.
    pub better: Vec<String>,
    /// How the fleet after the what-ifs compares, in words ([`readiness_words::compared`]).
    #[serde(default)]
    pub said: String,
}

impl Report {
    /// Whether every failure leaves every replica placed on a cluster that stays up and no
    /// cluster overcommitted (the command's exit status 0).
    pub fn clean(&self) -> bool {
        self.rows.iter().all(Row::clean)
    }
}

impl WhatIf {
    /// The what-if of one failure: `down` clusters down, under these settings (every field
    /// that is not an event is kept, so a setting added to [`WhatIf`] reaches every failure).
    pub fn failure(&self, down: Vec<String>) -> WhatIf {
        WhatIf {
            cluster_down: down,
            cluster_up: Vec::new(),
            cordon: Vec::new(),
            uncordon: Vec::new(),
            delete_cluster: Vec::new(),
            scale: Vec::new(),
            rebalance: Vec::new(),
            delete_policy: Vec::new(),
            ..self.clone()
        }
    }
}

/// Answer `ask` over `objects` under `what`'s settings; `added` Clusters join and `applied`
/// objects are applied as [`super::plan::plan`] takes them. `progress` is told the failures
/// planned of how many (both fleets' with what-ifs).
pub fn readiness(
    objects: &[Object],
    choice: &Choice<'_>,
    what: &WhatIf,
    ask: &Ask,
    added: &[Object],
    applied: &[Object],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Report> {
    let read = read_now(objects, choice, Some(what))?;
    let now = Now {
        fleet: &read.fleet,
        objects,
        report: &read.report,
    };
    now.readiness(choice, what, ask, added, applied, progress)
}

/// A fleet and the objects it was read from (a session's, or a dump's without a copy).
struct Now<'a> {
    fleet: &'a Fleet,
    objects: &'a [Object],
    report: &'a FleetReport,
}

impl Session {
    /// [`readiness`] over the fleet as it is now.
    pub fn readiness(
        &self,
        choice: &Choice<'_>,
        what: &WhatIf,
        ask: &Ask,
        added: &[Object],
        applied: &[Object],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Report> {
        let now = Now {
            fleet: &self.fleet,
            objects: &self.objects,
            report: &self.report,
        };
        now.readiness(choice, what, ask, added, applied, progress)
    }
}

impl Now<'_> {
    fn readiness(
        &self,
        choice: &Choice<'_>,
        what: &WhatIf,
        ask: &Ask,
        added: &[Object],
        applied: &[Object],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Report> {
        let select = match &ask.select {
            Some(text) => Some(crate::selector::label_text::parse(
                text,
                &Path::fields("select"),
            )?),
            None => None,
        };
        let changed = !what.is_empty(added, applied);
        let next = if changed {
            let (_, f, merged) = step(
                self.fleet,
                self.objects,
                choice,
                what,
                added,
                applied,
                &mut |_, _| {},
            )?;
            Some((f, merged))
        } else {
            None
        };
        let (fleet, objects) = match &next {
            Some((f, merged)) => (f, merged.as_deref().unwrap_or(self.objects)),
            None => (self.fleet, self.objects),
        };
        let extra: Vec<&Object> = added.iter().collect();
        let now_failures = failures(&sites(fleet, objects, &extra), ask.each, select.as_ref());
        let was_failures = if changed {
            failures(
                &sites(self.fleet, self.objects, &[]),
                ask.each,
                select.as_ref(),
            )
        } else {
            Vec::new()
        };
        let total = now_failures.len() + was_failures.len();
        let mut done = 0;
        let mut tick = |progress: &mut dyn FnMut(usize, usize)| {
            done += 1;
            progress(done, total)
        };
        let rows = rows_of(fleet, objects, choice, what, now_failures, &mut || {
            tick(progress)
        })?;
        let before = if changed {
            let was = rows_of(
                self.fleet,
                self.objects,
                choice,
                what,
                was_failures,
                &mut || tick(progress),
            )?;
            Some(compare(&rows, was))
        } else {
            None
        };
        let summary = Summary::of(&rows);
        Ok(Report {
            each: ask.each,
            select: ask.select.clone(),
            said: readiness_words::summary(ask.each, ask.select.as_deref(), &summary),
            summary,
            rows,
            before,
            report: self.report.clone(),
        })
    }
}

/// Each failure's row over `fleet`, worst first: `fleet` put under `what`'s settings once,
/// the bindings indexed by the clusters they are placed on once, then each failure planned as
/// `--cluster-down` plans it over that fleet, the plan listing only the bindings it changed;
/// the bindings on a failed cluster it did not touch are read from the index.
fn rows_of(
    fleet: &Fleet,
    objects: &[Object],
    choice: &Choice<'_>,
    what: &WhatIf,
    failures: Vec<Failure>,
    done: &mut dyn FnMut(),
) -> Result<Vec<Row>> {
    let base = under(fleet, &what.failure(Vec::new()))?;
    let mut placed: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (b, e) in base.entries.iter().enumerate() {
        for c in e.state.clusters.keys() {
            placed.entry(c.as_str()).or_default().push(b);
        }
    }
    let at: BTreeMap<&Id, usize> = base
        .entries
        .iter()
        .enumerate()
        .map(|(b, e)| (&e.id, b))
        .collect();
    let mut rows = Vec::with_capacity(failures.len());
    for f in failures {
        let one = what.failure(f.clusters.clone());
        let (plan, after, _) =
            step_under(&base, objects, choice, &one, &[], &[], &mut |_, _| {}, true)?;
        let listed: BTreeSet<&Id> = plan.bindings.iter().map(|b| &b.id).collect();
        let mut on_down: Vec<usize> = f
            .clusters
            .iter()
            .flat_map(|c| placed.get(c.as_str()).into_iter().flatten().copied())
            .collect();
        on_down.sort_unstable();
        on_down.dedup();
        let untouched = on_down
            .into_iter()
            .filter_map(|b| base.entries.get(b))
            .filter(|e| !listed.contains(&e.id))
            .map(|e| View {
                id: &e.id,
                before: Placed::of(Some(e)),
                after: Placed::of(Some(e)),
                outcome: None,
            });
        let changed = plan.bindings.iter().filter_map(|b| {
            let e = after.entries.get(*at.get(&b.id)?)?;
            (*b.before != e.state.clusters).then_some((&**e, &*b.before))
        });
        let over = overcommitted(&after, changed)
            .into_iter()
            .map(|(cluster, by)| Overcommit { cluster, by })
            .collect();
        let views = plan.bindings.iter().map(View::of).chain(untouched);
        rows.push(Row::of_views(f, views, over, settled_after(&plan)));
        done();
    }
    rows.sort_by(worst_first);
    Ok(rows)
}

/// How each failure's harm compares before and after the what-ifs.
fn compare(now: &[Row], was: Vec<Row>) -> Before {
    let harm = |r: &Row| (r.unplaced + r.lost, r.outages, r.overcommitted.len());
    let mut worse = Vec::new();
    let mut better = Vec::new();
    for r in now {
        let old = was.iter().find(|w| w.failure.name == r.failure.name);
        let (a, b) = (harm(r), old.map(harm).unwrap_or_default());
        if a.0 > b.0 || a.1 > b.1 || a.2 > b.2 {
            worse.push(r.failure.name.clone());
        } else if a < b {
            better.push(r.failure.name.clone());
        }
    }
    for w in &was {
        if !now.iter().any(|r| r.failure.name == w.failure.name) && !w.clean() {
            better.push(w.failure.name.clone());
        }
    }
    worse.sort();
    better.sort();
    Before {
        summary: Summary::of(&was),
        rows: was,
        said: readiness_words::compared(&worse, &better),
        worse,
        better,
    }
}

/// The member clusters of `fleet` as readiness groups them: each one's labels and region,
/// and its zones (`spec.zones`, and the deprecated `spec.zone` read from its object in
/// `objects` or `added`).
fn sites(fleet: &Fleet, objects: &[Object], added: &[&Object]) -> Vec<Site> {
    let zone: BTreeMap<&str, &str> = objects
        .iter()
        .chain(added.iter().copied())
        .filter(|o| o.kind == "Cluster")
        .filter_map(|o| Some((o.metadata.name.as_str(), o.spec.zone.as_deref()?)))
        .filter(|(_, z)| !z.is_empty())
        .collect();
    let zone_of = |name: &str| zone.get(name).map(|z| String::from(*z));
    fleet
        .members()
        .iter()
        // A cluster being deleted is leaving already: its loss is no failure to plan.
        .filter(|m| !m.deleting)
        .map(|m| {
            let mut zones: Vec<String> = m.zones.iter().map(|z| z.as_str().into()).collect();
            if let Some(z) = zone_of(m.name.as_str()) {
                if !zones.contains(&z) {
                    zones.insert(0, z);
                }
            }
            Site {
                name: m.name.as_str().into(),
                labels: m.labels.clone(),
                region: m.region.as_str().into(),
                zones,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubernetes::fixtures::{cluster, deployment, list};
    use crate::kubernetes::objects::Objects;
    use crate::kubernetes::plan::plan;
    use alloc::vec;

    /// Four clusters in two zones of two regions (`spec.zone` on two, `spec.zones` on two);
    /// `web` divided over zone a alone (its single point of failure), `cache` duplicated on
    /// every cluster, `api` divided over both zones.
    /// A cluster of [`DUMP`]: Ready, 8 cores, `tier` label, region, zone field(s), cores allocated.
    macro_rules! zoned {
        ($name:literal, $tier:literal, $region:literal, $zone:literal, $allocated:literal) => {
            cluster!(
                $name,
                "8",
                concat!(r#", "labels": {"tier": ""#, $tier, r#""}"#),
                concat!(r#""spec": {"region": ""#, $region, r#"", "#, $zone, "},"),
                concat!(r#", "allocated": {"cpu": ""#, $allocated, r#""}"#)
            )
        };
    }

    const DUMP: &str = list!(
        zoned!("a1", "prod", "east", r#""zone": "a""#, "6"),
        zoned!("a2", "prod", "east", r#""zones": ["a"]"#, "6"),
        zoned!("b1", "prod", "west", r#""zone": "b""#, "7"),
        zoned!("b2", "test", "west", r#""zones": ["b"]"#, "2"),
        r#"
      {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
       "metadata": {"name": "web", "namespace": "shop"},
       "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}],
                "placement": {"clusterAffinity": {"clusterNames": ["a1", "a2"]},
                  "replicaScheduling": {"replicaSchedulingType": "Divided",
                   "replicaDivisionPreference": "Weighted",
                   "weightPreference": {"dynamicWeight": "AvailableReplicas"}}}}},
      {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
       "metadata": {"name": "cache", "namespace": "shop"},
       "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "cache"}],
                "placement": {}}},
      {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
       "metadata": {"name": "api", "namespace": "shop"},
       "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "api"}],
                "placement": {"replicaScheduling": {"replicaSchedulingType": "Divided",
                   "replicaDivisionPreference": "Weighted",
                   "weightPreference": {"dynamicWeight": "AvailableReplicas"}}}}}"#,
        deployment!("web", "u1", 4, "500m"),
        deployment!("cache", "u2", 1, "100m"),
        deployment!("api", "u3", 6, "1"),
        r#"
      {"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
       "metadata": {"name": "web-deployment", "namespace": "shop"},
       "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "shop", "name": "web"},
                "replicas": 4, "clusters": [{"name": "a1", "replicas": 2}, {"name": "a2", "replicas": 2}]},
       "status": {"lastScheduledTime": "2024-05-01T12:00:00Z"}},
      {"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
       "metadata": {"name": "cache-deployment", "namespace": "shop"},
       "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "shop", "name": "cache"},
                "replicas": 1, "clusters": [{"name": "a1", "replicas": 1}, {"name": "a2", "replicas": 1},
                                            {"name": "b1", "replicas": 1}, {"name": "b2", "replicas": 1}]},
       "status": {"lastScheduledTime": "2024-05-01T12:00:00Z"}},
      {"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
       "metadata": {"name": "api-deployment", "namespace": "shop"},
       "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "shop", "name": "api"},
                "replicas": 6, "clusters": [{"name": "a1", "replicas": 2}, {"name": "b1", "replicas": 1},
                                            {"name": "b2", "replicas": 3}]},
       "status": {"lastScheduledTime": "2024-05-01T12:00:00Z"}}"#
    );

    fn objects() -> Vec<Object> {
        serde_json::from_str::<Objects>(DUMP).unwrap().0
    }

    /// [`DUMP`] and `batch`: divided by static weights over every cluster (no capacity
    /// checked), its template scaled from 4 to 16 since its binding was written, so any
    /// cluster change that enqueues it places 12 more replicas, past some clusters' capacity.
    fn scaled() -> Vec<Object> {
        let more = r#"[
          {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
           "metadata": {"name": "batch", "namespace": "shop"},
           "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "batch"}],
                    "placement": {"replicaScheduling": {"replicaSchedulingType": "Divided",
                       "replicaDivisionPreference": "Weighted",
                       "weightPreference": {"staticWeightList": [
                         {"targetCluster": {"clusterNames": ["a1", "a2", "b1", "b2"]}, "weight": 1}]}}}}},
          {"apiVersion": "apps/v1", "kind": "Deployment",
           "metadata": {"name": "batch", "namespace": "shop", "uid": "u4"},
           "spec": {"replicas": 16, "template": {"spec": {"containers": [
              {"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}},
          {"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
           "metadata": {"name": "batch-deployment", "namespace": "shop"},
           "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "shop", "name": "batch"},
                    "replicas": 4, "clusters": [{"name": "a1", "replicas": 2}, {"name": "b2", "replicas": 2}]},
           "status": {"lastScheduledTime": "2024-05-01T12:00:00Z"}}
        ]"#;
        let mut o = objects();
        o.extend(serde_json::from_str::<Objects>(more).unwrap().0);
        o
    }

    fn ask(each: Each, select: Option<&str>) -> Ask {
        Ask {
            each,
            select: select.map(String::from),
        }
    }

    fn answer(what: &WhatIf, a: &Ask) -> Report {
        answer_over(&objects(), what, a)
    }

    fn answer_over(objects: &[Object], what: &WhatIf, a: &Ask) -> Report {
        try_answer(objects, what, a, &mut |_, _| {}).unwrap()
    }

    fn try_answer(
        objects: &[Object],
        what: &WhatIf,
        a: &Ask,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Report> {
        readiness(objects, &Choice::default(), what, a, &[], &[], progress)
    }

    /// Every row is the row of the plan of `--cluster-down` its clusters, exactly.
    fn rows_are_single_plans(what: &WhatIf, a: &Ask) -> Report {
        rows_are_single_plans_over(&objects(), what, a)
    }

    fn rows_are_single_plans_over(objects: &[Object], what: &WhatIf, a: &Ask) -> Report {
        let r = answer_over(objects, what, a);
        let choice = Choice::default();
        for row in &r.rows {
            let one = what.failure(row.failure.clusters.clone());
            let single = plan(objects, &choice, &one, &[], &[]).unwrap();
            let expected = Row::of(row.failure.clone(), &single.plan);
            assert_eq!(row, &expected, "{}", row.failure.name);
        }
        r
    }

    #[test]
    fn every_row_is_the_plan_of_that_failure() {
        let settings = [
            WhatIf::default(),
            WhatIf {
                overcommit_protection: true,
                ..WhatIf::default()
            },
            WhatIf {
                taint_eviction: true,
                priority_queue: Some(false),
                ..WhatIf::default()
            },
        ];
        for what in &settings {
            for each in [Each::Cluster, Each::Zone, Each::Region] {
                rows_are_single_plans(what, &ask(each, None));
                rows_are_single_plans(what, &ask(each, Some("tier=prod")));
            }
        }
    }

    // Replicas that move: where they go and the capacity they overcommit are the single
    // plan's, for every failure and setting.
    #[test]
    fn moved_replicas_and_overcommit_are_the_plans() {
        let o = scaled();
        let mut over = 0;
        let mut moved = 0;
        for what in [
            WhatIf::default(),
            WhatIf {
                overcommit_protection: true,
                ..WhatIf::default()
            },
        ] {
            for each in [Each::Cluster, Each::Zone, Each::Region] {
                let r = rows_are_single_plans_over(&o, &what, &ask(each, None));
                over += r
                    .rows
                    .iter()
                    .filter(|x| !x.overcommitted.is_empty())
                    .count();
                moved += r.rows.iter().map(|x| x.rescheduled).sum::<u64>();
            }
        }
        assert!(over > 0, "some failure overcommits a cluster");
        assert!(moved > 0, "some failure places replicas");
    }

    #[test]
    fn clusters_zones_and_regions_are_read_from_the_clusters() {
        let names = |r: &Report| -> Vec<(String, Vec<String>)> {
            let mut v: Vec<_> = r
                .rows
                .iter()
                .map(|row| (row.failure.name.clone(), row.failure.clusters.clone()))
                .collect();
            v.sort();
            v
        };
        let s = |x: &[&str]| x.iter().map(|c| String::from(*c)).collect::<Vec<_>>();
        let zones = answer(&WhatIf::default(), &ask(Each::Zone, None));
        assert_eq!(
            names(&zones),
            vec![
                ("a".into(), s(&["a1", "a2"])),
                ("b".into(), s(&["b1", "b2"]))
            ]
        );
        let regions = answer(&WhatIf::default(), &ask(Each::Region, Some("tier=prod")));
        assert_eq!(
            names(&regions),
            vec![
                ("east".into(), s(&["a1", "a2"])),
                ("west".into(), s(&["b1"]))
            ]
        );
        let clusters = answer(&WhatIf::default(), &ask(Each::Cluster, Some("tier!=prod")));
        assert_eq!(names(&clusters), vec![("b2".into(), s(&["b2"]))]);
    }

    // With the defaults nothing is evicted: every replica on the failed clusters is lost until
    // they recover, and zone a takes web down entirely.
    #[test]
    fn zone_a_is_the_single_point_of_failure_of_web() {
        let r = answer(&WhatIf::default(), &ask(Each::Zone, None));
        let a = &r.rows[0];
        assert_eq!(a.failure.name, "a");
        // web 4, cache 2, api 2.
        assert_eq!(a.lost, 8);
        assert_eq!(a.unplaced, 0);
        assert_eq!(a.rescheduled, 0);
        assert_eq!(a.outages, 1);
        let down: Vec<&str> = a
            .workloads
            .iter()
            .filter(|w| w.outage)
            .map(|w| w.id.name.as_str())
            .collect();
        assert_eq!(down, vec!["web-deployment"]);
        let b = &r.rows[1];
        assert_eq!((b.failure.name.as_str(), b.lost, b.outages), ("b", 6, 0));
        assert!(!r.clean());
        assert_eq!(r.summary.worst.as_deref(), Some("a"));
        assert_eq!(r.summary.harmful, 2);
    }

    // The answer carries its sentences, written once for the command and the fleet view:
    // the summary, each row's harm, and the comparison with the fleet before a change (why
    // replicas are unplaced: readiness_words' tests).
    #[test]
    fn the_answer_carries_its_sentences() {
        let r = answer(&WhatIf::default(), &ask(Each::Zone, None));
        assert_eq!(
            r.said,
            "2 zone failures planned: 2 leave replicas unplaced or lost, or a cluster \
             overcommitted; the worst is a."
        );
        let harms: Vec<&str> = r.rows.iter().map(|x| x.harm.as_str()).collect();
        assert_eq!(harms, vec!["8 lost", "6 lost"]);
        let none = answer(&WhatIf::default(), &ask(Each::Region, Some("tier=none")));
        assert_eq!(
            none.said,
            "No region to fail: no Cluster that tier=none selects states one."
        );
        let cordoned = WhatIf {
            cordon: vec!["b2".into()],
            ..WhatIf::default()
        };
        let before = answer(&cordoned, &ask(Each::Cluster, None)).before.unwrap();
        assert_eq!(
            before.said,
            "No failure harms more after the change than before."
        );
        let deleted = WhatIf {
            delete_cluster: vec!["b2".into()],
            ..WhatIf::default()
        };
        let before = answer(&deleted, &ask(Each::Cluster, None)).before.unwrap();
        // b2's replicas moved to the others: each of them now loses more; b2 fails no more.
        assert_eq!(
            before.said,
            "Less resilient after the change: a1, a2, b1 harm more than before. More \
             resilient: b2 harms less."
        );
    }

    #[test]
    fn rows_are_worst_first() {
        let r = answer(&WhatIf::default(), &ask(Each::Cluster, None));
        let names: Vec<&str> = r.rows.iter().map(|x| x.failure.name.as_str()).collect();
        // a1: web 2 + cache 1 + api 2; b2: cache 1 + api 3; a2: web 2 + cache 1; b1: 2.
        assert_eq!(names, vec!["a1", "b2", "a2", "b1"]);
        let harm: Vec<u64> = r.rows.iter().map(|x| x.lost + x.unplaced).collect();
        assert_eq!(harm, vec![5, 4, 3, 2]);
    }

    // A change is answered beside the fleet before it: deleting b2 (its replicas move) makes
    // every other failure no better.
    #[test]
    fn a_change_is_compared_with_the_fleet_before_it() {
        let what = WhatIf {
            cordon: vec!["b2".into()],
            ..WhatIf::default()
        };
        let r = answer(&what, &ask(Each::Cluster, None));
        let before = r.before.as_ref().expect("compared");
        assert_eq!(before.rows.len(), 4);
        assert_eq!(r.rows.len(), 4);
        let plain = answer(&WhatIf::default(), &ask(Each::Cluster, None));
        assert_eq!(before.rows, plain.rows);
        assert!(plain.before.is_none());
    }

    // A cluster deleted by the what-ifs is no failure of the fleet after them.
    #[test]
    fn a_deleted_cluster_is_no_failure() {
        let what = WhatIf {
            delete_cluster: vec!["b2".into()],
            ..WhatIf::default()
        };
        let r = answer(&what, &ask(Each::Cluster, None));
        let names: Vec<&str> = r.rows.iter().map(|x| x.failure.name.as_str()).collect();
        assert_eq!(names.len(), 3, "{names:?}");
        assert!(!names.contains(&"b2"), "{names:?}");
        let before = r.before.as_ref().expect("compared");
        assert!(before.rows.iter().any(|x| x.failure.name == "b2"));
    }

    // Bindings scheduled together under SchedulingOvercommitProtection: the plan says that
    // Karmada's order among them, and so its answer, may change from run to run; without the
    // gate the order decides nothing and nothing is said.
    #[test]
    fn bindings_scheduled_together_under_protection_carry_the_order_caveat() {
        let delete = || WhatIf {
            delete_cluster: vec!["a1".into()],
            ..WhatIf::default()
        };
        let ask = |what: WhatIf| plan(&objects(), &Choice::default(), &what, &[], &[]).unwrap();
        let plain = ask(delete());
        assert!(plain.plan.caveats.is_empty(), "{:?}", plain.plan.caveats);
        let protected = ask(WhatIf {
            overcommit_protection: true,
            ..delete()
        });
        let together = protected
            .plan
            .steps
            .iter()
            .map(|s| s.passes.iter().filter(|p| p.why.succeeded()).count())
            .max()
            .unwrap_or(0);
        assert!(together > 1, "the fixture schedules several at once");
        assert_eq!(protected.plan.caveats.len(), 1);
        assert!(protected.plan.caveats[0].contains("SchedulingOvercommitProtection"));
    }

    #[test]
    fn a_wrong_selector_is_an_error_at_select() {
        let e = try_answer(
            &objects(),
            &WhatIf::default(),
            &ask(Each::Cluster, Some("tier in prod")),
            &mut |_, _| {},
        )
        .unwrap_err();
        assert_eq!(e.code(), "invalid_selector");
        assert_eq!(alloc::format!("{}", e.field()), "select.requirements[0]");
    }

    #[test]
    fn progress_counts_every_failure() {
        let mut seen = Vec::new();
        try_answer(
            &objects(),
            &WhatIf::default(),
            &ask(Each::Cluster, None),
            &mut |d, t| seen.push((d, t)),
        )
        .unwrap();
        assert_eq!(seen, vec![(1, 4), (2, 4), (3, 4), (4, 4)]);
    }
}
