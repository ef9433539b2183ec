//! The older remainder order, method `name-order` (Karmada <= v1.7; docs/rules/karmada.md §5):
//! after the floor shares, the replicas left over go one each to the clusters by weight
//! descending, then by name ascending. Nothing is random and the previous result plays no
//! part, which is why scaling 7 -> 8 can move a replica that inertia would have kept.

use super::remainder::Entry;

/// Sort `order` (indexes into `entries`) into name order: weight desc, then name asc.
pub fn sort(entries: &[Entry<'_>], order: &mut [usize]) {
    crate::order::sort_indices(order, &|a, b| {
        entries[b]
            .weight
            .cmp(&entries[a].weight)
            .then_with(|| entries[a].name.cmp(entries[b].name))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn heavier_first_then_names_ascending_whatever_the_previous_result() {
        let e = |name, weight, last| Entry { name, weight, last };
        let entries = [e("m3", 1, 9), e("m1", 1, 0), e("m2", 2, 0), e("m0", 1, 5)];
        let mut order: Vec<usize> = (0..entries.len()).collect();
        sort(&entries, &mut order);
        let names: Vec<&str> = order.iter().map(|&i| entries[i].name).collect();
        assert_eq!(names, ["m2", "m0", "m1", "m3"]);
    }
}
