//! The `allot/fleet` module's own exports: a whole dump's bindings planned under what-ifs
//! (`planFleet`), and a fleet kept between what-ifs (`FleetSession`, the playground's fleet
//! view). The module also carries everything `allot/kubernetes` exports, whose readers of
//! objects and options these use. The rules are allot-core's (`kubernetes::plan`,
//! docs/rules/fleet.md); this only translates.

use allot_core::error::Path;
use allot_core::karmada::fleet::plan::{Plan, Summary};
use allot_core::karmada::fleet::words;
use allot_core::kubernetes::objects::Object;
use allot_core::kubernetes::plan::{plan, Session, WhatIf};
use allot_core::kubernetes::readiness::{readiness as ready, Ask};
use wasm_bindgen::prelude::*;

use crate::bindings::{from_js, text, to_error, wrong_type, Text};
use crate::kubernetes::{objects_of, options, with_objects, Options};

/// Objects (a whole dump) and what-ifs to the plan: `{steps, bindings, clusters, summary,
/// report, resourceBindings}` as JSON text's bytes. `what_if` is [`WhatIf`]'s fields
/// (`clusterDown`, `cordon`, `scale`, ...) plus `addClusters` and `apply`: objects, as for the
/// input; absent or empty: the drift of today's bindings.
#[wasm_bindgen(js_name = planFleet)]
pub fn plan_fleet(input: JsValue, options: JsValue, what_if: JsValue) -> Result<Text, JsValue> {
    let (what, added, applied) = what_ifs(&what_if)?;
    text(Ok(with_objects(&input, &options, |o, c| {
        plan(o, c, &what, &added, &applied)
    })?))
}

/// Objects (a whole dump) and what to fail: every failure of the fleet (`each`: `cluster`,
/// `zone` or `region`; `select`: a label selector of the clusters that fail), each planned as
/// `planFleet` plans `clusterDown`, worst first: `{each, select, rows, summary, before?,
/// report}` as JSON text's bytes. `ask` also takes `planFleet`'s what-if fields: its settings
/// apply to every failure, and its what-ifs are a change answered beside the fleet before it
/// (`before`). `progress(done, total)`, when given, is called after each failure planned.
#[wasm_bindgen]
pub fn readiness(
    input: JsValue,
    options: JsValue,
    ask: JsValue,
    progress: Option<js_sys::Function>,
) -> Result<Text, JsValue> {
    let (ask, what, added, applied) = asked(&ask)?;
    let mut report = reporter(progress);
    text(Ok(with_objects(&input, &options, |o, c| {
        ready(o, c, &what, &ask, &added, &applied, &mut report)
    })?))
}

/// A plan's counts (its `summary`'s fields; `said` is not read) in one sentence, as the planner
/// says a whole plan's (`summary.said`): for the part of a plan a reader counts itself, as
/// `allot plan --cluster` counts the bindings that touch one cluster.
#[wasm_bindgen(js_name = planSummary)]
pub fn plan_summary(counts: JsValue) -> Result<String, JsValue> {
    let s: Summary = from_js(counts, "counts")?;
    Ok(words::plan_summary(&s))
}

/// `progress(done, total)` as a Rust callback (what the function throws does not stop the
/// work).
fn reporter(progress: Option<js_sys::Function>) -> impl FnMut(usize, usize) {
    move |done: usize, total: usize| {
        if let Some(f) = &progress {
            let _ = f.call2(&JsValue::NULL, &done.into(), &total.into());
        }
    }
}

/// [`Ask`] (`each`, `select`) and the what-ifs beside it from what JavaScript hands over.
fn asked(ask: &JsValue) -> Result<(Ask, WhatIf, Vec<Object>, Vec<Object>), JsValue> {
    if ask.is_undefined() || ask.is_null() {
        return Ok((Ask::default(), WhatIf::default(), Vec::new(), Vec::new()));
    }
    if !ask.is_object() || js_sys::Array::is_array(ask) {
        return Err(wrong_type("ask: an object {each, select, ...}", ask));
    }
    let rest = js_sys::Object::assign(&js_sys::Object::new(), ask.unchecked_ref());
    let own = js_sys::Object::new();
    for key in ["each", "select"] {
        let value = js_sys::Reflect::get(&rest, &key.into()).unwrap_or(JsValue::UNDEFINED);
        if !value.is_undefined() && !value.is_null() {
            let _ = js_sys::Reflect::set(&own, &key.into(), &value);
        }
        let _ = js_sys::Reflect::delete_property(&rest, &key.into());
    }
    let ask: Ask = from_js(own.into(), "ask")?;
    let (what, added, applied) = what_ifs(&rest.into())?;
    Ok((ask, what, added, applied))
}

/// [`WhatIf`] and the objects of `addClusters` and `apply` from what JavaScript hands over.
fn what_ifs(what_if: &JsValue) -> Result<(WhatIf, Vec<Object>, Vec<Object>), JsValue> {
    let mut what = WhatIf::default();
    let mut added = Vec::new();
    let mut applied = Vec::new();
    let mut deleted = Vec::new();
    if what_if.is_undefined() || what_if.is_null() {
        return Ok((what, added, applied));
    }
    if !what_if.is_object() || js_sys::Array::is_array(what_if) {
        return Err(wrong_type(
            "whatIf: an object {clusterDown, cordon, ...}",
            what_if,
        ));
    }
    let rest = js_sys::Object::assign(&js_sys::Object::new(), what_if.unchecked_ref());
    for (key, into) in [
        ("addClusters", &mut added),
        ("apply", &mut applied),
        ("delete", &mut deleted),
    ] {
        let value = js_sys::Reflect::get(&rest, &key.into()).unwrap_or(JsValue::UNDEFINED);
        if !value.is_undefined() && !value.is_null() {
            *into = objects_of(&value, &Path::fields(key))?;
        }
        let _ = js_sys::Reflect::delete_property(&rest, &key.into());
    }
    what = from_js(rest.into(), "whatIf")?;
    // `delete`: policies by object, as `deletePolicy` names them.
    let named = allot_core::kubernetes::plan::policy_names(&deleted).map_err(to_error)?;
    what.delete_policy.extend(named);
    Ok((what, added, applied))
}

/// A fleet kept in the module between what-ifs (the playground's fleet view): the dump read
/// once, then each what-if planned against the fleet as the applied ones left it, and a
/// history to go back and forth in. The rules are allot-core's
/// (`kubernetes::plan::Session`).
#[wasm_bindgen]
pub struct FleetSession {
    options: Options,
    /// The fleet as read, then after each applied what-if.
    history: Vec<Session>,
    /// The position in `history` of the fleet as it is now.
    at: usize,
}

impl FleetSession {
    fn now(&self) -> Result<&Session, JsValue> {
        self.history
            .get(self.at)
            .ok_or_else(|| crate::bindings::coded_error("internal", "", "no fleet"))
    }

    /// Plan `what_if` over the fleet as it is now: the plan (the bindings it touched) and
    /// the session after it. `progress`, when given, is called with `(done, total)`: the
    /// bindings the scheduler has taken of those waiting, at each hundredth and at the end.
    fn step(
        &self,
        what_if: &JsValue,
        progress: Option<js_sys::Function>,
    ) -> Result<(Plan, Session), JsValue> {
        let (what, added, applied) = what_ifs(what_if)?;
        let members = self.options.members();
        let choice = self.options.choice(&members);
        let mut last = usize::MAX;
        let mut report = |done: usize, total: usize| {
            let Some(f) = &progress else { return };
            let hundredth = done * 100 / total.max(1);
            if hundredth != last || done == total {
                last = hundredth;
                // What the callback throws does not stop the plan.
                let _ = f.call2(&JsValue::NULL, &done.into(), &total.into());
            }
        };
        self.now()?
            .plan_reporting(&choice, &what, &added, &applied, &mut report)
            .map(|(p, s)| (p.touched(), s))
            .map_err(to_error)
    }
}

#[wasm_bindgen]
impl FleetSession {
    /// Read a dump (objects as for `planFleet`) under `options`.
    #[wasm_bindgen(constructor)]
    pub fn new(input: JsValue, options: JsValue) -> Result<FleetSession, JsValue> {
        let objects = objects_of(&input, &Path::root())?;
        let o = self::options(&options)?;
        let members = o.members();
        let session = Session::read(objects, &o.choice(&members)).map_err(to_error)?;
        Ok(FleetSession {
            options: o,
            history: vec![session],
            at: 0,
        })
    }

    /// The plan of `what_if` over the fleet as it is now, the fleet left as it is:
    /// `{steps, bindings, clusters, summary}` as JSON text's bytes, without the bindings the
    /// what-if did not concern ([`Plan::touched`]).
    /// `progress(done, total)`, when given, follows the scheduler through the fleet.
    pub fn plan(
        &self,
        what_if: JsValue,
        progress: Option<js_sys::Function>,
    ) -> Result<Text, JsValue> {
        text(Ok(self.step(&what_if, progress)?.0))
    }

    /// [`FleetSession::plan`], and the fleet after it becomes the fleet as it is: a step of
    /// the history (the steps after the current one are dropped).
    pub fn apply(
        &mut self,
        what_if: JsValue,
        progress: Option<js_sys::Function>,
    ) -> Result<Text, JsValue> {
        let (plan, next) = self.step(&what_if, progress)?;
        self.history.truncate(self.at + 1);
        self.history.push(next);
        self.at = self.history.len() - 1;
        text(Ok(plan))
    }

    /// Make step `k` of the history (0: the dump as read) the fleet as it is; false when
    /// there is no such step.
    pub fn go(&mut self, k: usize) -> bool {
        let there = k < self.history.len();
        if there {
            self.at = k;
        }
        there
    }

    /// The position of the fleet as it is in the history.
    #[wasm_bindgen(getter)]
    pub fn at(&self) -> usize {
        self.at
    }

    /// How many fleets the history holds (the dump as read, then one per applied what-if).
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> usize {
        self.history.len()
    }

    /// The fleet as it is: `{clusters, bindings}` (each cluster's health, taints, labels,
    /// load and capacity; each binding's workload, policy and placement) as JSON text's bytes.
    pub fn state(&self) -> Result<Text, JsValue> {
        text(Ok(self.now()?.state()))
    }

    /// Every cluster as it is (`state()`'s clusters) as JSON text's bytes: after an applied
    /// what-if, with its plan's bindings, what changed.
    pub fn clusters(&self) -> Result<Text, JsValue> {
        text(Ok(self.now()?.clusters()))
    }

    /// Every failure of the fleet as it is now, as [`readiness`] answers it over a dump:
    /// `ask` is `{each, select}` with what-if fields; `progress(done, total)` after each
    /// failure planned.
    pub fn readiness(
        &self,
        ask: JsValue,
        progress: Option<js_sys::Function>,
    ) -> Result<Text, JsValue> {
        let (ask, what, added, applied) = asked(&ask)?;
        let members = self.options.members();
        let choice = self.options.choice(&members);
        let mut report = reporter(progress);
        text(
            self.now()?
                .readiness(&choice, &what, &ask, &added, &applied, &mut report),
        )
    }

    /// How the dump was read (`{clusters, problems}`) as JSON text's bytes.
    pub fn report(&self) -> Result<Text, JsValue> {
        text(Ok(self.now()?.report()))
    }

    /// The PropagationPolicies and ClusterPropagationPolicies as they are now (the dump's,
    /// with those applied since), as allot reads them, as JSON text's bytes.
    pub fn policies(&self) -> Result<Text, JsValue> {
        text(Ok(self.now()?.policies()))
    }
}
