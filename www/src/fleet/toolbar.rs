//! The fleet view's toolbar (docs/playground.md "The fleet view": the scheduler's switches,
//! the history): Undo and Redo, the share link and the exported file, one checkbox per switch
//! of the scheduler (the taint eviction, each feature gate that changes a fleet's answer,
//! docs/rules/versions.md "Feature gates", the purge mode), the times, and the burst replay.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::{Ask, Model, Msg, Switches, LINK_DUMP};
use crate::platform;

/// A switch of the toolbar: its id, label, what it means, whether on, and how to turn it.
/// A checkbox of the toolbar: (id, label, what it means, whether on, what it turns).
type Toggle = (String, &'static str, String, bool, Turns);

/// What a toolbar checkbox turns: the taint eviction, or a gate.
#[derive(Clone, Copy)]
enum Turns {
    Eviction,
    Directly,
    Gate(allot_core::karmada::gates::Gate),
}

/// The taint eviction's checkbox: gate Failover and `--enable-no-execute-taint-eviction`.
fn eviction_toggle(switches: Switches) -> Vec<Toggle> {
    vec![(
        "fleet-evict".into(),
        "Taint eviction",
        "gate Failover and --enable-no-execute-taint-eviction: a NoExecute taint evicts the bindings that do not tolerate it".into(),
        switches.evict,
        Turns::Eviction,
    )]
}

pub fn toolbar(ask: &Ask, m: &Model, embedded: bool) -> Html {
    let go = |k: usize| {
        let ask = ask.clone();
        Callback::from(move |_| ask.go(k))
    };
    // The history as saved, made when asked for: it carries the dump's text, which is copied.
    let share = {
        let ask = ask.clone();
        Callback::from(move |_| {
            let Some(v) = &ask.model.saved() else {
                return;
            };
            let small = v["source"]["dump"]
                .as_str()
                .is_none_or(|d| d.len() <= LINK_DUMP);
            if !small {
                ask.model.dispatch(Msg::Failed(
                    "This fleet is too large for a link: export the file instead.".into(),
                ));
                return;
            }
            let fragment = crate::share::encode_fleet(v);
            let url = format!("{}?view=fleet{fragment}", platform::playground_url());
            if !embedded {
                platform::set_fragment(&fragment);
            }
            platform::copy(&url);
            platform::mark_copied("fleet-share");
        })
    };
    let model = ask.model.clone();
    let export = Callback::from(move |_| {
        if let Some(v) = &model.saved() {
            platform::download(
                "fleet.allot.json",
                &serde_json::to_string_pretty(v).unwrap_or_default(),
            );
        }
    });
    // One checkbox per setting: the taint eviction, then each gate the table says changes a
    // fleet's answer (docs/rules/versions.md "Feature gates").
    let switches = m.switches;
    let mut toggles: Vec<Toggle> = eviction_toggle(switches);
    toggles.extend(Switches::gates().map(|g| {
        (
            format!("fleet-gate-{}", g.name()),
            g.name(),
            format!("gate {g}: {}", g.effect().unwrap_or_default()),
            switches.is_on(g),
            Turns::Gate(g),
        )
    }));
    toggles.push((
        "fleet-directly".into(),
        "Purge directly",
        "--no-execute-taint-eviction-purge-mode=Directly: an evicted workload is removed at once (else Gracefully: it stays until its graceful eviction task ends); a policy's failover.cluster.purgeMode overrides it".into(),
        switches.directly,
        Turns::Directly,
    ));
    let toggles = toggles
        .into_iter()
        .map(|(id, label, title, on, turn)| {
            let ask = ask.clone();
            let changed = Callback::from(move |e: Event| {
                let input: HtmlInputElement = e.target_unchecked_into();
                let mut s = switches;
                match turn {
                    Turns::Eviction => s.evict = input.checked(),
                    Turns::Directly => s.directly = input.checked(),
                    Turns::Gate(g) => s.turn(g, input.checked()),
                }
                ask.model.dispatch(Msg::Switches(s));
            });
            html! {
                <label {title}><input type="checkbox" {id} checked={on} onchange={changed} />
                    { format!(" {label}") }</label>
            }
        })
        .collect::<Html>();
    let burst = {
        let ask = ask.clone();
        Callback::from(move |_| ask.burst())
    };
    let busy = m.pending.is_some();
    html! {
        <nav class="toolbar fleet-toolbar" aria-label="fleet history">
            <button type="button" id="fleet-undo" disabled={busy || m.at == 0}
                    onclick={go(m.at.saturating_sub(1))}>{ "Undo" }</button>
            <button type="button" id="fleet-redo" disabled={busy || m.at >= m.history.len()}
                    onclick={go(m.at + 1)}>{ "Redo" }</button>
            <button type="button" id="fleet-share" onclick={share}>{ "Share link" }</button>
            <button type="button" id="fleet-export" onclick={export}>{ "Export file" }</button>
            { toggles }
            { super::timeline::times(ask, switches) }
            <button type="button" id="fleet-burst" disabled={busy} onclick={burst}
                    title="every binding as the scheduler takes them after a restart, with and without protection">
                { "Replay the burst" }</button>
        </nav>
    }
}
