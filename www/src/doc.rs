//! The scenario document as the page holds it: JSON exactly as the user typed it (quantities
//! stay strings, half-typed values stay what they are), addressed by the same paths the core's
//! errors name (`clusters[0].resourceSummary.allocatable.cpu`). The core reads it on every edit;
//! an error's path finds the field that caused it.

use serde_json::{Map, Value};

/// One step of a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// Split `a.b[2].c` into steps. Keys never contain `.` or `[` in a scenario.
pub fn steps(path: &str) -> Vec<Step<'_>> {
    let mut out = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, rest) = part.split_at(part.find('[').unwrap_or(part.len()));
        if !key.is_empty() {
            out.push(Step::Key(key));
        }
        for index in rest.split('[').filter(|s| !s.is_empty()) {
            match index.trim_end_matches(']').parse() {
                Ok(i) => out.push(Step::Index(i)),
                Err(_) => out.push(Step::Key(index)),
            }
        }
    }
    out
}

/// The value at `path`, if there is one.
pub fn get<'v>(doc: &'v Value, path: &str) -> Option<&'v Value> {
    steps(path).iter().try_fold(doc, |v, s| match s {
        Step::Key(k) => v.get(*k),
        Step::Index(i) => v.get(*i),
    })
}

/// Set (`Some`) or remove (`None`) the value at `path`, creating objects on the way. An index
/// one past the end of an array appends; a step through a non-container replaces it.
pub fn set(doc: &mut Value, path: &str, value: Option<Value>) {
    let steps = steps(path);
    let Some((last, parents)) = steps.split_last() else {
        if let Some(v) = value {
            *doc = v;
        }
        return;
    };
    let mut here = doc;
    for (n, s) in parents.iter().enumerate() {
        let next_is_index = matches!(steps.get(n + 1), Some(Step::Index(_)));
        let fresh = || {
            if next_is_index {
                Value::Array(Vec::new())
            } else {
                Value::Object(Map::new())
            }
        };
        here = match s {
            Step::Key(k) => {
                if !here.is_object() {
                    if value.is_none() {
                        return;
                    }
                    *here = Value::Object(Map::new());
                }
                let map = here.as_object_mut().expect("made an object above");
                if value.is_none() && !map.contains_key(*k) {
                    return;
                }
                map.entry(*k).or_insert_with(fresh)
            }
            Step::Index(i) => match here.as_array_mut() {
                Some(a) if *i < a.len() => &mut a[*i],
                Some(a) if *i == a.len() && value.is_some() => {
                    a.push(fresh());
                    a.last_mut().expect("pushed")
                }
                _ => return,
            },
        };
    }
    match (last, value) {
        (Step::Key(k), Some(v)) => {
            if !here.is_object() {
                *here = Value::Object(Map::new());
            }
            here.as_object_mut()
                .expect("an object")
                .insert((*k).into(), v);
        }
        (Step::Key(k), None) => {
            if let Some(m) = here.as_object_mut() {
                m.remove(*k);
            }
        }
        (Step::Index(i), Some(v)) => {
            if let Some(a) = here.as_array_mut() {
                if *i < a.len() {
                    a[*i] = v;
                } else {
                    a.push(v);
                }
            }
        }
        (Step::Index(i), None) => {
            if let Some(a) = here.as_array_mut() {
                if *i < a.len() {
                    a.remove(*i);
                }
            }
        }
    }
}

/// Append `value` to the array at `path` (made if absent).
pub fn push(doc: &mut Value, path: &str, value: Value) {
    let len = get(doc, path).and_then(Value::as_array).map_or(0, Vec::len);
    if len == 0 {
        set(doc, path, Some(Value::Array(vec![value])));
    } else {
        set(doc, &format!("{path}[{len}]"), Some(value));
    }
}

/// Whether an error at `error` concerns the field at `field`: the same path, or inside it.
pub fn concerns(error: &str, field: &str) -> bool {
    error
        .strip_prefix(field)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.') || rest.starts_with('['))
}

/// An array's elements, or none.
pub fn items<'v>(doc: &'v Value, path: &str) -> &'v [Value] {
    get(doc, path)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_split_like_the_core_names_them() {
        assert_eq!(
            steps("clusters[0].resourceSummary.allocatable.cpu"),
            vec![
                Step::Key("clusters"),
                Step::Index(0),
                Step::Key("resourceSummary"),
                Step::Key("allocatable"),
                Step::Key("cpu")
            ]
        );
        assert_eq!(
            steps("a[1][2]"),
            vec![Step::Key("a"), Step::Index(1), Step::Index(2)]
        );
    }

    #[test]
    fn set_creates_and_removes() {
        let mut d = json!({"clusters": [{"name": "a"}]});
        set(&mut d, "clusters[0].labels.env", Some(json!("prod")));
        set(&mut d, "workload.replicas", Some(json!(3)));
        set(&mut d, "clusters[1].name", Some(json!("b")));
        assert_eq!(
            d,
            json!({"clusters": [{"name": "a", "labels": {"env": "prod"}}, {"name": "b"}],
                   "workload": {"replicas": 3}})
        );
        set(&mut d, "clusters[0]", None);
        set(&mut d, "policy.method", None);
        assert_eq!(
            d,
            json!({"clusters": [{"name": "b"}], "workload": {"replicas": 3}})
        );
        push(&mut d, "clusters[0].zones", json!("z1"));
        push(&mut d, "clusters[0].zones", json!("z2"));
        assert_eq!(get(&d, "clusters[0].zones[1]"), Some(&json!("z2")));
        assert_eq!(items(&d, "clusters").len(), 1);
    }

    #[test]
    fn errors_belong_to_their_field_and_its_insides() {
        assert!(concerns("clusters[0].labels.env", "clusters[0].labels"));
        assert!(concerns("clusters[0]", "clusters[0]"));
        assert!(!concerns("clusters[10].name", "clusters[1]"));
        assert!(!concerns("clusters[0].labelsX", "clusters[0].labels"));
    }
}
