//! Where an object's field went, as the import's report says it (docs/rules/karmada.md §16.2):
//! kept as data, a scenario field of a cluster or a sentence, and written as text only when
//! the report is read or written. Importing 10,000 Clusters states about seven of these per
//! Cluster; written at once, each was an allocation.

use alloc::string::String;
use core::fmt;

use serde::{Serialize, Serializer};

use crate::Name;

/// What became of a field: a scenario field of a cluster, or any other text (a scenario
/// field, a default, the reason it is ignored). Written as one string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// `clusters[<cluster>].<field>`.
    ClusterField {
        cluster: Name,
        field: &'static str,
    },
    Text(Name),
}

impl fmt::Display for Destination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Destination::ClusterField { cluster, field } => {
                write!(f, "clusters[{cluster}].{field}")
            }
            Destination::Text(text) => f.write_str(text),
        }
    }
}

impl Serialize for Destination {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Destination::Text(text) => s.serialize_str(text),
            _ => s.collect_str(self),
        }
    }
}

impl From<&str> for Destination {
    fn from(text: &str) -> Self {
        Destination::Text(text.into())
    }
}

impl From<Name> for Destination {
    fn from(text: Name) -> Self {
        Destination::Text(text)
    }
}

impl From<String> for Destination {
    fn from(text: String) -> Self {
        Destination::Text(text.into())
    }
}

impl PartialEq<str> for Destination {
    fn eq(&self, other: &str) -> bool {
        match self {
            Destination::Text(text) => text == other,
            Destination::ClusterField { cluster, field } => {
                other
                    .strip_prefix("clusters[")
                    .and_then(|rest| rest.strip_prefix(cluster.as_str()))
                    .and_then(|rest| rest.strip_prefix("]."))
                    == Some(*field)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn written_as_its_text() {
        let d = Destination::ClusterField {
            cluster: "member-1".into(),
            field: "labels",
        };
        assert_eq!(d.to_string(), "clusters[member-1].labels");
        assert_eq!(
            crate::json::to_json(&d).unwrap(),
            "\"clusters[member-1].labels\""
        );
        assert!(d == *"clusters[member-1].labels");
        assert!(d != *"clusters[member-1].label");
        let t = Destination::from("absent: Duplicated");
        assert_eq!(crate::json::to_json(&t).unwrap(), "\"absent: Duplicated\"");
        assert!(t == *"absent: Duplicated");
    }
}
