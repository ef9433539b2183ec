//! The fleet view (docs/playground.md, docs/rules/fleet.md §30): a control plane's dump loaded
//! once into a Web Worker ([`worker`]), every member cluster with its load against its
//! capacity, every workload grouped by namespace and policy, a clusters × namespaces map for
//! large fleets; events from the page (a cluster down, cordoned, recovered or deleted; a
//! workload scaled or rebalanced; a burst of creations with and without
//! SchedulingOvercommitProtection), each with its plan and each a step of the history that a
//! share link or an exported file carries. The plans are allot-core's; this only shows them.

pub mod worker;

mod add_cluster;
mod clusters;
mod figures;
#[cfg(test)]
mod fixtures;
mod form;
mod loader;
mod map;
mod plan_panel;
mod policy_form;
mod progress;
mod readiness;
mod timeline;
mod toolbar;
mod view;
mod window;
mod workloads;

use std::rc::Rc;

use allot_core::karmada::gates::Gate;
use allot_core::karmada::version::Version;
use serde_json::{json, Value};
use yew::prelude::*;

use crate::platform::{self, Site};
use worker::{Answer, Plan, Progress, Reply, State, Worker};

/// Example fleets, served from `manifests/` beside the page (docs/manifests): (id, title).
pub const EXAMPLES: &[(&str, &str)] = &[
    (
        "fleet-shop",
        "Four clusters, three namespaces: when a cluster fails",
    ),
    (
        "fleet-policy",
        "One policy, three Deployments: when a policy changes",
    ),
    (
        "fleet-burst",
        "Six Deployments created at once on two small clusters",
    ),
    (
        "fleet-failover",
        "Failover configured: a cluster goes down, workloads are evicted in time",
    ),
];

/// Where the fleet came from: an example, or a dump's text.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    Example(String),
    Dump(Rc<str>),
}

impl Source {
    fn to_json(&self) -> Value {
        match self {
            Source::Example(id) => json!({"example": id}),
            Source::Dump(text) => json!({"dump": &**text}),
        }
    }

    fn from_json(v: &Value) -> Option<Source> {
        if let Some(id) = v.get("example").and_then(Value::as_str) {
            return Some(Source::Example(id.into()));
        }
        v.get("dump")
            .and_then(Value::as_str)
            .map(|t| Source::Dump(t.into()))
    }
}

/// One applied event: its words and the what-if the worker was given.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub label: String,
    pub what_if: Value,
}

/// A shown plan: what it is the plan of, and the plan.
#[derive(Debug, Clone)]
pub struct Shown {
    pub label: String,
    pub plan: Rc<Plan>,
}

/// The same plan is the same answer: not compared binding by binding on every render.
impl PartialEq for Shown {
    fn eq(&self, other: &Self) -> bool {
        self.label == other.label && Rc::ptr_eq(&self.plan, &other.plan)
    }
}

/// What a request in flight will do with its answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Pending {
    Open {
        source: Source,
        history: Vec<Step>,
        at: usize,
    },
    Apply(Step),
    Go(usize),
    /// A burst replay: the plan without protection once it is there, then with it.
    Burst(Option<Shown>),
    /// The fleet as it was before a cancelled request, read again in a new worker: nothing
    /// shown changes.
    Restore,
    /// A failover readiness of the fleet as it is.
    Readiness,
}

/// The view's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Model {
    source: Option<Source>,
    state: Option<Rc<State>>,
    report: Option<Rc<Value>>,
    plan: Option<Shown>,
    /// A burst replayed without, then with, SchedulingOvercommitProtection.
    burst: Option<(Shown, Shown)>,
    /// Every applied step, and how many of them the fleet as it is has had.
    history: Vec<Step>,
    at: usize,
    /// The request in flight, what it is for, and whether it has run past 200 ms.
    pending: Option<(u32, Pending, String)>,
    slow: bool,
    /// How far the request in flight has got.
    progress: Option<Progress>,
    /// The fleet's PropagationPolicies and ClusterPropagationPolicies as they are.
    policies: Option<Rc<Vec<Value>>>,
    /// The plan shown before a burst, which a burst cancelled half-way shows again.
    kept: Option<Shown>,
    error: Option<String>,
    /// The worker's time of the last answer, in ms.
    ms: Option<f64>,
    /// The scheduler's switches for the events from the page.
    pub switches: Switches,
    /// The last failover readiness, while the fleet is as it was then.
    readiness: Option<Rc<allot_core::kubernetes::readiness::Report>>,
}

/// The control plane's settings a what-if from the page carries: Karmada's feature gates that
/// change a fleet's answer, read from allot's table of gates (docs/rules/versions.md "Feature
/// gates"), as `allot plan --feature-gates` sets them, and the taint eviction of
/// `--taint-eviction` (gate Failover and `--enable-no-execute-taint-eviction`, §25.1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Switches {
    /// Per gate of [`Switches::gates`], a bit: on.
    on: u32,
    /// Gate Failover and `--enable-no-execute-taint-eviction`: a NoExecute taint evicts.
    pub evict: bool,
    /// `--no-execute-taint-eviction-purge-mode=Directly` (else Gracefully, the default).
    pub directly: bool,
    /// `--graceful-eviction-timeout` in seconds (absent: 10 minutes).
    pub timeout: Option<u32>,
    /// The fleet as it stands this many seconds after the event (absent: settled).
    pub at: Option<u32>,
}

impl Default for Switches {
    /// Each gate as the newest release has it by default.
    fn default() -> Self {
        let mut s = Switches {
            on: 0,
            evict: false,
            directly: false,
            timeout: None,
            at: None,
        };
        for g in Switches::gates() {
            s.turn(g, g.default_in(Version::NEWEST));
        }
        s
    }
}

impl Switches {
    /// The gates the page switches: those that change a fleet's answer, but Failover, which
    /// the taint eviction switch carries.
    pub fn gates() -> impl Iterator<Item = Gate> {
        Gate::all().filter(|g| g.effect().is_some() && *g != Gate::Failover)
    }

    pub fn is_on(self, gate: Gate) -> bool {
        self.on & (1 << gate as u32) != 0
    }

    pub fn turn(&mut self, gate: Gate, on: bool) {
        if on {
            self.on |= 1 << gate as u32;
        } else {
            self.on &= !(1 << gate as u32);
        }
    }

    /// These switches with `gate` set to `on`.
    pub fn with(mut self, gate: Gate, on: bool) -> Switches {
        self.turn(gate, on);
        self
    }

    /// `what_if` with these settings.
    fn set(self, what_if: &mut Value) {
        what_if["featureGates"] = self.feature_gates();
        what_if["taintEviction"] = self.evict.into();
        if self.directly {
            what_if["noExecuteTaintEvictionPurgeMode"] = "Directly".into();
        }
        for (key, seconds) in self.times() {
            if let Some(n) = seconds {
                what_if[key] = format!("{n}s").into();
            }
        }
    }

    /// The switched gates as `featureGates` writes them: `{Gate: on}`.
    fn feature_gates(self) -> Value {
        Switches::gates()
            .map(|g| (g.name().to_string(), Value::from(self.is_on(g))))
            .collect::<serde_json::Map<String, Value>>()
            .into()
    }

    /// The timed settings, by the what-if's key (and the saved history's, with `Seconds`).
    fn times(self) -> [(&'static str, Option<u32>); 2] {
        [("gracefulEvictionTimeout", self.timeout), ("at", self.at)]
    }

    /// As a saved history carries them (`featureGates`, `taintEviction`, `purgeDirectly`,
    /// `gracefulEvictionTimeoutSeconds`, `atSeconds`).
    fn save(self, saved: &mut Value) {
        saved["featureGates"] = self.feature_gates();
        saved["taintEviction"] = self.evict.into();
        saved["purgeDirectly"] = self.directly.into();
        for (key, seconds) in self.times() {
            if let Some(n) = seconds {
                saved[format!("{key}Seconds")] = n.into();
            }
        }
    }

    /// Read back; a history saved before the gates were switched one by one carries
    /// `protect` and `workloadAffinity`.
    fn restored(v: &Value) -> Switches {
        let on = |key: &str| v.get(key).and_then(Value::as_bool);
        let seconds = |key: &str| {
            v.get(key)
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok())
        };
        let mut s = Switches {
            evict: on("taintEviction").unwrap_or(false),
            directly: on("purgeDirectly").unwrap_or(false),
            timeout: seconds("gracefulEvictionTimeoutSeconds"),
            at: seconds("atSeconds"),
            ..Switches::default()
        };
        for (key, gate) in [
            ("protect", Gate::SchedulingOvercommitProtection),
            ("workloadAffinity", Gate::WorkloadAffinity),
        ] {
            if let Some(set) = on(key) {
                s.turn(gate, set);
            }
        }
        let gates = v.get("featureGates").and_then(Value::as_object);
        for (name, set) in gates.into_iter().flatten() {
            if let (Some(g), Some(set)) = (Gate::named(name), set.as_bool()) {
                s.turn(g, set);
            }
        }
        s
    }
}

pub enum Msg {
    Sent(u32, Pending, String),
    Slow(u32),
    /// Boxed: a reply carries a whole plan.
    Reply(Box<Reply>),
    Progress(u32, Progress),
    /// The request in flight stopped: its worker is gone.
    Cancelled,
    Switches(Switches),
    Failed(String),
}

impl Reducible for Model {
    type Action = Msg;

    fn reduce(self: Rc<Self>, action: Msg) -> Rc<Self> {
        let mut m = (*self).clone();
        match action {
            Msg::Sent(id, pending, label) => {
                if pending == Pending::Burst(None) {
                    m.kept = m.plan.clone();
                }
                m.pending = Some((id, pending, label));
                m.slow = false;
                m.progress = None;
                m.error = None;
            }
            Msg::Progress(id, progress) => {
                if m.pending.as_ref().is_none_or(|(p, ..)| *p != id) {
                    return self;
                }
                m.progress = Some(progress);
            }
            Msg::Cancelled => {
                // A burst's second half: its first is shown in place of the plan before.
                if let Some((_, Pending::Burst(Some(_)), _)) = m.pending {
                    m.plan = m.kept.take();
                }
                m.pending = None;
                m.slow = false;
                m.progress = None;
            }
            Msg::Slow(id) => {
                if m.pending.as_ref().is_some_and(|(p, ..)| *p == id) {
                    m.slow = true;
                }
            }
            Msg::Switches(on) => m.switches = on,
            Msg::Failed(why) => {
                m.pending = None;
                m.error = Some(why);
            }
            Msg::Reply(reply) => {
                let reply = *reply;
                let Some((id, pending, label)) = m.pending.take() else {
                    return self;
                };
                if id != reply.id {
                    m.pending = Some((id, pending, label));
                    return Rc::new(m);
                }
                m.slow = false;
                m.progress = None;
                m.ms = Some(reply.ms);
                match reply.answer {
                    Err(why) => m.error = Some(why),
                    Ok(answer) => m.take(pending, label, answer),
                }
            }
        }
        Rc::new(m)
    }
}

impl Model {
    fn take(&mut self, pending: Pending, label: String, a: Answer) {
        if let Some(s) = a.state {
            self.state = Some(Rc::new(s));
        }
        if let (Some(clusters), Some(plan), Some(state)) = (a.clusters, &a.plan, &self.state) {
            self.state = Some(Rc::new(state.after(plan, clusters)));
        }
        if let Some(r) = a.report {
            self.report = Some(Rc::new(r));
        }
        if let Some(p) = a.policies {
            self.policies = Some(Rc::new(p));
        }
        let shown = a.plan.map(|plan| Shown {
            label: label.clone(),
            plan: Rc::new(plan),
        });
        // Any other answer is a fleet changed, or read again: its readiness is to ask anew.
        if pending != Pending::Readiness && pending != Pending::Restore {
            self.readiness = None;
        }
        match pending {
            Pending::Open {
                source,
                history,
                at,
            } => {
                self.source = Some(source);
                self.at = a.at.unwrap_or(at);
                // A replayed history's plan is its last step's.
                self.plan = shown.map(|s| Shown {
                    label: history
                        .get(self.at.wrapping_sub(1))
                        .map_or(s.label.clone(), |step| step.label.clone()),
                    ..s
                });
                self.history = history;
                self.burst = None;
            }
            Pending::Apply(step) => {
                self.history.truncate(self.at);
                self.history.push(step);
                self.at = self.history.len();
                self.plan = shown;
                self.burst = None;
            }
            Pending::Go(k) => {
                self.at = a.at.unwrap_or(k);
                self.plan = None;
                self.burst = None;
            }
            Pending::Burst(Some(without)) => {
                if let Some(with) = shown {
                    self.burst = Some((without, with));
                    self.plan = None;
                }
            }
            Pending::Burst(None) => {
                self.plan = shown;
                self.burst = None;
            }
            Pending::Restore => self.at = a.at.unwrap_or(self.at),
            Pending::Readiness => self.readiness = a.readiness.map(Rc::new),
        }
    }

    /// The history as a share link or an exported file carries it.
    fn saved(&self) -> Option<Value> {
        let source = self.source.as_ref()?;
        let mut saved = json!({
            "allotFleet": 1,
            "source": source.to_json(),
            "steps": self.history.iter().map(|s| json!({"label": s.label, "whatIf": s.what_if})).collect::<Vec<_>>(),
            "at": self.at,
        });
        self.switches.save(&mut saved);
        Some(saved)
    }
}

/// A saved history read back: the source, the steps and where the fleet was.
fn restored(v: &Value) -> Result<(Source, Vec<Step>, usize, Switches), String> {
    let source = v
        .get("source")
        .and_then(Source::from_json)
        .ok_or("no fleet (source.example or source.dump) in it")?;
    let steps: Vec<Step> = v
        .get("steps")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|s| Step {
                    label: s["label"].as_str().unwrap_or("event").into(),
                    what_if: s["whatIf"].clone(),
                })
                .collect()
        })
        .unwrap_or_default();
    let at = v
        .get("at")
        .and_then(Value::as_u64)
        .map_or(steps.len(), |a| (a as usize).min(steps.len()));
    Ok((source, steps, at, Switches::restored(v)))
}

/// Links up to this many characters carry a pasted dump; a larger one goes in the file.
const LINK_DUMP: usize = 16_000;

#[derive(Properties, PartialEq)]
pub struct FleetProps {
    /// The example to start from (a widget's `fleet` attribute); else the share link's, else
    /// none.
    #[prop_or_default]
    pub example: Option<String>,
    /// Embedded in a page of the book: no share link in the address bar.
    #[prop_or_default]
    pub embedded: bool,
    /// Where the example manifests are served (a widget's playground address).
    #[prop_or_default]
    pub site: Site,
}

/// The fleet's worker, its answers and progress told to the view's model.
fn start_worker(model: &UseReducerHandle<Model>) -> Option<Worker> {
    let (replies, progress) = (model.dispatcher(), model.dispatcher());
    Worker::start(
        Callback::from(move |r: Reply| replies.dispatch(Msg::Reply(Box::new(r)))),
        Callback::from(move |(id, p): (u32, Progress)| progress.dispatch(Msg::Progress(id, p))),
    )
    .ok()
}

/// Everything the page's controls need to ask the worker.
#[derive(Clone)]
pub struct Ask {
    model: UseReducerHandle<Model>,
    /// Replaced by a new one when a request is cancelled.
    worker: Rc<std::cell::RefCell<Option<Worker>>>,
    next: Rc<std::cell::Cell<u32>>,
    /// The switches as they are now (the view sets them on each render): a control rendered
    /// before they changed applies its event with them.
    switches: Rc<std::cell::Cell<Switches>>,
    site: Site,
}

/// One view's handle is the same whatever its model: the lists given it re-render when the
/// fleet changes, not on every message of a request in flight.
impl PartialEq for Ask {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.next, &other.next) && self.site == other.site
    }
}

impl Ask {
    fn send(&self, op: &str, pending: Pending, label: &str, fields: Value, input: Option<&str>) {
        let worker = self.worker.borrow();
        let Some(worker) = worker.as_ref() else {
            self.model
                .dispatch(Msg::Failed("the fleet's worker did not start".into()));
            return;
        };
        let id = self.next.get() + 1;
        self.next.set(id);
        self.model.dispatch(Msg::Sent(id, pending, label.into()));
        worker.send(id, op, fields, input);
        let model = self.model.clone();
        gloo_timers::callback::Timeout::new(200, move || model.dispatch(Msg::Slow(id))).forget();
    }

    /// Read `source`, then apply `history`'s steps and go to step `at`.
    pub fn open(&self, source: Source, history: Vec<Step>, at: usize) {
        self.read(source, history, at, false);
    }

    /// Stop the request in flight: its worker is terminated and a new one reads the fleet as
    /// it was before the request (the source and the history the page keeps), nothing shown
    /// changing.
    pub fn cancel(&self) {
        if self.model.pending.is_none() {
            return;
        }
        // The old worker is terminated as it is dropped.
        self.worker.replace(start_worker(&self.model));
        self.model.dispatch(Msg::Cancelled);
        if let Some(source) = self.model.source.clone() {
            self.read(source, self.model.history.clone(), self.model.at, true);
        }
    }

    /// [`Ask::open`]; `restore`: the fleet read again after a cancel, nothing shown changing.
    fn read(&self, source: Source, history: Vec<Step>, at: usize, restore: bool) {
        let ask = self.clone();
        yew::platform::spawn_local(async move {
            let text: Rc<str> = match &source {
                Source::Dump(t) => t.clone(),
                Source::Example(id) => {
                    match platform::fetch_text(&ask.site, &format!("manifests/{id}.yaml")).await {
                        Ok(t) => t.into(),
                        Err(e) => return ask.model.dispatch(Msg::Failed(e)),
                    }
                }
            };
            let what_ifs: Vec<Value> = history.iter().map(|s| s.what_if.clone()).collect();
            let fields = json!({"options": {}, "history": what_ifs, "at": at});
            let (pending, label) = if restore {
                (Pending::Restore, "the fleet as it was, read again")
            } else {
                (
                    Pending::Open {
                        source,
                        history,
                        at,
                    },
                    "the fleet as read",
                )
            };
            ask.send("open", pending, label, fields, Some(&text));
        });
    }

    /// Apply an event: `what_if` without the scheduler's settings, which the page adds.
    pub fn apply(&self, label: String, mut what_if: Value) {
        self.switches.get().set(&mut what_if);
        let step = Step {
            label: label.clone(),
            what_if: what_if.clone(),
        };
        self.send(
            "apply",
            Pending::Apply(step),
            &label,
            json!({ "whatIf": what_if }),
            None,
        );
    }

    pub fn go(&self, k: usize) {
        self.send(
            "go",
            Pending::Go(k),
            &format!("step {k}"),
            json!({ "k": k }),
            None,
        );
    }

    /// Replay every binding of the fleet as the scheduler takes them after a restart (a burst
    /// of creations when none is scheduled yet) without SchedulingOvercommitProtection, then
    /// with it.
    pub fn burst(&self) {
        self.send(
            "plan",
            Pending::Burst(None),
            "burst without SchedulingOvercommitProtection",
            json!({ "whatIf": self.burst_what_if(false) }),
            None,
        );
    }

    /// Plan every failure of `each` (`cluster`, `zone` or `region`) over the fleet as it is,
    /// under the page's settings (docs/rules/fleet.md §34).
    pub fn readiness(&self, each: &str) {
        let mut ask = json!({ "each": each });
        self.switches.get().set(&mut ask);
        self.send(
            "readiness",
            Pending::Readiness,
            &format!("readiness: each {each} failing"),
            // The panel shows no row's workloads: the worker leaves them out of its answer,
            // which the page then reads in a short task (docs/playground.md, the fleet view).
            json!({ "ask": ask, "workloads": false }),
            None,
        );
    }

    /// The burst's what-if: the page's settings, protection as given.
    fn burst_what_if(&self, protect: bool) -> Value {
        let mut what_if = json!({});
        self.switches
            .get()
            .with(Gate::SchedulingOvercommitProtection, protect)
            .set(&mut what_if);
        what_if
    }

    fn burst_second(&self, without: Shown) {
        self.send(
            "plan",
            Pending::Burst(Some(without)),
            "burst with SchedulingOvercommitProtection",
            json!({ "whatIf": self.burst_what_if(true) }),
            None,
        );
    }
}

#[function_component(FleetView)]
pub fn fleet_view(p: &FleetProps) -> Html {
    let model = use_reducer(Model::default);
    let counter = use_memo((), |_| std::cell::Cell::new(0u32));
    let counter: Rc<std::cell::Cell<u32>> = counter;
    let worker = {
        let model = model.clone();
        use_memo((), move |_| std::cell::RefCell::new(start_worker(&model)))
    };
    let switches = use_memo((), |_| std::cell::Cell::new(Switches::default()));
    let switches: Rc<std::cell::Cell<Switches>> = switches;
    switches.set(model.switches);
    let ask = Ask {
        model: model.clone(),
        worker: worker.clone(),
        next: counter.clone(),
        switches,
        site: p.site.clone(),
    };
    // The first answer of a burst asks for the second.
    {
        let ask = ask.clone();
        use_effect_with(model.pending.clone(), move |pending| {
            if pending.is_none() {
                if let Some(shown) = ask
                    .model
                    .plan
                    .clone()
                    .filter(|s| s.label.starts_with("burst without"))
                {
                    if ask.model.burst.is_none() {
                        ask.burst_second(shown);
                    }
                }
            }
        });
    }
    // Start: the widget's example, else the objects the Kubernetes tab opened here, else the
    // share link's history, else nothing loaded.
    {
        let (ask, example, embedded) = (ask.clone(), p.example.clone(), p.embedded);
        use_effect_with((), move |_| {
            if let Some(id) = example {
                ask.open(Source::Example(id), Vec::new(), 0);
            } else if let Some(text) = (!embedded).then(platform::take_fleet_dump).flatten() {
                ask.open(Source::Dump(text.into()), Vec::new(), 0);
            } else if !embedded {
                if let Ok(crate::share::Link::Fleet(v)) =
                    crate::share::decode(&platform::fragment())
                {
                    match restored(&v) {
                        Ok((source, steps, at, switches)) => {
                            ask.model.dispatch(Msg::Switches(switches));
                            ask.open(source, steps, at);
                        }
                        Err(why) => ask.model.dispatch(Msg::Failed(format!(
                            "This fleet link cannot be read: {why}."
                        ))),
                    }
                }
            }
        });
    }
    view::page(&ask, &model, p.embedded)
}

/// The playground's fleet page (`?view=fleet`): the view, with the way back to a scenario.
#[function_component(FleetPage)]
pub fn fleet_page() -> Html {
    html! {
        <main class="playground fleet-page">
            <header>
                <h1>{ "allot playground: a fleet" }</h1>
                <nav class="toolbar" aria-label="views">
                    <a id="to-scenario" class="button" href="./">{ "One binding: the scenario view" }</a>
                </nav>
            </header>
            <FleetView />
            <footer>{ format!("allot {} · ", allot_core::VERSION) }
                <a href="book/">{ "the book: every rule, with live examples" }</a></footer>
        </main>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_history_keeps_the_schedulers_switches() {
        let switches = Switches {
            evict: true,
            directly: true,
            timeout: Some(120),
            at: Some(90),
            ..Switches::default()
        }
        .with(Gate::WorkloadAffinity, true)
        .with(Gate::PriorityBasedScheduling, true);
        let model = Model {
            source: Some(Source::Example("fleet-shop".into())),
            switches,
            ..Model::default()
        };
        let saved = model.saved().expect("a source");
        let (_, _, _, back) = restored(&saved).expect("reads");
        assert_eq!(back, switches);
        let mut what_if = json!({"clusterDown": ["member1"]});
        back.set(&mut what_if);
        assert_eq!(what_if["taintEviction"], true);
        let gates = &what_if["featureGates"];
        assert_eq!(gates["SchedulingOvercommitProtection"], false);
        assert_eq!(gates["WorkloadAffinity"], true);
        assert_eq!(gates["PriorityBasedScheduling"], true);
        assert_eq!(
            gates["CustomizedClusterResourceModeling"], true,
            "on by default"
        );
        assert!(
            gates.get("Failover").is_none(),
            "the eviction switch carries it"
        );
        assert_eq!(what_if["noExecuteTaintEvictionPurgeMode"], "Directly");
        assert_eq!(what_if["gracefulEvictionTimeout"], "120s");
        assert_eq!(what_if["at"], "90s");
        // A history saved before the gates were switched one by one: protection alone.
        let old = json!({"source": {"example": "fleet-shop"}, "protect": true});
        assert_eq!(
            restored(&old).expect("reads").3,
            Switches::default().with(Gate::SchedulingOvercommitProtection, true)
        );
    }

    // The page's switches are the table's gates that change a fleet's answer.
    #[test]
    fn the_switches_read_the_gate_table() {
        let names: Vec<&str> = Switches::gates().map(Gate::name).collect();
        assert_eq!(
            names,
            [
                "CustomizedClusterResourceModeling",
                "PriorityBasedScheduling",
                "MultiplePodTemplatesScheduling",
                "WorkloadAffinity",
                "SchedulingOvercommitProtection"
            ]
        );
        let d = Switches::default();
        assert!(d.is_on(Gate::CustomizedClusterResourceModeling));
        assert!(!d.is_on(Gate::PriorityBasedScheduling));
    }
}
