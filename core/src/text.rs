//! Small text forms shared by the JSON writer, error messages and explanations: integers'
//! digits and shortest decimals, written here rather than with `{}`, whose float formatting
//! alone is some 12 KB of wasm. (Quoted strings are `{:?}` and integers in messages `{}`: writers of
//! our own saved 287 and 589 bytes gzip, too little to keep.)

use core::fmt;

/// An integer's decimal digits, written without `core::fmt`: for text built per target (the
/// JSON writer's numbers, per-node explanations), where fmt's per-argument machinery costs more
/// than the digits in wasm, and for 128-bit integers, whose fmt code is 1.5 KB of wasm.
pub(crate) struct Digits {
    buf: [u8; 39],
    start: usize,
}

impl Digits {
    pub(crate) fn new(v: u64) -> Digits {
        Digits {
            buf: [0u8; 39],
            start: 39,
        }
        .prepend(v)
    }

    /// Digits of a 128-bit integer: 64-bit arithmetic once the rest fits, as 128-bit division
    /// runs in software in wasm.
    pub(crate) fn wide(mut v: u128) -> Digits {
        let mut d = Digits {
            buf: [0u8; 39],
            start: 39,
        };
        loop {
            if let Ok(rest) = u64::try_from(v) {
                return d.prepend(rest);
            }
            d.put((v % 10) as u8);
            v /= 10;
        }
    }

    fn prepend(mut self, mut v: u64) -> Digits {
        // 32-bit arithmetic once the rest fits: wasm has no 64-bit multiply-high, so a 64-bit
        // division by 10 stays a division, where a 32-bit one becomes a multiplication. No
        // speed change showed in Node, but the module is 250 bytes (gzip) smaller.
        let mut small = loop {
            match u32::try_from(v) {
                Ok(small) => break small,
                Err(_) => {
                    self.put((v % 10) as u8);
                    v /= 10;
                }
            }
        };
        loop {
            self.put((small % 10) as u8);
            small /= 10;
            if small == 0 {
                return self;
            }
        }
    }

    fn put(&mut self, digit: u8) {
        if let Some(slot) = self.start.checked_sub(1).and_then(|i| self.buf.get_mut(i)) {
            *slot = b'0' + digit;
            self.start -= 1;
        }
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        self.buf.get(self.start..).unwrap_or_default()
    }

    pub(crate) fn as_str(&self) -> &str {
        // Only ASCII digits were written.
        core::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

/// `v` in decimal at the end of `out`, `-` first when negative.
pub(crate) fn push_int(out: &mut impl fmt::Write, v: i128) -> fmt::Result {
    if v < 0 {
        out.write_char('-')?;
    }
    out.write_str(Digits::wide(v.unsigned_abs()).as_str())
}

/// A byte amount at the end of `out` as a quantity: the largest binary suffix that divides it
/// exactly (`10Gi`, `1536Mi`), plain digits otherwise (`100`); `-` first when negative.
pub(crate) fn push_bytes(out: &mut impl fmt::Write, v: i128) -> fmt::Result {
    let (n, suffix) = crate::quantity::binary(v.unsigned_abs());
    // `n` fits: only i128::MIN's magnitude does not, and it is a multiple of 1024.
    let n = i128::try_from(n).unwrap_or(i128::MAX);
    push_int(out, if v < 0 { -n } else { n })?;
    out.write_str(suffix)
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
    match ExactDecimal::new(v, trim_whole) {
        Some(exact) => out.write_str(exact.as_str()),
        None => write_ryu(out, v, trim_whole),
    }
}

/// [`write_finite`] by ryu, for the numbers [`ExactDecimal`] does not cover (and the same
/// text for those it does).
pub(crate) fn write_ryu(out: &mut impl fmt::Write, v: f64, trim_whole: bool) -> fmt::Result {
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

/// The exact decimal form of an `f64` whose exact value has at most 15 significant digits and
/// lies where ryu writes no exponent (between 1e-5 and 1e15): most numbers in outcomes
/// (`0.265625`, `0.5`, `48.0`) are such, being sums of a few powers of two.
///
/// It is the text ryu writes, found without ryu's 128-bit arithmetic, which wasm runs in
/// software (ryu took a tenth of a wasm call on an outcome with two numbers per node). Why
/// it is the same text: two decimals of at most 15 significant digits never read back as the
/// same `f64` (`f64::DIGITS` is 15), so no other text of at most that many digits reads back
/// as `v`, and the shortest form ryu finds is this one.
pub(crate) struct ExactDecimal {
    buf: [u8; 24],
    len: usize,
}

impl ExactDecimal {
    pub(crate) fn new(v: f64, trim_whole: bool) -> Option<ExactDecimal> {
        const MANTISSA_BITS: u32 = 52;
        const BIAS: i32 = 1075; // 1023 + 52: v = mantissa * 2^(exponent - BIAS)
        const LIMIT: u64 = 1_000_000_000_000_000; // 10^15: at most 15 digits
        let bits = v.to_bits();
        let exponent = ((bits >> MANTISSA_BITS) & 0x7ff) as i32;
        if exponent == 0 || exponent == 0x7ff {
            // Zero, subnormal, infinite or NaN: ryu's.
            return None;
        }
        let mantissa = (bits & ((1 << MANTISSA_BITS) - 1)) | (1 << MANTISSA_BITS);
        let shift = mantissa.trailing_zeros();
        let odd = mantissa >> shift;
        // v = ±odd * 2^power, odd odd.
        let power = exponent - BIAS + shift as i32;
        // The digits as an integer, and how many of them follow the decimal point: odd * 2^-d
        // is odd * 5^d / 10^d, so a fraction of d binary places has exactly d decimal places.
        let (digits, places) = if power >= 0 {
            let whole = odd
                .checked_shl(power as u32)
                .filter(|w| w >> power == odd)?;
            (whole, 0)
        } else {
            let places = power.unsigned_abs();
            (odd.checked_mul(5u64.checked_pow(places)?)?, places as usize)
        };
        if digits >= LIMIT {
            return None;
        }
        let text = Digits::new(digits);
        let text = text.as_str().as_bytes();
        let mut out = ExactDecimal {
            buf: [0; 24],
            len: 0,
        };
        if bits >> 63 == 1 {
            out.put(b"-");
        }
        match text.len().checked_sub(places) {
            // Whole: `48.0`, or `48` when trimmed.
            Some(_) if places == 0 => {
                out.put(text);
                if !trim_whole {
                    out.put(b".0");
                }
            }
            // At least one digit before the point: `12.34`.
            Some(point) if point > 0 => {
                let (whole, fraction) = text.split_at(point);
                out.put(whole);
                out.put(b".");
                out.put(fraction);
            }
            // Below one: `0.001234`, with at most four zeros after the point, as ryu writes
            // plain decimals down to 1e-5.
            _ => {
                let zeros = places - text.len();
                if zeros > 4 {
                    return None;
                }
                out.put(b"0.");
                out.put(b"0000".get(..zeros).unwrap_or_default());
                out.put(text);
            }
        }
        Some(out)
    }

    fn put(&mut self, bytes: &[u8]) {
        if let Some(slots) = self.buf.get_mut(self.len..self.len + bytes.len()) {
            slots.copy_from_slice(bytes);
            self.len += bytes.len();
        }
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or_default()
    }

    fn as_str(&self) -> &str {
        // Only ASCII digits, signs and points were written.
        core::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

/// A noun in the number a count asks for: `plural(1, "seat", "seats")` is `seat`.
pub fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

#[cfg(test)]
mod tests {
    use super::{push_bytes, push_int, Decimal, Digits, ExactDecimal};
    use alloc::format;
    use alloc::string::String;
    use proptest::prelude::*;
    use proptest::test_runner::TestCaseError;

    #[test]
    fn byte_amounts_are_written_as_quantities() {
        for (v, text) in [
            (0, "0"),
            (100, "100"),
            (1024, "1Ki"),
            (10 << 30, "10Gi"),
            (1536 << 20, "1536Mi"),
            (104_857_600, "100Mi"),
            (-(2 << 20), "-2Mi"),
            (1 << 70, "1024Ei"),
        ] {
            let mut s = String::new();
            push_bytes(&mut s, v).unwrap();
            assert_eq!(s, text);
        }
    }

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
            push_int(&mut s, v.into()).unwrap();
            assert_eq!(s, format!("x{v}"));
        }
        for v in [0, 7, 10, 12_345, u64::MAX, u64::MAX / 10] {
            assert_eq!(Digits::new(v).as_str(), format!("{v}"));
            assert_eq!(Digits::wide(v.into()).as_str(), format!("{v}"));
        }
        for v in [
            u128::from(u64::MAX) + 1,
            u128::from(u64::MAX) * 10,
            u128::MAX,
            u128::MAX / 7,
        ] {
            assert_eq!(Digits::wide(v).as_str(), format!("{v}"));
        }
        for v in [0, -1, 42, i128::MIN, i128::MAX, -(1 << 70)] {
            let mut s = alloc::string::String::new();
            push_int(&mut s, v).unwrap();
            assert_eq!(s, format!("{v}"));
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

    /// What `write_finite` writes without the exact-decimal path: ryu's text.
    fn ryu_text(v: f64, trim_whole: bool) -> String {
        let mut text = String::new();
        super::write_ryu(&mut text, v, trim_whole).unwrap();
        text
    }

    /// The exact-decimal path writes what ryu writes, wherever it answers.
    fn same_as_ryu(v: f64) -> Result<(), TestCaseError> {
        for trim_whole in [false, true] {
            if let Some(exact) = ExactDecimal::new(v, trim_whole) {
                prop_assert_eq!(exact.as_str(), ryu_text(v, trim_whole), "{:e}", v);
            }
        }
        Ok(())
    }

    #[test]
    fn exact_decimals_are_ryus_text() {
        for (v, text) in [
            (0.265625, Some("0.265625")),
            (0.015625, Some("0.015625")),
            (-2.5, Some("-2.5")),
            (48.0, Some("48.0")),
            (0.5, Some("0.5")),
            (123_456_789.125, Some("123456789.125")),
            (999_999_999_999_999.0, Some("999999999999999.0")),
            (1e15, None),
            (0.0000152587890625, Some("0.0000152587890625")),
            // 2^-17 = 7.62939453125e-6: below 1e-5, where ryu writes an exponent.
            (0.00000762939453125, None),
            // 1/3 is no short decimal.
            (1.0 / 3.0, None),
            (0.1, None),
            (0.0, None),
            (-0.0, None),
            (f64::MIN_POSITIVE, None),
        ] {
            assert_eq!(
                ExactDecimal::new(v, false)
                    .as_ref()
                    .map(ExactDecimal::as_str),
                text
            );
            same_as_ryu(v).unwrap();
        }
        // Every dyadic fraction of up to 20 binary places below 4.
        for n in 0..(4u64 << 20) {
            same_as_ryu(n as f64 / (1u64 << 20) as f64).unwrap();
        }
    }

    proptest! {
        #[test]
        fn any_f64_is_written_as_ryu_writes_it(bits in any::<u64>()) {
            let v = f64::from_bits(bits);
            if v.is_finite() {
                same_as_ryu(v)?;
            }
        }

        #[test]
        fn sums_of_few_powers_of_two_are_written_as_ryu_writes_them(
            odd in 0u64..(1 << 40),
            power in -60i32..50,
            negative in any::<bool>(),
        ) {
            let v = (odd as f64) * 2f64.powi(power) * if negative { -1.0 } else { 1.0 };
            same_as_ryu(v)?;
        }
    }
}
