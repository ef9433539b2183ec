//! Kubernetes label selectors: `matchLabels` and `matchExpressions` with In, NotIn, Exists and
//! DoesNotExist, with the API server's validation of keys, values and operator arity.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::error::{indexed, Error, Path, Result};
use crate::Name;

/// Labels of an object.
pub type Labels = BTreeMap<Name, Name>;

/// Labels from any pairs of texts (`[("env", "prod")]`, a map of strings).
pub fn labels_of<K: AsRef<str>, V: AsRef<str>>(pairs: impl IntoIterator<Item = (K, V)>) -> Labels {
    pairs
        .into_iter()
        .map(|(k, v)| (Name::from(k.as_ref()), Name::from(v.as_ref())))
        .collect()
}

/// A selector operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Operator {
    In,
    NotIn,
    Exists,
    DoesNotExist,
}

impl Operator {
    /// Parse an operator name as Kubernetes spells it.
    pub fn parse(name: &str) -> Option<Operator> {
        Some(match name {
            "In" => Operator::In,
            "NotIn" => Operator::NotIn,
            "Exists" => Operator::Exists,
            "DoesNotExist" => Operator::DoesNotExist,
            _ => return None,
        })
    }
}

/// One `{key, operator, values}` requirement as it arrives (operator still a string, so an
/// unknown operator is a typed error or a non-match instead of a parse failure).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Requirement {
    pub key: String,
    pub operator: String,
    #[serde(default)]
    pub values: Vec<String>,
}

impl Requirement {
    /// Validate as the API server does; returns the parsed operator. Errors are located
    /// within the requirement (`operator`); the caller places them.
    pub fn validate(&self) -> Result<Operator> {
        validate_key(&self.key).map_err(|reason| invalid(Path::fields("key"), reason))?;
        let op = Operator::parse(&self.operator).ok_or_else(|| Error::UnknownValue {
            field: Path::fields("operator"),
            value: self.operator.clone(),
            expected: "In, NotIn, Exists, DoesNotExist",
        })?;
        match op {
            Operator::In | Operator::NotIn if self.values.is_empty() => Err(invalid(
                Path::fields("values"),
                "In and NotIn need at least one value",
            )),
            Operator::Exists | Operator::DoesNotExist if !self.values.is_empty() => Err(invalid(
                Path::fields("values"),
                "Exists and DoesNotExist take no values",
            )),
            _ => {
                for (i, v) in self.values.iter().enumerate() {
                    validate_value(v).map_err(|reason| invalid(indexed("values", i), reason))?;
                }
                Ok(op)
            }
        }
    }

    /// Whether `labels` satisfy the requirement (the operator already validated).
    pub fn matches_with(&self, op: Operator, labels: &Labels) -> bool {
        self.matches_value(op, labels.get(self.key.as_str()).map(Name::as_str))
    }

    /// Whether the key's `value` (`None`: the key is absent) satisfies the requirement (the
    /// operator already validated).
    pub fn matches_value(&self, op: Operator, value: Option<&str>) -> bool {
        let listed = |v: &str| self.values.iter().any(|x| x == v);
        match op {
            Operator::In => value.is_some_and(listed),
            Operator::NotIn => value.is_none_or(|v| !listed(v)),
            Operator::Exists => value.is_some(),
            Operator::DoesNotExist => value.is_none(),
        }
    }
}

/// `matchLabels` and `matchExpressions`, ANDed. An empty selector matches everything.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct LabelSelector {
    pub match_labels: Labels,
    pub match_expressions: Vec<Requirement>,
}

impl LabelSelector {
    /// Validate keys, values and operators; errors are located within the selector
    /// (`matchLabels.app`, `matchExpressions[0].operator`).
    pub fn validate(&self) -> Result<()> {
        for (k, v) in &self.match_labels {
            let at = || Path::fields("matchLabels").field(k.clone());
            validate_key(k).map_err(|reason| invalid(at(), reason))?;
            validate_value(v).map_err(|reason| invalid(at(), reason))?;
        }
        for (i, r) in self.match_expressions.iter().enumerate() {
            r.validate()
                .map_err(|e| e.within(&indexed("matchExpressions", i)))?;
        }
        Ok(())
    }

    /// Whether `labels` match; an invalid selector matches nothing (as Karmada).
    pub fn matches(&self, labels: &Labels) -> bool {
        self.validate().is_ok() && self.matches_validated(labels)
    }

    /// [`LabelSelector::matches`] for a selector already validated.
    pub fn matches_validated(&self, labels: &Labels) -> bool {
        self.match_labels
            .iter()
            .all(|(k, v)| labels.get(k) == Some(v))
            && self
                .match_expressions
                .iter()
                .all(|r| Operator::parse(&r.operator).is_some_and(|op| r.matches_with(op, labels)))
    }
}

fn invalid(field: Path, reason: &str) -> Error {
    Error::InvalidSelector {
        field,
        reason: reason.into(),
    }
}

/// A qualified name: optional DNS-subdomain prefix and `/`, then a name of at most 63
/// characters of `[A-Za-z0-9-_.]`, starting and ending alphanumeric.
pub fn validate_key(key: &str) -> core::result::Result<(), &'static str> {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    if let Some(p) = prefix {
        let ok = !p.is_empty()
            && p.len() <= 253
            && p.split('.').all(|part| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                    && !part.starts_with('-')
                    && !part.ends_with('-')
            });
        if !ok {
            return Err("the key's prefix must be a DNS subdomain");
        }
    }
    if name.is_empty() {
        return Err("the key must not be empty");
    }
    validate_value(name).map_err(|_| {
        "the key must be at most 63 characters of [A-Za-z0-9-_.], starting and ending alphanumeric"
    })
}

/// A label value: empty, or at most 63 characters of `[A-Za-z0-9-_.]`, alphanumeric at both ends.
pub fn validate_value(value: &str) -> core::result::Result<(), &'static str> {
    let b = value.as_bytes();
    let ok = b.is_empty()
        || (b.len() <= 63
            && b.iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
            && b[0].is_ascii_alphanumeric()
            && b[b.len() - 1].is_ascii_alphanumeric());
    if ok {
        Ok(())
    } else {
        Err("a value must be at most 63 characters of [A-Za-z0-9-_.], starting and ending alphanumeric")
    }
}
