//! Objects in, the placement and the binding out (docs/rules/karmada.md §16.4): the import
//! (§16.2), the whole schedule of the scenario it makes, the binding result against the
//! binding's current `spec.clusters`, and the ResourceBinding object Karmada would write.

use alloc::boxed::Box;

use serde::Serialize;

use super::export;
use super::karmada as pipeline;
use super::objects::import;
use super::outcome::KarmadaOutcome;
use super::Scenario;
use crate::error::Result;
use crate::kubernetes::binding::{result, BindingResult};
use crate::kubernetes::import::{Choice, ImportReport};
use crate::kubernetes::karmada::ObjectReference;
use crate::kubernetes::objects::Object;

/// What a set of objects schedules to, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Explained {
    /// The scenario the objects describe.
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "super::objects::scenario_schema")
    )]
    pub scenario: Scenario,
    /// How the objects were read.
    pub report: ImportReport,
    /// The whole schedule: filters, scores, selection, estimates, division.
    pub outcome: Box<KarmadaOutcome>,
    /// The binding's new `spec.clusters`, and what changes.
    pub binding: BindingResult,
    /// The ResourceBinding Karmada would write: the given one with its new `spec.clusters`
    /// and observed term, else one made for the template.
    pub resource_binding: Object,
    /// The position of the given binding among the objects, if one was given. An [`Object`]
    /// holds only the fields allot reads: to keep every other field as given, write the new
    /// `spec.clusters` and observed term into that object as it was read (the npm package
    /// does).
    #[serde(skip)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub given_binding: Option<usize>,
}

/// What a schedule writes into a binding: its new `spec.clusters` with what changes, and the
/// ResourceBinding object.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Written {
    pub binding: BindingResult,
    pub resource_binding: Object,
}

/// The binding a schedule of the Karmada scenario `s` writes, for the template `resource`
/// (`None`: the exported template, `workload` in `default`); `drawn_seed` is used when the
/// scenario has no seed.
pub fn written(
    s: &Scenario,
    resource: Option<ObjectReference>,
    drawn_seed: u64,
) -> Result<Written> {
    let outcome = pipeline::schedule(s, s.family()?.karmada("binding")?, drawn_seed)?;
    Ok(write(s, &outcome, resource, None))
}

/// Import `objects` and schedule them; `drawn_seed` is used when no seed is given.
pub fn explain(objects: &[Object], choice: &Choice<'_>, drawn_seed: u64) -> Result<Explained> {
    let imported = import(objects, choice)?;
    let s = imported.scenario;
    let outcome = pipeline::schedule(&s, s.family()?.karmada("explain")?, drawn_seed)?;
    let given = imported.binding.and_then(|i| objects.get(i));
    let w = write(&s, &outcome, imported.resource, given);
    let given_binding = given.and(imported.binding);
    Ok(Explained {
        scenario: s,
        report: imported.report,
        outcome: Box::new(outcome),
        binding: w.binding,
        resource_binding: w.resource_binding,
        given_binding,
    })
}

/// What `outcome` writes: into the `given` binding (its other fields kept), else into one
/// made for the template `resource` (`None`: the exported template).
fn write(
    s: &Scenario,
    outcome: &KarmadaOutcome,
    resource: Option<ObjectReference>,
    given: Option<&Object>,
) -> Written {
    let binding = result(
        &outcome.assignment,
        &outcome.pipeline.observed_affinity,
        &s.previous,
    );
    let resource_binding = match given {
        Some(given) => {
            let mut o = given.clone();
            o.spec.clusters = binding.clusters.clone();
            o.status.scheduler_observing_affinity_name = binding.observed_affinity.clone();
            o
        }
        None => export::binding(
            s,
            resource.unwrap_or_else(|| export::reference(s)),
            binding.clusters.clone(),
            &binding.observed_affinity,
        ),
    };
    Written {
        binding,
        resource_binding,
    }
}
