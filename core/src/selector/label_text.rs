//! A label selector written as kubectl's `-l` takes it (`env=prod,tier!=web,zone in (a,b),
//! !legacy,gpu`), read into a [`LabelSelector`]: `k=v` and `k==v` as `matchLabels`, `k!=v` as
//! `NotIn (v)`, `k in (..)`, `k notin (..)`, `k` as `Exists`, `!k` as `DoesNotExist`
//! (apimachinery's `labels.Parse`). Keys and values are validated as the API server does.

use alloc::string::String;
use alloc::vec::Vec;

use super::label::{LabelSelector, Requirement};
use crate::error::{indexed, Error, Path, Result};

/// Read `text`; errors are at `field`, the requirement's position after it.
pub fn parse(text: &str, field: &Path) -> Result<LabelSelector> {
    let mut out = LabelSelector::default();
    for (i, part) in split(text).into_iter().enumerate() {
        let at = || indexed("requirements", i).within(field);
        let part = part.trim();
        if part.is_empty() {
            return Err(invalid(at(), "an empty requirement"));
        }
        let req = requirement(part).ok_or_else(|| {
            invalid(
                at(),
                "want KEY=VALUE, KEY!=VALUE, KEY in (A,B), KEY notin (A,B), KEY or !KEY",
            )
        })?;
        match req {
            Req::Equals(k, v) => {
                out.match_labels.insert(k.into(), v.into());
            }
            Req::Expression(r) => out.match_expressions.push(r),
        }
    }
    out.validate().map_err(|e| e.within(field))?;
    Ok(out)
}

enum Req {
    Equals(String, String),
    Expression(Requirement),
}

/// The requirements: split at commas outside parentheses.
fn split(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(text.get(start..i).unwrap_or(""));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text.get(start..).unwrap_or(""));
    out
}

fn expression(key: &str, operator: &str, values: Vec<String>) -> Req {
    Req::Expression(Requirement {
        key: key.trim().into(),
        operator: operator.into(),
        values,
    })
}

fn requirement(part: &str) -> Option<Req> {
    if let Some(key) = part.strip_prefix('!') {
        return Some(expression(key, "DoesNotExist", Vec::new()));
    }
    if let Some((k, v)) = part.split_once("!=") {
        return Some(expression(k, "NotIn", alloc::vec![v.trim().into()]));
    }
    if let Some((k, v)) = part.split_once("==").or_else(|| part.split_once('=')) {
        return Some(Req::Equals(k.trim().into(), v.trim().into()));
    }
    // `key in (a,b)`, `key notin (a,b)`, or a bare key.
    let mut words = part.splitn(2, char::is_whitespace);
    let key = words.next()?.trim();
    let Some(rest) = words.next().map(str::trim) else {
        return Some(expression(key, "Exists", Vec::new()));
    };
    let (operator, list) = if let Some(l) = rest.strip_prefix("notin") {
        ("NotIn", l)
    } else if let Some(l) = rest.strip_prefix("in") {
        ("In", l)
    } else {
        return None;
    };
    let inner = list.trim().strip_prefix('(')?.strip_suffix(')')?;
    let values = inner
        .split(',')
        .map(|v| String::from(v.trim()))
        .filter(|v| !v.is_empty())
        .collect();
    Some(expression(key, operator, values))
}

fn invalid(field: Path, reason: &str) -> Error {
    Error::InvalidSelector {
        field,
        reason: reason.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selector::label::labels_of;

    fn sel(text: &str) -> LabelSelector {
        parse(text, &Path::fields("select")).expect("parses")
    }

    #[test]
    fn every_form_kubectl_takes() {
        let s = sel("env=prod, tier!=web,zone in (a, b),gpu,!legacy,team==x");
        assert!(s.matches(&labels_of([
            ("env", "prod"),
            ("zone", "b"),
            ("gpu", "1"),
            ("team", "x")
        ])));
        assert!(!s.matches(&labels_of([
            ("env", "prod"),
            ("zone", "b"),
            ("gpu", "1"),
            ("team", "x"),
            ("legacy", "y")
        ])));
        assert!(!s.matches(&labels_of([
            ("env", "prod"),
            ("tier", "web"),
            ("zone", "a"),
            ("gpu", "1"),
            ("team", "x")
        ])));
        let n = sel("zone notin (a)");
        assert!(n.matches(&labels_of([("zone", "c")])));
        assert!(!n.matches(&labels_of([("zone", "a")])));
    }

    #[test]
    fn a_wrong_requirement_is_an_error_at_its_position() {
        let e = parse("env=prod,zone within (a)", &Path::fields("select")).unwrap_err();
        assert_eq!(e.code(), "invalid_selector");
        assert_eq!(alloc::format!("{}", e.field()), "select.requirements[1]");
        let e = parse("env=pr od", &Path::fields("select")).unwrap_err();
        assert_eq!(e.code(), "invalid_selector");
        assert!(parse("a=b,", &Path::fields("select")).is_err());
    }
}
