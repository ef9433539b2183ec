//! Structure-aware: scenarios built from the fuzzer's bytes, always well-formed and within the
//! documented limits but with numbers of every size (pieces up to 2^31 and beyond, replicas up
//! to 2^53, counts up to the limits), so the algorithms are reached, not only the reader.
#![no_main]

use allot_core::division::method::Method;
use allot_core::eru::strategy::Strategy as EruStrategy;
use allot_core::karmada::Strategy as KarmadaStrategy;
use arbitrary::{Arbitrary, Result, Unstructured};
use serde_json::{json, Map, Value};

/// A number of one of several magnitudes: small ones most often, then the limits' own.
#[derive(Debug)]
struct Num(i64);

impl<'a> Arbitrary<'a> for Num {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let raw = u64::arbitrary(u)?;
        let v = match u8::arbitrary(u)? % 8 {
            0..=2 => raw % 8,
            3 => raw % 200,
            4 => raw % 100_000,
            5 => raw % (1 << 31),
            6 => raw % (1 << 53) + ((1 << 53) - 16).min(raw % 32),
            _ => raw,
        };
        let negative = u8::arbitrary(u)? % 16 == 0;
        Ok(Num(if negative {
            -((v % (1 << 62)) as i64)
        } else {
            v.min(i64::MAX as u64) as i64
        }))
    }
}

#[derive(Debug, Arbitrary)]
struct KCluster {
    weight: Option<Num>,
    available: Option<Num>,
    summary: Option<(Num, Num, Num, Num)>,
    nodes: Vec<(Num, Num, Num, bool, bool)>,
    overflow_order: Option<Num>,
    label: bool,
    /// Scheduler steps: region and zone picks, a taint, an API list, deletion.
    region: Option<u8>,
    zone: Option<u8>,
    taint: Option<(u8, u8)>,
    api: Option<(u8, Option<bool>)>,
    deleting: bool,
}

/// The policy's scheduler steps.
#[derive(Debug, Arbitrary)]
struct Steps {
    spread: Vec<(u8, Num, Num)>,
    terms: Vec<(Vec<u8>, Vec<Vec<u8>>)>,
    affinity: Option<Vec<u8>>,
    tolerations: Vec<(u8, u8)>,
    plugins: Option<Vec<u8>>,
    observed: Option<u8>,
    evictions: Vec<u8>,
    kind: Option<u8>,
}

#[derive(Debug, Arbitrary)]
struct Karmada {
    replicas: Num,
    clusters: Vec<KCluster>,
    strategy: u8,
    method: u8,
    previous: Vec<(u8, Num)>,
    seed: Option<Num>,
    fresh: bool,
    overflow: bool,
    request: Option<(Num, Num)>,
    rules: Vec<(Vec<u8>, Num)>,
    steps: Option<Steps>,
}

#[derive(Debug, Arbitrary)]
struct ENode {
    cores: Vec<(u8, Num, Option<Num>)>,
    memory: Num,
    used_memory: Option<Num>,
    numa: Vec<(u8, u8)>,
    count: Option<Num>,
    storage: Option<(Num, Num)>,
    volumes: Vec<(u8, Num)>,
    gpus: Vec<(u8, Num, Option<Num>)>,
}

#[derive(Debug, Arbitrary)]
struct Eru {
    count: Num,
    strategy: u8,
    nodes_limit: Option<Num>,
    share_base: Option<Num>,
    max_share: Option<Num>,
    max_deploy: Option<Num>,
    cpu_milli: Option<Num>,
    memory: Option<Num>,
    storage: Option<Num>,
    cpu_bind: bool,
    volumes: Vec<(u8, u8, Num)>,
    gpus: Vec<(u8, Num)>,
    nodes: Vec<ENode>,
}

#[derive(Debug, Arbitrary)]
enum Input {
    Karmada(Karmada),
    Eru(Eru),
}

/// A GPU product: two real ones, and a blank name (invalid).
fn gpu_product(i: u8) -> &'static str {
    pick(&["nvidia-3090", "a100", " "], i)
}

fn pick<'a>(all: &[&'a str], i: u8) -> &'a str {
    all[i as usize % all.len()]
}

fn karmada(k: Karmada) -> Value {
    let clusters: Vec<Value> = k
        .clusters
        .iter()
        .take(64)
        .enumerate()
        .map(|(i, c)| {
            let mut o = Map::new();
            o.insert("name".into(), json!(format!("member{i}")));
            if let Some(w) = &c.weight {
                o.insert("weight".into(), json!(w.0));
            }
            if let Some(a) = &c.available {
                o.insert("availableReplicas".into(), json!(a.0));
            }
            if let Some(o2) = &c.overflow_order {
                o.insert("overflowOrder".into(), json!(o2.0));
            }
            if c.label {
                o.insert("labels".into(), json!({"zone": format!("z{}", i % 3)}));
            }
            if let Some(r) = c.region {
                o.insert("region".into(), json!(format!("r{}", r % 4)));
            }
            if let Some(z) = c.zone {
                o.insert("zones".into(), json!([format!("z{}", z % 4)]));
            }
            if let Some((k, e)) = c.taint {
                let effect = pick(&["NoSchedule", "NoExecute", "PreferNoSchedule"], e);
                o.insert("taints".into(), json!([{"key": format!("k{}", k % 3), "value": "v", "effect": effect}]));
            }
            if let Some((kind, complete)) = c.api {
                o.insert("apiEnablements".into(), json!([{"groupVersion": "apps/v1", "kinds": [pick(&["Deployment", "Job"], kind)]}]));
                if let Some(complete) = complete {
                    o.insert("completeApiEnablements".into(), json!(complete));
                }
            }
            if c.deleting {
                o.insert("deleting".into(), json!(true));
            }
            if let Some((cpu, mem, pods, used)) = &c.summary {
                o.insert(
                    "resourceSummary".into(),
                    json!({"allocatable": {"cpu": cpu.0, "memory": mem.0, "pods": pods.0},
                           "allocated": {"cpu": used.0}}),
                );
            }
            if !c.nodes.is_empty() {
                let nodes: Vec<Value> = c
                    .nodes
                    .iter()
                    .take(16)
                    .enumerate()
                    .map(|(j, (cpu, mem, pods, tainted, cordoned))| {
                        let mut n = json!({"name": format!("n{j}"),
                            "allocatable": {"cpu": cpu.0, "memory": mem.0, "pods": pods.0},
                            "unschedulable": cordoned});
                        if *tainted {
                            n["taints"] = json!([{"key": "k", "effect": "NoSchedule"}]);
                        }
                        n
                    })
                    .collect();
                o.insert("nodes".into(), Value::Array(nodes));
            }
            Value::Object(o)
        })
        .collect();
    let n = clusters.len().max(1);
    let mut doc = json!({
        "version": 1,
        "clusters": clusters,
        "workload": {"replicas": k.replicas.0},
        "policy": {
            "strategy": pick(KarmadaStrategy::NAMES, k.strategy),
            "method": pick(Method::NAMES, k.method),
            "fresh": k.fresh,
            "overflow": k.overflow,
        },
    });
    if let Some((cpu, mem)) = k.request {
        doc["workload"]["requests"] = json!({"cpu": cpu.0, "memory": mem.0});
    }
    let previous: Map<String, Value> = k
        .previous
        .iter()
        .take(64)
        .map(|(i, r)| (format!("member{}", *i as usize % (n + 2)), json!(r.0)))
        .collect();
    if !previous.is_empty() {
        doc["previous"] = Value::Object(previous);
    }
    if let Some(seed) = k.seed {
        doc["seed"] = json!(seed.0);
    }
    // Up to four cluster names, some of them naming no cluster.
    let names = |v: &[u8]| -> Vec<String> {
        v.iter()
            .take(4)
            .map(|i| format!("member{}", *i as usize % (n + 1)))
            .collect()
    };
    if let Some(s) = k.steps {
        let spread: Vec<Value> = s
            .spread
            .iter()
            .take(3)
            .map(|(f, min, max)| {
                json!({"spreadByField": pick(&["cluster", "region", "zone", "provider"], *f),
                                        "minGroups": min.0, "maxGroups": max.0})
            })
            .collect();
        doc["policy"]["spreadConstraints"] = Value::Array(spread);
        if !s.terms.is_empty() {
            let terms: Vec<Value> = s
                .terms
                .iter()
                .take(4)
                .enumerate()
                .map(|(i, (inline, overflow))| {
                    let over: Vec<Value> = overflow
                        .iter()
                        .take(3)
                        .enumerate()
                        .map(|(j, o)| json!({"affinityName": format!("o{i}{j}"), "affinity": {"clusterNames": names(o)}}))
                        .collect();
                    json!({"affinityName": format!("t{i}"), "affinity": {"clusterNames": names(inline)},
                           "overflowAffinities": over})
                })
                .collect();
            doc["policy"]["clusterAffinities"] = Value::Array(terms);
            doc["policy"]["overflow"] = json!(false);
            for c in doc["clusters"].as_array_mut().into_iter().flatten() {
                c.as_object_mut().map(|o| o.remove("overflowOrder"));
            }
        } else if let Some(a) = &s.affinity {
            doc["policy"]["clusterAffinity"] = json!({"clusterNames": names(a)});
        }
        let tolerations: Vec<Value> = s
            .tolerations
            .iter()
            .take(3)
            .map(|(k, op)| json!({"key": format!("k{}", k % 3), "operator": pick(&["Equal", "Exists"], *op), "value": "v"}))
            .collect();
        doc["policy"]["clusterTolerations"] = Value::Array(tolerations);
        if let Some(p) = &s.plugins {
            let all = [
                "*",
                "-TaintToleration",
                "-ClusterAffinity",
                "APIEnablement",
                "-SpreadConstraint",
                "ClusterLocality",
                "-*",
            ];
            doc["policy"]["plugins"] =
                json!(p.iter().take(4).map(|i| pick(&all, *i)).collect::<Vec<_>>());
        }
        if let Some(o) = s.observed {
            doc["observedAffinity"] = json!(format!("t{}", o % 5));
        }
        doc["gracefulEvictions"] = json!(names(&s.evictions));
        if let Some(kind) = s.kind {
            doc["workload"]["apiVersion"] = json!("apps/v1");
            doc["workload"]["kind"] = json!(pick(&["Deployment", "Job"], kind));
        }
    }
    let weighted = doc["clusters"]
        .as_array()
        .is_some_and(|c| c.iter().any(|c| c.get("weight").is_some()));
    if !k.rules.is_empty() && !weighted {
        let rules: Vec<Value> = k
            .rules
            .iter()
            .take(8)
            .map(|(picks, w)| json!({"targetCluster": {"clusterNames": names(picks)}, "weight": w.0}))
            .collect();
        doc["policy"]["staticWeights"] = Value::Array(rules);
    }
    doc
}

fn eru(e: Eru) -> Value {
    let nodes: Vec<Value> = e
        .nodes
        .iter()
        .take(32)
        .enumerate()
        .map(|(i, n)| {
            let cores: Map<String, Value> = n
                .cores
                .iter()
                .take(32)
                .map(|(id, p, _)| (format!("{}", id % 64), json!(p.0)))
                .collect();
            let used: Map<String, Value> = n
                .cores
                .iter()
                .take(32)
                .filter_map(|(id, _, u)| u.as_ref().map(|u| (format!("{}", id % 64), json!(u.0))))
                .collect();
            let mut o = json!({"name": format!("node{i}"), "cpuMap": cores, "memory": n.memory.0,
                               "usage": {"cpuMap": used}});
            if let Some(m) = &n.used_memory {
                o["usage"]["memory"] = json!(m.0);
            }
            if !n.numa.is_empty() {
                let numa: Map<String, Value> = n
                    .numa
                    .iter()
                    .take(32)
                    .map(|(c, z)| (format!("{}", c % 64), json!(format!("{}", z % 4))))
                    .collect();
                o["numa"] = Value::Object(numa);
            }
            if let Some(c) = &n.count {
                o["count"] = json!(c.0);
            }
            if let Some((s, u)) = &n.storage {
                o["storage"] = json!(s.0);
                o["usageStorage"] = json!(u.0);
            }
            if !n.volumes.is_empty() {
                let v: Map<String, Value> = n
                    .volumes
                    .iter()
                    .take(8)
                    .map(|(d, s)| (format!("/dev/vd{}", d % 8), json!(s.0)))
                    .collect();
                o["volumes"] = Value::Object(v);
            }
            if !n.gpus.is_empty() {
                let cards = |f: fn(&(u8, Num, Option<Num>)) -> Option<i64>| -> Map<String, Value> {
                    n.gpus
                        .iter()
                        .take(4)
                        .filter_map(|g| f(g).map(|c| (gpu_product(g.0).into(), json!(c))))
                        .collect()
                };
                o["gpus"] = Value::Object(cards(|g| Some(g.1 .0)));
                o["usageGpus"] = Value::Object(cards(|g| g.2.as_ref().map(|u| u.0)));
            }
            o
        })
        .collect();
    let mut requests = Map::new();
    if let Some(c) = &e.cpu_milli {
        requests.insert("cpu".into(), json!(format!("{}m", c.0)));
    }
    if let Some(m) = &e.memory {
        requests.insert("memory".into(), json!(m.0));
    }
    if let Some(s) = &e.storage {
        requests.insert("storage".into(), json!(s.0));
    }
    let volumes: Vec<Value> = e
        .volumes
        .iter()
        .take(8)
        .map(|(kind, dst, size)| {
            let src = pick(&["AUTO", "/tmp", "AUTO"], *kind);
            let flags = pick(&["rw", "rwm", "ro"], *kind / 3);
            json!(format!("{src}:/d{dst}:{flags}:{}", size.0))
        })
        .collect();
    let gpus: Map<String, Value> = e
        .gpus
        .iter()
        .take(4)
        .map(|(p, n)| (gpu_product(*p).into(), json!(n.0)))
        .collect();
    let mut doc = json!({
        "version": 1,
        "nodes": nodes,
        "workload": {"count": e.count.0, "requests": requests, "cpuBind": e.cpu_bind, "volumes": volumes,
                     "gpus": gpus},
        "policy": {"strategy": pick(EruStrategy::NAMES, e.strategy)},
    });
    if let Some(l) = &e.nodes_limit {
        doc["policy"]["nodesLimit"] = json!(l.0);
    }
    let mut cpumem = Map::new();
    if let Some(b) = &e.share_base {
        cpumem.insert("shareBase".into(), json!(b.0));
    }
    if let Some(m) = &e.max_share {
        cpumem.insert("maxShare".into(), json!(m.0));
    }
    if !cpumem.is_empty() {
        doc["policy"]["cpumem"] = Value::Object(cpumem);
    }
    if let Some(m) = &e.max_deploy {
        doc["policy"]["maxDeployCount"] = json!(m.0);
    }
    doc
}

libfuzzer_sys::fuzz_target!(|input: Input| {
    let doc = match input {
        Input::Karmada(k) => karmada(k),
        Input::Eru(e) => eru(e),
    };
    allot_tests::fuzzing::scenario_text(doc.to_string().as_bytes());
});
