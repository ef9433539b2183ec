//! Resource lists keyed by resource name (`cpu`, `memory`, `pods`, `nvidia.com/gpu`, ...), each
//! an exact integer in the resource's [`Unit`] (docs/rules/README.md decisions 1 and 2).
//!
//! In JSON a value is a Kubernetes quantity string (`"500m"`, `"16Gi"`) or a number with the
//! same meaning as its text (`cpu: 0.5` is 500m; `memory: 1024` is 1024 bytes). Lists serialize
//! back as quantity strings.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Path, Result};
use crate::quantity::{self, Unit};
use crate::Name;

/// A resource list: name -> amount in the resource's unit. Absent means 0.
///
/// Kept as one list sorted by name, each name unique, names stored inline ([`Name`]): a list
/// of a few resources is one allocation (a map of strings was one per name and one per node),
/// and finding `cpu` among them compares lengths before any text. Importing 10,000 Clusters
/// copies two such lists each; the estimators look up three resources per cluster.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResourceList(Vec<(Name, u64)>);

impl ResourceList {
    pub fn new() -> Self {
        ResourceList(Vec::new())
    }

    /// The list of `items`, sorted by name; of a name given twice, the last amount is kept.
    fn sorted(mut items: Vec<(Name, u64)>) -> Self {
        // Stable: a name's entries stay in the order given, and the last one is kept.
        items.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(Name, u64)> = Vec::with_capacity(items.len());
        for (k, v) in items {
            match out.last_mut() {
                Some(last) if last.0 == k => last.1 = v,
                _ => out.push((k, v)),
            }
        }
        ResourceList(out)
    }

    /// The position of `name`, or where it would go.
    fn find(&self, name: &str) -> core::result::Result<usize, usize> {
        // A few resources: a scan that compares lengths first is quicker than halving.
        if self.0.len() <= 8 {
            for (i, (k, _)) in self.0.iter().enumerate() {
                if k.len() == name.len() && k.as_str() == name {
                    return Ok(i);
                }
            }
            return Err(self.0.partition_point(|(k, _)| k.as_str() < name));
        }
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(name))
    }

    /// Build from amounts already in units (millicores for CPU, bytes, counts).
    pub fn from_units<'a>(items: impl IntoIterator<Item = (&'a str, u64)>) -> Self {
        Self::sorted(items.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// Parse `{name: quantity string}` pairs; errors are at `field.name`.
    pub fn parse<'a>(
        items: impl IntoIterator<Item = (&'a str, &'a str)>,
        field: &Path,
    ) -> Result<Self> {
        items
            .into_iter()
            .map(|(k, v)| {
                let value = quantity::parse(v, Unit::of(k))
                    .map_err(|e| e.within(&field.clone().field(String::from(k))))?;
                Ok((Name::from(k), value))
            })
            .collect::<Result<_>>()
            .map(Self::sorted)
    }

    /// The amount of `name`, 0 when absent.
    pub fn get(&self, name: &str) -> u64 {
        self.find(name)
            .ok()
            .and_then(|i| self.0.get(i))
            .map_or(0, |&(_, v)| v)
    }

    /// Whether `name` is listed (even with 0).
    pub fn has(&self, name: &str) -> bool {
        self.find(name).is_ok()
    }

    pub fn insert(&mut self, name: &str, value: u64) {
        match self.find(name) {
            Ok(i) => {
                if let Some(slot) = self.0.get_mut(i) {
                    slot.1 = value;
                }
            }
            Err(i) => self.0.insert(i, (name.into(), value)),
        }
    }

    /// Add `amount` to `name` (saturating).
    pub fn add(&mut self, name: &str, amount: u64) {
        self.insert(name, self.get(name).saturating_add(amount));
    }

    /// Add every amount of `other`.
    pub fn add_all(&mut self, other: &ResourceList) {
        for (name, amount) in other.iter() {
            self.add(name, amount);
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        self.0.iter().map(|(k, v)| (k.as_str(), *v))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The resources with a positive amount (what a request actually asks for).
    pub fn positive(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        self.iter().filter(|&(_, v)| v > 0)
    }
}

impl FromIterator<(String, u64)> for ResourceList {
    fn from_iter<T: IntoIterator<Item = (String, u64)>>(iter: T) -> Self {
        Self::sorted(iter.into_iter().map(|(k, v)| (Name::from(k), v)).collect())
    }
}

impl Serialize for ResourceList {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, quantity::format(*v, k))))
    }
}

impl<'de> Deserialize<'de> for ResourceList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        d.deserialize_map(ListVisitor)
    }
}

struct ListVisitor;

impl<'de> Visitor<'de> for ListVisitor {
    type Value = ResourceList;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of resource names to quantities")
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> core::result::Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(name) = map.next_key::<Name>()? {
            if name.is_empty() {
                return Err(de::Error::custom("a resource name must not be empty"));
            }
            let value = map.next_value_seed(QuantitySeed { resource: &name })?;
            out.push((name, value));
        }
        Ok(ResourceList::sorted(out))
    }
}

/// Deserialize one quantity (string or number) for a known resource.
pub struct QuantitySeed<'a> {
    pub resource: &'a str,
}

impl<'de> de::DeserializeSeed<'de> for QuantitySeed<'_> {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> core::result::Result<u64, D::Error> {
        d.deserialize_any(QuantityVisitor {
            resource: self.resource,
        })
    }
}

struct QuantityVisitor<'a> {
    resource: &'a str,
}

impl QuantityVisitor<'_> {
    fn done<E: de::Error>(&self, r: Result<u64>) -> core::result::Result<u64, E> {
        r.map_err(|e: Error| e.into_de())
    }
}

impl<'de> Visitor<'de> for QuantityVisitor<'_> {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a quantity: a number or a string such as \"500m\" or \"16Gi\"")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> core::result::Result<u64, E> {
        self.done(quantity::parse(v, Unit::of(self.resource)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> core::result::Result<u64, E> {
        self.done(quantity::from_i128(v.into(), Unit::of(self.resource)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> core::result::Result<u64, E> {
        self.done(quantity::from_i128(v.into(), Unit::of(self.resource)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> core::result::Result<u64, E> {
        self.done(quantity::from_f64(v, Unit::of(self.resource)))
    }
}

/// A single quantity field whose resource is fixed by context (e.g. a model range of `cpu`).
pub fn deserialize_quantity<'de, D: Deserializer<'de>>(
    d: D,
    resource: &str,
) -> core::result::Result<u64, D::Error> {
    de::DeserializeSeed::deserialize(QuantitySeed { resource }, d)
}

/// eru byte amounts (`memory`, `storage`, volume sizes): a JSON integer, kept as is (eru's own
/// validation reports negative ones with its codes), or a Kubernetes quantity string
/// (`"16Gi"`). Fields use these functions as `#[serde(deserialize_with = ...)]`.
pub mod bytes {
    use alloc::collections::BTreeMap;
    use alloc::string::String;
    use core::fmt;

    use serde::de::{self, Visitor};
    use serde::{Deserialize, Deserializer};

    use crate::error::{Error, Path};
    use crate::quantity::{self, Unit};

    /// One amount.
    struct Amount(i64);

    impl<'de> Deserialize<'de> for Amount {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(AmountVisitor).map(Amount)
        }
    }

    struct AmountVisitor;

    impl Visitor<'_> for AmountVisitor {
        type Value = i64;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("bytes: an integer or a quantity string such as \"16Gi\"")
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
            Ok(v)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
            i64::try_from(v).map_err(|_| too_large().into_de())
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
            if v.is_finite() && v == (v as i64) as f64 {
                Ok(v as i64)
            } else {
                Err(E::invalid_value(
                    de::Unexpected::Float(v),
                    &"bytes as a whole number",
                ))
            }
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<i64, E> {
            let n = quantity::parse(v, Unit::Base).map_err(|e| e.into_de())?;
            i64::try_from(n).map_err(|_| too_large().into_de())
        }
    }

    fn too_large() -> Error {
        Error::TooLarge {
            field: Path::root(),
            limit: i64::MAX as u64,
        }
    }

    /// A byte amount that may be negative (`memory`, `storage`).
    pub fn signed<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        Amount::deserialize(d).map(|a| a.0)
    }

    /// A map of amounts that may be negative (`numaMemory`).
    pub fn signed_map<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, i64>, D::Error> {
        d.deserialize_map(AmountMap(Ok))
    }

    /// A map of sizes that must not be negative (`volumes`, `usageVolumes`).
    pub fn unsigned_map<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<String, u64>, D::Error> {
        d.deserialize_map(AmountMap(|v| u64::try_from(v).map_err(|_| v)))
    }

    /// Reads a map of amounts straight into the map kept, each checked by `.0` (a negative
    /// amount where none may be is returned as `Err(amount)`). A key given twice keeps its
    /// last amount, as serde's maps do.
    struct AmountMap<F>(F);

    impl<'de, T, F: Fn(i64) -> Result<T, i64>> Visitor<'de> for AmountMap<F> {
        type Value = BTreeMap<String, T>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a map")
        }

        fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((key, Amount(v))) = map.next_entry::<String, Amount>()? {
                let value = (self.0)(v).map_err(|value| {
                    Error::Negative {
                        field: Path::root(),
                        value,
                    }
                    .into_de()
                })?;
                out.insert(key, value);
            }
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::BTreeMap;
    use proptest::prelude::*;

    proptest! {
        /// The list answers as a map of names to amounts does: lookups, order, the last of a
        /// name given twice, and its JSON.
        #[test]
        fn behaves_as_a_map(
            given in proptest::collection::vec(
                ("(cpu|memory|pods|a|ab|b|nvidia.com/gpu|[a-z]{1,30})", 0u64..5),
                0..24,
            ),
            inserted in proptest::collection::vec(("(cpu|memory|zz|[a-c]{1,3})", 0u64..5), 0..12),
        ) {
            let mut list: ResourceList =
                given.iter().map(|(k, v)| (String::from(k.as_str()), *v)).collect();
            let mut map: BTreeMap<String, u64> = given.iter().cloned().collect();
            for (k, v) in &inserted {
                list.add(k, *v);
                *map.entry(k.clone()).or_default() += v;
            }
            let listed: Vec<(String, u64)> =
                list.iter().map(|(k, v)| (String::from(k), v)).collect();
            let mapped: Vec<(String, u64)> = map.clone().into_iter().collect();
            prop_assert_eq!(listed, mapped);
            prop_assert_eq!(list.len(), map.len());
            for k in given.iter().map(|g| &g.0).chain(inserted.iter().map(|i| &i.0)) {
                prop_assert_eq!(list.get(k), map.get(k).copied().unwrap_or(0));
                prop_assert!(list.has(k));
            }
            prop_assert!(!list.has("absent-resource"));
            let from_units = ResourceList::from_units(given.iter().map(|(k, v)| (k.as_str(), *v)));
            let units: BTreeMap<String, u64> = given.iter().cloned().collect();
            prop_assert_eq!(from_units.len(), units.len());
            prop_assert_eq!(
                serde_json::to_string(&from_units).unwrap(),
                serde_json::to_string(
                    &units
                        .iter()
                        .map(|(k, &v)| (k.clone(), quantity::format(v, k)))
                        .collect::<BTreeMap<_, _>>()
                )
                .unwrap()
            );
        }
    }

    #[test]
    fn json_numbers_and_strings() {
        let l: ResourceList = serde_json::from_str(
            r#"{"cpu": 0.5, "memory": "16Gi", "pods": 110, "nvidia.com/gpu": "2", "cpu2": 1}"#,
        )
        .unwrap();
        assert_eq!(l.get("cpu"), 500);
        assert_eq!(l.get("memory"), 16 << 30);
        assert_eq!(l.get("pods"), 110);
        assert_eq!(l.get("nvidia.com/gpu"), 2);
        assert_eq!(l.get("absent"), 0);
        let back: ResourceList = serde_json::from_str(&serde_json::to_string(&l).unwrap()).unwrap();
        assert_eq!(back, l);
        let e = serde_json::from_str::<ResourceList>(r#"{"cpu": "lots"}"#).unwrap_err();
        // serde_json words the value's own check as an invalid value; allot's reader keeps
        // its code (see `crate::json`).
        assert!(alloc::format!("{e}").contains("not a quantity"), "{e}");
        let e = crate::json::from_json::<ResourceList>(r#"{"cpu": "lots"}"#).unwrap_err();
        assert_eq!(
            (e.code().as_str(), e.field().text().as_str()),
            ("invalid_quantity", "cpu")
        );
        // A name given twice: the last amount, as a map keeps it.
        let twice: ResourceList =
            serde_json::from_str(r#"{"cpu": 1, "pods": 3, "cpu": 2}"#).unwrap();
        assert_eq!((twice.get("cpu"), twice.len()), (2000, 2));
        assert!(serde_json::from_str::<ResourceList>(r#"{"memory": -1}"#).is_err());
        assert!(serde_json::from_str::<ResourceList>(r#"{"memory": true}"#).is_err());
    }
}
