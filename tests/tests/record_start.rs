//! The scenario format's structs start empty: reading a struct begins from its start value
//! (`Record::start`) and replaces each field read without dropping the old value, which is
//! only sound (leak-free) while no start owns memory. This binary counts allocations to prove
//! it for every struct the reader builds.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use allot_core::record::Record;

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
        ($($t:ty),*) => {
            $(assert_eq!(allocations(<$t as Record>::start), 0, stringify!($t));)*
        };
    }
    allot_core::for_each_record!(check);
    // The count works: a start that allocated would be seen.
    assert_eq!(allocations(|| String::from("x")), 1);
}
