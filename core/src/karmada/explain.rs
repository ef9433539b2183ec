//! Plain-sentence explanations of an assignment (docs/rules/README.md decision 7), built from the trace.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{DropReason, Mode, Placement, Strategy, Trace};
use crate::division::method::{DivisionTrace, Method};
use crate::division::remainder::OrderReason;

/// Above this many clusters, per-cluster sentences are summarised; the structured trace keeps
/// every cluster's detail.
pub const DETAILED_CLUSTERS: usize = 100;

/// The trace as sentences, in the order things happened.
pub fn explain(placement: &Placement, trace: &Trace) -> Vec<String> {
    let mut out = Vec::new();
    let method = match placement.method {
        Method::Webster => "Webster (Sainte-Laguë, as Karmada 1.16+)",
        Method::Remainder => "floor shares, remainder by weight, previous replicas, then random",
        Method::NameOrder => "floor shares, remainder by weight, then name",
    };
    out.push(match placement.strategy {
        Strategy::Duplicated => format!(
            "Duplicated: every cluster runs all {} replicas.",
            placement.replicas
        ),
        Strategy::StaticWeight => format!("Divided by static weights; method: {method}."),
        Strategy::DynamicWeight => format!("Divided by available replicas; method: {method}."),
        Strategy::Aggregated => {
            format!("Aggregated onto as few clusters as possible; method: {method}.")
        }
    });
    if placement.strategy == Strategy::StaticWeight {
        if placement.static_weights.is_none() {
            out.push("No weight rules: every cluster weighs 1.".into());
        } else {
            for w in trace.weights.iter().take(DETAILED_CLUSTERS) {
                // Rules are numbered from 1, as the page's rules table numbers them.
                let numbered: Vec<String> = w.rules.iter().map(|r| format!("#{}", r + 1)).collect();
                out.push(
                    match (placement.weights_are_cluster_weights, numbered.as_slice()) {
                        (true, []) => format!("{}: no weight of its own, so nothing.", w.cluster),
                        (true, _) => format!("{}: weight {} (its own).", w.cluster, w.weight),
                        (false, []) => format!("{}: no rule selects it.", w.cluster),
                        (false, [one]) => {
                            format!("{}: weight {} (rule {one}).", w.cluster, w.weight)
                        }
                        (false, many) => format!(
                            "{}: weight {} (the largest of rules {}).",
                            w.cluster,
                            w.weight,
                            many.join(", ")
                        ),
                    },
                );
            }
        }
    }
    if let Some(mode) = trace.mode {
        out.push(
            match mode {
                Mode::Fresh => "Fresh reschedule: each cluster weighs what it can take plus what it holds.",
                Mode::ScaleUp if placement.previous.values().all(|&n| n <= 0) => "First placement: nothing is placed yet, so the replicas are divided by what each cluster can take.",
                Mode::ScaleUp => "Scale up: previous placements stay; only the difference is divided by what each cluster can take.",
                Mode::ScaleDown => "Scale down: the new total is divided by the previous placements.",
                Mode::Unchanged => "Replicas unchanged: the previous placements stay as they are.",
            }
            .into(),
        );
    }
    for t in &trace.tiers {
        out.push(format!(
            "Overflow tier {} ({}): holds {}, takes {}.",
            t.order,
            t.clusters.join(", "),
            t.capacity,
            t.replicas
        ));
    }
    for d in &trace.divisions {
        division(d, &mut out);
    }
    for d in trace.dropped.iter().take(DETAILED_CLUSTERS) {
        // A rule (or the cluster's own weight) that selects it with weight 0 leaves it out too;
        // the sentence must not contradict the weight said above.
        let selected = || {
            trace
                .weights
                .iter()
                .any(|w| w.cluster == d.cluster && !w.rules.is_empty())
        };
        let why = match d.reason {
            DropReason::NoMatchingRule if selected() => "its weight is 0",
            DropReason::NoMatchingRule => "no static weight rule selects it",
            DropReason::NoLongerCandidate => "it held replicas but is no longer a candidate",
            DropReason::AggregatedCut => "the clusters before it already hold the replicas",
            DropReason::ZeroReplicas => "its share came to 0",
        };
        out.push(format!("{} gets nothing: {why}.", d.cluster));
    }
    out
}

fn division(d: &DivisionTrace, out: &mut Vec<String>) {
    if d.entries.len() > DETAILED_CLUSTERS {
        out.push(format!(
            "{} clusters share {} replicas by total weight {}; per-cluster shares are in the trace.",
            d.entries.len(),
            d.target,
            d.total_weight
        ));
    }
    for e in d.entries.iter().take(DETAILED_CLUSTERS) {
        let kept = if e.initial > 0 {
            format!(" (keeps {})", e.initial)
        } else {
            String::new()
        };
        out.push(format!(
            "{}: {} × {} / {} = {}.{:03} → {}{}{}.",
            e.cluster,
            d.target,
            e.weight,
            d.total_weight,
            e.floor_share,
            e.fraction_milli,
            e.floor_share,
            if e.added != e.floor_share {
                format!(", gets {}", e.added)
            } else {
                String::new()
            },
            kept
        ));
    }
    match d.method {
        Method::Webster => out.push(format!(
            "Webster hands out all {} {} by priority weight / (2·seats + 1); ties go to fewer seats, then name.",
            d.target,
            crate::text::plural(d.target, "seat", "seats")
        )),
        _ if d.remainder > 0 => {
            let order: Vec<String> = d
                .order
                .iter()
                // Only those who get one are named (each compared with the next in line).
                .take((d.remainder as usize).min(DETAILED_CLUSTERS))
                .map(|s| {
                    let why = match s.reason {
                        OrderReason::Weight => "higher weight than the next",
                        OrderReason::PreviousReplicas => "more previous replicas than the next",
                        OrderReason::Random => "tied with the next, random order",
                        OrderReason::Name => "same weight, name order",
                        OrderReason::Last => "last",
                    };
                    format!("{} ({why})", s.cluster)
                })
                .collect();
            out.push(format!(
                "The remainder of {} goes one each to {}.",
                d.remainder,
                order.join(", ")
            ));
        }
        _ => out.push("No remainder: the floor shares add up.".into()),
    }
}
