//! The page's store (docs/playground.md): the scenario document, the seed drawn for scenarios
//! without one, a notice (a link that could not be read, an import that failed), JSON text
//! that does not read yet, undo, and the step history. Each [`Action`] is one method (the
//! edits in [`edit`], undo in [`undo`], the history's in [`history`]); [`State::reduce`] runs
//! it, then keeps the books every change of the scenario shares: undo, the step edited, and a
//! preset's words.

mod edit;
mod history;
mod undo;

use std::rc::Rc;

use serde_json::Value;
use yew::Reducible;

use crate::history::{At, Step};
use undo::Snapshot;

pub use edit::MakeItem;
pub use history::applied;

/// Text in the JSON tab that is not JSON yet: kept (across tab switches) until it reads, or the
/// user discards it, and reported in place of the scenario's own error meanwhile.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub text: String,
    /// Where it stops being JSON (`line 3, column 5: ...`).
    pub error: String,
    /// The scenario it was typed over: reading it replaces the scenario as it is then.
    pub base: Rc<Value>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub doc: Rc<Value>,
    /// The seed in effect when the scenario has none.
    pub drawn: u64,
    pub notice: Option<String>,
    pub draft: Option<Rc<Draft>>,
    /// Earlier states, the latest last (Ctrl+Z), and undone ones (Ctrl+Shift+Z).
    pub past: Vec<Snapshot>,
    pub future: Vec<Snapshot>,
    /// The step history, and where the page is in it.
    pub steps: Rc<Vec<Step>>,
    pub at: At,
    /// The scenario being edited when the page went back to a step (with the step it started
    /// from): "forward" past the last step brings it back.
    pub held: Option<(Rc<Value>, Option<usize>)>,
    /// The title and description are a preset's, untouched: the first edit of the problem
    /// marks the title edited and drops the description, which no longer tells its story.
    preset_words: bool,
    /// The path of the last field edit: further typing in it is the same undo step.
    typing: Option<String>,
    /// Why the last import failed, until the scenario changes: the outcome shown is then the
    /// scenario's from before the import, and says so.
    pub failed_import: Option<String>,
}

pub enum Action {
    /// Set (or, with `None`, remove) the value at a path.
    Set(String, Option<Value>),
    /// Append to the array at a path what the function makes of its current items (nothing
    /// when it returns `None`). New rows are made when asked for, not on every render.
    Append(String, MakeItem),
    /// A whole new document, with a notice (or none).
    Replace(Value, Option<String>),
    /// Draw a new seed; a pinned seed is replaced by it.
    Reroll(u64),
    /// Write the seed in effect into the scenario.
    Pin,
    /// Remove the scenario's seed; the page keeps using it as the drawn one.
    Unpin,
    /// Say something above the page (the document stays).
    Notice(String),
    /// An import failed, for this reason: the scenario stays as it was, and nothing on the page
    /// may look like the import's answer (its "Imported from" notice goes).
    ImportFailed(String),
    DismissNotice,
    /// Keep (or, with `None`, drop) JSON text that does not read yet: (text, error). It stands
    /// over the scenario as it is, or as it was when the text first stopped reading.
    Draft(Option<(String, String)>),
    /// Back to the scenario before the last change, and forward again.
    Undo,
    Redo,
    /// "Apply as current": record the scenario as a step (unless it is a step already) and
    /// go on from the placement its outcome makes.
    Apply(Rc<allot_core::scenario::Outcome>),
    /// Show step k as it was applied, or (with `None`) the scenario set aside by going back.
    GoTo(Option<usize>),
    /// A preset or a link: a history (possibly empty) and the scenario the page is on.
    Load {
        steps: Vec<Step>,
        doc: Value,
        at: At,
        /// The title and description are a preset's.
        preset: bool,
        notice: Option<String>,
    },
}

/// What an action did to the scenario, for the books kept after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    /// The scenario is as it was (or the action keeps its own books: undo, a draft).
    None,
    /// Another scenario, the problem not edited: its words, the placement before, a step, a
    /// preset.
    Moved,
    /// The problem edited.
    Edited,
    /// The seed in effect changed.
    Reseeded,
}

impl State {
    pub fn new(doc: Value, notice: Option<String>) -> State {
        State {
            doc: Rc::new(doc),
            drawn: draw_seed(),
            notice,
            draft: None,
            past: Vec::new(),
            future: Vec::new(),
            steps: Rc::new(Vec::new()),
            at: At::Now(None),
            held: None,
            preset_words: false,
            typing: None,
            failed_import: None,
        }
    }

    /// A history, showing `doc` at `at`.
    pub fn with_history(steps: Vec<Step>, doc: Rc<Value>, at: At, preset: bool) -> State {
        let mut state = State::new(Value::Null, None);
        state.doc = doc;
        state.steps = Rc::new(steps);
        state.at = at;
        state.preset_words = preset;
        state
    }

    /// A history as written (a link, the autosave), or why it does not read.
    pub fn from_history(history: &Value) -> Result<State, String> {
        let (steps, doc, at) = crate::history::read_history(history)?;
        Ok(State::with_history(steps, doc, at, false))
    }

    /// The seed in effect.
    fn seed(&self) -> u64 {
        self.pinned().unwrap_or(self.drawn)
    }

    /// The scenario's own seed, if pinned.
    pub fn pinned(&self) -> Option<u64> {
        self.doc.get("seed").and_then(Value::as_u64)
    }

    /// The books every change of the scenario keeps: an edit of a step's scenario is a new
    /// scenario, started where that step started; the first edit of a preset's problem marks
    /// its words; and the change is an undo step, unless it is more typing in the field last
    /// typed in.
    fn keep_books(&mut self, before: &State, change: Change, typing: Option<String>) {
        if change == Change::None {
            return;
        }
        self.failed_import = None;
        let edits = change == Change::Edited;
        if let (Change::Edited | Change::Reseeded, At::Step(k)) = (change, self.at) {
            self.at = At::Now(before.steps.get(k).and_then(|s| s.from));
        }
        if edits && std::mem::take(&mut self.preset_words) {
            self.mark_edited();
        }
        let same_field = typing.is_some() && typing == before.typing;
        if !same_field {
            self.remember(before.snapshot());
        }
        self.future.clear();
        self.typing = typing;
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        // Typing on in the same field extends the last undo step; anything else starts one.
        let typing = match &action {
            Action::Set(path, _) => Some(path.clone()),
            _ => None,
        };
        let change = match action {
            Action::Set(path, value) => next.set(&path, value),
            Action::Append(path, make) => next.append(&path, make),
            Action::Replace(doc, notice) => next.replace(doc, notice),
            Action::Reroll(seed) => next.reroll(seed),
            Action::Pin => next.pin(),
            Action::Unpin => next.unpin(),
            Action::Notice(text) => next.say(Some(text)),
            Action::DismissNotice => next.say(None),
            Action::ImportFailed(why) => next.import_failed(why),
            Action::Draft(draft) => next.keep_draft(draft),
            Action::Undo => next.undo(),
            Action::Redo => next.redo(),
            Action::Apply(outcome) => next.apply(&outcome),
            Action::GoTo(target) => match next.go_to(target) {
                Some(change) => change,
                None => return self,
            },
            Action::Load {
                steps,
                doc,
                at,
                preset,
                notice,
            } => next.load(steps, doc, at, preset, notice),
        };
        next.keep_books(&self, change, typing);
        Rc::new(next)
    }
}

/// A fresh seed, as the npm package draws one (without a source of randomness, 0).
pub fn draw_seed() -> u64 {
    allot_core::rng::js_safe_seed(getrandom::u64().unwrap_or(0))
}
