//! Tie rules for Webster seat allocation (docs/rules/karmada.md §2, step 3.2).
//!
//! Karmada breaks equal priorities first by fewer current seats, then by cluster name, ascending
//! when the ResourceBinding UID is empty or its FNV-1a-32 hash is even, descending when odd.

use core::cmp::Ordering;

/// Direction in which names break ties.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum NameOrder {
    Ascending,
    Descending,
}

/// How Webster orders two seats of equal priority.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TieBreak {
    /// Whether the party with fewer current seats wins before names are compared.
    pub fewer_seats_first: bool,
    /// Name direction used after seats.
    pub names: NameOrder,
}

impl TieBreak {
    /// Webster's own default: fewer seats, then name ascending.
    pub const DEFAULT: TieBreak = TieBreak {
        fewer_seats_first: true,
        names: NameOrder::Ascending,
    };

    /// Karmada's UID rule: fewer seats, then names ascending if the UID is empty or
    /// FNV-1a-32(UID) is even, descending if odd.
    pub fn from_uid(uid: &str) -> TieBreak {
        let names = if !uid.is_empty() && fnv1a32(uid.as_bytes()) % 2 == 1 {
            NameOrder::Descending
        } else {
            NameOrder::Ascending
        };
        TieBreak {
            fewer_seats_first: true,
            names,
        }
    }

    /// A tie rule that compares names only (used by Karmada's own tests).
    pub fn names_only(names: NameOrder) -> TieBreak {
        TieBreak {
            fewer_seats_first: false,
            names,
        }
    }

    /// Order two names: `Less` means `a` wins the tie.
    pub fn compare_names(&self, a: &str, b: &str) -> Ordering {
        match self.names {
            NameOrder::Ascending => a.cmp(b),
            NameOrder::Descending => b.cmp(a),
        }
    }
}

impl Default for TieBreak {
    fn default() -> Self {
        TieBreak::DEFAULT
    }
}

/// FNV-1a, 32 bits, as Go's `hash/fnv` New32a.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for &b in bytes {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_known_values() {
        // Reference values of FNV-1a 32 (from the FNV specification's test suite).
        assert_eq!(fnv1a32(b""), 0x811c_9dc5);
        assert_eq!(fnv1a32(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a32(b"foobar"), 0xbf9c_f968);
    }

    #[test]
    fn uid_parity_picks_direction() {
        assert_eq!(TieBreak::from_uid("").names, NameOrder::Ascending);
        // fnv("a") = 0xe40c292c is even, fnv("foobar") = 0xbf9cf968 even too; find odd ones.
        let odd = (0..100u32)
            .map(|i| alloc::format!("uid-{i}"))
            .find(|u| fnv1a32(u.as_bytes()) % 2 == 1)
            .expect("some uid hashes odd");
        assert_eq!(TieBreak::from_uid(&odd).names, NameOrder::Descending);
        let even = (0..100u32)
            .map(|i| alloc::format!("uid-{i}"))
            .find(|u| fnv1a32(u.as_bytes()) % 2 == 0)
            .expect("some uid hashes even");
        assert_eq!(TieBreak::from_uid(&even).names, NameOrder::Ascending);
    }
}
