//! The fleet view's side of its Web Worker (the package's `fleet-worker.js`, which holds the
//! `allot/kubernetes` module and one fleet session): requests out as messages, answers in as
//! JSON text read into the core's own types (the plan, the fleet's state), which the package
//! wrote. Nothing is computed here.

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap};
use std::ops::Deref;
use std::rc::Rc;

use allot_core::karmada::fleet::entry::Condition;
pub use allot_core::karmada::fleet::plan::Plan;
use allot_core::karmada::fleet::plan::{Outcome, Unchanged};
use allot_core::kubernetes::plan::{BindingState, ClusterState, State as Now};
use allot_core::kubernetes::readiness::Report;
use serde::Deserialize;
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::Callback;

use crate::platform;

/// The fleet as it is, as the core's session states it, with the page's order of its
/// bindings. `Eq`, so that the page's lists, given the same state again, compare it by address
/// rather than binding by binding (each binding is shared with the state before while it does
/// not change: an event's new state copies only the bindings its plan lists).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct State {
    now: Now,
    /// The bindings' indices by namespace, policy and name, sorted when first asked for and
    /// kept by the states after while no binding is created.
    #[serde(skip)]
    order: OnceCell<Rc<Vec<usize>>>,
}

impl Deref for State {
    type Target = Now;
    fn deref(&self) -> &Now {
        &self.now
    }
}

/// The `Scheduled` condition `outcome` leaves on its binding, when the scheduler took it.
fn condition(outcome: &Outcome) -> Option<Condition> {
    match outcome {
        Outcome::Changed { .. }
        | Outcome::Unchanged {
            why: Unchanged::SameResult { .. },
        } => Some(Condition::Success),
        Outcome::Unschedulable { condition } => Some(condition.clone()),
        Outcome::Evicted | Outcome::Unchanged { .. } => None,
    }
}

impl State {
    /// The bindings' indices by namespace, policy and name.
    pub fn order(&self) -> &[usize] {
        self.order.get_or_init(|| {
            let mut order: Vec<usize> = (0..self.bindings.len()).collect();
            // Compared in place (a key of owned strings would allocate on every comparison).
            let key = |i: usize| {
                let b = &self.bindings[i];
                (&b.id.namespace, &b.policy, &b.id.name)
            };
            order.sort_by(|&a, &b| key(a).cmp(&key(b)));
            Rc::new(order)
        })
    }

    /// The fleet after `plan`, whose bindings are every one that changed or was created, and
    /// with `clusters` as they are now.
    pub fn after(&self, plan: &Plan, clusters: Vec<ClusterState>) -> State {
        let mut next = State {
            now: Now {
                clusters,
                bindings: self.bindings.clone(),
            },
            // An event changes bindings' placements and replicas, not their names or policies.
            order: self.order.clone(),
        };
        // By namespace and name, borrowed: no key of 10,000 is allocated on an event.
        let at: HashMap<(&str, &str), usize> = self
            .bindings
            .iter()
            .enumerate()
            .map(|(i, b)| ((b.id.namespace.as_str(), b.id.name.as_str()), i))
            .collect();
        for b in &plan.bindings {
            let key = (b.id.namespace.as_str(), b.id.name.as_str());
            let scheduled = condition(&b.outcome);
            match at.get(&key).and_then(|&i| next.now.bindings.get_mut(i)) {
                Some(s) => {
                    let s = Rc::make_mut(s);
                    s.clusters = BTreeMap::clone(&b.after);
                    s.replicas = b.replicas;
                    if let Some(c) = scheduled {
                        s.condition = c;
                    }
                }
                // A binding the event created (a template applied): what the plan says of it
                // (claimed when the scheduler took it).
                None => next.now.bindings.push(Rc::new(BindingState {
                    id: b.id.clone(),
                    workload: None,
                    policy: None,
                    claimed: scheduled.is_some(),
                    replicas: b.replicas,
                    clusters: BTreeMap::clone(&b.after),
                    condition: scheduled.unwrap_or_default(),
                })),
            }
        }
        if next.bindings.len() != self.bindings.len() {
            next.order = OnceCell::new();
        }
        next
    }
}

/// What the worker answers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Answer {
    pub state: Option<State>,
    /// After an applied event: every cluster (the bindings that changed are the plan's).
    pub clusters: Option<Vec<ClusterState>>,
    pub at: Option<usize>,
    pub steps: Option<usize>,
    pub plan: Option<Plan>,
    pub report: Option<Value>,
    /// The PropagationPolicies and ClusterPropagationPolicies as they are now.
    pub policies: Option<Vec<Value>>,
    /// A failover readiness of the fleet as it is (docs/rules/fleet.md §34), as the core
    /// answers it.
    pub readiness: Option<Report>,
}

/// How far a request has got: the dump's size as an open starts reading it, then the
/// bindings the scheduler has taken of those waiting (during an open's replay, in step `step`
/// of `steps`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Progress {
    pub bytes: Option<f64>,
    pub done: f64,
    pub total: f64,
    pub step: Option<(f64, f64)>,
    /// Counting failures planned (a readiness), not bindings scheduled.
    pub failures: bool,
}

impl Progress {
    /// The share done, 0–1: a history's steps each an equal part; none while the dump is read.
    pub fn fraction(&self) -> Option<f64> {
        if self.bytes.is_some() || self.total <= 0.0 {
            return None;
        }
        let within = (self.done / self.total).clamp(0.0, 1.0);
        Some(match self.step {
            Some((k, n)) if n > 0.0 => ((k - 1.0).max(0.0) + within) / n,
            _ => within,
        })
    }
}

/// An answer to request `id`, or its error; `ms`: the time it took in the worker.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub id: u32,
    pub answer: Result<Answer, String>,
    pub ms: f64,
}

/// The worker, and what it calls with each answer.
pub struct Worker {
    inner: web_sys::Worker,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl PartialEq for Worker {
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.inner.terminate();
    }
}

fn get(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

impl Worker {
    /// Start the worker from the package's directory; `on_reply` is told each answer, and
    /// `on_progress` how far the request it names has got.
    pub fn start(
        on_reply: Callback<Reply>,
        on_progress: Callback<(u32, Progress)>,
    ) -> Result<Worker, String> {
        let url = platform::package_file("fleet-worker.js")?;
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let inner = web_sys::Worker::new_with_options(&url, &options)
            .map_err(|e| format!("cannot start {url}: {e:?}"))?;
        let on_message =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let data = e.data();
                let id = get(&data, "id").as_f64().unwrap_or(0.0) as u32;
                let progress = get(&data, "progress");
                if progress.is_object() {
                    let number = |key: &str| get(&progress, key).as_f64();
                    return on_progress.emit((
                        id,
                        Progress {
                            bytes: number("bytes"),
                            done: number("done").unwrap_or(0.0),
                            total: number("total").unwrap_or(0.0),
                            step: number("step").zip(number("steps")),
                            failures: get(&progress, "failures").as_bool() == Some(true),
                        },
                    ));
                }
                let ms = get(&data, "ms").as_f64().unwrap_or(0.0);
                let answer = if get(&data, "ok").as_bool() == Some(true) {
                    let text = get(&data, "text").as_string().unwrap_or_default();
                    serde_json::from_str::<Answer>(&text).map_err(|e| e.to_string())
                } else {
                    let error = get(&data, "error");
                    let message = get(&error, "message").as_string().unwrap_or_default();
                    let path = get(&error, "path").as_string().unwrap_or_default();
                    // As the command says it: the path once, then what is wrong.
                    let said = message
                        .strip_prefix(path.as_str())
                        .and_then(|m| m.strip_prefix(": "))
                        .unwrap_or(&message);
                    Err(if path.is_empty() {
                        message.clone()
                    } else {
                        format!("{path}: {said}")
                    })
                };
                // The page's update in a task of its own: reading a large answer and rendering
                // it are each one task, not one long one.
                let on_reply = on_reply.clone();
                gloo_timers::callback::Timeout::new(0, move || {
                    on_reply.emit(Reply { id, answer, ms })
                })
                .forget();
            });
        inner.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        Ok(Worker {
            inner,
            _on_message: on_message,
        })
    }

    /// Send request `id`: `op` with `fields` (JSON), and the dump's text for `open`.
    pub fn send(&self, id: u32, op: &str, fields: Value, input: Option<&str>) {
        let mut message = match fields {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        message.insert("id".into(), id.into());
        message.insert("op".into(), op.into());
        let Ok(value) = js_sys::JSON::parse(&Value::Object(message).to_string()) else {
            return;
        };
        if let Some(text) = input {
            let _ = js_sys::Reflect::set(&value, &"input".into(), &text.into());
        }
        let _ = self.inner.post_message(&value);
    }
}

#[cfg(test)]
mod tests {
    use super::Progress;

    #[test]
    fn progress_is_a_share_of_the_bindings_and_of_a_historys_steps() {
        let reading = Progress {
            bytes: Some(7e6),
            ..Progress::default()
        };
        assert_eq!(reading.fraction(), None);
        let half = Progress {
            done: 50.0,
            total: 100.0,
            ..Progress::default()
        };
        assert_eq!(half.fraction(), Some(0.5));
        let second_of_four = Progress {
            step: Some((2.0, 4.0)),
            ..half
        };
        assert_eq!(second_of_four.fraction(), Some(0.375));
        assert_eq!(Progress::default().fraction(), None);
    }
}
