//! The plan's timeline (docs/rules/fleet.md §30.1): what the controllers did, when, after the
//! events — a cluster's condition, the taints added (and by which ClusterTaintPolicy), each
//! workload evicted, placed again or left unplaced, each graceful eviction task's end — as a
//! list under the plan, read and said as the core writes it.

use allot_core::karmada::fleet::timeline::{Happening, Moment};
use allot_core::karmada::fleet::words::duration;
use yew::prelude::*;

/// The toolbar's timed settings: `--graceful-eviction-timeout` and the moment planned
/// (`--at`), in seconds; empty: Karmada's default, and the fleet once settled.
pub fn times(ask: &super::Ask, switches: super::Switches) -> Html {
    type Set = fn(&mut super::Switches, Option<u32>);
    let fields: [(&str, &str, &str, Option<u32>, Set); 2] = [
        (
            "fleet-timeout",
            "Graceful eviction timeout (s)",
            "--graceful-eviction-timeout: when a graceful eviction task ends at the latest (empty: 600 s)",
            switches.timeout,
            |s, n| s.timeout = n,
        ),
        (
            "fleet-at",
            "At (s)",
            "plan the fleet as it stands this many seconds after the event (empty: once every timed step has run)",
            switches.at,
            |s, n| s.at = n,
        ),
    ];
    fields
        .into_iter()
        .map(|(id, label, title, value, set)| {
            let ask = ask.clone();
            let changed = Callback::from(move |e: Event| {
                let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                let mut s = switches;
                set(&mut s, input.value().trim().parse().ok());
                ask.model.dispatch(super::Msg::Switches(s));
            });
            let value = value.map(|n| n.to_string()).unwrap_or_default();
            html! {
                <label {title}>{ format!("{label} ") }
                    <input type="number" min="0" class="seconds" {id} {value} onchange={changed} /></label>
            }
        })
        .collect()
}

/// The timeline as a list, when it says more than the scheduler's passes.
pub fn timeline(list: &[Moment]) -> Html {
    let timed = list.iter().any(|m| {
        !matches!(
            m.what,
            Happening::Scheduled { .. } | Happening::Unschedulable { .. }
        )
    });
    if !timed {
        return Html::default();
    }
    html! {
        <>
            <h4 id="fleet-timeline-heading">{ "Timeline" }</h4>
            <ol id="fleet-timeline" class="fleet-timeline" aria-labelledby="fleet-timeline-heading">
                // A binding that fails again as it failed is said once.
                { for list.iter().filter(|m| !m.again).take(500).map(|m| html! {
                    <li><time>{ duration(m.at) }</time>{ " " }{ m.said.as_str() }</li>
                }) }
            </ol>
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The core's timeline entries read back with their words and time.
    #[test]
    fn entries_read_with_their_words() {
        let list: Vec<Moment> = serde_json::from_value(serde_json::json!([
            {"at": 300, "kind": "evicted", "cluster": "member2", "replicas": 1,
             "purgeMode": "Gracefully",
             "binding": {"kind": "ResourceBinding", "namespace": "shop", "name": "cart-deployment"},
             "said": "rb/shop/cart-deployment evicted from member2 (1 replica, purge Gracefully)"}
        ]))
        .unwrap();
        assert_eq!(duration(list[0].at), "5m");
        assert!(list[0]
            .said
            .starts_with("rb/shop/cart-deployment evicted from member2"));
    }
}
