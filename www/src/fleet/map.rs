//! The fleet view's map (docs/playground.md "The fleet view": map): above twelve clusters, a
//! table of clusters × namespaces (the 24 with the most replicas), each cell shaded by the
//! replicas the namespace has on the cluster; the rows on screen rendered.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use yew::prelude::*;

use super::window;
use super::worker::State;

#[derive(Properties, PartialEq)]
pub struct MapProps {
    pub state: Rc<State>,
}

/// The map's figures: the namespaces shown (the 24 with the most replicas), and each cluster
/// that holds replicas of one of them, by its index, with its replicas of each.
#[derive(Debug, Default, PartialEq)]
struct Grid {
    namespaces: Rc<Vec<String>>,
    rows: Vec<(usize, Rc<Vec<i64>>)>,
    /// The most replicas of a cell shown, at least 1.
    max: i64,
}

/// The map of `state`, read in one pass over the bindings with borrowed names (10,000 bindings
/// on three clusters each would otherwise be 30,000 keys allocated on every event).
fn grid(state: &State) -> Grid {
    let mut totals: BTreeMap<&str, i64> = BTreeMap::new();
    for b in &state.bindings {
        *totals.entry(b.id.namespace.as_str()).or_default() += b.clusters.values().sum::<i64>();
    }
    let mut namespaces: Vec<(&str, i64)> = totals.into_iter().collect();
    namespaces.sort_by_key(|n| std::cmp::Reverse(n.1));
    namespaces.truncate(24);
    let column: HashMap<&str, usize> = namespaces
        .iter()
        .enumerate()
        .map(|(k, (ns, _))| (*ns, k))
        .collect();
    let at: HashMap<&str, usize> = state
        .clusters
        .iter()
        .enumerate()
        .map(|(i, c)| (c.load.name.as_str(), i))
        .collect();
    let mut cells: Vec<Option<Vec<i64>>> = vec![None; state.clusters.len()];
    for b in &state.bindings {
        let Some(&k) = column.get(b.id.namespace.as_str()) else {
            continue;
        };
        for (c, n) in &b.clusters {
            if let Some(&i) = at.get(c.as_str()) {
                cells[i].get_or_insert_with(|| vec![0; namespaces.len()])[k] += n;
            }
        }
    }
    let rows: Vec<(usize, Rc<Vec<i64>>)> = cells
        .into_iter()
        .enumerate()
        .filter_map(|(i, row)| Some((i, Rc::new(row?))))
        .collect();
    let max = rows
        .iter()
        .flat_map(|(_, r)| r.iter().copied())
        .max()
        .unwrap_or(1)
        .max(1);
    Grid {
        namespaces: Rc::new(
            namespaces
                .into_iter()
                .map(|(ns, _)| ns.to_string())
                .collect(),
        ),
        rows,
        max,
    }
}

/// Clusters × namespaces: each cell's shade the replicas the namespace has on the cluster; the
/// rows on screen rendered, as the workloads are.
#[function_component(Map)]
pub fn map(p: &MapProps) -> Html {
    let g = use_memo(p.state.clone(), |state| grid(state));
    let (slice, node, on_scroll) = window::use_window(g.rows.len());
    html! {
        <section class="fleet-map" aria-labelledby="fleet-map-heading">
            <h3 id="fleet-map-heading">{ "Map: member clusters × namespaces" }</h3>
            <p class="muted">{ "The 24 namespaces with the most replicas, and the clusters that hold them; a cell's shade is the replicas there." }</p>
            <div class="fleet-rows fleet-map-rows" ref={node} onscroll={on_scroll} tabindex="0" role="region"
                 aria-label={format!("map: {} clusters", g.rows.len())}>
            <table id="fleet-map" class="fleet-map-table" aria-rowcount={(g.rows.len() + 1).to_string()}>
                <thead><tr aria-rowindex="1"><th scope="col">{ "cluster" }</th>
                    { for g.namespaces.iter().map(|ns| html! { <th scope="col" class="ns"><span>{ if ns.is_empty() { "(cluster)" } else { ns } }</span></th> }) }
                </tr></thead>
                <tbody>
                { window::body(&slice, g.namespaces.len() + 1, slice.rows.clone().map(|k| {
                    let (i, cells) = &g.rows[k];
                    let name = AttrValue::from(p.state.clusters[*i].load.name.clone());
                    html! { <MapRow key={name.to_string()} name={name.clone()} row={k} cells={cells.clone()}
                                    namespaces={g.namespaces.clone()} max={g.max} /> }
                })) }
                </tbody>
            </table></div>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct MapRowProps {
    name: AttrValue,
    /// The row's index among the map's.
    row: usize,
    cells: Rc<Vec<i64>>,
    namespaces: Rc<Vec<String>>,
    max: i64,
}

/// A cluster's row of the map: rendered again only when its cells change.
#[function_component(MapRow)]
fn map_row(p: &MapRowProps) -> Html {
    let name = &p.name;
    html! {
        <tr data-row={p.row.to_string()} aria-rowindex={(p.row + 2).to_string()}><th scope="row">{ name }</th>
        { for p.namespaces.iter().zip(p.cells.iter()).map(|(ns, &n)| {
            // The square root: a few large cells do not wash out the rest.
            let alpha = if n == 0 { 0.0 } else { 0.15 + 0.85 * (n as f64 / p.max as f64).sqrt() };
            html! { <td title={format!("{ns} on {name}: {n} replicas")}
                        style={format!("background:rgba(37,99,235,{alpha:.2})")}>
                        if n > 0 { <span class="sr">{ n }</span> }</td> }
        }) }
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fleet::fixtures::{fleet, state};

    #[test]
    fn the_map_holds_the_clusters_with_replicas_of_a_namespace_shown() {
        let s = fleet();
        let g = grid(&s);
        // web 5 replicas, db 4, cluster-scoped 1.
        assert_eq!(*g.namespaces, ["web", "db", ""]);
        let rows: Vec<(usize, Vec<i64>)> = g.rows.iter().map(|(i, r)| (*i, r.to_vec())).collect();
        assert_eq!(
            rows,
            [(0, vec![3, 0, 1]), (1, vec![2, 0, 0]), (2, vec![0, 4, 0])]
        );
        assert_eq!(g.max, 4);
        assert_eq!(
            grid(&state(&[])),
            Grid {
                max: 1,
                ..Grid::default()
            }
        );
    }
}
