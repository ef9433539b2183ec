//! What the benchmarks share: the generator their documents are drawn from.

/// A xorshift generator: `next(m)` is a number below `m`. Fixed seeds give fixed documents, so
/// figures compare across runs and builds.
pub fn rng(mut x: u64) -> impl FnMut(u64) -> u64 {
    move |m| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    }
}
