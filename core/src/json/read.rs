//! Scenario documents as JSON text (`docs/scenario.md`), read in one pass: a small serde
//! deserializer over the text builds the typed document directly, with no intermediate JSON
//! value, and when something does not fit says where (`clusters[1].resourceSummary.allocatable.cpu`).
//!
//! It reads JSON as RFC 8259 and serde_json do, with serde_json's error messages; nesting is
//! limited to 128 levels, so no document can exhaust the stack. Structs are offered only as
//! objects and field names only as strings, so the sequence and byte forms serde's derives
//! generate are never reachable. Strings without escapes are borrowed from the text. Keys are
//! read in document order; a key given twice is an error (`duplicate field`).

use alloc::string::String;
use alloc::vec::Vec;

use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess};
use serde::de::{Deserializer, Unexpected, Visitor};

use super::path::{Chain, Key, PathError, R};
use crate::error::Result;

/// How deep arrays and objects may nest.
const MAX_DEPTH: usize = 128;

/// Read a `T` (a [`crate::scenario::Scenario`], a list of resource models, ...) from JSON text.
/// A byte order mark before the text is read past, as RFC 8259 allows.
pub fn from_json<T: DeserializeOwned>(text: &str) -> Result<T> {
    from_json_noting(text, &[]).map(|(value, _)| value)
}

/// [`from_json`], with the paths of the fields the type does not know (serde passes them
/// over) that lie under a key of `watched` (`placement`): a typo there is noted, not read
/// silently as nothing (as the API server's field validation warns of unknown fields).
pub fn from_json_noting<T: DeserializeOwned>(
    text: &str,
    watched: &[&str],
) -> Result<(T, Vec<crate::error::Path>)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader {
        text,
        pos: 0,
        depth: 0,
        scratch: String::new(),
        watched,
        unknown: Vec::new(),
    };
    let value = T::deserialize(De {
        r: &mut reader,
        chain: &Chain::Root,
    });
    value
        .and_then(|v| match reader.peek() {
            None => Ok((v, core::mem::take(&mut reader.unknown))),
            Some(_) => Err(reader.error("trailing characters")),
        })
        .map_err(|e| e.into_error(text))
}

struct Reader<'a> {
    text: &'a str,
    pos: usize,
    depth: usize,
    /// Strings with escapes, unescaped.
    scratch: String,
    /// The keys under which an unknown field is noted.
    watched: &'a [&'a str],
    /// The unknown fields noted.
    unknown: Vec<crate::error::Path>,
}

/// A string read: borrowed from the text, or (when it had escapes) in the reader's scratch.
enum Text<'a> {
    Borrowed(&'a str),
    Scratch,
}

/// A number read.
enum Number {
    Unsigned(u64),
    Signed(i64),
    Float(f64),
}

/// A value of the wrong type, described for the error.
enum Found {
    Null,
    Bool(bool),
    Number(Number),
    Str(String),
    Array,
    Object,
}

impl<'a> Reader<'a> {
    #[inline(always)]
    fn byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// An error at the current byte.
    fn error(&self, message: &str) -> PathError {
        PathError::syntax(message, self.pos + 1)
    }

    /// An error at the end of the text.
    fn eof(&self, message: &str) -> PathError {
        PathError::syntax(message, self.text.len())
    }

    /// The next byte that is not whitespace, not consumed.
    #[inline(always)]
    fn peek(&mut self) -> Option<u8> {
        // Compact text, the common case, has no whitespace to skip: one byte, no call.
        match self.byte() {
            Some(c) if !is_space(c) => Some(c),
            _ => self.skip_space(),
        }
    }

    /// Indented text (`kubectl get -o json` indents by four spaces a level) is a third
    /// spaces: a run of eight is passed at once.
    #[inline(never)]
    fn skip_space(&mut self) -> Option<u8> {
        const SPACES: u64 = u64::from_le_bytes([b' '; 8]);
        while let Some(c) = self.byte() {
            if !is_space(c) {
                return Some(c);
            }
            self.pos += 1;
            while let Some(w) = self
                .text
                .as_bytes()
                .get(self.pos..)
                .and_then(<[u8]>::first_chunk::<8>)
            {
                if u64::from_le_bytes(*w) != SPACES {
                    break;
                }
                self.pos += 8;
            }
        }
        None
    }

    /// A string read, wherever it is.
    fn text_of(&self, text: Text<'a>) -> &str {
        match text {
            Text::Borrowed(s) => s,
            Text::Scratch => &self.scratch,
        }
    }

    /// Consume a `null` if one is next.
    #[inline(never)]
    fn null(&mut self) -> R<bool> {
        if self.peek() != Some(b'n') {
            return Ok(false);
        }
        self.literal(b"null")?;
        Ok(true)
    }

    #[inline(always)]
    fn slice(&self, from: usize, to: usize) -> &'a str {
        // Both ends sit at ASCII bytes, so they are character boundaries.
        self.text.get(from..to).unwrap_or_default()
    }

    /// `null`, `true` or `false`, whose first byte has been peeked.
    #[inline(never)]
    fn literal(&mut self, word: &[u8]) -> R<()> {
        for &w in word {
            match self.byte() {
                None => return Err(self.eof("EOF while parsing a value")),
                Some(c) if c == w => self.pos += 1,
                Some(_) => return Err(self.error("expected ident")),
            }
        }
        Ok(())
    }

    /// Move past the bytes a string holds as they are: eight at a time while eight remain
    /// ([`super::specials`]), then one at a time.
    #[inline(always)]
    fn plain_run(&mut self) -> Option<u8> {
        while let Some(w) = self
            .text
            .as_bytes()
            .get(self.pos..)
            .and_then(<[u8]>::first_chunk)
        {
            match super::first_marked(super::specials(*w)) {
                Some(at) => {
                    self.pos += at;
                    return self.byte();
                }
                None => self.pos += 8,
            }
        }
        while let Some(c) = self.byte() {
            if c == b'"' || c == b'\\' || c < 0x20 {
                return Some(c);
            }
            self.pos += 1;
        }
        None
    }

    /// A string, whose opening quote has been peeked.
    #[inline(never)]
    fn string(&mut self) -> R<Text<'a>> {
        self.pos += 1;
        let mut run = self.pos;
        let mut escaped = false;
        loop {
            match self.plain_run() {
                Some(b'"') => {
                    let tail = self.slice(run, self.pos);
                    self.pos += 1;
                    if !escaped {
                        return Ok(Text::Borrowed(tail));
                    }
                    self.scratch.push_str(tail);
                    return Ok(Text::Scratch);
                }
                Some(b'\\') => {
                    if !escaped {
                        self.scratch.clear();
                        escaped = true;
                    }
                    let head = self.slice(run, self.pos);
                    self.scratch.push_str(head);
                    self.pos += 1;
                    let c = self.escape()?;
                    self.scratch.push(c);
                    run = self.pos;
                }
                Some(_) => {
                    return Err(self
                        .error("control character (\\u0000-\\u001F) found while parsing a string"))
                }
                None => return Err(self.eof("EOF while parsing a string")),
            }
        }
    }

    /// The character an escape stands for; the backslash has been read.
    #[inline(never)]
    fn escape(&mut self) -> R<char> {
        let Some(c) = self.byte() else {
            return Err(self.eof("EOF while parsing a string"));
        };
        self.pos += 1;
        Ok(match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\x08',
            b'f' => '\x0c',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex()?;
                let code = match first {
                    0xDC00..=0xDFFF => {
                        return Err(self.error("lone leading surrogate in hex escape"))
                    }
                    0xD800..=0xDBFF => {
                        if self.byte() != Some(b'\\') {
                            return Err(self.error("unexpected end of hex escape"));
                        }
                        self.pos += 1;
                        if self.byte() != Some(b'u') {
                            return Err(self.error("unexpected end of hex escape"));
                        }
                        self.pos += 1;
                        let second = self.hex()?;
                        if !(0xDC00..=0xDFFF).contains(&second) {
                            return Err(self.error("lone leading surrogate in hex escape"));
                        }
                        0x10000 + (((first - 0xD800) << 10) | (second - 0xDC00))
                    }
                    code => code,
                };
                match char::from_u32(code) {
                    Some(c) => c,
                    None => return Err(self.error("invalid unicode code point")),
                }
            }
            _ => return Err(self.error("invalid escape")),
        })
    }

    /// Four hex digits.
    fn hex(&mut self) -> R<u32> {
        let mut code = 0;
        for _ in 0..4 {
            let Some(c) = self.byte() else {
                return Err(self.eof("EOF while parsing a string"));
            };
            let Some(digit) = char::from(c).to_digit(16) else {
                return Err(self.error("invalid escape"));
            };
            code = code * 16 + digit;
            self.pos += 1;
        }
        Ok(code)
    }

    /// Move past digits; false when there were none.
    #[inline(always)]
    fn digits(&mut self) -> bool {
        let from = self.pos;
        while self.byte().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        self.pos > from
    }

    /// At least one digit, as a number's fraction or exponent needs.
    fn required_digits(&mut self) -> R<()> {
        match self.digits() {
            true => Ok(()),
            false if self.byte().is_none() => Err(self.eof("EOF while parsing a value")),
            false => Err(self.error("invalid number")),
        }
    }

    /// A number, whose first byte has been peeked. Integers are exact when they fit 64 bits.
    #[inline(never)]
    fn number(&mut self) -> R<Number> {
        let start = self.pos;
        let negative = self.byte() == Some(b'-');
        if negative {
            self.pos += 1;
        }
        let integer = self.pos;
        match self.byte() {
            Some(b'0') => {
                self.pos += 1;
                if self.byte().is_some_and(|c| c.is_ascii_digit()) {
                    return Err(self.error("invalid number"));
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            None => return Err(self.eof("EOF while parsing a value")),
            Some(_) => return Err(self.error("invalid number")),
        }
        let integer = self.slice(integer, self.pos);
        let mut float = false;
        if self.byte() == Some(b'.') {
            float = true;
            self.pos += 1;
            self.required_digits()?;
        }
        if matches!(self.byte(), Some(b'e' | b'E')) {
            float = true;
            self.pos += 1;
            if matches!(self.byte(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            self.required_digits()?;
        }
        if !float {
            if let Ok(magnitude) = integer.parse::<u64>() {
                return Ok(match (negative, magnitude) {
                    (false, m) => Number::Unsigned(m),
                    (true, 0) => Number::Float(-0.0),
                    (true, m) => match 0i64.checked_sub_unsigned(m) {
                        Some(i) => Number::Signed(i),
                        None => Number::Float(-(m as f64)),
                    },
                });
            }
        }
        match decimal(self.slice(start, self.pos)) {
            f if f.is_finite() => Ok(Number::Float(f)),
            _ => Err(self.error("number out of range")),
        }
    }

    /// Into an array or object, whose opening byte has been peeked.
    #[inline(never)]
    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error("recursion limit exceeded"));
        }
        self.pos += 1;
        Ok(())
    }

    /// Out of an array or object: its closing byte, which [`Reader::element`] or
    /// [`Reader::key`] found.
    fn leave(&mut self) {
        self.depth -= 1;
        self.pos += 1;
    }

    /// The end of an array or object whose visitor is done with it. Compact text's case, the
    /// closing byte next, in line; the rest out of line ([`Reader::close_after_space`]).
    #[inline(always)]
    fn close(&mut self, end: u8, eof: &str) -> R<()> {
        if self.byte() == Some(end) {
            self.leave();
            return Ok(());
        }
        self.close_after_space(end, eof)
    }

    #[inline(never)]
    fn close_after_space(&mut self, end: u8, eof: &str) -> R<()> {
        match self.peek() {
            Some(c) if c == end => {
                self.leave();
                Ok(())
            }
            Some(_) => Err(self.error("trailing characters")),
            None => Err(self.eof(eof)),
        }
    }

    /// Whether an array has another element (then positioned at it) or ends.
    #[inline(never)]
    fn element(&mut self, first: bool) -> R<bool> {
        match self.peek() {
            Some(b']') => Ok(false),
            Some(b',') if !first => {
                self.pos += 1;
                match self.peek() {
                    Some(b']') => Err(self.error("trailing comma")),
                    _ => Ok(true),
                }
            }
            Some(_) if first => Ok(true),
            Some(_) => Err(self.error("expected `,` or `]`")),
            None => Err(self.eof("EOF while parsing a list")),
        }
    }

    /// Whether an object has another key (then positioned at its quote) or ends.
    #[inline(never)]
    fn key(&mut self, first: bool) -> R<bool> {
        match self.peek() {
            Some(b'}') => return Ok(false),
            Some(b',') if !first => self.pos += 1,
            Some(_) if first => {}
            Some(_) => return Err(self.error("expected `,` or `}`")),
            None => return Err(self.eof("EOF while parsing an object")),
        }
        match self.peek() {
            Some(b'"') => Ok(true),
            Some(b'}') if !first => Err(self.error("trailing comma")),
            Some(_) => Err(self.error("key must be a string")),
            None => Err(self.eof("EOF while parsing an object")),
        }
    }

    /// The colon between a key and its value: in compact text the next byte, checked in line;
    /// anything else out of line ([`Reader::colon_after_space`]).
    #[inline(always)]
    fn colon(&mut self) -> R<()> {
        if self.byte() == Some(b':') {
            self.pos += 1;
            return Ok(());
        }
        self.colon_after_space()
    }

    #[inline(never)]
    fn colon_after_space(&mut self) -> R<()> {
        match self.peek() {
            Some(b':') => {
                self.pos += 1;
                Ok(())
            }
            Some(_) => Err(self.error("expected `:`")),
            None => Err(self.eof("EOF while parsing an object")),
        }
    }

    /// Read any value, keeping what an error message needs of it.
    #[inline(never)]
    fn found(&mut self) -> R<Found> {
        Ok(match self.peek() {
            Some(b'[') => Found::Array,
            Some(b'{') => Found::Object,
            Some(b'"') => {
                let text = self.string()?;
                Found::Str(self.text_of(text).into())
            }
            _ => self.scalar()?,
        })
    }

    /// `null`, a boolean or a number.
    #[inline(never)]
    fn scalar(&mut self) -> R<Found> {
        Ok(match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                Found::Null
            }
            Some(b't') => {
                self.literal(b"true")?;
                Found::Bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                Found::Bool(false)
            }
            Some(b'-' | b'0'..=b'9') => Found::Number(self.number()?),
            Some(_) => return Err(self.error("expected value")),
            None => return Err(self.eof("EOF while parsing a value")),
        })
    }

    /// Move past any value, checking its syntax.
    #[inline(never)]
    fn skip(&mut self) -> R<()> {
        match self.peek() {
            Some(b'[') => {
                self.enter()?;
                let mut first = true;
                while self.element(first)? {
                    first = false;
                    self.skip()?;
                }
                self.leave();
            }
            Some(b'{') => {
                self.enter()?;
                let mut first = true;
                while self.key(first)? {
                    first = false;
                    self.string()?;
                    self.colon()?;
                    self.skip()?;
                }
                self.leave();
            }
            Some(b'"') => {
                self.string()?;
            }
            _ => {
                self.scalar()?;
            }
        }
        Ok(())
    }
}

/// JSON's whitespace.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\n' | b'\t' | b'\r')
}

/// The value of a number that [`Reader::number`] checked: its first 19 significant digits
/// times a power of ten. Exact, hence correctly rounded, when those digits fit 53 bits and the
/// power is within 10^±22 (every number a scenario is likely to hold, such as `0.5` or
/// `2.5e3`); beyond that within a few units in the last place. This keeps core's complete
/// decimal-to-float conversion, and its 10 KB of tables, out of the wasm module.
fn decimal(text: &str) -> f64 {
    let mut mantissa: u64 = 0;
    let mut exponent: i64 = 0;
    let mut fraction = false;
    let mut bytes = text.bytes();
    let negative = text.starts_with('-');
    for c in bytes.by_ref() {
        match c {
            b'0'..=b'9' if mantissa < 1_000_000_000_000_000_000 => {
                mantissa = mantissa * 10 + u64::from(c - b'0');
                exponent -= i64::from(fraction);
            }
            b'0'..=b'9' => exponent += i64::from(!fraction),
            b'.' => fraction = true,
            b'e' | b'E' => break,
            _ => {}
        }
    }
    let mut written: i64 = 0;
    let mut sign = 1;
    for c in bytes {
        match c {
            b'-' => sign = -1,
            b'0'..=b'9' => written = (written * 10 + i64::from(c - b'0')).min(100_000),
            _ => {}
        }
    }
    let exponent = exponent + sign * written;
    if mantissa == 0 {
        return if negative { -0.0 } else { 0.0 };
    }
    let mut value = mantissa as f64;
    let mut exponent = exponent;
    if exponent < -300 {
        // 10^-exponent would overflow before the quotient underflows: divide in two steps.
        value /= 1e300;
        exponent += 300;
    }
    let power = pow10(exponent.unsigned_abs());
    let value = if exponent < 0 {
        value / power
    } else {
        value * power
    };
    if negative {
        -value
    } else {
        value
    }
}

/// 10^n by squaring: exact up to 10^22.
fn pow10(mut n: u64) -> f64 {
    let (mut power, mut base) = (1.0, 10.0_f64);
    while n > 0 {
        if n & 1 == 1 {
            power *= base;
        }
        base *= base;
        n >>= 1;
    }
    power
}

impl Found {
    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Found::Null => Unexpected::Unit,
            Found::Bool(b) => Unexpected::Bool(*b),
            Found::Number(Number::Unsigned(u)) => Unexpected::Unsigned(*u),
            Found::Number(Number::Signed(i)) => Unexpected::Signed(*i),
            Found::Number(Number::Float(f)) => Unexpected::Float(*f),
            Found::Str(s) => Unexpected::Str(s),
            Found::Array => Unexpected::Seq,
            Found::Object => Unexpected::Map,
        }
    }
}

struct De<'s, 'a> {
    r: &'s mut Reader<'a>,
    chain: &'s Chain<'s>,
}

impl<'s> De<'s, '_> {
    /// The value is not of the kind `visitor` expects.
    fn invalid<'de, V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        let found = self.r.found()?;
        Err(de::Error::invalid_type(found.unexpected(), &visitor))
    }

    fn seq<'de, V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        if self.r.peek() != Some(b'[') {
            return self.invalid(visitor);
        }
        self.r.enter()?;
        let value = visitor.visit_seq(Seq {
            r: &mut *self.r,
            chain: self.chain,
            index: 0,
        })?;
        self.r.close(b']', "EOF while parsing a list")?;
        Ok(value)
    }

    fn map<'de, V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        if self.r.peek() != Some(b'{') {
            return self.invalid(visitor);
        }
        self.r.enter()?;
        let value = visitor.visit_map(Map {
            r: &mut *self.r,
            chain: self.chain,
            first: true,
            key: "",
        })?;
        self.r.close(b'}', "EOF while parsing an object")?;
        Ok(value)
    }

    fn string<'de, V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        let text = self.r.string()?;
        visitor.visit_str(self.r.text_of(text))
    }
}

/// The integer readers of [`De`]: one rule for every number beyond what the field holds,
/// whatever its size or form (`1e19`, `1e300`, `-1e300`): `too_large`; a negative number
/// where none may be: `negative`; a whole number written with a fraction or an exponent
/// (`3e0`, `2.0`) is that integer.
macro_rules! integers {
    ($($method:ident => $ty:ty,)*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
            self.integer(visitor, <$ty>::MIN as i128, <$ty>::MAX as i128)
        })*
    };
}

impl De<'_, '_> {
    fn integer<'de, V: Visitor<'de>>(self, visitor: V, min: i128, max: i128) -> R<V::Value> {
        if !matches!(self.r.peek(), Some(b'-' | b'0'..=b'9')) {
            return self.deserialize_any(visitor);
        }
        let Found::Number(n) = self.r.scalar()? else {
            return Err(self.r.error("invalid number"));
        };
        let value: i128 = match n {
            Number::Unsigned(u) => i128::from(u),
            Number::Signed(i) => i128::from(i),
            // Beyond every integer type allot reads: as far out as any.
            Number::Float(f) if f >= 1.8e19 => i128::MAX,
            Number::Float(f) if f <= -1.8e19 => i128::MIN,
            // A fraction: the field's own error ("invalid type: floating point").
            Number::Float(f) if (f as i128) as f64 != f => return visitor.visit_f64(f),
            Number::Float(f) => f as i128,
        };
        if value < min && min == 0 {
            return Err(crate::Error::Negative {
                field: crate::error::Path::root(),
                value: i64::try_from(value).unwrap_or(i64::MIN),
            }
            .into_de());
        }
        if value < min || value > max {
            return Err(crate::Error::TooLarge {
                field: crate::error::Path::root(),
                limit: max as u64,
            }
            .into_de());
        }
        match i64::try_from(value) {
            Ok(i) if i < 0 => visitor.visit_i64(i),
            _ => visitor.visit_u64(value as u64),
        }
    }
}

impl<'de> Deserializer<'de> for De<'_, '_> {
    type Error = PathError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        match self.r.peek() {
            Some(b'"') => self.string(visitor),
            Some(b'[') => self.seq(visitor),
            Some(b'{') => self.map(visitor),
            _ => match self.r.scalar()? {
                Found::Bool(b) => visitor.visit_bool(b),
                Found::Number(Number::Unsigned(u)) => visitor.visit_u64(u),
                Found::Number(Number::Signed(i)) => visitor.visit_i64(i),
                Found::Number(Number::Float(f)) => visitor.visit_f64(f),
                _ => visitor.visit_unit(),
            },
        }
    }

    integers! {
        deserialize_i8 => i8, deserialize_i16 => i16, deserialize_i32 => i32,
        deserialize_i64 => i64, deserialize_u8 => u8, deserialize_u16 => u16,
        deserialize_u32 => u32, deserialize_u64 => u64,
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        if self.r.null()? {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
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
        match self.r.peek() {
            Some(b'"') => self.string(visitor),
            _ => self.invalid(visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        // Every enum of the format is a plain string.
        if self.r.peek() != Some(b'"') {
            return self.invalid(visitor);
        }
        let text = self.r.string()?;
        visitor.visit_enum(self.r.text_of(text).into_deserializer())
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> R<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        if !self.r.watched.is_empty() && self.chain.under(self.r.watched) {
            self.r.unknown.push(self.chain.path());
        }
        self.r.skip()?;
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i128 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct tuple tuple_struct
    }
}

struct Seq<'s, 'a> {
    r: &'s mut Reader<'a>,
    chain: &'s Chain<'s>,
    index: usize,
}

impl<'de> SeqAccess<'de> for Seq<'_, '_> {
    type Error = PathError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> R<Option<T::Value>> {
        if !self.r.element(self.index == 0)? {
            return Ok(None);
        }
        let chain = Chain::Index(self.chain, self.index);
        self.index += 1;
        seed.deserialize(De {
            r: &mut *self.r,
            chain: &chain,
        })
        .map(Some)
        .map_err(|e| e.at(&chain))
    }
}

struct Map<'s, 'a> {
    r: &'s mut Reader<'a>,
    chain: &'s Chain<'s>,
    first: bool,
    /// The key whose value is read next, as written (escapes and all).
    key: &'a str,
}

impl<'de> MapAccess<'de> for Map<'_, '_> {
    type Error = PathError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> R<Option<K::Value>> {
        if !self.r.key(self.first)? {
            return Ok(None);
        }
        self.first = false;
        let from = self.r.pos + 1;
        let text = self.r.string()?;
        self.key = self.r.slice(from, self.r.pos - 1);
        seed.deserialize(Key(self.r.text_of(text)))
            .map(Some)
            .map_err(|e| e.at(&Chain::Key(self.chain, self.key)))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> R<V::Value> {
        self.r.colon()?;
        let chain = Chain::Key(self.chain, self.key);
        seed.deserialize(De {
            r: &mut *self.r,
            chain: &chain,
        })
        .map_err(|e| e.at(&chain))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(bytes: &[u8]) -> Option<usize> {
        bytes
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
    }

    proptest::proptest! {
        /// The word-at-a-time test finds what a byte-at-a-time scan finds, over every byte
        /// value in every position (borrows from an earlier match included).
        #[test]
        fn first_special_is_the_first_quote_backslash_or_control(
            w in proptest::array::uniform8(proptest::prelude::any::<u8>()),
        ) {
            proptest::prop_assert_eq!(super::super::first_marked(super::super::specials(w)), naive(&w));
        }

        /// A string's plain run ends where the byte loop's did, at any length.
        #[test]
        fn plain_runs_end_at_the_first_special_byte(
            text in "[a-z\"\\\\\u{1}\u{1f} \u{e9}\u{80}-\u{ff}]{0,40}",
        ) {
            let mut r = Reader { text: &text, pos: 0, depth: 0, scratch: String::new(), watched: &[], unknown: Vec::new() };
            let found = r.plain_run();
            let at = naive(text.as_bytes());
            proptest::prop_assert_eq!(found, at.map(|i| text.as_bytes()[i]));
            proptest::prop_assert_eq!(r.pos, at.unwrap_or(text.len()));
        }

        /// Whitespace is passed to the first byte that is not, eight spaces at a time or one
        /// byte at a time, at any length and mix.
        #[test]
        fn space_ends_at_the_first_byte_that_is_not_space(text in "( {1,20}|\t|\r|\n|x){0,8}") {
            let mut r = Reader { text: &text, pos: 0, depth: 0, scratch: String::new(), watched: &[], unknown: Vec::new() };
            let at = text.bytes().position(|c| !is_space(c));
            proptest::prop_assert_eq!(r.skip_space(), at.map(|i| text.as_bytes()[i]));
            proptest::prop_assert_eq!(r.pos, at.unwrap_or(text.len()));
        }
    }

    #[test]
    fn first_special_ignores_bytes_beyond_ascii_and_borrows_after_a_match() {
        let word = |b: [u8; 8]| super::super::first_marked(super::super::specials(b));
        assert_eq!(word(*b"member-1"), None);
        assert_eq!(word([0xc3, 0xa9, 0x80, 0xff, b'a', b'b', b'c', b'd']), None);
        assert_eq!(word(*b"team-3\","), Some(6));
        assert_eq!(word([b'a', 0x1f, 0x20, 0x21, b'"', 0, 0, 0]), Some(1));
        assert_eq!(word([0x00, 0x01, 0x22, 0x5c, 0, 0, 0, 0]), Some(0));
        assert_eq!(word(*b"abc\\ndef"), Some(3));
    }
}
