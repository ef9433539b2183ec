//! A cluster affinity read once for a whole filter pass (docs/rules/karmada.md §9, §12.5):
//! its label selector validated once, each operator parsed once, and each field requirement
//! (`provider`, `region`, `zone`) checked once, rather than once per cluster. Matching one of
//! 10,000 clusters then reads the cluster's labels and topology and compares text, with no
//! allocation. The answers are those of [`ClusterAffinity::matches`], which the tests check
//! on random clusters and selectors.

use alloc::vec::Vec;

use crate::selector::cluster::{ClusterAffinity, ClusterFacts, ZoneIn};
use crate::selector::label::{Operator, Requirement};

/// A requirement on one value of a cluster (a label's, its provider, its region), `None` when
/// the cluster does not have it; or on its zones.
#[derive(Debug, Clone)]
enum Test<'a> {
    /// Decided whatever the cluster (an invalid requirement, an unknown operator or key).
    Always(bool),
    /// The value is one of these (the zones: one of them is).
    In(&'a [alloc::string::String]),
    /// The value is none of these (the zones: none of them is).
    NotIn(&'a [alloc::string::String]),
    /// The value is one: `matchLabels`.
    Equal(&'a str),
    Exists,
    DoesNotExist,
}

impl<'a> Test<'a> {
    fn of(op: Option<Operator>, values: &'a [alloc::string::String]) -> Self {
        match op {
            Some(Operator::In) => Test::In(values),
            Some(Operator::NotIn) => Test::NotIn(values),
            Some(Operator::Exists) => Test::Exists,
            Some(Operator::DoesNotExist) => Test::DoesNotExist,
            None => Test::Always(false),
        }
    }

    fn passes(&self, value: Option<&str>) -> bool {
        match self {
            Test::Always(answer) => *answer,
            Test::In(values) => value.is_some_and(|v| values.iter().any(|x| x == v)),
            Test::NotIn(values) => value.is_none_or(|v| !values.iter().any(|x| x == v)),
            Test::Equal(x) => value == Some(*x),
            Test::Exists => value.is_some(),
            Test::DoesNotExist => value.is_none(),
        }
    }

    /// The `zone` field against a cluster's zones ([`crate::selector::cluster::match_zones`]),
    /// `zone In` read as `how` says.
    fn passes_zones(&self, zones: &[crate::Name], how: ZoneIn) -> bool {
        let listed =
            |values: &[alloc::string::String]| zones.iter().any(|z| values.iter().any(|v| v == z));
        match self {
            Test::Always(answer) => *answer,
            Test::In(values) => match how {
                ZoneIn::Any => listed(values),
                ZoneIn::Every => {
                    !zones.is_empty() && zones.iter().all(|z| values.iter().any(|v| v == z))
                }
            },
            Test::NotIn(values) => !listed(values),
            Test::Equal(x) => zones.iter().any(|z| z == x),
            Test::Exists => !zones.is_empty(),
            Test::DoesNotExist => zones.is_empty(),
        }
    }
}

/// What a test reads of a cluster.
#[derive(Debug, Clone, Copy)]
enum Subject<'a> {
    Label(&'a str),
    Provider,
    Region,
    Zones,
}

/// A cluster affinity, read once.
pub struct Affinity<'a> {
    source: &'a ClusterAffinity,
    /// An invalid label selector matches nothing.
    valid: bool,
    /// How `zone In` reads a cluster's zones in the release followed.
    zones: ZoneIn,
    tests: Vec<(Subject<'a>, Test<'a>)>,
}

impl<'a> Affinity<'a> {
    pub fn new(source: &'a ClusterAffinity, zones: ZoneIn) -> Self {
        let valid = source
            .label_selector
            .as_ref()
            .is_none_or(|ls| ls.validate().is_ok());
        let mut tests = Vec::new();
        if let Some(ls) = &source.label_selector {
            for (k, v) in &ls.match_labels {
                tests.push((Subject::Label(k), Test::Equal(v)));
            }
            for r in &ls.match_expressions {
                let test = Test::of(Operator::parse(&r.operator), &r.values);
                tests.push((Subject::Label(&r.key), test));
            }
        }
        if let Some(fs) = &source.field_selector {
            tests.extend(fs.match_expressions.iter().map(field));
        }
        Affinity {
            source,
            valid,
            zones,
            tests,
        }
    }

    /// Whether the affinity selects `cluster`.
    pub fn matches(&self, cluster: &ClusterFacts<'_>) -> bool {
        let a = self.source;
        self.valid
            && !a.exclude.iter().any(|n| n == cluster.name)
            && self.tests.iter().all(|(subject, test)| match subject {
                Subject::Label(key) => test.passes(cluster.labels.get(*key).map(|v| v.as_str())),
                Subject::Provider => test.passes(given(cluster.provider)),
                Subject::Region => test.passes(given(cluster.region)),
                Subject::Zones => test.passes_zones(cluster.zones, self.zones),
            })
            && (a.cluster_names.is_empty() || a.cluster_names.iter().any(|n| n == cluster.name))
    }
}

/// A field's value: `None` when empty.
fn given(v: &str) -> Option<&str> {
    (!v.is_empty()).then_some(v)
}

/// A field selector's requirement: `provider` and `region` as one value each (an invalid
/// requirement matches nothing), `zone` over the zones, any other key nothing.
fn field(r: &Requirement) -> (Subject<'_>, Test<'_>) {
    match r.key.as_str() {
        "zone" => (
            Subject::Zones,
            Test::of(Operator::parse(&r.operator), &r.values),
        ),
        "provider" | "region" => {
            let subject = if r.key == "provider" {
                Subject::Provider
            } else {
                Subject::Region
            };
            (subject, Test::of(r.validate().ok(), &r.values))
        }
        _ => (Subject::Provider, Test::Always(false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::karmada::cluster::Member;
    use crate::selector::cluster::FieldSelector;
    use crate::selector::label::LabelSelector;
    use alloc::string::String;
    use proptest::prelude::*;

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(String::new()),
            "[ab]",
            Just("a-b".into()),
            Just("-".into())
        ]
    }

    fn member() -> impl Strategy<Value = Member> {
        (
            "[xy]",
            proptest::collection::btree_map("[kl]", "[ab]", 0..3),
            text(),
            text(),
            proptest::collection::vec("[ab]", 0..3),
        )
            .prop_map(|(name, labels, provider, region, zones)| Member {
                name: name.into(),
                labels,
                provider: provider.into(),
                region: region.into(),
                zones: zones.into_iter().map(Into::into).collect(),
                ..Member::default()
            })
    }

    fn requirement(keys: &'static str) -> impl Strategy<Value = Requirement> {
        (
            keys,
            prop_oneof![
                Just("In"),
                Just("NotIn"),
                Just("Exists"),
                Just("DoesNotExist"),
                Just("Near")
            ],
            proptest::collection::vec(text(), 0..3),
        )
            .prop_map(|(key, op, values)| Requirement {
                key,
                operator: op.into(),
                values,
            })
    }

    fn affinity() -> impl Strategy<Value = ClusterAffinity> {
        (
            proptest::collection::vec("[xyz]", 0..2),
            proptest::collection::vec("[xyz]", 0..2),
            proptest::option::of((
                proptest::collection::btree_map("[klm]", text(), 0..2),
                proptest::collection::vec(requirement("[klm]"), 0..3),
            )),
            proptest::option::of(proptest::collection::vec(
                requirement("(zone|provider|region|rack)"),
                0..3,
            )),
        )
            .prop_map(|(names, exclude, labels, fields)| ClusterAffinity {
                cluster_names: names,
                exclude,
                label_selector: labels.map(|(match_labels, match_expressions)| LabelSelector {
                    match_labels,
                    match_expressions,
                }),
                field_selector: fields.map(|match_expressions| FieldSelector { match_expressions }),
            })
    }

    proptest! {
        /// The affinity read once answers as the affinity does, cluster by cluster.
        #[test]
        fn matches_as_the_text_does(
            members in proptest::collection::vec(member(), 0..6),
            a in affinity(),
        ) {
            for how in [ZoneIn::Any, ZoneIn::Every] {
                let compiled = Affinity::new(&a, how);
                for m in &members {
                    let facts = m.facts();
                    prop_assert_eq!(compiled.matches(&facts), a.matches(&facts, how));
                }
            }
        }
    }
}
