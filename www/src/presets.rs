//! Presets: every example scenario of `docs/examples/` (the stories and tables of the source
//! documents, each named after what it shows), grouped, plus a generated large scenario for
//! trying the playground at scale. Their ids are the example file names, so `#preset=<id>`
//! links and the npm package's `<allot-playground preset="...">` use the same names.

use serde_json::{json, Value};

use crate::history::{story, At, Step};

/// A preset's id, group and JSON text.
pub struct Preset {
    pub id: &'static str,
    pub group: &'static str,
    text: &'static str,
}

macro_rules! examples {
    ($($group:literal => [$($id:literal),* $(,)?]),* $(,)?) => {
        &[$($(Preset {
            id: $id,
            group: $group,
            text: include_str!(concat!("../../docs/examples/", $id, ".json")),
        },)*)*]
    };
}

/// In menu order.
pub const PRESETS: &[Preset] = examples! {
    "Karmada division" => [
        "divide-7-replicas-2-1-1",
        "story1-scale-up-7-to-8",
        "story2-scale-down-9-to-8",
        "story3-weight-change",
        "story4-add-cluster",
        "story5-remove-cluster",
    ],
    "Karmada scheduler" => [
        "scheduler-taint-drops-cluster",
        "scheduler-spread-two-regions",
        "scheduler-cluster-swap",
        "scheduler-affinity-fallback",
        "scheduler-overflow-tiers",
        "scheduler-label-only",
    ],
    "Karmada estimators" => [
        "general-estimator-500m",
        "resource-models-3c-20gi",
        "resource-models-5c-60gi",
        "kep521-story1-big-nodes",
        "kep521-story2-node-selector",
    ],
    "eru" => [
        "eru-auto-even",
        "eru-auto-uneven",
        "eru-fill",
        "eru-each",
        "eru-global",
        "eru-drained",
        "eru-cpu-binding",
        "eru-memory",
        "eru-volumes",
        "eru-gpu",
    ],
};

/// The stories that load as histories: their earlier steps (`docs/examples/histories/`).
const HISTORIES: &[(&str, &str)] = &[
    (
        "story1-scale-up-7-to-8",
        include_str!("../../docs/examples/histories/story1-scale-up-7-to-8.json"),
    ),
    (
        "story2-scale-down-9-to-8",
        include_str!("../../docs/examples/histories/story2-scale-down-9-to-8.json"),
    ),
    (
        "story3-weight-change",
        include_str!("../../docs/examples/histories/story3-weight-change.json"),
    ),
    (
        "story4-add-cluster",
        include_str!("../../docs/examples/histories/story4-add-cluster.json"),
    ),
    (
        "story5-remove-cluster",
        include_str!("../../docs/examples/histories/story5-remove-cluster.json"),
    ),
];

/// A preset as the page loads it: its history (a story's steps, or none) and the scenario.
pub fn load(id: &str) -> Option<(Vec<Step>, Value, At)> {
    let doc = find(id)?;
    let earlier = HISTORIES
        .iter()
        .find(|(h, _)| *h == id)
        .and_then(|(_, text)| serde_json::from_str::<Value>(text).ok());
    match earlier.and_then(|e| story(&e, doc.clone())) {
        Some((steps, doc, at)) => Some((steps, (*doc).clone(), at)),
        None => Some((Vec::new(), doc, At::Now(None))),
    }
}

/// The generated preset: this many clusters.
pub const LARGE: &str = "large-1000-clusters";

/// The scenario shown when nothing else is asked for.
pub const DEFAULT: &str = "divide-7-replicas-2-1-1";

impl Preset {
    pub fn doc(&self) -> Value {
        serde_json::from_str(self.text).unwrap_or_else(|_| json!({"version": 1}))
    }

    pub fn title(&self) -> String {
        self.doc()
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or(self.id)
            .to_string()
    }
}

/// A preset's scenario by id.
pub fn find(id: &str) -> Option<Value> {
    if id == LARGE {
        return Some(large(1000));
    }
    PRESETS.iter().find(|p| p.id == id).map(Preset::doc)
}

/// `n` clusters weighing 1 to 5, previous placements, 5·n replicas.
pub fn large(n: usize) -> Value {
    let clusters: Vec<Value> = (0..n)
        .map(|i| json!({"name": format!("member{:04}", i + 1), "weight": i % 5 + 1}))
        .collect();
    json!({
        "version": 1,
        "title": format!("{n} clusters"),
        "description": "A large static-weight division, to try the playground at scale.",
        "clusters": clusters,
        "workload": {"replicas": 5 * n},
        "policy": {"strategy": "staticWeight", "method": "webster"},
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::read;
    use allot_core::scenario::schedule;

    #[test]
    fn every_preset_schedules() {
        for p in PRESETS.iter().map(|p| p.id).chain([LARGE]) {
            let doc = find(p).unwrap();
            let s = read(&doc).unwrap_or_else(|e| panic!("{p}: {e}"));
            if p == "scheduler-label-only" {
                // Its story is Karmada's failure, shown with the steps that led to it.
                let run = crate::run::Run::new(&doc, 7);
                assert!(run.failed.is_some(), "{p}");
                continue;
            }
            assert!(schedule(&s, 7).is_ok(), "{p}");
            assert!(!doc["title"].as_str().unwrap().is_empty(), "{p}");
        }
    }

    /// Every example of `docs/examples` is a preset (the `<allot-playground preset="...">`
    /// names are the file names).
    #[test]
    fn every_example_is_a_preset() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/examples");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.unwrap().file_name().into_string().ok())
            .filter_map(|f| f.strip_suffix(".json").map(str::to_string))
            .collect();
        files.sort();
        let mut ids: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
        ids.sort();
        assert_eq!(files, ids);
    }

    /// Each story's history ends at the story's own scenario, with the placement the source
    /// document gives at every step.
    #[test]
    fn stories_load_as_their_histories() {
        let placed = |s: &Step| s.moved.clone();
        for (id, _) in HISTORIES {
            let (steps, doc, at) = load(id).unwrap();
            assert_eq!(doc, find(id).unwrap(), "{id}: the last step is the preset");
            assert_eq!(at, At::Step(steps.len() - 1), "{id}");
            assert!(steps.len() >= 2, "{id}");
        }
        let (steps, ..) = load("story1-scale-up-7-to-8").unwrap();
        assert_eq!(
            steps.iter().map(placed).collect::<Vec<_>>(),
            [
                "member1 0 → 3, member2 0 → 2, member3 0 → 1, member4 0 → 1",
                "member1 3 → 4"
            ]
        );
        assert_eq!(steps[1].label, "scaled from 7 to 8");
        let (steps, ..) = load("story3-weight-change").unwrap();
        let said: Vec<_> = steps
            .iter()
            .map(|s| (s.from, s.label.as_str(), s.moved.as_str()))
            .collect();
        assert_eq!(
            said,
            [
                (
                    None,
                    "6 replicas over 4 clusters",
                    "member1 0 → 2, member2 0 → 1, member3 0 → 2, member4 0 → 1"
                ),
                (
                    Some(0),
                    "member1's weight 1 → 2",
                    "member1 2 → 3, member3 2 → 1"
                ),
                (
                    Some(0),
                    "member1's weight 1 → 2, scaled from 6 to 7",
                    "member1 2 → 3"
                ),
            ]
        );
        let (steps, ..) = load("story4-add-cluster").unwrap();
        assert_eq!(steps[1].label, "member4 added");
        let (steps, ..) = load("story5-remove-cluster").unwrap();
        assert_eq!(steps[1].label, "member4 removed");
    }
}
