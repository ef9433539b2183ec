//! Outcomes (and scenarios) as compact JSON text (`docs/scenario.md`, "Outcome v1"): a small
//! serde serializer. It writes into a fixed buffer and moves whole buffers into the `String`, so
//! the many short pieces of an outcome cost no allocation checks each (this is most of the
//! writing time in the size-optimized wasm build).
//!
//! The text is what serde_json writes, except that it is 7-bit clean: every character beyond
//! ASCII is written as a `\uXXXX` escape (JSON's own, read back by every JSON reader). JS
//! engines decode and parse one-byte text on their fast paths, which matters for outcomes of
//! megabytes handed to JavaScript. Numbers with a fractional part are written in their
//! shortest round-trip form (`0.25`, `1e-7`, `1e+21`), as serde_json writes them. Non-finite
//! numbers are written as `null`. Map keys must be strings or integers
//! (integers are quoted); anything else is a [`WriteError`].

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::ser::{self, Impossible, Serialize, Serializer};

/// Why a value could not be written: only values whose `Serialize` fails, or maps with keys
/// that are not strings or integers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteError(String);

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl core::error::Error for WriteError {}

impl ser::Error for WriteError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        WriteError(msg.to_string())
    }
}

/// `value` as compact JSON text.
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, WriteError> {
    String::from_utf8(to_json_bytes(value)?)
        .map_err(|_| WriteError("the text written is not UTF-8".into()))
}

/// `value` as compact JSON text, as its bytes: 7-bit ASCII, so any ASCII-compatible decoding
/// reads it (`latin1`, `utf-8`). For callers that hand the text on as bytes (to JavaScript,
/// to a socket) and so need not check it as UTF-8.
pub fn to_json_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, WriteError> {
    let mut out = Vec::new();
    write_json(value, &mut out)?;
    Ok(out)
}

/// `value` as compact JSON text (the bytes [`to_json_bytes`] returns), in place of what `out`
/// held, in the room it already has: a caller that writes one outcome after another into the
/// same vector grows it once, not once per outcome. On an error `out` holds what was written
/// before it.
pub fn write_json<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) -> Result<(), WriteError> {
    out.clear();
    let mut w = Writer {
        out: core::mem::take(out),
        buf: [0; CHUNK],
        len: 0,
    };
    let written = value.serialize(&mut w);
    w.flush();
    *out = w.out;
    written
}

const CHUNK: usize = 4096;

struct Writer {
    out: Vec<u8>,
    /// Text not yet in `out`.
    buf: [u8; CHUNK],
    len: usize,
}

type W<T = ()> = Result<T, WriteError>;

impl Writer {
    #[inline(never)]
    fn flush(&mut self) {
        self.out
            .extend_from_slice(self.buf.get(..self.len).unwrap_or_default());
        self.len = 0;
    }

    #[inline(always)]
    fn push(&mut self, b: u8) {
        if self.len == CHUNK {
            self.flush();
        }
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    fn push_str(&mut self, s: &str) {
        self.push_bytes(s.as_bytes());
    }

    /// Bytes of ASCII text (digits, literals, whole escape-free strings).
    fn push_bytes(&mut self, s: &[u8]) {
        let end = self.len + s.len();
        if end > CHUNK {
            self.flush();
            if s.len() > CHUNK {
                self.out.extend_from_slice(s);
                return;
            }
        }
        if let Some(slots) = self.buf.get_mut(self.len..self.len + s.len()) {
            copy(slots, s);
            self.len += s.len();
        }
    }

    fn unsigned(&mut self, v: u64) {
        self.push_bytes(itoa::Buffer::new().format(v).as_bytes());
    }

    /// An integer of any width: `-` when `negative`, then the digits of `v`.
    fn wide(&mut self, negative: bool, v: u128) {
        if negative {
            self.push(b'-');
        }
        // 64-bit digits whenever the value fits: 128-bit division runs in software in wasm.
        match u64::try_from(v) {
            Ok(v) => self.unsigned(v),
            Err(_) => self.push_bytes(itoa::Buffer::new().format(v).as_bytes()),
        }
    }

    /// `s` as a JSON string. The fast path, a string with nothing to escape (names, keys,
    /// most explanations), is one scan and one copy.
    fn string(&mut self, s: &str) {
        match first_escape(s.as_bytes()) {
            None => self.quoted(false, s, false),
            Some(first) => self.escaped(s, first),
        }
    }

    /// `[,]"s"[:]`, with `s` known to need no escape: one room check for the whole piece.
    #[inline(never)]
    fn quoted(&mut self, comma: bool, s: &str, colon: bool) {
        let n = usize::from(comma) + s.len() + 2 + usize::from(colon);
        if self.len + n > CHUNK {
            self.flush();
            if n > CHUNK {
                // Longer than the buffer: piece by piece.
                if comma {
                    self.push(b',');
                }
                self.push(b'"');
                self.push_str(s);
                self.push_str(if colon { "\":" } else { "\"" });
                return;
            }
        }
        let at = self.len;
        let Some(slots) = self.buf.get_mut(at..at + n) else {
            return;
        };
        // Single bytes by index and the text by `copy`: no bulk memory calls for the few
        // bytes of a key or a name.
        let mut i = 0;
        if comma {
            slots[0] = b',';
            i = 1;
        }
        slots[i] = b'"';
        let end = i + 1 + s.len();
        if let Some(text) = slots.get_mut(i + 1..end) {
            copy(text, s.as_bytes());
        }
        slots[end] = b'"';
        if colon {
            slots[end + 1] = b':';
        }
        self.len += n;
    }

    /// A string with escapes, the first at byte `first`: control characters, `"` and `\\`
    /// as serde_json escapes them, and every character beyond ASCII as `\\uXXXX` (two for
    /// characters beyond the Basic Multilingual Plane).
    #[inline(never)]
    fn escaped(&mut self, s: &str, first: usize) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.push(b'"');
        let mut run = 0;
        let mut i = first;
        while let Some(&b) = s.as_bytes().get(i) {
            if !needs_escape(b) {
                i += 1;
                continue;
            }
            // `i` is at the start of a character: escapes end at character boundaries.
            self.push_str(s.get(run..i).unwrap_or_default());
            let Some(c) = s.get(i..).and_then(|rest| rest.chars().next()) else {
                break;
            };
            match c {
                '"' => self.push_str("\\\""),
                '\\' => self.push_str("\\\\"),
                '\n' => self.push_str("\\n"),
                '\r' => self.push_str("\\r"),
                '\t' => self.push_str("\\t"),
                '\u{8}' => self.push_str("\\b"),
                '\u{c}' => self.push_str("\\f"),
                _ => {
                    for unit in c.encode_utf16(&mut [0; 2]) {
                        self.push_str("\\u");
                        for shift in [12, 8, 4, 0] {
                            self.push(HEX[usize::from((*unit >> shift) as u8 & 0xf)]);
                        }
                    }
                }
            }
            i += c.len_utf8();
            run = i;
        }
        self.push_str(s.get(run..).unwrap_or_default());
        self.push(b'"');
    }

    fn float(&mut self, v: f64) {
        // `text::write_finite`, with the exact digits copied as bytes.
        if let Some(exact) = crate::text::ExactDecimal::new(v, false) {
            self.push_bytes(exact.as_bytes());
        } else if v.is_finite() {
            // Writing to the buffer cannot fail.
            let _ = crate::text::write_ryu(self, v, false);
        } else {
            self.push_str("null");
        }
    }

    /// Open an object or array; its [`Compound`] writes the separators and the close.
    fn open(&mut self, open: u8, close: &'static str) -> Compound<'_> {
        self.push(open);
        Compound {
            w: self,
            first: true,
            close,
        }
    }

    /// `{"variant":` before the value of an enum variant with data.
    fn variant(&mut self, variant: &str) {
        self.push(b'{');
        self.string(variant);
        self.push(b':');
    }
}

/// `dst.copy_from_slice(src)` for slices of equal length, with text of up to 16 bytes moved
/// as two overlapping words: wasm engines run `memory.copy` (what `copy_from_slice` becomes)
/// out of line, which costs more than the copy itself for the few bytes of a name, a key or
/// a number.
#[inline(always)]
fn copy(dst: &mut [u8], src: &[u8]) {
    fn words<const K: usize>(dst: &mut [u8], src: &[u8]) {
        if let (Some(d), Some(s)) = (dst.first_chunk_mut::<K>(), src.first_chunk::<K>()) {
            *d = *s;
        }
        if let (Some(d), Some(s)) = (dst.last_chunk_mut::<K>(), src.last_chunk::<K>()) {
            *d = *s;
        }
    }
    match src.len() {
        0 => {}
        n if n != dst.len() => {}
        1..=3 => {
            let n = src.len();
            dst[0] = src[0];
            dst[n / 2] = src[n / 2];
            dst[n - 1] = src[n - 1];
        }
        4..=7 => words::<4>(dst, src),
        8..=16 => words::<8>(dst, src),
        _ => dst.copy_from_slice(src),
    }
}

/// The position of the first byte of `b` written escaped ([`needs_escape`]): eight bytes at a
/// time while eight remain, the bytes beyond ASCII marked by their own high bit.
fn first_escape(b: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(w) = b.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let beyond_ascii = u64::from_le_bytes(*w) & super::HIGH;
        if let Some(i) = super::first_marked(super::specials(*w) | beyond_ascii) {
            return Some(at + i);
        }
        at += 8;
    }
    let rest = b.get(at..).unwrap_or_default();
    rest.iter().position(|&c| needs_escape(c)).map(|i| at + i)
}

/// Whether a byte is written escaped: control characters, `"`, `\\`, and every byte of a
/// character beyond ASCII (the text is 7-bit clean).
#[inline(always)]
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\' || b >= 0x80
}

impl fmt::Write for Writer {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_str(s);
        Ok(())
    }
}

#[doc(hidden)]
pub struct Compound<'w> {
    w: &'w mut Writer,
    first: bool,
    close: &'static str,
}

impl Compound<'_> {
    #[inline]
    fn comma(&mut self) {
        if !self.first {
            self.w.push(b',');
        }
        self.first = false;
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> W {
        self.comma();
        value.serialize(&mut *self.w)
    }

    /// A struct field. Keys are the outcome types' own field names, plain ASCII, so they are
    /// copied without the escape scan.
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> W {
        debug_assert!(!key.bytes().any(needs_escape), "{key}");
        self.w.quoted(!self.first, key, true);
        self.first = false;
        value.serialize(&mut *self.w)
    }

    fn end(self) -> W {
        self.w.push_str(self.close);
        Ok(())
    }
}

/// Serializer methods for the narrower integers: each widens its value and hands it to
/// `$to`, which writes every integer of that kind.
macro_rules! widen {
    ($to:ident($wide:ty): $($method:ident: $t:ty),*) => {$(
        fn $method(self, v: $t) -> W {
            self.$to(<$wide>::from(v))
        }
    )*};
}

/// Serializer methods for an enum variant with data: `{"variant":` and the list or object
/// opened with `$open`, closed by `$close` (its own bracket and the variant's `}`).
macro_rules! open_variant {
    ($($method:ident: $open:literal $close:literal),*) => {$(
        fn $method(
            self,
            _name: &'static str,
            _index: u32,
            variant: &'static str,
            _len: usize,
        ) -> W<Compound<'w>> {
            self.variant(variant);
            Ok(self.open($open, $close))
        }
    )*};
}

impl<'w> Serializer for &'w mut Writer {
    type Ok = ();
    type Error = WriteError;
    type SerializeSeq = Compound<'w>;
    type SerializeTuple = Compound<'w>;
    type SerializeTupleStruct = Compound<'w>;
    type SerializeTupleVariant = Compound<'w>;
    type SerializeMap = Compound<'w>;
    type SerializeStruct = Compound<'w>;
    type SerializeStructVariant = Compound<'w>;

    fn serialize_bool(self, v: bool) -> W {
        self.push_str(if v { "true" } else { "false" });
        Ok(())
    }

    widen!(serialize_i64(i64): serialize_i8: i8, serialize_i16: i16, serialize_i32: i32);
    widen!(serialize_u64(u64): serialize_u8: u8, serialize_u16: u16, serialize_u32: u32);

    fn serialize_i64(self, v: i64) -> W {
        self.wide(v < 0, v.unsigned_abs().into());
        Ok(())
    }

    fn serialize_i128(self, v: i128) -> W {
        self.wide(v < 0, v.unsigned_abs());
        Ok(())
    }

    fn serialize_u64(self, v: u64) -> W {
        self.unsigned(v);
        Ok(())
    }

    fn serialize_u128(self, v: u128) -> W {
        self.wide(false, v);
        Ok(())
    }

    fn serialize_f32(self, v: f32) -> W {
        self.float(v.into());
        Ok(())
    }

    fn serialize_f64(self, v: f64) -> W {
        self.float(v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> W {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> W {
        self.string(v);
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> W {
        let mut seq = self.open(b'[', "]");
        for b in v {
            seq.element(b)?;
        }
        seq.end()
    }

    fn serialize_none(self) -> W {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> W {
        value.serialize(self)
    }

    fn serialize_unit(self) -> W {
        self.push_str("null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> W {
        self.serialize_unit()
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> W {
        self.string(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> W {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> W {
        self.variant(variant);
        value.serialize(&mut *self)?;
        self.push(b'}');
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> W<Compound<'w>> {
        Ok(self.open(b'[', "]"))
    }

    fn serialize_tuple(self, _len: usize) -> W<Compound<'w>> {
        Ok(self.open(b'[', "]"))
    }

    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> W<Compound<'w>> {
        Ok(self.open(b'[', "]"))
    }

    fn serialize_map(self, _len: Option<usize>) -> W<Compound<'w>> {
        Ok(self.open(b'{', "}"))
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> W<Compound<'w>> {
        Ok(self.open(b'{', "}"))
    }

    open_variant!(serialize_tuple_variant: b'[' "]}", serialize_struct_variant: b'{' "}}");
}

/// The serde traits for arrays and objects that differ only in their name: elements
/// (`element`) or named fields (`field`), then the close.
macro_rules! compound {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = WriteError;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> W {
                self.element(value)
            }

            fn end(self) -> W {
                Compound::end(self)
            }
        }
    )*};
    ($($trait:ident),* with keys) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = WriteError;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> W {
                self.field(key, value)
            }

            fn end(self) -> W {
                Compound::end(self)
            }
        }
    )*};
}

compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);
compound!(SerializeStruct, SerializeStructVariant with keys);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = WriteError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> W {
        self.comma();
        key.serialize(MapKey(&mut *self.w))
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> W {
        self.w.push(b':');
        value.serialize(&mut *self.w)
    }

    fn end(self) -> W {
        Compound::end(self)
    }
}

/// A map key: a string, or an integer written as a string (JSON object keys are strings).
struct MapKey<'w>(&'w mut Writer);

impl MapKey<'_> {
    /// An integer key, quoted.
    fn integer(self, negative: bool, v: u128) -> W {
        self.0.push(b'"');
        self.0.wide(negative, v);
        self.0.push(b'"');
        Ok(())
    }

    fn signed(self, v: i128) -> W {
        self.integer(v < 0, v.unsigned_abs())
    }

    fn unsigned(self, v: u128) -> W {
        self.integer(false, v)
    }
}

fn not_a_key<T>() -> W<T> {
    Err(WriteError(
        "a map key must be a string or an integer".into(),
    ))
}

impl Serializer for MapKey<'_> {
    type Ok = ();
    type Error = WriteError;
    type SerializeSeq = Impossible<(), WriteError>;
    type SerializeTuple = Impossible<(), WriteError>;
    type SerializeTupleStruct = Impossible<(), WriteError>;
    type SerializeTupleVariant = Impossible<(), WriteError>;
    type SerializeMap = Impossible<(), WriteError>;
    type SerializeStruct = Impossible<(), WriteError>;
    type SerializeStructVariant = Impossible<(), WriteError>;

    fn serialize_str(self, v: &str) -> W {
        self.0.string(v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> W {
        self.0.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> W {
        self.0.string(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> W {
        value.serialize(self)
    }

    widen!(signed(i128): serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128);
    widen!(unsigned(u128): serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_u128: u128);

    fn serialize_bool(self, _v: bool) -> W {
        not_a_key()
    }

    fn serialize_f32(self, _v: f32) -> W {
        not_a_key()
    }

    fn serialize_f64(self, _v: f64) -> W {
        not_a_key()
    }

    fn serialize_bytes(self, _v: &[u8]) -> W {
        not_a_key()
    }

    fn serialize_none(self) -> W {
        not_a_key()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> W {
        not_a_key()
    }

    fn serialize_unit(self) -> W {
        not_a_key()
    }

    fn serialize_unit_struct(self, _name: &'static str) -> W {
        not_a_key()
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> W {
        not_a_key()
    }

    fn serialize_seq(self, _len: Option<usize>) -> W<Self::SerializeSeq> {
        not_a_key()
    }

    fn serialize_tuple(self, _len: usize) -> W<Self::SerializeTuple> {
        not_a_key()
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> W<Self::SerializeTupleStruct> {
        not_a_key()
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> W<Self::SerializeTupleVariant> {
        not_a_key()
    }

    fn serialize_map(self, _len: Option<usize>) -> W<Self::SerializeMap> {
        not_a_key()
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> W<Self::SerializeStruct> {
        not_a_key()
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> W<Self::SerializeStructVariant> {
        not_a_key()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn writing_into_a_used_vector_replaces_its_text_and_keeps_its_room() {
        let long: Vec<String> = (0..2_000).map(|i| alloc::format!("member-{i}")).collect();
        let mut out = Vec::new();
        write_json(&long, &mut out).unwrap();
        assert_eq!(out, to_json_bytes(&long).unwrap());
        let room = out.capacity();
        write_json(&vec!["a\"b", "\u{e9}"], &mut out).unwrap();
        assert_eq!(out, br#"["a\"b","\u00e9"]"#);
        assert_eq!(out.capacity(), room);
    }

    proptest::proptest! {
        /// The word-at-a-time scan finds the first byte to escape where a byte loop does, at
        /// any length and with any mix of quotes, backslashes, control characters and text
        /// beyond ASCII.
        #[test]
        fn first_escape_is_the_first_byte_a_byte_loop_escapes(
            text in "[a-z\"\\\\\u{1}\u{1f} ~\u{7f}\u{e9}\u{80}-\u{ff}\u{4e00}]{0,40}",
        ) {
            let b = text.as_bytes();
            proptest::prop_assert_eq!(first_escape(b), b.iter().position(|&c| needs_escape(c)));
        }
    }
}
