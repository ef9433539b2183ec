//! The reference-vector runner behind `cargo run -p allot-tests --bin conformance -- DIR`.
//!
//! It walks every `*.json` under DIR, picks a family by file name (the schemas are documented in
//! each vectors directory's README), runs each case through allot-core and compares. A case
//! ends as a pass, a failure (expected vs got), an expected deviation (a reference accident the
//! docs/rules/README.md decides to fix, with the reason) or, for families not implemented yet, a skip.

pub mod compare;
pub mod families;
pub mod fuzzing;
pub mod json;
pub mod reimport;
pub mod scenario;

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// How one case ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Pass,
    Fail {
        expected: String,
        got: String,
    },
    /// The reference behaves by accident here and allot deliberately differs.
    Deviation {
        reason: String,
    },
}

/// The outcome of one case of one file.
#[derive(Debug, Clone)]
pub struct CaseReport {
    pub name: String,
    pub verdict: Verdict,
}

/// What happened to one file.
#[derive(Debug)]
pub enum FileReport {
    Ran(Vec<CaseReport>),
    /// No runner for this family yet; the reason says which.
    Skipped {
        cases: usize,
        reason: String,
    },
    /// The file could not be read or parsed.
    Broken(String),
}

/// A family runner: one case in, one verdict out.
pub type CaseRunner = fn(&Value) -> Verdict;

/// Totals over a run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Totals {
    pub passed: usize,
    pub failed: usize,
    pub deviations: usize,
    pub skipped: usize,
}

impl fmt::Display for Totals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} passed, {} failed", self.passed, self.failed)?;
        if self.deviations > 0 {
            write!(f, ", {} expected deviations", self.deviations)?;
        }
        if self.skipped > 0 {
            write!(f, ", {} skipped", self.skipped)?;
        }
        Ok(())
    }
}

/// Every `*.json` file under `dir`, sorted, recursively.
pub fn vector_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    files_with_extension(dir, "json")
}

/// Every file under `dir` whose extension is `ext`, sorted, recursively.
pub fn files_with_extension(dir: &Path, ext: &str) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == ext) {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Run every case of one file.
pub fn run_file(path: &Path) -> FileReport {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return FileReport::Broken(format!("cannot read: {e}")),
    };
    let doc: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => return FileReport::Broken(format!("not JSON: {e}")),
    };
    let cases = doc
        .get("cases")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    match families::runner_for(file_name) {
        families::Dispatch::Run(runner) => FileReport::Ran(
            cases
                .iter()
                .map(|case| CaseReport {
                    name: case
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or("<unnamed>")
                        .to_string(),
                    verdict: runner(case),
                })
                .collect(),
        ),
        families::Dispatch::NotYet(reason) => FileReport::Skipped {
            cases: cases.len(),
            reason: reason.to_string(),
        },
        families::Dispatch::Unknown => FileReport::Skipped {
            cases: cases.len(),
            reason: "no family of this file name".to_string(),
        },
    }
}
