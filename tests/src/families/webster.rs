//! `webster.json`: raw Sainte-Laguë allocation (`kind: webster`) and
//! Dispenser.AllocateByWeight (`kind: dispenser`).

use serde_json::Value;

use allot_core::division::tie::{NameOrder, TieBreak};
use allot_core::division::webster::{allocate, Party};

use crate::compare::{assignment, check_assignment, Assignment};
use crate::Verdict;

pub fn run(case: &Value) -> Verdict {
    match case.get("kind").and_then(Value::as_str) {
        Some("webster") => raw(case),
        Some("dispenser") => dispenser(case),
        other => Verdict::Fail {
            expected: "kind webster or dispenser".into(),
            got: format!("{other:?}"),
        },
    }
}

fn tie(case: &Value) -> TieBreak {
    match case.get("tie_breaker").and_then(Value::as_str) {
        Some("custom_name_asc") => TieBreak::names_only(NameOrder::Ascending),
        Some("custom_name_desc") => TieBreak::names_only(NameOrder::Descending),
        _ => TieBreak::from_uid(case.get("uid").and_then(Value::as_str).unwrap_or("")),
    }
}

/// Parties: every voter in order, then initial-only parties.
fn parties<'a>(votes: &'a Assignment, initial: &'a Assignment) -> Vec<Party<'a>> {
    let mut parties: Vec<Party<'a>> = votes
        .iter()
        .map(|(name, &v)| Party {
            name,
            votes: v.max(0) as u64,
            initial: initial.get(name).copied().unwrap_or(0).max(0) as u64,
        })
        .collect();
    parties.extend(
        initial
            .iter()
            .filter(|(n, _)| !votes.contains_key(*n))
            .map(|(name, &s)| Party {
                name,
                votes: 0,
                initial: s.max(0) as u64,
            }),
    );
    parties
}

fn run_webster(
    seats: i64,
    votes: &Assignment,
    initial: &Assignment,
    tie: TieBreak,
) -> Result<Assignment, String> {
    let parties = parties(votes, initial);
    let result = allocate(seats.max(0) as u64, &parties, tie).map_err(|e| e.to_string())?;
    Ok(parties
        .iter()
        .zip(result)
        .map(|(p, s)| (p.name.to_string(), s as i64))
        .collect())
}

fn raw(case: &Value) -> Verdict {
    let votes = assignment(case.get("votes"));
    let initial = assignment(case.get("initial"));
    let seats = case.get("new_seats").and_then(Value::as_i64).unwrap_or(0);
    match run_webster(seats, &votes, &initial, tie(case)) {
        Ok(got) => check_assignment(case, &got, true),
        Err(e) => Verdict::Fail {
            expected: "a result".into(),
            got: e,
        },
    }
}

fn dispenser(case: &Value) -> Verdict {
    let weights = assignment(case.get("weights"));
    let init = assignment(case.get("init"));
    let n = case
        .get("num_replicas")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    // Dispenser.AllocateByWeight: nothing to add or no weight at all -> init unchanged.
    let got = if (n == 0 && !init.is_empty()) || weights.values().sum::<i64>() == 0 {
        Ok(init.clone())
    } else {
        run_webster(n, &weights, &init, tie(case))
    };
    match got {
        Ok(got) => check_assignment(
            case,
            &got,
            case.get("strict_zero_entries")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        ),
        Err(e) => Verdict::Fail {
            expected: "a result".into(),
            got: e,
        },
    }
}
