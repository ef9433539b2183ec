//! Combining estimators in the scheduler (docs/rules/karmada.md §11): each cluster's available
//! replicas are the minimum over the estimators that answered; -1 means "no answer"; a cluster
//! nobody answered for gets the requested replicas.

use crate::Name;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::MAX_INT32;

/// Karmada's `UnauthenticReplica`: the estimator has no answer for the cluster.
pub const NO_ANSWER: i64 = -1;

/// One estimator's answers: per cluster name, or a failed call (ignored for every cluster).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EstimatorAnswers {
    pub estimator: String,
    /// `None`: the call failed (one cluster's RPC error fails the whole call).
    pub replicas: Option<BTreeMap<String, i64>>,
}

/// Where a cluster's figure came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Source {
    /// The tightest answering estimator.
    Estimator {
        #[cfg_attr(feature = "schema", schemars(with = "EstimatorName"))]
        estimator: String,
    },
    /// Nobody answered: the requested replicas.
    Requested,
    /// No replicas and no components: no estimator is asked.
    NotAsked,
}

/// Which estimator answered: `given` (the cluster's stated `availableReplicas`), `general` or
/// `accurate`. The schema's type of the field; the core keeps the name as text.
#[cfg(feature = "schema")]
#[derive(schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
enum EstimatorName {
    Given,
    General,
    Accurate,
}

/// A cluster's combined figure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Combined {
    pub cluster: Name,
    /// Negative only where an estimator answered a negative figure other than -1 (Karmada's
    /// grade formula wrapping, docs/rules/versions.md "Resource models").
    pub replicas: i64,
    pub source: Source,
}

/// One estimator's answers by cluster position: `replicas[i]` for `clusters[i]` (`None`: no
/// answer for it), or `None` for a failed call. What [`combine_by_position`] reads; a caller
/// that holds its clusters in a list skips a search by name per cluster and estimator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answers<'a> {
    pub estimator: &'a str,
    pub replicas: Option<Vec<Option<i64>>>,
}

/// Combine `answers` for `clusters`, for a workload of `requested` replicas (`components`:
/// whether it is a multi-component workload).
pub fn combine(
    clusters: &[&str],
    requested: u64,
    components: bool,
    answers: &[EstimatorAnswers],
) -> Vec<Combined> {
    let by_position: Vec<Answers<'_>> = answers
        .iter()
        .map(|a| Answers {
            estimator: &a.estimator,
            replicas: a
                .replicas
                .as_ref()
                .map(|m| clusters.iter().map(|c| m.get(*c).copied()).collect()),
        })
        .collect();
    combine_by_position(clusters, requested, components, &by_position)
}

/// [`combine`] with the answers by cluster position.
pub fn combine_by_position(
    clusters: &[&str],
    requested: u64,
    components: bool,
    answers: &[Answers<'_>],
) -> Vec<Combined> {
    clusters
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let (replicas, source) = match combined_at(i, requested, components, answers) {
                Pick::NotAsked => (MAX_INT32 as i64, Source::NotAsked),
                Pick::Estimator(v, e) => (
                    v,
                    Source::Estimator {
                        estimator: e.into(),
                    },
                ),
                Pick::Requested => (requested as i64, Source::Requested),
            };
            Combined {
                cluster: c.into(),
                replicas,
                source,
            }
        })
        .collect()
}

/// The combined figure of the cluster at position `i`, without its name and source: what
/// the division reads.
pub fn replicas_at(i: usize, requested: u64, components: bool, answers: &[Answers<'_>]) -> i64 {
    match combined_at(i, requested, components, answers) {
        Pick::NotAsked => MAX_INT32 as i64,
        Pick::Estimator(v, _) => v,
        Pick::Requested => requested as i64,
    }
}

/// What sets a cluster's combined figure.
enum Pick<'a> {
    NotAsked,
    /// The tightest answer below MaxInt32, and its estimator.
    Estimator(i64, &'a str),
    Requested,
}

/// The rule of [`combine_by_position`] for the cluster at position `i`.
fn combined_at<'a>(
    i: usize,
    requested: u64,
    components: bool,
    answers: &[Answers<'a>],
) -> Pick<'a> {
    if requested == 0 && !components {
        return Pick::NotAsked;
    }
    let mut best: Option<(i64, &str)> = None;
    let max = MAX_INT32 as i64;
    for a in answers {
        let Some(v) = a
            .replicas
            .as_ref()
            .and_then(|r| r.get(i).copied().flatten())
        else {
            continue;
        };
        // Only -1 means "no answer": another negative figure is taken as it is, as Karmada's
        // minimum takes it.
        if v == NO_ANSWER {
            continue;
        }
        let v = v.min(max);
        if best.is_none_or(|(b, _)| v < b) {
            best = Some((v, a.estimator));
        }
    }
    match best {
        Some((v, e)) if v < max => Pick::Estimator(v, e),
        _ => Pick::Requested,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(name: &str, pairs: Option<&[(&str, i64)]>) -> EstimatorAnswers {
        EstimatorAnswers {
            estimator: name.into(),
            replicas: pairs.map(|p| p.iter().map(|&(c, v)| (c.into(), v)).collect()),
        }
    }

    #[test]
    fn minimum_no_answer_and_failed_calls() {
        let a = [
            answers("general", Some(&[("m1", 6), ("m2", 4), ("m3", -1)])),
            answers("accurate", Some(&[("m1", 2), ("m2", 9)])),
            answers("broken", None),
        ];
        let c = combine(&["m1", "m2", "m3", "m4"], 7, false, &a);
        let got: Vec<i64> = c.iter().map(|c| c.replicas).collect();
        assert_eq!(got, [2, 4, 7, 7]);
        assert_eq!(
            c[0].source,
            Source::Estimator {
                estimator: "accurate".into()
            }
        );
        assert_eq!(c[2].source, Source::Requested);
        let all = combine(&["m1"], 0, false, &a);
        assert_eq!(
            (all[0].replicas, &all[0].source),
            (MAX_INT32 as i64, &Source::NotAsked)
        );
        // An estimator answering MaxInt32 leaves the cluster at the requested replicas.
        let c = combine(
            &["m1"],
            5,
            false,
            &[answers("x", Some(&[("m1", i64::from(i32::MAX))]))],
        );
        assert_eq!(c[0].replicas, 5);
    }
}
