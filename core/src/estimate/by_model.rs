//! Replicas a cluster can take by its resource models and grade counts (docs/rules/karmada.md §7,
//! "Model estimate"): the current first-fit simulator over virtual nodes (v1.18+) or the
//! legacy grade formula (v1.17 and before), selectable.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::models::{AllocatableModeling, ResourceModel};
use super::simulate::{Grid, SimComponent};
use super::{per, AssumedWorkload, Component, MAX_INT32};
use crate::error::{Error, Path, Result, MAX_TARGETS};
use crate::quantity::human;
use crate::resource::ResourceList;

/// Pod slots of a virtual node.
pub const VIRTUAL_NODE_PODS: u64 = 110;

/// Which model estimate to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum ModelMethod {
    /// Karmada v1.18+: virtual nodes at each grade's mins, first-fit.
    #[default]
    Simulator,
    /// Karmada v1.17 and before: count × per-node fit over grades that surely fit.
    GradeFormula,
}

crate::choice::names!(ModelMethod {
    Simulator => "simulator",
    GradeFormula => "gradeFormula",
});

/// One grade's part of a model estimate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GradeFit {
    pub grade: u64,
    /// Nodes in the grade.
    pub count: u64,
    /// Replicas one node of the grade takes (for one-replica requests).
    pub per_node: u64,
    /// Whether the grade was used (the legacy formula drops grades below the first that
    /// surely fits).
    pub used: bool,
    /// `min(4/3, 32Gi/20Gi)`.
    pub formula: String,
}

/// A model estimate and how it was reached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ModelEstimate {
    pub method: ModelMethod,
    /// Negative only where Karmada's grade formula wraps (docs/rules/versions.md "Resource
    /// models").
    pub replicas: i64,
    pub grades: Vec<GradeFit>,
    /// `1 × min(2/3, 16Gi/20Gi) + 6 × min(4/3, 32Gi/20Gi) = 6`.
    pub formula: String,
}

/// The grade's count from the status (0 if absent).
fn count_of(modelings: &[AllocatableModeling], grade: u64) -> u64 {
    modelings
        .iter()
        .filter(|a| a.grade == grade)
        .fold(0u64, |s, a| s.saturating_add(a.count))
}

/// Models sorted by grade (stable), as the estimators read them.
fn sorted(models: &[ResourceModel]) -> Vec<&ResourceModel> {
    let mut m: Vec<&ResourceModel> = models.iter().collect();
    crate::order::sort_by_key(&mut m, |m| m.grade);
    m
}

fn min_of(model: &ResourceModel, resource: &str) -> Option<u64> {
    model
        .ranges
        .iter()
        .find(|r| r.name == resource)
        .map(|r| r.min)
}

/// `min(4/3, 32Gi/20Gi)` and its value, over the request's positive resources (pods bound too
/// when `pods` is given).
fn fit_formula(model: &ResourceModel, request: &ResourceList, pods: Option<u64>) -> (u64, String) {
    let mut parts = Vec::new();
    let mut fit = u64::MAX;
    for (r, q) in request.positive() {
        let have = min_of(model, r).unwrap_or(0);
        fit = fit.min(per(have, q));
        parts.push(format!("{}/{}", human(have.into(), r), human(q.into(), r)));
    }
    if let Some(p) = pods {
        fit = fit.min(p);
    }
    let text = match parts.len() {
        0 => String::from("∞"),
        1 => parts.remove(0),
        _ => format!("min({})", parts.join(", ")),
    };
    (fit, text)
}

/// Model estimates need models (docs/rules/karmada.md §7: no models is an error).
fn require(models: &[ResourceModel]) -> Result<()> {
    if models.is_empty() {
        return Err(Error::Missing {
            field: "resourceModels".into(),
        });
    }
    Ok(())
}

/// Replicas of a one-replica request the models hold. Errors: no models (`resourceModels`),
/// and for the grade formula a requested resource no model grades.
pub fn replicas_by_models(
    models: &[ResourceModel],
    modelings: &[AllocatableModeling],
    request: &ResourceList,
    method: ModelMethod,
    assumed: &[AssumedWorkload],
) -> Result<ModelEstimate> {
    match method {
        ModelMethod::GradeFormula => {
            require(models)?;
            grade_formula(models, modelings, request)
        }
        ModelMethod::Simulator => {
            let one = [Component {
                name: String::new(),
                replicas: 1,
                requests: request.clone(),
                node_claim: None,
            }];
            sets_by_models(models, modelings, &one, MAX_INT32, assumed)
        }
    }
}

/// Complete sets of `components` the models hold, at most `upper` (simulator only).
pub fn sets_by_models(
    models: &[ResourceModel],
    modelings: &[AllocatableModeling],
    components: &[Component],
    upper: u64,
    assumed: &[AssumedWorkload],
) -> Result<ModelEstimate> {
    require(models)?;
    let models = sorted(models);
    let counts: Vec<u64> = models
        .iter()
        .map(|m| count_of(modelings, m.grade))
        .collect();
    let single = match components {
        [c] if assumed.iter().all(|a| a.components.is_empty()) && c.replicas > 0 => Some(c),
        _ => None,
    };
    let mut grades = Vec::new();
    for (m, &count) in models.iter().zip(&counts) {
        let request = single.map_or_else(ResourceList::new, |c| c.requests.clone());
        let (fit, formula) = fit_formula(m, &request, Some(VIRTUAL_NODE_PODS));
        grades.push(GradeFit {
            grade: m.grade,
            count,
            per_node: fit,
            used: count > 0,
            formula,
        });
    }
    let replicas = if let Some(c) = single {
        // Identical virtual nodes: the sets are the sum of per-node fits over replicas.
        let total = grades
            .iter()
            .map(|g| g.count.saturating_mul(g.per_node))
            .fold(0u64, u64::saturating_add);
        (total / c.replicas).min(upper)
    } else {
        let n = counts.iter().fold(0u64, |s, &c| s.saturating_add(c));
        if n > MAX_TARGETS as u64 {
            return Err(Error::TooLarge {
                field: "allocatableModelings".into(),
                limit: MAX_TARGETS as u64,
            });
        }
        let owner: Vec<usize> = counts
            .iter()
            .enumerate()
            .flat_map(|(i, &c)| core::iter::repeat_n(i, c as usize))
            .collect();
        let names = components
            .iter()
            .chain(assumed.iter().flat_map(|a| &a.components))
            .flat_map(|c| c.requests.iter().map(|(r, _)| r));
        let mut grid = Grid::new(names, owner.len(), |node, r| {
            if r == "pods" {
                VIRTUAL_NODE_PODS
            } else {
                min_of(models[owner[node]], r).unwrap_or(0)
            }
        });
        let all: Vec<u32> = (0..owner.len() as u32).collect();
        let prepare = |grid: &Grid, cs: &[Component]| -> Vec<SimComponent> {
            cs.iter()
                .map(|c| SimComponent {
                    replicas: c.replicas,
                    req: grid.request(&c.requests),
                    eligible: all.clone(),
                })
                .collect()
        };
        for a in assumed.iter().filter(|a| !a.components.is_empty()) {
            let comps = prepare(&grid, &a.components);
            grid.simulate(&comps, 1);
        }
        let comps = prepare(&grid, components);
        grid.simulate(&comps, upper)
    };
    let replicas = i64::try_from(replicas).unwrap_or(i64::MAX);
    let formula = sum_formula(&grades, replicas, single.map_or(1, |c| c.replicas));
    Ok(ModelEstimate {
        method: ModelMethod::Simulator,
        replicas,
        grades,
        formula,
    })
}

fn sum_formula(grades: &[GradeFit], total: i64, per_set: u64) -> String {
    let terms: Vec<String> = grades
        .iter()
        .filter(|g| g.used && g.count > 0)
        .map(|g| format!("{} × {}", g.count, g.formula))
        .collect();
    let sum = if terms.is_empty() {
        String::from("0")
    } else {
        terms.join(" + ")
    };
    if per_set > 1 {
        format!("({sum}) / {per_set} = {total}")
    } else {
        format!("{sum} = {total}")
    }
}

/// The legacy formula: the first grade whose mins reach every requested amount, then
/// `Σ count × max(1, fit)` from there up.
fn grade_formula(
    models: &[ResourceModel],
    modelings: &[AllocatableModeling],
    request: &ResourceList,
) -> Result<ModelEstimate> {
    let models = sorted(models);
    let mut k = 0usize;
    let mut none_fits = false;
    for (r, q) in request.positive() {
        let mins: Vec<u64> = models.iter().map(|m| min_of(m, r).unwrap_or(0)).collect();
        if !models.iter().any(|m| min_of(m, r).is_some()) {
            return Err(Error::Missing {
                field: Path::fields("resourceModels").field(String::from(r)),
            });
        }
        match minimum_model_index(&mins, q) {
            Some(i) => k = k.max(i),
            None => none_fits = true,
        }
    }
    let mut grades = Vec::new();
    // Karmada sums `count × fit` in int64 and wraps: an empty request fits MaxInt64 replicas
    // per node, so the sum wraps, negative for an even number of nodes. The wrapped figure is
    // Karmada's estimate (docs/rules/versions.md "Resource models").
    let mut total = 0i64;
    for (i, m) in models.iter().enumerate() {
        let count = count_of(modelings, m.grade);
        let (fit, formula) = fit_formula(m, request, None);
        let used = !none_fits && i >= k && count > 0;
        if used {
            let count = i64::try_from(count).unwrap_or(i64::MAX);
            let fit = i64::try_from(fit.max(1)).unwrap_or(i64::MAX);
            total = total.wrapping_add(count.wrapping_mul(fit));
        }
        grades.push(GradeFit {
            grade: m.grade,
            count,
            per_node: fit.max(1),
            used,
            formula,
        });
    }
    let replicas = total.min(MAX_INT32 as i64);
    Ok(ModelEstimate {
        method: ModelMethod::GradeFormula,
        replicas,
        formula: sum_formula(&grades, replicas, 1),
        grades,
    })
}

/// The first index whose min reaches `request`, or `None` (legacy `minimumModelIndex`).
pub fn minimum_model_index(mins: &[u64], request: u64) -> Option<usize> {
    mins.iter().position(|&m| m >= request)
}

/// Replicas one node of model `index` takes by the legacy formula: the minimum over requested
/// resources of `floor(min / request)`, at least 1 (the first suitable grade is taken to hold
/// one pod, docs/rules/karmada.md §7 legacy step 4); MaxInt64 for an empty request.
pub fn legacy_node_replicas(
    mins_by_resource: &dyn Fn(&str) -> Option<u64>,
    request: &ResourceList,
) -> u64 {
    request
        .positive()
        .map(|(r, q)| per(mins_by_resource(r).unwrap_or(0), q))
        .min()
        .map_or(i64::MAX as u64, |n| n.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::models::default_models;

    fn counts(pairs: &[(u64, u64)]) -> Vec<AllocatableModeling> {
        pairs
            .iter()
            .map(|&(grade, count)| AllocatableModeling { grade, count })
            .collect()
    }

    fn req(cpu_cores: u64, mem_gi: u64) -> ResourceList {
        ResourceList::from_units([("cpu", cpu_cores * 1000), ("memory", mem_gi << 30)])
    }

    /// The seed's two tables over member1-3, by both methods.
    #[test]
    fn seed_tables() {
        let m = default_models();
        let members = [
            counts(&[(2, 1), (3, 6)]),
            counts(&[(2, 4), (3, 4)]),
            counts(&[(6, 1)]),
        ];
        for method in [ModelMethod::Simulator, ModelMethod::GradeFormula] {
            let run = |r: &ResourceList| -> Vec<i64> {
                members
                    .iter()
                    .map(|c| replicas_by_models(&m, c, r, method, &[]).unwrap().replicas)
                    .collect()
            };
            assert_eq!(run(&req(3, 20)), [6, 4, 10], "{method:?}");
            assert_eq!(run(&req(5, 60)), [0, 0, 4], "{method:?}");
        }
        let e = replicas_by_models(&m, &members[0], &req(3, 20), ModelMethod::GradeFormula, &[])
            .unwrap();
        assert_eq!(e.formula, "6 × min(4/3, 32Gi/20Gi) = 6");
        let e =
            replicas_by_models(&m, &members[0], &req(3, 20), ModelMethod::Simulator, &[]).unwrap();
        assert_eq!(
            e.formula,
            "1 × min(2/3, 16Gi/20Gi) + 6 × min(4/3, 32Gi/20Gi) = 6"
        );
    }

    #[test]
    fn legacy_helpers() {
        assert_eq!(minimum_model_index(&[2000, 4000, 8000], 1000), Some(0));
        assert_eq!(minimum_model_index(&[1000, 4000, 8000], 2000), Some(1));
        assert_eq!(minimum_model_index(&[1000, 2000, 4000], 8000), None);
        assert_eq!(
            legacy_node_replicas(&|_| None, &ResourceList::new()),
            i64::MAX as u64
        );
        // A grade whose mins fall short still counts one pod per node.
        let mem = ResourceList::from_units([("memory", 1000)]);
        assert_eq!(legacy_node_replicas(&|_| Some(500), &mem), 1);
        assert_eq!(legacy_node_replicas(&|_| Some(2500), &mem), 2);
        let e = replicas_by_models(
            &default_models(),
            &counts(&[(1, 1)]),
            &ResourceList::from_units([("nvidia.com/gpu", 1)]),
            ModelMethod::GradeFormula,
            &[],
        )
        .unwrap_err();
        assert_eq!(e.code(), "missing");
        assert!(replicas_by_models(&[], &[], &req(1, 1), ModelMethod::Simulator, &[]).is_err());
    }
}
