//! The `allot/kubernetes` module's own exports: Kubernetes and Karmada objects in (YAML or JSON
//! text, objects, or a list of either), the scenario, the report, the whole schedule and the
//! binding out; a scenario back to objects; documents as YAML. The rules are allot-core's
//! (`kubernetes::{import, explain, export}`); this only translates.

use allot_core::error::{indexed, Error, ErrorCode, Path};
use allot_core::karmada::version::Version;
use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::Object;
use allot_core::scenario::explain::explain as explain_objects;
use allot_core::scenario::export::export;
use allot_core::scenario::objects::import;
use wasm_bindgen::prelude::*;

use crate::bindings::{draw_seed, from_js, text, text_of, to_error, utf8, wrong_type, Text};
use crate::yaml;

/// Objects from what JavaScript hands over: YAML or JSON text, an object (a `List` too), or
/// an array of objects and texts (several files). `at` prefixes error paths
/// (`members[0].objects`).
pub(crate) fn objects_of(value: &JsValue, at: &Path) -> Result<Vec<Object>, JsValue> {
    let within = |e: Error| to_error(e.within(at));
    if let Some(text) = value.dyn_ref::<js_sys::JsString>() {
        return yaml::objects(&utf8(text)).map_err(within);
    }
    if js_sys::Array::is_array(value) {
        let list = js_sys::Array::from(value);
        if list.iter().any(|v| v.is_string()) {
            let mut out = Vec::new();
            for (k, item) in list.iter().enumerate() {
                out.extend(objects_of(&item, &at.clone().index(k))?);
            }
            return Ok(out);
        }
    }
    let text = text_of(value, "objects")?;
    allot_core::kubernetes::objects::read_json(&text).map_err(within)
}

/// `{policy?, members?, karmada?}`: the name of the policy to use over the one Karmada's
/// detector would choose, each member cluster's own Nodes and Pods by cluster name (texts,
/// objects or lists, as for the objects), and the Karmada release the objects come from
/// (`"1.17"`; default the newest).
pub(crate) struct Options {
    policy: Option<String>,
    members: Vec<(String, Vec<Object>)>,
    karmada: Version,
    gates: allot_core::karmada::version::GateSettings,
}

pub(crate) fn options(value: &JsValue) -> Result<Options, JsValue> {
    let mut o = Options {
        policy: None,
        members: Vec::new(),
        karmada: Version::NEWEST,
        gates: Default::default(),
    };
    if value.is_undefined() || value.is_null() {
        return Ok(o);
    }
    if !value.is_object() {
        return Err(wrong_type(
            "options: an object {policy, members, karmada}",
            value,
        ));
    }
    let get = |key: &str| js_sys::Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED);
    let policy = get("policy");
    if let Some(name) = policy.as_string() {
        o.policy = Some(name);
    } else if !policy.is_undefined() && !policy.is_null() {
        return Err(wrong_type("options.policy: a policy's name", &policy));
    }
    let karmada = get("karmada");
    if let Some(text) = karmada.as_string() {
        o.karmada = Version::parse(&text).map_err(|reason| {
            to_error(Error::Input {
                field: "karmada".into(),
                code: ErrorCode::InvalidInput,
                reason,
            })
        })?;
    } else if !karmada.is_undefined() && !karmada.is_null() {
        return Err(wrong_type(
            "options.karmada: a Karmada release such as \"1.18\"",
            &karmada,
        ));
    }
    // `featureGates`: Karmada's `--feature-gates` text or a map of gate to boolean.
    let gates = get("featureGates");
    if !gates.is_undefined() && !gates.is_null() {
        let set: allot_core::karmada::gates::FeatureGates = serde_wasm_bindgen::from_value(gates)
            .map_err(|e| {
            to_error(Error::Input {
                field: "featureGates".into(),
                code: ErrorCode::InvalidInput,
                reason: e.to_string(),
            })
        })?;
        o.gates = allot_core::karmada::version::GateSettings::from_feature_gates(&set);
    }
    let members = get("members");
    if members.is_object() {
        let keys = js_sys::Object::keys(members.unchecked_ref::<js_sys::Object>());
        for (k, key) in keys.iter().enumerate() {
            let name = key.as_string().unwrap_or_default();
            let objects = js_sys::Reflect::get(&members, &key).unwrap_or(JsValue::UNDEFINED);
            let at = indexed("members", k).field("objects");
            o.members.push((name, objects_of(&objects, &at)?));
        }
    } else if !members.is_undefined() && !members.is_null() {
        return Err(wrong_type(
            "options.members: an object of cluster names to objects",
            &members,
        ));
    }
    Ok(o)
}

impl Options {
    /// Each member's objects, as [`Choice`] borrows them.
    pub(crate) fn members(&self) -> Vec<(&str, Vec<Object>)> {
        self.members
            .iter()
            .map(|(name, objects)| (name.as_str(), objects.clone()))
            .collect()
    }

    pub(crate) fn choice<'a>(&'a self, members: &'a [(&'a str, Vec<Object>)]) -> Choice<'a> {
        Choice {
            policy: self.policy.as_deref(),
            members,
            version: self.karmada,
            gates: self.gates,
        }
    }
}

/// Run `f` with the objects and the choice the options make.
pub(crate) fn with_objects<T>(
    input: &JsValue,
    opts: &JsValue,
    f: impl FnOnce(&[Object], &Choice<'_>) -> allot_core::Result<T>,
) -> Result<T, JsValue> {
    let objects = objects_of(input, &Path::root())?;
    let o = options(opts)?;
    let members = o.members();
    let choice = o.choice(&members);
    // A member's errors are located by its position among `members`' keys
    // (`members[0].objects[3].apiVersion`), and name the object.
    f(&objects, &choice).map_err(to_error)
}

/// Objects to `{scenario, report}` as JSON text's bytes.
#[wasm_bindgen(js_name = fromObjects)]
pub fn from_objects(input: JsValue, options: JsValue) -> Result<Text, JsValue> {
    text(Ok(with_objects(&input, &options, import)?))
}

/// Objects to `{scenario, report, outcome, binding, resourceBinding}`, each part written as
/// JSON text's bytes when JavaScript asks for it ([`Explanation::part`]). A given binding is
/// written back whole: its new `spec.clusters` and observed term over every field it came with.
#[wasm_bindgen]
pub fn explain(input: JsValue, options: JsValue) -> Result<Explanation, JsValue> {
    let seed = draw_seed();
    let explained = with_objects(&input, &options, |o, c| explain_objects(o, c, seed))?;
    let resource_binding = match explained.given_binding {
        Some(k) => {
            let given = originals(&input)?.into_iter().nth(k);
            written_over(given, &explained.resource_binding)
        }
        // As a generic value, written as before: its keys in order of name.
        None => serde_json::to_value(&explained.resource_binding)
            .map_err(|e| crate::bindings::coded_error("internal", "", &e.to_string()))?,
    };
    Ok(Explanation {
        explained,
        resource_binding,
    })
}

/// What [`explain`] computed, held until JavaScript has read the parts it asks for: the
/// scenario of a dump of 100,000 Clusters is 40 MB of JSON text and the whole schedule 120 MB,
/// so a caller that reads the placement alone neither writes nor parses the rest. The
/// package's `js/api.js` reads each part once, on first use, and frees the explanation when
/// it has read them all (or when the object is collected).
#[wasm_bindgen]
pub struct Explanation {
    explained: allot_core::scenario::explain::Explained,
    /// The ResourceBinding as written: the given one whole, if one was given.
    resource_binding: serde_json::Value,
}

#[wasm_bindgen]
impl Explanation {
    /// Part `k` of `{scenario, report, outcome, binding, resourceBinding}` (in that order) as
    /// JSON text's bytes.
    pub fn part(&self, k: u32) -> Result<Text, JsValue> {
        let e = &self.explained;
        match k {
            0 => text(Ok(&e.scenario)),
            1 => text(Ok(&e.report)),
            2 => text(Ok(&e.outcome)),
            3 => text(Ok(&e.binding)),
            _ => text(Ok(&self.resource_binding)),
        }
    }
}

/// The objects of `value` as generic values, in the order [`objects_of`] reads them.
fn originals(value: &JsValue) -> Result<Vec<serde_json::Value>, JsValue> {
    if let Some(text) = value.dyn_ref::<js_sys::JsString>() {
        return yaml::values(&utf8(text)).map_err(to_error);
    }
    if js_sys::Array::is_array(value) {
        let list = js_sys::Array::from(value);
        if list.iter().any(|v| v.is_string()) {
            let mut out = Vec::new();
            for item in list.iter() {
                out.extend(originals(&item)?);
            }
            return Ok(out);
        }
    }
    yaml::values(&text_of(value, "objects")?).map_err(to_error)
}

/// The binding `written` made of a `given` one: the given object with the fields a schedule
/// writes (`spec.clusters`, `status.schedulerObservingAffinityName`) taken from `written`,
/// every other field as given, those allot does not read too.
pub fn written_over(
    given: Option<serde_json::Value>,
    written: &allot_core::kubernetes::objects::Object,
) -> serde_json::Value {
    use serde_json::Value;
    let mut out = match given {
        Some(Value::Object(o)) => o,
        _ => return serde_json::to_value(written).unwrap_or(Value::Null),
    };
    let mut set = |section: &str, key: &str, value: Option<Value>| {
        let part = out
            .entry(section)
            .or_insert_with(|| Value::Object(serde_json::Map::new()));
        if let Value::Object(part) = part {
            match value {
                Some(v) => part.insert(key.into(), v),
                None => part.remove(key),
            };
        }
    };
    let clusters = &written.spec.clusters;
    set(
        "spec",
        "clusters",
        (!clusters.is_empty()).then(|| serde_json::to_value(clusters).unwrap_or_default()),
    );
    let observed = &written.status.scheduler_observing_affinity_name;
    set(
        "status",
        "schedulerObservingAffinityName",
        (!observed.is_empty()).then(|| Value::String(observed.clone())),
    );
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_binding_keeps_every_field_allot_does_not_read() {
        let given = r#"{"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
          "metadata": {"name": "nginx-deployment", "namespace": "default", "resourceVersion": "7",
            "finalizers": ["karmada.io/binding-controller"]},
          "spec": {"replicas": 3, "resource": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx"},
            "clusters": [{"name": "member1", "replicas": 3}],
            "gracefulEvictionTasks": [{"fromCluster": "member1", "replicas": 2,
              "reason": "TaintUntolerated", "producer": "TaintManager"}],
            "failover": {"application": {"decisionConditions": {"tolerationSeconds": 30}}}},
          "status": {"conditions": [{"type": "Scheduled", "status": "True", "reason": "Success",
            "message": "Binding has been scheduled successfully."}]}}"#;
        let mut written = yaml::objects(given).unwrap().remove(0);
        written.spec.clusters = vec![allot_core::kubernetes::karmada::TargetCluster {
            name: "member2".into(),
            replicas: 3,
        }];
        let original: serde_json::Value = serde_json::from_str(given).unwrap();
        let out = written_over(Some(original.clone()), &written);
        assert_eq!(
            out["spec"]["clusters"],
            serde_json::json!([{"name": "member2", "replicas": 3}])
        );
        let mut expected = original;
        expected["spec"]["clusters"] = out["spec"]["clusters"].clone();
        assert_eq!(out, expected, "every other field as given");
        assert_eq!(
            out["spec"]["gracefulEvictionTasks"][0]["producer"],
            "TaintManager"
        );
    }
}

/// A Karmada scenario to `{objects, members, unexpressed}` as JSON text's bytes.
#[wasm_bindgen(js_name = toObjects)]
pub fn to_objects(scenario: JsValue) -> Result<Text, JsValue> {
    let s = from_js(scenario, "a scenario")?;
    text(export(&s))
}

/// One value written as YAML or JSON, as JSON text (`null` for empty text).
#[wasm_bindgen(js_name = fromYaml)]
pub fn from_yaml(text: &str) -> Result<String, JsValue> {
    yaml::value(text).map_err(to_error)
}

/// Documents as YAML text: an array is one document per item, anything else one document.
#[wasm_bindgen(js_name = toYaml)]
pub fn to_yaml(documents: JsValue) -> Result<String, JsValue> {
    let many = js_sys::Array::is_array(&documents);
    // In the order the keys are given (a plan's binding starts with its id).
    let value: yaml::Ordered = from_js(documents, "documents")?;
    let list = if many { value.documents() } else { vec![value] };
    yaml::to_yaml(&list).map_err(to_error)
}

/// A Karmada scenario's schedule as the binding it writes: `{binding, resourceBinding}` as
/// JSON text's bytes. `template` (`{name, namespace}`, optional) names the template the
/// binding is for (else `workload` in `default`).
#[wasm_bindgen(js_name = bindingOf)]
pub fn binding_of(scenario: JsValue, template: JsValue) -> Result<Text, JsValue> {
    let s: allot_core::scenario::Scenario = from_js(scenario, "a scenario")?;
    let get = |key: &str| {
        js_sys::Reflect::get(&template, &key.into())
            .ok()
            .and_then(|v| v.as_string())
            .filter(|v| !v.is_empty())
    };
    let mut resource = allot_core::scenario::export::reference(&s);
    if template.is_object() {
        if let Some(name) = get("name") {
            resource.name = name;
        }
        if let Some(namespace) = get("namespace") {
            resource.namespace = namespace;
        }
    }
    let seed = draw_seed();
    text(allot_core::scenario::explain::written(
        &s,
        Some(resource),
        seed,
    ))
}
