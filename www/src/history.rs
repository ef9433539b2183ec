//! The step history (docs/playground.md, "History"): every "apply as current" records the
//! scenario as a step, named after what changed since the step it started from and with what
//! moved (allot-core's `scenario::step`). The story presets load as histories; a history goes
//! into one share link.

use std::rc::Rc;

use allot_core::scenario::step::{changes, moves, Change, Move};
use allot_core::scenario::{schedule, Scenario};
use serde_json::{json, Value};

use crate::run::read;
use crate::state::applied;

/// Histories longer than this are cut (in links: the steps beyond it are left out).
pub const MAX_STEPS: usize = 200;

/// One applied scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The scenario as applied, with the seed that was in effect pinned.
    pub doc: Rc<Value>,
    /// The step whose placement it started from.
    pub from: Option<usize>,
    /// What changed since `from` ("scaled from 7 to 8, member4 added").
    pub label: String,
    /// What moved ("member1 3 → 4").
    pub moved: String,
}

/// Where the page is in the history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// Showing step k as it was applied.
    Step(usize),
    /// Editing a scenario not applied yet, started from that step's placement (if any).
    Now(Option<usize>),
}

impl Step {
    /// `doc` as the next step of `steps`, started from `from`.
    pub fn new(steps: &[Step], doc: Rc<Value>, from: Option<usize>) -> Step {
        let before = from
            .and_then(|f| steps.get(f))
            .and_then(|s| read(&s.doc).ok());
        let (label, moved) = match read(&doc) {
            Ok(after) => (
                label(before.as_ref(), &after),
                schedule(&after, 0)
                    .map(|o| moved(&moves(&after, &o)))
                    .unwrap_or_else(|e| e.reason()),
            ),
            Err(e) => ("a scenario that does not read".into(), e.reason()),
        };
        Step {
            doc,
            from,
            label,
            moved,
        }
    }
}

/// The scenario `doc` with `seed` pinned when it pins none.
pub fn pinned(doc: &Value, seed: u64) -> Value {
    let mut doc = doc.clone();
    if let Some(o) = doc.as_object_mut() {
        o.entry("seed").or_insert_with(|| seed.into());
    }
    doc
}

fn label(before: Option<&Scenario>, after: &Scenario) -> String {
    let eru = after.nodes.is_some();
    let (unit, target) = if eru {
        (("instance", "instances"), ("node", "nodes"))
    } else {
        (("replica", "replicas"), ("cluster", "clusters"))
    };
    let said: Vec<String> = changes(before, after)
        .into_iter()
        .map(|c| match c {
            Change::First { replicas, targets } => format!(
                "{replicas} {} over {targets} {}",
                allot_core::plural(replicas.unsigned_abs(), unit.0, unit.1),
                allot_core::plural(targets as u64, target.0, target.1)
            ),
            Change::Scaled { from, to } => format!("scaled from {from} to {to}"),
            Change::Added(name) => format!("{name} added"),
            Change::Removed(name) => format!("{name} removed"),
            Change::Weight { name, from, to } => {
                let w = |w: Option<i64>| w.map_or_else(|| "none".into(), |w| w.to_string());
                format!("{name}'s weight {} → {}", w(from), w(to))
            }
            Change::Target(name) => format!("{name} edited"),
            Change::Policy => "policy edited".into(),
            Change::Workload => "workload edited".into(),
        })
        .collect();
    if said.is_empty() {
        "no change".into()
    } else {
        said.join(", ")
    }
}

fn moved(moves: &[Move]) -> String {
    const NAMED: usize = 6;
    if moves.is_empty() {
        return "nothing moved".into();
    }
    let mut text: Vec<String> = moves
        .iter()
        .take(NAMED)
        .map(|m| format!("{} {} → {}", m.name, m.from, m.to))
        .collect();
    if moves.len() > NAMED {
        text.push(format!("and {} more", moves.len() - NAMED));
    }
    text.join(", ")
}

/// `doc` as started from step `from`: when it states no placement before, the one that step's
/// outcome makes (Karmada's `previous`, eru's node counts).
fn started_from(steps: &[Step], doc: Value, from: Option<usize>) -> Value {
    let Some(base) = from.and_then(|f| steps.get(f)) else {
        return doc;
    };
    let eru = doc.get("nodes").is_some();
    if !eru && doc.get("previous").is_some() {
        return doc;
    }
    let Some(outcome) = read(&base.doc).ok().and_then(|s| schedule(&s, 0).ok()) else {
        return doc;
    };
    let placed = applied(&base.doc, &outcome);
    let mut doc = doc;
    if let Some(o) = doc.as_object_mut() {
        if eru {
            // The nodes are the step's own; their counts are where the last step left them,
            // unless this step states its own.
            if let (Some(nodes), Some(placed)) = (
                o.get_mut("nodes").and_then(Value::as_array_mut),
                placed.get("nodes").and_then(Value::as_array),
            ) {
                for node in nodes.iter_mut().filter_map(Value::as_object_mut) {
                    let name = node.get("name").cloned();
                    let count = placed
                        .iter()
                        .find(|p| p.get("name") == name.as_ref())
                        .and_then(|p| p.get("count"));
                    if let (None, Some(count)) = (node.get("count"), count) {
                        node.insert("count".into(), count.clone());
                    }
                }
            }
        } else if let Some(previous) = placed.get("previous") {
            o.insert("previous".into(), previous.clone());
        }
    }
    doc
}

/// A history as written: `{"steps": [{"scenario": {...}, "from": k}, ...]}` and where the page
/// is, `"at": k` (a step) or `"now": {"scenario": {...}, "from": k}` (a scenario not applied
/// yet). Each step's `from` is an earlier step; a step without `previous` gets the placement
/// its `from` made. Unreadable parts are left out, and said.
pub fn read_history(v: &Value) -> Result<(Vec<Step>, Rc<Value>, At), String> {
    let list = v
        .get("steps")
        .and_then(Value::as_array)
        .ok_or("a history lists its steps under \"steps\"")?;
    let mut steps: Vec<Step> = Vec::new();
    for item in list.iter().take(MAX_STEPS) {
        let doc = item
            .get("scenario")
            .filter(|d| d.is_object())
            .cloned()
            .ok_or_else(|| format!("step {} has no scenario", steps.len() + 1))?;
        let from = item
            .get("from")
            .and_then(Value::as_u64)
            .map(|f| f as usize)
            .filter(|&f| f < steps.len());
        let doc = started_from(&steps, doc, from);
        let step = Step::new(&steps, Rc::new(doc), from);
        steps.push(step);
    }
    let index = |v: Option<&Value>| {
        v.and_then(Value::as_u64)
            .map(|f| f as usize)
            .filter(|&f| f < steps.len())
    };
    if let Some(now) = v.get("now").and_then(|n| n.get("scenario")) {
        let from = index(v.get("now").and_then(|n| n.get("from")));
        let doc = started_from(&steps, now.clone(), from);
        return Ok((steps, Rc::new(doc), At::Now(from)));
    }
    let at = index(v.get("at")).unwrap_or(steps.len().saturating_sub(1));
    let doc = steps
        .get(at)
        .map(|s| s.doc.clone())
        .ok_or("a history without steps")?;
    Ok((steps, doc, At::Step(at)))
}

/// A history as [`read_history`] reads it.
pub fn write_history(steps: &[Step], doc: &Value, at: At) -> Value {
    let steps: Vec<Value> = steps
        .iter()
        .map(|s| match s.from {
            Some(f) => json!({"scenario": *s.doc, "from": f}),
            None => json!({"scenario": *s.doc}),
        })
        .collect();
    match at {
        At::Step(k) => json!({"steps": steps, "at": k}),
        At::Now(from) => {
            let now = match from {
                Some(f) => json!({"scenario": doc, "from": f}),
                None => json!({"scenario": doc}),
            };
            json!({"steps": steps, "now": now})
        }
    }
}

/// A story preset as a history: its earlier steps (`docs/examples/histories/<id>.json`:
/// `{"earlier": [steps], "from": k}`), then the preset itself, started from step `from`.
pub fn story(earlier: &Value, last: Value) -> Option<(Vec<Step>, Rc<Value>, At)> {
    let mut steps = earlier.get("earlier")?.as_array()?.clone();
    let from = earlier.get("from").cloned().unwrap_or(Value::Null);
    steps.push(json!({"scenario": last, "from": from}));
    read_history(&json!({ "steps": steps })).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(replicas: u64, weights: &[u64]) -> Value {
        let clusters: Vec<Value> = weights
            .iter()
            .enumerate()
            .map(|(i, w)| json!({"name": format!("member{}", i + 1), "weight": w}))
            .collect();
        json!({"version": 1, "clusters": clusters, "workload": {"replicas": replicas}, "seed": 1})
    }

    #[test]
    fn steps_say_what_changed_and_what_moved() {
        let one = Step::new(&[], Rc::new(doc(7, &[2, 1, 1])), None);
        assert_eq!(one.label, "7 replicas over 3 clusters");
        assert!(one.moved.starts_with("member1 0 → 3, "), "{}", one.moved);
        let steps = vec![one];
        let two = started_from(&steps, doc(8, &[2, 1, 1, 1]), Some(0));
        assert_eq!(
            two["previous"],
            json!({"member1": 3, "member2": 2, "member3": 2})
        );
        let two = Step::new(&steps, Rc::new(two), Some(0));
        assert_eq!(two.label, "member4 added, scaled from 7 to 8");
        assert!(two.moved.contains("member4 0 → "), "{}", two.moved);
    }

    #[test]
    fn a_history_goes_round_its_text() {
        let one = Step::new(&[], Rc::new(doc(3, &[1, 1])), None);
        let steps = vec![one];
        let now = started_from(&steps, doc(4, &[1, 1]), Some(0));
        let written = write_history(&steps, &now, At::Now(Some(0)));
        let (again, shown, at) = read_history(&written).unwrap();
        assert_eq!(
            (again, &*shown, at),
            (steps.clone(), &now, At::Now(Some(0)))
        );
        let written = write_history(&steps, &steps[0].doc, At::Step(0));
        assert_eq!(read_history(&written).unwrap().2, At::Step(0));
        // A step cannot start from itself or a later one.
        let odd = json!({"steps": [{"scenario": doc(3, &[1]), "from": 0}]});
        assert_eq!(read_history(&odd).unwrap().0[0].from, None);
        assert!(read_history(&json!({"steps": []})).is_err());
        assert!(read_history(&json!({"steps": [1]})).is_err());
    }
}
