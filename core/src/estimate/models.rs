//! Customized cluster resource models (docs/rules/karmada.md §7): grades of resource ranges, their
//! validation and standardisation, the 9-grade default, and classifying nodes into grades.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::error::{Error, Path, Result};
use crate::quantity::{self, Unit, MAX_QUANTITY};

/// The open top of the last grade: MaxInt64 (`"9223372036854775807"`). Any bound at or above
/// it (or too large to count in units, as 2^63 cores in millicores) reads as unbounded.
pub const UNBOUNDED: u64 = MAX_QUANTITY;

/// The resources a model may grade (Karmada accepts these four).
pub const MODEL_RESOURCES: [&str; 4] = ["cpu", "memory", "storage", "ephemeral-storage"];

/// One resource's range `[min, max)` within a grade, in the resource's unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelRange {
    pub name: String,
    pub min: u64,
    pub max: u64,
}

/// A grade: the ranges of each resource a node's free amount falls into.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ResourceModel {
    pub grade: u64,
    pub ranges: Vec<ModelRange>,
}

/// How many nodes of a cluster are in a grade (`status.resourceSummary.allocatableModelings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct AllocatableModeling {
    pub grade: u64,
    pub count: u64,
}

/// A rule of model validation; each violation names one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ModelRule {
    /// Grades must be unique.
    DuplicateGrade,
    /// Models are listed by grade ascending (standardise sorts them).
    GradesNotAscending,
    /// Every model has the same number of ranges.
    RangeCount,
    /// Range j of every model is the same resource.
    RangeName,
    /// A resource appears once per model.
    DuplicateResource,
    /// Only cpu, memory, storage and ephemeral-storage.
    UnsupportedResource,
    /// `max > min`.
    EmptyRange,
    /// The first model's mins are 0.
    FirstMinNotZero,
    /// `max(i-1) == min(i)`: contiguous, not overlapping.
    NotContiguous,
    /// The last model's maxes are MaxInt64.
    LastMaxNotUnbounded,
}

impl ModelRule {
    pub fn describe(self) -> &'static str {
        match self {
            ModelRule::DuplicateGrade => "the grade of each model must be different",
            ModelRule::GradesNotAscending => {
                "models must be ordered by grade ascending (standardize sorts them)"
            }
            ModelRule::RangeCount => "every model must have the same number of resource ranges",
            ModelRule::RangeName => {
                "every model must list the same resources in the same order as the one before"
            }
            ModelRule::DuplicateResource => "a resource may appear only once in a model",
            ModelRule::UnsupportedResource => {
                "only cpu, memory, storage and ephemeral-storage can be modelled"
            }
            ModelRule::EmptyRange => "max must be greater than min",
            ModelRule::FirstMinNotZero => "the first model's min values must be 0",
            ModelRule::NotContiguous => {
                "ranges must be contiguous: this min must equal the previous model's max"
            }
            ModelRule::LastMaxNotUnbounded => {
                "the last model's max values must be 9223372036854775807 (MaxInt64)"
            }
        }
    }
}

/// Check `models` (as listed) against every rule; the first violation, at
/// `resourceModels[i]...` (a cluster's field), with the grade and the resource.
pub fn validate(models: &[ResourceModel]) -> Result<()> {
    validate_list(models).map_err(|e| e.within(&Path::fields("resourceModels")))
}

/// [`validate`] with errors located within the list itself (`[4].ranges[1].min`).
pub fn validate_list(models: &[ResourceModel]) -> Result<()> {
    let fail = |i: usize, j: Option<usize>, part: &'static str, rule: ModelRule| {
        let m = &models[i];
        let mut field = Path::root().index(i);
        if let Some(j) = j {
            field = field.field("ranges").index(j);
        }
        let resource = j.map(|j| m.ranges[j].name.clone());
        Err(Error::InvalidModel {
            field: field.field(part),
            rule: rule.describe(),
            grade: m.grade,
            resource,
        })
    };
    for (i, m) in models.iter().enumerate() {
        if models[..i].iter().any(|p| p.grade == m.grade) {
            return fail(i, None, "grade", ModelRule::DuplicateGrade);
        }
        if i > 0 && models[i - 1].grade > m.grade {
            return fail(i, None, "grade", ModelRule::GradesNotAscending);
        }
        for (j, r) in m.ranges.iter().enumerate() {
            if !MODEL_RESOURCES.contains(&r.name.as_str()) {
                return fail(i, Some(j), "name", ModelRule::UnsupportedResource);
            }
            if m.ranges[..j].iter().any(|p| p.name == r.name) {
                return fail(i, Some(j), "name", ModelRule::DuplicateResource);
            }
            if r.max <= r.min {
                return fail(i, Some(j), "max", ModelRule::EmptyRange);
            }
            if i == 0 && r.min != 0 {
                return fail(i, Some(j), "min", ModelRule::FirstMinNotZero);
            }
        }
        if i > 0 {
            let prev = &models[i - 1];
            if prev.ranges.len() != m.ranges.len() {
                return fail(i, None, "ranges", ModelRule::RangeCount);
            }
            for (j, (p, r)) in prev.ranges.iter().zip(&m.ranges).enumerate() {
                if p.name != r.name {
                    return fail(i, Some(j), "name", ModelRule::RangeName);
                }
                if p.max != r.min {
                    return fail(i, Some(j), "min", ModelRule::NotContiguous);
                }
            }
        }
    }
    if let Some(last) = models.len().checked_sub(1) {
        if let Some(j) = models[last].ranges.iter().position(|r| r.max != UNBOUNDED) {
            return fail(last, Some(j), "max", ModelRule::LastMaxNotUnbounded);
        }
    }
    Ok(())
}

/// Karmada's standardisation on create and update: sort by grade (stable), first mins to 0,
/// last maxes to MaxInt64.
pub fn standardize(models: &mut [ResourceModel]) {
    models.sort_by_key(|m| m.grade);
    if let Some(first) = models.first_mut() {
        first.ranges.iter_mut().for_each(|r| r.min = 0);
    }
    if let Some(last) = models.last_mut() {
        last.ranges.iter_mut().for_each(|r| r.max = UNBOUNDED);
    }
}

/// The 9 grades Karmada installs when a cluster has none: CPU 0, 1, 2, 4, ... 128 cores and
/// memory 0, 4, 16, 32, ... 1024 Gi.
pub fn default_models() -> Vec<ResourceModel> {
    const CPU_CORES: [u64; 9] = [0, 1, 2, 4, 8, 16, 32, 64, 128];
    const MEMORY_GI: [u64; 9] = [0, 4, 16, 32, 64, 128, 256, 512, 1024];
    let bound = |v: &[u64; 9], i: usize, unit: u64| v.get(i).map_or(UNBOUNDED, |&x| x * unit);
    (0..9)
        .map(|i| ResourceModel {
            grade: i as u64,
            ranges: alloc::vec![
                ModelRange {
                    name: "cpu".into(),
                    min: bound(&CPU_CORES, i, 1000),
                    max: bound(&CPU_CORES, i + 1, 1000),
                },
                ModelRange {
                    name: "memory".into(),
                    min: bound(&MEMORY_GI, i, 1 << 30),
                    max: bound(&MEMORY_GI, i + 1, 1 << 30),
                },
            ],
        })
        .collect()
}

/// The index of the last element `<= target` in ascending `sorted`, or `None`.
pub fn search_last_le(sorted: &[u64], target: u64) -> Option<usize> {
    sorted.partition_point(|&m| m <= target).checked_sub(1)
}

/// The grade index (position in `models`, ascending) of a node whose free amount of each
/// resource is `free(name)` (0 when the node lacks it): the lowest over resources of the last
/// grade whose min the node reaches. `None`: not counted.
pub fn grade_index(models: &[ResourceModel], free: impl Fn(&str) -> u64) -> Option<usize> {
    let first = models.first()?;
    let mut grade = usize::MAX;
    for (j, range) in first.ranges.iter().enumerate() {
        let value = free(&range.name);
        // Binary search over the mins of range j in model order.
        let idx = models.partition_point(|m| m.ranges.get(j).is_some_and(|r| r.min <= value));
        grade = grade.min(idx.checked_sub(1)?);
    }
    (grade != usize::MAX).then_some(grade)
}

/// What to do at a node with no free pod slot while counting nodes into grades.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum FullNodes {
    /// Skip it and count the rest (allot's default; docs/rules/README.md decision 5).
    #[default]
    Skip,
    /// Stop counting altogether, as Karmada's status controller does (a code accident: later
    /// nodes are not counted).
    StopCounting,
}

/// A node as the grade counter sees it: free pod slots and free resources.
pub trait GradedNode {
    fn free_pods(&self) -> i128;
    fn free(&self, resource: &str) -> u64;
    /// How many identical nodes this stands for.
    fn quantity(&self) -> u64 {
        1
    }
}

/// Count nodes into grades (`allocatableModelings`): one entry per model, zeros included.
pub fn grade_counts<N: GradedNode>(
    models: &[ResourceModel],
    nodes: impl IntoIterator<Item = N>,
    full: FullNodes,
) -> Vec<AllocatableModeling> {
    let mut counts: Vec<AllocatableModeling> = models
        .iter()
        .map(|m| AllocatableModeling {
            grade: m.grade,
            count: 0,
        })
        .collect();
    for node in nodes {
        if node.free_pods() <= 0 {
            match full {
                FullNodes::Skip => continue,
                FullNodes::StopCounting => break,
            }
        }
        if let Some(i) = grade_index(models, |r| node.free(r)) {
            counts[i].count = counts[i].count.saturating_add(node.quantity());
        }
    }
    counts
}

/// The grade counts as a map grade -> count.
pub fn counts_by_grade(modelings: &[AllocatableModeling]) -> BTreeMap<u64, u64> {
    let mut m = BTreeMap::new();
    for a in modelings {
        *m.entry(a.grade).or_insert(0u64) += a.count;
    }
    m
}

// --- serde for ranges: quantities whose unit depends on the range's name ---

impl Serialize for ModelRange {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let q = |v: u64| {
            if v >= UNBOUNDED {
                String::from("9223372036854775807")
            } else {
                quantity::format(v, &self.name)
            }
        };
        let mut st = s.serialize_struct("ModelRange", 3)?;
        st.serialize_field("name", &self.name)?;
        st.serialize_field("min", &q(self.min))?;
        st.serialize_field("max", &q(self.max))?;
        st.end()
    }
}

/// A quantity not yet read (its unit comes from a sibling field).
#[derive(Debug, Clone)]
enum RawQuantity {
    Text(String),
    Int(i128),
    Float(f64),
}

impl<'de> Deserialize<'de> for RawQuantity {
    fn deserialize<D: Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawQuantity;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a quantity (number or string)")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> core::result::Result<RawQuantity, E> {
                Ok(RawQuantity::Text(v.into()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> core::result::Result<RawQuantity, E> {
                Ok(RawQuantity::Int(v.into()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> core::result::Result<RawQuantity, E> {
                Ok(RawQuantity::Int(v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> core::result::Result<RawQuantity, E> {
                Ok(RawQuantity::Float(v))
            }
        }
        d.deserialize_any(V)
    }
}

impl RawQuantity {
    /// In units of `resource`; at or beyond MaxInt64 units reads as [`UNBOUNDED`].
    fn units(&self, resource: &str, field: &'static str) -> Result<u64> {
        let unit = Unit::of(resource);
        let r = match self {
            RawQuantity::Text(t) => quantity::parse(t, unit),
            RawQuantity::Int(i) => quantity::from_i128(*i, unit),
            RawQuantity::Float(f) => quantity::from_f64(*f, unit),
        }
        .map_err(|e| e.within(&Path::fields(field)));
        match r {
            Err(Error::TooLarge { .. }) => Ok(UNBOUNDED),
            other => other.map(|v| v.min(UNBOUNDED)),
        }
    }
}

impl<'de> Deserialize<'de> for ModelRange {
    fn deserialize<D: Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            name: String,
            min: RawQuantity,
            max: RawQuantity,
        }
        let raw = Raw::deserialize(d)?;
        // Read once the range is whole (the unit of `min` and `max` comes from `name`, which
        // may follow them); the error is located at `min` or `max` within the range.
        let tag = |e: crate::Error| e.into_de();
        let min = raw.min.units(&raw.name, "min").map_err(tag)?;
        let max = raw.max.units(&raw.name, "max").map_err(tag)?;
        Ok(ModelRange {
            name: raw.name,
            min,
            max,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn model(grade: u64, ranges: &[(&str, u64, u64)]) -> ResourceModel {
        ResourceModel {
            grade,
            ranges: ranges
                .iter()
                .map(|&(n, min, max)| ModelRange {
                    name: n.into(),
                    min,
                    max,
                })
                .collect(),
        }
    }

    #[test]
    fn default_model_is_valid_and_round_trips() {
        let d = default_models();
        assert_eq!(d.len(), 9);
        assert_eq!(validate(&d), Ok(()));
        assert_eq!(d[3].ranges[0].min, 4000);
        assert_eq!(d[3].ranges[1].max, 64 << 30);
        let json = serde_json::to_string(&d).unwrap();
        assert!(json.contains(r#""max":"9223372036854775807""#));
        let back: Vec<ResourceModel> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, d);
    }

    #[test]
    fn seed_yaml_model_reads() {
        let m: Vec<ResourceModel> = serde_json::from_str(
            r#"[{"grade":0,"ranges":[{"max":"1","min":"0","name":"cpu"},{"max":"4Gi","min":"0","name":"memory"}]},
                {"grade":1,"ranges":[{"max":"2","min":"1","name":"cpu"},{"max":"16Gi","min":"4Gi","name":"memory"}]},
                {"grade":2,"ranges":[{"max":"9223372036854775807","min":"2","name":"cpu"},{"max":"9223372036854775807","min":"16Gi","name":"memory"}]}]"#,
        )
        .unwrap();
        assert_eq!(validate(&m), Ok(()));
        // 0.5 cores and 2Gi: grade 0; 1.5 cores and 10Gi: grade 1 (the seed's examples).
        let at = |cpu: u64, mem: u64| grade_index(&m, |r| if r == "cpu" { cpu } else { mem });
        assert_eq!(at(500, 2 << 30), Some(0));
        assert_eq!(at(1500, 10 << 30), Some(1));
        assert_eq!(at(64_000, 1 << 30), Some(0));
    }

    #[test]
    fn each_rule_is_its_own_error() {
        let ok = || {
            vec![
                model(0, &[("cpu", 0, 1000), ("memory", 0, 10)]),
                model(1, &[("cpu", 1000, UNBOUNDED), ("memory", 10, UNBOUNDED)]),
            ]
        };
        assert_eq!(validate(&ok()), Ok(()));
        let rule = |m: Vec<ResourceModel>| match validate(&m) {
            Err(Error::InvalidModel { rule, field, .. }) => (rule, field),
            other => panic!("{other:?}"),
        };
        let mut m = ok();
        m[1].grade = 0;
        assert_eq!(rule(m).0, ModelRule::DuplicateGrade.describe());
        let mut m = ok();
        m[0].grade = 7;
        assert_eq!(rule(m).0, ModelRule::GradesNotAscending.describe());
        let mut m = ok();
        m[1].ranges.pop();
        assert_eq!(
            rule(m),
            (
                ModelRule::RangeCount.describe(),
                "resourceModels[1].ranges".into()
            )
        );
        let mut m = ok();
        m[1].ranges.swap(0, 1);
        assert_eq!(rule(m).0, ModelRule::RangeName.describe());
        let mut m = ok();
        m[0].ranges[1].name = "cpu".into();
        assert_eq!(rule(m).0, ModelRule::DuplicateResource.describe());
        let mut m = ok();
        m[0].ranges[1].name = "nvidia.com/gpu".into();
        assert_eq!(rule(m).0, ModelRule::UnsupportedResource.describe());
        let mut m = ok();
        m[0].ranges[0].max = 0;
        assert_eq!(
            rule(m),
            (
                ModelRule::EmptyRange.describe(),
                "resourceModels[0].ranges[0].max".into()
            )
        );
        let mut m = ok();
        m[0].ranges[0].min = 1;
        assert_eq!(rule(m).0, ModelRule::FirstMinNotZero.describe());
        let mut m = ok();
        m[1].ranges[1].min = 11;
        assert_eq!(
            rule(m),
            (
                ModelRule::NotContiguous.describe(),
                "resourceModels[1].ranges[1].min".into()
            )
        );
        let mut m = ok();
        m[1].ranges[0].max = 5000;
        assert_eq!(rule(m).0, ModelRule::LastMaxNotUnbounded.describe());
        let mut m = ok();
        m.reverse();
        standardize(&mut m);
        assert_eq!(m[0].grade, 0);
    }

    struct N(i128, u64, u64);
    impl GradedNode for N {
        fn free_pods(&self) -> i128 {
            self.0
        }
        fn free(&self, r: &str) -> u64 {
            if r == "cpu" {
                self.1
            } else {
                self.2
            }
        }
    }

    #[test]
    fn full_nodes_are_skipped_not_a_stop() {
        let m = default_models();
        let nodes = || [N(1, 500, 1 << 30), N(0, 500, 1 << 30), N(3, 5000, 40 << 30)];
        let skip = grade_counts(&m, nodes(), FullNodes::Skip);
        assert_eq!((skip[0].count, skip[3].count), (1, 1));
        // Karmada's accident: the full node ends the count, the grade-3 node is lost.
        let stop = grade_counts(&m, nodes(), FullNodes::StopCounting);
        assert_eq!((stop[0].count, stop[3].count), (1, 0));
        assert_eq!(
            search_last_le(&[1000, 3400, 4500, 8700, 11599], 9700),
            Some(3)
        );
        assert_eq!(search_last_le(&[1000], 999), None);
    }
}
