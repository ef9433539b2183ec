//! Undo and redo (docs/playground.md, "Undo"): each change of the scenario is a step back,
//! except more typing in the field last typed in; an undone "apply as current" takes its step
//! of the history back too.

use std::rc::Rc;

use serde_json::Value;

use super::{Change, State};
use crate::history::{At, Step};

/// Undo keeps at most this many earlier scenarios.
pub const UNDO_DEPTH: usize = 200;

/// What undo takes back: the scenario and the history with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    doc: Rc<Value>,
    steps: Rc<Vec<Step>>,
    at: At,
}

impl State {
    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot {
            doc: self.doc.clone(),
            steps: self.steps.clone(),
            at: self.at,
        }
    }

    /// Show `s`; what was shown is returned.
    fn restore(&mut self, s: Snapshot) -> Snapshot {
        let now = self.snapshot();
        self.doc = s.doc;
        self.steps = s.steps;
        self.at = s.at;
        now
    }

    /// Keep `s` as the latest step back, forgetting the oldest beyond [`UNDO_DEPTH`].
    pub(super) fn remember(&mut self, s: Snapshot) {
        self.past.push(s);
        if self.past.len() > UNDO_DEPTH {
            self.past.remove(0);
        }
    }

    pub(super) fn undo(&mut self) -> Change {
        if let Some(snapshot) = self.past.pop() {
            let now = self.restore(snapshot);
            self.future.push(now);
            self.forget_typing();
        }
        Change::None
    }

    pub(super) fn redo(&mut self) -> Change {
        if let Some(snapshot) = self.future.pop() {
            let now = self.restore(snapshot);
            self.past.push(now);
            self.forget_typing();
        }
        Change::None
    }

    /// After an undo or redo, typing starts a step of its own, and JSON text typed over the
    /// scenario undone is dropped.
    fn forget_typing(&mut self) {
        self.typing = None;
        self.draft = None;
    }
}

#[cfg(test)]
mod tests {
    use super::super::Action;
    use super::*;
    use serde_json::json;
    use yew::Reducible;

    #[test]
    fn undo_takes_a_field_edit_back_whole_and_redo_brings_it_again() {
        let s = Rc::new(State::new(json!({"version": 1}), None));
        let typed = ["1", "12", "123"].iter().fold(s.clone(), |s, t| {
            s.reduce(Action::Set("workload.replicas".into(), Some(json!(t))))
        });
        let both = typed.reduce(Action::Set("title".into(), Some(json!("x"))));
        let once = both.clone().reduce(Action::Undo);
        assert_eq!(once.doc["workload"]["replicas"], json!("123"));
        assert!(once.doc.get("title").is_none());
        let twice = once.reduce(Action::Undo);
        assert_eq!(
            *twice.doc, *s.doc,
            "three keystrokes in one field are one step"
        );
        let again = twice.reduce(Action::Redo).reduce(Action::Redo);
        assert_eq!(again.doc, both.doc);
        // A new edit after an undo drops what could be redone.
        let branched = again
            .reduce(Action::Undo)
            .reduce(Action::Set("seed".into(), Some(json!(1))));
        assert!(branched.future.is_empty());
        // Nothing to undo: nothing changes.
        let fresh = Rc::new(State::new(json!({"version": 1}), None));
        assert_eq!(fresh.clone().reduce(Action::Undo).doc, fresh.doc);
    }

    #[test]
    fn undo_goes_back_at_most_its_depth() {
        let s =
            (0..UNDO_DEPTH + 5).fold(Rc::new(State::new(json!({"version": 1}), None)), |s, i| {
                // A different field each time: each edit is a step of its own.
                s.reduce(Action::Set(format!("f{}", i % 2), Some(json!(i))))
            });
        assert_eq!(s.past.len(), UNDO_DEPTH);
    }
}
