//! Objects from text as `kubectl get -o yaml` or `-o json` prints it, and documents written
//! as YAML (docs/rules/karmada.md §16.2).
//!
//! Text whose first character is `{` or `[` is JSON, read by allot-core's reader. Anything
//! else is YAML, possibly several documents (`---`): serde-saphyr reads each document into a
//! generic value, within its budgets (nesting, events, aliases: an alias bomb is an error,
//! not a hang), and each value goes through the same JSON reader, so a field's error has the
//! same path whichever the syntax; with several documents the path starts at the document
//! (`documents[2].spec.replicas`). Empty documents are skipped.

use allot_core::error::{indexed, Error, ErrorCode, Path, Result};
use allot_core::json::{from_json, to_json_bytes};
use allot_core::kubernetes::objects::{Object, Objects};
use serde::Serialize;

/// Text longer than this is refused before parsing: 32 MiB, three times a large cluster's
/// `kubectl get pods -A -o yaml`.
pub const MAX_TEXT: usize = 32 << 20;

/// The objects in `text` (JSON, or YAML of one or more documents), Lists opened.
pub fn objects(text: &str) -> Result<Vec<Object>> {
    if is_json(text) {
        if text.len() > MAX_TEXT {
            return Err(too_long());
        }
        return from_json::<Objects>(text).map(|o| o.0);
    }
    let documents = documents(text)?;
    let several = documents.len() > 1;
    let mut out = Vec::new();
    for (k, document) in documents.iter().enumerate() {
        let json = to_json_bytes(document).map_err(|e| Error::Input {
            field: indexed("documents", k),
            code: ErrorCode::InvalidInput,
            reason: e.to_string(),
        })?;
        // The writer writes UTF-8 (ASCII, with escapes).
        let json = String::from_utf8_lossy(&json);
        match from_json::<Objects>(&json) {
            Ok(objects) => out.extend(objects.0),
            Err(e) if several => return Err(e.within(&indexed("documents", k))),
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

fn too_long() -> Error {
    Error::TooLarge {
        field: Path::root(),
        limit: MAX_TEXT as u64,
    }
}

/// The YAML documents in `text`, each as a generic value.
fn documents(text: &str) -> Result<Vec<serde_json::Value>> {
    if text.len() > MAX_TEXT {
        return Err(too_long());
    }
    serde_saphyr::from_multiple_with_options(text, options()).map_err(|e| Error::Input {
        field: Path::root(),
        code: ErrorCode::InvalidInput,
        reason: format!("not YAML or JSON: {e}"),
    })
}

/// Whether `text` is JSON rather than YAML: its first character opens an object or an array.
/// (A YAML flow mapping also starts so; JSON is the YAML people paste that way.)
pub fn is_json(text: &str) -> bool {
    matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['))
}

/// serde-saphyr's budgets (aliases, anchors, nesting, documents as it sets them), with room for
/// [`MAX_TEXT`] of objects: a member's `kubectl get pods -A -o yaml` of 10,000 pods is about
/// 340,000 nodes, past the crate's default of 250,000 (a configuration file's size). Duplicate
/// keys are refused, as Kubernetes refuses them.
fn options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_nodes: 2_000_000,
            max_events: 8_000_000,
        },
        duplicate_keys: serde_saphyr::DuplicateKeyPolicy::Error,
    }
}

/// One value from text written as YAML or JSON (a field's toleration list, a taint, an affinity
/// term pasted from a manifest), as JSON text. An empty text is `null`.
pub fn value(text: &str) -> Result<String> {
    // JSON is YAML too: one reader for both.
    let documents = documents(text)?;
    let value = match <[_; 1]>::try_from(documents) {
        Ok([one]) => one,
        Err(none) if none.is_empty() => serde_json::Value::Null,
        Err(_) => {
            return Err(Error::Input {
                field: Path::root(),
                code: ErrorCode::InvalidInput,
                reason: "one value, not several YAML documents".into(),
            })
        }
    };
    Ok(value.to_string())
}

/// Documents as YAML: one document each, separated by `---`.
pub fn to_yaml<T: Serialize>(documents: &[T]) -> Result<String> {
    serde_saphyr::to_string_multiple(documents).map_err(|e| Error::Input {
        field: Path::root(),
        code: ErrorCode::InvalidInput,
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEPLOYMENT: &str =
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx\nspec:\n  replicas: 3\n";

    #[test]
    fn a_pasted_value_reads_as_yaml_or_json() {
        let yaml = "- key: dedicated\n  operator: Equal\n  value: gpu\n  effect: NoSchedule\n";
        let json =
            r#"[{"key":"dedicated","operator":"Equal","value":"gpu","effect":"NoSchedule"}]"#;
        let read = |t: &str| serde_json::from_str::<serde_json::Value>(&value(t).unwrap()).unwrap();
        assert_eq!(read(yaml), read(json));
        assert_eq!(
            read(json),
            serde_json::from_str::<serde_json::Value>(json).unwrap()
        );
        assert_eq!(value("").unwrap(), "null");
        let e = value("- key: [unclosed\n").unwrap_err();
        assert!(e.reason().starts_with("not YAML or JSON"), "{}", e.reason());
    }

    #[test]
    fn yaml_documents_and_json_give_the_same_objects() {
        let yaml = format!("# a comment\n---\n{DEPLOYMENT}---\n---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {{name: p}}\n");
        let objects = objects(&yaml).expect("reads");
        let kinds: Vec<&str> = objects.iter().map(|o| o.kind.as_str()).collect();
        assert_eq!(
            kinds,
            ["Deployment", "Pod"],
            "empty documents skipped, Lists opened"
        );
        assert_eq!(objects[0].spec.replicas, Some(3));
        let json = r#"{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "nginx"}, "spec": {"replicas": 3}}"#;
        assert_eq!(super::objects(json).unwrap()[0], objects[0]);
    }

    #[test]
    fn a_field_error_in_a_later_document_names_the_document_and_the_field() {
        let yaml = format!("{DEPLOYMENT}---\nkind: Deployment\nspec:\n  replicas: many\n");
        let e = objects(&yaml).unwrap_err();
        assert_eq!(e.field().text(), "documents[1].spec.replicas");
    }

    #[test]
    fn an_alias_bomb_is_an_error_not_a_hang() {
        let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (i, c) in ('b'..='j').enumerate() {
            let prev = (b'a' + i as u8) as char;
            let refs = vec![format!("*{prev}"); 10].join(", ");
            bomb.push_str(&format!("{c}: &{c} [{refs}]\n"));
        }
        let e = objects(&bomb).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidInput, "{e}");
    }

    #[test]
    fn bad_yaml_and_too_long_text_are_errors() {
        assert!(objects("kind: [unclosed\n").is_err());
        assert!(objects("a: 1\na: 2\n").is_err(), "duplicate keys");
        let long = " ".repeat(MAX_TEXT + 1);
        assert_eq!(objects(&long).unwrap_err().code(), ErrorCode::TooLarge);
    }

    #[test]
    fn documents_write_as_yaml_that_reads_back() {
        let objects = objects(DEPLOYMENT).unwrap();
        let text = to_yaml(&objects).unwrap();
        assert!(text.contains("kind: Deployment"), "{text}");
        assert_eq!(super::objects(&text).unwrap(), objects);
    }
}
