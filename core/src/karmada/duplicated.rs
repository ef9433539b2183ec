//! Duplicated (docs/rules/karmada.md §1): every candidate gets all the replicas; capacity is
//! not looked at (the Karmada pipeline warns where it is exceeded).

/// `(candidate index, replicas)` for every cluster of `tier`.
pub fn run(tier: &[usize], replicas: u64) -> alloc::vec::Vec<(usize, u64)> {
    tier.iter().map(|&i| (i, replicas)).collect()
}
