//! Product sets into the cart (issue 15): every item is checked before the
//! set is added (an item out of stock, or short of the set's quantity, is a
//! 409 naming it, and nothing is added); a set with fabrics needs one of its
//! active fabrics (400 naming `fabric_id` otherwise), which the cart keeps
//! and answers with its name; the set's products answer their stock.
//! SQLite, and PostgreSQL with TEST_POSTGRES_URL.

mod common;

use axum::http::StatusCode;
use catalog::db;
use common::{assert_api_error, TestShop};
use serde_json::Value;

/// A set with at least two active fabrics: (set id, slug, [fabric ids]).
async fn set_with_fabrics(shop: &TestShop) -> (i64, String, Vec<i64>) {
    let (id, slug): (i64, String) = db::query_as(
        "SELECT s.id, s.slug FROM product_set s WHERE s.active = TRUE \
         AND (SELECT COUNT(*) FROM fabric f WHERE f.product_set_id = s.id AND f.active) >= 2 \
         ORDER BY s.id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .expect("a set with fabrics");
    let fabrics: Vec<i64> = db::query_scalar(
        "SELECT id FROM fabric WHERE product_set_id = $1 AND active ORDER BY sort, id",
    )
    .bind(id)
    .fetch_all(&shop.state.pool)
    .await
    .unwrap();
    (id, slug, fabrics)
}

/// Puts every product of `set` in stock (50 units, no pre-booking).
async fn stock_all(shop: &TestShop, set: i64) {
    db::query(
        "UPDATE product SET stock = 50, pre_booking = FALSE, disable_buy = FALSE WHERE id IN \
         (SELECT product_id FROM product_set_item WHERE product_set_id = $1)",
    )
    .bind(set)
    .execute(&shop.state.pool)
    .await
    .unwrap();
}

/// The set's items: (product id, title, qty in the set), in order.
async fn items(shop: &TestShop, set: i64) -> Vec<(i64, String, i64)> {
    db::query_as(
        "SELECT p.id, p.title, i.qty FROM product_set_item i JOIN product p ON p.id = i.product_id \
         WHERE i.product_set_id = $1 ORDER BY i.sort, p.id",
    )
    .bind(set)
    .fetch_all(&shop.state.pool)
    .await
    .unwrap()
}

async fn set_stock(shop: &TestShop, product: i64, stock: i64) {
    db::query("UPDATE product SET stock = $1 WHERE id = $2")
        .bind(stock)
        .bind(product)
        .execute(&shop.state.pool)
        .await
        .unwrap();
}

async fn cart_sets(shop: &TestShop, token: &str) -> Vec<Value> {
    let (status, _, view) = shop.guest_get(token, "/api/cart/view").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    match &view["cart"]["psets"] {
        Value::Object(map) => map.values().cloned().collect(),
        _ => Vec::new(),
    }
}

#[tokio::test]
async fn an_item_out_of_stock_is_a_409_naming_it_and_nothing_is_added() {
    let shop = TestShop::fresh().await;
    let (set, _, fabrics) = set_with_fabrics(&shop).await;
    stock_all(&shop, set).await;
    let list = items(&shop, set).await;
    let (gone, gone_title, _) = list[0].clone();
    set_stock(&shop, gone, 0).await;
    let t = "guest-sets-0001.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (status, headers, body) = shop
        .guest_get(
            t,
            &format!(
                "/api/cart/add-to-cart?pset_id={set}&fabric_id={}",
                fabrics[0]
            ),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::CONFLICT);
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("{gone_title} is out of stock")),
        "{message}"
    );
    // The others are not named, and nothing went into the cart.
    for (_, title, _) in &list[1..] {
        assert!(!message.contains(title.as_str()), "{message}");
    }
    assert!(cart_sets(&shop, t).await.is_empty());
    let lines = shop
        .scalar_i64(
            "SELECT COUNT(*) FROM cart_item ci JOIN cart c ON c.id = ci.cart_id \
             WHERE c.self_token = 'guest-sets-0001'",
        )
        .await;
    assert_eq!(lines, 0);

    // Short of the set's quantity (a chair the set needs 4 of, 2 in stock)
    // names it too; product-set-products answers each item's stock and the
    // quantity the set needs, which is what the page judges by.
    set_stock(&shop, gone, 50).await;
    let (short, short_title, _) = list.last().unwrap().clone();
    db::query("UPDATE product_set_item SET qty = 4 WHERE product_set_id = $1 AND product_id = $2")
        .bind(set)
        .bind(short)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    set_stock(&shop, short, 2).await;
    let (status, headers, body) = shop
        .guest_get(
            t,
            &format!(
                "/api/cart/add-to-cart?pset_id={set}&fabric_id={}",
                fabrics[0]
            ),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::CONFLICT);
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("{short_title}: only 2 left, 4 needed")),
        "{message}"
    );
    let slug: String = db::query_scalar("SELECT slug FROM product_set WHERE id = $1")
        .bind(set)
        .fetch_one(&shop.state.pool)
        .await
        .unwrap();
    let (status, _, answer) = shop
        .get(&format!("/api/product/product-set-products?slug={slug}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let row = answer["products"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == short)
        .expect("the short item")
        .clone();
    assert_eq!(row["qty"], 2);
    assert_eq!(row["product_set_qty"], 4);
    assert_eq!(row["disable_buy"], false);
}

#[tokio::test]
async fn a_set_with_fabrics_needs_one_of_its_own() {
    let shop = TestShop::fresh().await;
    let (set, _, fabrics) = set_with_fabrics(&shop).await;
    stock_all(&shop, set).await;
    let t = "guest-sets-0002.k7Qx2mZp9LwR4tYv8NsB3hJd";
    // None chosen: 400 naming fabric_id, and the choices.
    let (status, headers, body) = shop
        .guest_get(t, &format!("/api/cart/add-to-cart?pset_id={set}"))
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    assert!(body["errors"]["fabric_id"].is_array(), "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("Choose a fabric"),
        "{body}"
    );
    // Another set's fabric, an unknown one, and a switched-off one: 400.
    let other: i64 = shop
        .scalar_i64(&format!(
            "SELECT id FROM fabric WHERE product_set_id <> {set} ORDER BY id LIMIT 1"
        ))
        .await;
    db::query("UPDATE fabric SET active = FALSE WHERE id = $1")
        .bind(fabrics[1])
        .execute(&shop.state.pool)
        .await
        .unwrap();
    for fabric in [other, 999_999, fabrics[1]] {
        let (status, headers, body) = shop
            .guest_get(
                t,
                &format!("/api/cart/add-to-cart?pset_id={set}&fabric_id={fabric}"),
            )
            .await;
        assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
        assert!(body["errors"]["fabric_id"].is_array(), "{fabric}: {body}");
    }
    // Not a number: 400 as well.
    let (status, headers, body) = shop
        .guest_get(
            t,
            &format!("/api/cart/add-to-cart?pset_id={set}&fabric_id=velvet"),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    assert!(cart_sets(&shop, t).await.is_empty());
}

#[tokio::test]
async fn the_chosen_fabric_is_kept_and_answered_with_its_name() {
    let shop = TestShop::fresh().await;
    let (set, slug, fabrics) = set_with_fabrics(&shop).await;
    stock_all(&shop, set).await;
    let t = "guest-sets-0003.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let title: String = db::query_scalar("SELECT title FROM fabric WHERE id = $1")
        .bind(fabrics[1])
        .fetch_one(&shop.state.pool)
        .await
        .unwrap();
    let (status, _, body) = shop
        .guest_get(
            t,
            &format!(
                "/api/cart/add-to-cart?pset_id={set}&fabric_id={}",
                fabrics[1]
            ),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["pset_id"], set);
    assert_eq!(body["fabric_id"], fabrics[1]);
    let sets = cart_sets(&shop, t).await;
    assert_eq!(sets.len(), 1);
    assert_eq!(sets[0]["info"]["slug"], slug.as_str());
    assert_eq!(sets[0]["info"]["fabric_id"], fabrics[1]);
    assert_eq!(sets[0]["info"]["fabric_title"], title.as_str());
    let list = items(&shop, set).await;
    let lines = sets[0]["items"].as_array().unwrap();
    assert_eq!(lines.len(), list.len());
    for (line, (id, _, qty)) in lines.iter().zip(&list) {
        assert_eq!(line["info"]["id"], *id);
        assert_eq!(line["qty"], *qty);
        assert_eq!(line["fabric_id"], fabrics[1]);
    }
    // The same set in the same fabric again: one set, each item once more;
    // in another fabric: a second set.
    let add = |fabric: i64| format!("/api/cart/add-to-cart?pset_id={set}&fabric_id={fabric}");
    let (status, _, _) = shop.guest_get(t, &add(fabrics[1])).await;
    assert_eq!(status, StatusCode::OK);
    let sets = cart_sets(&shop, t).await;
    assert_eq!(sets.len(), 1);
    assert_eq!(sets[0]["items"][0]["qty"], list[0].2 * 2);
    let (status, _, _) = shop.guest_get(t, &add(fabrics[0])).await;
    assert_eq!(status, StatusCode::OK);
    let sets = cart_sets(&shop, t).await;
    assert_eq!(sets.len(), 2);
    let mut kept: Vec<i64> = sets
        .iter()
        .map(|s| s["info"]["fabric_id"].as_i64().unwrap())
        .collect();
    kept.sort();
    let mut want = vec![fabrics[0], fabrics[1]];
    want.sort();
    assert_eq!(kept, want);
    // A set without fabrics goes in without one.
    db::query("UPDATE fabric SET active = FALSE WHERE product_set_id = $1")
        .bind(set)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let t2 = "guest-sets-0004.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (status, _, body) = shop
        .guest_get(t2, &format!("/api/cart/add-to-cart?pset_id={set}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let sets = cart_sets(&shop, t2).await;
    assert_eq!(sets[0]["info"]["fabric_id"], Value::Null);
    assert_eq!(sets[0]["info"]["fabric_title"], Value::Null);
}
