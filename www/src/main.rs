//! The allot playground. It only translates between the page and allot-core: every number shown
//! is computed by the core.

use allot_core::division::request::{divide_webster, WeightedCluster, WeightedRequest};
use web_sys::HtmlInputElement;
use yew::prelude::*;

fn default_request() -> WeightedRequest {
    let clusters = [("member1", 2), ("member2", 1), ("member3", 1)]
        .into_iter()
        .map(|(name, weight)| WeightedCluster {
            name: name.into(),
            weight,
        })
        .collect();
    WeightedRequest {
        replicas: 7,
        clusters,
        uid: String::new(),
    }
}

#[function_component(App)]
fn app() -> Html {
    let request = use_state(default_request);
    let on_replicas = {
        let request = request.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let mut next = (*request).clone();
            next.replicas = input.value().trim().parse().unwrap_or(-1);
            request.set(next);
        })
    };
    let result = divide_webster(&request);
    html! {
        <main>
            <h1>{ "allot playground" }</h1>
            <p class="lede">{ "Karmada static-weight division (Webster, as in Karmada 1.16+)." }</p>
            <label for="replicas">{ "Replicas " }
                <input id="replicas" type="number" min="0" value={request.replicas.to_string()}
                       oninput={on_replicas} />
            </label>
            {
                match result {
                    Ok(shares) => html! {
                        <table id="assignment">
                            <thead><tr><th>{ "cluster" }</th><th>{ "weight" }</th><th>{ "replicas" }</th></tr></thead>
                            <tbody>
                            { for shares.iter().zip(&request.clusters).map(|(share, cluster)| html! {
                                <tr data-cluster={share.name.clone()}>
                                    <td>{ &share.name }</td>
                                    <td>{ cluster.weight }</td>
                                    <td class="replicas">{ share.replicas }</td>
                                </tr>
                            }) }
                            </tbody>
                        </table>
                    },
                    Err(error) => html! {
                        <p id="error" class="error" data-code={error.code()}>{ error.to_string() }</p>
                    },
                }
            }
        </main>
    }
}

fn main() {
    yew::Renderer::<App>::new().render();
}
