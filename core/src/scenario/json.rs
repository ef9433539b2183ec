//! Scenario documents as JSON text (`docs/scenario.md`): reading with errors that name the
//! offending field's path.
//!
//! The text is parsed once into a JSON value; a small deserializer over that value then builds
//! the typed document and, when something does not fit, says where
//! (`clusters[1].resourceSummary.allocatable.cpu`). The deserializer offers structs only as
//! objects and field names only as strings, so the sequence and byte forms serde's derives
//! generate are never reachable and drop out of the wasm module. Syntax errors are located by
//! [`path_at`] from serde_json's line and column.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess};
use serde::de::{Deserializer, Unexpected, Visitor};
use serde_json::Value;

use crate::error::{Error, Result};

/// Read a `T` (a [`super::Scenario`], a list of resource models, ...) from JSON text.
pub fn from_json<T: DeserializeOwned>(text: &str) -> Result<T> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let message = alloc::format!("{e}");
        Error::from_deserialize(&path_at(text, e.line(), e.column()), &message)
    })?;
    from_value(&value)
}

/// Read a `T` from a parsed JSON value.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T> {
    T::deserialize(De {
        value,
        chain: &Chain::Root,
    })
    .map_err(|e| {
        let path = e.path.unwrap_or_default();
        Error::from_deserialize(&path, &e.message)
    })
}

/// Where a value sits, built into a string only when an error needs it.
enum Chain<'a> {
    Root,
    Key(&'a Chain<'a>, &'a str),
    Index(&'a Chain<'a>, usize),
}

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Chain::Root => Ok(()),
            Chain::Key(Chain::Root, k) => f.write_str(k),
            Chain::Key(parent, k) => write!(f, "{parent}.{k}"),
            Chain::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// A deserialization error and the path of the innermost value it arose in.
#[derive(Debug)]
struct PathError {
    path: Option<String>,
    message: String,
}

impl PathError {
    fn at(mut self, chain: &Chain<'_>) -> Self {
        if self.path.is_none() {
            self.path = Some(alloc::format!("{chain}"));
        }
        self
    }
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl core::error::Error for PathError {}

impl de::Error for PathError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        PathError {
            path: None,
            message: alloc::format!("{msg}"),
        }
    }
}

type R<T> = core::result::Result<T, PathError>;

#[derive(Clone, Copy)]
struct De<'a> {
    value: &'a Value,
    chain: &'a Chain<'a>,
}

impl De<'_> {
    fn unexpected(&self) -> Unexpected<'_> {
        match self.value {
            Value::Null => Unexpected::Unit,
            Value::Bool(b) => Unexpected::Bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => Unexpected::Unsigned(u),
                (_, Some(i), _) => Unexpected::Signed(i),
                (_, _, f) => Unexpected::Float(f.unwrap_or(0.0)),
            },
            Value::String(s) => Unexpected::Str(s),
            Value::Array(_) => Unexpected::Seq,
            Value::Object(_) => Unexpected::Map,
        }
    }

    fn seq<'de, V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        match self.value {
            Value::Array(items) => visitor.visit_seq(Seq {
                items: items.iter(),
                index: 0,
                chain: self.chain,
            }),
            _ => Err(de::Error::invalid_type(self.unexpected(), &visitor)),
        }
    }

    fn map<'de, V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        match self.value {
            Value::Object(entries) => visitor.visit_map(Map {
                entries: entries.iter(),
                pending: None,
                chain: self.chain,
            }),
            _ => Err(de::Error::invalid_type(self.unexpected(), &visitor)),
        }
    }
}

impl<'de> Deserializer<'de> for De<'_> {
    type Error = PathError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => visitor.visit_u64(u),
                (_, Some(i)) => visitor.visit_i64(i),
                _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => visitor.visit_str(s),
            Value::Array(_) => self.seq(visitor),
            Value::Object(_) => self.map(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        self.seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        self.map(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        self.map(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        match self.value {
            Value::String(s) => visitor.visit_str(s),
            _ => Err(de::Error::invalid_type(self.unexpected(), &visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        // Every enum of the format is a plain string.
        match self.value {
            Value::String(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            _ => Err(de::Error::invalid_type(self.unexpected(), &visitor)),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> R<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct tuple tuple_struct
    }
}

struct Seq<'a> {
    items: core::slice::Iter<'a, Value>,
    index: usize,
    chain: &'a Chain<'a>,
}

impl<'de> SeqAccess<'de> for Seq<'_> {
    type Error = PathError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> R<Option<T::Value>> {
        let Some(value) = self.items.next() else {
            return Ok(None);
        };
        let chain = Chain::Index(self.chain, self.index);
        self.index += 1;
        seed.deserialize(De {
            value,
            chain: &chain,
        })
        .map(Some)
        .map_err(|e| e.at(&chain))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// A map key: always a string.
struct Key<'a>(&'a str);

impl<'de> Deserializer<'de> for Key<'_> {
    type Error = PathError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_str(self.0)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

struct Map<'a> {
    entries: serde_json::map::Iter<'a>,
    pending: Option<(&'a str, &'a Value)>,
    chain: &'a Chain<'a>,
}

impl<'de> MapAccess<'de> for Map<'_> {
    type Error = PathError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> R<Option<K::Value>> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.pending = Some((key, value));
        seed.deserialize(Key(key))
            .map(Some)
            .map_err(|e| e.at(&Chain::Key(self.chain, key)))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> R<V::Value> {
        let Some((key, value)) = self.pending.take() else {
            return Err(de::Error::custom("a value without a key"));
        };
        let chain = Chain::Key(self.chain, key);
        seed.deserialize(De {
            value,
            chain: &chain,
        })
        .map_err(|e| e.at(&chain))
    }
}

enum Frame<'a> {
    Object { key: Option<&'a str> },
    Array { index: usize, started: bool },
}

fn path_of(frames: &[Frame<'_>]) -> String {
    let mut out = String::new();
    for f in frames {
        match f {
            Frame::Object { key: Some(k) } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Frame::Array {
                index,
                started: true,
            } => {
                out.push_str(&alloc::format!("[{index}]"));
            }
            _ => {}
        }
    }
    out
}

/// The path of the field at `line` (1-based) and `column` (bytes consumed on that line), as
/// serde_json reports positions: the last key or element read, or the object or array just
/// closed (a missing field is reported at its object's closing brace).
pub fn path_at(text: &str, line: usize, column: usize) -> String {
    let start: usize = text
        .split('\n')
        .take(line.saturating_sub(1))
        .map(|l| l.len() + 1)
        .sum();
    let end = start.saturating_add(column).min(text.len());
    let bytes = &text.as_bytes()[..end];
    let mut frames: Vec<Frame<'_>> = Vec::new();
    let mut expect_key = false;
    let mut closed: Option<String> = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if !matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b':' | b',' | b'}' | b']') {
            closed = None;
            if let Some(Frame::Array { started, .. }) = frames.last_mut() {
                *started = true;
            }
        }
        match c {
            b'"' => {
                let from = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let to = i.min(bytes.len());
                if expect_key {
                    if let Some(Frame::Object { key }) = frames.last_mut() {
                        *key = text.get(from..to);
                    }
                    expect_key = false;
                }
            }
            b'{' => {
                frames.push(Frame::Object { key: None });
                expect_key = true;
            }
            b'[' => frames.push(Frame::Array {
                index: 0,
                started: false,
            }),
            b'}' | b']' => {
                let depth = frames.len().saturating_sub(1);
                closed = Some(path_of(&frames[..depth]));
                frames.truncate(depth);
                expect_key = false;
            }
            b',' => match frames.last_mut() {
                Some(Frame::Object { key }) => {
                    *key = None;
                    expect_key = true;
                }
                Some(Frame::Array { index, started }) => {
                    *index += 1;
                    *started = false;
                }
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    closed.unwrap_or_else(|| path_of(&frames))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    fn path(text: &str) -> (String, &'static str) {
        let e = from_json::<Scenario>(text).unwrap_err();
        (e.field().into(), e.code())
    }

    #[test]
    fn errors_name_the_field() {
        let p = |s: &str, c: &'static str| (String::from(s), c);
        assert_eq!(
            path(r#"{"version":1,"clusters":[{"name":"a","wieght":1}]}"#),
            p("clusters[0].wieght", "invalid_input")
        );
        assert_eq!(
            path(r#"{"version":1,"clusters":[{"name":"a"}],"workload":{"replicas":"three"}}"#),
            p("workload.replicas", "invalid_input")
        );
        assert_eq!(
            path(r#"{"clusters":[{"name":"a"}]}"#),
            p("version", "missing")
        );
        assert_eq!(
            path("{\"version\":1,\n \"clusters\":[{\"name\":\"a\"},\n  {\"weight\":1}]}"),
            p("clusters[1].name", "missing")
        );
        assert_eq!(
            path(
                r#"{"version":1,"clusters":[{"name":"a","resourceSummary":{"allocatable":{"memory":"16 GB"}}}]}"#
            ),
            p(
                "clusters[0].resourceSummary.allocatable.memory",
                "invalid_quantity"
            )
        );
        assert_eq!(
            path(r#"{"version":1,"clusters":[{"name":"a"},{"name":"b","zones":["x",3]}]}"#),
            p("clusters[1].zones[1]", "invalid_input")
        );
        assert_eq!(
            path(r#"{"version":1,"clusters":[{"name":"a\"}\"","labels":{"x":1}}]}"#),
            p("clusters[0].labels.x", "invalid_input")
        );
        assert_eq!(path(r#"{"version":1} x"#), p("", "invalid_input"));
    }

    #[test]
    fn positions_past_the_end_are_clamped() {
        assert_eq!(path_at("[1,2", 9, 99), "[1]");
        assert_eq!(path_at("", 1, 1), "");
    }
}
