//! The page's root component: the header and the shop's tables as the core builds them.

use idempotency_lab::shop::ShopConfig;
use yew::prelude::*;

use crate::tables::StoreTables;

/// The root of the page.
#[function_component(App)]
pub fn app() -> Html {
    let store = use_memo((), |_| ShopConfig::default().initial_store());
    html! {
        <main class="lab" data-testid="app">
            <header class="lab-header">
                <h1>{ "Idempotency Lab" }</h1>
                <p class="tagline">
                    { "Duplicate deliveries, lost responses, crashes and races: watch a naive shop break, then fix it." }
                </p>
            </header>
            <StoreTables tables={store.committed().clone()} />
        </main>
    }
}
