//! Objects whose schedule Karmada's own scheduler code decided (tests/objects/karmada/*.json):
//! allot, given the same Clusters, policy, template and binding, places the same replicas on
//! the same clusters, or fails as Karmada fails. Where Karmada's answer comes from one of its
//! own accidents that allot fixes (docs/rules/README.md decision 5), the case says which, what
//! allot answers instead, and the explanation must say so with the named warning.

use std::collections::BTreeMap;

use allot_core::json::from_json;
use allot_core::karmada::version::Version;
use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::Objects;
use allot_core::scenario::explain::explain;
use allot_core::Error;
use serde::Deserialize;

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
enum Answer {
    /// The binding's new `spec.clusters`, by name.
    Clusters(BTreeMap<String, i64>),
    /// "Clusters available replicas N are not enough to schedule."
    Unschedulable { available: i64 },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    #[allow(dead_code)]
    about: String,
    /// The Karmada release that answered (`1.MINOR`); absent: the newest.
    #[serde(default)]
    release: Option<String>,
    /// Karmada's answer.
    karmada: Answer,
    /// Where allot answers otherwise (one of Karmada's accidents it fixes, or a convention of a
    /// Karmada control plane it assumes): allot's answer and what its explanation says.
    #[serde(default)]
    fixed: Option<Fixed>,
    objects: serde_json::Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Fixed {
    allot: Answer,
    /// Words of a warning's message or of an import report line.
    says: String,
}

/// allot's answer, and the sentences of its explanation: warnings and import report lines.
fn answer(objects: &str, release: Option<&str>) -> (Answer, Vec<String>) {
    let objects: Objects = from_json(objects).expect("objects");
    let choice = Choice {
        version: release.map_or_else(Version::default, |r| {
            Version::parse(r).expect("a release allot knows")
        }),
        ..Choice::default()
    };
    match explain(&objects.0, &choice, 0) {
        Ok(x) => (
            Answer::Clusters(
                x.binding
                    .clusters
                    .iter()
                    .map(|t| (t.name.clone(), t.replicas))
                    .collect(),
            ),
            x.outcome
                .warnings
                .iter()
                .map(|w| w.message.clone())
                .chain(
                    [&x.report.used, &x.report.defaulted, &x.report.ignored]
                        .into_iter()
                        .flatten()
                        .map(|e| format!("{} {}: {}", e.object, e.field, e.into)),
                )
                .collect(),
        ),
        Err(Error::Unschedulable { available, .. }) => {
            (Answer::Unschedulable { available }, Vec::new())
        }
        Err(e) => panic!("an error Karmada does not give: {e}"),
    }
}

#[test]
fn allot_answers_as_karmada() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/objects/karmada");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("the cases")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 10, "the cases are there");
    let mut wrong = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("readable");
        let case: Case = serde_json::from_str(&text).expect("a case");
        let (got, sentences) = answer(&case.objects.to_string(), case.release.as_deref());
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        match &case.fixed {
            None if got != case.karmada => {
                wrong.push(format!("{name}: Karmada {:?}, allot {got:?}", case.karmada));
            }
            Some(f) if got != f.allot || !sentences.iter().any(|w| w.contains(&f.says)) => {
                wrong.push(format!(
                    "{name}: expected {:?} saying {:?}, allot {got:?} saying {sentences:?}",
                    f.allot, f.says
                ));
            }
            _ => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A Cluster without `status.resourceSummary`: used (the general estimator answers 0, and the
/// scenario states the estimators) when the decision reads the estimates; reported as not
/// mattering under static weights (spread constraints or not) and Duplicated without spread
/// constraints.
#[test]
fn an_absent_summary_is_reported_where_it_matters() {
    use allot_core::scenario::objects::import;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/objects/karmada");
    for (case, matters) in [
        ("no-summary-dynamic", true),
        ("no-summary-static", false),
        ("no-summary-duplicated", false),
        ("no-summary-static-spread", false),
        ("no-summary-duplicated-spread", true),
    ] {
        let text = std::fs::read_to_string(format!("{dir}/{case}.json")).unwrap();
        let case_doc: Case = serde_json::from_str(&text).unwrap();
        let objects: Objects = from_json(&case_doc.objects.to_string()).unwrap();
        let imported = import(&objects.0, &Choice::default()).unwrap();
        let r = &imported.report;
        let absent = |list: &[allot_core::kubernetes::import::Entry]| {
            list.iter()
                .any(|e| e.object == "Cluster m1" && e.field == "status.resourceSummary")
        };
        assert_eq!(absent(&r.used), matters, "{case}: used");
        assert_eq!(absent(&r.ignored), !matters, "{case}: ignored");
        assert_eq!(
            imported.scenario.policy.estimators.is_some(),
            matters,
            "{case}: estimators stated"
        );
        let exported = allot_core::scenario::export::export(&imported.scenario).unwrap();
        assert!(
            exported.unexpressed.is_empty(),
            "{case}: objects say it all: {:?}",
            exported.unexpressed
        );
    }
}
