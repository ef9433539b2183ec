//! Which family a scenario belongs to (docs/rules/README.md decision 8): Karmada `clusters` or
//! eru `nodes`, and no field of the other family. The fields a document sets are read off the
//! types themselves (what their serde derives write: a field left at its default is skipped),
//! so a new field needs no entry here; only eru's own field lists are named, because eru's
//! scenario reads a fixed handful of fields and Karmada's keeps growing.

use alloc::format;
use alloc::vec::Vec;
use core::fmt;

use serde::ser::{self, Impossible, Serialize};

use super::{Scenario, Target};
use crate::error::{Error, ErrorCode, Path, Result};
use crate::eru::pipeline::EruNode;

/// Which family a scenario belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family<'a> {
    Karmada(&'a [Target]),
    Eru(&'a [EruNode]),
}

/// The workload and policy fields eru reads; every other field set is Karmada's.
const ERU_WORKLOAD: &[&str] = &["count", "requests", "limits", "cpuBind", "volumes", "gpus"];
const ERU_POLICY: &[&str] = &["strategy", "nodesLimit", "maxDeployCount", "cpumem"];
/// The scenario's own fields an eru scenario may set (the rest: `previous`, `uid`, Karmada's).
const ERU_SCENARIO: &[&str] = &[
    "version",
    "title",
    "description",
    "nodes",
    "workload",
    "policy",
    "seed",
];
/// Of eru's fields, those Karmada does not read.
const ERU_ONLY_WORKLOAD: &[&str] = &["count", "limits", "cpuBind", "volumes", "gpus"];
const ERU_ONLY_POLICY: &[&str] = &["nodesLimit", "maxDeployCount", "cpumem"];

impl Scenario {
    /// Which family the scenario belongs to, after checking the format version and that no
    /// field of the other family is set.
    pub fn family(&self) -> Result<Family<'_>> {
        if self.version != super::FORMAT_VERSION {
            return Err(Error::Input {
                field: "version".into(),
                code: ErrorCode::UnsupportedVersion,
                reason: format!(
                    "this is scenario format version {}; allot {} reads version {}",
                    self.version,
                    crate::VERSION,
                    super::FORMAT_VERSION
                ),
            });
        }
        // A seed the caller cannot hold exactly would be reported as another (JS numbers hold
        // integers up to 2^53), and that seed would not reproduce the outcome.
        if self.seed.is_some_and(|s| s > crate::error::MAX_REPLICAS) {
            return Err(Error::TooLarge {
                field: "seed".into(),
                limit: crate::error::MAX_REPLICAS,
            });
        }
        let workload = set_fields(&self.workload);
        let policy = set_fields(&self.policy);
        match (&self.clusters, &self.nodes) {
            (Some(c), None) => {
                let eru = |set: &[&'static str], only: &[&str], at: &'static str| {
                    set.iter()
                        .find(|f| only.contains(f))
                        .map(|f| Path::fields(at).field(*f))
                };
                match eru(&workload, ERU_ONLY_WORKLOAD, "workload")
                    .or_else(|| eru(&policy, ERU_ONLY_POLICY, "policy"))
                {
                    Some(field) => Err(other_family(field, "eru nodes", "clusters")),
                    None => Ok(Family::Karmada(c)),
                }
            }
            (None, Some(n)) => {
                let karmada = |set: &[&'static str], eru: &[&str], at: Option<&'static str>| {
                    set.iter().find(|f| !eru.contains(f)).map(|f| match at {
                        Some(at) => Path::fields(at).field(*f),
                        None => Path::root().field(*f),
                    })
                };
                match karmada(&workload, ERU_WORKLOAD, Some("workload"))
                    .or_else(|| karmada(&policy, ERU_POLICY, Some("policy")))
                    .or_else(|| karmada(&set_fields(self), ERU_SCENARIO, None))
                {
                    Some(field) => Err(other_family(field, "Karmada clusters", "nodes")),
                    None => Ok(Family::Eru(n)),
                }
            }
            (Some(_), Some(_)) => Err(Error::Input {
                field: "nodes".into(),
                code: ErrorCode::InvalidInput,
                reason: "a scenario has either Karmada `clusters` or eru `nodes`, not both".into(),
            }),
            (None, None) => Err(Error::Input {
                field: "clusters".into(),
                code: ErrorCode::Missing,
                reason: "a scenario lists Karmada `clusters` or eru `nodes`".into(),
            }),
        }
    }
}

fn other_family(field: Path, family: &str, here: &str) -> Error {
    Error::Input {
        field,
        code: ErrorCode::InvalidInput,
        reason: format!("this field is for {family}; this scenario lists {here}"),
    }
}

/// The names of the fields `value` (a struct) writes, in declaration order: those not left
/// at their default (serde's `skip_serializing_if`).
fn set_fields<T: Serialize>(value: &T) -> Vec<&'static str> {
    let mut names = Vec::new();
    // Only a struct can be recorded; anything else records nothing.
    let _ = value.serialize(Names(&mut names));
    names
}

/// A serializer that records a struct's field names and looks at no value.
struct Names<'a>(&'a mut Vec<&'static str>);

#[derive(Debug)]
struct NotAStruct;

impl fmt::Display for NotAStruct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("only a struct's field names are recorded")
    }
}

impl core::error::Error for NotAStruct {}

impl ser::Error for NotAStruct {
    fn custom<T: fmt::Display>(_: T) -> Self {
        NotAStruct
    }
}

impl ser::SerializeStruct for Names<'_> {
    type Ok = ();
    type Error = NotAStruct;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        _: &T,
    ) -> Result<(), NotAStruct> {
        self.0.push(key);
        Ok(())
    }

    fn end(self) -> Result<(), NotAStruct> {
        Ok(())
    }
}

/// Every serializer method but `serialize_struct` answers [`NotAStruct`].
macro_rules! not_a_struct {
    ($($method:ident($($arg:ty),*) -> $ret:ty;)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<$ret, NotAStruct> {
            Err(NotAStruct)
        })*
    };
}

impl<'a> ser::Serializer for Names<'a> {
    type Ok = ();
    type Error = NotAStruct;
    type SerializeSeq = Impossible<(), NotAStruct>;
    type SerializeTuple = Impossible<(), NotAStruct>;
    type SerializeTupleStruct = Impossible<(), NotAStruct>;
    type SerializeTupleVariant = Impossible<(), NotAStruct>;
    type SerializeMap = Impossible<(), NotAStruct>;
    type SerializeStruct = Names<'a>;
    type SerializeStructVariant = Impossible<(), NotAStruct>;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Names<'a>, NotAStruct> {
        Ok(self)
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), NotAStruct> {
        Err(NotAStruct)
    }

    not_a_struct! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Policy, Workload};

    #[test]
    fn set_fields_are_those_not_at_their_default() {
        assert!(set_fields(&Workload::default()).is_empty());
        assert!(set_fields(&Policy::default()).is_empty());
        let w = Workload {
            count: Some(1),
            cpu_bind: true,
            ..Workload::default()
        };
        assert_eq!(set_fields(&w), ["count", "cpuBind"]);
        assert!(set_fields(&3u8).is_empty());
    }
}
