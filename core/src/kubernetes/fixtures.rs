//! What the Kubernetes readers' tests build: the items of a dump as JSON text, each written
//! once with what its tests vary as arguments. Each expands to a string literal, so a dump of
//! them is still a `const`.

/// A dump: a `v1` List of the items given (each one item or several, as JSON text).
macro_rules! list {
    ($first:expr $(, $item:expr)* $(,)?) => {
        concat!(
            r#"{"apiVersion": "v1", "kind": "List", "items": ["#,
            $first,
            $(",", $item,)*
            "]}"
        )
    };
}

/// A Cluster item, Ready and serving Deployments, with `cpu` cores allocatable and 110 pods.
/// The long form adds to its `metadata` (`, "labels": …`), gives its `spec` (`"spec": {…},`)
/// and adds to its `resourceSummary` (`, "allocated": …`).
macro_rules! cluster {
    ($name:literal, $cpu:literal) => {
        $crate::kubernetes::fixtures::cluster!($name, $cpu, "", "", "")
    };
    ($name:literal, $cpu:literal, $metadata:expr, $spec:expr, $summary:expr) => {
        concat!(
            r#"{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": {"name": ""#,
            $name,
            r#"""#,
            $metadata,
            "}, ",
            $spec,
            r#" "status": {"conditions": [{"type": "Ready", "status": "True"}],
                "apiEnablements": [{"groupVersion": "apps/v1",
                                    "resources": [{"name": "deployments", "kind": "Deployment"}]}],
                "resourceSummary": {"allocatable": {"cpu": ""#,
            $cpu,
            r#"", "pods": "110"}"#,
            $summary,
            "}}}"
        )
    };
}

/// A Deployment item in namespace `shop` with template uid `uid`, `replicas` and one container
/// requesting `cpu`.
macro_rules! deployment {
    ($name:literal, $uid:literal, $replicas:literal, $cpu:literal) => {
        concat!(
            r#"{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": ""#,
            $name,
            r#"", "namespace": "shop", "uid": ""#,
            $uid,
            r#""}, "spec": {"replicas": "#,
            $replicas,
            r#", "template": {"spec": {"containers": [
                {"name": "c", "resources": {"requests": {"cpu": ""#,
            $cpu,
            r#""}}}]}}}}"#
        )
    };
}

pub(crate) use {cluster, deployment, list};

/// The what-if JSON text says, read as the package reads it (camelCase, no unknown field).
pub(crate) fn what_if(json: &str) -> crate::kubernetes::plan::WhatIf {
    crate::json::from_json(json).unwrap()
}

#[cfg(test)]
mod tests {
    use crate::kubernetes::objects::Object;

    #[test]
    fn items_read_as_the_objects_they_name() {
        let c: Object = serde_json::from_str(cluster!(
            "a1",
            "8",
            r#", "labels": {"tier": "prod"}"#,
            r#""spec": {"region": "east"},"#,
            r#", "allocated": {"cpu": "6"}"#
        ))
        .unwrap();
        assert_eq!(
            (c.kind.as_str(), c.metadata.name.as_str()),
            ("Cluster", "a1")
        );
        assert_eq!(
            c.metadata.labels,
            crate::selector::label::labels_of([("tier", "prod")])
        );
        assert_eq!(c.spec.region.as_str(), "east");
        let plain: Object = serde_json::from_str(cluster!("b", "4")).unwrap();
        assert_eq!(plain.metadata.name, "b");
        let d: Object = serde_json::from_str(deployment!("web", "u1", 4, "500m")).unwrap();
        assert_eq!((d.kind.as_str(), d.spec.replicas), ("Deployment", Some(4)));
        assert_eq!(d.metadata.uid.as_str(), "u1");
    }
}
