//! Components that render the store's tables: one generic view, fed by the core's JSON view of
//! each table (`Tables::rows_json`) and its column list, so a new column needs no web change.
//! The rows that the current step changed (its `RowChange`s) are highlighted: inserted rows
//! and updated rows each with their own class, deleted rows listed under their table. A large
//! table draws only its first rows and those the step changed, with a button for the rest
//! (the core's rule: `view::drawn_rows`).

use idempotency_lab::store::{RowChange, TableName, Tables};
use idempotency_lab::view::{Language, ROWS_DRAWN, drawn_rows};
use idempotency_lab::words::fill;
use yew::prelude::*;

/// Props of [`StoreTables`].
#[derive(Properties, PartialEq)]
pub struct StoreTablesProps {
    /// The committed tables to show.
    pub tables: Tables,
    /// The rows the current step changed.
    #[prop_or_default]
    pub changes: Vec<RowChange>,
    /// The page's language.
    #[prop_or_default]
    pub language: Language,
}

/// Every table of the store, in the core's order.
#[function_component(StoreTables)]
pub fn store_tables(props: &StoreTablesProps) -> Html {
    let drawn_in_full = use_state(Vec::new);
    html! {
        <section class="tables" aria-label={props.language.words().labels.ui_store_tables}>
            { for TableName::ALL.iter().map(|&table| {
                drawn_table(table, &props.tables, &props.changes, &drawn_in_full, props.language)
            }) }
        </section>
    }
}

/// One table of the world shown, drawn as the core says (`view::drawn_rows`): a large one its
/// first rows and those the step changed, with how many are left out and a button that draws
/// them all (`drawn_in_full` lists the tables the learner asked to see whole), and one that
/// goes back to the first ones.
pub fn drawn_table(
    table: TableName,
    tables: &Tables,
    changes: &[RowChange],
    drawn_in_full: &UseStateHandle<Vec<TableName>>,
    language: Language,
) -> Html {
    let all = drawn_in_full.contains(&table);
    let changes: Vec<RowChange> =
        changes.iter().filter(|change| change.table == table).cloned().collect();
    let drawn = drawn_rows(tables, table, &changes, all);
    let words = language.words();
    let toggle = {
        let drawn_in_full = drawn_in_full.clone();
        Callback::from(move |_: MouseEvent| {
            let mut tables = (*drawn_in_full).clone();
            match tables.iter().position(|other| *other == table) {
                Some(index) => drop(tables.remove(index)),
                None => tables.push(table),
            }
            drawn_in_full.set(tables);
        })
    };
    let total = language.number(drawn.total as u64);
    let more = drawn.left_out() > 0;
    let line = more.then(|| {
        let shown = language.number(drawn.rows.len() as u64);
        fill(words.labels.ui_rows_shown, &[("shown", &shown), ("total", &total)])
    });
    let button = if more {
        fill(words.labels.ui_show_all, &[("total", &total)])
    } else {
        words.labels.ui_show_fewer.to_owned()
    };
    let footer = if more || (all && drawn.total > ROWS_DRAWN) {
        html! {
            <p class="rows-left-out" data-testid={format!("rows-left-out-{}", table.as_str())}>
                if let Some(line) = line { { line } { " " } }
                <button type="button" class="show-all" onclick={toggle}>{ button }</button>
            </p>
        }
    } else {
        Html::default()
    };
    html! { <TableView {table} rows={drawn.rows} {changes} {language} {footer} /> }
}

/// Props of [`TableView`].
#[derive(Properties, PartialEq)]
pub struct TableViewProps {
    /// Which table.
    pub table: TableName,
    /// Its rows as JSON objects, in key order.
    pub rows: Vec<serde_json::Value>,
    /// The changes of the current step to this table.
    #[prop_or_default]
    pub changes: Vec<RowChange>,
    /// Rows to mark as differing from the other side of a comparison (class `differs`).
    #[prop_or_default]
    pub marked: Vec<serde_json::Value>,
    /// The page's language.
    #[prop_or_default]
    pub language: Language,
    /// What follows the rows inside the table's box: how many are left out, when some are.
    #[prop_or_default]
    pub footer: Html,
}

/// One table: a header row of its columns and a row per stored row. Each row carries its first
/// column's value as `data-row`, so tests and styles can find it; a row the current step
/// inserted has the class `inserted`, one it updated `updated` (both `changed`).
#[function_component(TableView)]
pub fn table_view(props: &TableViewProps) -> Html {
    let columns = props.table.columns();
    let change_of = |row: &serde_json::Value| {
        props.changes.iter().find(|change| change.after.as_ref() == Some(row)).map(|change| {
            if change.before.is_none() { "changed inserted" } else { "changed updated" }
        })
    };
    let deleted: Vec<String> = props
        .changes
        .iter()
        .filter(|change| change.after.is_none())
        .map(|change| cell_text(&change.key))
        .collect();
    html! {
        <figure class={classes!("table", (!props.changes.is_empty()).then_some("touched"))}
            data-testid={format!("table-{}", props.table.as_str())}>
            <figcaption>{ props.table.as_str() }</figcaption>
            <table>
                <thead><tr>{ for columns.iter().map(|column| html! { <th>{ *column }</th> }) }</tr></thead>
                <tbody>
                    if props.rows.is_empty() {
                        <tr class="empty"><td colspan={columns.len().to_string()}>{ props.language.words().labels.ui_no_rows }</td></tr>
                    }
                    { for props.rows.iter().map(|row| {
                        let row_id = columns.first().map(|column| cell_text(&row[*column])).unwrap_or_default();
                        html! {
                            <tr data-row={row_id} class={classes!(change_of(row), props.marked.contains(row).then_some("differs"))}>
                                { for columns.iter().map(|column| {
                                    let value = &row[*column];
                                    html! { <td class={classes!(value.is_number().then_some("num"))}>{ cell_text(value) }</td> }
                                }) }
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            if !deleted.is_empty() {
                <p class="deleted" data-testid="deleted-rows">{ fill(props.language.words().build.ui_deleted_rows, &[("rows", &deleted.join(", "))]) }</p>
            }
            { props.footer.clone() }
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
