//! The plan's timeline (docs/rules/fleet.md §30.1): what the controllers did, when, after the
//! events — a cluster's condition, the taints added (and by which ClusterTaintPolicy), each
//! workload evicted, placed again or left unplaced, each graceful eviction task's end — as a
//! list under the plan. A kind this page does not know yet is shown by its name.

use std::collections::BTreeMap;

use serde::Deserialize;
use yew::prelude::*;

use super::worker::Id;

/// One step, `at` seconds after the events.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Moment {
    pub at: i64,
    #[serde(flatten)]
    pub what: Happening,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Happening {
    Condition {
        cluster: String,
        #[serde(rename = "type")]
        kind: String,
        status: String,
    },
    Tainted {
        cluster: String,
        taint: String,
        #[serde(default)]
        policy: Option<String>,
    },
    Untainted {
        cluster: String,
        taint: String,
        #[serde(default)]
        policy: Option<String>,
    },
    #[serde(rename_all = "camelCase")]
    Evicted {
        binding: Id,
        cluster: String,
        replicas: i64,
        purge_mode: String,
    },
    Scheduled {
        binding: Id,
        clusters: BTreeMap<String, i64>,
    },
    Unschedulable {
        binding: Id,
        condition: serde_json::Value,
    },
    TaskEnded {
        binding: Id,
        cluster: String,
        reason: String,
    },
    #[serde(other)]
    Other,
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
            "{} evicted from {cluster} ({replicas} {}, purge {purge_mode})",
            binding.text(),
            if *replicas == 1 {
                "replica"
            } else {
                "replicas"
            }
        ),
        Happening::Scheduled { binding, clusters } => {
            let to: Vec<String> = clusters.iter().map(|(c, n)| format!("{c}:{n}")).collect();
            format!("{} placed: {}", binding.text(), to.join(", "))
        }
        Happening::Unschedulable { binding, condition } => {
            let s = |k: &str| condition.get(k).and_then(|v| v.as_str()).unwrap_or("");
            format!(
                "{} cannot be placed: {} {}",
                binding.text(),
                s("reason"),
                s("message")
            )
            .trim_end()
            .to_string()
        }
        Happening::TaskEnded {
            binding,
            cluster,
            reason,
        } => format!(
            "{}: graceful eviction from {cluster} ends ({reason}); its workload there is removed",
            binding.text()
        ),
        Happening::Other => "another controller's step".into(),
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

    // The core's timeline entries read back, each said with its time; an unknown kind is
    // kept rather than failing the plan.
    #[test]
    fn entries_read_and_say_when() {
        let list: Vec<Moment> = serde_json::from_value(serde_json::json!([
            {"at": 0, "kind": "tainted", "cluster": "member2",
             "taint": "cluster.karmada.io/not-ready:NoExecute", "policy": "down"},
            {"at": 300, "kind": "evicted", "cluster": "member2", "replicas": 1,
             "purgeMode": "Gracefully",
             "binding": {"kind": "ResourceBinding", "namespace": "shop", "name": "cart-deployment"}},
            {"at": 900, "kind": "somethingNew"}
        ]))
        .unwrap();
        assert_eq!(
            said(&list[0].what),
            "cluster member2 tainted cluster.karmada.io/not-ready:NoExecute by ClusterTaintPolicy down"
        );
        assert_eq!(duration(list[1].at), "5m");
        assert!(said(&list[1].what).starts_with("rb/shop/cart-deployment evicted from member2"));
        assert_eq!(list[2].what, Happening::Other);
        assert_eq!(duration(90), "1m30s");
    }
}
