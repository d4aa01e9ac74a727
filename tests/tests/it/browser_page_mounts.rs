//! The built page mounts in a real browser, shows what the core computed, is served with the
//! right types, and logs no error. This is the end-to-end proof that the wasm build, the
//! wasm-bindgen glue and the server work together.

use idempotency_lab::shop::ShopConfig;
use idempotency_lab::store::TableName;
use idempotency_lab_tests::browser::LabPage;

#[test]
fn the_page_mounts_and_shows_the_shops_initial_stock_from_the_core() {
    let page = LabPage::open("");

    // What the core says the shop starts with, row by row, must be what the page shows.
    let shop = ShopConfig::default();
    for line in &shop.stock {
        let row = page.text(&format!("[data-testid=table-stock] tr[data-row={}]", line.sku));
        let cells: Vec<&str> = row.split_whitespace().collect();
        let qty = line.qty.to_string();
        assert_eq!(
            cells,
            [line.sku.as_str(), qty.as_str(), qty.as_str()],
            "stock row of {}",
            line.sku
        );
    }
    assert_eq!(page.text("h1"), "Idempotency Lab");

    // Every table of the core's schema is on the page, with the core's columns; only stock
    // has rows before the first step.
    for &table in TableName::ALL {
        let figure = format!("[data-testid=table-{}]", table.as_str());
        let header = page.text(&format!("{figure} thead"));
        assert_eq!(header.split_whitespace().collect::<Vec<_>>(), table.columns(), "{figure}");
        let body = page.text(&format!("{figure} tbody"));
        assert_eq!(body == "no rows", table != TableName::Stock, "{figure}: {body}");
    }

    let wasm_type = page.evaluate(
        "fetch('./pkg/idempotency_lab_web_bg.wasm').then(response => response.headers.get('content-type'))",
    );
    assert_eq!(wasm_type, serde_json::json!("application/wasm"));

    page.screenshot("page-mounted");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
