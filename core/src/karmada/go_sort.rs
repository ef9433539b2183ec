//! The order Go's `sort.Sort` leaves a slice in (docs/rules/karmada.md §4): Karmada's
//! scheduler sorts its list of clusters by available replicas with `sort.Sort`, which is not
//! stable. Up to 12 elements it is an insertion sort, so equal elements keep their order; above
//! 12 it is pattern-defeating quicksort, whose order among equal elements is fixed by the
//! algorithm (its "random" pattern breaking is seeded by the length). Which of several equal
//! clusters an Aggregated prefix keeps depends on that order, so it is reproduced step by step:
//! every comparison and swap below is the one Go's `sort.Sort` makes, in the same order.
//!
//! A port of the Go standard library's `sort/zsortinterface.go` and `sort.Sort` (Go 1.19 and
//! later, unchanged since), over a slice with a strict "less" function.

/// Sort `v` as Go's `sort.Sort` sorts a `sort.Interface` whose `Less(i, j)` is
/// `less(&v[i], &v[j])` and whose `Swap` swaps two elements.
pub fn sort<T>(v: &mut [T], less: &dyn Fn(&T, &T) -> bool) {
    let n = v.len();
    if n <= 1 {
        return;
    }
    let mut d = Data { v, less };
    let limit = bits_len(n);
    d.pdqsort(0, n, limit);
}

/// `bits.Len`: the number of bits needed to write `n`.
fn bits_len(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

const MAX_INSERTION: usize = 12;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

struct Data<'a, T> {
    v: &'a mut [T],
    less: &'a dyn Fn(&T, &T) -> bool,
}

impl<T> Data<'_, T> {
    fn less(&self, i: usize, j: usize) -> bool {
        (self.less)(&self.v[i], &self.v[j])
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.v.swap(i, j);
    }

    fn insertion_sort(&mut self, a: usize, b: usize) {
        for i in a + 1..b {
            let mut j = i;
            while j > a && self.less(j, j - 1) {
                self.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    fn sift_down(&mut self, lo: usize, hi: usize, first: usize) {
        let mut root = lo;
        loop {
            let mut child = 2 * root + 1;
            if child >= hi {
                return;
            }
            if child + 1 < hi && self.less(first + child, first + child + 1) {
                child += 1;
            }
            if !self.less(first + root, first + child) {
                return;
            }
            self.swap(first + root, first + child);
            root = child;
        }
    }

    fn heap_sort(&mut self, a: usize, b: usize) {
        let first = a;
        let hi = b - a;
        if hi == 0 {
            return;
        }
        // Build the heap with the greatest element at the top.
        for i in (0..=(hi - 1) / 2).rev() {
            self.sift_down(i, hi, first);
        }
        // Pop the greatest into the end.
        for i in (0..hi).rev() {
            self.swap(first, first + i);
            self.sift_down(0, i, first);
        }
    }

    fn pdqsort(&mut self, mut a: usize, mut b: usize, mut limit: usize) {
        let mut was_balanced = true;
        let mut was_partitioned = true;
        loop {
            let length = b - a;
            if length <= MAX_INSERTION {
                self.insertion_sort(a, b);
                return;
            }
            if limit == 0 {
                self.heap_sort(a, b);
                return;
            }
            if !was_balanced {
                self.break_patterns(a, b);
                limit -= 1;
            }
            let (mut pivot, mut hint) = self.choose_pivot(a, b);
            if hint == Hint::Decreasing {
                self.reverse_range(a, b);
                pivot = (b - 1) - (pivot - a);
                hint = Hint::Increasing;
            }
            if was_balanced
                && was_partitioned
                && hint == Hint::Increasing
                && self.partial_insertion_sort(a, b)
            {
                return;
            }
            if a > 0 && !self.less(a - 1, pivot) {
                a = self.partition_equal(a, b, pivot);
                continue;
            }
            let (mid, already) = self.partition(a, b, pivot);
            was_partitioned = already;
            let (left, right) = (mid - a, b - mid);
            let threshold = length / 8;
            if left < right {
                was_balanced = left >= threshold;
                self.pdqsort(a, mid, limit);
                a = mid + 1;
            } else {
                was_balanced = right >= threshold;
                self.pdqsort(mid + 1, b, limit);
                b = mid;
            }
        }
    }

    /// Go's `partition`; `i` and `j` are signed there, as `j` may pass below `a + 1`.
    fn partition(&mut self, a: usize, b: usize, pivot: usize) -> (usize, bool) {
        self.swap(a, pivot);
        let (mut i, mut j) = (a as isize + 1, b as isize - 1);
        while i <= j && self.less(i as usize, a) {
            i += 1;
        }
        while i <= j && !self.less(j as usize, a) {
            j -= 1;
        }
        if i > j {
            self.swap(j as usize, a);
            return (j as usize, true);
        }
        self.swap(i as usize, j as usize);
        i += 1;
        j -= 1;
        loop {
            while i <= j && self.less(i as usize, a) {
                i += 1;
            }
            while i <= j && !self.less(j as usize, a) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.swap(i as usize, j as usize);
            i += 1;
            j -= 1;
        }
        self.swap(j as usize, a);
        (j as usize, false)
    }

    fn partition_equal(&mut self, a: usize, b: usize, pivot: usize) -> usize {
        self.swap(a, pivot);
        let (mut i, mut j) = (a as isize + 1, b as isize - 1);
        loop {
            while i <= j && !self.less(a, i as usize) {
                i += 1;
            }
            while i <= j && self.less(a, j as usize) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.swap(i as usize, j as usize);
            i += 1;
            j -= 1;
        }
        i as usize
    }

    fn partial_insertion_sort(&mut self, a: usize, b: usize) -> bool {
        const MAX_STEPS: usize = 5;
        const SHORTEST_SHIFTING: usize = 50;
        let mut i = a + 1;
        for _ in 0..MAX_STEPS {
            while i < b && !self.less(i, i - 1) {
                i += 1;
            }
            if i == b {
                return true;
            }
            if b - a < SHORTEST_SHIFTING {
                return false;
            }
            self.swap(i, i - 1);
            if i - a >= 2 {
                let mut j = i - 1;
                while j >= 1 {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                    j -= 1;
                }
            }
            if b - i >= 2 {
                let mut j = i + 1;
                while j < b {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                    j += 1;
                }
            }
        }
        false
    }

    fn break_patterns(&mut self, a: usize, b: usize) {
        let length = b - a;
        if length >= 8 {
            let mut random = length as u64;
            let modulus = 1usize << bits_len(length);
            let mid = a + (length / 4) * 2;
            for idx in mid - 1..=mid + 1 {
                random ^= random << 13;
                random ^= random >> 7;
                random ^= random << 17;
                let mut other = (random as usize) & (modulus - 1);
                if other >= length {
                    other -= length;
                }
                self.swap(idx, a + other);
            }
        }
    }

    fn choose_pivot(&mut self, a: usize, b: usize) -> (usize, Hint) {
        const SHORTEST_NINTHER: usize = 50;
        const MAX_SWAPS: usize = 4 * 3;
        let l = b - a;
        let mut swaps = 0;
        let mut i = a + l / 4;
        let mut j = a + l / 4 * 2;
        let mut k = a + l / 4 * 3;
        if l >= 8 {
            if l >= SHORTEST_NINTHER {
                i = self.median_adjacent(i, &mut swaps);
                j = self.median_adjacent(j, &mut swaps);
                k = self.median_adjacent(k, &mut swaps);
            }
            j = self.median(i, j, k, &mut swaps);
        }
        match swaps {
            0 => (j, Hint::Increasing),
            MAX_SWAPS => (j, Hint::Decreasing),
            _ => (j, Hint::Unknown),
        }
    }

    fn order2(&self, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
        if self.less(b, a) {
            *swaps += 1;
            (b, a)
        } else {
            (a, b)
        }
    }

    fn median(&self, a: usize, b: usize, c: usize, swaps: &mut usize) -> usize {
        let (a, b) = self.order2(a, b, swaps);
        let (b, c) = self.order2(b, c, swaps);
        let _ = c;
        let (_, b) = self.order2(a, b, swaps);
        b
    }

    fn median_adjacent(&self, a: usize, swaps: &mut usize) -> usize {
        self.median(a - 1, a, a + 1, swaps)
    }

    fn reverse_range(&mut self, a: usize, b: usize) {
        let (mut i, mut j) = (a, b - 1);
        while i < j {
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    fn descending(v: &mut [(u64, usize)]) {
        sort(v, &|a, b| a.0 > b.0);
    }

    /// Up to 12 elements Go sorts by insertion: equal elements keep their order.
    #[test]
    fn short_slices_are_stable() {
        let mut v: Vec<(u64, usize)> = [5, 7, 5, 5, 9, 5, 7, 5, 5, 5, 5, 5]
            .into_iter()
            .zip(0..)
            .collect();
        let mut stable = v.clone();
        stable.sort_by_key(|p| core::cmp::Reverse(p.0));
        descending(&mut v);
        assert_eq!(v, stable);
    }

    /// Eleven clusters holding 5 each, then 12 and 16: the order Go's `sort.Sort` leaves
    /// (read from a Go program sorting the same list by the same `Less`).
    #[test]
    fn thirteen_with_ties_follow_go() {
        let mut v: Vec<(u64, usize)> = [5u64; 11].into_iter().chain([12, 16]).zip(1..).collect();
        descending(&mut v);
        let order: Vec<usize> = v.iter().map(|p| p.1).collect();
        assert_eq!(order[..2], [13, 12]);
        assert_eq!(order[2..5], [7, 4, 5]);
    }

    /// Lists long enough for the median-of-medians pivot, the pattern breaking and the
    /// partial insertion sort: the orders Go's `sort.Sort` leaves them in (printed by a Go
    /// program sorting the same keys, descending, by the same `Less`).
    #[test]
    fn long_lists_follow_go() {
        type Key = fn(usize) -> u64;
        let cases: [(usize, Key, &[usize]); 3] = [
            (
                50,
                |i| ((i * 7 + 3) % 5) as u64,
                &[
                    33, 48, 23, 3, 43, 18, 28, 38, 8, 13, 10, 20, 0, 35, 30, 15, 40, 25, 5, 45, 12,
                    32, 22, 47, 2, 17, 42, 27, 7, 37, 9, 4, 14, 49, 34, 19, 24, 29, 44, 39, 6, 41,
                    26, 31, 16, 36, 46, 21, 1, 11,
                ],
            ),
            (
                100,
                |i| ((i * i) % 3) as u64,
                &[
                    50, 92, 2, 98, 4, 5, 97, 7, 8, 95, 10, 11, 94, 13, 14, 91, 16, 17, 89, 49, 20,
                    88, 22, 23, 86, 25, 26, 85, 28, 29, 83, 31, 32, 82, 34, 35, 80, 37, 38, 79, 40,
                    41, 77, 43, 44, 76, 46, 47, 74, 19, 1, 73, 52, 53, 71, 55, 56, 70, 58, 59, 68,
                    61, 62, 67, 64, 65, 33, 30, 60, 69, 57, 54, 72, 51, 36, 75, 84, 42, 78, 39, 48,
                    66, 63, 81, 45, 27, 24, 87, 21, 18, 90, 15, 0, 93, 12, 9, 96, 6, 3, 99,
                ],
            ),
            (
                64,
                |i| (i / 9) as u64,
                &[
                    63, 54, 62, 61, 60, 59, 58, 57, 56, 55, 50, 45, 52, 51, 53, 49, 48, 47, 46, 36,
                    44, 43, 42, 41, 40, 39, 38, 37, 32, 27, 30, 31, 29, 33, 34, 35, 28, 19, 18, 25,
                    24, 23, 22, 21, 20, 26, 14, 9, 16, 15, 17, 13, 12, 11, 10, 0, 8, 7, 6, 5, 4, 3,
                    2, 1,
                ],
            ),
        ];
        for (n, key, go) in cases {
            let mut v: Vec<(u64, usize)> = (0..n).map(|i| (key(i), i)).collect();
            descending(&mut v);
            let got: Vec<usize> = v.iter().map(|p| p.1).collect();
            assert_eq!(got, go, "{n} elements");
        }
    }

    proptest! {
        /// The result is ordered, a permutation of the input, and the same every time.
        #[test]
        fn sorts_deterministically(keys in proptest::collection::vec(0u64..6, 0..300)) {
            let input: Vec<(u64, usize)> = keys.iter().copied().zip(0..).collect();
            let mut a = input.clone();
            descending(&mut a);
            prop_assert!(a.windows(2).all(|w| w[0].0 >= w[1].0));
            let mut ids: Vec<usize> = a.iter().map(|p| p.1).collect();
            ids.sort_unstable();
            prop_assert_eq!(ids, (0..input.len()).collect::<Vec<_>>());
            let mut b = input.clone();
            descending(&mut b);
            prop_assert_eq!(a, b);
        }
    }
}
