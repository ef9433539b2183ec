//! The fleet view's failover readiness (docs/rules/fleet.md §34): can the fleet lose any one
//! cluster, zone or region? Every failure planned as Down plans it, under the toolbar's
//! settings, one row per failure, worst first, as the core answers it.

use allot_core::karmada::fleet::readiness::{Each, Row};
use allot_core::kubernetes::readiness::Report;
use yew::prelude::*;

use super::{Ask, Model};

/// `cluster`, `zone`, `region`.
fn word(each: Each) -> &'static str {
    match each {
        Each::Cluster => "cluster",
        Each::Zone => "zone",
        Each::Region => "region",
    }
}

fn counted(n: usize, one: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// The answer in one sentence.
fn summary(r: &Report) -> String {
    let what = word(r.each);
    let s = &r.summary;
    match (&s.worst, s.harmful) {
        (None, _) => format!("No {what} to fail: no Cluster states one."),
        (Some(_), 0) => format!(
            "{} planned: none leaves a replica unplaced or lost, or a cluster overcommitted.",
            counted(s.failures, &format!("{what} failure"))
        ),
        (Some(worst), n) => format!(
            "{} planned: {n} {} replicas unplaced or lost, or a cluster overcommitted; the \
             worst is {worst}.",
            counted(s.failures, &format!("{what} failure")),
            if n == 1 { "leaves" } else { "leave" }
        ),
    }
}

/// Where the rescheduled replicas go: `10 (a2:4, b1:4, b2:2)`.
fn rescheduled(row: &Row) -> String {
    if row.rescheduled == 0 {
        return "0".into();
    }
    let to: Vec<String> = row
        .to
        .iter()
        .map(|d| format!("{}:{}", d.cluster, d.replicas))
        .collect();
    format!("{} ({})", row.rescheduled, to.join(", "))
}

/// Why replicas are left unplaced, in a cell's title.
fn unplaced_why(row: &Row) -> String {
    row.unplaced_by
        .iter()
        .map(|u| {
            let said = if u.message.is_empty() {
                u.reason.clone()
            } else {
                format!("{}: {}", u.reason, u.message)
            };
            format!(
                "{} ({}): {said}",
                u.replicas,
                counted(u.bindings, "binding")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn row_html(row: &Row) -> Html {
    let over: Vec<&str> = row
        .overcommitted
        .iter()
        .map(|o| o.cluster.as_str())
        .collect();
    let class = if row.clean() { "" } else { "harm" };
    html! {
        <tr class={class}>
            <th scope="row">{ &row.failure.name }</th>
            <td>{ row.failure.clusters.join(", ") }</td>
            <td class="num">{ row.bindings }</td>
            <td>{ rescheduled(row) }</td>
            <td class="num" title={unplaced_why(row)}>{ row.unplaced }</td>
            <td class="num">{ row.lost }</td>
            <td class="num">{ row.outages }</td>
            <td>{ if over.is_empty() { "-".to_string() } else { over.join(", ") } }</td>
            <td>{ allot_core::karmada::fleet::words::duration(row.settled_after) }</td>
        </tr>
    }
}

/// The panel: a button per kind of failure, then the last answer while the fleet is as it
/// was then.
pub fn panel(ask: &Ask, m: &Model) -> Html {
    let busy = m.pending.is_some();
    let button = |each: &'static str, label: &'static str| {
        let ask = ask.clone();
        let onclick = Callback::from(move |_| ask.readiness(each));
        html! {
            <button type="button" id={format!("fleet-readiness-{each}")} disabled={busy} {onclick}>{ label }</button>
        }
    };
    html! {
        <section class="fleet-readiness" aria-labelledby="fleet-readiness-heading">
            <h3 id="fleet-readiness-heading">{ "Failover readiness" }</h3>
            <p class="muted">{ "Can the fleet lose any one cluster, zone or region? Each failure is \
                planned as Down plans it, with the settings above; worst first." }</p>
            <div class="fleet-readiness-ask" role="group" aria-label="Fail each">
                { button("cluster", "Each cluster") }
                { button("zone", "Each zone") }
                { button("region", "Each region") }
            </div>
            if let Some(r) = &m.readiness {
                <p id="fleet-readiness-summary">{ summary(r) }</p>
                if !r.rows.is_empty() {
                    <div class="scroll">
                        <table id="fleet-readiness-table" class="fleet-table">
                            <thead><tr>
                                <th scope="col">{ "Failure" }</th>
                                <th scope="col">{ "Clusters" }</th>
                                <th scope="col">{ "Bindings affected" }</th>
                                <th scope="col">{ "Rescheduled (to)" }</th>
                                <th scope="col">{ "Unplaced" }</th>
                                <th scope="col">{ "Lost until recovery" }</th>
                                <th scope="col">{ "Workloads down" }</th>
                                <th scope="col">{ "Overcommitted" }</th>
                                <th scope="col">{ "Settled after" }</th>
                            </tr></thead>
                            <tbody>{ for r.rows.iter().take(200).map(row_html) }</tbody>
                        </table>
                    </div>
                    if r.rows.len() > 200 {
                        <p class="muted">{ format!("The 200 worst of {} failures; allot plan --each {} lists them all.", r.rows.len(), word(r.each)) }</p>
                    }
                }
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The core's answer read back into the core's own type (how the dump was read is not
    // read), said in one sentence and its rows' cells.
    #[test]
    fn an_answer_reads_and_is_said() {
        let r: Report = serde_json::from_value(serde_json::json!({
            "each": "cluster",
            "select": null,
            "rows": [{
                "name": "a1", "clusters": ["a1"], "bindings": 4, "rescheduled": 10,
                "to": [{"cluster": "a2", "replicas": 4}, {"cluster": "b1", "replicas": 6}],
                "unplaced": 2,
                "unplacedBy": [{"reason": "NoClusterFit", "message": "0/3 clusters are available",
                                "replicas": 2, "bindings": 1}],
                "lost": 3, "overcommitted": [], "outages": 1, "settledAfter": 300,
                "workloads": []
            }],
            "summary": {"failures": 1, "harmful": 1, "worst": "a1"},
            "report": {"clusters": {"used": [], "defaulted": [], "ignored": []},
                       "problems": [], "warnings": []}
        }))
        .unwrap();
        assert_eq!(
            summary(&r),
            "1 cluster failure planned: 1 leaves replicas unplaced or lost, or a cluster \
             overcommitted; the worst is a1."
        );
        assert_eq!(rescheduled(&r.rows[0]), "10 (a2:4, b1:6)");
        assert_eq!(
            unplaced_why(&r.rows[0]),
            "2 (1 binding): NoClusterFit: 0/3 clusters are available"
        );
    }
}
