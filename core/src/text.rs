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
    use super::{Decimal, Quoted};
    use alloc::format;

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
