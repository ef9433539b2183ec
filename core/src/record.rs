//! Input structs read from JSON objects field by field (`docs/scenario.md`, "Errors"):
//! one shared `Deserialize` for every struct of the scenario format.
//!
//! A struct lists its fields once, as written in JSON, with [`record!`]; reading starts from
//! the struct with every field at its default and sets each field present. The key lookup, the
//! duplicate and missing checks and their messages (serde's: ``unknown field `x`, expected one
//! of ...``, ``duplicate field `x` ``, ``missing field `x` ``) live here once, not once per
//! struct as serde's derive generates them: across the ~30 input structs that is most of the
//! reader's code in the wasm module.
//!
//! Every record rejects unknown fields. An `Option` field is optional; a field marked
//! `[required]` must be present.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

/// A struct of the scenario format, read by [`deserialize`]. Public for the workspace's tests
/// only (hidden, not a stable API).
pub trait Record: Sized {
    /// The struct's name, as serde's `deserialize_struct` takes it: `Target`.
    const NAME: &'static str;
    /// What a value must be, for messages: `struct Target`.
    const EXPECTING: &'static str;
    /// The fields as written in JSON, in declaration order (at most 64).
    const FIELDS: &'static [&'static str];
    /// Bit `i` set: `FIELDS[i]` must be present.
    const REQUIRED: u64;
    /// The struct before any field is read: every field at its default. It must own no
    /// memory: a field read replaces its start without dropping it (`record_start.rs` in the
    /// workspace's tests checks every record).
    fn start() -> Self;
    /// Read field `index`'s value from `map` into `self`.
    fn field<'de, A: MapAccess<'de>>(&mut self, index: usize, map: &mut A) -> Result<(), A::Error>;
}

/// Read a record from a JSON object.
pub(crate) fn deserialize<'de, T: Record, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_struct(T::NAME, T::FIELDS, RecordVisitor(PhantomData))
}

/// The bits of the fields flagged in `required`.
pub(crate) const fn bits(required: &[bool]) -> u64 {
    assert!(required.len() <= 64, "a record has at most 64 fields");
    let mut mask = 0;
    let mut i = 0;
    while i < required.len() {
        if required[i] {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
}

struct RecordVisitor<T>(PhantomData<T>);

impl<'de, T: Record> Visitor<'de> for RecordVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut value = T::start();
        let mut seen = 0u64;
        while let Some(index) = map.next_key_seed(FieldName(T::FIELDS))? {
            let bit = 1u64 << (index & 63);
            if seen & bit != 0 {
                return Err(duplicate(T::FIELDS, index));
            }
            seen |= bit;
            value.field(index, &mut map)?;
        }
        let missing = T::REQUIRED & !seen;
        if missing != 0 {
            return Err(missing_field(T::FIELDS, missing.trailing_zeros() as usize));
        }
        Ok(value)
    }
}

#[inline(never)]
fn duplicate<E: de::Error>(fields: &'static [&'static str], index: usize) -> E {
    E::duplicate_field(fields.get(index).copied().unwrap_or_default())
}

#[inline(never)]
fn missing_field<E: de::Error>(fields: &'static [&'static str], index: usize) -> E {
    E::missing_field(fields.get(index).copied().unwrap_or_default())
}

/// A key of a record: the index of the field it names.
struct FieldName(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for FieldName {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl Visitor<'_> for FieldName {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<usize, E> {
        // Length and first byte first: most names differ there, sparing a memcmp call.
        let first = key.as_bytes().first();
        self.0
            .iter()
            .position(|f| f.len() == key.len() && f.as_bytes().first() == first && *f == key)
            .ok_or_else(|| E::unknown_field(key, self.0))
    }
}

/// `$m!(T, ...)` with every struct read through [`Record`]: one list for the tests that must
/// cover them all (names read are names written; every start owns no memory).
#[doc(hidden)]
#[macro_export]
macro_rules! for_each_record {
    ($m:ident) => {
        $m!(
            $crate::scenario::Scenario,
            $crate::scenario::Target,
            $crate::scenario::Workload,
            $crate::scenario::Policy,
            $crate::karmada::StaticWeightRule,
            $crate::selector::cluster::ClusterAffinity,
            $crate::selector::cluster::FieldSelector,
            $crate::selector::label::LabelSelector,
            $crate::selector::label::Requirement,
            $crate::selector::node::NodeClaim,
            $crate::selector::node::NodeSelector,
            $crate::selector::node::NodeSelectorTerm,
            $crate::selector::node::Toleration,
            $crate::selector::node::Taint,
            $crate::estimate::quota::ScopeRequirement,
            $crate::estimate::quota::ResourceQuota,
            $crate::estimate::models::ResourceModel,
            $crate::estimate::models::AllocatableModeling,
            $crate::estimate::general::ResourceSummary,
            $crate::estimate::accurate::Pod,
            $crate::estimate::accurate::Node,
            $crate::estimate::accurate::Container,
            $crate::estimate::Gates,
            $crate::estimate::Component,
            $crate::estimate::AssumedWorkload,
            $crate::eru::volume::Disk,
            $crate::eru::volume::Io,
            $crate::eru::cpumem::CpuMemConfig,
            $crate::eru::cpumem::CpuMemUsage,
            $crate::eru::pipeline::EruNode
        )
    };
}

/// Implement `Deserialize` through [`Record`] for a struct, listing its fields as written in
/// JSON. A field's value is read as its own type, or `as` a type that converts into it (byte
/// amounts that may be quantity strings); `[required]` marks a field that must be present.
/// Without `start = ...`, reading starts from `Default::default()`.
macro_rules! record {
    (
        $ty:ident $(start = $start:expr;)? {
            $($field:ident : $json:literal $(as $conv:ty)? $([$required:ident])?),* $(,)?
        }
    ) => {
        impl $crate::record::Record for $ty {
            const NAME: &'static str = stringify!($ty);
            const EXPECTING: &'static str = concat!("struct ", stringify!($ty));
            const FIELDS: &'static [&'static str] = &[$($json),*];
            const REQUIRED: u64 = $crate::record::bits(&[$(record!(@required $($required)?)),*]);

            fn start() -> Self {
                record!(@start $($start)?)
            }

            #[allow(unused_assignments, forgetting_copy_types, clippy::forget_non_drop)]
            fn field<'de, A: serde::de::MapAccess<'de>>(
                &mut self,
                index: usize,
                map: &mut A,
            ) -> Result<(), A::Error> {
                let mut i = 0;
                $(
                    if index == i {
                        // The value replaced is the field's start, which owns no memory
                        // (each field is read at most once): forgetting it leaks nothing and
                        // spares the module a drop of every field type.
                        core::mem::forget(core::mem::replace(
                            &mut self.$field,
                            record!(@read map $($conv)?),
                        ));
                        return Ok(());
                    }
                    i += 1;
                )*
                Ok(())
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::record::deserialize(d)
            }
        }
    };
    (@required required) => { true };
    (@required) => { false };
    (@start $start:expr) => { $start };
    (@start) => { Default::default() };
    (@read $map:ident $conv:ty) => { $map.next_value::<$conv>()?.into() };
    (@read $map:ident) => { $map.next_value()? };
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use serde::ser::{self, Impossible, Serialize, SerializeStruct};

    use super::Record;

    /// The field names a struct's derived `Serialize` writes (or skips), in order.
    #[derive(Default)]
    struct Keys(Vec<&'static str>);

    #[derive(Debug)]
    struct NotAStruct;

    impl core::fmt::Display for NotAStruct {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("not a struct")
        }
    }

    impl core::error::Error for NotAStruct {}

    impl ser::Error for NotAStruct {
        fn custom<T: core::fmt::Display>(_: T) -> Self {
            NotAStruct
        }
    }

    macro_rules! refuse {
        ($($method:ident($($arg:ty),*))*) => {
            $(fn $method(self, $(_: $arg),*) -> Result<(), NotAStruct> { Err(NotAStruct) })*
        };
    }

    impl<'a> ser::Serializer for &'a mut Keys {
        type Ok = ();
        type Error = NotAStruct;
        type SerializeSeq = Impossible<(), NotAStruct>;
        type SerializeTuple = Impossible<(), NotAStruct>;
        type SerializeTupleStruct = Impossible<(), NotAStruct>;
        type SerializeTupleVariant = Impossible<(), NotAStruct>;
        type SerializeMap = Impossible<(), NotAStruct>;
        type SerializeStruct = &'a mut Keys;
        type SerializeStructVariant = Impossible<(), NotAStruct>;

        refuse! {
            serialize_bool(bool) serialize_i8(i8) serialize_i16(i16) serialize_i32(i32)
            serialize_i64(i64) serialize_u8(u8) serialize_u16(u16) serialize_u32(u32)
            serialize_u64(u64) serialize_f32(f32) serialize_f64(f64) serialize_char(char)
            serialize_str(&str) serialize_bytes(&[u8]) serialize_none() serialize_unit()
            serialize_unit_struct(&'static str)
            serialize_unit_variant(&'static str, u32, &'static str)
        }

        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), NotAStruct> {
            Err(NotAStruct)
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: &T,
        ) -> Result<(), NotAStruct> {
            Err(NotAStruct)
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), NotAStruct> {
            Err(NotAStruct)
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotAStruct> {
            Err(NotAStruct)
        }
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NotAStruct> {
            Err(NotAStruct)
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct, NotAStruct> {
            Err(NotAStruct)
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, NotAStruct> {
            Err(NotAStruct)
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotAStruct> {
            Err(NotAStruct)
        }
        fn serialize_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStruct, NotAStruct> {
            Ok(self)
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, NotAStruct> {
            Err(NotAStruct)
        }
    }

    impl SerializeStruct for &mut Keys {
        type Ok = ();
        type Error = NotAStruct;

        fn serialize_field<T: Serialize + ?Sized>(
            &mut self,
            key: &'static str,
            _: &T,
        ) -> Result<(), NotAStruct> {
            self.0.push(key);
            Ok(())
        }
        fn skip_field(&mut self, key: &'static str) -> Result<(), NotAStruct> {
            self.0.push(key);
            Ok(())
        }
        fn end(self) -> Result<(), NotAStruct> {
            Ok(())
        }
    }

    fn written<T: Record + Serialize>() -> Vec<&'static str> {
        let mut keys = Keys::default();
        T::start().serialize(&mut keys).expect("a struct");
        keys.0
    }

    /// Every record reads exactly the field names its `Serialize` writes, so a scenario
    /// written by allot reads back, and the two lists cannot drift apart.
    #[test]
    fn every_record_reads_the_names_it_writes() {
        macro_rules! check {
            ($($t:ty),*) => {
                $(assert_eq!(written::<$t>(), <$t as Record>::FIELDS, stringify!($t));)*
            };
        }
        crate::for_each_record!(check);
    }

    /// The starting value of a record is what an empty object reads as (for records without
    /// required fields), and the required fields are reported by name.
    #[test]
    fn defaults_and_required_fields() {
        use crate::estimate::Gates;
        use crate::scenario::json::from_json;
        use crate::scenario::Policy;

        let gates: Gates = from_json("{}").unwrap();
        assert_eq!(gates, Gates::default());
        assert!(gates.customized_cluster_resource_modeling);
        let policy: Policy = from_json("{}").unwrap();
        assert_eq!(policy.cpumem.share_base, 100);
        assert_eq!(policy.cpumem.max_share, -1);

        for (text, expected) in [
            ("{\"weight\": 2}", "name: required but missing"),
            (
                "{\"name\": \"a\", \"name\": \"b\"}",
                "duplicate field `name`",
            ),
            (
                "{\"name\": \"a\", \"nmae\": 1}",
                "nmae: unknown field `nmae`, expected one of `name`",
            ),
        ] {
            let e = from_json::<crate::scenario::Target>(text).unwrap_err();
            assert!(alloc::format!("{e}").contains(expected), "{text}: {e}");
        }
    }
}
