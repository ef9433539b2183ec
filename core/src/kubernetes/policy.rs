//! Which policy propagates the resource template (docs/rules/karmada.md §16.6), as Karmada's
//! resource detector chooses it, and why: a template already claimed by a policy stays with
//! it unless a policy with `preemption: Always` preempts it; otherwise a PropagationPolicy of
//! the template's namespace comes before any ClusterPropagationPolicy, and among policies of
//! one kind the highest `spec.priority` wins, then the most precise resource selector (by
//! name, by label selector, by apiVersion and kind alone), then the name first in
//! alphabetical order. The report names the policy used and says, for every other policy
//! given, why it is not.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Reverse;

use compact_str::format_compact;
use serde::Serialize;

use super::karmada::ResourceSelector;
use super::objects::Object;
use crate::selector::label::Labels;
use crate::Name;

/// The annotations a claimed template (and its binding) carries: the claiming
/// PropagationPolicy's namespace and name, or the claiming ClusterPropagationPolicy's name.
pub const CLAIM_NAMESPACE: &str = "propagationpolicy.karmada.io/namespace";
pub const CLAIM_NAME: &str = "propagationpolicy.karmada.io/name";
pub const CLAIM_CLUSTER_NAME: &str = "clusterpropagationpolicy.karmada.io/name";

/// How precisely a policy's resource selectors select the template: Karmada's implicit
/// priority, least precise first (the best of the policy's selectors counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Match {
    /// A selector with neither name nor label selector: every template of its kind.
    All,
    /// A selector whose label selector matches the template's labels.
    LabelSelector,
    /// A selector naming the template.
    Name,
}

impl Match {
    fn said(self) -> &'static str {
        match self {
            Match::All => "matched by an empty selector",
            Match::LabelSelector => "matched by a label selector",
            Match::Name => "matched by name",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Match::All => "a match by an empty selector",
            Match::LabelSelector => "a match by label selector",
            Match::Name => "a match by name",
        }
    }
}

/// What settled the choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Decided {
    /// The only policy that selects the template.
    Alone,
    /// A PropagationPolicy, used before any ClusterPropagationPolicy.
    Namespaced,
    /// The highest `spec.priority`.
    Priority,
    /// The same priority and a more precise resource selector.
    Match,
    /// The same priority and precision: the name first in alphabetical order.
    NameOrder,
    /// The template is claimed by this policy and no other preempts it.
    Claimed,
    /// It preempts the policy that claimed the template.
    Preemption,
    /// Chosen by name (`Choice::policy`).
    Named,
    /// No policy selects the template: the only one given is used as it is.
    OnlyGiven,
}

/// The policy used and why, with every other policy given and why it is not used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PolicyChoice {
    /// `PropagationPolicy default/nginx` or `ClusterPropagationPolicy all`.
    pub policy: Name,
    pub decided: Decided,
    /// Why, in Karmada's terms.
    pub why: String,
    /// The other policies given, in the order given.
    pub others: Vec<NotUsed>,
}

/// A policy not used, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NotUsed {
    pub policy: Name,
    pub why: String,
}

/// What a policy must select: the template's identity, its labels (absent when only a
/// binding stands for it) and the annotations saying which policy claimed it.
pub struct Template<'o> {
    pub api_version: &'o str,
    pub kind: &'o str,
    pub namespace: &'o str,
    pub name: &'o str,
    pub labels: Option<&'o Labels>,
    pub annotations: &'o BTreeMap<String, String>,
}

impl<'o> Template<'o> {
    /// The template's identity, else the one a binding's `spec.resource` gives.
    pub fn of(template: Option<&'o Object>, binding: Option<&'o Object>) -> Option<Self> {
        if let Some(t) = template {
            return Some(Template {
                api_version: &t.api_version,
                kind: &t.kind,
                namespace: &t.metadata.namespace,
                name: &t.metadata.name,
                labels: Some(&t.metadata.labels),
                annotations: &t.metadata.annotations,
            });
        }
        binding.map(|b| {
            let res = &b.spec.resource;
            Template {
                api_version: &res.api_version,
                kind: &res.kind,
                namespace: &res.namespace,
                name: &res.name,
                labels: None,
                annotations: &b.metadata.annotations,
            }
        })
    }

    /// How one resource selector selects the template, if it does. A selector's name, when
    /// given, decides alone (its label selector is not read); an invalid label selector
    /// selects nothing. `namespace` is the selector's namespace after the policy webhook's
    /// default (a PropagationPolicy's own namespace).
    fn matched(&self, sel: &ResourceSelector, namespace: &str) -> Option<Match> {
        if sel.api_version != self.api_version
            || sel.kind != self.kind
            || (!namespace.is_empty() && !same_namespace(namespace, self.namespace))
        {
            return None;
        }
        if !sel.name.is_empty() {
            return (sel.name == self.name).then_some(Match::Name);
        }
        match &sel.label_selector {
            None => Some(Match::All),
            Some(ls) => self
                .labels
                .is_some_and(|l| ls.matches(l))
                .then_some(Match::LabelSelector),
        }
    }
}

/// Namespaces as `kubectl apply` places objects: an object written without one lands in
/// `default`.
fn same_namespace(a: &str, b: &str) -> bool {
    fn or_default(n: &str) -> &str {
        if n.is_empty() {
            "default"
        } else {
            n
        }
    }
    or_default(a) == or_default(b)
}

/// A policy's scope: PropagationPolicies come before ClusterPropagationPolicies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Scope {
    Cluster,
    Namespaced,
}

/// Why a policy does not select the template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Miss {
    Deleting,
    OtherNamespace,
    NoTemplate,
    Selectors,
}

impl Miss {
    fn said(self) -> &'static str {
        match self {
            Miss::Deleting => "being deleted: it selects nothing",
            Miss::OtherNamespace => {
                "a PropagationPolicy selects only templates of its own namespace"
            }
            Miss::NoTemplate => "there is no template or binding to select",
            Miss::Selectors => "its resource selectors do not select the template",
        }
    }
}

/// A policy given, as the detector sees it.
struct Candidate<'o> {
    at: usize,
    object: &'o Object,
    scope: Scope,
    priority: i32,
    preempts: bool,
    /// Whether a selector names the template (namespace included): Karmada's preemption
    /// looks templates up by the selector's name, so only such a selector preempts.
    names_it: bool,
    selects: Result<Match, Miss>,
}

impl<'o> Candidate<'o> {
    fn of(at: usize, object: &'o Object, t: Option<&Template<'_>>) -> Self {
        let scope = if object.kind == "PropagationPolicy" {
            Scope::Namespaced
        } else {
            Scope::Cluster
        };
        let own = match scope {
            Scope::Namespaced => object.metadata.namespace.as_str(),
            Scope::Cluster => "",
        };
        let selectors = &object.spec.resource_selectors;
        let namespace_of = |s: &'o ResourceSelector| {
            if s.namespace.is_empty() {
                own
            } else {
                s.namespace.as_str()
            }
        };
        let selects = match t {
            _ if object.metadata.deletion_timestamp.is_some() => Err(Miss::Deleting),
            None => Err(Miss::NoTemplate),
            Some(t) if scope == Scope::Namespaced && !same_namespace(own, t.namespace) => {
                Err(Miss::OtherNamespace)
            }
            Some(t) => selectors
                .iter()
                .filter_map(|s| t.matched(s, namespace_of(s)))
                .max()
                .ok_or(Miss::Selectors),
        };
        let names_it = t.is_some_and(|t| {
            selectors.iter().any(|s| {
                t.matched(s, namespace_of(s)) == Some(Match::Name)
                    && (scope == Scope::Namespaced
                        || t.namespace.is_empty()
                        || !s.namespace.is_empty())
            })
        });
        Candidate {
            at,
            object,
            scope,
            priority: object.spec.priority.unwrap_or(0),
            preempts: object.spec.preemption == "Always",
            names_it,
            selects,
        }
    }

    /// `PropagationPolicy default/nginx`, `ClusterPropagationPolicy all`.
    fn id(&self) -> Name {
        let m = &self.object.metadata;
        match self.scope {
            Scope::Namespaced if !m.namespace.is_empty() => {
                format_compact!("{} {}/{}", self.object.kind, m.namespace, m.name)
            }
            _ => format_compact!("{} {}", self.object.kind, m.name),
        }
    }

    /// `PropagationPolicy default/nginx (priority 10, matched by name)`.
    fn described(&self) -> String {
        match self.selects {
            Ok(m) => format!("{} (priority {}, {})", self.id(), self.priority, m.said()),
            Err(_) => format!("{} (priority {})", self.id(), self.priority),
        }
    }

    /// The detector's order among policies that select the template: a PropagationPolicy
    /// first, then the higher priority, the more precise match, the name first in order.
    fn rank(&self) -> (Scope, i32, Option<Match>, Reverse<&'o str>) {
        (
            self.scope,
            self.priority,
            self.selects.ok(),
            Reverse(self.object.metadata.name.as_str()),
        )
    }

    fn is(&self, claim: &Claim) -> bool {
        let m = &self.object.metadata;
        match claim {
            Claim::Namespaced { namespace, name } => {
                self.scope == Scope::Namespaced
                    && m.name == *name
                    && same_namespace(&m.namespace, namespace)
            }
            Claim::Cluster { name } => self.scope == Scope::Cluster && m.name == *name,
        }
    }

    /// Why this policy cannot take the template from `holder`, which claimed it; `None`
    /// when it preempts it.
    fn cannot_preempt(&self, holder: &Candidate<'_>) -> Option<String> {
        if !self.preempts {
            return Some("its preemption is Never (the default)".into());
        }
        if !self.names_it {
            return Some(
                "no resource selector of it names the template, and Karmada preempts only \
                 templates a selector names"
                    .into(),
            );
        }
        match (self.scope, holder.scope) {
            (Scope::Cluster, Scope::Namespaced) => {
                Some("a ClusterPropagationPolicy never preempts a PropagationPolicy".into())
            }
            (Scope::Namespaced, Scope::Cluster) => None,
            _ if self.priority > holder.priority => None,
            _ => Some(format!(
                "its priority {} is not above {}'s {}",
                self.priority,
                holder.id(),
                holder.priority
            )),
        }
    }
}

/// Why `loser` ranks below `winner` (both select the template), and what settled it.
fn below(winner: &Candidate<'_>, loser: &Candidate<'_>) -> (Decided, String) {
    if winner.scope != loser.scope {
        return (
            Decided::Namespaced,
            "a PropagationPolicy that selects the template comes before any \
             ClusterPropagationPolicy, whatever the priorities"
                .into(),
        );
    }
    if winner.priority != loser.priority {
        return (
            Decided::Priority,
            format!("priority {} is below {}", loser.priority, winner.priority),
        );
    }
    match (winner.selects, loser.selects) {
        (Ok(w), Ok(l)) if w != l => (
            Decided::Match,
            format!(
                "the same priority, and {} is less precise than {}",
                l.noun(),
                w.noun()
            ),
        ),
        _ => (
            Decided::NameOrder,
            format!(
                "the same priority and match, and {} comes first in name order",
                winner.object.metadata.name
            ),
        ),
    }
}

/// Which policy claimed the template, from its annotations.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Claim {
    Namespaced { namespace: String, name: String },
    Cluster { name: String },
}

impl Claim {
    fn of(annotations: &BTreeMap<String, String>) -> Option<Self> {
        let get = |k: &str| annotations.get(k).filter(|v| !v.is_empty());
        if let (Some(namespace), Some(name)) = (get(CLAIM_NAMESPACE), get(CLAIM_NAME)) {
            return Some(Claim::Namespaced {
                namespace: namespace.clone(),
                name: name.clone(),
            });
        }
        get(CLAIM_CLUSTER_NAME).map(|name| Claim::Cluster { name: name.clone() })
    }

    fn said(&self) -> String {
        match self {
            Claim::Namespaced { namespace, name } => {
                format!("PropagationPolicy {namespace}/{name}")
            }
            Claim::Cluster { name } => format!("ClusterPropagationPolicy {name}"),
        }
    }
}

/// The outcome: the policy's position among the objects and the report of the choice, or,
/// when several policies are given and none selects the template, two of them (the caller
/// asks to choose one by name).
pub enum Chosen<'o> {
    Policy(usize, &'o Object, PolicyChoice),
    None,
    Unselected(usize, &'o Object, &'o Object),
    /// `Choice::policy` names no policy given.
    Unknown,
}

/// Karmada's choice among `policies` (each with its position among the objects) for the
/// template `t`, or the policy named `named`.
pub fn choose<'o>(
    policies: &[(usize, &'o Object)],
    t: Option<&Template<'_>>,
    named: Option<&str>,
) -> Chosen<'o> {
    let all: Vec<Candidate<'o>> = policies
        .iter()
        .map(|&(at, o)| Candidate::of(at, o, t))
        .collect();
    let karmada = detector(&all, t);
    let Some(wanted) = named else {
        return match karmada {
            Some((w, decided, why)) => {
                done(&all, w, decided, why, |c| karmada_others(&all, w, c, t))
            }
            None => match all.as_slice() {
                [] => Chosen::None,
                [only] => done(
                    &all,
                    0,
                    Decided::OnlyGiven,
                    format!(
                        "{}: no policy selects the template ({}); the only policy given is \
                         used as it is",
                        only.id(),
                        only.selects.err().map_or("", Miss::said)
                    ),
                    |_| None,
                ),
                [a, b, ..] => Chosen::Unselected(b.at, a.object, b.object),
            },
        };
    };
    let Some(w) = all.iter().position(|c| c.object.metadata.name == wanted) else {
        return Chosen::Unknown;
    };
    let c = &all[w];
    let mut why = format!("{}: chosen by name", c.described());
    match (c.selects, &karmada) {
        (Err(miss), _) => why.push_str(&format!(
            ", though it does not select the template ({})",
            miss.said()
        )),
        (Ok(_), Some((k, _, _))) if *k == w => {
            why.push_str("; Karmada's detector would choose it too")
        }
        _ => {}
    }
    if let Some((k, _, _)) = karmada.as_ref().filter(|(k, _, _)| *k != w) {
        why.push_str(&format!("; Karmada's detector would use {}", all[*k].id()));
    }
    let karmada_pick = karmada.as_ref().map(|(k, _, _)| *k);
    done(&all, w, Decided::Named, why, |o| {
        Some(
            match (Some(o.at) == karmada_pick.map(|k| all[k].at), o.selects) {
                (true, _) => "Karmada's detector would use it; another was chosen by name".into(),
                (false, Err(miss)) => miss.said().into(),
                (false, Ok(_)) => "another was chosen by name".into(),
            },
        )
    })
}

/// The report for `all[w]`, each other policy's reason given by `why_not` (`None`: it does
/// not select the template, said as such).
fn done<'o>(
    all: &[Candidate<'o>],
    w: usize,
    decided: Decided,
    why: String,
    why_not: impl Fn(&Candidate<'o>) -> Option<String>,
) -> Chosen<'o> {
    let others = all
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != w)
        .map(|(_, c)| NotUsed {
            policy: c.id(),
            why: why_not(c)
                .unwrap_or_else(|| c.selects.err().map_or("not used", Miss::said).into()),
        })
        .collect();
    let c = &all[w];
    Chosen::Policy(
        c.at,
        c.object,
        PolicyChoice {
            policy: c.id(),
            decided,
            why,
            others,
        },
    )
}

/// The detector's choice: the winner's position in `all`, what settled it and why.
fn detector(all: &[Candidate<'_>], t: Option<&Template<'_>>) -> Option<(usize, Decided, String)> {
    let selecting = || all.iter().enumerate().filter(|(_, c)| c.selects.is_ok());
    let claim = t.and_then(|t| Claim::of(t.annotations));
    let holder = claim
        .as_ref()
        .and_then(|claim| selecting().find(|(_, c)| c.is(claim)));
    if let Some((h, holder)) = holder {
        let preemptor = selecting()
            .filter(|&(k, c)| k != h && c.cannot_preempt(holder).is_none())
            .max_by_key(|(_, c)| c.rank());
        return Some(match preemptor {
            None => (
                h,
                Decided::Claimed,
                format!(
                    "{} claimed the template (its annotations say so) and no policy preempts it",
                    holder.described()
                ),
            ),
            Some((p, c)) => (
                p,
                Decided::Preemption,
                format!(
                    "{} preempts {}, which claimed the template: {} (policy preemption is \
                     an alpha feature, on with the PropagationPolicyPreemption feature gate)",
                    c.described(),
                    holder.described(),
                    match (c.scope, holder.scope) {
                        (Scope::Namespaced, Scope::Cluster) => String::from(
                            "a PropagationPolicy with preemption Always preempts any \
                             ClusterPropagationPolicy",
                        ),
                        _ => format!(
                            "preemption Always and priority {} above {}",
                            c.priority, holder.priority
                        ),
                    }
                ),
            ),
        });
    }
    let (w, winner) = selecting().max_by_key(|(_, c)| c.rank())?;
    let runner_up = selecting()
        .filter(|&(k, _)| k != w)
        .max_by_key(|(_, c)| c.rank());
    let (decided, why) = match runner_up {
        None => (
            Decided::Alone,
            format!(
                "{}: the only policy that selects the template",
                winner.described()
            ),
        ),
        Some((_, r)) => {
            let (decided, reason) = below(winner, r);
            (
                decided,
                format!("{} over {}: {reason}", winner.described(), r.described()),
            )
        }
    };
    let mut why = why;
    match &claim {
        Some(claim) if all.iter().any(|c| c.is(claim)) => why.push_str(&format!(
            " ({} claimed the template but no longer selects it, so the claim is released)",
            claim.said()
        )),
        Some(claim) => why.push_str(&format!(
            " ({} claimed the template but is not among the objects)",
            claim.said()
        )),
        None => {}
    }
    Some((w, decided, why))
}

/// Why a policy `c` is not Karmada's choice `all[w]`.
fn karmada_others(
    all: &[Candidate<'_>],
    w: usize,
    c: &Candidate<'_>,
    t: Option<&Template<'_>>,
) -> Option<String> {
    c.selects.ok()?;
    let winner = &all[w];
    let claim = t.and_then(|t| Claim::of(t.annotations));
    let holder = claim
        .as_ref()
        .and_then(|claim| all.iter().find(|h| h.selects.is_ok() && h.is(claim)));
    Some(match holder {
        Some(h) if core::ptr::eq(h, c) => {
            format!("claimed the template; preempted by {}", winner.id())
        }
        Some(h) => match c.cannot_preempt(h) {
            Some(why) => format!("does not preempt {}: {why}", h.id()),
            None => format!("also preempts {}, but {}", h.id(), below(winner, c).1),
        },
        None => below(winner, c).1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selector::label::LabelSelector;

    fn template<'a>(labels: &'a Labels, annotations: &'a BTreeMap<String, String>) -> Template<'a> {
        Template {
            api_version: "apps/v1",
            kind: "Deployment",
            namespace: "default",
            name: "nginx",
            labels: Some(labels),
            annotations,
        }
    }

    fn selector(name: &str, labels: Option<(&str, &str)>) -> ResourceSelector {
        ResourceSelector {
            api_version: "apps/v1".into(),
            kind: "Deployment".into(),
            name: name.into(),
            label_selector: labels.map(|(k, v)| LabelSelector {
                match_labels: [(k.into(), v.into())].into(),
                ..LabelSelector::default()
            }),
            ..ResourceSelector::default()
        }
    }

    #[test]
    fn a_selector_matches_as_karmadas_resource_selector_priority() {
        let labels: Labels = [("app".into(), "nginx".into())].into();
        let none = BTreeMap::new();
        let t = template(&labels, &none);
        assert_eq!(t.matched(&selector("", None), ""), Some(Match::All));
        let by_label = selector("", Some(("app", "nginx")));
        assert_eq!(t.matched(&by_label, ""), Some(Match::LabelSelector));
        assert_eq!(t.matched(&selector("", Some(("app", "x"))), ""), None);
        // A name decides alone: the label selector beside it is not read.
        let named = selector("nginx", Some(("app", "x")));
        assert_eq!(t.matched(&named, ""), Some(Match::Name));
        assert_eq!(
            t.matched(&selector("other", Some(("app", "nginx"))), ""),
            None
        );
        // Another namespace, kind or version: no match; an empty namespace is `default`.
        assert_eq!(t.matched(&selector("nginx", None), "team-b"), None);
        let mut other_kind = selector("nginx", None);
        other_kind.kind = "StatefulSet".into();
        assert_eq!(t.matched(&other_kind, ""), None);
        let unplaced = Template { namespace: "", ..t };
        assert_eq!(
            unplaced.matched(&selector("nginx", None), "default"),
            Some(Match::Name)
        );
        // An invalid label selector matches nothing, even labels equal to it.
        let odd: Labels = [("app".into(), "not a value!".into())].into();
        let invalid = selector("", Some(("app", "not a value!")));
        assert_eq!(template(&odd, &none).matched(&invalid, ""), None);
    }

    #[test]
    fn a_claim_is_read_from_the_annotations() {
        let pp: BTreeMap<String, String> = [
            (CLAIM_NAMESPACE.into(), "default".into()),
            (CLAIM_NAME.into(), "a".into()),
        ]
        .into();
        assert_eq!(
            Claim::of(&pp),
            Some(Claim::Namespaced {
                namespace: "default".into(),
                name: "a".into()
            })
        );
        let cpp: BTreeMap<String, String> = [(CLAIM_CLUSTER_NAME.into(), "c".into())].into();
        assert_eq!(Claim::of(&cpp), Some(Claim::Cluster { name: "c".into() }));
        let half: BTreeMap<String, String> = [(CLAIM_NAME.into(), "a".into())].into();
        assert_eq!(Claim::of(&half), None);
    }
}
