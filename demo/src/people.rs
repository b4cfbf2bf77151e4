//! The shoppers of the demo shop: a few accounts (argon2id password hashes),
//! their addresses, orders with details and status history, reviews of
//! delivered products, product questions with answers, comments and
//! newsletter subscribers.

use anyhow::Context;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::catalogue::{care, dimensions, material_colours, Catalogue, Product, EMI_PLANS};
use super::images::COLOURS;
use super::{row, SeedOptions, Table, DEMO_EMAIL, DEMO_PASSWORD};

/// Demo accounts: name, email, phone, password.
const USERS: [(&str, &str, &str, &str); 4] = [
    ("Demo Shopper", DEMO_EMAIL, "01712345678", DEMO_PASSWORD),
    (
        "Rahim Uddin",
        "rahim@example.com",
        "01811223344",
        "rahim-password-1",
    ),
    (
        "Ayesha Siddiqua",
        "ayesha@example.com",
        "01911556677",
        "ayesha-password-1",
    ),
    (
        "Kamal Hossain",
        "kamal@example.com",
        "01611889900",
        "kamal-password-1",
    ),
];

const ADDRESSES: [(&str, &str, &str, &str); 4] = [
    ("House 8, Road 27, Dhanmondi", "Dhaka", "Dhaka", "Dhanmondi"),
    (
        "Flat 4B, 12 Agrabad C/A",
        "Chattogram",
        "Chattogram",
        "Double Mooring",
    ),
    ("Holding 77, Zindabazar", "Sylhet", "Sylhet", "Kotwali"),
    ("Road 3, Sonadanga R/A", "Khulna", "Khulna", "Sonadanga"),
];

const QUESTIONS: [&str; 6] = [
    "Is this available in a darker colour?",
    "Do you deliver to Cumilla, and how long does it take?",
    "Will termites get into it?",
    "Can I pay in EMI with a City Bank card?",
    "What are the exact dimensions?",
    "Is assembly included?",
];

/// The answer to question `q` about product `p`, true of that product.
fn answer(q: usize, p: &Product) -> String {
    match q {
        0 => {
            let others: Vec<String> = material_colours(p.material)
                .iter()
                .filter(|c| **c != p.colour)
                .map(|c| COLOURS[*c].0.to_lowercase())
                .collect();
            if others.is_empty() {
                format!(
                    "No, this model is made in {} only.",
                    COLOURS[p.colour].0.to_lowercase()
                )
            } else {
                format!(
                    "It is also made in {}; ask the showroom or the hotline which are in stock.",
                    others.join(" and ")
                )
            }
        }
        1 if p.pre_booking => "Yes. This piece is pre-booked and made to order: it reaches Cumilla three to four weeks after your order, delivery free on orders from ৳5,000.".to_string(),
        1 if p.stock > 0 => "Yes. In-stock pieces reach Cumilla within 72 hours (Fridays and holidays excepted); delivery costs ৳300, free on orders from ৳5,000.".to_string(),
        1 => "Yes. This piece is made to order, so it takes 10 to 15 working days; delivery costs ৳300, free on orders from ৳5,000.".to_string(),
        2 => match p.material {
            "Segun Wood" | "Mahogany" | "Oak" => "Yes: the timber is seasoned and treated against termites before it is cut, and the frame warranty covers termite damage for five years.".to_string(),
            m => format!("It is made of {}, which termites do not eat. {}", m.to_lowercase(), care(m)),
        },
        3 if p.price_now >= 20_000 => {
            let (bank, rates) = EMI_PLANS[0];
            format!(
                "Yes: with {bank}, 0% for 3 and 6 months, or {}% and {}% a year over 9 and 12 months. The product page shows the monthly amount.",
                rates[2] / 100,
                rates[3] / 100
            )
        }
        3 => "EMI is offered from ৳20,000, so this piece is paid in full: in cash on delivery, by card or by mobile wallet.".to_string(),
        4 => match p.size.and_then(|s| dimensions(s).map(|d| (s, d))) {
            Some((s, d)) => format!("The {s} size: {d}."),
            None => "Our showroom staff can measure the display piece for you; call the hotline with the product code.".to_string(),
        },
        _ => "Yes, our team assembles it in your home free of charge.".to_string(),
    }
}

pub(super) struct People {
    pub tables: Vec<Table>,
    /// Statements run after every table is inserted (references that go both ways).
    pub after_insert: Vec<String>,
}

pub(super) fn build(
    rng: &mut ChaCha8Rng,
    options: &SeedOptions,
    cat: &Catalogue,
) -> anyhow::Result<People> {
    let now = options.now;
    let mut users = Table::new(
        "app_user",
        &[
            "id",
            "name",
            "email",
            "phone",
            "emergency_phone",
            "password_hash",
            "district",
            "created_at",
            "updated_at",
        ],
    );
    let mut addresses = Table::new(
        "address",
        &[
            "id", "user_id", "name", "phone", "address", "region", "district", "thana",
        ],
    );
    let mut after_insert = Vec::new();
    for (i, (name, email, phone, password)) in USERS.iter().enumerate() {
        let id = i as i64 + 1;
        let mut salt = [0u8; 16];
        rng.fill(&mut salt);
        let hash = catalog::password::hash_with_salt(password, &salt)
            .context("hashing a demo password")?;
        let (addr, region, district, thana) = ADDRESSES[i % ADDRESSES.len()];
        let created = now - 200 * 86_400 + id * 86_400;
        users.push(row![
            id,
            *name,
            *email,
            *phone,
            format!("0155{:07}", 1_000_000 + id * 1234),
            hash,
            district,
            created,
            created
        ]);
        addresses.push(row![
            id * 10,
            id,
            *name,
            *phone,
            addr,
            region,
            district,
            thana
        ]);
        addresses.push(row![
            id * 10 + 1,
            id,
            *name,
            *phone,
            "Office: Level 5, Gulshan Avenue",
            "Dhaka",
            "Dhaka",
            "Gulshan"
        ]);
        after_insert.push(format!(
            "UPDATE app_user SET default_billing_address_id = {}, default_shipping_address_id = {} WHERE id = {id}",
            id * 10,
            id * 10
        ));
    }

    let mut orders = Table::new(
        "order_master",
        &[
            "id",
            "order_random",
            "order_key",
            "user_id",
            "customer_name",
            "phone",
            "emergency_phone",
            "email",
            "address",
            "division",
            "district",
            "thana",
            "payment_method",
            "payment_term_status",
            "order_status",
            "total_amount",
            "delivery_fee",
            "grand_total",
            "amount_paid",
            "trans_id",
            "ordered_at",
            "created_at",
            "updated_at",
        ],
    );
    let mut details = Table::new(
        "order_detail",
        &[
            "order_id",
            "product_id",
            "product_code",
            "name",
            "sub_title",
            "qty",
            "local_selling_price",
            "local_purchase_price",
            "total_purchase_price",
            "od_status",
            "created_at",
            "updated_at",
        ],
    );
    let mut history = Table::new(
        "order_status_history",
        &["order_id", "status", "note", "created_at", "updated_at"],
    );
    let mut reviews = Table::new(
        "review",
        &[
            "product_id",
            "user_id",
            "rating",
            "comment",
            "created_at",
            "updated_at",
        ],
    );
    let mut payments = Table::new(
        "payment",
        &[
            "order_id",
            "gateway",
            "tran_id",
            "amount",
            "status",
            "gateway_ref",
            "created_at",
            "updated_at",
        ],
    );
    let mut reviewed = std::collections::HashSet::new();
    let mut order_id = 1;
    for (u, (name, email, phone, _)) in USERS.iter().enumerate() {
        let user_id = u as i64 + 1;
        let (addr, region, district, thana) = ADDRESSES[u % ADDRESSES.len()];
        for k in 0..3 {
            let delivered = k < 2;
            let ordered_at = now - (90 - 30 * k as i64) * 86_400 - rng.gen_range(0..86_400);
            let count = rng.gen_range(1..=3);
            let lines: Vec<_> = cat.products.choose_multiple(rng, count).cloned().collect();
            let total: i64 = lines.iter().map(|p| p.price_now).sum();
            let fee = match (district == "Dhaka", total) {
                (true, t) if t >= 3000 => 0,
                (true, _) => 200,
                (false, t) if t >= 5000 => 0,
                (false, _) => 300,
            };
            let status = if delivered { "delivered" } else { "processing" };
            // Most orders are cash on delivery; each shopper paid one online.
            let (method, term, gateway) = match (k, u % 2) {
                (1, 0) => ("debitcredit", "Successful", Some("sslcommerz")),
                (1, _) => ("nagad", "Successful", Some("nagad")),
                _ => ("cash_on_delivery", "COD", None),
            };
            let trans_id = gateway.map_or(String::new(), |g| {
                format!("{}-{order_id:08}", g.to_uppercase())
            });
            orders.push(row![
                order_id,
                format!("{}", 10_000_000 + order_id * 7919 % 9_000_000),
                format!("{:032x}", rng.gen::<u128>()),
                user_id,
                *name,
                *phone,
                format!("0155{:07}", 1_000_000 + user_id * 1234),
                *email,
                addr,
                region,
                district,
                thana,
                method,
                term,
                status,
                total,
                fee,
                total + fee,
                if delivered || gateway.is_some() {
                    total + fee
                } else {
                    0
                },
                trans_id.as_str(),
                ordered_at,
                ordered_at,
                ordered_at
            ]);
            for p in &lines {
                details.push(row![
                    order_id,
                    p.id,
                    p.code.as_str(),
                    p.title.as_str(),
                    p.sub_title.as_str(),
                    1,
                    p.price_before,
                    p.price_now,
                    p.price_now,
                    status,
                    ordered_at,
                    ordered_at
                ]);
                if delivered && reviewed.insert((user_id, p.id)) {
                    let rating = rng.gen_range(3..=5);
                    let pick = rng.gen_range(0..4);
                    let text = match pick {
                        0 => "Sturdy and beautiful, delivered on time.",
                        1 => "Good finish, assembly was quick.",
                        2 => "Exactly as in the pictures.",
                        _ => review_of_material(p.material),
                    };
                    reviews.push(row![
                        p.id,
                        user_id,
                        rating,
                        text,
                        ordered_at + 5 * 86_400,
                        ordered_at + 5 * 86_400
                    ]);
                }
            }
            if let Some(g) = gateway {
                payments.push(row![
                    order_id,
                    g,
                    trans_id.as_str(),
                    total + fee,
                    "validated",
                    format!("{}{order_id:06}", &g[..3].to_uppercase()),
                    ordered_at,
                    ordered_at
                ]);
            }
            history.push(row![
                order_id,
                "placed",
                if gateway.is_some() {
                    "Order placed and paid online"
                } else {
                    "Order placed (cash on delivery)"
                },
                ordered_at,
                ordered_at
            ]);
            history.push(row![
                order_id,
                "processing",
                "Confirmed by phone",
                ordered_at + 3600,
                ordered_at + 3600
            ]);
            if delivered {
                history.push(row![
                    order_id,
                    "delivered",
                    "Delivered and assembled",
                    ordered_at + 3 * 86_400,
                    ordered_at + 3 * 86_400
                ]);
            }
            order_id += 1;
        }
    }

    let mut questions = Table::new(
        "product_question",
        &[
            "id",
            "product_id",
            "user_id",
            "username",
            "description",
            "created_at",
            "updated_at",
        ],
    );
    let mut answers = Table::new(
        "product_question_answer",
        &["question_id", "description", "created_at", "updated_at"],
    );
    let mut comments = Table::new(
        "product_comment",
        &[
            "product_id",
            "user_id",
            "username",
            "comment",
            "created_at",
            "updated_at",
        ],
    );
    let mut question_id = 1;
    for p in cat.products.iter().take(60) {
        for _ in 0..rng.gen_range(0..=3) {
            let q = rng.gen_range(0..QUESTIONS.len());
            let u = rng.gen_range(0..USERS.len());
            let at = now - rng.gen_range(1..120) * 86_400;
            questions.push(row![
                question_id,
                p.id,
                u as i64 + 1,
                USERS[u].0,
                QUESTIONS[q],
                at,
                at
            ]);
            if rng.gen_bool(0.8) {
                answers.push(row![question_id, answer(q, p), at + 7200, at + 7200]);
            }
            question_id += 1;
        }
        if rng.gen_bool(0.4) {
            let u = rng.gen_range(0..USERS.len());
            let at = now - rng.gen_range(1..60) * 86_400;
            comments.push(row![
                p.id,
                u as i64 + 1,
                USERS[u].0,
                "Saw this at the Gulshan showroom — even better in person.",
                at,
                at
            ]);
        }
    }

    let mut subscribers = Table::new("newsletter_subscriber", &["email"]);
    for (_, email, _, _) in USERS.iter().skip(1) {
        subscribers.push(row![*email]);
    }

    Ok(People {
        tables: vec![
            users,
            addresses,
            orders,
            details,
            payments,
            history,
            reviews,
            questions,
            answers,
            comments,
            subscribers,
        ],
        after_insert,
    })
}

/// A review sentence about a product's material: wood only of wooden
/// furniture, stitching only of upholstery.
pub(super) fn review_of_material(material: &str) -> &'static str {
    match material {
        "Segun Wood" | "Mahogany" | "Oak" => "Worth the price; the wood feels solid.",
        "Engineered Wood" => "Worth the price; the boards are thick and the edges neatly sealed.",
        "Metal" => "Worth the price; the frame is solid and does not wobble.",
        "Fabric" => "Worth the price; the fabric feels soft and the seams are neat.",
        "Leather" => "Worth the price; the leather is soft and the stitching even.",
        _ => "Worth the price; well made.",
    }
}
