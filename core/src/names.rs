//! Positions of names in a list (clusters, nodes): lookups by name, and the check that names
//! are present and unique (errors name `list[i].name`, docs/rules/karmada.md §0).
//!
//! A small open-addressing hash table over the names, built on every call for lists of up to
//! 2^20 names. Measured against the standard ways (a `BTreeMap`, or the names sorted and
//! bisected): those make a 10,000-cluster Webster scenario 1.6x slower, and a general hash map
//! with the fixed seed a wasm module has could be driven quadratic by a crafted list. It is
//! not there for size: the `BTreeMap` version of the package is 1.5 KB gzip smaller.
//! The hash has no secret seed, so a crafted list could make many names collide: building
//! counts its probes, and past a budget linear in the list it falls back to a sorted index,
//! so no input makes it slower than O(n log n).

use alloc::vec::Vec;

/// A name (cluster, region, provider): stored inline up to 24 bytes, so reading, cloning
/// and comparing the names of 10,000 clusters allocates nothing (README, "Decisions worth knowing").
/// Serialized as a plain string.
pub type Name = compact_str::CompactString;

use crate::error::{indexed, Error, Result};

/// Names by position, searchable.
pub(crate) struct NameIndex<'a> {
    /// The names with their prefixes: a lookup compares numbers, and reads no stored name's
    /// text when the name is at most 16 bytes long.
    names: Vec<Prefixed<'a>>,
    table: Table<'a>,
    /// The first position (in list order) whose name an earlier position has.
    first_repeat: Option<usize>,
}

enum Table<'a> {
    /// Slots holding position + 1 (0: empty); the length is a power of two.
    Hashed(Vec<u32>),
    /// Each name with its position, by name and then position.
    Sorted(Vec<(&'a str, usize)>),
}

impl<'a> NameIndex<'a> {
    /// Index `names` by position. A name given twice is found at its last position, as in a
    /// map filled in order.
    pub(crate) fn new(names: impl Iterator<Item = &'a str>) -> Self {
        let names: Vec<Prefixed<'a>> = names.map(Prefixed::new).collect();
        let table = hashed(&names, hash);
        Self::build(names, table)
    }

    /// The index over `names` with its hash `table`, or sorted when there is none.
    fn build(names: Vec<Prefixed<'a>>, table: Option<(Vec<u32>, Option<usize>)>) -> Self {
        match table {
            Some((slots, first_repeat)) => NameIndex {
                names,
                table: Table::Hashed(slots),
                first_repeat,
            },
            None => {
                let mut sorted: Vec<(&str, usize)> =
                    names.iter().enumerate().map(|(i, n)| (n.name, i)).collect();
                // Pairs are distinct, so the unstable sort has one answer.
                sorted.sort_unstable();
                let first_repeat = sorted
                    .windows(2)
                    .filter(|w| w[0].0 == w[1].0)
                    .map(|w| w[1].1)
                    .min();
                NameIndex {
                    names,
                    table: Table::Sorted(sorted),
                    first_repeat,
                }
            }
        }
    }

    /// Index `names`, which must be non-empty and unique: else the error names `list[i].name`
    /// for the first `i` (in list order) that is empty or repeats an earlier name.
    pub(crate) fn unique(names: impl Iterator<Item = &'a str>, list: &'static str) -> Result<Self> {
        let index = NameIndex::new(names);
        let empty = index.names.iter().position(|n| n.name.is_empty());
        match (empty, index.first_repeat) {
            (Some(i), r) if r.is_none_or(|r| i < r) => Err(Error::EmptyName {
                field: indexed(list, i).field("name"),
            }),
            (_, Some(i)) => Err(Error::DuplicateName {
                field: indexed(list, i).field("name"),
                name: index.names.get(i).map_or("", |n| n.name).into(),
            }),
            _ => Ok(index),
        }
    }

    /// The position of `name`.
    pub(crate) fn get(&self, name: &str) -> Option<usize> {
        match &self.table {
            Table::Hashed(slots) => {
                let mask = slots.len() - 1;
                let probe = Prefixed::new(name);
                let mut at = hash(&probe) & mask;
                loop {
                    let i = (*slots.get(at)? as usize).checked_sub(1)?;
                    if self.names.get(i) == Some(&probe) {
                        return Some(i);
                    }
                    at = (at + 1) & mask;
                }
            }
            Table::Sorted(sorted) => {
                let end = sorted.partition_point(|&(n, _)| n <= name);
                let &(found, i) = sorted.get(end.checked_sub(1)?)?;
                (found == name).then_some(i)
            }
        }
    }

    /// Whether `name` is in the list.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

/// The hash table of `names` and the first repeat, or `None` when the names collide so much
/// that building it would take more than a few probes per name.
fn hashed(
    names: &[Prefixed<'_>],
    hash: impl Fn(&Prefixed<'_>) -> usize,
) -> Option<(Vec<u32>, Option<usize>)> {
    let size = (names.len() * 2).max(8).next_power_of_two();
    let mask = size - 1;
    let mut slots = alloc::vec![0u32; size];
    let mut budget = 8 * names.len() + 64;
    let mut first_repeat = None;
    for (i, name) in names.iter().enumerate() {
        let mut at = hash(name) & mask;
        loop {
            let slot = slots.get_mut(at)?;
            match (*slot as usize).checked_sub(1) {
                None => {
                    *slot = u32::try_from(i + 1).ok()?;
                    break;
                }
                Some(j) if names.get(j) == Some(name) => {
                    first_repeat = first_repeat.or(Some(i));
                    *slot = u32::try_from(i + 1).ok()?;
                    break;
                }
                Some(_) => {
                    budget = budget.checked_sub(1)?;
                    at = (at + 1) & mask;
                }
            }
        }
    }
    Some((slots, first_repeat))
}

/// A name with its first 16 bytes as two words ([`Prefix`]), ordered and compared as text.
/// Where two prefixes differ, the names order as their prefixes do; where they are equal and
/// both names are at most 16 bytes long, the shorter comes first. Only longer names with a
/// common 16-byte start compare their text. Sorting 10,000 cluster names, or looking up the
/// keys of 200,000 taints, then costs integer comparisons, not a call to `memcmp` each.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Prefixed<'a> {
    prefix: Prefix,
    name: &'a str,
}

impl<'a> Prefixed<'a> {
    #[inline]
    pub(crate) fn new(name: &'a str) -> Self {
        Prefixed {
            prefix: prefix(name.as_bytes()),
            name,
        }
    }

    /// The name itself.
    pub(crate) fn name(&self) -> &'a str {
        self.name
    }
}

/// The first 16 bytes of `b` as a [`Prefix`]. Read as whole
/// words, the last word overlapping the one before it and shifted past the overlap: copying
/// the bytes into a zeroed buffer and reading it back made the processor wait for the copy (a
/// store-to-load forwarding stall) on every taint key and value of a filter pass.
fn prefix(b: &[u8]) -> Prefix {
    let n = b.len();
    let be = |w: &[u8; 8]| u64::from_be_bytes(*w);
    if let (Some(first), Some(last)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        if let Some(second) = b.get(8..).and_then(<[u8]>::first_chunk::<8>) {
            return [be(first), be(second)];
        }
        // 8..16 bytes: `last` ends with bytes 8..n, after 16-n bytes of overlap.
        let tail = be(last).checked_shl(8 * (16 - n) as u32).unwrap_or(0);
        return [be(first), tail];
    }
    if let (Some(first), Some(last)) = (b.first_chunk::<4>(), b.last_chunk::<4>()) {
        // 4..8 bytes, the same way in 32-bit words.
        let tail = u32::from_be_bytes(*last)
            .checked_shl(8 * (8 - n) as u32)
            .unwrap_or(0);
        return [
            u64::from(u32::from_be_bytes(*first)) << 32 | u64::from(tail),
            0,
        ];
    }
    // Under 4 bytes: each in its place.
    let word = b
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &x)| acc | u64::from(x) << (56 - 8 * i));
    [word, 0]
}

/// A name's first 16 bytes as two big-endian words, zero-padded: compared as an array, they
/// order as the bytes do. (Two words rather than one 128-bit number: wasm has no 128-bit
/// arithmetic, and the shifts it would emulate cost the module a kilobyte.)
type Prefix = [u64; 2];

impl Ord for Prefixed<'_> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        let (a, b) = (self.name, other.name);
        self.prefix.cmp(&other.prefix).then_with(|| {
            if a.len() <= 16 && b.len() <= 16 {
                a.len().cmp(&b.len())
            } else {
                a.cmp(b)
            }
        })
    }
}

impl PartialOrd for Prefixed<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The same text: the same prefix and length, and for names longer than 16 bytes the same
/// bytes after the prefix (what [`Ord`] calls equal, without ordering the rest).
impl PartialEq for Prefixed<'_> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.name.as_bytes(), other.name.as_bytes());
        self.prefix == other.prefix
            && a.len() == b.len()
            && (a.len() <= 16 || a.get(16..) == b.get(16..))
    }
}

impl Eq for Prefixed<'_> {}

/// A hash of a name from its prefix and length, and for names longer than 16 bytes every word
/// after the prefix (the last one overlapping), each folded in with a multiply-xorshift mix.
/// 64-bit operations only: wasm has no wide multiply.
#[inline]
fn hash(name: &Prefixed<'_>) -> usize {
    let (p, b) = (name.prefix, name.name.as_bytes());
    let n = b.len();
    let mut h = mix((n as u64).wrapping_mul(K) ^ p[0]) ^ p[1];
    let mut at = 16;
    while at < n {
        h = mix(h ^ word(b, at.min(n.saturating_sub(8))));
        at += 8;
    }
    mix(h) as usize
}

const K: u64 = 0x9e37_79b9_7f4a_7c15;

#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 32;
    x = x.wrapping_mul(K);
    x ^ (x >> 29)
}

/// The 8 bytes at `at`, little-endian.
fn word(b: &[u8], at: usize) -> u64 {
    let bytes = b.get(at..at + 8).and_then(|s| <[u8; 8]>::try_from(s).ok());
    bytes.map_or(0, u64::from_le_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_the_first_sixteen_bytes_zero_padded() {
        let text = "abcdefghijklmnopqrstu\u{e9}";
        for end in 0..=text.len() {
            let b = &text.as_bytes()[..end];
            let mut padded = [0u8; 16];
            let n = end.min(16);
            padded[..n].copy_from_slice(&b[..n]);
            let (hi, lo) = padded.split_at(8);
            let word = |w: &[u8]| u64::from_be_bytes(w.try_into().unwrap());
            assert_eq!(prefix(b), [word(hi), word(lo)], "{end} bytes");
        }
    }

    #[test]
    fn prefixed_names_order_and_compare_as_text() {
        let names = [
            "",
            "a",
            "a\0",
            "ab",
            "member-10",
            "member-9",
            "member-cluster-us-east-1",
            "member-cluster-us-east-2",
            "member-cluster-us-east",
            "zz",
            "\u{e9}",
        ];
        for a in names {
            for b in names {
                let (pa, pb) = (Prefixed::new(a), Prefixed::new(b));
                assert_eq!(pa.cmp(&pb), a.cmp(b), "{a:?} vs {b:?}");
                assert_eq!(pa == pb, a == b, "{a:?} vs {b:?}");
            }
        }
    }
    use alloc::format;
    use alloc::string::String;

    fn check(index: &NameIndex<'_>, names: &[&str]) {
        for (i, n) in names.iter().enumerate() {
            let last = names.iter().rposition(|m| m == n);
            assert_eq!(index.get(n), last, "{n} at {i}");
        }
        let absent = [
            "",
            "m",
            "m0",
            "m11",
            "m4",
            "z",
            "member-x",
            "node.kubernetes.io/unreachablE",
        ];
        for absent in absent {
            if !names.contains(&absent) {
                assert!(!index.contains(absent), "{absent}");
            }
        }
    }

    #[test]
    fn finds_every_name_and_only_those() {
        let names = [
            "m3",
            "m1",
            "m10",
            "m2",
            "m1",
            "a name longer than one word",
            "node.kubernetes.io/unreachable",
            "node.kubernetes.io/not-ready",
            "node.kubernetes.io/not-ready2",
            "node.kubernetes.",
            "node.kubernetes.i",
        ];
        check(&NameIndex::new(names.iter().copied()), &names);
        assert!(!NameIndex::new([].into_iter()).contains("a"));
        let many: Vec<String> = (0..5000).map(|i| format!("member-{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let index = NameIndex::new(many.iter().copied());
        assert!(matches!(index.table, Table::Hashed(_)));
        check(&index, &many);
    }

    proptest::proptest! {
        /// Short names, and long ones sharing their first 16 bytes: the index finds what a
        /// search of the list finds (the last position), both ways of building it.
        #[test]
        fn the_index_finds_what_a_search_finds(
            names in proptest::collection::vec("[ab]{0,3}(node\\.kubernetes\\.io/[ab]{0,3})?", 0..40),
            probe in "[ab]{0,3}(node\\.kubernetes\\.io/[ab]{0,3})?",
        ) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let prefixed: Vec<Prefixed<'_>> = names.iter().copied().map(Prefixed::new).collect();
            let table = hashed(&prefixed, hash);
            for index in [
                NameIndex::build(prefixed.clone(), table),
                NameIndex::build(prefixed.clone(), None),
            ] {
                for n in names.iter().copied().chain([probe.as_str()]) {
                    proptest::prop_assert_eq!(index.get(n), names.iter().rposition(|m| *m == n));
                }
            }
        }
    }

    #[test]
    fn colliding_names_fall_back_to_the_sorted_index() {
        let names: Vec<String> = (0..300).map(|i| format!("n{}", i % 250)).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        // Every name in one slot: the probe budget runs out and the index is sorted.
        let prefixed: Vec<Prefixed<'_>> = names.iter().copied().map(Prefixed::new).collect();
        let table = hashed(&prefixed, |_| 7);
        assert!(table.is_none());
        let index = NameIndex::build(prefixed.clone(), table);
        assert!(matches!(index.table, Table::Sorted(_)));
        check(&index, &names);
        assert_eq!(index.first_repeat, Some(250));
        // A few collisions stay within the budget.
        assert!(hashed(&prefixed[..6], |n| n.name.len()).is_some());
    }

    #[test]
    fn uniqueness_errors_name_the_first_offender_in_list_order() {
        let check = |names: &[&str]| match NameIndex::unique(names.iter().copied(), "clusters") {
            Ok(_) => String::new(),
            Err(e) => format!("{} {}", e.code(), e.field()),
        };
        assert_eq!(check(&["a", "b", "c"]), "");
        assert_eq!(
            check(&["b", "a", "b", "a"]),
            "duplicate_name clusters[2].name"
        );
        assert_eq!(
            check(&["b", "a", "a", "b"]),
            "duplicate_name clusters[2].name"
        );
        assert_eq!(check(&["a", "", "a"]), "empty_name clusters[1].name");
        assert_eq!(check(&["a", "a", ""]), "duplicate_name clusters[1].name");
        assert_eq!(check(&["", ""]), "empty_name clusters[0].name");
    }
}
