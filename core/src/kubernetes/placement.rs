//! A placement as written in an object to the placement Karmada's scheduler reads
//! (docs/rules/karmada.md §16.2, §17): the [`Rules`] of a propagation policy's
//! `spec.placement`, or of the placement a binding's applied-placement annotation records
//! (docs/rules/fleet.md §20.3), after the CRD's and the policy webhook's defaults, with what
//! the webhook refuses refused (§17). Every problem is said at the object's own field.

use alloc::format;
use alloc::vec::Vec;

use super::import::{entry, invalid, ImportReport};
use super::karmada::{Placement, WorkloadGroup};
use super::objects::Object;
use crate::error::{indexed, Error, Path, Result};
use crate::karmada::admission;
use crate::karmada::affinity_terms::{PlacementSpec, ReplicaScheduling, WeightPreference};
use crate::karmada::constraints::{AffinityTerm, NamedAffinity, SpreadField};
use crate::karmada::filter::workload_affinity::WorkloadAffinity;
use crate::karmada::fleet::Rules;
use crate::karmada::version::Version;
use crate::karmada::Strategy;
use crate::path::Step;
use crate::selector::node::Toleration;

/// Where a placement is read: the object holding it (named in errors and report lines), the
/// object's path (`objects[2]`) and the placement's field in it (`spec.placement`).
pub(crate) struct Site<'a> {
    pub object: &'a Object,
    pub at: Path,
    pub within: Path,
}

impl Site<'_> {
    /// An error at `field` of the placement.
    fn invalid(&self, field: Path, reason: impl core::fmt::Display) -> crate::error::Error {
        invalid(
            self.object,
            self.at.clone(),
            field.within(&self.within),
            reason,
        )
    }
}

/// The rules of the placement `pl` read at `site`, under the rules of `version`: the webhook's
/// defaults applied (each said in `r.defaulted`), what each field feeds said in `r.used`, what
/// the webhook refuses refused at its field (§17).
pub(crate) fn read(
    pl: &Placement,
    site: &Site<'_>,
    version: Version,
    r: &mut ImportReport,
) -> Result<Rules> {
    let o = site.object;
    let prefix = site.within.text();
    let field = |name: &str| format!("{prefix}.{name}");
    if pl.cluster_affinity.is_some() {
        r.used.push(entry(
            o,
            &field("clusterAffinity"),
            "policy.clusterAffinity",
        ));
    }
    let cluster_affinities: Vec<AffinityTerm> = match &pl.cluster_affinities {
        Some(terms) => {
            r.used.push(entry(
                o,
                &field("clusterAffinities"),
                "policy.clusterAffinities",
            ));
            terms
                .iter()
                .map(|t| AffinityTerm {
                    affinity_name: t.affinity_name.clone(),
                    affinity: t.affinity(),
                    overflow_affinities: t
                        .overflow_affinities
                        .iter()
                        .map(|n| NamedAffinity {
                            affinity_name: n.affinity_name.clone(),
                            affinity: n.affinity(),
                        })
                        .collect(),
                })
                .collect()
        }
        None => Vec::new(),
    };
    let cluster_tolerations = pl
        .cluster_tolerations
        .iter()
        .enumerate()
        .map(|(k, t)| {
            t.toleration().ok_or_else(|| {
                let at = Path::fields("clusterTolerations").index(k).field("effect");
                site.invalid(at, "unknown effect")
            })
        })
        .collect::<Result<Vec<Toleration>>>()?;
    if !cluster_tolerations.is_empty() {
        r.used.push(entry(
            o,
            &field("clusterTolerations"),
            "policy.clusterTolerations",
        ));
    }
    let mut spread_constraints = Vec::with_capacity(pl.spread_constraints.len());
    for (k, c) in pl.spread_constraints.iter().enumerate() {
        let mut c = c.clone();
        let at = field(&format!("spreadConstraints[{k}]"));
        if c.spread_by_field.is_none() && c.spread_by_label.is_empty() {
            c.spread_by_field = Some(SpreadField::Cluster);
            r.defaulted
                .push(entry(o, &at, "spreadByField: cluster (the policy webhook)"));
        }
        if c.min_groups == 0 {
            c.min_groups = 1;
            r.defaulted
                .push(entry(o, &at, "minGroups: 1 (the policy webhook)"));
        }
        spread_constraints.push(c);
    }
    if !spread_constraints.is_empty() {
        r.used.push(entry(
            o,
            &field("spreadConstraints"),
            "policy.spreadConstraints",
        ));
    }
    let (strategy, replica_scheduling) = strategy(pl, site, &prefix, r)?;
    let spec = PlacementSpec {
        cluster_affinity: pl.cluster_affinity.clone(),
        cluster_affinities,
        cluster_tolerations,
        spread_constraints,
        replica_scheduling,
        workload_affinity: pl.workload_affinity.as_ref().map(|w| WorkloadAffinity {
            affinity: w.affinity.as_ref().map(|t| t.group_by_label_key.clone()),
            anti_affinity: w
                .anti_affinity
                .as_ref()
                .map(|t| t.group_by_label_key.clone()),
        }),
    };
    let placement = admission::Placement {
        cluster_affinity: spec.cluster_affinity.as_ref(),
        cluster_affinities: pl
            .cluster_affinities
            .is_some()
            .then_some(spec.cluster_affinities.as_slice()),
        cluster_tolerations: &spec.cluster_tolerations,
        spread_constraints: &spec.spread_constraints,
        strategy,
        workload_groups: pl
            .workload_affinity
            .as_ref()
            .map(|w| admission::WorkloadGroups {
                affinity: group_key(&w.affinity),
                anti_affinity: group_key(&w.anti_affinity),
            }),
    };
    admission::admit(&placement, version).map_err(|e| {
        let field = inline_affinity(e.field()).within(&site.within);
        e.at(field.within(&site.at))
    })?;
    let seconds = pl
        .cluster_tolerations
        .iter()
        .map(|t| t.toleration_seconds)
        .collect();
    // The type and preference are known here: the rules cannot refuse them.
    Rules::new(spec, seconds).map_err(|e| site.invalid(e.field().clone(), e))
}

/// A refusal's field (relative to the placement, a term's affinity under `affinity`) as a
/// policy object writes it: a term's and an overflow affinity's fields sit in the term itself.
fn inline_affinity(field: &Path) -> Path {
    let steps = field.steps();
    let mut out = Path::root();
    for (k, step) in steps.iter().enumerate() {
        let term = k >= 2
            && matches!(step, Step::Field(f) if f == "affinity")
            && matches!(steps[k - 1], Step::Index(_))
            && matches!(&steps[k - 2],
                Step::Field(f) if f == "clusterAffinities" || f == "overflowAffinities");
        out = match step {
            _ if term => out,
            Step::Field(f) => out.field(f.clone()),
            Step::Index(i) => out.index(*i),
        };
    }
    out
}

/// A workload affinity term's `groupByLabelKey`, when the term is given.
fn group_key(g: &Option<WorkloadGroup>) -> Option<&str> {
    g.as_ref().map(|g| g.group_by_label_key.as_str())
}

/// The strategy from `replicaScheduling` (docs/rules/karmada.md §0 step 3), with the CRD's
/// and the webhook's defaults, and `replicaScheduling` as they leave it.
fn strategy(
    pl: &Placement,
    site: &Site<'_>,
    prefix: &str,
    r: &mut ImportReport,
) -> Result<(Strategy, Option<ReplicaScheduling>)> {
    let o = site.object;
    let field = format!("{prefix}.replicaScheduling");
    let Some(rs) = &pl.replica_scheduling else {
        r.defaulted.push(entry(o, &field, "absent: Duplicated"));
        return Ok((Strategy::Duplicated, None));
    };
    let kind = match rs.replica_scheduling_type.as_deref() {
        Some(k) => k,
        None => {
            r.defaulted
                .push(entry(o, &field, "replicaSchedulingType: Divided (the CRD)"));
            "Divided"
        }
    };
    // The webhook defaults an absent or empty preference.
    let preference = match rs.replica_division_preference.as_deref() {
        Some(p) if !p.is_empty() => p,
        _ => "Weighted",
    };
    let strategy = match kind {
        "Duplicated" => Strategy::Duplicated,
        "Divided" => {
            if rs
                .replica_division_preference
                .as_deref()
                .is_none_or(str::is_empty)
            {
                r.defaulted.push(entry(
                    o,
                    &field,
                    "replicaDivisionPreference: Weighted (the policy webhook)",
                ));
            }
            let weights = rs.weight_preference.as_ref();
            match preference {
                "Aggregated" => Strategy::Aggregated,
                "Weighted" if weights.is_some_and(|w| !w.dynamic_weight.is_empty()) => {
                    Strategy::DynamicWeight
                }
                "Weighted" => {
                    if weights.is_some_and(|w| !w.static_weight_list.is_empty()) {
                        r.used.push(entry(
                            o,
                            &format!("{field}.weightPreference.staticWeightList"),
                            "policy.staticWeights",
                        ));
                    }
                    Strategy::StaticWeight
                }
                other => {
                    let at = Path::fields("replicaScheduling.replicaDivisionPreference");
                    return Err(site.invalid(
                        at,
                        format_args!(
                            "unknown preference {other:?}: Karmada accepts Aggregated or Weighted"
                        ),
                    ));
                }
            }
        }
        other => {
            let at = Path::fields("replicaScheduling.replicaSchedulingType");
            return Err(site.invalid(
                at,
                format_args!("unknown type {other:?}: Karmada accepts Duplicated or Divided"),
            ));
        }
    };
    r.used.push(entry(
        o,
        &field,
        format_args!("policy.strategy: {}", strategy.name()),
    ));
    let defaulted = ReplicaScheduling {
        replica_scheduling_type: kind.into(),
        replica_division_preference: preference.into(),
        weight_preference: rs.weight_preference.as_ref().map(|w| WeightPreference {
            static_weight_list: w.static_weight_list.clone(),
            dynamic_weight: w.dynamic_weight.clone(),
        }),
    };
    Ok((strategy, Some(defaulted)))
}

/// The rules of the policy `o` (the `i`th object): its `spec.placement` read at
/// `objects[i].spec.placement`, then what the webhook refuses of its resource selectors'
/// namespaces (§17.2); the report says what the placement leaves to others.
pub(crate) fn policy(
    o: &Object,
    i: usize,
    version: Version,
    r: &mut ImportReport,
) -> Result<Rules> {
    let at = super::import::object(i);
    let site = Site {
        object: o,
        at: at.clone(),
        within: Path::fields("spec.placement"),
    };
    let rules = read(&o.spec.placement, &site, version, r)?;
    let namespace = match o.kind.as_str() {
        "PropagationPolicy" => o.metadata.namespace.as_str(),
        _ => "",
    };
    admission::resource_selectors(
        o.spec
            .resource_selectors
            .iter()
            .map(|s| s.namespace.as_str()),
        namespace,
        &at.join(&Path::fields("spec.resourceSelectors")),
        version,
    )?;
    if o.spec.placement.workload_affinity.is_some() {
        r.ignored.push(entry(
            o,
            "spec.placement.workloadAffinity",
            "WorkloadAffinity and WorkloadAntiAffinity read the other bindings of a group: a \
             fleet reads them (docs/rules/fleet.md §31), a single binding has none",
        ));
    }
    if !o.spec.scheduler_name.is_empty() {
        r.ignored.push(entry(
            o,
            "spec.schedulerName",
            "names the scheduler that acts; allot answers as the default one",
        ));
    }
    if o.spec.schedule_priority.is_some() {
        r.ignored.push(entry(
            o,
            "spec.schedulePriority",
            "orders the scheduling queue only; it does not change a placement",
        ));
    }
    Ok(rules)
}

/// Karmada's annotation of the placement a schedule applied (`PolicyPlacementAnnotation`,
/// pkg/util/constants.go, written by `patchScheduleResultForResourceBinding`).
pub const APPLIED_PLACEMENT: &str = "policy.karmada.io/applied-placement";

/// The rules of the placement recorded in `b` (the `i`th object)'s applied-placement
/// annotation, read as a policy's placement is (the webhook's defaults applied, docs/rules/fleet.md §20.3); `current`
/// itself when they are the same. `None` without the annotation; an error at it when it
/// cannot be read.
pub(crate) fn applied(
    b: &Object,
    i: usize,
    current: &alloc::rc::Rc<Rules>,
    version: Version,
) -> Result<Option<alloc::rc::Rc<Rules>>> {
    let Some(text) = b.metadata.annotations.get(APPLIED_PLACEMENT) else {
        return Ok(None);
    };
    let at = indexed("objects", i)
        .field("metadata")
        .field("annotations")
        .field(APPLIED_PLACEMENT);
    let unreadable = |e: Error| Error::Input {
        field: at.clone(),
        code: e.code(),
        reason: format!(
            "{}: the placement Karmada's scheduler recorded cannot be read ({e}); remove the \
             annotation or write it again from the policy's placement",
            super::fleet::Problem::at(b, "", "").object
        ),
    };
    let placement: Placement = crate::json::from_json(text).map_err(unreadable)?;
    let site = Site {
        object: b,
        at: indexed("objects", i),
        within: Path::fields("metadata.annotations").field(APPLIED_PLACEMENT),
    };
    match read(&placement, &site, version, &mut ImportReport::default()) {
        Ok(r) if r == **current => Ok(Some(current.clone())),
        Ok(r) => Ok(Some(alloc::rc::Rc::new(r))),
        Err(e) => Err(unreadable(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubernetes::objects::read_json;

    fn policy_object(placement: &str) -> Object {
        let text = alloc::format!(
            r#"{{"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
                "metadata": {{"name": "web", "namespace": "shop"}},
                "spec": {{"resourceSelectors": [{{"apiVersion": "apps/v1", "kind": "Deployment"}}],
                         "placement": {placement}}}}}"#
        );
        read_json(&text).unwrap().remove(0)
    }

    fn rules(placement: &str) -> Result<Rules> {
        let o = policy_object(placement);
        policy(&o, 3, Version::default(), &mut ImportReport::default())
    }

    // The webhook's and the CRD's defaults: no replicaScheduling is Duplicated; Divided
    // without a preference is Weighted, by static weights without a dynamic weight; a spread
    // constraint without a field or label spreads by cluster, at least one group.
    #[test]
    fn a_placement_is_read_with_the_webhooks_defaults() {
        assert_eq!(rules("{}").unwrap().strategy(), Strategy::Duplicated);
        let divided = rules(
            r#"{"replicaScheduling": {"replicaSchedulingType": "Divided"},
                "spreadConstraints": [{"maxGroups": 2}]}"#,
        )
        .unwrap();
        assert_eq!(divided.strategy(), Strategy::StaticWeight);
        let rs = divided.placement().replica_scheduling.as_ref().unwrap();
        assert_eq!(rs.replica_division_preference, "Weighted");
        let c = &divided.placement().spread_constraints[0];
        assert_eq!(
            (c.spread_by_field, c.min_groups),
            (Some(SpreadField::Cluster), 1)
        );
    }

    // A refusal is said at the object's field: a term's affinity fields sit in the term.
    #[test]
    fn a_refusal_is_at_the_policys_own_field() {
        let err = rules(
            r#"{"clusterAffinities": [{"affinityName": "a", "fieldSelector":
                 {"matchExpressions": [{"key": "color", "operator": "In", "values": ["x"]}]}}]}"#,
        )
        .unwrap_err();
        assert_eq!(
            err.field().text(),
            "objects[3].spec.placement.clusterAffinities[0].fieldSelector.matchExpressions[0].key"
        );
        let err =
            rules(r#"{"replicaScheduling": {"replicaSchedulingType": "Split"}}"#).unwrap_err();
        assert_eq!(
            err.field().text(),
            "objects[3].spec.placement.replicaScheduling.replicaSchedulingType"
        );
    }

    #[test]
    fn only_a_terms_affinity_step_is_inlined() {
        let p = Path::fields("clusterAffinities[1].overflowAffinities[0].affinity.fieldSelector")
            .within(&Path::root());
        assert_eq!(
            inline_affinity(&p).text(),
            "clusterAffinities[1].overflowAffinities[0].fieldSelector"
        );
        let p = Path::fields("clusterAffinities[1].affinity");
        assert_eq!(inline_affinity(&p).text(), "clusterAffinities[1]");
        let p = Path::fields("clusterAffinity.affinity");
        assert_eq!(inline_affinity(&p).text(), "clusterAffinity.affinity");
    }

    // The same reader takes a placement held elsewhere in an object (the applied-placement
    // annotation), its problems at that field.
    #[test]
    fn a_placement_elsewhere_is_located_there() {
        let o = policy_object("{}");
        let pl: Placement = crate::json::from_json(
            r#"{"clusterTolerations": [{"key": "k", "operator": "Exists", "effect": "Often"}]}"#,
        )
        .unwrap();
        let site = Site {
            object: &o,
            at: Path::fields("objects[0]"),
            within: Path::fields("metadata.annotations").field("applied"),
        };
        let err = read(&pl, &site, Version::default(), &mut ImportReport::default()).unwrap_err();
        assert_eq!(
            err.field().text(),
            "objects[0].metadata.annotations.applied.clusterTolerations[0].effect"
        );
    }
}
