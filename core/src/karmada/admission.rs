//! What Karmada's policy webhooks refuse (docs/rules/karmada.md §17): the validating webhook
//! of PropagationPolicy and ClusterPropagationPolicy checks a placement after the mutating
//! webhook's defaults (§17.1), and the API server refuses the policy with the webhook's reason.
//! A refused policy never reaches the scheduler, so allot answers [`Error::RefusedAtAdmission`]
//! with that reason, in Karmada's words, at the field it concerns (§17.2). Which checks apply
//! depends on the release ([`Version`], §17.3).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::constraints::{AffinityTerm, SpreadConstraint, SpreadField};
use super::version::Version;
use super::Strategy;
use crate::error::{Error, Path, Result};
use crate::selector::cluster::ClusterAffinity;
use crate::selector::node::{Toleration, TolerationOperator};

/// A placement as the validating webhook sees it: after the mutating webhook's defaults.
#[derive(Debug, Clone, Copy)]
pub struct Placement<'a> {
    pub cluster_affinity: Option<&'a ClusterAffinity>,
    pub cluster_affinities: Option<&'a [AffinityTerm]>,
    pub cluster_tolerations: &'a [Toleration],
    /// As the mutating webhook leaves them ([`SpreadConstraint::defaulted`]).
    pub spread_constraints: &'a [SpreadConstraint],
    /// How replicas are divided (`replicaScheduling`, with the CRD's and the webhook's
    /// defaults).
    pub strategy: Strategy,
    /// `workloadAffinity`'s group keys (a policy object's; a scenario has none).
    pub workload_groups: Option<WorkloadGroups<'a>>,
}

/// The `groupByLabelKey` of `workloadAffinity`'s `affinity` and `antiAffinity`, each when that
/// term is given.
#[derive(Debug, Clone, Copy, Default)]
pub struct WorkloadGroups<'a> {
    pub affinity: Option<&'a str>,
    pub anti_affinity: Option<&'a str>,
}

fn refuse(field: Path, reason: impl Into<String>) -> Error {
    Error::RefusedAtAdmission {
        field,
        reason: reason.into(),
    }
}

/// The placement's first refusal, in the order Karmada checks (`ValidatePlacement`):
/// `clusterAffinity` beside `clusterAffinities`, overflow affinities without a division that
/// fills tiers, the field selectors, the affinity terms' names, the spread constraints, the
/// workload affinity's group keys, the tolerations' operators.
///
/// A refusal's field is relative to the placement, in the shape of [`AffinityTerm`]: a term's
/// (or an overflow affinity's) affinity sits under `affinity`. The reader that knows where
/// the placement was written places it there (a scenario's `policy`, a policy object's
/// `spec.placement`, whose terms hold their affinity's fields inline).
pub fn admit(p: &Placement<'_>, version: Version) -> Result<()> {
    let at = Path::root();
    let terms = p.cluster_affinities.unwrap_or_default();
    if p.cluster_affinity.is_some() && p.cluster_affinities.is_some() {
        return Err(refuse(
            at.field("clusterAffinities"),
            "clusterAffinities cannot co-exist with clusterAffinity",
        ));
    }
    let overflow_checked = version.at_least(18, 0);
    if overflow_checked && !matches!(p.strategy, Strategy::DynamicWeight | Strategy::Aggregated) {
        if let Some(i) = terms.iter().position(|t| !t.overflow_affinities.is_empty()) {
            return Err(refuse(
                term_at(&at, i).field("overflowAffinities"),
                "overflowAffinities can only be used together with dynamic weight or aggregated \
                 scheduling",
            ));
        }
    }
    if let Some(a) = p.cluster_affinity {
        field_selector(a, at.clone().field("clusterAffinity"))?;
    }
    for (i, t) in terms.iter().enumerate() {
        let here = term_at(&at, i);
        if let Some(reason) = label_key_problem(&t.affinity_name, version) {
            return Err(refuse(here.field("affinityName"), reason));
        }
        if terms[..i]
            .iter()
            .any(|u| u.affinity_name == t.affinity_name)
        {
            return Err(refuse(
                here.field("affinityName"),
                "each affinity term in a policy must have a unique name",
            ));
        }
        field_selector(&t.affinity, here.clone().field("affinity"))?;
        if overflow_checked {
            overflow_affinities(t, here, version)?;
        }
    }
    spread_constraints(p.spread_constraints, at.clone().field("spreadConstraints"))?;
    if let Some(w) = p.workload_groups.filter(|_| version.at_least(17, 0)) {
        workload_groups(w, at.clone().field("workloadAffinity"), version)?;
    }
    if version.at_least(18, 0) {
        tolerations(p.cluster_tolerations, at.field("clusterTolerations"))?;
    }
    Ok(())
}

/// `namespace` of each resource selector, after the mutating webhook wrote the policy's own
/// namespace into those without one (§17.2): from Karmada 1.17 a namespaced policy selects in
/// its own namespace only. `policy_namespace` is empty for a ClusterPropagationPolicy; `at` is
/// `spec.resourceSelectors`.
pub fn resource_selectors<'s>(
    namespaces: impl IntoIterator<Item = &'s str>,
    policy_namespace: &str,
    at: &Path,
    version: Version,
) -> Result<()> {
    if policy_namespace.is_empty() || !version.at_least(17, 0) {
        return Ok(());
    }
    match namespaces
        .into_iter()
        .position(|ns| !ns.is_empty() && ns != policy_namespace)
    {
        Some(k) => Err(refuse(
            at.clone().index(k).field("namespace"),
            "namespace of resource selector must be the same as the namespace of the policy",
        )),
        None => Ok(()),
    }
}

fn term_at(at: &Path, i: usize) -> Path {
    at.clone().field("clusterAffinities").index(i)
}

/// `ValidateOverflowAffinities` (Karmada 1.18 on): an inline affinity to overflow from, and
/// overflow names that are label keys, unique, and not the term's own name.
fn overflow_affinities(t: &AffinityTerm, term: Path, version: Version) -> Result<()> {
    if t.overflow_affinities.is_empty() {
        return Ok(());
    }
    let list = term.field("overflowAffinities");
    let a = &t.affinity;
    let empty = a.label_selector.is_none()
        && a.field_selector.is_none()
        && a.cluster_names.is_empty()
        && a.exclude.is_empty();
    if empty {
        return Err(refuse(
            list,
            "overflowAffinities can only be used together with the inline ClusterAffinity",
        ));
    }
    let mut names: Vec<&str> = alloc::vec![t.affinity_name.as_str()];
    for (k, o) in t.overflow_affinities.iter().enumerate() {
        let here = list.clone().index(k);
        if let Some(reason) = label_key_problem(&o.affinity_name, version) {
            return Err(refuse(here.field("affinityName"), reason));
        }
        if names.contains(&o.affinity_name.as_str()) {
            return Err(refuse(
                here.field("affinityName"),
                "overflow affinity name must be unique and must not duplicate the primary \
                 group's affinityName",
            ));
        }
        names.push(&o.affinity_name);
        field_selector(&o.affinity, here.field("affinity"))?;
    }
    Ok(())
}

/// `ValidatePolicyFieldSelector`: keys `provider`, `region`, `zone`; operators `In`, `NotIn`.
/// `at`: the affinity.
fn field_selector(a: &ClusterAffinity, at: Path) -> Result<()> {
    let Some(fs) = &a.field_selector else {
        return Ok(());
    };
    for (k, e) in fs.match_expressions.iter().enumerate() {
        let here = || {
            at.clone()
                .join(&Path::fields("fieldSelector.matchExpressions"))
                .index(k)
        };
        if !matches!(e.key.as_str(), "provider" | "region" | "zone") {
            return Err(refuse(
                here().field("key"),
                format!(
                    "unsupported key {:?}, must be provider, region, or zone",
                    e.key
                ),
            ));
        }
        if !matches!(e.operator.as_str(), "In" | "NotIn") {
            return Err(refuse(
                here().field("operator"),
                format!("unsupported operator {:?}, must be In or NotIn", e.operator),
            ));
        }
    }
    Ok(())
}

/// `ValidateSpreadConstraint`, on the defaulted constraints; `at`: `spreadConstraints`.
fn spread_constraints(list: &[SpreadConstraint], at: Path) -> Result<()> {
    let mut seen: Vec<SpreadField> = Vec::new();
    for (i, c) in list.iter().enumerate() {
        let here = || at.clone().index(i);
        if c.spread_by_field.is_some() && !c.spread_by_label.is_empty() {
            return Err(refuse(
                here().field("spreadByLabel"),
                "spreadByLabel should not co-exist with spreadByField",
            ));
        }
        if c.max_groups > 0 && c.max_groups < c.min_groups {
            return Err(refuse(
                here().field("maxGroups"),
                "maxGroups lower than minGroups is not allowed",
            ));
        }
        if let Some(f) = c.spread_by_field {
            if seen.contains(&f) {
                return Err(refuse(
                    here().field("spreadByField"),
                    format!("multiple {} spread constraints are not allowed", f.as_str()),
                ));
            }
            seen.push(f);
        }
    }
    if !seen.is_empty() && !seen.contains(&SpreadField::Cluster) {
        return Err(refuse(
            at,
            "the cluster spread constraint must be enabled in one of the constraints in case \
             of SpreadByField is enabled",
        ));
    }
    Ok(())
}

/// `ValidateWorkloadAffinity` (Karmada 1.17 on): group keys that are label keys, and not the
/// same for affinity and anti-affinity; `at`: `workloadAffinity`.
fn workload_groups(w: WorkloadGroups<'_>, at: Path, version: Version) -> Result<()> {
    for (term, key) in [("affinity", w.affinity), ("antiAffinity", w.anti_affinity)] {
        if let Some(reason) = key.and_then(|k| label_key_problem(k, version)) {
            return Err(refuse(at.field(term).field("groupByLabelKey"), reason));
        }
    }
    match (w.affinity, w.anti_affinity) {
        (Some(a), Some(b)) if a == b => Err(refuse(
            at,
            "affinity and antiAffinity must not use the same groupByLabelKey",
        )),
        _ => Ok(()),
    }
}

/// `validateClusterTolerations` (Karmada 1.18 on): no `Lt` or `Gt`; `at`: `clusterTolerations`.
fn tolerations(list: &[Toleration], at: Path) -> Result<()> {
    for (i, t) in list.iter().enumerate() {
        let name = match t.operator {
            TolerationOperator::Lt => "Lt",
            TolerationOperator::Gt => "Gt",
            TolerationOperator::Equal | TolerationOperator::Exists => continue,
        };
        return Err(refuse(
            at.index(i).field("operator"),
            format!("Unsupported value: \"{name}\": supported values: \"\", \"Exists\", \"Equal\""),
        ));
    }
    Ok(())
}

/// The characters of a label key's name part, as Kubernetes writes its pattern.
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must \
                             start and end with an alphanumeric character";
const SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case \
                             alphanumeric characters, '-' or '.', and must start and end with an \
                             alphanumeric character";

/// Kubernetes' explanation of a failed pattern, with its examples.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    let mut out = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push_str(&format!("'{e}', "));
    }
    out.push_str(&format!("regex used for validation is '{fmt}')"));
    out
}

fn label_key_pattern() -> String {
    regex_error(
        LABEL_KEY_MSG,
        LABEL_KEY_FMT,
        &["MyName", "my.name", "123-abc"],
    )
}

/// Whether `s` is a DNS (RFC 1123) subdomain's characters: dot-separated labels of lower-case
/// letters, digits and `-`, each starting and ending with a letter or digit.
fn is_dns_subdomain(s: &str) -> bool {
    s.split('.').all(|label| {
        let b = label.as_bytes();
        !b.is_empty()
            && b.iter()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
            && b[0] != b'-'
            && b[b.len() - 1] != b'-'
    })
}

/// The first reason Kubernetes gives for `key` not being a label key (a qualified name:
/// an optional DNS-subdomain prefix and `/`, then a name), in its words. Karmada 1.16 calls it
/// "a qualified name", later releases "a valid label key".
pub fn label_key_problem(key: &str, version: Version) -> Option<String> {
    let parts: Vec<&str> = key.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                return Some("prefix part must be non-empty".into());
            }
            if prefix.len() > 253 {
                return Some("prefix part must be no more than 253 bytes".into());
            }
            if !is_dns_subdomain(prefix) {
                return Some(format!(
                    "prefix part {}",
                    regex_error(SUBDOMAIN_MSG, SUBDOMAIN_FMT, &["example.com"])
                ));
            }
            name
        }
        _ => {
            let what = if version.at_least(17, 0) {
                "a valid label key"
            } else {
                "a qualified name"
            };
            return Some(format!(
                "{what} {} with an optional DNS subdomain prefix and '/' (e.g. \
                 'example.com/MyName')",
                label_key_pattern()
            ));
        }
    };
    if name.is_empty() {
        return Some("name part must be non-empty".into());
    }
    if name.len() > 63 {
        return Some("name part must be no more than 63 bytes".into());
    }
    if crate::selector::label::validate_value(name).is_err() {
        return Some(format!("name part {}", label_key_pattern()));
    }
    None
}
