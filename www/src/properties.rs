//! Properties of the page's own code over arbitrary input: editing any path of any document,
//! reading any text into any field kind, and decoding any fragment never panic, and what is
//! written can be read back. (The core's own no-panic properties live in `allot-tests`.)

use proptest::prelude::*;
use serde_json::{json, Value};

use crate::doc;
use crate::field::{format, parse, Kind};
use crate::share::{self, Link};

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        "[a-z0-9=, .:\\[\\]{}\"-]{0,10}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-c]{1,2}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Paths like the page writes, and some it never would.
fn arb_path() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            "[a-c]{1,2}".prop_map(|k| format!(".{k}")),
            (0usize..5).prop_map(|i| format!("[{i}]")),
            Just("[x]".to_string()),
            Just(".".to_string()),
        ],
        0..5,
    )
    .prop_map(|steps| steps.concat().trim_start_matches('.').to_string())
}

const KINDS: &[Kind] = Kind::FREE;

/// A resource list with its byte amounts read as numbers (`memory: "1Ki"` is `memory: 1024`).
fn bytes_read(v: Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| {
                    let read = v
                        .as_str()
                        .filter(|_| allot_core::quantity::is_bytes(&k))
                        .and_then(|t| {
                            allot_core::quantity::parse(t, allot_core::quantity::Unit::Base).ok()
                        });
                    (k, read.map_or(v, Value::from))
                })
                .collect(),
        ),
        v => v,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn editing_any_path_never_panics_and_reads_back(
        mut d in arb_json(), path in arb_path(), v in arb_json(), remove in any::<bool>()
    ) {
        if remove {
            doc::set(&mut d, &path, None);
        } else {
            doc::set(&mut d, &path, Some(v.clone()));
            // Where the path can be reached, the value is there now.
            if let Some(got) = doc::get(&d, &path) {
                prop_assert_eq!(got, &v);
            }
        }
        doc::push(&mut d, &path, json!(1));
        let _ = doc::items(&d, &path);
    }

    #[test]
    fn any_text_in_any_field_reads_and_formats_stably(text in "\\PC{0,24}", k in 0..KINDS.len()) {
        let kind = KINDS[k];
        let value = parse(kind, &text);
        // What a value is shown as means that value again (a byte amount may come back as the
        // same amount written as a quantity: 1024 as 1Ki).
        prop_assert_eq!(parse(kind, &format(kind, value.as_ref())).map(bytes_read), value.map(bytes_read));
    }

    /// A scenario with any values at real paths: the page lists each problem once, at most
    /// MAX_PROBLEMS, without panicking.
    #[test]
    fn every_problem_is_listed_once(
        edits in prop::collection::vec((0usize..8, arb_json()), 0..4)
    ) {
        const PATHS: [&str; 8] = ["version", "clusters[0].name", "clusters[1].weight", "clusters[2].weight",
            "clusters[0].labels", "workload.replicas", "policy.method", "policy.strategy"];
        let mut d = crate::presets::find(crate::presets::DEFAULT).unwrap();
        for (k, v) in edits {
            doc::set(&mut d, PATHS[k], Some(v));
        }
        if let Some(first) = crate::run::Run::new(&d, 1).problem() {
            let paths: Vec<&str> = first.iter().map(|p| p.path.as_str()).collect();
            prop_assert!(paths.len() <= crate::problems::MAX_PROBLEMS);
            let mut unique = paths.clone();
            unique.sort_unstable();
            unique.dedup();
            prop_assert_eq!(unique.len(), paths.len(), "{:?}", paths);
        }
    }

    #[test]
    fn any_fragment_decodes_or_says_why(fragment in "#?(s=|h=|preset=)?[0-9A-Za-z._~-]{0,40}") {
        let _ = share::decode(&fragment);
    }

    /// Any history text reads or says why, without panicking; what reads writes back the same.
    #[test]
    fn any_history_reads_or_says_why(h in arb_json(), steps in prop::collection::vec((arb_json(), any::<Option<u8>>()), 0..4)) {
        let _ = crate::history::read_history(&h);
        let steps: Vec<Value> = steps
            .into_iter()
            .map(|(mut d, from)| {
                if !d.is_object() {
                    d = json!({"x": d});
                }
                d["version"] = json!(1);
                json!({"scenario": d, "from": from})
            })
            .collect();
        let written = json!({"steps": steps});
        if let Ok((read, doc, at)) = crate::history::read_history(&written) {
            let again = crate::history::write_history(&read, &doc, at);
            let (twice, doc2, at2) = crate::history::read_history(&again).unwrap();
            prop_assert_eq!((twice, doc2, at2), (read, doc, at));
        }
    }

    #[test]
    fn any_scenario_goes_round_a_link(mut d in arb_json()) {
        if !d.is_object() {
            d = json!({"x": d});
        }
        d["version"] = json!(1);
        prop_assert_eq!(share::decode(&share::encode(&d)), Ok(Link::Scenario(d)));
    }
}
