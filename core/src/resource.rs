//! Resource lists keyed by resource name (`cpu`, `memory`, `pods`, `nvidia.com/gpu`, ...), each
//! an exact integer in the resource's [`Unit`] (spec README decisions 1 and 2).
//!
//! In JSON a value is a Kubernetes quantity string (`"500m"`, `"16Gi"`) or a number with the
//! same meaning as its text (`cpu: 0.5` is 500m; `memory: 1024` is 1024 bytes). Lists serialize
//! back as quantity strings.

use alloc::collections::BTreeMap;
use alloc::string::String;
use core::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Result};
use crate::quantity::{self, Unit};

/// A resource list: name -> amount in the resource's unit. Absent means 0.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResourceList(BTreeMap<String, u64>);

impl ResourceList {
    pub fn new() -> Self {
        ResourceList(BTreeMap::new())
    }

    /// Build from amounts already in units (millicores for CPU, bytes, counts).
    pub fn from_units<'a>(items: impl IntoIterator<Item = (&'a str, u64)>) -> Self {
        ResourceList(items.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// Parse `{name: quantity string}` pairs; errors name `field.name`.
    pub fn parse<'a>(
        items: impl IntoIterator<Item = (&'a str, &'a str)>,
        field: &str,
    ) -> Result<Self> {
        items
            .into_iter()
            .map(|(k, v)| {
                let at = alloc::format!("{field}.{k}");
                Ok((String::from(k), quantity::parse(v, Unit::of(k), &at)?))
            })
            .collect::<Result<_>>()
            .map(ResourceList)
    }

    /// The amount of `name`, 0 when absent.
    pub fn get(&self, name: &str) -> u64 {
        self.0.get(name).copied().unwrap_or(0)
    }

    /// Whether `name` is listed (even with 0).
    pub fn has(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    pub fn insert(&mut self, name: &str, value: u64) {
        self.0.insert(name.into(), value);
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        self.0.iter().map(|(k, &v)| (k.as_str(), v))
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
        ResourceList(iter.into_iter().collect())
    }
}

impl Serialize for ResourceList {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, &v)| (k, quantity::format(v, k))))
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
        let mut out = BTreeMap::new();
        while let Some(name) = map.next_key::<String>()? {
            if name.is_empty() {
                return Err(de::Error::custom("a resource name must not be empty"));
            }
            let value = map.next_value_seed(QuantitySeed { resource: &name })?;
            out.insert(name, value);
        }
        Ok(ResourceList(out))
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
        r.map_err(|e: Error| de::Error::custom(e.tagged()))
    }
}

impl<'de> Visitor<'de> for QuantityVisitor<'_> {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a quantity: a number or a string such as \"500m\" or \"16Gi\"")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> core::result::Result<u64, E> {
        self.done(quantity::parse(v, Unit::of(self.resource), self.resource))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> core::result::Result<u64, E> {
        self.done(quantity::from_i128(
            v.into(),
            Unit::of(self.resource),
            self.resource,
        ))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> core::result::Result<u64, E> {
        self.done(quantity::from_i128(
            v.into(),
            Unit::of(self.resource),
            self.resource,
        ))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> core::result::Result<u64, E> {
        self.done(quantity::from_f64(
            v,
            Unit::of(self.resource),
            self.resource,
        ))
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
/// (`"16Gi"`).
pub mod bytes {
    use alloc::collections::BTreeMap;
    use alloc::string::String;
    use core::fmt;

    use serde::de::{self, Visitor};
    use serde::{Deserialize, Deserializer};

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
            i64::try_from(v).map_err(|_| E::custom(too_large().tagged()))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
            if v.is_finite() && v == (v as i64) as f64 {
                Ok(v as i64)
            } else {
                Err(E::custom("[invalid_input] bytes must be a whole number"))
            }
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<i64, E> {
            let n = quantity::parse(v, Unit::Base, "").map_err(|e| E::custom(e.tagged()))?;
            i64::try_from(n).map_err(|_| E::custom(too_large().tagged()))
        }
    }

    fn too_large() -> crate::Error {
        crate::Error::TooLarge {
            field: String::new(),
            limit: i64::MAX as u64,
        }
    }

    /// A byte amount that may be negative (`memory`, `storage`): read as `i64`.
    pub struct Signed(i64);

    impl<'de> Deserialize<'de> for Signed {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            Amount::deserialize(d).map(|a| Signed(a.0))
        }
    }

    impl From<Signed> for i64 {
        fn from(a: Signed) -> i64 {
            a.0
        }
    }

    /// A map of amounts that may be negative (`numaMemory`).
    pub struct SignedMap(BTreeMap<String, i64>);

    /// A map of sizes that must not be negative (`volumes`, `usageVolumes`).
    pub struct UnsignedMap(BTreeMap<String, u64>);

    impl<'de> Deserialize<'de> for SignedMap {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_map(AmountMap(Ok)).map(SignedMap)
        }
    }

    impl<'de> Deserialize<'de> for UnsignedMap {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_map(AmountMap(|v| u64::try_from(v).map_err(|_| v)))
                .map(UnsignedMap)
        }
    }

    impl From<SignedMap> for BTreeMap<String, i64> {
        fn from(m: SignedMap) -> Self {
            m.0
        }
    }

    impl From<UnsignedMap> for BTreeMap<String, u64> {
        fn from(m: UnsignedMap) -> Self {
            m.0
        }
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
                    de::Error::custom(
                        crate::Error::Negative {
                            field: String::new(),
                            value,
                        }
                        .tagged(),
                    )
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
        // The message carries the code; the path (from the caller's deserializer) the field.
        let mapped = Error::from_deserialize("requests.cpu", &alloc::format!("{e}"));
        assert_eq!(mapped.code(), "invalid_quantity", "{e}");
        assert_eq!(mapped.field(), "requests.cpu");
        assert!(
            !alloc::format!("{mapped}").contains(" at line "),
            "{mapped}"
        );
        assert!(serde_json::from_str::<ResourceList>(r#"{"memory": -1}"#).is_err());
        assert!(serde_json::from_str::<ResourceList>(r#"{"memory": true}"#).is_err());
    }
}
