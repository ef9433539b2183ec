//! Kubernetes resource quantities as exact integers (docs/rules/README.md decisions 1 and 2).
//!
//! A quantity string (`"500m"`, `"0.95"`, `"16Gi"`, `"206291924Ki"`, `"1e3"`) becomes an integer
//! in the resource's unit: CPU in millicores, everything else (memory, storage,
//! ephemeral-storage, pods, extended resources like `nvidia.com/gpu`) in base units. Like
//! Kubernetes' `MilliValue`/`Value`, a fraction of a unit rounds up (`"0.5"` bytes is 1 byte,
//! `"1n"` CPU is 1m). Values above `i64::MAX` units are [`Error::TooLarge`].

use alloc::format;
use alloc::string::String;

use crate::error::{Error, Path, Result};
use crate::text::Digits;

/// The largest quantity, in units: Kubernetes' int64 limit.
pub const MAX_QUANTITY: u64 = i64::MAX as u64;

/// The unit a resource's integers count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Thousandths of the quantity (CPU: millicores).
    Milli,
    /// Whole base units (bytes, pods, devices).
    Base,
}

impl Unit {
    /// The unit of a resource name: `cpu` (also `requests.cpu`, `limits.cpu`) counts
    /// millicores; every other resource counts base units.
    pub fn of(resource: &str) -> Unit {
        let name = resource
            .strip_prefix("requests.")
            .or_else(|| resource.strip_prefix("limits."))
            .unwrap_or(resource);
        if name == "cpu" {
            Unit::Milli
        } else {
            Unit::Base
        }
    }

    fn exp10(self) -> i32 {
        match self {
            Unit::Milli => 3,
            Unit::Base => 0,
        }
    }
}

/// Why a quantity string was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum QuantityProblem {
    /// Not `<number><suffix>`.
    Malformed,
    /// More significant digits than allot keeps exactly (19).
    TooPrecise,
}

impl QuantityProblem {
    pub fn describe(self) -> &'static str {
        match self {
            QuantityProblem::Malformed => {
                "a number with an optional suffix (m, k, M, G, Ki, Mi, Gi, e3, ...)"
            }
            QuantityProblem::TooPrecise => "at most 19 significant digits",
        }
    }
}

/// What a malformed quantity was probably meant to be: `32GB`, `32 GiB` and `32gi` become
/// `32Gi`; `16 Gi` becomes `16Gi`. `None` when no such reading is a quantity.
pub fn suggestion(text: &str) -> Option<String> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if compact != text && Parsed::from_str(&compact).is_some() {
        return Some(compact);
    }
    let body = compact.strip_suffix(['B', 'b']).unwrap_or(&compact);
    let body = body.strip_suffix(['i', 'I']).unwrap_or(body);
    let (at, _) = body.char_indices().last()?;
    let (number, prefix) = body.split_at(at);
    let binary = match prefix {
        "k" | "K" => "Ki",
        "m" | "M" => "Mi",
        "g" | "G" => "Gi",
        "t" | "T" => "Ti",
        "p" | "P" => "Pi",
        "e" | "E" => "Ei",
        _ => return None,
    };
    let meant = format!("{number}{binary}");
    (meant != text && Parsed::from_str(&meant).is_some()).then_some(meant)
}

/// Parse a Kubernetes quantity into `unit`s, rounding a fraction of a unit up.
/// Errors (malformed strings, negative values, values above [`MAX_QUANTITY`]) are located at
/// the value itself: the caller places them with [`Error::within`].
pub fn parse(text: &str, unit: Unit) -> Result<u64> {
    let malformed = |problem: QuantityProblem| Error::InvalidQuantity {
        field: Path::root(),
        value: text.into(),
        expected: problem.describe(),
    };
    let p = Parsed::from_str(text).ok_or_else(|| malformed(QuantityProblem::Malformed))?;
    if p.too_precise {
        return Err(if p.int_digits >= 20 {
            too_large()
        } else {
            malformed(QuantityProblem::TooPrecise)
        });
    }
    let value = p.scaled(unit.exp10()).ok_or_else(too_large)?;
    if p.negative && value > 0 {
        return Err(Error::Negative {
            field: Path::root(),
            value: -(value.min(MAX_QUANTITY) as i64),
        });
    }
    Ok(value)
}

/// A JSON number as a quantity: the same meaning as the string of that number (`cpu: 0.5`
/// is 500m, `memory: 1024` is 1024 bytes).
pub fn from_f64(value: f64, unit: Unit) -> Result<u64> {
    // The shortest decimal that reads back as the same f64, with an exponent where that is
    // shorter (`1e-7`): a quantity suffix, so it reads as the same amount.
    let text = format!("{}", crate::text::Decimal(value));
    if !value.is_finite() {
        return Err(Error::InvalidQuantity {
            field: Path::root(),
            value: text,
            expected: QuantityProblem::Malformed.describe(),
        });
    }
    parse(&text, unit)
}

/// An integer JSON number as a quantity.
pub fn from_i128(value: i128, unit: Unit) -> Result<u64> {
    if value < 0 {
        return Err(Error::Negative {
            field: Path::root(),
            value: value.max(i128::from(i64::MIN)) as i64,
        });
    }
    let scale: i128 = if unit == Unit::Milli { 1000 } else { 1 };
    value
        .checked_mul(scale)
        .filter(|&v| v <= i128::from(MAX_QUANTITY))
        .map(|v| v as u64)
        .ok_or_else(too_large)
}

fn too_large() -> Error {
    Error::TooLarge {
        field: Path::root(),
        limit: MAX_QUANTITY,
    }
}

/// `±m × 10^exp10 × 2^exp2`, with `m` at most 19 significant digits.
struct Parsed {
    negative: bool,
    mantissa: u64,
    exp10: i32,
    exp2: u32,
    int_digits: i32,
    too_precise: bool,
}

impl Parsed {
    fn from_str(text: &str) -> Option<Parsed> {
        let (negative, body) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let number_end = body
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(body.len());
        let (number, rest) = body.split_at(number_end);
        let (int, frac) = number.split_once('.').unwrap_or((number, ""));
        if int.is_empty() && frac.is_empty() || frac.contains('.') {
            return None;
        }
        // All digits as one integer times 10^-len(frac), without leading or trailing zeros.
        let int = int.trim_start_matches('0');
        let digits: alloc::vec::Vec<u8> = int.bytes().chain(frac.bytes()).collect();
        let first = digits
            .iter()
            .position(|&d| d != b'0')
            .unwrap_or(digits.len());
        let last = digits
            .iter()
            .rposition(|&d| d != b'0')
            .map_or(first, |p| p + 1);
        let significant = &digits[first..last];
        let trailing = (digits.len() - last) as i32;
        let (suffix10, exp2) = suffix(rest)?;
        let mantissa = if significant.len() > 19 {
            0
        } else {
            significant
                .iter()
                .fold(0u64, |m, &d| m * 10 + u64::from(d - b'0'))
        };
        Some(Parsed {
            negative,
            mantissa,
            exp10: (trailing - frac.len() as i32).checked_add(suffix10)?,
            exp2,
            int_digits: (int.len() as i32).saturating_add(suffix10),
            too_precise: significant.len() > 19,
        })
    }

    /// The value in units of `10^-unit_exp10`, rounded up; `None` above [`MAX_QUANTITY`].
    fn scaled(&self, unit_exp10: i32) -> Option<u64> {
        if self.mantissa == 0 {
            return Some(0);
        }
        let e = self.exp10.checked_add(unit_exp10)?;
        // mantissa < 2^64 and 2^exp2 <= 2^60: the product fits in u128.
        let num = u128::from(self.mantissa) << self.exp2;
        let value = if e >= 0 {
            let mut v = num;
            for _ in 0..e {
                v = v.checked_mul(10)?;
                if v > u128::from(MAX_QUANTITY) {
                    return None;
                }
            }
            v
        } else if -e > 38 {
            // Below one unit: rounds up to 1.
            1
        } else {
            let d = 10u128.pow((-e) as u32);
            num.div_ceil(d)
        };
        u64::try_from(value).ok().filter(|&v| v <= MAX_QUANTITY)
    }
}

/// The suffix's decimal exponent and binary exponent.
fn suffix(s: &str) -> Option<(i32, u32)> {
    Some(match s {
        "" => (0, 0),
        "n" => (-9, 0),
        "u" => (-6, 0),
        "m" => (-3, 0),
        "k" => (3, 0),
        "M" => (6, 0),
        "G" => (9, 0),
        "T" => (12, 0),
        "P" => (15, 0),
        "E" => (18, 0),
        "Ki" => (0, 10),
        "Mi" => (0, 20),
        "Gi" => (0, 30),
        "Ti" => (0, 40),
        "Pi" => (0, 50),
        "Ei" => (0, 60),
        _ => {
            let rest = s.strip_prefix('e').or_else(|| s.strip_prefix('E'))?;
            let (neg, digits) = match rest.as_bytes().first()? {
                b'-' => (true, &rest[1..]),
                b'+' => (false, &rest[1..]),
                _ => (false, rest),
            };
            if digits.is_empty() || digits.len() > 6 || !digits.bytes().all(|c| c.is_ascii_digit())
            {
                return None;
            }
            let e: i32 = digits.parse().ok()?;
            (if neg { -e } else { e }, 0)
        }
    })
}

/// A quantity read for a resource, with its exact amount and canonical form (what the
/// package's `parseQuantity` answers).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct QuantityValue {
    /// The amount in the resource's unit (millicores for CPU, else base units); exact up to
    /// 2^53, the nearest number beyond.
    pub value: f64,
    /// The exact amount as a decimal integer string.
    pub exact: String,
    pub unit: Unit,
    /// The canonical quantity string (`"500m"`, `"16Gi"`).
    pub canonical: String,
}

/// Read `text` as a quantity of `resource`: [`parse`] in the resource's [`Unit`], with its
/// exact and canonical forms; errors are located at the resource's name.
pub fn read(text: &str, resource: &str) -> Result<QuantityValue> {
    value_of(parse(text, Unit::of(resource)), resource)
}

/// [`read`] for a number, which means what its text means ([`from_f64`]).
pub fn read_number(value: f64, resource: &str) -> Result<QuantityValue> {
    value_of(from_f64(value, Unit::of(resource)), resource)
}

fn value_of(units: Result<u64>, resource: &str) -> Result<QuantityValue> {
    let value = units.map_err(|e| e.within(&Path::root().field(String::from(resource))))?;
    Ok(QuantityValue {
        value: value as f64,
        exact: format!("{value}"),
        unit: Unit::of(resource),
        canonical: self::format(value, resource),
    })
}

/// Format `value` units as a Kubernetes quantity: `"500m"`/`"4"` for CPU, the largest exact
/// binary suffix for byte resources (`"16Gi"`), plain integers otherwise. [`parse`] reads it
/// back to the same value.
pub fn format(value: u64, resource: &str) -> String {
    match Unit::of(resource) {
        Unit::Milli if value % 1000 == 0 => format!("{}", value / 1000),
        Unit::Milli => format!("{value}m"),
        Unit::Base if is_bytes(resource) => {
            let (v, suffix) = binary(value.into());
            format!("{v}{suffix}")
        }
        Unit::Base => format!("{value}"),
    }
}

/// A byte amount as a number and the largest binary suffix that divides it exactly
/// (`(10, "Gi")`; `(100, "")`; `(0, "")`).
pub(crate) fn binary(value: u128) -> (u128, &'static str) {
    const SUFFIXES: [&str; 7] = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
    let mut v = value;
    let mut k = 0;
    while v != 0 && v % 1024 == 0 && k < SUFFIXES.len() - 1 {
        v /= 1024;
        k += 1;
    }
    (v, SUFFIXES[k])
}

/// A human figure for formulas: CPU in cores with decimals (`0.95`), bytes with a binary
/// suffix when exact, plain counts otherwise.
pub fn human(value: i128, resource: &str) -> String {
    let sign = if value < 0 { "-" } else { "" };
    let abs = value.unsigned_abs();
    let v = u64::try_from(abs).unwrap_or(u64::MAX);
    match Unit::of(resource) {
        Unit::Milli => format!("{sign}{}", decimal(v, 1000, 3)),
        Unit::Base => format!("{sign}{}", format(v, resource)),
    }
}

/// `num / den` as a decimal with at most `places` places (up to 18), truncated, trailing zeros
/// trimmed; `∞` when `den` is 0.
pub fn decimal(num: u64, den: u64, places: u32) -> String {
    if den == 0 {
        return String::from("∞");
    }
    let mut out = String::from(Digits::new(num / den).as_str());
    let scale = 10u64.pow(places.min(18));
    // (num % den) < den, so the product fits in u128 and the quotient is below `scale`.
    let frac = u128::from(num % den) * u128::from(scale) / u128::from(den);
    if frac != 0 {
        // scale + frac < 2 * 10^18 < 2^64: its digits are a 1, then frac padded with zeros.
        let padded = Digits::new(scale + frac as u64);
        out.push('.');
        out.push_str(
            padded
                .as_str()
                .get(1..)
                .unwrap_or_default()
                .trim_end_matches('0'),
        );
    }
    out
}

/// Whether a resource is counted in bytes (`memory`, `storage`, `ephemeral-storage`,
/// `hugepages-*`).
pub fn is_bytes(resource: &str) -> bool {
    let name = resource.strip_prefix("requests.").unwrap_or(resource);
    matches!(name, "memory" | "storage" | "ephemeral-storage") || name.starts_with("hugepages-")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpu(s: &str) -> Result<u64> {
        parse(s, Unit::Milli)
    }
    fn bytes(s: &str) -> Result<u64> {
        parse(s, Unit::Base)
    }

    #[test]
    fn parses_the_seed_examples() {
        assert_eq!(cpu("500m"), Ok(500));
        assert_eq!(cpu("0.95"), Ok(950));
        assert_eq!(cpu("4"), Ok(4000));
        assert_eq!(cpu(".5"), Ok(500));
        assert_eq!(cpu("5."), Ok(5000));
        assert_eq!(bytes("16Gi"), Ok(16 << 30));
        assert_eq!(bytes("206291924Ki"), Ok(206_291_924 * 1024));
        assert_eq!(bytes("1e3"), Ok(1000));
        assert_eq!(bytes("1E-3"), Ok(1));
        assert_eq!(bytes("9223372036854775807"), Ok(i64::MAX as u64));
        assert_eq!(bytes("290Mi"), Ok(290 << 20));
        assert_eq!(bytes("1.5Gi"), Ok(3 << 29));
        assert_eq!(bytes("0"), Ok(0));
        assert_eq!(bytes("+7"), Ok(7));
        assert_eq!(bytes("100.0"), Ok(100));
        assert_eq!(bytes("100"), Ok(100));
        assert_eq!(bytes("1000k"), Ok(1_000_000));
        assert_eq!(bytes("0.001k"), Ok(1));
        assert_eq!(cpu("1n"), Ok(1));
        assert_eq!(cpu("1500u"), Ok(2));
        assert_eq!(bytes("10.50"), Ok(11));
        assert_eq!(bytes("0.000"), Ok(0));
        assert_eq!(bytes("1000000000000000000000e-10"), Ok(100_000_000_000));
    }

    /// JSON numbers read as the quantity their shortest decimal spells, exponent forms
    /// (`1e-7`, `1e+21`) included.
    #[test]
    fn json_numbers_as_quantities() {
        assert_eq!(from_f64(0.5, Unit::Milli).unwrap(), 500);
        assert_eq!(from_f64(2.0, Unit::Milli).unwrap(), 2000);
        assert_eq!(from_f64(2.5e3, Unit::Base).unwrap(), 2500);
        assert_eq!(from_f64(1e-7, Unit::Milli).unwrap(), 1);
        assert_eq!(from_f64(1.5e15, Unit::Base).unwrap(), 1_500_000_000_000_000);
        assert_eq!(from_f64(1e21, Unit::Base).unwrap_err().code(), "too_large");
        let e = from_f64(f64::NAN, Unit::Base).unwrap_err();
        assert_eq!(e.code(), "invalid_quantity");
        assert!(format!("{e}").contains("\"NaN\""), "{e}");
    }

    #[test]
    fn rejects_bad_input_with_typed_errors() {
        for bad in [
            "", "m", "1.2.3", "1Kb", "abc", "1 Gi", "--1", "1e", "1e+", "0x10", "1ee3",
        ] {
            let e = bytes(bad).unwrap_err();
            assert_eq!(e.code(), "invalid_quantity", "{bad:?}");
            assert!(e.field().is_root());
        }
        assert_eq!(bytes("-1").unwrap_err().code(), "negative");
        assert_eq!(cpu("-0.5").unwrap_err().code(), "negative");
        assert_eq!(bytes("-0"), Ok(0));
        assert_eq!(
            bytes("9223372036854775808").unwrap_err().code(),
            "too_large"
        );
        assert_eq!(cpu("9223372036854775807").unwrap_err().code(), "too_large");
        assert_eq!(bytes("8Ei").unwrap_err().code(), "too_large");
        assert_eq!(bytes("1e999999").unwrap_err().code(), "too_large");
        assert_eq!(
            bytes("123456789012345678901234").unwrap_err().code(),
            "too_large"
        );
        assert_eq!(
            bytes("1.23456789012345678901").unwrap_err().code(),
            "invalid_quantity"
        );
    }

    #[test]
    fn format_reads_back() {
        for (v, r) in [
            (500, "cpu"),
            (4000, "cpu"),
            (16 << 30, "memory"),
            (1023, "memory"),
            (110, "pods"),
            (0, "memory"),
            (i64::MAX as u64, "memory"),
        ] {
            let s = format(v, r);
            assert_eq!(parse(&s, Unit::of(r)), Ok(v), "{s}");
        }
        assert_eq!(format(950, "cpu"), "950m");
        assert_eq!(format(16 << 30, "memory"), "16Gi");
        assert_eq!(human(950, "cpu"), "0.95");
        assert_eq!(human(3050, "cpu"), "3.05");
        assert_eq!(decimal(3050, 500, 2), "6.1");
        assert_eq!(decimal(2000, 500, 2), "4");
        assert_eq!(decimal(1, 8, 3), "0.125");
        assert_eq!(decimal(1, 1000, 3), "0.001");
        assert_eq!(decimal(1, 3, 2), "0.33");
        assert_eq!(decimal(7, 0, 2), "∞");
        assert_eq!(decimal(u64::MAX, 1, 2), "18446744073709551615");
        assert_eq!(decimal(u64::MAX, u64::MAX - 1, 40), "1");
        assert_eq!(
            decimal(1, 1_000_000_000_000_000_000, 40),
            "0.000000000000000001"
        );
        assert_eq!(decimal(1, 10_000_000_000_000_000_000, 40), "0");
    }

    #[test]
    fn numbers_mean_what_their_text_means() {
        assert_eq!(from_f64(0.5, Unit::Milli), Ok(500));
        assert_eq!(from_f64(0.95, Unit::Milli), Ok(950));
        assert_eq!(from_i128(4, Unit::Milli), Ok(4000));
        assert_eq!(from_i128(-1, Unit::Base).unwrap_err().code(), "negative");
        assert_eq!(
            from_f64(f64::NAN, Unit::Base).unwrap_err().code(),
            "invalid_quantity"
        );
        assert_eq!(from_f64(1e300, Unit::Base).unwrap_err().code(), "too_large");
    }
}
