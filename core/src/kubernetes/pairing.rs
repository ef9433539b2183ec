//! Which binding is whose (docs/rules/fleet.md §20.3): each resource template with the binding
//! whose `spec.resource` names it, and each binding without its template alone; and the
//! binding Karmada's detector makes for a template, named as it names it (`BuildResourceBinding`,
//! `GenerateBindingName`).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::objects::Object;
use crate::karmada::fleet::{BindingKind, Id};

/// An object with its position among the objects.
type At<'o> = (usize, &'o Object);

/// A template and its binding, either absent (never both).
pub(crate) type Pair<'o> = (Option<At<'o>>, Option<At<'o>>);

/// Each template with its binding (the first whose `spec.resource` names the template's kind,
/// namespace and name), in the templates' order; then each binding no template claimed, in
/// the bindings' order.
pub(crate) fn pairs<'o>(templates: &[At<'o>], bindings: &[At<'o>]) -> Vec<Pair<'o>> {
    let mut pairs = Vec::with_capacity(templates.len());
    let mut bound = alloc::vec![false; bindings.len()];
    // Bindings by the template their `spec.resource` names (the first of a name).
    let mut by_resource: BTreeMap<(&str, &str, &str), usize> = BTreeMap::new();
    for (k, &(_, b)) in bindings.iter().enumerate() {
        let r = &b.spec.resource;
        by_resource
            .entry((r.kind.as_str(), r.namespace.as_str(), r.name.as_str()))
            .or_insert(k);
    }
    for &(i, t) in templates {
        let key = (
            t.kind.as_str(),
            t.metadata.namespace.as_str(),
            t.metadata.name.as_str(),
        );
        let b = by_resource.get(&key).copied();
        if let Some(slot) = b.and_then(|k| bound.get_mut(k)) {
            *slot = true;
        }
        pairs.push((Some((i, t)), b.and_then(|k| bindings.get(k).copied())));
    }
    for (k, &binding) in bindings.iter().enumerate() {
        if !bound.get(k).copied().unwrap_or(true) {
            pairs.push((None, Some(binding)));
        }
    }
    pairs
}

/// Karmada's binding name for a template: `lower(name-kind)`, `:` written `.`.
pub(crate) fn binding_name(name: &str, kind: &str) -> String {
    format!("{name}-{kind}").replace(':', ".").to_lowercase()
}

/// The binding Karmada's detector makes for the template `kind` `namespace/name`: a
/// ResourceBinding named [`binding_name`] in the template's namespace, a
/// ClusterResourceBinding for a cluster-scoped template (no namespace).
pub(crate) fn binding_id(kind: &str, namespace: &str, name: &str) -> Id {
    Id {
        kind: if namespace.is_empty() {
            BindingKind::ClusterResourceBinding
        } else {
            BindingKind::ResourceBinding
        },
        namespace: namespace.into(),
        name: binding_name(name, kind).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubernetes::objects::read_json;

    #[test]
    fn binding_names_are_karmadas() {
        assert_eq!(binding_name("web", "Deployment"), "web-deployment");
        assert_eq!(binding_name("a:b", "ClusterRole"), "a.b-clusterrole");
        let id = binding_id("ClusterRole", "", "admin");
        assert_eq!(id.kind, BindingKind::ClusterResourceBinding);
        assert_eq!(id.name, "admin-clusterrole");
    }

    // A template takes the binding that names it; a binding naming no template is alone.
    #[test]
    fn templates_pair_with_the_bindings_naming_them() {
        let objects = read_json(
            r#"[{"apiVersion": "apps/v1", "kind": "Deployment",
                 "metadata": {"name": "web", "namespace": "shop"}},
                {"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
                 "metadata": {"name": "old-deployment", "namespace": "shop"},
                 "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment",
                                       "namespace": "shop", "name": "old"}}},
                {"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
                 "metadata": {"name": "web-deployment", "namespace": "shop"},
                 "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment",
                                       "namespace": "shop", "name": "web"}}}]"#,
        )
        .unwrap();
        let templates = [(0, &objects[0])];
        let bindings = [(1, &objects[1]), (2, &objects[2])];
        let found: Vec<(Option<usize>, Option<usize>)> = pairs(&templates, &bindings)
            .iter()
            .map(|(t, b)| (t.map(|t| t.0), b.map(|b| b.0)))
            .collect();
        assert_eq!(found, [(Some(0), Some(2)), (None, Some(1))]);
    }
}
