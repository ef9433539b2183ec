//! How a field's value is written as text and read back (docs/playground.md): what the user
//! types is kept as typed; what it means goes into the document (a number, a string, a map, a
//! list, a JSON subtree), and text that means nothing valid goes in as a plain string so the
//! core names the field in its error.

use serde_json::{Map, Value};

/// How a value is written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// An integer.
    Int,
    /// A string.
    Text,
    /// A byte amount as a Kubernetes quantity (`16Gi`), kept as a string; a number in the
    /// document is shown as a quantity too.
    Quantity,
    /// `key=value, key=value` with string values (labels).
    Labels,
    /// `key=value, ...` with quantity values (resource lists, CPU maps).
    Amounts,
    /// `a, b, c`.
    List,
    /// Any JSON (tolerations, affinity, taints, pods).
    Json,
    /// A checkbox, off when absent.
    Bool,
    /// A checkbox, on when absent (a gate that defaults to on).
    BoolOn,
    /// One of these values (`""`: absent, the default).
    Choice(&'static [(&'static str, &'static str)]),
    /// One of these JSON values, written compactly (`""`: absent).
    JsonChoice(&'static [(&'static str, &'static str)]),
}

impl Kind {
    /// Every kind written as free text (a choice offers its own values).
    pub const FREE: &'static [Kind] = &[
        Kind::Int,
        Kind::Text,
        Kind::Quantity,
        Kind::Labels,
        Kind::Amounts,
        Kind::List,
        Kind::Json,
        Kind::Bool,
        Kind::BoolOn,
    ];
}

/// The text shown for a value.
pub fn format(kind: Kind, value: Option<&Value>) -> String {
    let Some(value) = value else {
        return String::new();
    };
    match (kind, value) {
        (_, Value::String(s)) if kind != Kind::Json => s.clone(),
        (Kind::Quantity, v) => bytes("memory", v).unwrap_or_else(|| v.to_string()),
        (Kind::Labels | Kind::Amounts, Value::Object(m)) => m
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k}={s}"),
                other => match bytes(k, other) {
                    Some(q) if kind == Kind::Amounts => format!("{k}={q}"),
                    _ => format!("{k}={other}"),
                },
            })
            .collect::<Vec<_>>()
            .join(", "),
        (Kind::List, Value::Array(a)) => a
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(", "),
        (Kind::Json, v) => serde_json::to_string_pretty(v).unwrap_or_default(),
        (Kind::JsonChoice(_), v) => v.to_string(),
        (_, v) => v.to_string(),
    }
}

/// A whole number of bytes of `resource` as a quantity (`10Gi`), if it is one.
fn bytes(resource: &str, v: &Value) -> Option<String> {
    let n = v
        .as_u64()
        .filter(|_| allot_core::quantity::is_bytes(resource))?;
    Some(allot_core::quantity::format(n, resource))
}

/// An integer, however large: beyond 64 bits it goes in as the number it is (serde_json reads
/// it as a float), so that the core says it is too large rather than not a number.
fn int(t: &str) -> Option<Value> {
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    serde_json::from_str(t).ok()
}

/// What a text means (`None`: remove the value).
pub fn parse(kind: Kind, text: &str) -> Option<Value> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    let raw = || Value::String(t.to_string());
    Some(match kind {
        Kind::Int => int(t).unwrap_or_else(raw),
        Kind::Text | Kind::Quantity | Kind::Choice(_) => raw(),
        Kind::Labels | Kind::Amounts => {
            let mut map = Map::new();
            for pair in t.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                let Some((k, v)) = pair.split_once('=') else {
                    return Some(raw());
                };
                let (k, v) = (k.trim(), v.trim());
                let v = match (kind, v.parse::<i64>()) {
                    (Kind::Amounts, Ok(n)) => Value::from(n),
                    _ => Value::String(v.into()),
                };
                map.insert(k.into(), v);
            }
            // Commas alone say nothing: no value, as an empty field.
            if map.is_empty() {
                return None;
            }
            Value::Object(map)
        }
        Kind::List => {
            let items: Vec<Value> = t
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| Value::String(s.into()))
                .collect();
            if items.is_empty() {
                return None;
            }
            Value::Array(items)
        }
        Kind::Json | Kind::JsonChoice(_) => serde_json::from_str(t).unwrap_or_else(|_| raw()),
        Kind::Bool | Kind::BoolOn => Value::Bool(t == "true"),
    })
}
