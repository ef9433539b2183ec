//! A cluster affinity read once for a whole filter pass (docs/rules/karmada.md §9, §12.5):
//! its label selector validated once, each operator parsed once, each field requirement
//! (`provider`, `region`, `zone`) checked once, and every key and value it names turned into
//! the number the cluster set gives that text ([`Compiled`]), rather than once per cluster.
//! Matching one of 10,000 clusters then compares the cluster's numbers, with no text and no
//! allocation. The answers are those of [`ClusterAffinity::matches`], which the tests check on
//! random clusters and selectors.

use alloc::string::String;
use alloc::vec::Vec;

use super::cluster::Member;
use super::compiled::{Compiled, Facts, Stated, TextId};
use crate::selector::cluster::{ClusterAffinity, ZoneIn};
use crate::selector::label::{Operator, Requirement};

/// A requirement on one value of a cluster (a label's, its provider, its region), `None` when
/// the cluster does not have it; or on its zones. Values are the set's numbers; a value no
/// cluster of the set states has none, and is left out.
#[derive(Debug, Clone)]
enum Test {
    /// Decided whatever the cluster (an invalid requirement, an unknown operator or key).
    Always(bool),
    /// The value is one of these (the zones: one of them is).
    In(Vec<TextId>),
    /// The value is none of these (the zones: none of them is).
    NotIn(Vec<TextId>),
    /// The value is one: `matchLabels`.
    Equal(TextId),
    Exists,
    DoesNotExist,
}

impl Test {
    fn of(op: Option<Operator>, values: &[String], set: &Compiled<'_>) -> Self {
        let ids = || values.iter().filter_map(|v| set.text(v)).collect();
        match op {
            Some(Operator::In) => Test::In(ids()),
            Some(Operator::NotIn) => Test::NotIn(ids()),
            Some(Operator::Exists) => Test::Exists,
            Some(Operator::DoesNotExist) => Test::DoesNotExist,
            None => Test::Always(false),
        }
    }

    /// `matchLabels`' value: no cluster has it when the set does not state it.
    fn equal(value: &str, set: &Compiled<'_>) -> Self {
        set.text(value).map_or(Test::Always(false), Test::Equal)
    }

    #[inline]
    fn passes(&self, value: Option<TextId>) -> bool {
        match self {
            Test::Always(answer) => *answer,
            Test::In(values) => value.is_some_and(|v| values.contains(&v)),
            Test::NotIn(values) => value.is_none_or(|v| !values.contains(&v)),
            Test::Equal(x) => value == Some(*x),
            Test::Exists => value.is_some(),
            Test::DoesNotExist => value.is_none(),
        }
    }

    /// The `zone` field against a cluster's zones ([`crate::selector::cluster::match_zones`]),
    /// `zone In` read as `how` says.
    fn passes_zones(&self, zones: &[TextId], how: ZoneIn) -> bool {
        let listed = |values: &[TextId]| zones.iter().any(|z| values.contains(z));
        match self {
            Test::Always(answer) => *answer,
            Test::In(values) => match how {
                ZoneIn::Any => listed(values),
                ZoneIn::Every => !zones.is_empty() && zones.iter().all(|z| values.contains(z)),
            },
            Test::NotIn(values) => !listed(values),
            Test::Equal(x) => zones.contains(x),
            Test::Exists => !zones.is_empty(),
            Test::DoesNotExist => zones.is_empty(),
        }
    }
}

/// What a test reads of a cluster.
#[derive(Debug, Clone, Copy)]
enum Subject {
    Label(TextId),
    Provider,
    Region,
    Zones,
}

/// A cluster affinity, read once against a cluster set.
pub struct Affinity<'a> {
    source: &'a ClusterAffinity,
    /// An invalid label selector matches nothing.
    valid: bool,
    /// How `zone In` reads a cluster's zones in the release followed.
    zones: ZoneIn,
    tests: Vec<(Subject, Test)>,
}

impl<'a> Affinity<'a> {
    pub fn new(source: &'a ClusterAffinity, zones: ZoneIn, set: &Compiled<'_>) -> Self {
        let valid = source
            .label_selector
            .as_ref()
            .is_none_or(|ls| ls.validate().is_ok());
        let mut tests = Vec::new();
        let mut label = |key: &str, test: Test| {
            tests.push(match set.text(key) {
                Some(k) => (Subject::Label(k), test),
                // No cluster of the set has the key.
                None => (Subject::Provider, Test::Always(test.passes(None))),
            })
        };
        if let Some(ls) = &source.label_selector {
            for (k, v) in &ls.match_labels {
                label(k, Test::equal(v, set));
            }
            for r in &ls.match_expressions {
                label(
                    &r.key,
                    Test::of(Operator::parse(&r.operator), &r.values, set),
                );
            }
        }
        if let Some(fs) = &source.field_selector {
            tests.extend(fs.match_expressions.iter().map(|r| field(r, set)));
        }
        Affinity {
            source,
            valid,
            zones,
            tests,
        }
    }

    /// Whether the affinity selects `cluster` (its `facts` as compiled in the set).
    #[inline]
    pub fn matches(&self, cluster: &Member, facts: &Facts<'_>) -> bool {
        let a = self.source;
        self.valid
            && self.tests.iter().all(|(subject, test)| match subject {
                Subject::Label(key) => test.passes(facts.label(*key)),
                Subject::Provider => test.passes(facts.provider),
                Subject::Region => test.passes(facts.region),
                Subject::Zones => test.passes_zones(facts.zones, self.zones),
            })
            && !a.exclude.iter().any(|n| n == cluster.name.as_str())
            && (a.cluster_names.is_empty()
                || a.cluster_names.iter().any(|n| n == cluster.name.as_str()))
    }
}

impl Affinity<'_> {
    /// Clusters of `set` (positions, ascending) among which are all those the affinity
    /// matches, when one of its tests names the values a cluster must state: the fewest such
    /// clusters of any test. `None`: no test narrows them.
    pub fn candidates(&self, set: &Compiled<'_>) -> Option<Vec<u32>> {
        if !self.valid {
            return Some(Vec::new());
        }
        let mut fewest: Option<Vec<u32>> = None;
        for (subject, test) in &self.tests {
            let values = match test {
                Test::Always(false) => return Some(Vec::new()),
                Test::Equal(x) => core::slice::from_ref(x),
                // The zones' `In`, read either way, needs one of the cluster's zones listed.
                Test::In(values) => values.as_slice(),
                _ => continue,
            };
            let what = match *subject {
                Subject::Label(key) => Stated::Label(key),
                Subject::Provider => Stated::Provider,
                Subject::Region => Stated::Region,
                Subject::Zones => Stated::Zone,
            };
            let mut clusters: Vec<u32> =
                values.iter().flat_map(|&v| set.stating(what, v)).collect();
            if values.len() > 1 {
                clusters.sort_unstable();
                clusters.dedup();
            }
            if fewest.as_ref().is_none_or(|f| clusters.len() < f.len()) {
                fewest = Some(clusters);
            }
        }
        fewest
    }
}

/// A field selector's requirement: `provider` and `region` as one value each (an invalid
/// requirement matches nothing), `zone` over the zones, any other key nothing.
fn field(r: &Requirement, set: &Compiled<'_>) -> (Subject, Test) {
    match r.key.as_str() {
        "zone" => (
            Subject::Zones,
            Test::of(Operator::parse(&r.operator), &r.values, set),
        ),
        "provider" | "region" => {
            let subject = if r.key == "provider" {
                Subject::Provider
            } else {
                Subject::Region
            };
            (subject, Test::of(r.validate().ok(), &r.values, set))
        }
        _ => (Subject::Provider, Test::Always(false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
                labels: crate::selector::label::labels_of(labels),
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
                    match_labels: crate::selector::label::labels_of(match_labels),
                    match_expressions,
                }),
                field_selector: fields.map(|match_expressions| FieldSelector { match_expressions }),
            })
    }

    proptest! {
        /// The affinity read once answers as the affinity does, cluster by cluster; its
        /// candidates hold every cluster it matches, once each, ascending.
        #[test]
        fn matches_as_the_text_does(
            members in proptest::collection::vec(member(), 0..8),
            a in affinity(),
        ) {
            let set = Compiled::new(members.iter().collect());
            for how in [ZoneIn::Any, ZoneIn::Every] {
                let compiled = Affinity::new(&a, how, &set);
                let candidates = compiled.candidates(&set);
                if let Some(c) = &candidates {
                    prop_assert!(c.windows(2).all(|w| w[0] < w[1]));
                }
                for (i, m) in members.iter().enumerate() {
                    let facts = set.cluster(i).unwrap();
                    let matches = compiled.matches(m, &facts);
                    prop_assert_eq!(matches, a.matches(&m.facts(), how));
                    if let (true, Some(c)) = (matches, &candidates) {
                        prop_assert!(c.contains(&(i as u32)), "cluster {} left out", i);
                    }
                }
            }
        }
    }
}
