//! Every citation of the rules in the sources and the docs names a section that exists: `§N`
//! and `§N.M` (`docs/rules/karmada.md`, or `docs/rules/fleet.md` which continues its numbering,
//! whether the file is named or not), eru's lettered
//! sections (`docs/rules/eru.md C3`, `§A`), the decisions of `docs/rules/README.md`
//! (`decision 6`, `decisions 1 and 2`), the sections of `docs/rules/versions.md` by their
//! heading (`versions.md "Scale-down"`), and the rule files themselves. A range (`§12-15`,
//! `D1-D7`) needs both ends. Citations split over comment lines are read joined.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use allot_tests::files_with_extension;
use regex::Regex;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The section ids of the rules: `karmada` ("12", "12.3"), `eru` ("C", "C3"; a heading
/// `D3-D7.` gives D3 to D7), `decisions` ("6") and `versions` ("Scale-down").
struct Sections {
    karmada: BTreeSet<String>,
    eru: BTreeSet<String>,
    decisions: BTreeSet<String>,
    versions: BTreeSet<String>,
}

fn sections() -> Sections {
    let rules = root().join("docs/rules");
    let numbered = Regex::new(r"(?m)^#{2,4} (\d+(?:\.\d+)?)\.? ").unwrap();
    // The fleet chapter continues karmada.md's numbering: `§N` names a section of either.
    let karmada = ["karmada.md", "fleet.md"]
        .iter()
        .flat_map(|f| {
            numbered
                .captures_iter(&read(&rules.join(f)))
                .map(|c| c[1].to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    let lettered = Regex::new(r"(?m)^#{2,4} ([A-Z])(\d*)(?:-([A-Z])(\d+))?\. ").unwrap();
    let mut eru = BTreeSet::new();
    for c in lettered.captures_iter(&read(&rules.join("eru.md"))) {
        let letter = &c[1];
        match (c[2].parse::<u32>(), c.get(3), c.get(4)) {
            (Ok(from), Some(to_letter), Some(to)) if to_letter.as_str() == letter => {
                let to: u32 = to.as_str().parse().unwrap();
                eru.extend((from..=to).map(|n| format!("{letter}{n}")));
            }
            _ => {
                assert!(c.get(3).is_none(), "a range across letters: {}", &c[0]);
                eru.insert(format!("{letter}{}", &c[2]));
            }
        }
    }
    let readme = read(&rules.join("README.md"));
    let decisions_part = readme
        .split_once("## Decisions")
        .expect("docs/rules/README.md has its decisions")
        .1;
    let decisions = Regex::new(r"(?m)^(\d+)\. \*\*")
        .unwrap()
        .captures_iter(decisions_part)
        .map(|c| c[1].to_string())
        .collect();
    let versions = Regex::new(r"(?m)^## (.+)$")
        .unwrap()
        .captures_iter(&read(&rules.join("versions.md")))
        .map(|c| c[1].trim().to_string())
        .collect();
    Sections {
        karmada,
        eru,
        decisions,
        versions,
    }
}

/// A file's text with its lines joined (comment markers and indentation dropped), and where
/// each joined line starts, to name the line of a citation.
fn joined(text: &str) -> (String, Vec<usize>) {
    let mut out = String::new();
    let mut starts = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        let line = ["//!", "///", "//"]
            .iter()
            .find_map(|m| line.strip_prefix(m))
            .unwrap_or(line)
            .trim();
        starts.push(out.len());
        out.push_str(line);
        out.push(' ');
    }
    (out, starts)
}

/// Every citation in `text` that names nothing, as "line: citation (why)".
fn broken(text: &str, s: &Sections) -> Vec<String> {
    let (text, starts) = joined(text);
    let line = |at: usize| starts.partition_point(|&s| s <= at);
    let mut out = Vec::new();
    let mut check = |at: usize, cited: &str, ids: &[Option<&str>], known: &BTreeSet<String>| {
        for id in ids.iter().flatten() {
            if !known.contains(*id) {
                out.push(format!("{}: `{cited}` ({id} is no heading)", line(at)));
            }
        }
    };
    let kinds = [
        (r"§(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?", &s.karmada),
        (
            r"(?:§|docs/rules/eru\.md )([A-Z]\d*)(?:-([A-Z]\d*))?\b",
            &s.eru,
        ),
        (
            r"docs/rules/README\.md,? decisions? (\d+)(?: and (\d+))?",
            &s.decisions,
        ),
        (r#"versions\.md,? "([^"]+)""#, &s.versions),
    ];
    for (pattern, known) in kinds {
        for c in Regex::new(pattern).unwrap().captures_iter(&text) {
            let ids = [c.get(1), c.get(2)].map(|m| m.map(|m| m.as_str()));
            check(c.get(0).unwrap().start(), &c[0], &ids, known);
        }
    }
    let file = Regex::new(r"docs/rules/([\w-]+)\.md").unwrap();
    for c in file.captures_iter(&text) {
        if !root()
            .join("docs/rules")
            .join(&c[0]["docs/rules/".len()..])
            .exists()
        {
            out.push(format!(
                "{}: `{}` (no such file)",
                line(c.get(0).unwrap().start()),
                &c[0]
            ));
        }
    }
    for m in Regex::new(r"\bspec §").unwrap().find_iter(&text) {
        out.push(format!(
            "{}: `spec §` (cite docs/rules/...)",
            line(m.start())
        ));
    }
    out
}

fn sources() -> Vec<PathBuf> {
    let root = root();
    let mut files = Vec::new();
    for dir in ["core/src", "web/src", "www/src"] {
        files.extend(files_with_extension(&root.join(dir), "rs").unwrap());
    }
    files
}

#[test]
fn every_citation_in_the_sources_names_a_heading() {
    let s = sections();
    let mut bad = Vec::new();
    let files = sources();
    assert!(files.len() > 50, "{} source files", files.len());
    let mut cited = 0;
    for path in files {
        let text = read(&path);
        cited += text.matches('§').count();
        for b in broken(&text, &s) {
            bad.push(format!(
                "{}:{b}",
                path.strip_prefix(root()).unwrap().display()
            ));
        }
    }
    assert!(cited > 100, "only {cited} citations found");
    assert!(
        bad.is_empty(),
        "citations of no section:\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_citation_in_the_docs_names_a_heading() {
    let s = sections();
    let root = root();
    let mut files = files_with_extension(&root.join("docs"), "md").unwrap();
    files.extend(["README.md", "web/README.md"].map(|f| root.join(f)));
    let mut bad = Vec::new();
    for path in files {
        for b in broken(&read(&path), &s) {
            bad.push(format!(
                "{}:{b}",
                path.strip_prefix(&root).unwrap().display()
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "citations of no section:\n{}",
        bad.join("\n")
    );
}

#[test]
fn a_citation_of_a_missing_section_is_found() {
    let s = sections();
    assert!(s.karmada.contains("12.3") && s.karmada.contains("16"));
    assert!(s.eru.contains("D5") && s.eru.contains("A"));
    assert!(s.decisions.contains("6"));
    assert!(s.versions.contains("Scale-down"));
    assert_eq!(
        broken(r#"(docs/rules/versions.md "Zones", "Nowhere")"#, &s).len(),
        0,
        "only the first quoted heading is the citation"
    );
    assert_eq!(broken(r#"versions.md "Nowhere""#, &s).len(), 1);
    let text = "//! Fine (docs/rules/karmada.md §12.3, §12-15, docs/rules/eru.md D1-D7).\n\
                /// Across lines (docs/rules/\n    /// karmada.md §10, docs/rules/README.md\n\
                /// decisions 1 and 2).\n\
                // Broken: §12.99 and §15-19, (docs/rules/eru.md E2), §C9,\n\
                // docs/rules/README.md decision 99, docs/rules/nothing.md, spec §4.\n";
    assert_eq!(
        broken(text, &s),
        [
            "5: `§12.99` (12.99 is no heading)",
            "5: `§15-19` (19 is no heading)",
            "5: `docs/rules/eru.md E2` (E2 is no heading)",
            "5: `§C9` (C9 is no heading)",
            "6: `docs/rules/README.md decision 99` (99 is no heading)",
            "6: `docs/rules/nothing.md` (no such file)",
            "6: `spec §` (cite docs/rules/...)",
        ]
    );
}
