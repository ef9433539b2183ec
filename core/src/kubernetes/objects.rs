//! A set of objects as `kubectl get -o json` prints them: one object, a `List` of them (its
//! `items`), or a JSON array; Lists may nest. Each object is read into one [`Object`] whatever
//! its kind, holding every field allot reads of any kind (docs/rules/karmada.md §16); its
//! `kind` says which of them mean something.

use alloc::string::String;
use alloc::vec::Vec;

use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::karmada::{BindingSpec, BindingStatus, ClusterSpec, ClusterStatus, PolicySpec};
use super::workload::{ObjectMeta, WorkloadSpec};

/// Any object.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Object {
    pub api_version: String,
    pub kind: String,
    pub metadata: ObjectMeta,
    pub spec: Spec,
    pub status: Status,
    /// A `List`'s objects.
    pub items: Vec<Object>,
}

/// The spec fields of every kind allot reads. Kinds do not share a field name with different
/// meanings, so one record holds them all.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Spec {
    #[serde(flatten)]
    pub workload: WorkloadSpec,
    #[serde(flatten)]
    pub cluster: ClusterSpec,
    #[serde(flatten)]
    pub policy: PolicySpec,
    #[serde(flatten)]
    pub binding: BindingSpec,
}

/// The status fields of every kind allot reads.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Status {
    #[serde(flatten)]
    pub cluster: ClusterStatus,
    #[serde(flatten)]
    pub binding: BindingStatus,
}

/// A document's objects in order, Lists and arrays opened.
#[derive(Debug, Clone, Default)]
pub struct Objects(pub Vec<Object>);

impl<'de> Deserialize<'de> for Objects {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Top;
        impl<'de> Visitor<'de> for Top {
            type Value = Vec<Object>;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("an object, a List or an array of objects")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Vec<Object>, A::Error> {
                let mut v = Vec::new();
                while let Some(o) = a.next_element()? {
                    v.push(o);
                }
                Ok(v)
            }
            fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<Vec<Object>, A::Error> {
                Object::deserialize(MapAccessDeserializer::new(a)).map(|o| alloc::vec![o])
            }
        }
        let top = d.deserialize_any(Top)?;
        let mut out = Vec::new();
        let mut stack: Vec<Object> = top.into_iter().rev().collect();
        while let Some(mut o) = stack.pop() {
            if o.kind.ends_with("List") {
                stack.extend(core::mem::take(&mut o.items).into_iter().rev());
            } else {
                out.push(o);
            }
        }
        Ok(Objects(out))
    }
}
