//! Karmada editors: the workload (replicas, requests, node claim), the policy (strategy,
//! division method, estimators, gates), the clusters (weights, labels, summaries; opened: grade
//! counts, resource models, nodes, pods) and the static weight rules.

use serde_json::Value;
use yew::prelude::*;

use allot_core::estimate::by_model::ModelMethod;
use allot_core::karmada::{Method, Strategy};

use super::details::{Details, AFFINITY_ROW};
use super::table::{col, Column, NewRow, Table};
use super::{options, plain, section, Fields, Plain, Targets};
use crate::doc;
use crate::field::Field;
use crate::field::Kind;
use crate::problems::problem_at;
use crate::problems::SharedProblem;

const STRATEGIES: &[(&str, &str)] = &options!(Strategy, "staticWeight (default)", strategy);

const fn strategy(s: Strategy) -> &'static str {
    match s {
        Strategy::DynamicWeight => "dynamicWeight (by available replicas)",
        Strategy::Duplicated | Strategy::StaticWeight | Strategy::Aggregated => s.name(),
    }
}

/// The division methods, as `policy.method` names them.
pub const METHODS: &[(&str, &str)] =
    &options!(Method, "the Karmada release's (webster from 1.16)", method);

const fn method(m: Method) -> &'static str {
    match m {
        Method::Webster => "webster",
        Method::Remainder => "remainder (the even-division proposal)",
        Method::NameOrder => "name-order (Karmada ≤ 1.7)",
    }
}

const ESTIMATORS: &[(&str, &str)] = &[
    ("", "every estimator the cluster has data for (default)"),
    (r#"["general"]"#, "general only"),
    (r#"["accurate"]"#, "accurate only"),
    (r#"["general","accurate"]"#, "general and accurate"),
    ("[]", "none (availableReplicas as given)"),
];

const MODEL_METHODS: &[(&str, &str)] = &options!(
    ModelMethod,
    "the Karmada release's (simulator from 1.18)",
    model_method
);

const fn model_method(m: ModelMethod) -> &'static str {
    match m {
        ModelMethod::Simulator => "simulator",
        ModelMethod::GradeFormula => "grade formula (Karmada ≤ 1.17)",
    }
}

const WORKLOAD: Plain = &[
    ("replicas", "replicas", Kind::Int),
    ("requests", "requests per replica", Kind::Amounts),
    ("nodeClaim.nodeSelector", "node selector", Kind::Labels),
    (
        "nodeClaim.tolerations",
        "tolerations (YAML or JSON)",
        Kind::Json,
    ),
    (
        "nodeClaim.hardNodeAffinity",
        "required node affinity (YAML or JSON)",
        Kind::Json,
    ),
    ("priorityClass", "priority class", Kind::Text),
    ("apiVersion", "resource apiVersion", Kind::Text),
    ("kind", "resource kind", Kind::Text),
    ("components", "components (YAML or JSON)", Kind::Json),
];

const POLICY: Plain = &[
    ("strategy", "strategy", Kind::Choice(STRATEGIES)),
    ("method", "division method", Kind::Choice(METHODS)),
    ("estimators", "estimators", Kind::JsonChoice(ESTIMATORS)),
    (
        "modelMethod",
        "resource models",
        Kind::Choice(MODEL_METHODS),
    ),
    ("fresh", "fresh reschedule", Kind::Bool),
    ("overflow", "overflow by tier", Kind::Bool),
    (
        "gates.schedulingOvercommitProtection",
        "overcommit protection",
        Kind::Bool,
    ),
    (
        "gates.customizedClusterResourceModeling",
        "resource modeling gate",
        Kind::BoolOn,
    ),
    (
        "gates.multiplePodTemplatesScheduling",
        "multiple pod templates gate",
        Kind::Bool,
    ),
    ("plugins", "scheduler plugins (--plugins)", Kind::List),
];

const CLUSTER_AFFINITY: Plain = &[
    ("clusterAffinity.clusterNames", "cluster names", Kind::List),
    (
        "clusterAffinity.labelSelector.matchLabels",
        "labels",
        Kind::Labels,
    ),
    ("clusterAffinity.exclude", "except", Kind::List),
];

const OPERATORS: &[(&str, &str)] = &[
    ("", "Equal (default)"),
    ("Equal", "Equal"),
    ("Exists", "Exists"),
];

const ANY_EFFECT: &[(&str, &str)] = &[
    ("", "any effect"),
    ("NoSchedule", "NoSchedule"),
    ("NoExecute", "NoExecute"),
    ("PreferNoSchedule", "PreferNoSchedule"),
];

const TOLERATIONS: &[Column] = &[
    col("key", "key", Kind::Text),
    col("operator", "operator", Kind::Choice(OPERATORS)),
    col("value", "value", Kind::Text),
    col("effect", "effect", Kind::Choice(ANY_EFFECT)),
];

const SPREAD_FIELDS: &[(&str, &str)] = &[
    ("", "cluster (default)"),
    ("cluster", "cluster"),
    ("region", "region"),
    ("zone", "zone"),
    ("provider", "provider"),
];

const SPREAD: &[Column] = &[
    col("spreadByField", "spread by", Kind::Choice(SPREAD_FIELDS)),
    col("minGroups", "min groups", Kind::Int),
    col("maxGroups", "max groups", Kind::Int),
];

const CLUSTERS: &[Column] = &[
    col("name", "cluster", Kind::Text),
    col("weight", "weight", Kind::Int),
    Column {
        key: "availableReplicas",
        label: "available",
        kind: Kind::Int,
        placeholder: "estimate",
    },
    col("labels", "labels", Kind::Labels),
    col("resourceSummary.allocatable", "allocatable", Kind::Amounts),
    col("resourceSummary.allocated", "allocated", Kind::Amounts),
];

const RULES: &[Column] = &[
    col("targetCluster.clusterNames", "cluster names", Kind::List),
    col(
        "targetCluster.labelSelector.matchLabels",
        "labels",
        Kind::Labels,
    ),
    col("targetCluster.exclude", "except", Kind::List),
    Column {
        key: "targetCluster.fieldSelector.matchExpressions",
        label: "fields (provider, region, zone)",
        kind: Kind::Json,
        placeholder: "",
    },
    col("weight", "weight", Kind::Int),
];

/// The Karmada releases a scenario can follow: each minor release whose scheduler differs from
/// the next in what allot computes (docs/rules/versions.md), and 1.7 for the oldest rules.
const RELEASES: &[(&str, &str)] = &[
    ("", "1.19 (the newest)"),
    ("1.18", "1.18"),
    ("1.17", "1.17"),
    ("1.16", "1.16"),
    ("1.15", "1.15 (remainder method)"),
    ("1.7", "1.7 (name-order method)"),
];

/// The Karmada release alone.
pub const RELEASE: Plain = &[("karmada", "Karmada release", Kind::Choice(RELEASES))];

const SCENARIO: Plain = &[
    ("karmada", "Karmada release", Kind::Choice(RELEASES)),
    ("uid", "ResourceBinding metadata.uid", Kind::Text),
    ("observedAffinity", "observed affinity term", Kind::Text),
    ("gracefulEvictions", "being evicted from", Kind::List),
];

/// The division method alone.
pub const METHOD: Plain = &[("method", "division method", Kind::Choice(METHODS))];
/// The workload section.
pub const WORKLOAD_SECTION: Fields = Fields {
    title: "Workload",
    key: "workload",
    fields: WORKLOAD,
    shown: 1,
};

/// The policy section.
pub const POLICY_SECTION: Fields = Fields {
    title: "Policy",
    key: "policy",
    fields: POLICY,
    shown: 2,
};

/// The strategy alone.
pub const STRATEGY: Plain = &[("strategy", "strategy", Kind::Choice(STRATEGIES))];

/// The clusters' table.
pub const CLUSTER_TABLE: Targets = Targets {
    title: "Clusters",
    key: "clusters",
    columns: CLUSTERS,
    new_row: NewRow::Cluster,
    noun: "cluster",
    details: Details::Cluster,
};

/// Each cluster's own weight, labelled with its name.
pub fn weights(d: &Value, problem: &SharedProblem) -> Html {
    html! {
        <div class="plain weights">
        { for doc::items(d, "clusters").iter().enumerate().map(|(i, c)| {
            let path: AttrValue = format!("clusters[{i}].weight").into();
            let name = c.get("name").and_then(Value::as_str).unwrap_or("cluster").to_string();
            html! { <label class="stack"><Field problem={problem_at(problem, &path)} {path} kind={Kind::Int}
                           value={c.get("weight").cloned()} label={format!("{name} weight")} show_label=true /></label> }
        }) }
        </div>
    }
}

pub fn rules(d: &Value, problem: &SharedProblem) -> Html {
    section(
        "Static weight rules",
        html! {
            <>
            <p class="hint">{ "A cluster weighs the largest weight of the rules that select it \
                (\u{201c}Why\u{201d} cites them by number). Without rules, each cluster's own weight \
                (or 1) counts; weights go with the staticWeight strategy only." }</p>
            <Table id="rules" path="policy.staticWeights" columns={RULES}
                   rows={doc::items(d, "policy.staticWeights").to_vec()}
                   new_row={NewRow::Rule} noun="rule" problem={problem.clone()} numbered=true />
            </>
        },
    )
}

pub fn scheduling(d: &Value, problem: &SharedProblem) -> Html {
    section(
        "Scheduling: filters and spreading",
        html! {
            <>
            <p class="hint">{ "Which clusters are candidates before any replica is divided: \
                Karmada's filter plugins, then the spread constraints. A cluster's taints, API list \
                and deletion are in its details (▸)." }</p>
            <h4>{ "Cluster affinity" }</h4>
            { plain("policy", d.get("policy").unwrap_or(&Value::Null), problem, CLUSTER_AFFINITY) }
            <h4>{ "Affinity terms (tried in order; ▸ for overflow tiers)" }</h4>
            <Table id="terms-editor" path="policy.clusterAffinities" columns={AFFINITY_ROW}
                   rows={doc::items(d, "policy.clusterAffinities").to_vec()}
                   new_row={NewRow::Term} noun="affinity term" problem={problem.clone()}
                   details={Details::Term} />
            <h4>{ "Cluster tolerations" }</h4>
            <Table id="tolerations" path="policy.clusterTolerations" columns={TOLERATIONS}
                   rows={doc::items(d, "policy.clusterTolerations").to_vec()}
                   new_row={NewRow::Toleration} noun="toleration" problem={problem.clone()} />
            <h4>{ "Spread constraints" }</h4>
            <Table id="spread" path="policy.spreadConstraints" columns={SPREAD}
                   rows={doc::items(d, "policy.spreadConstraints").to_vec()}
                   new_row={NewRow::Spread} noun="spread constraint" problem={problem.clone()} />
            </>
        },
    )
}

pub fn editors(d: &Value, problem: &SharedProblem) -> Html {
    html! {
        <>
        { WORKLOAD_SECTION.view(d, problem) }
        { POLICY_SECTION.view(d, problem) }
        { CLUSTER_TABLE.view(d, problem) }
        { section("Scenario", plain("", d, problem, SCENARIO)) }
        { scheduling(d, problem) }
        { rules(d, problem) }
        </>
    }
}
