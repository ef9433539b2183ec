//! Inputs that once crashed a fuzz target (`./dev fuzz`), minimised and kept under
//! `fuzz/regressions/TARGET/`, replayed through what that target runs. A crash of the
//! structure-aware target is kept as the scenario text it built, under `scenario_json`.

use std::path::PathBuf;

use allot_tests::fuzzing;

fn replay(target: &str, run: fn(&[u8])) -> usize {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/regressions")
        .join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path
            .file_name()
            .is_some_and(|f| f.to_string_lossy().starts_with('.'))
        {
            continue;
        }
        run(&std::fs::read(&path).unwrap());
        n += 1;
    }
    n
}

#[test]
fn scenario_json() {
    replay("scenario_json", fuzzing::scenario_text);
}

#[test]
fn quantity() {
    replay("quantity", fuzzing::quantity_text);
}

#[test]
fn resource_models() {
    replay("resource_models", fuzzing::resource_models_text);
}

#[test]
fn playground_text() {
    replay("playground_text", fuzzing::playground_text);
}

#[test]
fn objects() {
    replay("objects", fuzzing::objects_text);
}

#[test]
fn fleet() {
    replay("fleet", fuzzing::fleet_text);
}
