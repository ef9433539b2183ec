//! The edits of the scenario: a value at a path, a new row, a whole document, the seed, and
//! what stands beside the scenario (a notice, JSON text that does not read yet). Each says
//! what it changed, for the books [`State::reduce`](yew::Reducible::reduce) keeps after it.

use std::rc::Rc;

use serde_json::{json, Value};

use super::{Change, Draft, State};
use crate::doc;

/// Makes an array's next item from its current items.
pub type MakeItem = Box<dyn FnOnce(&[Value]) -> Option<Value>>;

impl State {
    /// Set (or, with `None`, remove) the value at `path`. Whether it changed is found without
    /// comparing whole documents: a keystroke in a 1,000-cluster scenario must not walk it
    /// twice.
    pub(super) fn set(&mut self, path: &str, value: Option<Value>) -> Change {
        if doc::get(&self.doc, path) == value.as_ref() {
            return Change::None;
        }
        let words = path == "title" || path == "description";
        if words {
            self.preset_words = false;
        }
        doc::set(Rc::make_mut(&mut self.doc), path, value);
        if words || path == "seed" || path.starts_with("previous") {
            Change::Moved
        } else {
            Change::Edited
        }
    }

    /// Append what `make` makes of the array's items at `path`, if anything.
    pub(super) fn append(&mut self, path: &str, make: MakeItem) -> Change {
        match make(doc::items(&self.doc, path)) {
            Some(value) => {
                doc::push(Rc::make_mut(&mut self.doc), path, value);
                Change::Edited
            }
            None => Change::None,
        }
    }

    /// A whole new document (the JSON tab, an import); a preset's words alone leave its
    /// problem unedited.
    pub(super) fn replace(&mut self, value: Value, notice: Option<String>) -> Change {
        self.notice = notice;
        self.draft = None;
        self.failed_import = None;
        if *self.doc == value {
            return Change::None;
        }
        let edits = !self.preset_words || !same_problem(&self.doc, &value);
        self.doc = Rc::new(value);
        if edits {
            Change::Edited
        } else {
            Change::Moved
        }
    }

    /// Draw `seed`; a pinned seed is replaced by it.
    pub(super) fn reroll(&mut self, seed: u64) -> Change {
        self.drawn = seed;
        if self.pinned().is_none() {
            return Change::None;
        }
        doc::set(Rc::make_mut(&mut self.doc), "seed", Some(json!(seed)));
        Change::Reseeded
    }

    /// Write the seed in effect into the scenario.
    pub(super) fn pin(&mut self) -> Change {
        let was = self.pinned();
        doc::set(Rc::make_mut(&mut self.doc), "seed", Some(json!(self.drawn)));
        if was == Some(self.drawn) {
            Change::None
        } else {
            Change::Reseeded
        }
    }

    /// Remove the scenario's seed; the page keeps using it as the drawn one.
    pub(super) fn unpin(&mut self) -> Change {
        let was = self.pinned();
        doc::set(Rc::make_mut(&mut self.doc), "seed", None);
        match was {
            Some(seed) => {
                self.drawn = seed;
                Change::Reseeded
            }
            None => Change::None,
        }
    }

    /// Say something above the page, or (with `None`) stop saying it.
    pub(super) fn say(&mut self, notice: Option<String>) -> Change {
        self.notice = notice;
        Change::None
    }

    /// An import failed: its notice goes, and the outcome shown says it is not the import's.
    pub(super) fn import_failed(&mut self, why: String) -> Change {
        self.notice = None;
        self.failed_import = Some(why);
        Change::None
    }

    /// Keep (or drop) JSON text that does not read yet, over the scenario as it is, or as it
    /// was when the text first stopped reading.
    pub(super) fn keep_draft(&mut self, draft: Option<(String, String)>) -> Change {
        let base = self
            .draft
            .as_ref()
            .map_or_else(|| self.doc.clone(), |d| d.base.clone());
        self.draft = draft.map(|(text, error)| Rc::new(Draft { text, error, base }));
        Change::None
    }

    /// The first edit of a preset's problem: its title says "(edited)" and its description,
    /// which no longer tells its story, goes.
    pub(super) fn mark_edited(&mut self) {
        let doc = Rc::make_mut(&mut self.doc);
        if let Some(title) = doc.get("title").and_then(Value::as_str) {
            let title = format!("{title} (edited)");
            doc::set(doc, "title", Some(Value::String(title)));
        }
        doc::set(doc, "description", None);
    }
}

/// Whether two scenarios differ in no more than their title and description.
fn same_problem(a: &Value, b: &Value) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("title");
            o.remove("description");
        }
        v
    };
    strip(a) == strip(b)
}

#[cfg(test)]
mod tests {
    use super::super::Action;
    use super::*;
    use yew::Reducible;

    #[test]
    fn pin_and_unpin_keep_the_seed() {
        let s = Rc::new(State {
            drawn: 42,
            ..State::new(json!({"version": 1}), None)
        });
        let pinned = s.reduce(Action::Pin);
        assert_eq!(pinned.pinned(), Some(42));
        let rerolled = pinned.reduce(Action::Reroll(7));
        assert_eq!((rerolled.pinned(), rerolled.drawn), (Some(7), 7));
        let unpinned = rerolled.reduce(Action::Unpin);
        assert_eq!((unpinned.pinned(), unpinned.drawn), (None, 7));
    }

    #[test]
    fn a_presets_words_alone_leave_its_problem_unedited() {
        let doc = json!({"version": 1, "title": "A preset", "description": "Its story.",
                         "clusters": [{"name": "a"}], "workload": {"replicas": 1}});
        let s = Rc::new(State::with_history(
            Vec::new(),
            Rc::new(doc.clone()),
            crate::history::At::Now(None),
            true,
        ));
        let mut retitled = doc.clone();
        retitled["title"] = json!("Another title");
        let words = s.clone().reduce(Action::Replace(retitled, None));
        assert_eq!(words.doc["description"], json!("Its story."));
        let mut scaled = doc;
        scaled["workload"]["replicas"] = json!(2);
        let edited = s.reduce(Action::Replace(scaled, None));
        assert_eq!(edited.doc["title"], json!("A preset (edited)"));
        assert!(edited.doc.get("description").is_none());
    }

    #[test]
    fn a_failed_import_leaves_nothing_that_looks_current() {
        let s = Rc::new(State::new(json!({"version": 1}), None));
        let imported = s.reduce(Action::Replace(
            json!({"version": 1, "clusters": [{"name": "a"}]}),
            Some("Imported from Kubernetes objects: 1 clusters.".into()),
        ));
        let failed = imported
            .clone()
            .reduce(Action::ImportFailed("objects[0]: bad".into()));
        assert_eq!(failed.notice, None, "the import's notice goes");
        assert_eq!(failed.failed_import.as_deref(), Some("objects[0]: bad"));
        assert_eq!(failed.doc, imported.doc, "the scenario stays");
        // An edit, or an import that reads, makes the outcome current again.
        let edited = failed
            .clone()
            .reduce(Action::Set("clusters[0].weight".into(), Some(json!(2))));
        assert_eq!(edited.failed_import, None);
        let again = failed.reduce(Action::Replace((*imported.doc).clone(), None));
        assert_eq!(again.failed_import, None);
    }
}
