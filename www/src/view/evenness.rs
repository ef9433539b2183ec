//! The evenness view: the scenario scheduled under many seeds (1,000 by default) with a chosen
//! method, and per cluster how often a remainder replica went to it, as SVG bars. The runs go
//! in small chunks between frames, so the page answers while they run; an edit starts over.

use std::rc::Rc;
use std::time::Duration;

use allot_core::karmada::Method;
use allot_core::scenario::evenness::Evenness as Tally;
use allot_core::scenario::Scenario;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::rows::amount;

/// Each chunk of seeds aims to take about this long, so a frame keeps room to render.
const CHUNK_MS: f64 = 6.0;

const RUNS: &[u64] = &[100, 1_000, 10_000];

#[derive(Properties, PartialEq)]
pub struct EvennessProps {
    pub scenario: Rc<Scenario>,
}

#[derive(Clone, PartialEq)]
enum Progress {
    Running(Tally, u64),
    Done(Tally),
    Failed(String),
}

#[function_component(Evenness)]
pub fn evenness(p: &EvennessProps) -> Html {
    let method = use_state(|| Method::Remainder);
    let runs = use_state(|| 1_000u64);
    let progress = use_state(|| None::<Progress>);
    let generation = use_mut_ref(|| 0u64);
    {
        let progress = progress.clone();
        let generation = generation.clone();
        use_effect_with(
            (p.scenario.clone(), *method, *runs),
            move |(s, method, runs)| {
                *generation.borrow_mut() += 1;
                let mine = *generation.borrow();
                let mut s = (**s).clone();
                s.policy.method = Some(*method);
                let total = *runs;
                yew::platform::spawn_local(async move {
                    let mut tally = match Tally::new(&s) {
                        Ok(t) => t,
                        Err(e) => return progress.set(Some(Progress::Failed(e.to_string()))),
                    };
                    // One seed first, then chunks sized by how long the last one took.
                    let mut chunk = 1u64;
                    let mut next = 0;
                    while next < total {
                        yew::platform::time::sleep(Duration::ZERO).await;
                        if *generation.borrow() != mine {
                            return;
                        }
                        let end = (next + chunk).min(total);
                        let started = js_sys::Date::now();
                        if let Err(e) = tally.run(&s, next..end) {
                            return progress.set(Some(Progress::Failed(e.to_string())));
                        }
                        let per_seed =
                            (js_sys::Date::now() - started).max(0.05) / (end - next) as f64;
                        chunk = ((CHUNK_MS / per_seed) as u64).clamp(1, 1_000);
                        next = end;
                        progress.set(Some(if next < total {
                            Progress::Running(tally.clone(), total)
                        } else {
                            Progress::Done(tally.clone())
                        }));
                    }
                });
            },
        );
    }
    let on_method = {
        let method = method.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            method.set(Method::named(&select.value()).unwrap_or(Method::Remainder));
        })
    };
    let on_runs = {
        let runs = runs.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            runs.set(select.value().parse().unwrap_or(1_000));
        })
    };
    let (tally, done) = match &*progress {
        Some(Progress::Running(t, _)) => (Some(t), false),
        Some(Progress::Done(t)) => (Some(t), true),
        Some(Progress::Failed(e)) => {
            return html! { <p class="problem" id="evenness-error">{ e }</p> }
        }
        None => (None, false),
    };
    html! {
        <div class="evenness">
            <p class="hint">{ "The scenario scheduled once per seed. The proposal's claim: with the remainder \
                method, clusters tied for a remainder replica each win it about equally often (inside the \
                band around the line); name order always gives it to the same one." }</p>
            <label>{ "method " }
                <select id="evenness-method" onchange={on_method}>
                    { for Method::ALL.into_iter().map(|m| html! {
                        <option value={m.name()} selected={m == *method}>{ m.name() }</option>
                    }) }
                </select>
            </label>
            <label>{ " seeds " }
                <select id="evenness-runs" onchange={on_runs}>
                    { for RUNS.iter().map(|n| html! { <option value={n.to_string()} selected={*n == *runs}>{ n }</option> }) }
                </select>
            </label>
            if let Some(t) = tally {
                <p id="evenness-status" data-done={done.to_string()} data-runs={t.runs.to_string()}>
                    { format!("{} of {} runs{}; a random choice decided {} of them.", t.runs, *runs,
                              if done { "" } else { " so far" }, t.random_runs) }
                </p>
                { chart(t, !p.scenario.previous.is_empty()) }
            }
        </div>
    }
}

/// z for a two-sided 99% interval.
const Z99: f64 = 2.576;

/// The share of tied divisions each cluster won, against what a fair draw gives (a line) and
/// the band a fair draw stays in 99% of the time for that many runs. Only full ties are
/// judged (equal weight and, with a previous placement, equal previous replicas): clusters
/// whose remainder replicas come by weight alone, that Karmada's inertia placed (it keeps
/// replicas where they are before any draw), or that never tie for one are left out and named.
fn chart(t: &Tally, inertia: bool) -> Html {
    const W: f64 = 150.0;
    let x = |share: f64| format!("{:.1}", W * share.clamp(0.0, 1.0));
    let percent = |share: f64| format!("{:.1}%", 100.0 * share);
    let runs = t.runs.max(1);
    let (tied, left): (Vec<_>, Vec<_>) = t.targets.iter().partition(|c| c.contested > 0);
    let left: Vec<String> = left
        .iter()
        .map(|c| {
            let why = if c.by_inertia_alone() && c.kept > 0 {
                format!("kept by inertia in {} of {} runs", c.kept, c.by_inertia)
            } else if c.by_inertia_alone() {
                format!("behind by inertia in {} runs", c.by_inertia)
            } else if c.by_weight_alone() {
                String::from("by weight alone")
            } else {
                String::from("never tied for one")
            };
            format!("{} ({why})", c.name.as_str())
        })
        .collect();
    html! {
        <>
        if !tied.is_empty() {
        <table id="evenness" class="result">
            <thead><tr><th>{ "cluster" }</th><th class="n">{ "tied" }</th><th class="n">{ "won" }</th>
                <th class="bar-cell">{ "share won (line: a fair draw; band: 99%)" }</th>
                <th class="n">{ "mean" }</th><th class="n">{ "min…max" }</th></tr></thead>
            <tbody>
            { for tied.iter().take(200).map(|c| {
                let (won, fair) = c.shares().unwrap_or_default();
                let spread = Z99 * (fair * (1.0 - fair) / c.contested as f64).sqrt();
                let (lo, hi) = (fair - spread, fair + spread);
                let outside = won < lo - 1e-9 || won > hi + 1e-9;
                let band_width = format!("{:.1}", W * (hi.min(1.0) - lo.max(0.0)));
                html! { <tr data-cluster={c.name.to_string()} data-remainders={c.remainders.to_string()}
                            data-fair={format!("{fair:.4}")} data-outside={outside.to_string()}>
                    <td>{ c.name.as_str() }</td>
                    <td class="n">{ c.contested }</td>
                    <td class="n">{ c.won }</td>
                    <td class="bar-cell"><svg width="200" height="16" role="img"
                            aria-label={format!("won {} of tied runs; a fair draw: {}, 99% of fair draws within {}–{}{}",
                                percent(won), percent(fair), percent(lo.max(0.0)), percent(hi.min(1.0)),
                                if outside { ", outside" } else { "" })}>
                        <rect class="band" x={x(lo)} y="0" width={band_width} height="16" />
                        <rect class={classes!("now", outside.then_some("outside"))} x="0" y="3" width={x(won)} height="10" />
                        <line class="fair" x1={x(fair)} x2={x(fair)} y1="0" y2="16" />
                        <text x={format!("{:.1}", W * won.clamp(0.0, 1.0) + 4.0)} y="12">{ percent(won) }</text>
                    </svg></td>
                    <td class="n">{ format!("{:.2}", c.replicas as f64 / runs as f64) }</td>
                    <td class="n">{ format!("{}…{}", amount(c.min.min(c.max)), amount(c.max)) }</td>
                </tr> }
            }) }
            </tbody>
        </table>
        }
        if tied.is_empty() && t.targets.iter().all(|c| c.by_inertia == 0) {
            <p class="hint" id="evenness-none">{ "No cluster tied for a remainder replica: weights alone decide them." }</p>
        }
        if !left.is_empty() {
            <p class="hint" id="evenness-left">{ format!("Left out: {}.", left.join(", ")) }</p>
        }
        if inertia && t.targets.iter().any(|c| c.by_inertia > 0) {
            <p class="hint" id="evenness-inertia">{ "The scenario has a previous placement: Karmada keeps \
                replicas where they are before any random draw, so a cluster whose previous replicas \
                placed it is kept by inertia and not judged against a fair draw." }</p>
        }
        </>
    }
}
