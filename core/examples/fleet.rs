//! The fleet of the speed and memory targets (docs/rules/fleet.md §30) as a file, and one plan
//! over such a file, timed phase by phase, as the package's `planFleet` runs it: the JSON text
//! read into objects, the fleet read and planned, the answer written as JSON text.
//!
//! `cargo run --release --example fleet -- dump WORKLOADS placed|fresh FILE` writes the dump
//! (1,000 Clusters, 100 policies, WORKLOADS Deployments with, when `placed`, their bindings);
//! `cargo run --release --example fleet -- plan FILE [CLUSTER]` plans it: the drift of today's
//! bindings (every binding from scratch when none is placed), or CLUSTER down. Its peak
//! memory is the plan's (`/usr/bin/time -v`): the dump's text is dropped once read.

use std::time::Instant;

use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::Objects;
use allot_core::kubernetes::plan::{plan, WhatIf};

#[path = "../benches/support/fleet_dump.rs"]
mod fleet_dump;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["dump", workloads, placed, file] => {
            let n: usize = workloads.parse().map_err(|_| "WORKLOADS: a number")?;
            let dump = fleet_dump::dump(n, *placed == "placed");
            let text = serde_json::to_string(&dump).map_err(|e| e.to_string())?;
            std::fs::write(file, text).map_err(|e| e.to_string())
        }
        ["plan", file, rest @ ..] => {
            let t = Instant::now();
            let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
            let objects = allot_core::json::from_json::<Objects>(&text)
                .map_err(|e| e.to_string())?
                .0;
            drop(text);
            let read = t.elapsed();
            let what = WhatIf {
                cluster_down: rest.iter().map(|c| String::from(*c)).collect(),
                ..WhatIf::default()
            };
            let t = Instant::now();
            let planned =
                plan(&objects, &Choice::default(), &what, &[], &[]).map_err(|e| e.to_string())?;
            let planning = t.elapsed();
            let t = Instant::now();
            let json = allot_core::json::to_json_bytes(&planned).map_err(|e| e.to_string())?;
            let writing = t.elapsed();
            // The answer's fingerprint: two builds plan alike when theirs are equal.
            let mut h = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(&json, &mut h);
            println!(
                "{} objects; {}; read {read:.2?}, plan {planning:.2?}, JSON {writing:.2?} ({:.1} \
                 MB, fingerprint {:016x})",
                objects.len(),
                planned.plan.summary.line(),
                json.len() as f64 / 1e6,
                std::hash::Hasher::finish(&h)
            );
            Ok(())
        }
        _ => {
            Err("usage: fleet dump WORKLOADS placed|fresh FILE | fleet plan FILE [CLUSTER]".into())
        }
    }
}
