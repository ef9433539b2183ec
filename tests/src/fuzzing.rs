//! What the fuzz targets (`fuzz/`, `./dev fuzz`) run, shared with the ordinary suite that
//! replays the inputs they once crashed on (`fuzz/regressions/`): a scenario through every
//! call, and each answer through the outcome writer. A panic anywhere is a crash libFuzzer
//! keeps; an error is an answer.

use allot_core::json::to_json;
use allot_core::scenario::{self, Family, Scenario};

/// The seed used when a scenario has none.
const DRAWN: u64 = 0xA110C;

/// `schedule` and the family's granular calls, each answer written as JSON text.
pub fn every_call(s: &Scenario) {
    fn written<T: serde::Serialize>(r: allot_core::Result<T>) {
        match r {
            Ok(v) => {
                to_json(&v).expect("an outcome is always written");
            }
            Err(e) => {
                to_json(&e).expect("an error is always written");
                assert!(!e.to_string().is_empty());
            }
        }
    }
    written(scenario::schedule(s, DRAWN));
    match s.family() {
        Ok(Family::Karmada(_)) => {
            written(scenario::estimate(s));
            written(scenario::divide(s, DRAWN));
            written(scenario::filter(s));
            written(scenario::select(s));
        }
        Ok(Family::Eru(_)) => {
            written(scenario::capacity(s));
            written(scenario::deploy(s, DRAWN));
        }
        Err(_) => {}
    }
}

/// Read JSON text as a scenario and run every call.
pub fn scenario_text(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(s) = scenario::from_json::<Scenario>(text) {
            every_call(&s);
        }
    }
}

/// Read a quantity for several resources; a canonical form reads back as the same amount.
pub fn quantity_text(data: &[u8]) {
    use allot_core::quantity::{self, Unit};
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for resource in ["cpu", "memory", "pods", "requests.cpu"] {
        if let Ok(v) = quantity::read(text, resource) {
            assert_eq!(
                quantity::parse(&v.canonical, Unit::of(resource)).ok(),
                v.exact.parse::<u64>().ok()
            );
        }
    }
    if let Ok(x) = text.parse::<f64>() {
        let _ = quantity::read_number(x, "cpu");
    }
}

/// Read customized resource models and check them, as `validateResourceModels` does.
pub fn resource_models_text(data: &[u8]) {
    use allot_core::estimate::models::{validate_list, ResourceModel};
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(models) = scenario::from_json::<Vec<ResourceModel>>(text) {
        if let Err(e) = validate_list(&models) {
            to_json(&e).expect("an error is always written");
        }
    }
}

/// Kubernetes and Karmada objects as text (one, a List, an array), imported into a scenario
/// plainly and with a chosen policy and member state, and the scenario scheduled.
pub fn objects_text(data: &[u8]) {
    use allot_core::kubernetes::import::Choice;
    use allot_core::scenario::objects::import;
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // YAML or JSON, as the package and the playground read it.
    let Ok(objects) = allot_web::yaml::objects(text) else {
        return;
    };
    // The same objects also stand as the first cluster's member state (its Nodes and Pods).
    let first = objects.iter().find(|o| o.kind == "Cluster");
    let members: Vec<(&str, Vec<_>)> = first
        .map(|c| vec![(c.metadata.name.as_str(), objects.clone())])
        .unwrap_or_default();
    let named = Choice {
        policy: Some("a"),
        members: &members,
        ..Choice::default()
    };
    for choice in [Choice::default(), named] {
        match import(&objects, &choice) {
            Ok(imported) => {
                let _ = scenario::schedule(&imported.scenario, 0);
                let _ = allot_core::scenario::explain::explain(&objects, &choice, 0);
                // An imported scenario always exports, and its objects always import again.
                let exported =
                    allot_core::scenario::export::export(&imported.scenario).expect("exports");
                import(&exported.objects, &Choice::default()).expect("the export imports");
            }
            Err(e) => {
                to_json(&e).expect("an error is always written");
            }
        }
    }
}

/// The playground's readers of outside text: a share-link fragment (and, when it holds a
/// scenario, that scenario written back as a link and read again), every field kind's parser
/// (and the text it shows for what it read), and the text as a document path.
pub fn playground_text(data: &[u8]) {
    use allot_www::doc;
    use allot_www::share::{self, Link};
    use allot_www::text::{self as field, Kind};
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match share::decode(text) {
        Ok(Link::Scenario(v)) => {
            assert_eq!(share::decode(&share::encode(&v)), Ok(Link::Scenario(v)));
        }
        Ok(Link::History(v)) => {
            assert_eq!(
                share::decode(&share::encode_history(&v)),
                Ok(Link::History(v))
            );
        }
        _ => {}
    }
    for &kind in Kind::FREE {
        if let Some(v) = field::parse(kind, text) {
            let _ = field::parse(kind, &field::format(kind, Some(&v)));
        }
    }
    let mut d = serde_json::json!({"version": 1, "clusters": [{"name": "a"}], "workload": {}});
    let _ = doc::steps(text);
    doc::set(&mut d, text, Some(serde_json::json!(1)));
    let _ = doc::get(&d, text);
    let _ = doc::items(&d, text);
    doc::push(&mut d, text, serde_json::json!(2));
}

/// A control plane's dump (YAML or JSON) planned under what-ifs the input's first byte
/// chooses: drift, or its first Cluster down, cordoned or deleted, its first workload scaled,
/// with or without overcommit protection and taint eviction, and its Clusters joining again.
/// Every plan and every error is written.
pub fn fleet_text(data: &[u8]) {
    use allot_core::kubernetes::import::Choice;
    use allot_core::kubernetes::plan::{plan, WhatIf};
    let Some((&choose, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(objects) = allot_web::yaml::objects(text) else {
        return;
    };
    let clusters: Vec<_> = objects
        .iter()
        .filter(|o| o.kind == "Cluster")
        .cloned()
        .collect();
    let workload = objects.iter().find(|o| {
        !matches!(
            o.kind.as_str(),
            "Cluster"
                | "PropagationPolicy"
                | "ClusterPropagationPolicy"
                | "ResourceBinding"
                | "ClusterResourceBinding"
        )
    });
    let mut what = WhatIf {
        overcommit_protection: choose & 1 != 0,
        taint_eviction: choose & 2 != 0,
        workload_affinity: choose & 0x20 != 0,
        ..WhatIf::default()
    };
    // A policy deleted (the first of the dump's).
    if let Some(p) = objects
        .iter()
        .find(|o| o.kind.ends_with("PropagationPolicy"))
        .filter(|_| choose & 0x40 != 0)
    {
        let m = &p.metadata;
        what.delete_policy.push(if p.kind == "PropagationPolicy" {
            format!("{}/{}", m.namespace, m.name)
        } else {
            m.name.clone()
        });
    }
    if let Some(c) = clusters.first() {
        let name = c.metadata.name.clone();
        match (choose >> 2) & 3 {
            1 => what.cluster_down.push(name),
            2 => what.cordon.push(name),
            3 => what.delete_cluster.push(name),
            _ => {}
        }
    }
    if let Some(w) = workload.filter(|_| choose & 0x10 != 0) {
        let m = &w.metadata;
        what.scale.push(format!(
            "{}/{}/{}={}",
            w.kind,
            m.namespace,
            m.name,
            choose >> 5
        ));
    }
    let added: &[_] = if choose & 0x80 != 0 { &clusters } else { &[] };
    match plan(&objects, &Choice::default(), &what, added, &[]) {
        Ok(planned) => {
            to_json(&planned).expect("a plan is always written");
        }
        Err(e) => {
            to_json(&e).expect("an error is always written");
            assert!(!e.to_string().is_empty());
        }
    }
}
