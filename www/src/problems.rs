//! The problems of a document that does not read or check (docs/playground.md, "Errors"):
//! the first one the core reports, then every further one found by checking the document
//! again without each value found wrong, up to [`MAX_PROBLEMS`], in the order the reader
//! meets them.

use std::rc::Rc;

use allot_core::ErrorCode;
use serde_json::{json, Value};

use crate::doc;
use crate::run::check;

/// An error as the page shows it: next to the field at `path`, and in the summary. Problems
/// form a list in the order the reader meets them (`next`): whatever holds one also holds those
/// after it, so a row handed its first problem still finds its later ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub code: ErrorCode,
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

/// What stands in for a value found wrong, tried in turn: none (the value left out), then 1,
/// then a word for a value the scenario needs (a count, a name), to look past it.
const STAND_INS: usize = 3;

fn stand_in(k: usize) -> Option<Value> {
    match k {
        0 => None,
        1 => Some(json!(1)),
        _ => Some(json!("a")),
    }
}

/// The first stand-in worth trying for a problem: leaving out a value that is missing already
/// changes nothing, so a missing value starts at 1.
fn first_stand_in(code: ErrorCode) -> usize {
    usize::from(code == ErrorCode::Missing)
}

/// Every problem of a document, up to [`MAX_PROBLEMS`], starting with `first` (what reading or
/// checking it found): the document is checked again without each value found wrong, until it
/// reads and checks, or a problem comes back at a path already listed.
pub fn problems(doc: &Value, first: allot_core::Error) -> Rc<Problem> {
    let mut found = vec![Problem::from(first)];
    // Each look costs a reading and a check: a scenario this large shows its first problem.
    let size = doc::items(doc, "clusters").len() + doc::items(doc, "nodes").len();
    if size <= LIST_UP_TO_TARGETS {
        look_past(doc, &mut found);
    }
    let mut list: SharedProblem = None;
    for mut p in found.into_iter().rev() {
        p.next = list;
        list = Some(Rc::new(p));
    }
    list.expect("at least the first problem")
}

/// Add to `found` the problems after its last one: check the document with a stand-in at each
/// problem's path, the next stand-in while the same path comes back.
fn look_past(doc: &Value, found: &mut Vec<Problem>) {
    let mut without = doc.clone();
    // Per path, the next stand-in to try.
    let mut tried: Vec<(String, usize)> = Vec::new();
    let mut at = found[0].path.clone();
    let mut code = found[0].code;
    while found.len() < MAX_PROBLEMS && !at.is_empty() {
        let k = match tried.iter_mut().find(|(p, _)| *p == at) {
            Some((_, k)) => {
                *k += 1;
                *k
            }
            None => {
                let k = first_stand_in(code);
                tried.push((at.clone(), k));
                k
            }
        };
        if k >= STAND_INS {
            break;
        }
        doc::set(&mut without, &at, stand_in(k));
        let Some(e) = check(&without) else {
            break;
        };
        let next = Problem::from(e);
        at = next.path.clone();
        code = next.code;
        if !found.iter().any(|f| f.path == next.path) {
            found.push(next);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Run;

    #[test]
    fn errors_keep_their_path() {
        let doc = json!({"version": 1, "clusters": [{"name": "a", "weight": "x"}]});
        let p = Run::new(&doc, 0).problem().unwrap();
        assert_eq!(p.path, "clusters[0].weight");
        assert!(problem_at(&Some(p.clone()), "clusters[0]").is_some());
        assert!(problem_at(&Some(p), "clusters[1]").is_none());
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
}
