//! The page's state: the scenario document, the seed drawn for scenarios without one, and a
//! notice (a link that could not be read, an import that failed). [`Run`] is what the core
//! answers for a document; the page computes it on every edit.

use std::rc::Rc;

use allot_core::json::from_json;
use allot_core::karmada::scheduler::PipelineReport;
use allot_core::scenario::{schedule, Outcome, Scenario};
use serde_json::{json, Value};
use yew::Reducible;

use crate::doc;
use crate::history::{At, Step};

/// An error as the page shows it: next to the field at `path`, and in the summary. Problems
/// form a list in the order the reader meets them (`next`): whatever holds one also holds those
/// after it, so a row handed its first problem still finds its later ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub code: allot_core::ErrorCode,
    pub message: String,
    pub next: SharedProblem,
}

impl From<allot_core::Error> for Problem {
    fn from(e: allot_core::Error) -> Problem {
        Problem {
            path: e.field().text(),
            code: e.code(),
            message: e.reason(),
            next: None,
        }
    }
}

impl Problem {
    /// This problem and those after it.
    pub fn iter(&self) -> impl Iterator<Item = &Problem> {
        std::iter::successors(Some(self), |p| p.next.as_deref())
    }
}

/// Shared, cheap to compare: rows only re-render when their own problems change.
pub type SharedProblem = Option<Rc<Problem>>;

/// The first problem that concerns the field at `path` (or something inside it), with those
/// after it.
pub fn problem_at(problem: &SharedProblem, path: &str) -> SharedProblem {
    let mut at = problem.as_ref();
    while let Some(p) = at {
        if doc::concerns(&p.path, path) {
            return Some(p.clone());
        }
        at = p.next.as_ref();
    }
    None
}

/// At most this many problems are listed: the reader stops at the first, so each further one
/// costs another reading.
pub const MAX_PROBLEMS: usize = 8;

/// Problems after the first are looked for in scenarios of at most this many clusters or nodes.
const LIST_UP_TO_TARGETS: usize = 2_000;

/// Every problem of a document, up to [`MAX_PROBLEMS`], starting with `first` (what reading or
/// checking it found): the document is checked again without each value found wrong, until it
/// reads and checks, or a problem comes back at a path already listed.
fn problems(doc: &Value, first: allot_core::Error) -> Rc<Problem> {
    let mut found = vec![Problem::from(first)];
    let mut without = doc.clone();
    // Per path, how many stand-ins were tried: none (the value left out), then 1, then a word
    // for a value the scenario needs (a count, a name), to look past it.
    let stand_ins = [None, Some(json!(1)), Some(json!("a"))];
    let mut tried: Vec<(String, usize)> = Vec::new();
    let mut at = found[0].path.clone();
    // Each look costs a reading and a check: a scenario this large shows its first problem.
    let size = doc::items(doc, "clusters").len() + doc::items(doc, "nodes").len();
    if size > LIST_UP_TO_TARGETS {
        at.clear();
    }
    while found.len() < MAX_PROBLEMS && !at.is_empty() {
        let k = match tried.iter_mut().find(|(p, _)| *p == at) {
            Some((_, k)) => {
                *k += 1;
                *k
            }
            None => {
                tried.push((at.clone(), 0));
                0
            }
        };
        let Some(stand_in) = stand_ins.get(k) else {
            break;
        };
        doc::set(&mut without, &at, stand_in.clone());
        let Some(e) = check(&without) else {
            break;
        };
        let next = Problem::from(e);
        at = next.path.clone();
        if !found.iter().any(|f| f.path == next.path) {
            found.push(next);
        }
    }
    let mut list: SharedProblem = None;
    for mut p in found.into_iter().rev() {
        p.next = list;
        list = Some(Rc::new(p));
    }
    list.expect("at least the first problem")
}

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

/// Undo keeps at most this many earlier scenarios.
pub const UNDO_DEPTH: usize = 200;

/// What undo takes back: the scenario and the history with it (an undone "apply as current"
/// takes its step back too).
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    doc: Rc<Value>,
    steps: Rc<Vec<Step>>,
    at: At,
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
}

/// Makes an array's next item from its current items.
pub type MakeItem = Box<dyn FnOnce(&[Value]) -> Option<Value>>;

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
    DismissNotice,
    /// Keep (or, with `None`, drop) JSON text that does not read yet: (text, error). It stands
    /// over the scenario as it is, or as it was when the text first stopped reading.
    Draft(Option<(String, String)>),
    /// Back to the scenario before the last change, and forward again.
    Undo,
    Redo,
    /// "Apply as current": record the scenario as a step (unless it is a step already) and
    /// go on from the placement its outcome makes.
    Apply(Rc<Outcome>),
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

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            doc: self.doc.clone(),
            steps: self.steps.clone(),
            at: self.at,
        }
    }

    fn restore(&mut self, s: Snapshot) -> Snapshot {
        let now = self.snapshot();
        self.doc = s.doc;
        self.steps = s.steps;
        self.at = s.at;
        now
    }

    /// The step "back" goes to, and the one "forward" goes to (`Some(None)`: the scenario set
    /// aside).
    pub fn back(&self) -> Option<usize> {
        match self.at {
            At::Step(k) => k.checked_sub(1),
            At::Now(_) => self.steps.len().checked_sub(1),
        }
    }

    pub fn forward(&self) -> Option<Option<usize>> {
        match self.at {
            At::Step(k) if k + 1 < self.steps.len() => Some(Some(k + 1)),
            At::Step(_) => self.held.as_ref().map(|_| None),
            At::Now(_) => None,
        }
    }

    /// The seed in effect.
    fn seed(&self) -> u64 {
        self.pinned().unwrap_or(self.drawn)
    }

    /// The scenario's own seed, if pinned.
    pub fn pinned(&self) -> Option<u64> {
        self.doc.get("seed").and_then(Value::as_u64)
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
        let action_kind = match &action {
            Action::Reroll(_) | Action::Pin | Action::Unpin => Kind::Seed,
            _ => Kind::Other,
        };
        match action {
            Action::Undo | Action::Redo => {
                let from = if matches!(action, Action::Undo) {
                    &mut next.past
                } else {
                    &mut next.future
                };
                if let Some(snapshot) = from.pop() {
                    let now = next.restore(snapshot);
                    let to = if matches!(action, Action::Undo) {
                        &mut next.future
                    } else {
                        &mut next.past
                    };
                    to.push(now);
                    next.typing = None;
                    next.draft = None;
                }
                return Rc::new(next);
            }
            Action::Draft(draft) => {
                next.draft = draft.map(|(text, error)| {
                    let base = self
                        .draft
                        .as_ref()
                        .map_or_else(|| self.doc.clone(), |d| d.base.clone());
                    Rc::new(Draft { text, error, base })
                });
                return Rc::new(next);
            }
            _ => {}
        }
        // Whether the change edits the problem (not its words, seed or placement before).
        let mut edits = false;
        // Whether the scenario changed, found without comparing whole documents (a keystroke in
        // a 1,000-cluster scenario must not walk it twice).
        let changed = match action {
            Action::Undo | Action::Redo | Action::Draft(_) => false,
            Action::Set(path, value) => {
                let changed = doc::get(&self.doc, &path) != value.as_ref();
                if changed {
                    let words = path == "title" || path == "description";
                    if words {
                        next.preset_words = false;
                    }
                    edits = !words && path != "seed" && !path.starts_with("previous");
                    doc::set(Rc::make_mut(&mut next.doc), &path, value);
                }
                changed
            }
            Action::Append(path, make) => match make(doc::items(&self.doc, &path)) {
                Some(value) => {
                    doc::push(Rc::make_mut(&mut next.doc), &path, value);
                    edits = true;
                    true
                }
                None => false,
            },
            Action::Apply(outcome) => {
                match self.at {
                    // The step as it was applied: go on from it, no new step.
                    At::Step(k) => {
                        next.doc = Rc::new(applied(&self.doc, &outcome));
                        next.at = At::Now(Some(k));
                    }
                    At::Now(from) => {
                        let doc = Rc::new(crate::history::pinned(&self.doc, self.seed()));
                        let step = Step::new(&self.steps, doc.clone(), from);
                        let steps = Rc::make_mut(&mut next.steps);
                        steps.push(step);
                        if steps.len() > crate::history::MAX_STEPS {
                            // The oldest step goes; the others' `from` shift with it.
                            steps.remove(0);
                            for s in steps.iter_mut() {
                                s.from = s.from.and_then(|f| f.checked_sub(1));
                            }
                        }
                        next.at = At::Now(Some(steps.len() - 1));
                        // The scenario goes on as it was (a drawn seed stays drawn).
                        next.doc = Rc::new(applied(&self.doc, &outcome));
                    }
                }
                next.held = None;
                true
            }
            Action::GoTo(target) => {
                let target = match target {
                    Some(k) => self.steps.get(k).map(|s| (s.doc.clone(), At::Step(k))),
                    None => self.held.clone().map(|(doc, from)| (doc, At::Now(from))),
                };
                let Some((doc, at)) = target else {
                    return self;
                };
                // Leaving the scenario being edited sets it aside; going back to it takes it up.
                next.held = match (self.at, at) {
                    (_, At::Now(_)) => None,
                    (At::Now(from), At::Step(_)) => Some((self.doc.clone(), from)),
                    (At::Step(_), At::Step(_)) => self.held.clone(),
                };
                next.doc = doc;
                next.at = at;
                next.draft = None;
                true
            }
            Action::Load {
                steps,
                doc,
                at,
                preset,
                notice,
            } => {
                next.doc = Rc::new(doc);
                next.steps = Rc::new(steps);
                next.at = at;
                next.held = None;
                next.notice = notice;
                next.draft = None;
                next.preset_words = preset;
                true
            }
            Action::Replace(value, notice) => {
                next.notice = notice;
                next.draft = None;
                let changed = *self.doc != value;
                edits = changed && (!self.preset_words || !same_problem(&self.doc, &value));
                next.doc = Rc::new(value);
                changed
            }
            Action::Reroll(seed) => {
                next.drawn = seed;
                let pinned = self.pinned().is_some();
                if pinned {
                    doc::set(Rc::make_mut(&mut next.doc), "seed", Some(json!(seed)));
                }
                pinned
            }
            Action::Pin => {
                doc::set(Rc::make_mut(&mut next.doc), "seed", Some(json!(self.drawn)));
                self.pinned() != Some(self.drawn)
            }
            Action::Unpin => {
                if let Some(seed) = self.pinned() {
                    next.drawn = seed;
                }
                doc::set(Rc::make_mut(&mut next.doc), "seed", None);
                self.pinned().is_some()
            }
            Action::Notice(text) => {
                next.notice = Some(text);
                false
            }
            Action::DismissNotice => {
                next.notice = None;
                false
            }
        };
        if changed {
            // An edit of a step's scenario is a new scenario, started where that step started.
            let reseeded = matches!(action_kind, Kind::Seed);
            if let (true, At::Step(k)) = (edits || reseeded, next.at) {
                next.at = At::Now(self.steps.get(k).and_then(|s| s.from));
            }
            if edits && std::mem::take(&mut next.preset_words) {
                let doc = Rc::make_mut(&mut next.doc);
                if let Some(title) = doc.get("title").and_then(Value::as_str) {
                    let title = format!("{title} (edited)");
                    doc::set(doc, "title", Some(Value::String(title)));
                }
                doc::set(doc, "description", None);
            }
            let same_field = typing.is_some() && typing == self.typing;
            if !same_field {
                next.past.push(self.snapshot());
                if next.past.len() > UNDO_DEPTH {
                    next.past.remove(0);
                }
            }
            next.future.clear();
            next.typing = typing;
        }
        Rc::new(next)
    }
}

/// What an action is, for what follows it.
enum Kind {
    Seed,
    Other,
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

/// A fresh seed, as the npm package draws one (without a source of randomness, 0).
pub fn draw_seed() -> u64 {
    allot_core::rng::js_safe_seed(getrandom::u64().unwrap_or(0))
}

/// The scenario a document holds, read as the npm package reads it: from the document's JSON
/// text, by allot-core's reader, so both report the same first error at the same path (the
/// document keeps its keys in the order they were written).
pub fn read(doc: &Value) -> Result<Scenario, allot_core::Error> {
    from_json(&doc.to_string())
}

/// What is wrong with a document: how it reads, else how it checks when scheduled (a scenario
/// that cannot be scheduled is not written wrong).
fn check(doc: &Value) -> Option<allot_core::Error> {
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
    use super::*;

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
    fn errors_keep_their_path() {
        let doc = json!({"version": 1, "clusters": [{"name": "a", "weight": "x"}]});
        let p = Run::new(&doc, 0).problem().unwrap();
        assert_eq!(p.path, "clusters[0].weight");
        assert!(problem_at(&Some(p.clone()), "clusters[0]").is_some());
        assert!(problem_at(&Some(p), "clusters[1]").is_none());
    }

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
    }

    #[test]
    fn every_problem_is_listed_and_found_at_its_field() {
        let doc = json!({"version": 1, "clusters": [
            {"name": "a", "weight": "x"}, {"name": "b"}, {"name": "c", "weight": -1}],
            "workload": {"replicas": 7}, "policy": {"method": "dhondt"}});
        let all = Run::new(&doc, 0).problem().unwrap();
        let paths: Vec<&str> = all.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(
            paths,
            ["clusters[0].weight", "policy.method", "clusters[2].weight"]
        );
        // A row handed its first problem finds its own; another row finds none of them.
        // A count that cannot be read does not hide what follows it.
        let mut doc = doc;
        doc["workload"]["replicas"] = json!("seven");
        let all = Run::new(&doc, 0).problem().unwrap();
        let paths: Vec<&str> = all.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "clusters[0].weight",
                "workload.replicas",
                "policy.method",
                "clusters[2].weight"
            ]
        );
        let row = problem_at(&Some(all.clone()), "clusters[2]").unwrap();
        assert_eq!(
            problem_at(&Some(row), "clusters[2].weight").unwrap().path,
            "clusters[2].weight"
        );
        assert!(problem_at(&Some(all.clone()), "clusters[1]").is_none());
        // A missing field is listed once, and what its absence hid after it.
        let missing = Run::new(&json!({"clusters": [{"name": "a"}]}), 0)
            .problem()
            .unwrap();
        let paths: Vec<&str> = missing.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(paths, ["version", "workload.replicas"]);
    }

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
