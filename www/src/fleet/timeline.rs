//! The plan's timeline (docs/rules/fleet.md §30.1): what the controllers did, when, after the
//! events — a cluster's condition, the taints added (and by which ClusterTaintPolicy), each
//! workload evicted, placed again or left unplaced, each graceful eviction task's end — as a
//! list under the plan, read as the core writes it.

use allot_core::karmada::fleet::entry::{Condition, Id};
use allot_core::karmada::fleet::timeline::{Happening, Moment};
use yew::prelude::*;

/// `rb/shop/web-deployment`, as kubectl's short names write it.
fn name(id: &Id) -> String {
    id.to_string()
}

/// Seconds as a duration is written: `0s`, `1m30s`, `5m`, `1h`.
pub fn duration(seconds: i64) -> String {
    let (h, m, s) = (seconds / 3600, seconds % 3600 / 60, seconds % 60);
    let mut text = String::new();
    for (n, unit) in [(h, "h"), (m, "m"), (s, "s")] {
        if n != 0 {
            text.push_str(&format!("{n}{unit}"));
        }
    }
    if text.is_empty() {
        "0s".into()
    } else {
        text
    }
}

/// One step in words.
pub fn said(h: &Happening) -> String {
    match h {
        Happening::Condition {
            cluster,
            kind,
            status,
        } => format!("cluster {cluster}: {kind}={status}"),
        Happening::Tainted {
            cluster,
            taint,
            policy,
        }
        | Happening::Untainted {
            cluster,
            taint,
            policy,
        } => {
            let verb = if matches!(h, Happening::Tainted { .. }) {
                "tainted"
            } else {
                "untainted"
            };
            let by = policy
                .as_ref()
                .map(|p| format!(" by ClusterTaintPolicy {p}"))
                .unwrap_or_default();
            format!("cluster {cluster} {verb} {taint}{by}")
        }
        Happening::Evicted {
            binding,
            cluster,
            replicas,
            purge_mode,
        } => format!(
            "{} evicted from {cluster} ({replicas} {}, purge {})",
            name(binding),
            if *replicas == 1 {
                "replica"
            } else {
                "replicas"
            },
            purge_mode.as_str()
        ),
        Happening::Reported {
            binding,
            cluster,
            health,
        } => format!("{} reported {health:?} on {cluster}", name(binding)),
        Happening::FailedOver {
            binding,
            cluster,
            replicas,
            purge_mode,
        } => format!(
            "{} failed over from {cluster} (application failover: {replicas} {}, purge {})",
            name(binding),
            if *replicas == 1 {
                "replica"
            } else {
                "replicas"
            },
            purge_mode.as_str()
        ),
        Happening::Scheduled {
            binding, clusters, ..
        } => {
            let to: Vec<String> = clusters.iter().map(|(c, n)| format!("{c}:{n}")).collect();
            format!("{} placed: {}", name(binding), to.join(", "))
        }
        Happening::Unschedulable { binding, condition } => {
            let (reason, message) = match condition {
                Condition::NoClusterFit(m) => ("NoClusterFit", m.as_str()),
                Condition::Unschedulable(m) => ("Unschedulable", m.as_str()),
                Condition::SchedulerError(m) => ("SchedulerError", m.as_str()),
                Condition::Pending | Condition::Success => ("", ""),
            };
            format!("{} cannot be placed: {reason} {message}", name(binding))
                .trim_end()
                .to_string()
        }
        Happening::TaskEnded {
            binding,
            cluster,
            reason,
        } => format!(
            "{}: its graceful eviction task for {cluster} ends ({})",
            name(binding),
            match reason {
                allot_core::karmada::fleet::timeline::TaskEnd::Timeout => "timeout",
                allot_core::karmada::fleet::timeline::TaskEnd::Healthy => "healthy elsewhere",
                allot_core::karmada::fleet::timeline::TaskEnd::Confirmed => "confirmed",
            }
        ),
    }
}

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
                { for list.iter().take(500).map(|m| html! {
                    <li><time>{ duration(m.at) }</time>{ " " }{ said(&m.what) }</li>
                }) }
            </ol>
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The core's timeline entries read back, each said with its time.
    #[test]
    fn entries_read_and_say_when() {
        let list: Vec<Moment> = serde_json::from_value(serde_json::json!([
            {"at": 0, "kind": "tainted", "cluster": "member2",
             "taint": "cluster.karmada.io/not-ready:NoExecute", "policy": "down"},
            {"at": 300, "kind": "evicted", "cluster": "member2", "replicas": 1,
             "purgeMode": "Gracefully",
             "binding": {"kind": "ResourceBinding", "namespace": "shop", "name": "cart-deployment"}}
        ]))
        .unwrap();
        assert_eq!(
            said(&list[0].what),
            "cluster member2 tainted cluster.karmada.io/not-ready:NoExecute by ClusterTaintPolicy down"
        );
        assert_eq!(duration(list[1].at), "5m");
        assert!(said(&list[1].what).starts_with("rb/shop/cart-deployment evicted from member2"));
        assert_eq!(duration(90), "1m30s");
    }
}
