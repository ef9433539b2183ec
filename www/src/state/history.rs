//! What "apply as current", going to a step and loading a preset or a link do to the step
//! history (docs/playground.md, "History"), and the placement an applied outcome leaves.

use std::rc::Rc;

use allot_core::scenario::Outcome;
use serde_json::{json, Value};

use super::{Change, State};
use crate::doc;
use crate::history::{At, Step};

impl State {
    /// The step "back" goes to.
    pub fn back(&self) -> Option<usize> {
        match self.at {
            At::Step(k) => k.checked_sub(1),
            At::Now(_) => self.steps.len().checked_sub(1),
        }
    }

    /// The step "forward" goes to (`Some(None)`: the scenario set aside).
    pub fn forward(&self) -> Option<Option<usize>> {
        match self.at {
            At::Step(k) if k + 1 < self.steps.len() => Some(Some(k + 1)),
            At::Step(_) => self.held.as_ref().map(|_| None),
            At::Now(_) => None,
        }
    }

    /// "Apply as current": record the scenario as a step (unless it is a step already) and go
    /// on from the placement `outcome` makes.
    pub(super) fn apply(&mut self, outcome: &Outcome) -> Change {
        match self.at {
            // The step as it was applied: go on from it, no new step.
            At::Step(k) => self.at = At::Now(Some(k)),
            At::Now(from) => {
                let doc = Rc::new(crate::history::pinned(&self.doc, self.seed()));
                let step = Step::new(&self.steps, doc, from);
                let steps = Rc::make_mut(&mut self.steps);
                steps.push(step);
                if steps.len() > crate::history::MAX_STEPS {
                    // The oldest step goes; the others' `from` shift with it.
                    steps.remove(0);
                    for s in steps.iter_mut() {
                        s.from = s.from.and_then(|f| f.checked_sub(1));
                    }
                }
                self.at = At::Now(Some(steps.len() - 1));
            }
        }
        // The scenario goes on as it was (a drawn seed stays drawn).
        self.doc = Rc::new(applied(&self.doc, outcome));
        self.held = None;
        Change::Moved
    }

    /// Show step `k` as it was applied, or (with `None`) the scenario set aside by going back;
    /// `None` when there is no such step.
    pub(super) fn go_to(&mut self, target: Option<usize>) -> Option<Change> {
        let (doc, at) = match target {
            Some(k) => self.steps.get(k).map(|s| (s.doc.clone(), At::Step(k))),
            None => self.held.clone().map(|(doc, from)| (doc, At::Now(from))),
        }?;
        // Leaving the scenario being edited sets it aside; going back to it takes it up.
        self.held = match (self.at, at) {
            (_, At::Now(_)) => None,
            (At::Now(from), At::Step(_)) => Some((self.doc.clone(), from)),
            (At::Step(_), At::Step(_)) => self.held.take(),
        };
        self.doc = doc;
        self.at = at;
        self.draft = None;
        Some(Change::Moved)
    }

    /// A preset or a link: a history (possibly empty) and the scenario the page is on.
    pub(super) fn load(
        &mut self,
        steps: Vec<Step>,
        doc: Value,
        at: At,
        preset: bool,
        notice: Option<String>,
    ) -> Change {
        self.doc = Rc::new(doc);
        self.steps = Rc::new(steps);
        self.at = at;
        self.held = None;
        self.notice = notice;
        self.draft = None;
        self.preset_words = preset;
        Change::Moved
    }
}

/// The document after "apply as current": Karmada's `previous` becomes the assignment; each
/// eru node's `count` grows by what it was given.
pub fn applied(doc: &Value, outcome: &Outcome) -> Value {
    let mut next = doc.clone();
    match outcome {
        Outcome::Karmada(k) => {
            let previous: serde_json::Map<String, Value> = k
                .assignment
                .iter()
                .map(|a| (a.name.to_string(), json!(a.replicas)))
                .collect();
            doc::set(&mut next, "previous", Some(Value::Object(previous)));
        }
        Outcome::Eru(e) => {
            for (i, node) in doc::items(doc, "nodes").iter().enumerate() {
                let name = node.get("name").and_then(Value::as_str).unwrap_or_default();
                if let Some(add) = e.deploy.get(name).filter(|&&n| n > 0) {
                    let count = node.get("count").and_then(Value::as_u64).unwrap_or(0);
                    doc::set(
                        &mut next,
                        &format!("nodes[{i}].count"),
                        Some(json!(count + add)),
                    );
                }
            }
        }
    }
    next
}

#[cfg(test)]
mod tests {
    use super::super::Action;
    use super::*;
    use crate::run::Run;
    use yew::Reducible;

    #[test]
    fn apply_then_scale_keeps_placements() {
        let doc = json!({"version": 1, "clusters": [{"name": "a", "weight": 2}, {"name": "b", "weight": 1}],
                         "workload": {"replicas": 3}, "seed": 1});
        let run = Run::new(&doc, 0);
        let mut next = applied(&doc, run.outcome.as_ref().unwrap());
        assert_eq!(next["previous"], json!({"a": 2, "b": 1}));
        doc::set(&mut next, "workload.replicas", Some(json!(4)));
        let Outcome::Karmada(k) = &*Run::new(&next, 0).outcome.unwrap() else {
            panic!()
        };
        let total: u64 = k.assignment.iter().map(|a| a.replicas).sum();
        assert_eq!(total, 4);
    }

    #[test]
    fn eru_apply_adds_instances() {
        let doc = json!({"version": 1, "nodes": [{"name": "n1", "cpuMap": {"0": 100}, "memory": 100}],
                         "workload": {"count": 2, "requests": {"memory": 10}}});
        let run = Run::new(&doc, 0);
        let next = applied(&doc, run.outcome.as_ref().unwrap());
        assert_eq!(next["nodes"][0]["count"], json!(2));
    }

    #[test]
    fn applying_records_steps_that_can_be_revisited() {
        let outcome = |s: &State| Run::new(&s.doc, s.drawn).outcome.unwrap();
        let apply = |s: Rc<State>| {
            let o = outcome(&s);
            s.reduce(Action::Apply(o))
        };
        let doc = json!({"version": 1, "title": "A preset", "description": "Its story.",
                         "clusters": [{"name": "a", "weight": 1}, {"name": "b", "weight": 1}],
                         "workload": {"replicas": 4}});
        let s = Rc::new(State::with_history(
            Vec::new(),
            Rc::new(doc),
            At::Now(None),
            true,
        ));
        let one = apply(s.clone());
        assert_eq!((one.steps.len(), one.at), (1, At::Now(Some(0))));
        assert_eq!(one.doc["previous"], json!({"a": 2, "b": 2}));
        assert!(
            one.steps[0].doc.get("seed").is_some(),
            "the seed in effect is pinned"
        );
        // The first edit of the problem marks the preset's words.
        let scaled = one.reduce(Action::Set("workload.replicas".into(), Some(json!(6))));
        assert_eq!(scaled.doc["title"], json!("A preset (edited)"));
        assert!(scaled.doc.get("description").is_none());
        let two = apply(scaled);
        assert_eq!(two.steps[1].label, "scaled from 4 to 6");
        assert_eq!(two.steps[1].from, Some(0));
        // Back to step 1, forward to step 2, forward to the scenario set aside.
        let editing = two.doc.clone();
        let back = two.clone().reduce(Action::GoTo(two.back()));
        assert_eq!(back.at, At::Step(1));
        let back = back.clone().reduce(Action::GoTo(back.back()));
        assert_eq!((back.at, &back.doc), (At::Step(0), &two.steps[0].doc));
        // Applying a step as it was adds nothing; editing it starts where it started.
        let again = apply(back.clone());
        assert_eq!((again.steps.len(), again.at), (2, At::Now(Some(0))));
        let edited = back
            .clone()
            .reduce(Action::Set("workload.replicas".into(), Some(json!(5))));
        assert_eq!(edited.at, At::Now(None));
        let forward = back.reduce(Action::GoTo(Some(1)));
        assert_eq!(forward.forward(), Some(None));
        let home = forward.clone().reduce(Action::GoTo(None));
        assert_eq!((home.doc.clone(), home.at), (editing, At::Now(Some(1))));
        // Undo takes an apply back with its step.
        assert_eq!(two.reduce(Action::Undo).steps.len(), 1);
        // A step that is not there changes nothing.
        let same = home.clone().reduce(Action::GoTo(Some(9)));
        assert!(Rc::ptr_eq(&same, &home));
    }
}
