//! The scenario format's structs start empty: reading a struct starts from its default and
//! replaces each field read without dropping the old value, which is only sound (leak-free)
//! while no default owns memory. This binary counts allocations to prove it for every struct
//! the reader builds.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use allot_core::eru::cpumem::{CpuMemConfig, CpuMemUsage};
use allot_core::eru::pipeline::EruNode;
use allot_core::eru::volume::{Disk, Io};
use allot_core::estimate::accurate::{Container, Node, Pod};
use allot_core::estimate::general::ResourceSummary;
use allot_core::estimate::quota::ResourceQuota;
use allot_core::estimate::{AssumedWorkload, Component, Gates};
use allot_core::karmada::StaticWeightRule;
use allot_core::scenario::{Policy, Scenario, Target, Workload};
use allot_core::selector::cluster::{ClusterAffinity, FieldSelector};
use allot_core::selector::label::{LabelSelector, Requirement};
use allot_core::selector::node::{NodeClaim, NodeSelector, NodeSelectorTerm, Toleration};

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// The system allocator, counting this thread's allocations.
struct Counting;

// SAFETY: every call is forwarded to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn allocations<T>(make: fn() -> T) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    let value = std::hint::black_box(make());
    let after = ALLOCATIONS.with(Cell::get);
    drop(value);
    after - before
}

#[test]
fn every_struct_starts_without_memory() {
    macro_rules! check {
        ($($t:ty),* $(,)?) => {
            $(assert_eq!(allocations(<$t>::default), 0, stringify!($t));)*
        };
    }
    // The records with a start of their own (Taint, ScopeRequirement, ResourceModel,
    // AllocatableModeling) spell it out of `String::new()`, `Vec::new()` and numbers.
    check!(
        Scenario,
        Target,
        Workload,
        Policy,
        StaticWeightRule,
        ClusterAffinity,
        FieldSelector,
        LabelSelector,
        Requirement,
        NodeClaim,
        NodeSelector,
        NodeSelectorTerm,
        Toleration,
        ResourceQuota,
        ResourceSummary,
        Pod,
        Node,
        Container,
        Gates,
        Component,
        AssumedWorkload,
        Disk,
        Io,
        CpuMemConfig,
        CpuMemUsage,
        EruNode,
    );
    // The count works: a default that allocated would be seen.
    assert_eq!(allocations(|| String::from("x")), 1);
}
