//! Small text forms shared by error messages and explanations: quoted strings and shortest
//! decimals. Both are written here rather than with `{:?}` and `{}`, which would link core's
//! Unicode printable tables and float formatting (some 12 KB of wasm) for messages alone.

use core::fmt::{self, Write as _};

/// Text in double quotes, escaped as Rust's `{:?}` escapes it, except that characters
/// beyond ASCII are written as they are.
pub(crate) struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if c.is_ascii_control() => write!(f, "\\u{{{:x}}}", u32::from(c))?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

/// An integer's decimal digits, written without `core::fmt`: for text built per target (the
/// JSON writer's numbers, per-node explanations), where fmt's per-argument machinery costs more
/// than the digits in wasm.
pub(crate) struct Digits {
    buf: [u8; 20],
    start: usize,
}

impl Digits {
    pub(crate) fn new(mut v: u64) -> Digits {
        let mut buf = [0u8; 20];
        let mut start = buf.len();
        while let Some(slot) = start.checked_sub(1).and_then(|i| buf.get_mut(i)) {
            *slot = b'0' + (v % 10) as u8;
            start -= 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        Digits { buf, start }
    }

    pub(crate) fn as_str(&self) -> &str {
        // Only ASCII digits were written.
        core::str::from_utf8(self.buf.get(self.start..).unwrap_or_default()).unwrap_or_default()
    }
}

/// `v` in decimal at the end of `out`, `-` first when negative.
pub(crate) fn push_int(out: &mut impl fmt::Write, v: i64) -> fmt::Result {
    if v < 0 {
        out.write_char('-')?;
    }
    out.write_str(Digits::new(v.unsigned_abs()).as_str())
}

/// A number in the shortest decimal form that reads back as the same `f64`, as the JSON writer
/// writes it (`0.5`, `1e-7`, `1e+21`), except that whole numbers have no `.0` (`2`); `NaN`,
/// `inf`, `-inf` for the rest.
pub(crate) struct Decimal(pub f64);

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            v if v.is_finite() => write_finite(f, v, true),
            v if v.is_nan() => f.write_str("NaN"),
            v if v > 0.0 => f.write_str("inf"),
            _ => f.write_str("-inf"),
        }
    }
}

/// A finite `v` in the shortest form that reads back as the same `f64` (ryu's), with the
/// exponent signed as serde_json and JavaScript write it: `0.25`, `2.0`, `1e-7`, `1e+21`.
/// `trim_whole` writes `2.0` as `2`.
pub(crate) fn write_finite(out: &mut impl fmt::Write, v: f64, trim_whole: bool) -> fmt::Result {
    let mut buffer = ryu::Buffer::new();
    let text = buffer.format_finite(v);
    let text = match trim_whole {
        true => text.strip_suffix(".0").unwrap_or(text),
        false => text,
    };
    match text.split_once('e') {
        Some((mantissa, exponent)) if !exponent.starts_with('-') => {
            out.write_str(mantissa)?;
            out.write_str("e+")?;
            out.write_str(exponent)
        }
        _ => out.write_str(text),
    }
}

#[cfg(test)]
mod tests {
    use super::{push_int, Decimal, Digits, Quoted};
    use alloc::format;
    use alloc::string::String;

    #[test]
    fn integers_are_written_as_display_writes_them() {
        for v in [
            0,
            1,
            -1,
            9,
            10,
            -10,
            99,
            1_073_741_824,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ] {
            let mut s = String::from("x");
            push_int(&mut s, v).unwrap();
            assert_eq!(s, format!("x{v}"));
        }
        for v in [0, 7, 10, 12_345, u64::MAX, u64::MAX / 10] {
            assert_eq!(Digits::new(v).as_str(), format!("{v}"));
        }
    }

    #[test]
    fn decimals_are_shortest_and_whole_numbers_plain() {
        for (v, text) in [
            (0.5, "0.5"),
            (2.0, "2"),
            (-3.0, "-3"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e-7, "1e-7"),
            (1e21, "1e+21"),
            (2.5e-300, "2.5e-300"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(format!("{}", Decimal(v)), text);
        }
    }

    #[test]
    fn quoted_escapes_as_debug_does_for_ascii() {
        for s in [
            "plain",
            "a\"b",
            "back\\slash",
            "line\nbreak\ttab\r",
            "bell\u{7}",
            "ü",
        ] {
            assert_eq!(format!("{}", Quoted(s)), format!("{s:?}"));
        }
    }
}
