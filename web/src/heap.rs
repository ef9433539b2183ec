//! The module's heap: talc, over WebAssembly memory grown by at least an eighth of its size at
//! a time.
//!
//! talc's own WebAssembly source grows the memory by what the allocation at hand needs, mostly
//! one 64 KiB page. Reading a control plane's dump of a hundred thousand Clusters allocates
//! hundreds of megabytes in small pieces, so the memory grew thousands of times, and each
//! growth costs the engine far more than an allocation: the package's first `explain` of a
//! 105 MB dump took 1.6 to 1.8 times as long as a second one in the same process, which found
//! the memory already grown. Growing by an eighth of the memory (at least a MiB) makes that a
//! few dozen growths; memory the module never uses stays untouched, and the most it can hold
//! back is an eighth of what it uses.

use core::alloc::Layout;
use core::ptr::NonNull;

use talc::base::binning::Binning;
use talc::base::Talc;

/// The allocator every allocation of the module goes through.
#[global_allocator]
static ALLOCATOR: talc::cell::TalcSyncCell<Grow, talc::wasm::WasmBinning> =
    talc::cell::TalcSyncCell::new_wasm(Grow { end: None });

const PAGE: usize = 64 * 1024;

/// The smallest growth, in pages: a MiB.
const MIN_PAGES: usize = 16;

/// Grows the memory for talc, extending its heap when the new pages follow it (they do unless
/// something else grew the memory in between), as talc's `WasmGrowAndExtend` does.
#[derive(Debug)]
struct Grow {
    /// The end of the heap talc holds.
    end: Option<NonNull<u8>>,
}

// SAFETY: `acquire` touches talc only through the reference it is given, claims only pages it
// has just grown (which nothing else refers to), and allocates nothing itself.
unsafe impl talc::source::Source for Grow {
    fn acquire<B: Binning>(talc: &mut Talc<Self, B>, layout: Layout) -> Result<(), ()> {
        // Room for the allocation, its alignment and talc's chunk bookkeeping.
        let needed = (layout.size() + layout.align() + 4 * talc::base::CHUNK_UNIT).div_ceil(PAGE);
        let current = core::arch::wasm32::memory_size::<0>();
        let wanted = needed.max(current / 8).max(MIN_PAGES);
        // Near the memory's limit, only what this allocation needs.
        let (start, pages) = match core::arch::wasm32::memory_grow::<0>(wanted) {
            usize::MAX => match core::arch::wasm32::memory_grow::<0>(needed) {
                usize::MAX => return Err(()),
                start => (start, needed),
            },
            start => (start, wanted),
        };
        let base = (start * PAGE) as *mut u8;
        let size = pages * PAGE;
        let new_end = base.wrapping_add(size);
        if let Some(old_end) = talc.source.end.take() {
            if old_end.as_ptr() == base {
                // SAFETY: the heap ends where the pages just grown begin.
                talc.source.end = Some(unsafe { talc.extend(old_end, new_end) });
                return Ok(());
            }
        }
        // SAFETY: the pages just grown belong to no one else.
        talc.source.end = unsafe { talc.claim(base, size) };
        Ok(())
    }
}
