//! Evenness over seeds: one Karmada scenario scheduled under many seeds, and per cluster how
//! many replicas it received and how often a remainder replica went to it. This makes the
//! remainder-method proposal's claim visible (docs/rules/karmada.md §2-3, "divide replicas by static
//! weight evenly"): ties for the remainder are broken by a seeded random order, so over many
//! seeds the tied clusters share the remainder evenly, while name order always favours the
//! same cluster and Webster's tie order is fixed by the UID.
//!
//! The work can be split: [`Evenness::run`] over consecutive seed ranges adds up to the same
//! tally as one run over the whole range (a page runs it in chunks to stay responsive).

use crate::Name;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::ops::Range;

use serde::Serialize;

use super::karmada;
use super::Scenario;
use crate::division::method::DivisionTrace;
use crate::division::remainder::OrderReason;
use crate::error::{Error, Result};
use crate::names::NameIndex;

/// One cluster's tally.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Tally {
    pub name: Name,
    /// Σ replicas over the runs.
    pub replicas: u64,
    /// Remainder replicas received over the runs (floor-plus-remainder methods).
    pub remainders: u64,
    /// Fewest and most replicas in one run.
    pub min: u64,
    pub max: u64,
    /// Divisions in which it was fully tied for a remainder replica: the clusters it ties with
    /// (equal weight and, for the remainder method, equal previous replicas) got some of them
    /// but not one each, so the seeded random order (or, for name order, the names) decided.
    pub contested: u64,
    /// Remainder replicas it won in those divisions.
    pub won: u64,
    /// What it could expect to win in those divisions if the order within the tie were fair
    /// (Σ replicas the tie won / the tie's size), in millionths.
    pub fair_millionths: u64,
    /// Divisions in which its weight group got some remainder replicas but not one each, and
    /// its previous replicas, not a tie, decided whether it got one (inertia).
    pub by_inertia: u64,
    /// Remainder replicas it kept by inertia in those divisions.
    pub kept: u64,
}

impl Tally {
    /// Its remainder replicas came by weight alone: it got some, and was never tied for one.
    pub fn by_weight_alone(&self) -> bool {
        self.remainders > 0 && self.contested == 0 && self.by_inertia == 0
    }

    /// Inertia alone decided its remainder replicas: its previous replicas placed it, and it
    /// was never fully tied for one.
    pub fn by_inertia_alone(&self) -> bool {
        self.by_inertia > 0 && self.contested == 0
    }

    /// The share of its contested divisions it won, and what a fair order gives.
    pub fn shares(&self) -> Option<(f64, f64)> {
        (self.contested > 0).then(|| {
            let n = self.contested as f64;
            (self.won as f64 / n, self.fair_millionths as f64 / 1e6 / n)
        })
    }
}

/// Tallies of every cluster, candidate order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Evenness {
    pub runs: u64,
    /// Runs in which a random choice decided something.
    pub random_runs: u64,
    pub targets: Vec<Tally>,
}

impl Evenness {
    /// An empty tally for the scenario's clusters (an eru scenario is an error: eru draws
    /// nothing at random).
    pub fn new(s: &Scenario) -> Result<Evenness> {
        // eru draws nothing at random: only Karmada scenarios have an evenness.
        let targets = s.family()?.karmada("evenness over seeds")?;
        Ok(Evenness {
            runs: 0,
            random_runs: 0,
            targets: targets
                .iter()
                .map(|t| Tally {
                    name: t.name.clone(),
                    replicas: 0,
                    remainders: 0,
                    min: u64::MAX,
                    max: 0,
                    contested: 0,
                    won: 0,
                    fair_millionths: 0,
                    by_inertia: 0,
                    kept: 0,
                })
                .collect(),
        })
    }

    /// Schedule `s` once per seed in `seeds` and add the results.
    pub fn run(&mut self, s: &Scenario, seeds: Range<u64>) -> Result<()> {
        let targets = s.family()?.karmada("evenness over seeds")?;
        if targets.len() != self.targets.len() {
            return Err(Error::Input {
                field: "clusters".into(),
                code: crate::error::ErrorCode::InvalidInput,
                reason: "the clusters changed between runs of one tally".into(),
            });
        }
        let index = NameIndex::new(targets.iter().map(|t| t.name.as_str()));
        let mut got = alloc::vec![0u64; targets.len()];
        let tallies = &mut self.targets;
        let (runs, random_runs) = (&mut self.runs, &mut self.random_runs);
        karmada::per_seed(s, targets, seeds, |outcome| {
            got.iter_mut().for_each(|g| *g = 0);
            for a in &outcome.assignment {
                if let Some(i) = index.get(a.name.as_str()) {
                    got[i] = a.replicas;
                }
            }
            for d in &outcome.trace.divisions {
                let ties = ties(d, &index, got.len());
                // Per weight: members, and how many of them got a remainder replica.
                let mut groups: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
                for e in &d.entries {
                    let g = groups.entry(e.weight).or_default();
                    g.0 += 1;
                    g.1 += u64::from(e.got_remainder);
                }
                for e in &d.entries {
                    let Some(i) = index.get(e.cluster.as_str()) else {
                        continue;
                    };
                    let t = &mut tallies[i];
                    let got = u64::from(e.got_remainder);
                    t.remainders += got;
                    let split = |(members, winners): (u64, u64)| winners > 0 && winners < members;
                    if let Some(tie) = ties[i].filter(|&tie| split(tie)) {
                        t.contested += 1;
                        t.won += got;
                        t.fair_millionths += tie.1 * 1_000_000 / tie.0;
                    } else if groups.get(&e.weight).copied().is_some_and(split) {
                        t.by_inertia += 1;
                        t.kept += got;
                    }
                }
            }
            for (t, &g) in tallies.iter_mut().zip(&got) {
                t.replicas = t.replicas.saturating_add(g);
                t.min = t.min.min(g);
                t.max = t.max.max(g);
            }
            *runs += 1;
            *random_runs += u64::from(outcome.random_decided);
        })
    }
}

/// Per cluster (by `index`, of `n`), the full tie it belongs to in division `d`: (members,
/// how many of them got a remainder replica). A full tie is a run of the remainder order
/// joined by a tie-breaking reason (the seeded random order, or names); Webster's division
/// has no order, and its ties are by weight (the UID orders them).
fn ties(d: &DivisionTrace, index: &NameIndex<'_>, n: usize) -> Vec<Option<(u64, u64)>> {
    let mut run_of: Vec<Option<usize>> = alloc::vec![None; n];
    let mut runs: Vec<(u64, u64)> = Vec::new();
    if d.order.is_empty() {
        let mut weights: BTreeMap<u64, usize> = BTreeMap::new();
        for e in &d.entries {
            let next = weights.len();
            let run = *weights.entry(e.weight).or_insert(next);
            if let Some(i) = index.get(e.cluster.as_str()) {
                run_of[i] = Some(run);
            }
        }
        runs.resize(weights.len(), (0, 0));
    } else {
        let mut joined = false;
        for step in &d.order {
            if !joined {
                runs.push((0, 0));
            }
            if let Some(i) = index.get(step.cluster.as_str()) {
                run_of[i] = Some(runs.len() - 1);
            }
            joined = matches!(step.reason, OrderReason::Random | OrderReason::Name);
        }
    }
    for e in &d.entries {
        let run = index.get(e.cluster.as_str()).and_then(|i| run_of[i]);
        if let Some(run) = run.and_then(|r| runs.get_mut(r)) {
            run.0 += 1;
            run.1 += u64::from(e.got_remainder);
        }
    }
    run_of
        .iter()
        .map(|r| r.and_then(|r| runs.get(r).copied()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::from_json;

    fn seven(method: &str) -> Scenario {
        from_json(&alloc::format!(
            r#"{{"version":1,"clusters":[{{"name":"member1","weight":2}},{{"name":"member2","weight":1}},
               {{"name":"member3","weight":1}}],"workload":{{"replicas":7}},"policy":{{"method":"{method}"}}}}"#
        ))
        .unwrap()
    }

    #[test]
    fn remainder_ties_are_shared_and_name_order_is_not() {
        let s = seven("remainder");
        let mut e = Evenness::new(&s).unwrap();
        e.run(&s, 0..400).unwrap();
        assert_eq!(e.runs, 400);
        let [m1, m2, m3] = &e.targets[..] else {
            panic!()
        };
        // Floor shares 3:1:1, remainder 2: member1 first by weight, then member2 or member3.
        assert_eq!(m1.remainders, 400);
        assert_eq!(m2.remainders + m3.remainders, 400);
        assert!(m2.remainders > 150 && m3.remainders > 150, "{m2:?} {m3:?}");
        assert_eq!((m1.min, m1.max, m2.min, m2.max), (4, 4, 1, 2));
        assert_eq!(e.random_runs, 400);
        // member1's remainder replica is its weight's; member2 and member3 tie for the other,
        // a fair draw giving each half of the 400.
        assert!(m1.by_weight_alone() && m1.shares().is_none());
        for m in [m2, m3] {
            assert_eq!((m.contested, m.fair_millionths), (400, 200_000_000));
            let (won, fair) = m.shares().unwrap();
            assert_eq!(fair, 0.5);
            assert!((won - 0.5).abs() < 0.1, "{won}");
        }

        let s = seven("name-order");
        let mut e = Evenness::new(&s).unwrap();
        e.run(&s, 0..50).unwrap();
        assert_eq!(e.targets[1].remainders, 50);
        assert_eq!(e.targets[2].remainders, 0);
        // Name order: member2 wins every tie, twice what a fair draw gives.
        assert_eq!(e.targets[1].shares(), Some((1.0, 0.5)));
        assert_eq!(e.targets[2].shares(), Some((0.0, 0.5)));
        assert_eq!(e.random_runs, 0);
    }

    #[test]
    fn inertia_is_kept_apart_from_the_ties_a_draw_decides() {
        // Floor shares 1 each, 2 left over: member1 is first by its previous replicas, then
        // member2 and member3 tie (one previous replica each) for the other, and member4
        // (none before) comes last by its previous replicas, not by a draw.
        let s: Scenario = from_json(
            r#"{"version":1,"clusters":[{"name":"member1"},{"name":"member2"},{"name":"member3"},
               {"name":"member4"}],"workload":{"replicas":6},"policy":{"method":"remainder"},
               "previous":{"member1":2,"member2":1,"member3":1}}"#,
        )
        .unwrap();
        let mut e = Evenness::new(&s).unwrap();
        e.run(&s, 0..200).unwrap();
        let [m1, m2, m3, m4] = &e.targets[..] else {
            panic!()
        };
        assert_eq!(e.random_runs, 200);
        assert_eq!(
            (m1.contested, m1.by_inertia, m1.kept),
            (0, 200, 200),
            "{m1:?}"
        );
        assert_eq!(
            (m4.contested, m4.by_inertia, m4.kept),
            (0, 200, 0),
            "{m4:?}"
        );
        assert!(m1.by_inertia_alone() && m4.by_inertia_alone());
        assert!(!m1.by_weight_alone() && m1.shares().is_none());
        for m in [m2, m3] {
            assert_eq!((m.contested, m.by_inertia), (200, 0), "{m:?}");
            assert_eq!(m.shares().unwrap().1, 0.5);
        }
        assert_eq!(m2.won + m3.won, 200);
    }

    #[test]
    fn chunks_add_up_to_one_run() {
        let s = seven("remainder");
        let mut whole = Evenness::new(&s).unwrap();
        whole.run(&s, 0..90).unwrap();
        let mut parts = Evenness::new(&s).unwrap();
        for start in (0..90).step_by(30) {
            parts.run(&s, start..start + 30).unwrap();
        }
        assert_eq!(whole, parts);
    }

    #[test]
    fn eru_is_refused() {
        let s: Scenario =
            from_json(r#"{"version":1,"nodes":[{"name":"n"}],"workload":{"count":1}}"#).unwrap();
        assert_eq!(Evenness::new(&s).unwrap_err().code(), "invalid_input");
    }
}
