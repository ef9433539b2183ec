//! Scenario documents already parsed into a `serde_json::Value` (the playground edits them in
//! that form): the same typed reading as [`super::from_json`], with errors that name the
//! offending field's path. Only with the `value` feature.
//!
//! Keys are visited in the order of `serde_json`'s map (sorted, unless its `preserve_order`
//! feature is on), so a document with several problems may report another one first than the
//! text reader, which goes in document order.

use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess};
use serde::de::{Deserializer, Unexpected, Visitor};
use serde_json::Value;

use super::path::{Chain, Key, PathError, R};
use crate::error::Result;

/// Read a `T` from a parsed JSON value.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T> {
    T::deserialize(De {
        value,
        chain: &Chain::Root,
    })
    .map_err(|e| e.into_error(""))
}

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
