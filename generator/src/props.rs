//! The islands' props: one type per island, named after it (`buy-buttons` →
//! [`BuyButtonsProps`]), serialized into the page as the JSON that follows
//! the island's element (web/ISLANDS.md). They are the one source of the web
//! side's props types too: `generator islands-schema` prints them as an
//! OpenAPI document ([`schema_document`]), from which `scripts/generate-types`
//! writes `web/src/generated/islands.ts`.
//!
//! A field the generator does not write today (the island then uses its
//! default) is an `Option` left out of the JSON when `None`; a field the
//! generator always writes is required, even when it may be `null`.

use schemars::generate::{Contract, SchemaSettings};
use schemars::{JsonSchema, SchemaGenerator};
use serde::Serialize;

/// Props an island element can carry: which island they are for, and their
/// JSON as it sits in the page. Implemented for every type in this module
/// (by [`island_props!`]) and nothing else, so pages write only typed props.
pub trait IslandProps {
    /// The island these props are for (its folder under `web/src/islands/`).
    fn island(&self) -> &'static str;
    /// The props as JSON that can sit inside a `<script>` element.
    fn script_json(&self) -> String;
}

/// Props of `account-page`: none; the view comes from the path (`/user/<view>`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct AccountPageProps {}

/// Props of `advert-modal`: widget 5, the pre-load advert, written only when
/// the widget is active.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AdvertModalProps<'a> {
    /// The advert's HTML (staff-written, from the widget's description).
    pub description: &'a str,
    /// When the flash sale the advert belongs to ends (unix seconds): a
    /// page written before then does not open it after. Absent for an
    /// advert of no sale.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ends_at: Option<i64>,
}

/// Props of `buy-buttons`: a product's or a product set's.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum BuyButtonsProps<'a> {
    /// On a product page.
    Product(ProductBuyProps<'a>),
    /// On a product-set page.
    Set(SetBuyProps<'a>),
}

/// Props of `buy-buttons` on a product page.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProductBuyProps<'a> {
    /// The product's id, for the cart and its recent views.
    pub id: i64,
    /// The product code, for analytics.
    pub code: &'a str,
    /// The product's name, for the "added" message and analytics.
    pub title: &'a str,
    /// The price now (a running flash sale's, if any), whole taka.
    pub price: i64,
    /// Whether any is in stock.
    pub in_stock: bool,
    /// Whether it is sold by pre-booking ("Pre-book now" instead of "Add to cart").
    pub pre_booking: bool,
    /// Whether ordering is switched off for it.
    pub disable_buy: bool,
    /// The chosen variation, when the product has variations (not written by
    /// the generator: a page is the product's, not a variation's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variation_id: Option<i64>,
    /// The product's main category name, for analytics (not written by the
    /// generator today).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<&'a str>,
}

/// Props of `buy-buttons` on a product-set page.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SetBuyProps<'a> {
    /// The set's id, for `cart/add-to-cart?pset_id=`.
    pub set_id: i64,
    /// The set's slug, for `product/product-set-products?slug=`.
    pub slug: &'a str,
    /// The set's products as the page was generated, in the names of
    /// `product/product-set-products` (the island checks them again).
    pub items: Vec<SetItemProps<'a>>,
    /// The set's active fabrics, one of which goes with the add.
    pub fabrics: Vec<SetFabricProps<'a>>,
}

/// A product of a set, as `product/product-set-products` names it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SetItemProps<'a> {
    pub id: i64,
    pub title: &'a str,
    pub seo_url: &'a str,
    /// Units in stock.
    pub qty: i64,
    /// The price a shopper pays now, whole taka.
    pub price_now: i64,
    /// `in_stock`, `out_of_stock` or `pre_booking`.
    pub stock_status: &'a str,
    /// Units of it in the set.
    pub product_set_qty: i64,
    /// Whether buying it is switched off.
    pub disable_buy: bool,
}

/// A fabric of a set, as `product/product-set-fabrics` names it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SetFabricProps<'a> {
    pub id: i64,
    pub title: &'a str,
    /// The fabric's image path; null when it has none.
    pub image_url: Option<&'a str>,
}

/// Props of `cart-page`: none (the cart is the visitor's, from the API).
#[derive(Debug, Serialize, JsonSchema)]
pub struct CartPageProps {}

/// Props of `category-filters`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CategoryFiltersProps<'a> {
    /// The category's slug (`/c/<seo_url>`), for `category/products`.
    pub seo_url: &'a str,
    /// The attribute filters offered, as the page shows them: only values
    /// that leave some product, each with its count.
    pub groups: Vec<FilterGroupProps<'a>>,
    /// The listing's lowest price, taka (the price filter's bound); null
    /// for an empty listing.
    pub price_low: Option<i64>,
    /// The listing's highest price, taka.
    pub price_high: Option<i64>,
}

/// One attribute's filter: its label, query parameter and values.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FilterGroupProps<'a> {
    pub label: &'a str,
    /// `filterby_<field_name>`.
    pub param: String,
    pub values: Vec<FilterValueProps<'a>>,
}

/// A filter value and the products it leaves.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FilterValueProps<'a> {
    /// What goes into the parameter.
    pub slug: &'a str,
    pub label: &'a str,
    pub count: i64,
}

/// Props of `checkout-page`: none.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CheckoutPageProps {}

/// Props of `compare-page`: none.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ComparePageProps {}

/// Props of `contact-form`: none (the shop's phone and e-mail are in its
/// fallback; `?sent=1` shows the confirmation).
#[derive(Debug, Serialize, JsonSchema)]
pub struct ContactFormProps {}

/// Props of `drawer`: the header's template holds the left drawer's island
/// without props and the right (account) drawer's with `nav_id` and `account`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DrawerProps<'a> {
    /// The id of the generator's drawer `<nav>` (the island's default: `menu`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nav_id: Option<&'a str>,
    /// The right drawer (the account links, opened by links to `#<nav_id>`)
    /// rather than the left one with its menu link (written by the header's
    /// template as `{"nav_id":"account","account":true}`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub account: bool,
}

/// Props of `fail-page`: none; the query carries `reason` (a `FailReason`
/// code, which the page words) and, for the original shop's clients, `data`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FailPageProps {}

/// Props of `flash-countdown` (times in Unix seconds).
#[derive(Debug, Serialize, JsonSchema)]
pub struct FlashCountdownProps {
    /// When the sale starts; before then the countdown counts to the start
    /// (written on the home page's strip, not on a product page, whose sale runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starts_at: Option<i64>,
    /// When the sale ends.
    pub ends_at: i64,
    /// Server time minus browser time in ms (not written by the generator:
    /// a static page cannot know it; the island reads a `Date` header).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset_ms: Option<i64>,
}

/// Props of `forgot-password-page`: none.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ForgotPasswordPageProps {}

/// Props of `header-counts` (written by no page: the header's template holds
/// the island without props; the counts come from the API).
#[derive(Debug, Serialize, JsonSchema)]
pub struct HeaderCountsProps<'a> {
    /// Where the profile icon links (the island's default: `/user/profile`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile_url: Option<&'a str>,
    /// The cart's count when the page already knows it (set by the island's
    /// own mount from an early Add to cart, never by the generator).
    #[serde(rename = "cartCount", skip_serializing_if = "Option::is_none")]
    pub cart_count: Option<i64>,
}

/// Props of `loading-bar` (SPEC.md §9's timings are the island's defaults).
#[derive(Debug, Serialize, JsonSchema)]
pub struct LoadingBarProps {
    /// Show the bar only for requests still running after this many ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throttle_ms: Option<u32>,
    /// How long the bar takes to creep across while waiting, in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u32>,
}

/// Props of `login-page`: none (a `?redirect=/path` query names where to go after).
#[derive(Debug, Serialize, JsonSchema)]
pub struct LoginPageProps {}

/// Props of `online-status`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct OnlineStatusProps {
    /// How long the "back online" note stays, in ms (the island's default:
    /// 4000; set shorter only by tests).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub back_ms: Option<u32>,
}

/// Props of `payment-page`: none.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PaymentPageProps {}

/// Props of `product-gallery` on a product page (an interior's gallery has
/// none: the island then keeps its fallback).
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProductGalleryProps<'a> {
    /// The product's id, for the 360 frames call.
    pub id: i64,
    /// Stored image paths (`storage/uploads/...`), the first being the one
    /// the fallback shows.
    pub images: Vec<&'a str>,
    /// A video URL (YouTube or a file), `null` when the product has none.
    pub video: Option<&'a str>,
    /// The video's poster picture (a stored image path, `storage/uploads/...`),
    /// shown until the video is tapped; absent when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub poster: Option<&'a str>,
    /// How many 360 frames the product has (0: no 360 view).
    pub frames_360: i64,
    /// The product's slug, for the 360 frames call (not written by the
    /// generator: the island reads it from `/product/<slug>`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seo_url: Option<&'a str>,
    /// The product's name, for alt texts (not written by the generator: the
    /// island reads the fallback image's `alt`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'a str>,
    /// Zoom factor (not written by the generator: the island's default is
    /// SPEC.md §9's 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zoom: Option<f64>,
}

/// Props of `product-questions`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProductQuestionsProps<'a> {
    /// The product the questions and comments are about.
    pub product_id: i64,
    /// Whether the product takes comments as well as questions.
    pub enable_comment: bool,
    /// The product's slug (not written by the generator: the island reads
    /// it from `/product/<slug>`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seo_url: Option<&'a str>,
}

/// Props of `redirect-page` (`/redirect-from-ssl`, `/nagad-thank-you`):
/// none; the query carries the order.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RedirectPageProps {}

/// Props of `registration-page`: none.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RegistrationPageProps {}

/// Props of `reset-password-page`: none; the link's query carries `token` and `email`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ResetPasswordPageProps {}

/// Props of `review-page` (`/review`, `/review_workable_copy`,
/// `/product/review/{id}`): none; the path names the product, the API the rest.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReviewPageProps {}

/// Props of `search-box` (written by no page today: the header's template
/// holds the island without props).
#[derive(Debug, Serialize, JsonSchema)]
pub struct SearchBoxProps<'a> {
    /// The keyword to show, e.g. on a search result page (`/c/products?keyword=`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<&'a str>,
    /// Debounce before asking for suggestions, in ms (the island's default:
    /// SPEC.md §9's 500).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub debounce_ms: Option<u32>,
}

/// Props of `order-page`: none; the query carries `order_random` and `order_key`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct OrderPageProps {}

/// Props of `thank-you-page`: none; the query carries `order_random` and `order_key`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ThankYouPageProps {}

/// Props of `track-order-page`: none (`?id=&phone=` fill the form).
#[derive(Debug, Serialize, JsonSchema)]
pub struct TrackOrderPageProps {}

/// Props of `wishlist-page`: none.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WishlistPageProps {}

/// Implements [`IslandProps`] for each props type and lists them, with their
/// islands, in [`ISLANDS`] and [`schema_document`]: one list, so an island
/// cannot have props the schema leaves out.
macro_rules! island_props {
    ($($island:literal => $ty:ident $(<$lt:lifetime>)?),* $(,)?) => {
        $(
            impl IslandProps for $ty$(<$lt>)? {
                fn island(&self) -> &'static str {
                    $island
                }
                fn script_json(&self) -> String {
                    crate::format::script_json(self)
                }
            }
        )*

        /// Every island, with the name of its props type.
        #[cfg(test)]
        pub const ISLANDS: &[(&str, &str)] = &[$(($island, stringify!($ty))),*];

        /// Adds every island's props type (and the types they use) to `generator`'s
        /// definitions.
        fn add_all(generator: &mut SchemaGenerator) {
            $(generator.subschema_for::<$ty$(<$lt>)?>();)*
        }
    };
}

island_props! {
    "account-page" => AccountPageProps,
    "advert-modal" => AdvertModalProps<'_>,
    "buy-buttons" => BuyButtonsProps<'_>,
    "cart-page" => CartPageProps,
    "category-filters" => CategoryFiltersProps<'_>,
    "checkout-page" => CheckoutPageProps,
    "compare-page" => ComparePageProps,
    "contact-form" => ContactFormProps,
    "drawer" => DrawerProps<'_>,
    "fail-page" => FailPageProps,
    "flash-countdown" => FlashCountdownProps,
    "forgot-password-page" => ForgotPasswordPageProps,
    "header-counts" => HeaderCountsProps<'_>,
    "loading-bar" => LoadingBarProps,
    "login-page" => LoginPageProps,
    "online-status" => OnlineStatusProps,
    "order-page" => OrderPageProps,
    "payment-page" => PaymentPageProps,
    "product-gallery" => ProductGalleryProps<'_>,
    "product-questions" => ProductQuestionsProps<'_>,
    "redirect-page" => RedirectPageProps,
    "registration-page" => RegistrationPageProps,
    "reset-password-page" => ResetPasswordPageProps,
    "review-page" => ReviewPageProps,
    "search-box" => SearchBoxProps<'_>,
    "thank-you-page" => ThankYouPageProps,
    "track-order-page" => TrackOrderPageProps,
    "wishlist-page" => WishlistPageProps,
}

/// An OpenAPI 3.1 document with no paths whose `components.schemas` holds
/// every island's props type and the types they use, for openapi-typescript.
/// JSON Schema 2020-12 (OpenAPI 3.1's dialect: `null` is a type, not
/// `nullable`), described as serialized: a field the JSON always holds is
/// required, even when it may be `null`; one left out when unset is
/// optional and never `null` (so `nav_id?: string`, not `string | null`).
pub fn schema_document() -> serde_json::Value {
    let mut generator = SchemaSettings::draft2020_12()
        .with(|s| {
            s.definitions_path = "/components/schemas".into();
            s.meta_schema = None;
            s.contract = Contract::Serialize;
        })
        .into_generator();
    add_all(&mut generator);
    let mut schemas = generator.take_definitions(true);
    schemas.values_mut().for_each(optional_is_never_null);
    serde_json::json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Island props",
            "description": "The props each island's element carries (web/ISLANDS.md), from generator/src/props.rs.",
            "version": env!("CARGO_PKG_VERSION"),
        },
        "paths": {},
        "components": { "schemas": schemas },
    })
}

/// Takes `null` out of the types of an object schema's optional properties:
/// here a property is optional only when it is an `Option` left out of the
/// JSON when `None`, so it is never `null` (schemars describes the `Option`,
/// not the `skip_serializing_if`).
fn optional_is_never_null(schema: &mut serde_json::Value) {
    let required: Vec<String> = match schema.get("required") {
        Some(serde_json::Value::Array(names)) => names
            .iter()
            .filter_map(|n| n.as_str().map(String::from))
            .collect(),
        _ => Vec::new(),
    };
    let Some(serde_json::Value::Object(properties)) = schema.get_mut("properties") else {
        return;
    };
    for (name, property) in properties {
        if required.contains(name) {
            continue;
        }
        if let Some(serde_json::Value::Array(types)) = property.get_mut("type") {
            types.retain(|t| t != "null");
            if let [only] = types.as_slice() {
                property["type"] = only.clone();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn every_island_of_the_web_project_has_props_here_and_no_other() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/src/islands");
        let mut folders: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.path().join("index.tsx").exists())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        folders.sort();
        let named: Vec<&str> = ISLANDS.iter().map(|(island, _)| *island).collect();
        assert_eq!(named, folders);
        // Each type is named after its island.
        for (island, ty) in ISLANDS {
            let camel: String = island
                .split('-')
                .map(|w| w[..1].to_uppercase() + &w[1..])
                .collect();
            assert_eq!(*ty, format!("{camel}Props"));
        }
    }

    #[test]
    fn props_keep_null_where_the_page_always_writes_a_field_and_leave_out_the_rest() {
        let gallery = ProductGalleryProps {
            id: 7,
            images: vec!["a.jpg"],
            video: None,
            poster: None,
            frames_360: 0,
            seo_url: None,
            title: None,
            zoom: None,
        };
        assert_eq!(
            serde_json::to_value(&gallery).unwrap(),
            json!({"id": 7, "images": ["a.jpg"], "video": null, "frames_360": 0})
        );
        let countdown = FlashCountdownProps {
            starts_at: None,
            ends_at: 90,
            offset_ms: None,
        };
        assert_eq!(countdown.script_json(), r#"{"ends_at":90}"#);
        assert_eq!(countdown.island(), "flash-countdown");
        let counts = HeaderCountsProps {
            profile_url: None,
            cart_count: Some(2),
        };
        assert_eq!(counts.script_json(), r#"{"cartCount":2}"#);
        // The two kinds of buy-buttons props carry no tag.
        let set = BuyButtonsProps::Set(SetBuyProps {
            set_id: 3,
            slug: "s<",
            items: vec![],
            fabrics: vec![],
        });
        assert_eq!(
            set.script_json(),
            r#"{"set_id":3,"slug":"s\u003c","items":[],"fabrics":[]}"#
        );
        assert_eq!(CartPageProps {}.script_json(), "{}");
    }

    /// Every `$ref` under `value`.
    fn refs<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    match (k.as_str(), v) {
                        ("$ref", Value::String(r)) => out.push(r),
                        _ => refs(v, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }

    #[test]
    fn the_schema_document_holds_every_props_type_and_what_it_refers_to() {
        let doc = schema_document();
        assert_eq!(doc["openapi"], "3.1.0");
        assert_eq!(doc["paths"], json!({}));
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        for (_, ty) in ISLANDS {
            assert!(schemas.contains_key(*ty), "{ty} missing");
        }
        let mut found = Vec::new();
        refs(&doc, &mut found);
        assert!(found.contains(&"#/components/schemas/ProductBuyProps"));
        for r in found {
            let name = r.strip_prefix("#/components/schemas/").unwrap();
            assert!(schemas.contains_key(name), "{r} points nowhere");
        }
        // As serialized: a field always written is required, even if null;
        // one left out when unset is not.
        let gallery = &schemas["ProductGalleryProps"];
        assert_eq!(
            gallery["required"],
            json!(["id", "images", "video", "frames_360"])
        );
        assert_eq!(
            gallery["properties"]["video"]["type"],
            json!(["string", "null"])
        );
        assert_eq!(gallery["properties"]["seo_url"]["type"], "string");
        assert_eq!(
            schemas["HeaderCountsProps"]["properties"]["cartCount"]["type"],
            "integer"
        );
    }
}
