//! Components that render the store's tables: one generic view, fed by the core's JSON view of
//! each table (`Tables::rows_json`) and its column list, so a new column needs no web change.

use idempotency_lab::store::{TableName, Tables};
use yew::prelude::*;

/// Props of [`StoreTables`].
#[derive(Properties, PartialEq)]
pub struct StoreTablesProps {
    /// The committed tables to show.
    pub tables: Tables,
}

/// Every table of the store, in the core's order.
#[function_component(StoreTables)]
pub fn store_tables(props: &StoreTablesProps) -> Html {
    html! {
        <section class="tables" aria-label="Store tables">
            { for TableName::ALL.iter().map(|&table| html! {
                <TableView {table} rows={props.tables.rows_json(table)} />
            }) }
        </section>
    }
}

/// Props of [`TableView`].
#[derive(Properties, PartialEq)]
pub struct TableViewProps {
    /// Which table.
    pub table: TableName,
    /// Its rows as JSON objects, in key order.
    pub rows: Vec<serde_json::Value>,
}

/// One table: a header row of its columns and a row per stored row. Each row carries its first
/// column's value as `data-row`, so tests and styles can find it.
#[function_component(TableView)]
pub fn table_view(props: &TableViewProps) -> Html {
    let columns = props.table.columns();
    html! {
        <figure class="table" data-testid={format!("table-{}", props.table.as_str())}>
            <figcaption>{ props.table.as_str() }</figcaption>
            <table>
                <thead><tr>{ for columns.iter().map(|column| html! { <th>{ *column }</th> }) }</tr></thead>
                <tbody>
                    if props.rows.is_empty() {
                        <tr class="empty"><td colspan={columns.len().to_string()}>{ "no rows" }</td></tr>
                    }
                    { for props.rows.iter().map(|row| {
                        let row_id = columns.first().map(|column| cell_text(&row[*column])).unwrap_or_default();
                        html! {
                            <tr data-row={row_id}>
                                { for columns.iter().map(|column| {
                                    let value = &row[*column];
                                    html! { <td class={classes!(value.is_number().then_some("num"))}>{ cell_text(value) }</td> }
                                }) }
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </figure>
    }
}

/// A cell's text: strings bare, numbers and booleans as written, anything nested as compact
/// JSON.
fn cell_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    }
}
