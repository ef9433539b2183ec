//! Aggregated (docs/rules/karmada.md §4, "Dividing target over the list", step 2): as few
//! clusters as can hold the replicas. Clusters already holding replicas move to the front, each
//! group keeping its order; the list is cut to its shortest prefix whose running total reaches
//! the target. The rest of the strategy is dynamic weight's (`dynamic.rs`).

use alloc::vec::Vec;

/// Reorder `list` (`(index, replicas it can take)`, sorted as dynamic weight sorts it) and cut
/// it; returns the indices cut off. `held(i)` is what cluster `i` holds now.
pub(crate) fn cut(
    list: &mut Vec<(usize, i64)>,
    target: u64,
    held: impl Fn(usize) -> u64,
) -> Vec<usize> {
    crate::order::sort_by_key(list, |&(i, _)| held(i) == 0);
    // A negative figure (Karmada's wrapped estimate) lowers the running total, as in Karmada.
    let mut sum = 0i128;
    let keep = list
        .iter()
        .position(|&(_, r)| {
            sum += i128::from(r);
            sum >= i128::from(target)
        })
        .map_or(list.len(), |p| p + 1);
    list.split_off(keep).into_iter().map(|(i, _)| i).collect()
}
