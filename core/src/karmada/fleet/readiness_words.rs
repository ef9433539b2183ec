//! Failover readiness in words (docs/rules/fleet.md §34.1): the answer in one sentence, why
//! replicas are left unplaced, a row's harm in a few words, and how the fleet after a change
//! compares with the fleet before it, said once here for every reader of a readiness report
//! (the command's table, the fleet view), as [`super::words`] says the plan.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::readiness::{Each, Row, Summary};
use super::words::counted;

/// `cluster`, `zone`, `region`.
pub fn each_word(each: Each) -> &'static str {
    match each {
        Each::Cluster => "cluster",
        Each::Zone => "zone",
        Each::Region => "region",
    }
}

/// The answer in one sentence: how many failures were planned, how many harm, the worst; or
/// why there is nothing to fail (`select`: the label selector of the clusters that fail).
pub fn summary(each: Each, select: Option<&str>, s: &Summary) -> String {
    let what = each_word(each);
    let Some(worst) = &s.worst else {
        return match (each, select) {
            (Each::Cluster, None) => "No cluster to fail.".into(),
            (Each::Cluster, Some(sel)) => format!("No cluster to fail: {sel} selects none."),
            (_, None) => format!("No {what} to fail: no Cluster states one."),
            (_, Some(sel)) => {
                format!("No {what} to fail: no Cluster that {sel} selects states one.")
            }
        };
    };
    let planned = counted(s.failures as i64, &format!("{what} failure"));
    match s.harmful {
        0 => format!(
            "{planned} planned: none leaves a replica unplaced or lost, or a cluster \
             overcommitted."
        ),
        n => format!(
            "{planned} planned: {n} {} replicas unplaced or lost, or a cluster overcommitted; \
             the worst is {worst}.",
            if n == 1 { "leaves" } else { "leave" }
        ),
    }
}

/// Replicas left unplaced for one reason: `2 replicas unplaced (1 binding): ` and `why`, the
/// reason in words ([`super::words::condition_words`] for Karmada's condition).
pub fn unplaced(replicas: u64, bindings: usize, why: &str) -> String {
    format!(
        "{} unplaced ({}): {why}",
        counted(replicas as i64, "replica"),
        counted(bindings as i64, "binding")
    )
}

/// A row's harm in a few words: `5 lost, 2 unplaced`, or `-` when it loses and leaves
/// unplaced no replica.
pub fn harm(row: &Row) -> String {
    harm_of(row.lost, row.unplaced)
}

pub(crate) fn harm_of(lost: u64, unplaced: u64) -> String {
    let mut parts = Vec::new();
    if lost > 0 {
        parts.push(format!("{lost} lost"));
    }
    if unplaced > 0 {
        parts.push(format!("{unplaced} unplaced"));
    }
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(", ")
    }
}

/// The fleet after a change against the fleet before it: the failures that harm more, then
/// those that harm less (each list in name order).
pub fn compared(worse: &[String], better: &[String]) -> String {
    let mut s = if worse.is_empty() {
        String::from("No failure harms more after the change than before.")
    } else {
        format!(
            "Less resilient after the change: {} {} more than before.",
            worse.join(", "),
            if worse.len() == 1 { "harms" } else { "harm" }
        )
    };
    if !better.is_empty() {
        s.push_str(&format!(
            " More resilient: {} {} less.",
            better.join(", "),
            if better.len() == 1 { "harms" } else { "harm" }
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn sum(failures: usize, harmful: usize, worst: Option<&str>) -> Summary {
        Summary {
            failures,
            harmful,
            worst: worst.map(String::from),
        }
    }

    // The answer's sentence: plurals of failures and of the verb, the worst named only when
    // some failure harms, and why nothing fails when nothing does.
    #[test]
    fn the_answer_is_one_sentence() {
        assert_eq!(
            summary(Each::Cluster, None, &sum(4, 2, Some("a1"))),
            "4 cluster failures planned: 2 leave replicas unplaced or lost, or a cluster \
             overcommitted; the worst is a1."
        );
        assert_eq!(
            summary(Each::Zone, None, &sum(1, 1, Some("a"))),
            "1 zone failure planned: 1 leaves replicas unplaced or lost, or a cluster \
             overcommitted; the worst is a."
        );
        assert_eq!(
            summary(Each::Region, None, &sum(2, 0, Some("east"))),
            "2 region failures planned: none leaves a replica unplaced or lost, or a cluster \
             overcommitted."
        );
        assert_eq!(
            summary(Each::Zone, None, &sum(0, 0, None)),
            "No zone to fail: no Cluster states one."
        );
        assert_eq!(
            summary(Each::Region, Some("tier=prod"), &sum(0, 0, None)),
            "No region to fail: no Cluster that tier=prod selects states one."
        );
        assert_eq!(
            summary(Each::Cluster, Some("tier=prod"), &sum(0, 0, None)),
            "No cluster to fail: tier=prod selects none."
        );
    }

    // Each group of unplaced replicas is said with its reason in words, Karmada's condition
    // and message included, the most replicas first; the row's harm counts them.
    #[test]
    fn why_replicas_are_unplaced_is_said_per_reason() {
        use super::super::entry::{BindingKind, Condition, Id};
        use super::super::plan::Outcome;
        use super::super::readiness::{Failure, View};
        use super::super::triggers::Trigger;
        use alloc::collections::BTreeMap;
        let id = |name: &str| Id {
            kind: BindingKind::ResourceBinding,
            namespace: "shop".into(),
            name: name.into(),
        };
        let on = |n: i64| BTreeMap::from([(String::from("m1"), n)]);
        let (web, db, api) = (id("web"), id("db"), id("api"));
        let (three, one, two, none) = (on(3), on(1), on(2), BTreeMap::new());
        let unfit = Outcome::Unschedulable {
            condition: Condition::NoClusterFit("0/3 clusters are available".into()),
        };
        let fewer = Outcome::Changed {
            trigger: Trigger::ReplicasChanged,
        };
        let views = [
            View {
                id: &web,
                before: three.clone().into(),
                after: none.clone().into(),
                outcome: Some(&unfit),
            },
            View {
                id: &db,
                before: one.clone().into(),
                after: none.clone().into(),
                outcome: Some(&Outcome::Evicted),
            },
            View {
                id: &api,
                before: two.clone().into(),
                after: one.clone().into(),
                outcome: Some(&fewer),
            },
        ];
        let failure = Failure {
            name: "m2".into(),
            clusters: vec!["m2".into()],
        };
        let row = Row::of_views(failure, views.into_iter(), Vec::new(), 0);
        let said: Vec<&str> = row.unplaced_by.iter().map(|u| u.said.as_str()).collect();
        assert_eq!(
            said,
            vec![
                "3 replicas unplaced (1 binding): no cluster fits (Scheduled=False, \
                 NoClusterFit): 0/3 clusters are available",
                "1 replica unplaced (1 binding): evicted by the taint manager (a NoExecute \
                 taint it does not tolerate); the scheduler does not place it again",
                "1 replica unplaced (1 binding): scheduled again to fewer replicas",
            ]
        );
        assert_eq!(row.harm, "5 unplaced");
        assert_eq!(harm(&row), row.harm);
    }

    #[test]
    fn harm_and_comparison_are_said() {
        assert_eq!(harm_of(5, 2), "5 lost, 2 unplaced");
        assert_eq!(harm_of(0, 2), "2 unplaced");
        assert_eq!(harm_of(0, 0), "-");
        assert_eq!(
            unplaced(1, 1, "not scheduled yet"),
            "1 replica unplaced (1 binding): not scheduled yet"
        );
        assert_eq!(
            unplaced(3, 2, "scheduled again to fewer replicas"),
            "3 replicas unplaced (2 bindings): scheduled again to fewer replicas"
        );
        let s = |v: &[&str]| v.iter().map(|x| String::from(*x)).collect::<Vec<_>>();
        assert_eq!(
            compared(&[], &[]),
            "No failure harms more after the change than before."
        );
        assert_eq!(
            compared(&s(&["a1", "b2"]), &s(&["east"])),
            "Less resilient after the change: a1, b2 harm more than before. More resilient: \
             east harms less."
        );
        assert_eq!(
            compared(&s(&["a1"]), &[]),
            "Less resilient after the change: a1 harms more than before."
        );
    }
}
