//! The shop every run starts from: which skus the warehouse holds, and the store's limits.
//!
//! Scenarios name a `ShopConfig`; the page shows its initial tables before the first step.

use serde::{Deserialize, Serialize};

use crate::ids::Sku;
use crate::store::{Store, StoreConfig};

/// One sku and how many the warehouse holds at the start.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitialStock {
    /// The sku.
    pub sku: Sku,
    /// On hand, and available, at the start.
    pub qty: i64,
}

/// The starting state of the simulated shop.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShopConfig {
    /// The warehouse's stock at the start, in the order the page lists it.
    pub stock: Vec<InitialStock>,
    /// The store's limits.
    #[serde(default)]
    pub store: StoreConfig,
}

impl Default for ShopConfig {
    /// The workshop shop: ten apples and five pears, small enough to read on a projector.
    fn default() -> Self {
        ShopConfig {
            stock: vec![
                InitialStock { sku: Sku::new("apple"), qty: 10 },
                InitialStock { sku: Sku::new("pear"), qty: 5 },
            ],
            store: StoreConfig::default(),
        }
    }
}

impl ShopConfig {
    /// A store holding this shop's initial stock and nothing else.
    pub fn initial_store(&self) -> Store {
        Store::with_stock(self.store, self.stock.iter().map(|line| (line.sku.clone(), line.qty)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_shop_starts_with_its_stock_on_hand_and_available() {
        let store = ShopConfig::default().initial_store();
        let stock: Vec<(String, i64, i64)> = store
            .committed()
            .stock
            .values()
            .map(|row| (row.sku.to_string(), row.on_hand_qty, row.available_qty))
            .collect();
        assert_eq!(stock, vec![("apple".into(), 10, 10), ("pear".into(), 5, 5)]);
        assert!(store.committed().orders.is_empty());
    }
}
