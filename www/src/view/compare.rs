//! The same scenario under each division method (Karmada: webster, remainder, name-order) or
//! each strategy (eru: AUTO, FILL, EACH, GLOBAL, DRAINED), side by side.

use std::rc::Rc;

use allot_core::eru::strategy::Strategy as EruStrategy;
use allot_core::karmada::Method;
use allot_core::scenario::{schedule, Outcome, Scenario};
use yew::prelude::*;

/// One column: its name and the replicas per target (or the error that stopped it).
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub name: &'static str,
    pub result: Result<Vec<u64>, String>,
    pub random: bool,
}

/// The targets' names and one column per method (or strategy).
pub fn compare(s: &Scenario, seed: u64) -> (Vec<String>, Vec<Column>) {
    let run = |v: Scenario, name: &'static str, names: &[String]| {
        let result = schedule(&v, seed).map_err(|e| e.to_string());
        let random = matches!(&result, Ok(Outcome::Karmada(k)) if k.random_decided);
        Column {
            name,
            random,
            result: result.map(|o| match o {
                Outcome::Karmada(k) => {
                    let got = super::rows::replicas_by_name(&k);
                    names
                        .iter()
                        .map(|n| got.get(n.as_str()).copied().unwrap_or(0))
                        .collect()
                }
                Outcome::Eru(e) => names
                    .iter()
                    .map(|n| e.deploy.get(n).copied().unwrap_or(0))
                    .collect(),
            }),
        }
    };
    if let Some(clusters) = &s.clusters {
        let names: Vec<String> = clusters.iter().map(|c| c.name.to_string()).collect();
        let columns = Method::ALL
            .into_iter()
            .map(|method| {
                let mut v = s.clone();
                v.policy.method = Some(method);
                run(v, method.name(), &names)
            })
            .collect();
        (names, columns)
    } else {
        let names: Vec<String> = s.nodes.iter().flatten().map(|n| n.name.clone()).collect();
        let columns = EruStrategy::NAMES
            .iter()
            .map(|&name| {
                let mut v = s.clone();
                v.policy.strategy = Some(name.into());
                run(v, name, &names)
            })
            .collect();
        (names, columns)
    }
}

#[derive(Properties, PartialEq)]
pub struct CompareProps {
    pub scenario: Rc<Scenario>,
    pub seed: u64,
}

#[function_component(Compare)]
pub fn compare_view(p: &CompareProps) -> Html {
    let (names, columns) = &*use_memo((p.scenario.clone(), p.seed), |(s, seed)| compare(s, *seed));
    html! {
        <div class="compare">
            <p class="hint">{ if p.scenario.clusters.is_some() {
                "The same scenario and seed under each division method. The remainder method's ties are \
                 broken by the seed; name order always favours the first name; Webster's ties follow the UID."
            } else {
                "The same nodes and request under each eru strategy."
            } }</p>
            <table id="compare" class="result">
                <thead><tr><th>{ if p.scenario.clusters.is_some() { "cluster" } else { "node" } }</th>
                    { for columns.iter().map(|c| html! {
                        <th class="n" data-column={c.name}>{ c.name }
                            if c.random { <span class="tag" title="a random choice decided">{ " seed" }</span> }
                        </th>
                    }) }
                </tr></thead>
                <tbody>
                { for names.iter().enumerate().map(|(i, n)| html! {
                    <tr data-cluster={n.clone()}>
                        <td>{ n }</td>
                        { for columns.iter().map(|c| match &c.result {
                            Ok(v) => {
                                let differs = columns.iter().any(|o| matches!(&o.result, Ok(w) if w[i] != v[i]));
                                html! { <td class={classes!("n", differs.then_some("differs"))}
                                            data-column={c.name}>{ v[i] }</td> }
                            }
                            Err(_) => html! { <td class="n" data-column={c.name}>{ "–" }</td> },
                        }) }
                    </tr>
                }) }
                </tbody>
            </table>
            { for columns.iter().filter_map(|c| c.result.as_ref().err().map(|e| html! {
                <p class="problem">{ format!("{}: {e}", c.name) }</p>
            })) }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use allot_core::scenario::from_json;

    #[test]
    fn three_methods_on_the_seven_replica_example() {
        let s: Scenario = from_json(
            r#"{"version":1,"clusters":[{"name":"member1","weight":2},{"name":"member2","weight":1},
                {"name":"member3","weight":1}],"workload":{"replicas":7}}"#,
        )
        .unwrap();
        let (names, cols) = compare(&s, 0);
        assert_eq!(names, ["member1", "member2", "member3"]);
        assert_eq!(cols[0].result, Ok(vec![3, 2, 2]));
        let remainder = cols[1].result.clone().unwrap();
        assert_eq!(remainder[0], 4);
        assert_eq!(remainder[1] + remainder[2], 3);
        assert_eq!(cols[2].result, Ok(vec![4, 2, 1]));
        assert!(cols[1].random && !cols[2].random);
    }
}
