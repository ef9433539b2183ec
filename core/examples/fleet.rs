//! The fleet of the speed and memory targets (docs/rules/fleet.md §30) as a file, and one plan
//! over such a file, timed phase by phase, as the package's `planFleet` runs it: the JSON text
//! read into objects, the fleet read and planned, the answer written as JSON text.
//!
//! `cargo run --release --example fleet -- dump WORKLOADS placed|fresh|zoned FILE [CLUSTERS]`
//! writes the dump (1,000 Clusters unless CLUSTERS, a multiple of 100, 100 policies, WORKLOADS Deployments with, when `placed` or `zoned`,
//! their bindings; `zoned`: each cluster in one of 30 zones);
//! `cargo run --release --example fleet -- plan FILE [CLUSTER]` plans it: the drift of today's
//! bindings (every binding from scratch when none is placed), or CLUSTER down (`delete=CLUSTER`:
//! deleted). Its peak
//! memory is the plan's (`/usr/bin/time -v`): the dump's text is dropped once read.
//! `cargo run --release --example fleet -- readiness FILE cluster|zone|region` answers every
//! failure of that kind (`allot plan --each`), its peak memory to compare with one plan's.
//! Both print their times in milliseconds and the process's peak resident memory (Linux's
//! `VmHWM`), which web/bench/readiness.mjs reads to set the package's figures beside them.

use std::time::{Duration, Instant};

use allot_core::karmada::fleet::readiness::Each;
use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::{Object, Objects};
use allot_core::kubernetes::plan::{plan, WhatIf};
use allot_core::kubernetes::readiness::{readiness, Ask};

#[path = "../benches/support/fleet_dump.rs"]
mod fleet_dump;

/// The objects of the dump at `file`, and how long reading them took; the text is dropped
/// once read.
fn read(file: &str) -> Result<(Vec<Object>, Duration), String> {
    let t = Instant::now();
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let objects = allot_core::json::from_json::<Objects>(&text)
        .map_err(|e| e.to_string())?
        .0;
    drop(text);
    Ok((objects, t.elapsed()))
}

/// `1234.5 ms`: one format for every time printed, which the benchmarks in Node read.
fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// The process's peak resident memory so far, in MB (`VmHWM` of /proc/self/status; `-` where
/// there is none).
fn peak() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
            let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(format!("{:.1} MB", kb / 1e3))
        })
        .unwrap_or_else(|| "-".into())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["dump", workloads, placed, file, rest @ ..] => {
            let n: usize = workloads.parse().map_err(|_| "WORKLOADS: a number")?;
            let clusters: usize = match rest {
                [c] => c.parse().map_err(|_| "CLUSTERS: a number")?,
                _ => fleet_dump::CLUSTERS,
            };
            let mut dump = fleet_dump::dump_of(clusters, n, *placed != "fresh");
            if *placed == "zoned" {
                fleet_dump::zoned(&mut dump);
            }
            let text = serde_json::to_string(&dump).map_err(|e| e.to_string())?;
            std::fs::write(file, text).map_err(|e| e.to_string())
        }
        ["plan", file, rest @ ..] => {
            let (objects, read) = read(file)?;
            // `delete=CLUSTER`: the cluster deleted (`--delete-cluster`), else down.
            let (deleted, down): (Vec<&str>, Vec<&str>) =
                rest.iter().partition(|c| c.starts_with("delete="));
            let what = WhatIf {
                cluster_down: down.iter().map(|c| String::from(*c)).collect(),
                delete_cluster: deleted
                    .iter()
                    .map(|c| String::from(c.trim_start_matches("delete=")))
                    .collect(),
                ..WhatIf::default()
            };
            let t = Instant::now();
            let planned =
                plan(&objects, &Choice::default(), &what, &[], &[]).map_err(|e| e.to_string())?;
            let planning = t.elapsed();
            let t = Instant::now();
            let json = allot_core::json::to_json_bytes(&planned).map_err(|e| e.to_string())?;
            let writing = t.elapsed();
            // FLEET_PLAN_JSON=FILE: the answer written there too, to compare two builds'.
            if let Ok(out) = std::env::var("FLEET_PLAN_JSON") {
                std::fs::write(out, &json).map_err(|e| e.to_string())?;
            }
            // The answer's fingerprint: two builds plan alike when theirs are equal.
            let mut h = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(&json, &mut h);
            println!(
                "{} objects; {}; read {}, plan {}, JSON {} ({:.1} MB, fingerprint {:016x}); \
                 peak {}",
                objects.len(),
                planned.plan.summary.said.trim_end_matches('.'),
                ms(read),
                ms(planning),
                ms(writing),
                json.len() as f64 / 1e6,
                std::hash::Hasher::finish(&h),
                peak()
            );
            Ok(())
        }
        ["readiness", file, each] => {
            let (objects, read) = read(file)?;
            let each = match *each {
                "zone" => Each::Zone,
                "region" => Each::Region,
                _ => Each::Cluster,
            };
            let ask = Ask { each, select: None };
            let t = Instant::now();
            let report = readiness(
                &objects,
                &Choice::default(),
                &WhatIf::default(),
                &ask,
                &[],
                &[],
                &mut |_, _| {},
            )
            .map_err(|e| e.to_string())?;
            let answering = t.elapsed();
            let t = Instant::now();
            let json = allot_core::json::to_json_bytes(&report).map_err(|e| e.to_string())?;
            let writing = t.elapsed();
            let worst = report.rows.first();
            // What each failure costs grows with the bindings it concerns.
            let affected: usize = report.rows.iter().map(|r| r.bindings).sum();
            let per = affected as f64 / report.rows.len().max(1) as f64;
            println!(
                "{} objects; {} failures ({per:.1} bindings affected each), {} harmful, worst {:?} \
                 ({} lost, {} unplaced); read {}, readiness {}, JSON {} ({:.1} MB); peak {}",
                objects.len(),
                report.summary.failures,
                report.summary.harmful,
                report.summary.worst,
                worst.map_or(0, |r| r.lost),
                worst.map_or(0, |r| r.unplaced),
                ms(read),
                ms(answering),
                ms(writing),
                json.len() as f64 / 1e6,
                peak()
            );
            Ok(())
        }
        _ => Err(
            "usage: fleet dump WORKLOADS placed|fresh|zoned FILE [CLUSTERS] | fleet plan FILE \
                  [CLUSTER] | \
                  fleet readiness FILE cluster|zone|region"
                .into(),
        ),
    }
}
