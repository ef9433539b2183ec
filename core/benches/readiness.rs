//! Failover readiness, native (docs/rules/fleet.md §34): every failure of the fleet of the
//! speed targets planned as `--cluster-down` plans it. Timed: each of 1,000 clusters failing
//! over 10,000 workloads, each of 30 zones and each of 10 regions failing, and each of 100
//! clusters failing over 50,000 workloads; beside them one failure's plan, the unit the
//! others are made of.

use std::hint::black_box;

use allot_core::karmada::fleet::readiness::Each;
use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::{Object, Objects};
use allot_core::kubernetes::plan::{Session, WhatIf};
use allot_core::kubernetes::readiness::Ask;
use criterion::{criterion_group, criterion_main, Criterion};

#[path = "support/fleet_dump.rs"]
mod fleet_dump;

fn objects(value: serde_json::Value) -> Vec<Object> {
    serde_json::from_value::<Objects>(value)
        .map(|o| o.0)
        .unwrap_or_default()
}

fn session(objects: Vec<Object>) -> Option<Session> {
    Session::read(objects, &Choice::default()).ok()
}

fn each(s: &Session, each: Each) -> Option<usize> {
    let ask = Ask { each, select: None };
    s.readiness(
        &Choice::default(),
        &WhatIf::default(),
        &ask,
        &[],
        &[],
        &mut |_, _| {},
    )
    .ok()
    .map(|r| r.summary.harmful)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("readiness");
    g.sample_size(10);
    let mut dump = fleet_dump::dump(10_000, true);
    fleet_dump::zoned(&mut dump);
    let Some(fleet) = session(objects(dump)) else {
        return;
    };
    let choice = Choice::default();
    g.bench_function("one failure: 1,000 clusters x 10,000 workloads", |b| {
        b.iter(|| {
            let what = WhatIf::default().failure(vec!["member-5".into()]);
            black_box(&fleet)
                .plan(&choice, &what, &[], &[])
                .ok()
                .map(|p| p.0.summary.changed)
        })
    });
    g.bench_function("each cluster: 1,000 clusters x 10,000 workloads", |b| {
        b.iter(|| each(black_box(&fleet), Each::Cluster))
    });
    g.bench_function("each zone: 30 zones of 1,000 clusters", |b| {
        b.iter(|| each(black_box(&fleet), Each::Zone))
    });
    g.bench_function("each region: 10 regions of 1,000 clusters", |b| {
        b.iter(|| each(black_box(&fleet), Each::Region))
    });
    drop(fleet);
    let Some(wide) = session(objects(fleet_dump::dump_of(100, 50_000, true))) else {
        return;
    };
    g.bench_function("each cluster: 100 clusters x 50,000 workloads", |b| {
        b.iter(|| each(black_box(&wide), Each::Cluster))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
