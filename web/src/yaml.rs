//! Objects from text as `kubectl get -o yaml` or `-o json` prints it, and documents written
//! as YAML (docs/rules/karmada.md §16.2).
//!
//! Text whose first character is `{` or `[` is JSON, read by allot-core's reader. Anything
//! else is YAML, possibly several documents (`---`): serde-saphyr reads each document, within
//! its budgets (aliases, nesting: an alias bomb is an error, not a hang), and its values are
//! written as JSON text as they are read (serde-transcode into allot-core's writer), which the
//! same JSON reader reads: so a field's error has the same path whichever the syntax, and the
//! object readers are compiled once; with several documents the path starts at the document
//! (`documents[2].spec.replicas`). Empty documents are skipped.
//!
//! The limits are stated in the READMEs, in words: [`MAX_TEXT`] bytes of text, as many
//! objects and documents as that holds, nesting 64 levels deep, and YAML aliases replaying
//! at most a million events in all. Only aliases can make a short text a large amount of
//! work, so only they (and the depth, which is stack) have limits of their own.

use allot_core::error::{indexed, Error, ErrorCode, Path, Result};
use allot_core::json::to_json_bytes;
use allot_core::kubernetes::objects::{read_json, Object};
use serde::Serialize;

/// Text longer than this is refused before parsing: 256 MiB, room for a control plane's dump
/// of 100,000 Clusters (about 100 MB as `kubectl get clusters -o yaml` prints them) or of
/// 10,000 workloads with their policies and bindings.
pub const MAX_TEXT: usize = 256 << 20;

/// The objects in `text` (JSON, or YAML of one or more documents), Lists opened.
pub fn objects(text: &str) -> Result<Vec<Object>> {
    if text.len() > MAX_TEXT {
        return Err(too_long());
    }
    allot_core::kubernetes::objects::check_text(text)?;
    if is_json(text) {
        return read_json(text);
    }
    // Each document as JSON text, with no generic value of it in between: building, writing
    // and dropping those values cost most of the time, and several times the text in memory.
    // A YAML error is said by the reading through values, in words.
    let documents = match serde_saphyr::from_str_multiple_with_options::<Json, Vec<Json>>(
        text,
        options(text),
    ) {
        Ok(documents) => documents,
        Err(_) => return slowly(text),
    };
    let several = documents.len() > 1;
    let mut out = Vec::new();
    for (k, Json(json)) in documents.iter().enumerate() {
        out.extend(read_document(json, k, several)?);
    }
    Ok(out)
}

/// One YAML document as JSON text: its values written by allot-core's writer as serde-saphyr
/// reads them.
struct Json(Vec<u8>);

impl<'de> serde::Deserialize<'de> for Json {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        to_json_bytes(&serde_transcode::Transcoder::new(d))
            .map(Json)
            .map_err(serde::de::Error::custom)
    }
}

/// The objects of document `k` written as JSON text (`json`, ASCII), its errors' paths from
/// the document when there are `several`.
fn read_document(json: &[u8], k: usize, several: bool) -> Result<Vec<Object>> {
    // The writer writes ASCII, with escapes.
    let json = String::from_utf8_lossy(json);
    match read_json(&json) {
        Ok(objects) => Ok(objects),
        Err(e) if several => Err(e.within(&indexed("documents", k))),
        Err(e) => Err(e),
    }
}

/// The objects in YAML `text` read through generic values (serde_json's) and allot-core's JSON
/// reader: the way YAML was read before, and errors of the YAML itself still are.
pub fn slowly(text: &str) -> Result<Vec<Object>> {
    let documents = documents(text)?;
    let several = documents.len() > 1;
    let mut out = Vec::new();
    for (k, document) in documents.iter().enumerate() {
        let json = to_json_bytes(document).map_err(|e| Error::Input {
            field: indexed("documents", k),
            code: ErrorCode::InvalidInput,
            reason: e.to_string(),
        })?;
        out.extend(read_document(&json, k, several)?);
    }
    Ok(out)
}

/// The objects in `text` as generic values, Lists opened as [`objects`] opens them: every
/// field as given, for what is written back whole (a binding).
pub fn values(text: &str) -> Result<Vec<serde_json::Value>> {
    let documents = if is_json(text) {
        if text.len() > MAX_TEXT {
            return Err(too_long());
        }
        vec![serde_json::from_str(text).map_err(|e| Error::Input {
            field: Path::root(),
            code: ErrorCode::InvalidInput,
            reason: e.to_string(),
        })?]
    } else {
        documents(text)?
    };
    let mut out = Vec::new();
    let mut stack: Vec<serde_json::Value> = documents.into_iter().rev().collect();
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::Array(items) => stack.extend(items.into_iter().rev()),
            serde_json::Value::Object(mut o)
                if o.get("kind")
                    .and_then(|k| k.as_str())
                    .is_some_and(|k| k.ends_with("List")) =>
            {
                if let Some(serde_json::Value::Array(items)) = o.remove("items") {
                    stack.extend(items.into_iter().rev());
                }
            }
            v => out.push(v),
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
    serde_saphyr::from_multiple_with_options(text, options(text)).map_err(|e| Error::Input {
        field: Path::root(),
        code: ErrorCode::InvalidInput,
        reason: not_yaml(&e),
    })
}

/// A YAML error in words: a limit said as what it limits, with the line; anything else as
/// serde-saphyr says it (the line, the column and the text around them).
fn not_yaml(e: &serde_saphyr::Error) -> String {
    use serde_saphyr::budget::BudgetBreach as B;
    let Some((breach, line)) = (match e.without_snippet() {
        serde_saphyr::Error::Budget { breach, location } => Some((breach, location.line())),
        _ => None,
    }) else {
        return format!("not YAML or JSON: {e}");
    };
    let what = match breach {
        B::Depth { .. } => format!("nests more than {MAX_DEPTH} levels deep"),
        B::Aliases { .. } | B::Anchors { .. } => {
            format!("has more than {MAX_ALIASES} aliases (*name) or anchors (&name)")
        }
        _ => String::from("has aliases (*name) that repeat more than the text itself holds"),
    };
    format!("the YAML {what} (at line {line}); allot refuses it rather than expand it")
}

/// Whether `text` is JSON rather than YAML: its first character opens an object or an array.
/// (A YAML flow mapping also starts so; JSON is the YAML people paste that way.)
pub fn is_json(text: &str) -> bool {
    matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['))
}

/// How deep YAML may nest (serde-saphyr's default: it protects the stack).
const MAX_DEPTH: usize = 64;
/// How many aliases, and anchors, YAML may hold (serde-saphyr's default).
const MAX_ALIASES: usize = 50_000;

/// serde-saphyr's budgets for `text`. Its defaults suit a configuration file (1,024
/// documents, 250,000 nodes, 64 MiB of scalars), and refused real dumps: a control plane's
/// 2,327 Clusters as documents, 20,000 Clusters as one List. Without aliases, a text holds
/// fewer documents, nodes, events and scalar bytes than it has bytes (an event pair per node),
/// so these budgets are the text's length: [`MAX_TEXT`] bounds the work. Aliases, which
/// repeat what they name, keep the crate's limits (and its million replayed events).
/// Duplicate keys are refused, as Kubernetes refuses them.
fn options(text: &str) -> serde_saphyr::Options {
    let n = text.len() + 16;
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_reader_input_bytes: Some(MAX_TEXT),
            max_documents: n,
            max_nodes: n,
            max_events: 2 * n,
            max_total_scalar_bytes: n,
            max_depth: MAX_DEPTH,
            max_aliases: MAX_ALIASES,
            max_anchors: MAX_ALIASES,
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

/// A JSON value whose objects keep their keys in the order given (serde_json's `Value` sorts
/// them): what is written as YAML reads in the order the JSON has (a plan's binding starts
/// with its `id`, not with `after`).
#[derive(Debug, Clone, PartialEq)]
pub enum Ordered {
    Null,
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Text(String),
    List(Vec<Ordered>),
    Map(Vec<(String, Ordered)>),
}

impl Ordered {
    /// An array's items, or the value alone.
    pub fn documents(self) -> Vec<Ordered> {
        match self {
            Ordered::List(items) => items,
            one => vec![one],
        }
    }
}

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        use serde::de::{MapAccess, SeqAccess, Visitor};
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E>(self) -> core::result::Result<Ordered, E> {
                Ok(Ordered::Null)
            }
            fn visit_none<E>(self) -> core::result::Result<Ordered, E> {
                Ok(Ordered::Null)
            }
            fn visit_bool<E>(self, v: bool) -> core::result::Result<Ordered, E> {
                Ok(Ordered::Bool(v))
            }
            fn visit_u64<E>(self, v: u64) -> core::result::Result<Ordered, E> {
                Ok(Ordered::Unsigned(v))
            }
            fn visit_i64<E>(self, v: i64) -> core::result::Result<Ordered, E> {
                Ok(Ordered::Signed(v))
            }
            fn visit_f64<E>(self, v: f64) -> core::result::Result<Ordered, E> {
                Ok(Ordered::Float(v))
            }
            fn visit_str<E>(self, v: &str) -> core::result::Result<Ordered, E> {
                Ok(Ordered::Text(v.into()))
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut a: A,
            ) -> core::result::Result<Ordered, A::Error> {
                let mut items = Vec::new();
                while let Some(v) = a.next_element()? {
                    items.push(v);
                }
                Ok(Ordered::List(items))
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut a: A,
            ) -> core::result::Result<Ordered, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = a.next_entry()? {
                    pairs.push(pair);
                }
                Ok(Ordered::Map(pairs))
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for Ordered {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Ordered::Null => s.serialize_unit(),
            Ordered::Bool(b) => s.serialize_bool(*b),
            Ordered::Unsigned(n) => s.serialize_u64(*n),
            Ordered::Signed(n) => s.serialize_i64(*n),
            Ordered::Float(n) => s.serialize_f64(*n),
            Ordered::Text(t) => s.serialize_str(t),
            Ordered::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for v in items {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Ordered::Map(pairs) => {
                let mut map = s.serialize_map(Some(pairs.len()))?;
                for (k, v) in pairs {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
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

    /// `n` Clusters as a control plane's dump prints them, as `---` documents or one List.
    fn clusters(n: usize, list: bool) -> String {
        let mut out = String::from(if list {
            "apiVersion: v1\nkind: List\nitems:\n"
        } else {
            ""
        });
        for i in 0..n {
            let c = format!("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member{i}\n  labels: {{env: prod}}\nspec:\n  region: r{}\n  zones: [a, b]\nstatus:\n  resourceSummary:\n    allocatable: {{cpu: \"16\", memory: 64Gi, pods: \"110\"}}\n", i % 7);
            if list {
                out.push_str("- ");
                out.push_str(&c.replace('\n', "\n  ").trim_end().replace("\n  \n", "\n"));
                out.push('\n');
            } else {
                out.push_str("---\n");
                out.push_str(&c);
            }
        }
        out
    }

    #[test]
    fn a_dump_of_thousands_of_documents_reads() {
        // serde-saphyr's default budget refused a document past the 1,024th.
        let objects = objects(&clusters(2_327, false)).expect("reads");
        assert_eq!(objects.len(), 2_327);
        assert_eq!(objects[2_326].metadata.name, "member2326");
    }

    #[test]
    fn a_list_of_more_than_two_million_yaml_nodes_reads() {
        // The budget was 2,000,000 nodes: about 20,000 real Clusters.
        let zones = vec!["z"; 2_100_000].join(", ");
        let text = format!("kind: Cluster\nmetadata: {{name: m}}\nspec:\n  zones: [{zones}]\n");
        assert_eq!(
            objects(&text).expect("reads")[0].spec.zones.len(),
            2_100_000
        );
        let list = clusters(300, true);
        let objects = objects(&list).expect("reads");
        assert_eq!(objects.len(), 300);
        assert_eq!(objects[299].spec.zones, ["a", "b"]);
    }

    #[test]
    fn limits_are_said_in_words() {
        let deep = format!("a: {}1{}\n", "[".repeat(100), "]".repeat(100));
        let e = objects(&deep).unwrap_err();
        assert!(
            e.reason().contains("nests more than 64 levels deep"),
            "{}",
            e.reason()
        );
        assert!(!e.reason().contains("Depth"), "{}", e.reason());
    }

    #[test]
    fn values_keep_every_field_lists_opened() {
        let text = format!("{DEPLOYMENT}---\nkind: List\nitems:\n- {{kind: Pod, metadata: {{name: p, resourceVersion: '9'}}}}\n");
        let v = values(&text).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[1]["metadata"]["resourceVersion"], "9");
        assert_eq!(v.len(), objects(&text).unwrap().len());
    }

    // Keys are written in the order the JSON gives them, not sorted.
    #[test]
    fn yaml_keeps_the_jsons_key_order() {
        let v: Ordered = allot_core::json::from_json(
            r#"{"id": 1, "before": {"b": 2, "a": 1}, "after": [true, null, -1, 1.5, "x"]}"#,
        )
        .unwrap();
        let yaml = to_yaml(&v.documents()).unwrap();
        let id = yaml.find("id:").unwrap();
        assert!(
            id < yaml.find("before:").unwrap()
                && yaml.find("before:").unwrap() < yaml.find("after:").unwrap(),
            "{yaml}"
        );
        assert!(
            yaml.find("b: 2").unwrap() < yaml.find("a: 1").unwrap(),
            "{yaml}"
        );
    }

    #[test]
    fn documents_write_as_yaml_that_reads_back() {
        let objects = objects(DEPLOYMENT).unwrap();
        let text = to_yaml(&objects).unwrap();
        assert!(text.contains("kind: Deployment"), "{text}");
        assert_eq!(super::objects(&text).unwrap(), objects);
    }
}
