//! A whole control plane, native (docs/rules/fleet.md §30): 1,000 Clusters and 10,000
//! Deployments with their policies and bindings. Timed: reading the objects into a fleet, the
//! plan of every binding scheduled from scratch, the drift of today's bindings, and two
//! what-ifs on the fleet already read (a cluster down; a cluster deleted, rescheduling the
//! bindings placed there).

use std::hint::black_box;

use allot_core::karmada::fleet::events::Event;
use allot_core::karmada::fleet::plan::plan;
use allot_core::karmada::fleet::Settings;
use allot_core::kubernetes::fleet::read;
use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::{Object, Objects};
use criterion::{criterion_group, criterion_main, Criterion};

#[path = "support/fleet_dump.rs"]
mod fleet_dump;

const WORKLOADS: usize = 10_000;

/// The dump of [`fleet_dump::dump`] as objects.
fn dump(placed: bool) -> Vec<Object> {
    serde_json::from_value::<Objects>(fleet_dump::dump(WORKLOADS, placed))
        .map(|o| o.0)
        .unwrap_or_default()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("fleet");
    g.sample_size(10);
    let fresh = dump(false);
    let placed = dump(true);
    let choice = Choice::default();
    // What the timed runs compute: every binding planned, none refused.
    let first = read(&fresh, &choice, Settings::default()).expect("the dump reads");
    let planned = plan(&first.fleet, vec![Event::Restart]).expect("the fleet plans");
    eprintln!("from scratch: {:?}", planned.0.summary);
    g.bench_function("read 1,000 clusters x 10,000 workloads", |b| {
        b.iter(|| {
            read(black_box(&placed), &choice, Settings::default()).map(|r| r.fleet.entries.len())
        })
    });
    g.bench_function("read and schedule every binding from scratch", |b| {
        b.iter(|| {
            let r = read(black_box(&fresh), &choice, Settings::default()).ok()?;
            plan(&r.fleet, vec![Event::Restart])
                .ok()
                .map(|p| p.0.summary.changed)
        })
    });
    let fleet = read(&placed, &choice, Settings::default())
        .map(|r| r.fleet)
        .ok();
    let Some(fleet) = fleet else { return };
    g.bench_function("drift of today's bindings", |b| {
        b.iter(|| {
            plan(black_box(&fleet), vec![Event::Restart])
                .ok()
                .map(|p| p.0.summary.changed)
        })
    });
    g.bench_function("what-if: one cluster down", |b| {
        b.iter(|| {
            let down = Event::ClusterDown {
                cluster: "member-5".into(),
            };
            plan(black_box(&fleet), vec![down])
                .ok()
                .map(|p| p.0.summary.changed)
        })
    });
    g.bench_function("what-if: one cluster deleted", |b| {
        b.iter(|| {
            let gone = Event::Leave {
                cluster: "member-5".into(),
            };
            plan(black_box(&fleet), vec![gone])
                .ok()
                .map(|p| p.0.summary.changed)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
