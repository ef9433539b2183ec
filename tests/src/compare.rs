//! Comparison helpers shared by the family runners.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::Verdict;

/// An assignment `{name: replicas}` as ordered map.
pub type Assignment = BTreeMap<String, i64>;

/// Read `{name: int}` from JSON; `null` or absent reads as an empty map.
pub fn assignment(value: Option<&Value>) -> Assignment {
    value
        .and_then(Value::as_object)
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), v.as_i64().unwrap_or(i64::MIN)))
                .collect()
        })
        .unwrap_or_default()
}

/// Drop zero entries (the README's "absent == 0" comparison).
pub fn without_zeros(a: &Assignment) -> Assignment {
    a.iter()
        .filter(|(_, &v)| v != 0)
        .map(|(k, &v)| (k.clone(), v))
        .collect()
}

/// Render an assignment compactly for failure lines.
pub fn show(a: &Assignment) -> String {
    serde_json::to_string(a).unwrap_or_default()
}

/// Compare `got` against a case's `expect` or `expect_one_of`, exactly when `strict` and with
/// absent == 0 otherwise.
pub fn check_assignment(case: &Value, got: &Assignment, strict: bool) -> Verdict {
    let norm = |a: &Assignment| if strict { a.clone() } else { without_zeros(a) };
    let got_n = norm(got);
    if let Some(options) = case.get("expect_one_of").and_then(Value::as_array) {
        let options: Vec<Assignment> = options.iter().map(|o| norm(&assignment(Some(o)))).collect();
        if options.contains(&got_n) {
            return Verdict::Pass;
        }
        return Verdict::Fail {
            expected: format!(
                "one of {}",
                options.iter().map(show).collect::<Vec<_>>().join(" | ")
            ),
            got: show(got),
        };
    }
    let expected = norm(&assignment(case.get("expect")));
    if expected == got_n {
        Verdict::Pass
    } else {
        Verdict::Fail {
            expected: show(&expected),
            got: show(got),
        }
    }
}

/// Compare an error code against `expect_error` ("unschedulable" or "error: <substring>").
pub fn check_error(case: &Value, got: Result<Assignment, allot_core::Error>) -> Verdict {
    let want = case
        .get("expect_error")
        .and_then(Value::as_str)
        .unwrap_or("");
    match got {
        Ok(a) => Verdict::Fail {
            expected: format!("error {want}"),
            got: show(&a),
        },
        Err(e) => {
            let ok = match want {
                "unschedulable" => e.code() == "unschedulable",
                // allot cannot even represent an unsupported strategy: it is an unknown value.
                "error: unsupported replica scheduling strategy" => {
                    e.code() == "unknown_value" && e.field() == "strategy"
                }
                w => {
                    let sub = w.strip_prefix("error: ").unwrap_or(w);
                    e.to_string().contains(sub)
                }
            };
            if ok {
                Verdict::Pass
            } else {
                Verdict::Fail {
                    expected: format!("error {want}"),
                    got: format!("error {} ({e})", e.code()),
                }
            }
        }
    }
}
