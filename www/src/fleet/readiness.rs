//! The fleet view's failover readiness (docs/rules/fleet.md §34): can the fleet lose any one
//! cluster, zone or region? Every failure planned as Down plans it, under the toolbar's
//! settings, one row per failure, worst first, as the core answers it.

use std::rc::Rc;

use allot_core::karmada::fleet::readiness::Row;
use allot_core::karmada::fleet::readiness_words::each_word;
use allot_core::kubernetes::readiness::Report;
use yew::prelude::*;

use super::{Ask, Model};

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

/// Why replicas are left unplaced, in a cell's title: each group as the core says it.
fn unplaced_why(row: &Row) -> String {
    row.unplaced_by
        .iter()
        .map(|u| u.said.as_str())
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
                <Answer report={r.clone()} />
            }
        </section>
    }
}

#[derive(Properties)]
struct AnswerProps {
    report: Rc<Report>,
}

/// The same answer by address: its table is not built again on each message of a request in
/// flight (every 50 ms while the worker plans), only when an answer comes.
impl PartialEq for AnswerProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.report, &other.report)
    }
}

/// The answer: its sentence, then its 200 worst rows.
#[function_component(Answer)]
fn answer(p: &AnswerProps) -> Html {
    let r = &p.report;
    html! {
        <>
            <p id="fleet-readiness-summary">{ &r.said }</p>
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
                    <p class="muted">{ format!("The 200 worst of {} failures; allot plan --each {} lists them all.", r.rows.len(), each_word(r.each)) }</p>
                }
            }
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The core's answer read back into the core's own type (how the dump was read is not
    // read): its sentences are the core's, the unplaced groups one per line of the cell's
    // title, and the rescheduled replicas where they go.
    #[test]
    fn an_answer_reads_and_its_words_are_the_cores() {
        let r: Report = serde_json::from_value(serde_json::json!({
            "each": "cluster",
            "select": null,
            "rows": [{
                "name": "a1", "clusters": ["a1"], "bindings": 4, "rescheduled": 10,
                "to": [{"cluster": "a2", "replicas": 4}, {"cluster": "b1", "replicas": 6}],
                "unplaced": 3,
                "unplacedBy": [
                    {"reason": "NoClusterFit", "message": "0/3 clusters are available",
                     "replicas": 2, "bindings": 1, "said": "2 replicas unplaced (1 binding): no cluster fits"},
                    {"reason": "Fewer", "message": "", "replicas": 1, "bindings": 1,
                     "said": "1 replica unplaced (1 binding): scheduled again to fewer replicas"}],
                "lost": 3, "harm": "3 lost, 3 unplaced", "overcommitted": [], "outages": 1,
                "settledAfter": 300, "workloads": []
            }],
            "summary": {"failures": 1, "harmful": 1, "worst": "a1"},
            "said": "1 cluster failure planned: 1 leaves replicas unplaced or lost, or a cluster \
                     overcommitted; the worst is a1.",
            "report": {"clusters": {"used": [], "defaulted": [], "ignored": []},
                       "problems": [], "warnings": []}
        }))
        .unwrap();
        assert!(r.said.ends_with("the worst is a1."), "{}", r.said);
        assert_eq!(r.rows[0].harm, "3 lost, 3 unplaced");
        assert_eq!(rescheduled(&r.rows[0]), "10 (a2:4, b1:6)");
        assert_eq!(
            unplaced_why(&r.rows[0]),
            "2 replicas unplaced (1 binding): no cluster fits\n\
             1 replica unplaced (1 binding): scheduled again to fewer replicas"
        );
    }
}
