//! Stable sorting through one compiled sort routine. Every sort in the crate goes through
//! [`sort_indices`]: the standard library's sort, instantiated once for indices with a dynamic
//! comparator, instead of once per call site (each instantiation costs kilobytes of wasm).
//! Stable sorts give one answer whatever the algorithm, so results do not depend on this.

use alloc::vec::Vec;
use core::cmp::Ordering;

/// Stable-sort the indices `v` by `cmp`.
pub(crate) fn sort_indices(v: &mut [usize], cmp: &dyn Fn(usize, usize) -> Ordering) {
    v.sort_by(|&a, &b| cmp(a, b));
}

/// Stable-sort `v` by `cmp`.
pub(crate) fn sort_by<T>(v: &mut Vec<T>, cmp: &dyn Fn(&T, &T) -> Ordering) {
    let mut perm: Vec<usize> = (0..v.len()).collect();
    sort_indices(&mut perm, &|a, b| cmp(&v[a], &v[b]));
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(perm.into_iter().filter_map(|i| slots[i].take()));
}

/// Stable-sort `v` by `key`.
pub(crate) fn sort_by_key<T, K: Ord>(v: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by(v, &|a, b| key(a).cmp(&key(b)));
}

/// Stable-sort indices by `key`.
pub(crate) fn sort_indices_by_key<K: Ord>(v: &mut [usize], key: impl Fn(usize) -> K) {
    sort_indices(v, &|a, b| key(a).cmp(&key(b)));
}

/// Put the `k` smallest indices by `cmp` first, the `k`-th smallest at `k - 1` and the others
/// in no particular order, in linear time (one compiled selection, as [`sort_indices`] is one
/// compiled sort).
pub(crate) fn select_indices(v: &mut [usize], k: usize, cmp: &dyn Fn(usize, usize) -> Ordering) {
    if k > 0 && k <= v.len() {
        v.select_nth_unstable_by(k - 1, |&a, &b| cmp(a, b));
    }
}

/// Put the `k` smallest keys of `v` first, the `k`-th smallest at `k - 1` and the others in
/// no particular order, in linear time: the selection of plain keys (a node's order and its
/// position packed into one number), compared without a call, one compiled instance beside
/// [`select_indices`].
pub(crate) fn select_keys(v: &mut [u128], k: usize) {
    if k > 0 && k <= v.len() {
        v.select_nth_unstable(k - 1);
    }
}

/// Sort plain keys (an order and a position packed into one number, so no two are equal and
/// any sort gives the same answer), compared without a call: one compiled instance beside
/// [`sort_indices`].
pub(crate) fn sort_keys(v: &mut [u128]) {
    v.sort_unstable();
}

/// [`select_indices`] by `key`.
pub(crate) fn select_indices_by_key<K: Ord>(v: &mut [usize], k: usize, key: impl Fn(usize) -> K) {
    select_indices(v, k, &|a, b| key(a).cmp(&key(b)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn stable_and_complete() {
        let mut v = vec![(3, 'a'), (1, 'b'), (3, 'c'), (0, 'd'), (1, 'e')];
        sort_by_key(&mut v, |p| p.0);
        assert_eq!(v, [(0, 'd'), (1, 'b'), (1, 'e'), (3, 'a'), (3, 'c')]);
        let mut i = vec![0usize, 1, 2, 3];
        let keys = [2, 1, 2, 0];
        sort_indices_by_key(&mut i, |k| keys[k]);
        assert_eq!(i, [3, 1, 0, 2]);
        // The two smallest by key, then index, come first.
        let mut i = vec![0usize, 1, 2, 3];
        select_indices_by_key(&mut i, 2, |k| (keys[k], k));
        let mut first = i[..2].to_vec();
        first.sort_unstable();
        assert_eq!(first, [1, 3]);
    }
}
