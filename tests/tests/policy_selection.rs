//! Which policy propagates the template when several could (docs/rules/karmada.md §16.6):
//! the reference cases of Karmada's documentation (explicit priority; implicit priority, name
//! over label selector over an empty selector; the same priority; name order; a
//! PropagationPolicy before a ClusterPropagationPolicy; preemption of a claimed template),
//! each answered as documented, where the template goes, and the report saying which policy
//! won and why.

use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::Object;
use allot_core::kubernetes::policy::{Decided, CLAIM_CLUSTER_NAME, CLAIM_NAME, CLAIM_NAMESPACE};
use allot_core::scenario::objects::{import, Imported};
use allot_core::scenario::{schedule, Outcome};

fn read(file: &str) -> Vec<Object> {
    let path = format!(
        "{}/objects/policy-selection/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    allot_web::yaml::objects(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The base objects and a case's policies.
fn case(file: &str) -> Vec<Object> {
    let mut objects = read("base.yaml");
    objects.extend(read(file));
    objects
}

/// Objects given as YAML text after the base.
fn with(text: &str) -> Vec<Object> {
    let mut objects = read("base.yaml");
    objects.extend(allot_web::yaml::objects(text).expect("objects"));
    objects
}

fn imported(objects: &[Object], policy: Option<&str>) -> Imported {
    import(
        objects,
        &Choice {
            policy,
            ..Choice::default()
        },
    )
    .expect("imports")
}

/// Where the template's replicas go.
fn placed(i: &Imported) -> Vec<String> {
    let Outcome::Karmada(k) = schedule(&i.scenario, 0).expect("schedules") else {
        panic!("a Karmada scenario")
    };
    k.assignment.iter().map(|a| a.name.to_string()).collect()
}

/// The template annotated as claimed (`annotations`: key, value).
fn claimed(mut objects: Vec<Object>, annotations: &[(&str, &str)]) -> Vec<Object> {
    for o in objects.iter_mut().filter(|o| o.kind == "Deployment") {
        for (k, v) in annotations {
            o.metadata
                .annotations
                .insert((*k).to_string(), (*v).to_string());
        }
    }
    objects
}

fn claimed_by_pp(objects: Vec<Object>, name: &str) -> Vec<Object> {
    claimed(objects, &[(CLAIM_NAMESPACE, "default"), (CLAIM_NAME, name)])
}

fn claimed_by_cpp(objects: Vec<Object>, name: &str) -> Vec<Object> {
    claimed(objects, &[(CLAIM_CLUSTER_NAME, name)])
}

fn choice(i: &Imported) -> &allot_core::kubernetes::policy::PolicyChoice {
    i.report
        .policy
        .as_ref()
        .expect("the report says which policy")
}

/// The choice of the import: placed on `clusters` by `policy`, which won as `decided`.
#[track_caller]
fn won<'a>(
    i: &'a Imported,
    clusters: &[&str],
    policy: &str,
    decided: Decided,
) -> &'a allot_core::kubernetes::policy::PolicyChoice {
    assert_eq!(placed(i), clusters);
    let c = choice(i);
    assert_eq!(c.policy, policy);
    assert_eq!(c.decided, decided);
    c
}

fn why_not<'a>(i: &'a Imported, policy: &str) -> &'a str {
    &choice(i)
        .others
        .iter()
        .find(|o| o.policy == policy)
        .unwrap_or_else(|| panic!("{policy} among the others: {:?}", choice(i).others))
        .why
}

#[test]
fn the_highest_explicit_priority_wins() {
    let i = imported(&case("explicit-priority.yaml"), None);
    let c = won(
        &i,
        &["member1"],
        "PropagationPolicy default/by-label-priority-2",
        Decided::Priority,
    );
    assert_eq!(
        c.why,
        "PropagationPolicy default/by-label-priority-2 (priority 2, matched by a label selector) \
         over PropagationPolicy default/by-label-priority-1 (priority 1, matched by a label \
         selector): priority 1 is below 2"
    );
    assert_eq!(
        why_not(&i, "PropagationPolicy default/by-label-no-priority"),
        "priority 0 is below 2"
    );
}

#[test]
fn a_name_beats_a_label_selector_which_beats_an_empty_selector() {
    let i = imported(&case("implicit-priority.yaml"), None);
    let c = won(
        &i,
        &["member3"],
        "PropagationPolicy default/by-name",
        Decided::Match,
    );
    assert!(c.why.contains("(priority 0, matched by name) over PropagationPolicy default/by-label (priority 0, matched by a label selector)"), "{}", c.why);
    assert_eq!(
        why_not(&i, "PropagationPolicy default/every-deployment"),
        "the same priority, and a match by an empty selector is less precise than a match by name"
    );
}

#[test]
fn at_the_same_explicit_priority_the_more_precise_selector_wins() {
    let i = imported(&case("same-priority.yaml"), None);
    won(
        &i,
        &["member3"],
        "PropagationPolicy default/priority-3-by-name",
        Decided::Match,
    );
}

#[test]
fn at_the_same_priority_and_match_the_first_name_wins() {
    let i = imported(&case("name-order.yaml"), None);
    won(
        &i,
        &["member2"],
        "PropagationPolicy default/policy-a",
        Decided::NameOrder,
    );
    assert_eq!(
        why_not(&i, "PropagationPolicy default/policy-b"),
        "the same priority and match, and policy-a comes first in name order"
    );
}

#[test]
fn a_propagation_policy_comes_before_any_cluster_propagation_policy() {
    let i = imported(&case("namespaced-first.yaml"), None);
    let c = won(
        &i,
        &["member2"],
        "PropagationPolicy default/every-deployment",
        Decided::Namespaced,
    );
    assert!(
        c.why.starts_with(
            "PropagationPolicy default/every-deployment (priority 0, matched by an empty selector) \
             over ClusterPropagationPolicy cluster-wide (priority 100, matched by name)"
        ),
        "{}",
        c.why
    );
    assert_eq!(
        why_not(&i, "PropagationPolicy team-b/elsewhere"),
        "a PropagationPolicy selects only templates of its own namespace"
    );
    // Without the PropagationPolicy, the ClusterPropagationPolicy is the only one selecting.
    let objects: Vec<Object> = case("namespaced-first.yaml")
        .into_iter()
        .filter(|o| o.metadata.name != "every-deployment")
        .collect();
    let i = imported(&objects, None);
    assert_eq!(placed(&i), ["member1"]);
    assert_eq!(choice(&i).decided, Decided::Alone);
}

#[test]
fn a_claimed_template_is_preempted_by_a_higher_priority_policy_with_preemption_always() {
    let objects = claimed_by_pp(case("preemption.yaml"), "nginx-propagation");
    let i = imported(&objects, None);
    let c = won(
        &i,
        &["member3"],
        "PropagationPolicy default/nginx-propagation-preemption",
        Decided::Preemption,
    );
    assert!(c.why.contains("preempts PropagationPolicy default/nginx-propagation (priority 0, matched by name), which claimed the template"), "{}", c.why);
    assert_eq!(
        why_not(&i, "PropagationPolicy default/nginx-propagation"),
        "claimed the template; preempted by PropagationPolicy default/nginx-propagation-preemption"
    );
    // Unclaimed, the higher priority wins all the same, by priority.
    let i = imported(&case("preemption.yaml"), None);
    assert_eq!(choice(&i).decided, Decided::Priority);
}

#[test]
fn a_claimed_template_stays_with_its_policy_without_preemption() {
    // The claimant has the lower priority; the other does not preempt (Never by default).
    let never = case("preemption.yaml")
        .into_iter()
        .map(|mut o| {
            o.spec.preemption.clear();
            o
        })
        .collect();
    let i = imported(&claimed_by_pp(never, "nginx-propagation"), None);
    won(
        &i,
        &["member1", "member2"],
        "PropagationPolicy default/nginx-propagation",
        Decided::Claimed,
    );
    assert_eq!(
        why_not(&i, "PropagationPolicy default/nginx-propagation-preemption"),
        "does not preempt PropagationPolicy default/nginx-propagation: its preemption is Never (the default)"
    );
    // Preemption Always but a lower priority than the claimant's: no preemption either.
    let objects = claimed_by_pp(case("preemption.yaml"), "nginx-propagation-preemption");
    let objects: Vec<Object> = objects
        .into_iter()
        .map(|mut o| {
            if o.metadata.name == "nginx-propagation" {
                o.spec.preemption = "Always".into();
            }
            o
        })
        .collect();
    let i = imported(&objects, None);
    assert_eq!(choice(&i).decided, Decided::Claimed);
    assert!(why_not(&i, "PropagationPolicy default/nginx-propagation")
        .ends_with("its priority 0 is not above PropagationPolicy default/nginx-propagation-preemption's 3"));
}

const CPP_LOW: &str = "
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: cpp-low}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  priority: 1
  placement: {clusterAffinity: {clusterNames: [member1]}}
";

const CPP_HIGH_ALWAYS: &str = "
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: cpp-high}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, namespace: default, name: nginx}]
  priority: 50
  preemption: Always
  placement: {clusterAffinity: {clusterNames: [member2]}}
";

const PP_ALWAYS: &str = "
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: pp-always, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx}]
  preemption: Always
  placement: {clusterAffinity: {clusterNames: [member3]}}
";

#[test]
fn preemption_follows_pp_over_cpp_and_priority_within_a_kind() {
    // A higher-priority ClusterPropagationPolicy naming nginx preempts a lower one.
    let objects = claimed_by_cpp(with(&format!("{CPP_LOW}---{CPP_HIGH_ALWAYS}")), "cpp-low");
    let i = imported(&objects, None);
    assert_eq!(placed(&i), ["member2"]);
    assert_eq!(choice(&i).decided, Decided::Preemption);
    // A PropagationPolicy with preemption Always preempts any ClusterPropagationPolicy,
    // whatever its priority (0 here, against 50).
    let text = format!("{CPP_LOW}---{CPP_HIGH_ALWAYS}---{PP_ALWAYS}");
    let i = imported(&claimed_by_cpp(with(&text), "cpp-high"), None);
    assert_eq!(placed(&i), ["member3"]);
    assert_eq!(choice(&i).policy, "PropagationPolicy default/pp-always");
    assert!(
        choice(&i).why.contains(
            "a PropagationPolicy with preemption Always preempts any ClusterPropagationPolicy"
        ),
        "{}",
        choice(&i).why
    );
    // A ClusterPropagationPolicy never preempts a PropagationPolicy.
    let text = format!("{CPP_HIGH_ALWAYS}---{PP_ALWAYS}");
    let i = imported(&claimed_by_pp(with(&text), "pp-always"), None);
    assert_eq!(choice(&i).decided, Decided::Claimed);
    assert_eq!(
        why_not(&i, "ClusterPropagationPolicy cpp-high"),
        "does not preempt PropagationPolicy default/pp-always: a ClusterPropagationPolicy never preempts a PropagationPolicy"
    );
}

#[test]
fn only_a_selector_naming_the_template_preempts() {
    // cpp-low selects every Deployment: with preemption Always and a higher priority it still
    // does not take nginx from cpp-high, since Karmada preempts templates a selector names.
    let low = CPP_LOW
        .replace("priority: 1", "priority: 90\n  preemption: Always")
        .to_string();
    let high = CPP_HIGH_ALWAYS.replace("priority: 50", "priority: 5");
    let i = imported(
        &claimed_by_cpp(with(&format!("{low}---{high}")), "cpp-high"),
        None,
    );
    assert_eq!(choice(&i).policy, "ClusterPropagationPolicy cpp-high");
    assert!(why_not(&i, "ClusterPropagationPolicy cpp-low").contains("names the template"));
    // Unclaimed, the higher priority is used.
    let i = imported(&with(&format!("{low}---{high}")), None);
    assert_eq!(choice(&i).policy, "ClusterPropagationPolicy cpp-low");
}

#[test]
fn a_claim_by_a_policy_absent_or_no_longer_selecting_is_released() {
    let i = imported(&claimed_by_pp(case("name-order.yaml"), "gone"), None);
    assert_eq!(choice(&i).decided, Decided::NameOrder);
    assert!(choice(&i).why.ends_with(
        "(PropagationPolicy default/gone claimed the template but is not among the objects)"
    ));
    let text = "
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: other, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: other}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: mine, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx}]
  placement: {clusterAffinity: {clusterNames: [member2]}}
";
    let i = imported(&claimed_by_pp(with(text), "other"), None);
    assert_eq!(choice(&i).policy, "PropagationPolicy default/mine");
    assert!(choice(&i).why.contains("no longer selects it"));
}

#[test]
fn a_selector_name_decides_alone_and_deleting_policies_select_nothing() {
    // A name with a label selector that does not match: the name decides (Karmada ignores the
    // label selector then). A policy being deleted selects nothing, whatever its priority.
    let text = "
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: named, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx, labelSelector: {matchLabels: {app: other}}}]
  placement: {clusterAffinity: {clusterNames: [member2]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: leaving, namespace: default, deletionTimestamp: '2026-11-20T10:00:00Z'}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx}]
  priority: 9
  placement: {clusterAffinity: {clusterNames: [member1]}}
";
    let i = imported(&with(text), None);
    assert_eq!(placed(&i), ["member2"]);
    assert_eq!(choice(&i).decided, Decided::Alone);
    assert_eq!(
        why_not(&i, "PropagationPolicy default/leaving"),
        "being deleted: it selects nothing"
    );
}

#[test]
fn a_policy_chosen_by_name_overrides_and_says_when_it_selects_nothing() {
    let objects = with(&format!("{PP_ALWAYS}---{CPP_LOW}").replace("name: nginx}", "name: other}"));
    let i = imported(&objects, Some("pp-always"));
    let c = choice(&i);
    assert_eq!(c.decided, Decided::Named);
    assert_eq!(placed(&i), ["member3"]);
    assert!(c.why.contains("chosen by name, though it does not select the template (its resource selectors do not select the template)"), "{}", c.why);
    assert!(
        c.why
            .ends_with("Karmada's detector would use ClusterPropagationPolicy cpp-low"),
        "{}",
        c.why
    );
    assert_eq!(
        why_not(&i, "ClusterPropagationPolicy cpp-low"),
        "Karmada's detector would use it; another was chosen by name"
    );
    let e = import(
        &objects,
        &Choice {
            policy: Some("absent"),
            ..Choice::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.field(), "policy");
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// A policy: PropagationPolicy or not, priority, selector form (0 names nginx, 1 names
    /// another, 2 matches nginx's label, 3 another label, 4 every Deployment), preemption.
    type Drawn = (bool, i32, u8, bool);

    fn policy(k: usize, (namespaced, priority, form, always): Drawn) -> String {
        let selector = match form {
            0 => "name: nginx",
            1 => "name: other",
            2 => "labelSelector: {matchLabels: {app: nginx}}",
            3 => "labelSelector: {matchLabels: {app: other}}",
            _ => "",
        };
        let (kind, namespace, ns) = if namespaced {
            ("PropagationPolicy", ", namespace: default", "")
        } else {
            ("ClusterPropagationPolicy", "", ", namespace: default")
        };
        let preemption = if always { "Always" } else { "Never" };
        format!(
            "apiVersion: policy.karmada.io/v1alpha1\nkind: {kind}\n\
             metadata: {{name: p{k}{namespace}}}\n\
             spec:\n  resourceSelectors: [{{apiVersion: apps/v1, kind: Deployment{ns}, {selector}}}]\n  \
             priority: {priority}\n  preemption: {preemption}\n"
        )
    }

    fn objects(drawn: &[Drawn], order: &[usize], claim: Option<usize>) -> Vec<Object> {
        let text: Vec<String> = order.iter().map(|&k| policy(k, drawn[k])).collect();
        let objects = with(&text.join("---\n"));
        match claim.map(|k| (k, drawn[k].0)) {
            Some((k, true)) => claimed_by_pp(objects, &format!("p{k}")),
            Some((k, false)) => claimed_by_cpp(objects, &format!("p{k}")),
            None => objects,
        }
    }

    proptest! {
        /// The policy used does not depend on the order the policies are given in, and it
        /// selects the template whenever one does; a PropagationPolicy that selects it is used
        /// over any ClusterPropagationPolicy unless the template is claimed.
        #[test]
        fn the_choice_is_the_same_in_any_order(
            drawn in prop::collection::vec((any::<bool>(), 0i32..3, 0u8..5, any::<bool>()), 2..6),
            claim in prop::option::of(0usize..6),
        ) {
            let claim = claim.filter(|&k| k < drawn.len());
            let forward: Vec<usize> = (0..drawn.len()).collect();
            let backward: Vec<usize> = forward.iter().rev().copied().collect();
            let a = import(&objects(&drawn, &forward, claim), &Choice::default());
            let b = import(&objects(&drawn, &backward, claim), &Choice::default());
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    let (a, b) = (choice(&a), choice(&b));
                    prop_assert_eq!(&a.policy, &b.policy);
                    prop_assert_eq!(a.decided, b.decided);
                    let selects = |k: usize| !matches!(drawn[k].2, 1 | 3);
                    if (0..drawn.len()).any(selects) {
                        let k: usize = a.policy.rsplit('p').next().unwrap_or_default().parse().unwrap();
                        prop_assert!(selects(k), "{} does not select nginx", a.policy);
                        if claim.is_none() && (0..drawn.len()).any(|j| selects(j) && drawn[j].0) {
                            prop_assert!(drawn[k].0, "{} over a PropagationPolicy", a.policy);
                        }
                    }
                }
                (Err(a), Err(b)) => prop_assert_eq!(a.code(), b.code()),
                (a, b) => prop_assert!(false, "{:?} / {:?}", a.is_ok(), b.is_ok()),
            }
        }
    }
}
