//! Failover readiness over every example fleet of `docs/manifests` (docs/rules/fleet.md §34):
//! each failure's row is the row of the plan of `--cluster-down` its clusters, exactly, with
//! the defaults and with the controller-manager's failover on (`--at` too); and the single
//! points of failure the report names are those a reader finds by hand in the files.

use allot_core::karmada::fleet::readiness::{Each, Row};
use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::Object;
use allot_core::kubernetes::plan::{plan, WhatIf};
use allot_core::kubernetes::readiness::{readiness, Ask, Report};

fn manifest(name: &str) -> Vec<Object> {
    let path = format!("{}/../docs/manifests/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    allot_web::yaml::objects(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The example fleets: those with Clusters and bindings placed.
const FLEETS: &[&str] = &[
    "fleet-shop.yaml",
    "fleet-policy.yaml",
    "fleet-failover.yaml",
];

fn settings() -> Vec<WhatIf> {
    let on = WhatIf {
        taint_eviction: true,
        ..WhatIf::default()
    };
    vec![
        WhatIf::default(),
        on.clone(),
        WhatIf {
            at: Some("60s".into()),
            ..on
        },
    ]
}

fn answer(objects: &[Object], what: &WhatIf, each: Each) -> Report {
    let ask = Ask { each, select: None };
    readiness(
        objects,
        &Choice::default(),
        what,
        &ask,
        &[],
        &[],
        &mut |_, _| {},
    )
    .expect("readiness")
}

#[test]
fn every_row_is_the_plan_of_its_failure() {
    let mut moved = 0;
    for name in FLEETS {
        let objects = manifest(name);
        for what in settings() {
            for each in [Each::Cluster, Each::Zone, Each::Region] {
                let r = answer(&objects, &what, each);
                for row in &r.rows {
                    let one = what.failure(row.failure.clusters.clone());
                    let single = plan(&objects, &Choice::default(), &one, &[], &[])
                        .unwrap_or_else(|e| panic!("{name} {}: {e}", row.failure.name));
                    let expected = Row::of(row.failure.clone(), &single.plan);
                    assert_eq!(row, &expected, "{name}: {}", row.failure.name);
                    moved += row.rescheduled;
                }
            }
        }
    }
    // With failover on, some failure moves replicas: the comparison covers rescheduling.
    assert!(moved > 0);
}

/// The failures that take some workload down entirely, by name, and those workloads.
fn single_points(r: &Report) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = r
        .rows
        .iter()
        .filter(|row| row.outages > 0)
        .map(|row| {
            let down = row
                .workloads
                .iter()
                .filter(|w| w.outage)
                .map(|w| w.id.name.to_string())
                .collect();
            (row.failure.name.clone(), down)
        })
        .collect();
    out.sort();
    out
}

// What a reader finds by hand in each file: the workloads whose every replica sits on the
// failed clusters (with the defaults nothing moves, so those are down until recovery).
#[test]
fn the_single_points_of_failure_are_those_found_by_hand() {
    let s = |x: &[&str]| x.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    for name in FLEETS {
        let objects = manifest(name);
        let clusters = answer(&objects, &WhatIf::default(), Each::Cluster);
        let regions = answer(&objects, &WhatIf::default(), Each::Region);
        // By hand: every binding placed, its clusters and their regions.
        let mut by_cluster: Vec<(String, Vec<String>)> = Vec::new();
        let mut by_region: Vec<(String, Vec<String>)> = Vec::new();
        let state =
            allot_core::kubernetes::plan::Session::read(objects.clone(), &Choice::default())
                .expect("read")
                .state();
        let region_of = |c: &str| {
            state
                .clusters
                .iter()
                .find(|x| x.load.name == c)
                .and_then(|x| x.labels.get("region").cloned())
                .unwrap_or_default()
        };
        for b in &state.bindings {
            let placed: Vec<&String> = b
                .clusters
                .iter()
                .filter(|(_, &n)| n > 0)
                .map(|(c, _)| c)
                .collect();
            if placed.len() == 1 {
                by_cluster.push((placed[0].clone(), s(&[&b.id.name])));
            }
            let mut regions: Vec<String> = placed.iter().map(|c| region_of(c)).collect();
            regions.dedup();
            if regions.len() == 1 && !regions[0].is_empty() {
                by_region.push((regions[0].clone(), s(&[&b.id.name])));
            }
        }
        let group = |mut v: Vec<(String, Vec<String>)>| {
            v.sort();
            let mut out: Vec<(String, Vec<String>)> = Vec::new();
            for (k, names) in v {
                match out.last_mut() {
                    Some((last, list)) if *last == k => list.extend(names),
                    _ => out.push((k, names)),
                }
            }
            for (_, list) in &mut out {
                list.sort();
            }
            out
        };
        let mut found = single_points(&clusters);
        for (_, l) in &mut found {
            l.sort();
        }
        assert_eq!(found, group(by_cluster), "{name}: clusters");
        let mut found = single_points(&regions);
        for (_, l) in &mut found {
            l.sort();
        }
        assert_eq!(found, group(by_region), "{name}: regions");
    }
}
