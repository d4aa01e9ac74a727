//! Components that render the store's tables.

use idempotency_lab::store::{StockRow, TableName};
use yew::prelude::*;

/// Props of [`StockTable`].
#[derive(Properties, PartialEq)]
pub struct StockTableProps {
    /// The rows, in key order.
    pub rows: Vec<StockRow>,
}

/// The `stock` table: on hand and available per sku.
#[function_component(StockTable)]
pub fn stock_table(props: &StockTableProps) -> Html {
    html! {
        <figure class="table" data-testid="table-stock">
            <figcaption>{ TableName::Stock.as_str() }</figcaption>
            <table>
                <thead><tr><th>{ "sku" }</th><th>{ "on hand" }</th><th>{ "available" }</th></tr></thead>
                <tbody>
                    { for props.rows.iter().map(|row| html! {
                        <tr data-sku={row.sku.to_string()}>
                            <td>{ row.sku.to_string() }</td>
                            <td class="num">{ row.on_hand_qty }</td>
                            <td class="num">{ row.available_qty }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </figure>
    }
}
