//! `conformance DIR`: run every reference vector under DIR and report.
//!
//! Prints one line per failing case (file, case, expected, got), one line per expected
//! deviation, a summary per file, and `N passed, M failed[, K skipped]`. Exits 1 on any failure.

use std::path::PathBuf;
use std::process::ExitCode;

use allot_tests::{run_file, vector_files, FileReport, Totals, Verdict};

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: conformance DIR");
        return ExitCode::from(2);
    };
    let files = match vector_files(&dir) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("conformance: cannot read {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    };
    let mut totals = Totals::default();
    let mut broken = 0usize;
    for path in &files {
        let shown = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        match run_file(path) {
            FileReport::Ran(cases) => {
                let mut file = Totals::default();
                for case in &cases {
                    match &case.verdict {
                        Verdict::Pass => file.passed += 1,
                        Verdict::Fail { expected, got } => {
                            file.failed += 1;
                            println!(
                                "FAIL {shown} :: {} :: expected {expected} :: got {got}",
                                case.name
                            );
                        }
                        Verdict::Deviation { reason } => {
                            file.deviations += 1;
                            println!("DEVIATION {shown} :: {} :: {reason}", case.name);
                        }
                    }
                }
                println!("{shown}: {file}");
                totals.passed += file.passed;
                totals.failed += file.failed;
                totals.deviations += file.deviations;
            }
            FileReport::Skipped { cases, reason } => {
                println!("SKIP {shown}: {cases} cases ({reason})");
                totals.skipped += cases;
            }
            FileReport::Broken(reason) => {
                println!("BROKEN {shown}: {reason}");
                broken += 1;
            }
        }
    }
    println!("{totals}");
    if totals.failed > 0 || broken > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
