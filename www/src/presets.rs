//! Presets: every example scenario of `docs/examples/` (the stories and tables of the source
//! documents, each named after what it shows), grouped, plus a generated large scenario for
//! trying the playground at scale. Their ids are the example file names, so `#preset=<id>`
//! links and the npm package's `<allot-playground preset="...">` use the same names.

use serde_json::{json, Value};

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
        "scheduler-zone-only",
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
    ],
};

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
    use crate::state::read;
    use allot_core::scenario::schedule;

    #[test]
    fn every_preset_schedules() {
        for p in PRESETS.iter().map(|p| p.id).chain([LARGE]) {
            let doc = find(p).unwrap();
            let s = read(&doc).unwrap_or_else(|e| panic!("{p}: {e}"));
            if p == "scheduler-zone-only" {
                // Its story is Karmada's failure, shown with the steps that led to it.
                let run = crate::state::Run::new(&doc, 7);
                assert!(run.failed.is_some(), "{p}");
                continue;
            }
            assert!(schedule(&s, 7).is_ok(), "{p}");
            assert!(!doc["title"].as_str().unwrap().is_empty(), "{p}");
        }
    }
}
