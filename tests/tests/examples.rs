//! Every example scenario in `docs/examples/` (one per story of the source documents) through
//! the native entry point, checked against what its story claims. Each outcome is also written
//! to `target/example-outcomes/NAME.json`: the npm package's tests compare the wasm build's
//! outcomes with these, byte for byte after parsing.

use std::collections::BTreeMap;
use std::path::PathBuf;

use allot_core::scenario::Outcome;
use allot_tests::scenario;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `name -> replicas` (Karmada assignment or eru deploy map).
fn placed(o: &Outcome) -> BTreeMap<String, u64> {
    match o {
        Outcome::Karmada(k) => k
            .assignment
            .iter()
            .map(|a| (a.name.to_string(), a.replicas))
            .collect(),
        Outcome::Eru(e) => e.deploy.clone(),
    }
}

fn map(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|&(n, r)| (n.to_string(), r)).collect()
}

/// The error code of the examples whose story is a failure.
fn expected_error(name: &str) -> Option<&'static str> {
    match name {
        "scheduler-label-only" => Some("spread_unsatisfiable"),
        _ => None,
    }
}

/// What each story says the answer is (one of several when the seed decides).
fn expected(name: &str) -> Vec<BTreeMap<String, u64>> {
    let m = |p: &[(&str, u64)]| map(p);
    match name {
        "divide-7-replicas-2-1-1" => vec![m(&[("member1", 3), ("member2", 2), ("member3", 2)])],
        "story1-scale-up-7-to-8" => vec![m(&[
            ("member1", 4),
            ("member2", 2),
            ("member3", 1),
            ("member4", 1),
        ])],
        "story2-scale-down-9-to-8" => vec![
            m(&[
                ("member1", 4),
                ("member2", 1),
                ("member3", 2),
                ("member4", 1),
            ]),
            m(&[
                ("member1", 4),
                ("member2", 2),
                ("member3", 1),
                ("member4", 1),
            ]),
        ],
        "story3-weight-change" => vec![m(&[
            ("member1", 3),
            ("member2", 1),
            ("member3", 2),
            ("member4", 1),
        ])],
        "story4-add-cluster" => vec![
            m(&[
                ("member1", 1),
                ("member2", 1),
                ("member3", 2),
                ("member4", 1),
            ]),
            m(&[
                ("member1", 2),
                ("member2", 1),
                ("member3", 1),
                ("member4", 1),
            ]),
        ],
        "story5-remove-cluster" => vec![
            m(&[("member1", 2), ("member2", 2), ("member3", 1)]),
            m(&[("member1", 2), ("member2", 1), ("member3", 2)]),
        ],
        "kep521-story1-big-nodes" | "kep521-story2-node-selector" => vec![m(&[("B", 1)])],
        "general-estimator-500m" => vec![m(&[("member1", 3), ("member2", 2)])],
        "resource-models-3c-20gi" => {
            vec![m(&[("member1", 3), ("member2", 2), ("member3", 5)])]
        }
        "resource-models-5c-60gi" => vec![m(&[("member3", 4)])],
        "eru-auto-even" => vec![m(&[("node1", 1), ("node2", 1), ("node3", 1)])],
        "eru-auto-uneven" => vec![m(&[("node3", 3)])],
        "eru-fill" => vec![m(&[("node1", 0), ("node2", 1), ("node3", 1)])],
        "eru-each" => vec![m(&[("node1", 1), ("node2", 1), ("node3", 1)])],
        "eru-cpu-binding" => vec![m(&[("node1", 2)])],
        "eru-memory" => vec![m(&[("node1", 10)])],
        "eru-volumes" => vec![m(&[("node1", 12)])],
        "eru-gpu" => vec![m(&[("gpu1", 2), ("gpu2", 2)])],
        "eru-global" => vec![m(&[("node1", 3)])],
        "eru-drained" => vec![m(&[("node2", 4), ("node3", 3)])],
        "scheduler-taint-drops-cluster" => vec![m(&[("member1", 3), ("member2", 3)])],
        "scheduler-spread-two-regions" => {
            vec![m(&[("member1", 5), ("member3", 4), ("member4", 3)])]
        }
        "scheduler-cluster-swap" => vec![m(&[("member1", 6), ("member3", 14)])],
        "scheduler-affinity-fallback" => vec![m(&[("cloud1", 2), ("cloud2", 2)])],
        "scheduler-overflow-tiers" => vec![m(&[("onprem1", 4), ("onprem2", 2), ("cloud1", 4)])],
        other => panic!("example {other} has no expectation here: add one"),
    }
}

#[test]
fn every_example_gives_what_its_story_says() {
    let dir = root().join("docs/examples");
    let out = root().join("target/example-outcomes");
    std::fs::create_dir_all(&out).unwrap();
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            names.push(path.file_stem().unwrap().to_string_lossy().into_owned());
        }
    }
    names.sort();
    assert!(names.len() >= 19, "{names:?}");
    for name in &names {
        let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        if let Some(code) = expected_error(name) {
            let e = scenario::schedule(&text).expect_err(name);
            assert_eq!(e.code(), code, "{name}: {e}");
            std::fs::write(
                out.join(format!("{name}.json")),
                serde_json::to_string_pretty(&serde_json::json!({ "error": e })).unwrap(),
            )
            .unwrap();
            continue;
        }
        let outcome = scenario::schedule(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = placed(&outcome);
        let want = expected(name);
        assert!(
            want.contains(&got),
            "{name}: got {got:?}, want one of {want:?}"
        );
        std::fs::write(
            out.join(format!("{name}.json")),
            serde_json::to_string_pretty(&outcome).unwrap(),
        )
        .unwrap();
    }
}
