//! Where a value sits in a document (`clusters[1].resourceSummary.allocatable.cpu`), for the
//! reader's errors: a chain of keys and indexes built on the stack as the reader descends, made
//! into a [`Path`] only when an error needs it, and [`path_at`] for syntax errors, which are
//! located by position.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Deserializer, Visitor};

use crate::error::{ErrorCode, Path};

/// Where a value sits, made into a [`Path`] only when an error needs it.
pub(super) enum Chain<'a> {
    Root,
    Key(&'a Chain<'a>, &'a str),
    Index(&'a Chain<'a>, usize),
}

impl Chain<'_> {
    /// Whether a key of `keys` is on the way to this value (the value's own key aside).
    pub(super) fn under(&self, keys: &[&str]) -> bool {
        let mut at = match self {
            Chain::Root => return false,
            Chain::Key(parent, _) | Chain::Index(parent, _) => *parent,
        };
        loop {
            match at {
                Chain::Root => return false,
                Chain::Key(parent, k) => {
                    if keys.contains(k) {
                        return true;
                    }
                    at = parent;
                }
                Chain::Index(parent, _) => at = parent,
            }
        }
    }

    pub(super) fn path(&self) -> Path {
        match self {
            Chain::Root => Path::root(),
            Chain::Key(parent, k) => parent.path().field(String::from(*k)),
            Chain::Index(parent, i) => parent.path().index(*i),
        }
    }
}

/// A deserialization error and where it arose: the path of the innermost value, or for a
/// syntax error the byte offset just past the offending character. Boxed, so that the results
/// passed through every generated visitor stay one word.
#[derive(Debug)]
pub(super) struct PathError(Box<Located>);

#[derive(Debug)]
struct Located {
    path: Option<Path>,
    offset: Option<usize>,
    code: ErrorCode,
    /// Where inside the located value the error is: a missing field's name, or the location a
    /// value that checked itself gave ([`crate::Error::into_de`]).
    inner: Option<Path>,
    message: String,
}

impl PathError {
    fn new(code: ErrorCode, message: String) -> Self {
        PathError(Box::new(Located {
            path: None,
            offset: None,
            code,
            inner: None,
            message,
        }))
    }

    /// A syntax error just before `offset`.
    #[inline(never)]
    pub(super) fn syntax(message: &str, offset: usize) -> Self {
        let mut e = PathError::new(ErrorCode::InvalidInput, message.into());
        e.0.offset = Some(offset);
        e
    }

    /// Locate the error at `chain` unless an inner value already did.
    #[inline(never)]
    pub(super) fn at(mut self, chain: &Chain<'_>) -> Self {
        let e = &mut *self.0;
        if e.path.is_none() && e.offset.is_none() {
            e.path = Some(chain.path());
        }
        self
    }

    /// The allot error: the path as located, or for a syntax error as [`path_at`] finds it.
    pub(super) fn into_error(self, text: &str) -> crate::Error {
        let e = *self.0;
        let mut field = match e.offset {
            Some(end) => path_before(text, end),
            None => e.path.unwrap_or_default(),
        };
        if let Some(inner) = &e.inner {
            field = field.join(inner);
        }
        crate::Error::Input {
            field,
            code: e.code,
            reason: e.message,
        }
    }
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl core::error::Error for PathError {}

impl de::Error for PathError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        PathError::new(ErrorCode::InvalidInput, alloc::format!("{msg}"))
    }

    /// In words a user of the document knows: "expected a whole number, got "1x"",
    /// "expected a list, got an object", not serde's `i64` and `map`.
    fn invalid_type(unexpected: de::Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        let expected = alloc::format!("{expected}");
        Self::custom(format_args!(
            "expected {}, got {}",
            plain_expected(&expected),
            Plain(unexpected)
        ))
    }

    /// A value that checked itself and failed reports its code as `Unexpected::Other(code)`
    /// and its reason as what was expected ([`crate::Error::into_de`]).
    fn invalid_value(unexpected: de::Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        if let de::Unexpected::Other(tag) = unexpected {
            let (name, inner) = match tag.split_once(crate::error::INNER) {
                Some((name, packed)) => (name, Path::unpack(packed)),
                None => (tag, None),
            };
            if let Some(code) = ErrorCode::from_name(name) {
                let mut e = PathError::new(code, alloc::format!("{expected}"));
                e.0.inner = inner;
                return e;
            }
        }
        Self::custom(format_args!(
            "invalid value: {}, expected {expected}",
            Worded(unexpected)
        ))
    }

    fn missing_field(field: &'static str) -> Self {
        let mut e = PathError::new(ErrorCode::Missing, "required but missing".into());
        e.0.inner = Some(Path::root().field(field));
        e
    }
}

/// What serde's name for a type means in a JSON document.
fn plain_expected(expected: &str) -> &str {
    match expected {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number",
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number (0 or more)",
        "f32" | "f64" => "a number",
        "a sequence" => "a list",
        "a map" => "an object",
        "a boolean" => "true or false",
        "a borrowed string" => "a string",
        s if s.starts_with("struct ") => "an object",
        s if s.starts_with("tuple of ") => "a list",
        other => other,
    }
}

/// What a document held, as its reader sees it: `"1x"`, `1.5`, `an object`, `a list`.
struct Plain<'a>(de::Unexpected<'a>);

impl fmt::Display for Plain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use de::Unexpected as U;
        match self.0 {
            U::Bool(b) => write!(f, "{b}"),
            U::Unsigned(i) => write!(f, "{i}"),
            U::Signed(i) => write!(f, "{i}"),
            U::Float(x) if x.is_finite() => crate::text::write_finite(f, x, false),
            U::Str(s) => write!(f, "{s:?}"),
            U::Unit => f.write_str("null"),
            U::Seq => f.write_str("a list"),
            U::Map => f.write_str("an object"),
            other => Worded(other).fmt(f),
        }
    }
}

/// What a document held where something else was expected, worded as serde_json words it
/// (`null`, ``integer `-1` ``, ``floating point `1.5` ``, `string "x"`, `sequence`, `map`).
/// Floats are written as the JSON writer writes them ([`crate::text::write_finite`]).
struct Worded<'a>(de::Unexpected<'a>);

impl fmt::Display for Worded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use de::Unexpected as U;
        match self.0 {
            U::Bool(b) => write!(f, "boolean `{b}`"),
            U::Unsigned(i) => write!(f, "integer `{i}`"),
            U::Signed(i) => write!(f, "integer `{i}`"),
            U::Float(x) if x.is_finite() => {
                f.write_str("floating point `")?;
                crate::text::write_finite(f, x, false)?;
                f.write_str("`")
            }
            U::Float(_) => f.write_str("floating point"),
            U::Char(c) => write!(f, "character `{c}`"),
            U::Str(s) => write!(f, "string {s:?}"),
            U::Bytes(_) => f.write_str("byte array"),
            U::Unit => f.write_str("null"),
            U::Option => f.write_str("Option value"),
            U::NewtypeStruct => f.write_str("newtype struct"),
            U::Seq => f.write_str("sequence"),
            U::Map => f.write_str("map"),
            U::Enum => f.write_str("enum"),
            U::UnitVariant => f.write_str("unit variant"),
            U::NewtypeVariant => f.write_str("newtype variant"),
            U::TupleVariant => f.write_str("tuple variant"),
            U::StructVariant => f.write_str("struct variant"),
            U::Other(other) => f.write_str(other),
        }
    }
}

pub(super) type R<T> = core::result::Result<T, PathError>;

/// A map key: always a string.
pub(super) struct Key<'a>(pub(super) &'a str);

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

enum Frame<'a> {
    Object { key: Option<&'a str> },
    Array { index: usize, started: bool },
}

fn path_of(frames: &[Frame<'_>]) -> Path {
    let mut out = Path::root();
    for f in frames {
        match f {
            Frame::Object { key: Some(k) } => out = out.field(String::from(*k)),
            Frame::Array {
                index,
                started: true,
            } => out = out.index(*index),
            _ => {}
        }
    }
    out
}

/// The path of the field at `line` (1-based) and `column` (bytes consumed on that line), as
/// serde_json reports positions: the last key or element read, or the object or array just
/// closed (a missing field is reported at its object's closing brace).
pub fn path_at(text: &str, line: usize, column: usize) -> Path {
    let start: usize = text
        .split('\n')
        .take(line.saturating_sub(1))
        .map(|l| l.len() + 1)
        .sum();
    path_before(text, start.saturating_add(column))
}

/// [`path_at`] for the first `end` bytes of `text`.
fn path_before(text: &str, end: usize) -> Path {
    let end = end.min(text.len());
    let bytes = &text.as_bytes()[..end];
    let mut frames: Vec<Frame<'_>> = Vec::new();
    let mut expect_key = false;
    let mut closed: Option<Path> = None;
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
