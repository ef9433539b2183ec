//! The work of a call is bounded by the input's size and the documented limits, never by a
//! number's value: scenarios with huge numbers (pieces up to 2^31 and beyond, replicas up to
//! 2^53, counts up to the limits) get an answer or `too_large`, and what they allocate stays
//! within a fixed budget. Work is measured by counting allocated bytes (this test binary's
//! allocator counts them), not by time.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use allot_core::scenario::{self, Scenario};
use proptest::prelude::*;
use serde_json::json;

struct Counting;

static ALLOCATED: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size() as u64, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATED.fetch_add(new_size as u64, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What one call of a scenario of a few hundred bytes may allocate in all: 64 MiB.
const BUDGET: u64 = 64 << 20;

/// The errors a limit gives (or the inputs' own meaning: not enough room, a bad request).
const LIMIT_ERRORS: &[&str] = &[
    "too_large",
    "negative",
    "unschedulable",
    "insufficient_resource",
    "insufficient_capacity",
    "already_filled",
    "invalid_count",
    "invalid_cpu",
    "invalid_memory",
];

/// Bytes allocated by `schedule` (and by writing its answer) for `doc`; the answer must be an
/// outcome or one of the errors a limit gives, also when the document is read.
fn cost(doc: serde_json::Value) -> u64 {
    let allowed = |e: allot_core::Error| assert!(LIMIT_ERRORS.contains(&e.code().as_str()), "{e}");
    let s: Scenario = match scenario::from_json(&doc.to_string()) {
        Ok(s) => s,
        Err(e) => {
            allowed(e);
            return 0;
        }
    };
    let before = ALLOCATED.load(Ordering::Relaxed);
    match scenario::schedule(&s, 7) {
        Ok(o) => {
            allot_core::json::to_json(&o).unwrap();
        }
        Err(e) => allowed(e),
    }
    ALLOCATED.load(Ordering::Relaxed) - before
}

fn huge() -> impl Strategy<Value = i64> {
    prop_oneof![
        0i64..10,
        0i64..1_000,
        0i64..(1 << 31),
        (1i64 << 31)..(1 << 53),
        Just(1i64 << 53),
        Just(i64::MAX),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn eru_binding_is_bounded_by_the_input_not_its_numbers(
        pieces in proptest::collection::vec(huge(), 1..6),
        cpu_milli in prop_oneof![1i64..100, 100i64..10_000, Just(1i64)],
        count in prop_oneof![1i64..10, Just(1i64 << 20)],
        numa in any::<bool>(),
        strategy in prop_oneof![Just("AUTO"), Just("FILL"), Just("EACH"), Just("GLOBAL"), Just("DRAINED")],
    ) {
        let cpu_map: serde_json::Map<String, serde_json::Value> =
            pieces.iter().enumerate().map(|(i, p)| (i.to_string(), json!(p))).collect();
        let mut node = json!({"name": "n", "memory": "1Ti", "cpuMap": cpu_map});
        if numa {
            let numa: serde_json::Map<String, serde_json::Value> =
                (0..pieces.len()).map(|i| (i.to_string(), json!((i % 2).to_string()))).collect();
            node["numa"] = serde_json::Value::Object(numa);
            node["numaMemory"] = json!({"0": "512Gi", "1": "512Gi"});
        }
        let doc = json!({"version": 1, "nodes": [node, {"name": "m", "memory": "1Gi", "cpuMap": {"0": 100}}],
            "workload": {"count": count, "requests": {"cpu": format!("{cpu_milli}m")}, "cpuBind": true},
            "policy": {"strategy": strategy}});
        let spent = cost(doc);
        prop_assert!(spent <= BUDGET, "{spent} bytes");
    }

    #[test]
    fn estimators_are_bounded_by_the_input_not_its_numbers(
        replicas in huge(),
        nodes in proptest::collection::vec((huge(), huge(), huge(), huge()), 1..6),
        request in (huge(), huge()),
        grades in proptest::collection::vec((huge(), huge()), 0..4),
        sets in any::<bool>(),
    ) {
        let node_list: Vec<serde_json::Value> = nodes
            .iter()
            .enumerate()
            .map(|(i, (cpu, mem, pods, used))| json!({"name": format!("n{i}"),
                "allocatable": {"cpu": cpu, "memory": mem, "pods": pods}, "used": used}))
            .map(|mut n| { n.as_object_mut().unwrap().remove("used"); n })
            .collect();
        let pods: Vec<serde_json::Value> = nodes
            .iter()
            .enumerate()
            .map(|(i, (_, _, _, used))| json!({"nodeName": format!("n{i}"), "requests": {"cpu": used}}))
            .collect();
        let modelings: Vec<serde_json::Value> =
            grades.iter().enumerate().map(|(g, (_, count))| json!({"grade": g, "count": count})).collect();
        let total = nodes.iter().fold(0i64, |a, n| a.saturating_add(n.0));
        let mut doc = json!({"version": 1,
            "clusters": [{"name": "a", "nodes": node_list, "pods": pods,
                          "resourceSummary": {"allocatable": {"cpu": total, "memory": total, "pods": total},
                                              "allocatableModelings": modelings}},
                         {"name": "b", "resourceSummary": {"allocatable": {"cpu": total}}}],
            "workload": {"replicas": replicas, "requests": {"cpu": request.0, "memory": request.1}},
            "policy": {"strategy": "dynamicWeight"}});
        if sets {
            doc["workload"]["components"] = json!([
                {"name": "x", "replicas": request.0 % 1000, "requests": {"cpu": request.1}},
                {"name": "y", "replicas": 1, "requests": {"memory": request.0}}]);
        }
        let spent = cost(doc);
        prop_assert!(spent <= BUDGET, "{spent} bytes");
    }

    #[test]
    fn karmada_division_is_bounded_by_the_input_not_its_numbers(
        replicas in huge(),
        weights in proptest::collection::vec(huge(), 1..8),
        previous in proptest::collection::vec(huge(), 0..8),
        method in prop_oneof![Just("webster"), Just("remainder"), Just("name-order")],
        strategy in prop_oneof![Just("staticWeight"), Just("dynamicWeight"), Just("aggregated"), Just("duplicated")],
    ) {
        let clusters: Vec<serde_json::Value> = weights
            .iter()
            .enumerate()
            .map(|(i, w)| json!({"name": format!("m{i}"), "weight": w, "availableReplicas": w}))
            .collect();
        let previous: serde_json::Map<String, serde_json::Value> =
            previous.iter().enumerate().map(|(i, r)| (format!("m{i}"), json!(r))).collect();
        let mut doc = json!({"version": 1, "clusters": clusters, "workload": {"replicas": replicas},
            "policy": {"method": method, "strategy": strategy}, "previous": previous});
        if strategy != "staticWeight" {
            for c in doc["clusters"].as_array_mut().unwrap() {
                c.as_object_mut().unwrap().remove("weight");
            }
        }
        let spent = cost(doc);
        prop_assert!(spent <= BUDGET, "{spent} bytes");
    }
}
