//! What the core answers for a document (docs/playground.md, "Outcome"): the scenario read as
//! the npm package reads it, scheduled with the seed in effect, and, when it cannot be
//! scheduled, the pipeline's steps that say why. The page computes a [`Run`] on every edit.

use std::rc::Rc;

use allot_core::json::from_json;
use allot_core::karmada::scheduler::PipelineReport;
use allot_core::scenario::{schedule, Outcome, Scenario};
use serde_json::Value;

use crate::problems::{problems, Problem, SharedProblem};

/// The scenario a document holds, read as the npm package reads it: from the document's JSON
/// text, by allot-core's reader, so both report the same first error at the same path (the
/// document keeps its keys in the order they were written).
pub fn read(doc: &Value) -> Result<Scenario, allot_core::Error> {
    from_json(&doc.to_string())
}

/// What is wrong with a document: how it reads, else how it checks when scheduled (a scenario
/// that cannot be scheduled is not written wrong).
pub fn check(doc: &Value) -> Option<allot_core::Error> {
    match read(doc) {
        Err(e) => Some(e),
        Ok(s) => schedule(&s, 0)
            .err()
            .filter(|e| !scheduling_failure(e.code())),
    }
}

/// An error that says the scenario cannot be scheduled, not that it is written wrong.
fn scheduling_failure(code: allot_core::error::ErrorCode) -> bool {
    use allot_core::error::ErrorCode as C;
    matches!(
        code,
        C::NoClusterFit | C::SpreadUnsatisfiable | C::Unschedulable | C::NoCandidates
    )
}

/// What the core makes of a document.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub scenario: Option<Rc<Scenario>>,
    pub outcome: Result<Rc<Outcome>, Rc<Problem>>,
    /// When Karmada cannot schedule the scenario (no cluster fits, spread constraints unmet,
    /// not enough capacity): the steps before the division, to show why.
    pub failed: Option<Rc<PipelineReport>>,
}

impl Run {
    pub fn new(doc: &Value, drawn: u64) -> Run {
        match read(doc) {
            Err(e) => Run {
                scenario: None,
                outcome: Err(problems(doc, e)),
                failed: None,
            },
            Ok(s) => {
                let outcome = schedule(&s, drawn);
                let failed = match &outcome {
                    Err(e) if scheduling_failure(e.code()) => {
                        allot_core::scenario::select(&s).ok().map(Rc::new)
                    }
                    _ => None,
                };
                Run {
                    outcome: outcome.map(Rc::new).map_err(|e| {
                        if scheduling_failure(e.code()) {
                            Rc::new(e.into())
                        } else {
                            problems(doc, e)
                        }
                    }),
                    scenario: Some(Rc::new(s)),
                    failed,
                }
            }
        }
    }

    pub fn problem(&self) -> SharedProblem {
        self.outcome.as_ref().err().cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The playground and the npm package read the same broken document the same way: the
    /// same code at the same path, including which of two problems comes first.
    #[test]
    fn the_page_reads_documents_as_the_package_does() {
        let documents = [
            r#"{"workload": {"replicas": "x"}, "clusters": [{"wieght": 1}], "version": 1}"#,
            r#"{"version": 1, "clusters": [{"wieght": 1}], "workload": {"replicas": "x"}}"#,
            r#"{"clusters": [{"name": "a"}]}"#,
            r#"{"version": 1, "clusters": [{"name": "a", "weight": -2}]}"#,
            r#"{"version": 1, "clusters": [{"name": "a", "nodes": [{"name": "n", "allocatable": {"cpu": -1}}]}]}"#,
            r#"{"version": 1, "clusters": [{"name": "a", "resourceSummary": {"allocatable": {"memory": "16 GB"}}}]}"#,
            r#"{"version": 1, "nodes": [{"name": "n", "memory": 1.5}], "workload": {"count": 1}}"#,
            r#"{"version": 1, "nodes": [{"name": "n", "volumes": {"/data": -1}}], "workload": {"count": 1}}"#,
            r#"{"version": 1, "clusters": [{"name": "a", "resourceModels": [{"grade": 0, "ranges": [{"name": "cpu", "min": "abc", "max": 1}]}]}]}"#,
            r#"{"version": 1, "policy": {"method": "dhondt"}, "clusters": [{"name": "a"}]}"#,
            r#"{"version": 1, "clusters": [{"name": "a"}], "seed": -1}"#,
        ];
        let answer = |s: Result<Scenario, allot_core::Error>| {
            s.and_then(|s| schedule(&s, 0).map(drop)).unwrap_err()
        };
        for text in documents {
            let package = answer(allot_core::json::from_json::<Scenario>(text));
            let doc: Value = serde_json::from_str(text).unwrap();
            let page = answer(read(&doc));
            assert_eq!(
                (page.code(), page.field().text()),
                (package.code(), package.field().text()),
                "{text}"
            );
        }
        // The first document's first problem is the first one written.
        let e = allot_core::json::from_json::<Scenario>(documents[0]).unwrap_err();
        assert_eq!(e.field(), "workload.replicas");
    }
}
