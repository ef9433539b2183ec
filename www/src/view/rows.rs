//! An outcome as rows, the one reading that the result table, the SVG bars and the Markdown
//! copy all show: per target what it held, what it gets, the change, and what each estimator
//! said it can take.

use std::collections::HashMap;

use allot_core::eru::Capacity;
use allot_core::estimate::combine::Source;
use allot_core::estimate::MAX_INT32;
use allot_core::scenario::outcome::{EruOutcome, KarmadaOutcome};
use allot_core::scenario::Scenario;

/// How a target's replicas changed against the previous result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Grew(u64),
    Shrank(u64),
    Unchanged,
}

impl Change {
    pub fn of(before: u64, after: u64) -> Change {
        match after.cmp(&before) {
            core::cmp::Ordering::Greater => Change::Grew(after - before),
            core::cmp::Ordering::Less => Change::Shrank(before - after),
            core::cmp::Ordering::Equal => Change::Unchanged,
        }
    }

    /// `grew`, `shrank`, `unchanged`.
    pub fn word(self) -> &'static str {
        match self {
            Change::Grew(_) => "grew",
            Change::Shrank(_) => "shrank",
            Change::Unchanged => "unchanged",
        }
    }

    /// `+2`, `−1`, `=`.
    pub fn sign(self) -> String {
        match self {
            Change::Grew(n) => format!("+{n}"),
            Change::Shrank(n) => format!("−{n}"),
            Change::Unchanged => "=".into(),
        }
    }
}

/// One target of a Karmada outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub name: String,
    pub previous: u64,
    pub replicas: u64,
    pub change: Change,
    /// The combined estimate and who set it (`None`: not a candidate any more).
    pub available: Option<i64>,
    pub source: Option<Source>,
    pub given: Option<i64>,
    pub general: Option<i64>,
    pub accurate: Option<u64>,
}

/// Who set a cluster's combined estimate, in words.
pub fn describe(source: &Source) -> String {
    match source {
        Source::Estimator { estimator } => format!("the {estimator} estimator"),
        Source::Requested => {
            "no estimator answered (no resource summary, model, nodes or given figure): \
             Karmada takes the requested replicas as what the cluster can take"
                .into()
        }
        Source::NotAsked => "not asked".into(),
    }
}

impl Row {
    /// The "available" cell as both the page and the Markdown write it: `not estimated` when
    /// no estimator answered (the division takes the requested replicas), `–` for a cluster
    /// that is no longer a candidate, else the estimate.
    pub fn available_text(&self) -> String {
        match (&self.source, self.available) {
            (Some(Source::Requested), _) => "not estimated".into(),
            (_, None) => "–".into(),
            (_, Some(n)) => amount(n),
        }
    }
}

/// Display of an estimate (MaxInt32 is "no limit" in Karmada's estimators).
pub fn amount(n: impl Into<i128>) -> String {
    let n: i128 = n.into();
    if n >= i128::from(MAX_INT32) {
        "∞".into()
    } else {
        n.to_string()
    }
}

/// Karmada: one row per candidate, then one per previous placement that is no longer one.
pub fn karmada(s: &Scenario, o: &KarmadaOutcome) -> Vec<Row> {
    let assigned = replicas_by_name(o);
    let got = |name: &str| assigned.get(name).copied().unwrap_or(0);
    let held = |name: &str| s.previous.get(name).map_or(0, |&n| n.max(0) as u64);
    let mut rows: Vec<Row> = o
        .targets
        .iter()
        .map(|t| Row {
            name: t.name.to_string(),
            previous: held(&t.name),
            replicas: got(&t.name),
            change: Change::of(held(&t.name), got(&t.name)),
            available: Some(t.available_replicas),
            source: Some(t.source.clone()),
            given: t.given,
            general: t.general.as_ref().map(|g| g.replicas),
            accurate: t.accurate.as_ref().and_then(|a| a.replicas),
        })
        .collect();
    for (name, &n) in &s.previous {
        if !o.targets.iter().any(|t| t.name == name) {
            let previous = n.max(0) as u64;
            rows.push(Row {
                name: name.clone(),
                previous,
                replicas: 0,
                change: Change::of(previous, 0),
                available: None,
                source: None,
                given: None,
                general: None,
                accurate: None,
            });
        }
    }
    rows
}

/// The assignment by cluster name.
pub fn replicas_by_name(o: &KarmadaOutcome) -> HashMap<&str, u64> {
    o.assignment
        .iter()
        .map(|a| (a.name.as_str(), a.replicas))
        .collect()
}

/// One node of an eru outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeRow {
    pub name: String,
    /// Instances already there.
    pub before: u64,
    /// New instances (`None`: not in the deploy map).
    pub new: Option<u64>,
    pub capacity: Capacity,
    pub bound_by: Option<String>,
}

impl NodeRow {
    pub fn after(&self) -> u64 {
        self.before + self.new.unwrap_or(0)
    }
}

pub fn capacity(c: Capacity) -> String {
    match c {
        Capacity::Finite(n) => n.to_string(),
        Capacity::Unlimited => "∞".into(),
    }
}

/// eru: one row per node, input order.
pub fn eru(s: &Scenario, o: &EruOutcome) -> Vec<NodeRow> {
    let before: HashMap<&str, u64> = s
        .nodes
        .iter()
        .flatten()
        .map(|n| (n.name.as_str(), n.count))
        .collect();
    o.capacities
        .iter()
        .map(|c| NodeRow {
            name: c.name.clone(),
            before: before.get(c.name.as_str()).copied().unwrap_or(0),
            new: o.deploy.get(&c.name).copied(),
            capacity: c.capacity,
            bound_by: c.bound_by.map(String::from),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use allot_core::scenario::{from_json, schedule, Outcome};

    #[test]
    fn rows_show_previous_change_and_gone_clusters() {
        let s: Scenario = from_json(
            r#"{"version":1,"clusters":[{"name":"a","weight":2},{"name":"b","weight":1}],
                "workload":{"replicas":6},"previous":{"a":2,"b":2,"c":1},"seed":1}"#,
        )
        .unwrap();
        let Outcome::Karmada(o) = schedule(&s, 0).unwrap() else {
            panic!()
        };
        let rows = karmada(&s, &o);
        let total: u64 = rows.iter().map(|r| r.replicas).sum();
        assert_eq!(total, 6);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2].name, "c");
        assert_eq!(rows[2].change, Change::Shrank(1));
        for r in &rows[..2] {
            assert_eq!(r.change, Change::of(r.previous, r.replicas));
        }
        assert_eq!(Change::Grew(2).sign(), "+2");
        assert_eq!(amount(MAX_INT32), "∞");
    }
}
