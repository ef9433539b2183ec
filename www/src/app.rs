//! The page: where the scenario comes from (a share link, a preset link, the autosave, the
//! default preset), the header with presets, share, import and export, the editors beside the
//! results, and the compact embedded layout.

use std::rc::Rc;

use serde_json::Value;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::editor::json::{FileButtons, JsonEditor};
use crate::editor::kubernetes::KubernetesTab;
use crate::editor::named::{self, Named};
use crate::editor::{plain, Editors, Plain};
use crate::field::{Dispatch, Kind};
use crate::hooks::{use_autosave, use_on_change, use_run, use_shown, use_undo_keys};
use crate::platform;
use crate::presets::{self, PRESETS};
use crate::run::Run;
use crate::share::{self, Link};
use crate::state::{Action, State};
use crate::view::Results;

/// What an `<allot-playground>` element shows: the app's embedded view, started from a preset
/// or a scenario of its own, with the editors it names.
#[derive(PartialEq)]
pub struct Widget {
    pub start: Start,
    pub editors: Vec<Named>,
    /// The playground's address, for the "open in the allot playground" link (none: no link).
    pub playground: Option<String>,
    /// Told the scenario's JSON text when the view starts and after every edit.
    pub on_change: Option<js_sys::Function>,
}

/// Where a widget starts.
#[derive(PartialEq)]
pub enum Start {
    /// A preset's id (an example of `docs/examples`).
    Preset(String),
    /// A scenario document's JSON text.
    Scenario(String),
}

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// Set when the app is a widget; the playground's own page otherwise.
    #[prop_or_default]
    pub widget: Option<std::rc::Rc<Widget>>,
}

fn fallback() -> Value {
    presets::find(presets::DEFAULT).unwrap_or_default()
}

/// The preset `id` (with its history, for a story); the default one, with why, if there is no
/// such preset.
fn preset(id: &str) -> State {
    match presets::load(id) {
        Some((steps, doc, at)) => State::with_history(steps, Rc::new(doc), at, true),
        None => State::new(
            fallback(),
            Some(format!(
                "There is no preset named “{id}”; showing the default scenario."
            )),
        ),
    }
}

/// Where a widget starts: its preset or its scenario; the default preset, with the reason, if
/// neither reads.
fn widget_initial(start: &Start) -> State {
    match start {
        Start::Preset(id) => preset(id),
        Start::Scenario(text) => match serde_json::from_str::<Value>(text) {
            Ok(doc) if doc.is_object() => State::new(doc, None),
            Ok(_) => State::new(
                fallback(),
                Some("The scenario is not a JSON object; showing the default scenario.".into()),
            ),
            Err(e) => State::new(
                fallback(),
                Some(format!(
                    "The scenario is not JSON ({e}); showing the default scenario."
                )),
            ),
        },
    }
}

/// Where the page starts: the fragment's link, else the autosave, else the default preset.
fn initial() -> State {
    match share::decode(&platform::fragment()) {
        Ok(Link::Scenario(doc)) => State::new(doc, None),
        Ok(Link::History(history)) => match State::from_history(&history) {
            Ok(state) => state,
            Err(why) => State::new(
                fallback(),
                Some(format!(
                    "This history link cannot be read ({why}); showing the default scenario."
                )),
            ),
        },
        Ok(Link::Preset(id)) => preset(&id),
        Ok(Link::None | Link::Fleet(_)) => {
            let saved = platform::load_autosave()
                .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                .filter(Value::is_object);
            // A history is saved as one (its steps and where the page was), a lone scenario as
            // itself.
            match saved {
                Some(h) if h.get("steps").is_some() => {
                    State::from_history(&h).unwrap_or_else(|_| State::new(fallback(), None))
                }
                saved => State::new(saved.unwrap_or_else(fallback), None),
            }
        }
        Err(e) => State::new(
            fallback(),
            Some(format!("{e} Showing the default scenario instead.")),
        ),
    }
}

const ABOUT: Plain = &[
    ("title", "title", Kind::Text),
    ("description", "description", Kind::Text),
];

#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let widget = props.widget.clone();
    let state = {
        let widget = widget.clone();
        use_reducer(move || match &widget {
            Some(w) => widget_initial(&w.start),
            None => initial(),
        })
    };
    // The embedded view: a widget, or the page opened with `?embed`.
    let embedded = *use_memo((), |_| widget.is_some() || platform::embedded());
    let run = use_run(&state);
    use_autosave(&state, embedded);
    use_on_change(
        &state.doc,
        props.widget.as_ref().and_then(|w| w.on_change.clone()),
    );
    // While the scenario has an error, the last valid outcome stays in view, dimmed.
    let shown = use_shown(&run);
    let dispatch: Dispatch = state.dispatcher();
    use_undo_keys(&dispatch, embedded);
    let problem = run.problem();
    let page = if embedded {
        let (editors, playground) = match &props.widget {
            Some(w) => (w.editors.clone(), w.playground.clone()),
            None => (
                platform::query("editors")
                    .and_then(|list| named::parse(&list).ok())
                    .unwrap_or_else(|| named::DEFAULT.to_vec()),
                Some(platform::playground_url()),
            ),
        };
        embed(
            &state,
            &run,
            &shown,
            &editors,
            playground,
            props.widget.is_some(),
        )
    } else {
        full(&state, &run, &shown)
    };
    html! {
        <ContextProvider<Dispatch> context={dispatch.clone()}>
            if let Some(notice) = &state.notice {
                <p id="notice" class="notice" role="status">{ notice }
                    <button type="button" onclick={let d = dispatch.clone(); move |_| d.dispatch(Action::DismissNotice)}
                            aria-label="dismiss">{ "×" }</button></p>
            }
            if let Some(d) = blocking(&state) {
                <p id="error" class="error" role="alert" data-code="invalid_json" data-path="">
                    <code>{ "JSON tab" }</code>{ format!(": not JSON yet ({})", d.error) }
                </p>
            } else if let Some(p) = &problem {
                <div id="error" class="error" role="alert" data-code={p.code.as_str()} data-path={p.path.clone()}>
                    if p.next.is_some() {
                        <p class="count">{ match p.iter().count() {
                            n if n >= crate::problems::MAX_PROBLEMS => format!("{n} problems or more (fix these to see the rest):"),
                            n => format!("{n} problems:"),
                        } }</p>
                    }
                    <ul class="problems">
                    { for p.iter().map(|q| html! {
                        <li data-code={q.code.as_str()} data-path={q.path.clone()}>
                            if q.path.is_empty() {
                                <code>{ "scenario" }</code>
                            } else {
                                <a href={format!("#{}", q.path)} class="jump" title="go to the field" onclick={jump(&q.path)}>
                                    <code>{ q.path.as_str() }</code></a>
                            }
                            { ": " }{ &q.message }
                            // Only an error at the strategy is about weights: the whole scenario is
                            // copied without them then, not on every render with any error.
                            if let Some(cleared) = (q.path == "policy.strategy").then(|| without_weights(&state.doc)).flatten() {
                                { " " }
                                <button type="button" id="clear-weights" onclick={
                                    let dispatch = dispatch.clone();
                                    move |_| dispatch.dispatch(Action::Replace(cleared.clone(), None))
                                }>{ "Clear weights" }</button>
                            }
                        </li>
                    }) }
                    </ul>
                </div>
            }
            { page }
        </ContextProvider<Dispatch>>
    }
}

/// Focus the field at `path` (or, when it is folded away, the first field marked wrong, or its
/// row's first field), scrolling it into view.
fn jump(path: &str) -> Callback<MouseEvent> {
    let row = path
        .find(']')
        .map(|end| format!("{}.name", &path[..=end]))
        .unwrap_or_default();
    let selectors = vec![
        platform::by_path(path),
        "[aria-invalid=true]".to_string(),
        platform::by_path(&row),
    ];
    Callback::from(move |e: MouseEvent| {
        e.prevent_default();
        platform::focus_after_render(selectors.clone());
    })
}

/// The scenario without any weight (clusters' own and `policy.staticWeights`), if it has one.
fn without_weights(doc: &Value) -> Option<Value> {
    let mut next = doc.clone();
    let mut had = next
        .pointer_mut("/policy")
        .and_then(Value::as_object_mut)
        .and_then(|p| p.remove("staticWeights"))
        .is_some();
    if let Some(clusters) = next.get_mut("clusters").and_then(Value::as_array_mut) {
        for c in clusters.iter_mut().filter_map(Value::as_object_mut) {
            had |= c.remove("weight").is_some();
        }
    }
    had.then_some(next)
}

/// Why the outcome shown is not the one the user looks for, if it is not: the scenario's
/// last valid one (an error, or JSON text that does not read yet), or the scenario's from
/// before an import that failed. It is dimmed, and says so.
fn stale(state: &State, run: &Rc<Run>, shown: &Rc<Run>) -> Option<AttrValue> {
    if state.failed_import.is_some() {
        Some("The import failed (see the Kubernetes tab): this is the outcome of the scenario from before it.".into())
    } else if blocking(state).is_some() || !Rc::ptr_eq(run, shown) {
        Some("The last valid outcome, while the error above is fixed.".into())
    } else {
        None
    }
}

/// JSON text that does not read, typed over the scenario as it is: it stands for the scenario
/// until it reads. Once the scenario is edited elsewhere the text is set aside (kept in the
/// JSON tab, mentioned in the form) and the outcome follows the edits again.
fn blocking(state: &State) -> Option<&crate::state::Draft> {
    state
        .draft
        .as_deref()
        .filter(|d| Rc::ptr_eq(&d.base, &state.doc))
}

fn full(state: &State, run: &Rc<Run>, shown: &Rc<Run>) -> Html {
    html! {
        <main class="playground">
            <header>
                <h1>{ "allot playground" }</h1>
                <p class="lede">{ "How Karmada divides replicas and eru deploys instances, and why. \
                    Edit anything; the result follows." }</p>
                <nav class="toolbar" aria-label="scenario actions">
                    <PresetMenu />
                    <UndoButtons undo={!state.past.is_empty()} redo={!state.future.is_empty()} />
                    <ShareButton doc={state.doc.clone()} drawn={state.drawn} />
                    <FileButtons doc={state.doc.clone()} />
                    <a id="to-fleet" class="button" href="?view=fleet">{ "Fleet view" }</a>
                </nav>
            </header>
            <div class="columns">
                <section class="edit" aria-labelledby="edit-heading">
                    <h2 id="edit-heading" class="sr">{ "Edit the scenario" }</h2>
                    <EditorTabs doc={state.doc.clone()} run={run.clone()} drawn={state.drawn}
                                draft={state.draft.clone()} />
                </section>
                <section class="outcome" aria-labelledby="outcome-heading">
                    <h2 id="outcome-heading">{ state.doc.get("title").and_then(Value::as_str).unwrap_or("Outcome") }</h2>
                    if let Some(d) = state.doc.get("description").and_then(Value::as_str) {
                        <p class="description">{ d }</p>
                    }
                    <crate::view::history::StepBanner steps={state.steps.clone()} at={state.at}
                        held={state.held.is_some()} />
                    if let Some(report) = &run.failed {
                        <h3>{ "Why it cannot be scheduled" }</h3>
                        <crate::view::pipeline::PipelineView report={report.clone()} />
                    } else {
                        <Results run={shown.clone()} doc={state.doc.clone()} stale={stale(state, run, shown)} />
                    }
                    <crate::view::history::HistoryView steps={state.steps.clone()} at={state.at}
                        doc={state.doc.clone()} drawn={state.drawn} back={state.back()} forward={state.forward()} />
                </section>
            </div>
            // Narrow screens: the answer in one line at the foot of the screen, wherever the
            // field being edited is (the outcome itself comes after the clusters).
            if let Ok(o) = &shown.outcome {
                <p class={classes!("answer-bar", stale(state, run, shown).map(|_| "stale"))} aria-hidden="true">
                    { crate::view::announcement(o) }</p>
            }
            <footer>{ format!("allot {} · scenario format {} · ", allot_core::VERSION,
                              allot_core::scenario::FORMAT_VERSION) }
                <a href="book/">{ "the book: every rule, with live examples" }</a>{ " · " }
                <a href="docs.html">{ "embedding in documentation" }</a></footer>
        </main>
    }
}

/// The embedded view: the title, the editors named, the outcome, and a link to the playground.
fn embed(
    state: &State,
    run: &Rc<Run>,
    shown: &Rc<Run>,
    editors: &[Named],
    playground: Option<String>,
    widget: bool,
) -> Html {
    let doc = &state.doc;
    // Where the Kubernetes editor finds the playground's example manifests.
    let site = platform::Site(playground.clone());
    // The link carries the seed drawn, so the playground shows the same outcome.
    let link = playground.map(|url| {
        format!(
            "{url}{}",
            share::encode(&crate::history::pinned(doc, state.drawn))
        )
    });
    html! {
        // In a widget the view is a part of someone's page, which has its own main landmark.
        <@{if widget { "div" } else { "main" }} class="embed">
            <h1>{ doc.get("title").and_then(Value::as_str).unwrap_or("allot") }</h1>
            if !editors.is_empty() {
                <h2 class="sr">{ "Edit the scenario" }</h2>
                <div class="embed-editors">
                    { for editors.iter().map(|e| e.view(doc, run, state.drawn, &site)) }
                </div>
            }
            <h2 class="sr">{ "Outcome" }</h2>
            if let Some(report) = &run.failed {
                <h3>{ "Why it cannot be scheduled" }</h3>
                <crate::view::pipeline::PipelineView report={report.clone()} />
            } else {
                <Results run={shown.clone()} doc={doc.clone()} compact=true stale={stale(state, run, shown)} />
            }
            if let Some(link) = link {
                <a id="open" href={link} target="_blank" rel="noopener">{ "open in the allot playground ↗" }</a>
            }
        </@>
    }
}

#[derive(Properties, PartialEq)]
struct TabsProps {
    doc: Rc<Value>,
    run: Rc<Run>,
    drawn: u64,
    draft: Option<Rc<crate::state::Draft>>,
}

/// The editors' tabs, in order (the state's index).
const EDITOR_TABS: &[crate::tabs::TabSpec] = &[
    ("form", "Form"),
    ("json", "JSON"),
    ("kubernetes", "Kubernetes"),
];

#[function_component(EditorTabs)]
fn editor_tabs(p: &TabsProps) -> Html {
    // 0: the form, 1: the JSON text, 2: Kubernetes objects (kept mounted, so its text and
    // report stay while the scenario is edited in the other tabs).
    let tab = use_state(|| 0u8);
    let pick = |on: u8| {
        let tab = tab.clone();
        Callback::from(move |_| tab.set(on))
    };
    let problem = p.run.problem();
    let use_dispatch = use_context::<Dispatch>().expect("inside the state provider");
    html! {
        <>
        { crate::tabs::tablist("scenario editors", "editor-panel", EDITOR_TABS, usize::from(*tab), {
            let tab = tab.clone();
            Callback::from(move |i: usize| tab.set(i as u8))
        }) }
        <div role="tabpanel" id="editor-panel" aria-labelledby={format!("tab-{}", EDITOR_TABS[usize::from(*tab)].0)}>
        if *tab == 1 {
            <JsonEditor doc={p.doc.clone()} draft={p.draft.clone()} />
        } else if *tab == 0 {
            if let Some(d) = &p.draft {
                <p id="draft-notice" class="draft-notice" role="status">
                    { format!("The JSON tab holds text that is not JSON yet ({}); the form shows the scenario as it last read. ", d.error) }
                    <button type="button" onclick={pick(1)}>{ "Back to the JSON text" }</button>
                    { " " }
                    <button type="button" onclick={
                        let dispatch = use_dispatch.clone();
                        move |_| dispatch.dispatch(Action::Draft(None))
                    }>{ "Discard it" }</button>
                </p>
            }
            { plain("", &p.doc, &problem, ABOUT) }
            <Editors doc={p.doc.clone()} {problem} />
        }
        <div hidden={*tab != 2}>
            <KubernetesTab doc={p.doc.clone()} run={p.run.clone()} drawn={p.drawn} />
        </div>
        </div>
        </>
    }
}

#[function_component(PresetMenu)]
fn preset_menu() -> Html {
    let dispatch = use_context::<Dispatch>().expect("inside the state provider");
    let onchange = Callback::from(move |e: Event| {
        let select: HtmlSelectElement = e.target_unchecked_into();
        // "new": from scratch, one cluster and one replica, no title (Undo brings the old one
        // back).
        let loaded = match select.value().as_str() {
            "new" => Some((
                Vec::new(),
                serde_json::json!({
                    "version": allot_core::scenario::FORMAT_VERSION,
                    "clusters": [{"name": "member1"}],
                    "workload": {"replicas": 1}
                }),
                crate::history::At::Now(None),
            )),
            id => presets::load(id),
        };
        if let Some((steps, doc, at)) = loaded {
            dispatch.dispatch(Action::Load {
                steps,
                doc,
                at,
                preset: true,
                notice: None,
            });
        }
        select.set_value("");
    });
    let mut groups: Vec<&str> = PRESETS.iter().map(|p| p.group).collect();
    groups.dedup();
    html! {
        <select id="preset" aria-label="load a preset" {onchange}>
            <option value="" selected=true>{ "Load a preset…" }</option>
            <option value="new">{ "New scenario (from scratch)" }</option>
            { for groups.into_iter().map(|g| html! {
                <optgroup label={g}>
                    { for PRESETS.iter().filter(|p| p.group == g).map(|p| html! {
                        <option value={p.id}>{ p.title() }</option>
                    }) }
                </optgroup>
            }) }
            <optgroup label="Scale">
                <option value={presets::LARGE}>{ "1,000 clusters" }</option>
            </optgroup>
        </select>
    }
}

#[derive(Properties, PartialEq)]
struct UndoProps {
    undo: bool,
    redo: bool,
}

/// Undo and redo, as Ctrl+Z and Ctrl+Shift+Z do.
#[function_component(UndoButtons)]
fn undo_buttons(p: &UndoProps) -> Html {
    let dispatch = use_context::<Dispatch>().expect("inside the state provider");
    let on = |action: fn() -> Action| {
        let dispatch = dispatch.clone();
        Callback::from(move |_| dispatch.dispatch(action()))
    };
    html! {
        <>
            <button type="button" id="undo" disabled={!p.undo} title="Undo (Ctrl+Z)"
                    onclick={on(|| Action::Undo)}>{ "Undo" }</button>
            <button type="button" id="redo" disabled={!p.redo} title="Redo (Ctrl+Shift+Z)"
                    onclick={on(|| Action::Redo)}>{ "Redo" }</button>
        </>
    }
}

#[derive(Properties, PartialEq)]
struct ShareProps {
    doc: Rc<Value>,
    /// The seed the page drew, in effect when the scenario pins none.
    drawn: u64,
}

#[function_component(ShareButton)]
fn share_button(p: &ShareProps) -> Html {
    // The link made, with the scenario it was made for: shown only while that is the scenario.
    let link = use_state(|| None::<(String, Rc<Value>)>);
    let onclick = {
        let (doc, drawn, link) = (p.doc.clone(), p.drawn, link.clone());
        Callback::from(move |_| {
            // The seed in effect goes into the link, so that whoever opens it sees the
            // sender's outcome even where a random draw decides.
            let fragment = share::encode(&crate::history::pinned(&doc, drawn));
            platform::set_fragment(&fragment);
            let url = format!("{}{fragment}", platform::playground_url());
            platform::copy(&url);
            link.set(Some((url, doc.clone())));
        })
    };
    let current = link
        .as_ref()
        .filter(|(_, made_for)| Rc::ptr_eq(made_for, &p.doc));
    html! {
        <>
            <button type="button" id="share" {onclick}>{ "Share link" }</button>
            if let Some((url, _)) = current {
                <input id="share-link" readonly=true value={url.clone()} aria-label="share link (copied)" />
                <span class="copied" role="status">{ "copied ✓" }</span>
            }
        </>
    }
}
