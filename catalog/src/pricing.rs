//! Prices. Money is whole taka in `i64`. A product has a list price
//! (`price_before`) and a regular selling price (`price_now`); while a flash
//! sale that lists it is running, the sale's discount applies to `price_now`.
//! A schedule runs from `starts_at` (inclusive) to `ends_at` (exclusive).
//! A card-instalment (EMI) plan's monthly figure is [`emi_per_month`], which
//! the product API and the product page both show. [`taka`] writes an amount
//! the way shoppers in Bangladesh read it (৳1,82,500), for pages and mails.
//!
//! The same rule is needed inside SQL (to filter and sort listings by the price
//! a shopper pays), so [`effective_price_sql`] writes it as an expression; the
//! Rust functions and the SQL are tested against each other.

use crate::db;

/// A sale price: `price` less `discount_percent`, rounded to the nearest taka.
pub fn discounted(price: i64, discount_percent: i64) -> i64 {
    let d = discount_percent.clamp(0, 100);
    (price * (100 - d) + 50) / 100
}

/// Whether a schedule is running at `now` (unix seconds).
pub fn schedule_running(is_active: bool, starts_at: i64, ends_at: i64, now: i64) -> bool {
    is_active && starts_at <= now && now < ends_at
}

/// Percent off the list price, rounded, for the `local_discount` field.
pub fn discount_percent(price_before: i64, price_now: i64) -> i64 {
    if price_before <= 0 {
        0
    } else {
        ((price_before - price_now) * 100 + price_before / 2) / price_before
    }
}

/// Basis points in a whole times months in a year: simple yearly interest of
/// `interest_bp` over `months` adds `interest_bp × months / 120 000` of the price.
const BP_MONTHS_A_YEAR: i64 = 10_000 * 12;

/// The lowest selling price (a running flash sale's included) at which card
/// instalments (EMI) are offered; the shop's EMI policy says "from ৳20,000".
pub const EMI_MIN_PRICE: i64 = 20_000;

/// Whether a product offers EMI at the price it sells for now: marked for EMI
/// (`emi_available`) and selling from [`EMI_MIN_PRICE`]. The product page, its
/// API and the payment page apply this one rule.
pub fn emi_offered(emi_available: bool, price: i64) -> bool {
    emi_available && price >= EMI_MIN_PRICE
}

/// The monthly instalment of an EMI plan for `price` over `months` at
/// `interest_bp` basis points a year, simple interest: the smallest whole taka
/// whose `months` payments cover the price and its interest. That is the exact
/// amount owed, divided by the months, rounded up once:
/// `⌈price × (120 000 + interest_bp × months) / (120 000 × months)⌉`. Rounding
/// the owed amount first (to whole taka) and then the instalment would drop
/// the interest's fraction and undercharge by a taka. `months` below 1 counts
/// as 1 (the `product_emi` table forbids them).
pub fn emi_per_month(price: i64, months: i64, interest_bp: i64) -> i64 {
    let months = months.max(1);
    // Both in 1/120 000 taka, so the division below is the only rounding.
    let owed = price * (BP_MONTHS_A_YEAR + interest_bp * months);
    let per_month = BP_MONTHS_A_YEAR * months;
    (owed + per_month - 1) / per_month
}

/// An SQL expression for the price a shopper pays at `now` for the product
/// aliased `p`. `now` is written into the SQL as a number (it is an integer, so
/// nothing can be injected), which keeps the expression free of placeholders
/// and so usable inside any query builder. The largest discount of the running
/// schedules wins.
pub fn effective_price_sql(now: i64) -> String {
    format!(
        "COALESCE((p.price_now * (100 - {discount}) + 50) / 100, p.price_now)",
        discount = flash_discount_sql(now)
    )
}

/// An SQL expression for the largest flash-sale discount (percent) running at
/// `now` for the product aliased `p`; NULL when none runs.
pub fn flash_discount_sql(now: i64) -> String {
    format!(
        "(SELECT MAX(fi.discount_percent) \
         FROM flash_item fi JOIN flash_schedule fs ON fs.id = fi.schedule_id \
         WHERE fi.product_id = p.id AND fs.is_active \
         AND fs.starts_at <= {now} AND fs.ends_at > {now})"
    )
}

/// The next instant after `now` at which a running or coming flash sale starts
/// or ends: no cached price may outlive it.
pub async fn next_price_change(
    pool: &crate::db::Pool,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    db::query_scalar(
        "SELECT MIN(t) FROM (
             SELECT starts_at AS t FROM flash_schedule WHERE is_active AND starts_at > $1
             UNION ALL
             SELECT ends_at AS t FROM flash_schedule WHERE is_active AND ends_at > $1
         ) boundaries",
    )
    .bind(now)
    .fetch_one(pool)
    .await
}

/// The next price change an answer tagged `keys` may show (issue 17): for an
/// answer about products only ([`crate::surrogate::priced_products`]: a
/// product's page or info, which carry the key of every product they show,
/// beside keys of what shows no price), the next start or end of a sale of
/// one of those products, or none when it shows no price; for any other (a
/// list, which a price may bring a product into, the flash sales, the home
/// page) the next start or end of any sale. So at a boundary only what it
/// reprices expires at the edge, not every product page.
pub async fn next_change_for(
    pool: &crate::db::Pool,
    now: i64,
    keys: &[String],
) -> Result<Option<i64>, sqlx::Error> {
    let Some(products) = crate::surrogate::priced_products(keys) else {
        return next_price_change(pool, now).await;
    };
    if products.is_empty() {
        return Ok(None);
    }
    let list = (0..products.len())
        .map(|i| format!("${}", i + 2))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "SELECT MIN(t) FROM (
             SELECT fs.starts_at AS t FROM flash_schedule fs JOIN flash_item fi ON fi.schedule_id = fs.id
             WHERE fs.is_active AND fs.starts_at > $1 AND fi.product_id IN ({list})
             UNION ALL
             SELECT fs.ends_at AS t FROM flash_schedule fs JOIN flash_item fi ON fi.schedule_id = fs.id
             WHERE fs.is_active AND fs.ends_at > $1 AND fi.product_id IN ({list})
         ) boundaries"
    );
    let mut query = db::query_scalar::<Option<i64>>(&sql).bind(now);
    for id in products {
        query = query.bind(id);
    }
    query.fetch_one(pool).await
}

/// The ids of the products whose price changes after `$1` and up to `$2`
/// (those of the active flash sales that start or end in that span), as a
/// subquery: [`products_repriced`] lists them, and a caller that wants a
/// field of each (a slug, a category) joins it in one query.
pub const REPRICED_IDS: &str = "SELECT fi.product_id FROM flash_item fi \
     JOIN flash_schedule fs ON fs.id = fi.schedule_id WHERE fs.is_active \
     AND ((fs.starts_at > $1 AND fs.starts_at <= $2) OR (fs.ends_at > $1 AND fs.ends_at <= $2))";

/// The products whose price changes after `after` and up to `upto`: those
/// of the active flash sales that start or end in that span ([`REPRICED_IDS`]).
pub async fn products_repriced(
    pool: &crate::db::Pool,
    after: i64,
    upto: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    db::query_scalar(&format!(
        "SELECT DISTINCT product_id FROM ({REPRICED_IDS}) repriced ORDER BY product_id"
    ))
    .bind(after)
    .bind(upto)
    .fetch_all(pool)
    .await
}

/// Whole taka with the taka sign, grouped the South Asian way (lakh and
/// crore): the last three digits, then pairs. `182500` → `৳1,82,500`,
/// `12500000` → `৳1,25,00,000`; a refund keeps its sign (`-৳1,500`). The web
/// side's `formatTaka` (web/src/lib/money.ts) follows the same rule.
pub fn taka(amount: i64) -> String {
    let sign = if amount < 0 { "-" } else { "" };
    format!("{sign}৳{}", grouped(amount.unsigned_abs()))
}

/// A count grouped the South Asian way, as [`taka`] writes money:
/// `100000` → `1,00,000`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 2);
    let head = digits.len().saturating_sub(3);
    for (i, c) in digits[..head].chars().enumerate() {
        if i > 0 && (head - i).is_multiple_of(2) {
            out.push(',');
        }
        out.push(c);
    }
    if head > 0 {
        out.push(',');
    }
    out.push_str(&digits[head..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped_as_money_is() {
        assert_eq!(grouped(7), "7");
        assert_eq!(grouped(2_000), "2,000");
        assert_eq!(grouped(100_000), "1,00,000");
    }

    #[test]
    fn taka_is_grouped_in_lakh_and_crore() {
        assert_eq!(taka(0), "৳0");
        assert_eq!(taka(900), "৳900");
        assert_eq!(taka(1000), "৳1,000");
        assert_eq!(taka(99_999), "৳99,999");
        assert_eq!(taka(100_000), "৳1,00,000");
        assert_eq!(taka(182_500), "৳1,82,500");
        assert_eq!(taka(1_234_567), "৳12,34,567");
        assert_eq!(taka(12_500_000), "৳1,25,00,000");
        assert_eq!(taka(1_234_567_890), "৳1,23,45,67,890");
        assert_eq!(taka(-1500), "-৳1,500");
        assert_eq!(taka(-182_500), "-৳1,82,500");
        assert_eq!(taka(i64::MIN), "-৳92,23,37,20,36,85,47,75,808");
    }
    use crate::db::testing::TestDatabase;

    #[test]
    fn discount_rounds_to_the_nearest_taka() {
        assert_eq!(discounted(12_345, 10), 11_111); // 11110.5 rounds up
        assert_eq!(discounted(999, 0), 999);
        assert_eq!(discounted(999, 150), 0);
        assert_eq!(discount_percent(10_000, 8_500), 15);
        assert_eq!(discount_percent(0, 0), 0);
    }

    #[test]
    fn emi_is_offered_from_its_minimum_price_on_marked_products_only() {
        assert!(emi_offered(true, EMI_MIN_PRICE));
        assert!(emi_offered(true, 85_000));
        assert!(!emi_offered(true, EMI_MIN_PRICE - 1));
        assert!(!emi_offered(false, 85_000));
    }

    #[test]
    fn emi_adds_simple_interest_and_rounds_up() {
        assert_eq!(emi_per_month(12_000, 12, 0), 1_000);
        assert_eq!(emi_per_month(12_001, 12, 0), 1_001);
        assert_eq!(emi_per_month(1_000, 3, 0), 334);
        // 12% a year over 12 months: 13,440 / 12.
        assert_eq!(emi_per_month(12_000, 12, 1_200), 1_120);
        // 9% a year over 12 months: 13,080 / 12.
        assert_eq!(emi_per_month(12_000, 12, 900), 1_090);
        // 6% a year over 9 months: 50,000 × 1.045 = 52,250 / 9 = 5,805.6.
        assert_eq!(emi_per_month(50_000, 9, 600), 5_806);
        assert_eq!(emi_per_month(0, 12, 900), 0);
        assert_eq!(emi_per_month(900, 0, 0), 900);
    }

    #[test]
    fn emi_rounds_the_exact_amount_owed_not_a_rounded_one() {
        // Regression: the product page rounded 1,101 × 1.09 = 1,200.09 down to
        // 1,200 before dividing, and showed 100 where the API said 101.
        assert_eq!(emi_per_month(1_101, 12, 900), 101);
        // A demo plan (City Bank, 9% over 12 months): 20,070 × 1.09 = 21,876.3,
        // so 1,823.025 a month; 21,876 / 12 would be exactly 1,823.
        assert_eq!(emi_per_month(20_070, 12, 900), 1_824);
    }

    /// Over many prices and plans, the instalment is exactly the smallest whole
    /// taka whose months cover what is owed, checked in exact wide arithmetic:
    /// `per_month × months × 120 000 ≥ price × (120 000 + bp × months)`, and
    /// one taka less falls short.
    #[test]
    fn emi_is_the_smallest_whole_taka_that_covers_the_amount_owed() {
        let prices = (0..=3_000).chain((3_000..=250_000).step_by(997));
        let rates = [
            0, 1, 300, 500, 550, 567, 600, 650, 700, 800, 850, 900, 1_000, 1_550, 2_400,
        ];
        let mut checked = 0;
        for price in prices {
            for months in 1..=36 {
                for bp in rates {
                    let per = i128::from(emi_per_month(price, months, bp));
                    let owed = i128::from(price) * (120_000 + i128::from(bp * months));
                    let paid = |per: i128| per * i128::from(months) * 120_000;
                    assert!(paid(per) >= owed, "{price} over {months} at {bp}: {per}");
                    assert!(paid(per - 1) < owed, "{price} over {months} at {bp}: {per}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1_500_000);
    }

    #[test]
    fn a_schedule_runs_from_its_start_inclusive_to_its_end_exclusive() {
        assert!(!schedule_running(true, 100, 200, 99));
        assert!(schedule_running(true, 100, 200, 100));
        assert!(schedule_running(true, 100, 200, 199));
        assert!(!schedule_running(true, 100, 200, 200));
        assert!(!schedule_running(false, 100, 200, 150));
    }

    #[tokio::test]
    async fn the_sql_expression_agrees_with_the_rust_rule_at_the_boundaries() {
        let db = TestDatabase::migrated().await;
        let pool = db.pool().await;
        for sql in [
            "INSERT INTO product (id, title, product_code, sku, seo_url, price_before, price_now)
             VALUES (1, 'Sofa', 'SF-1', 'S1', 'sofa', 50000, 45001)",
            "INSERT INTO flash_schedule (id, fs_name, starts_at, ends_at) VALUES (1, 'Sale', 1000, 2000)",
            "INSERT INTO flash_item (schedule_id, product_id, discount_percent) VALUES (1, 1, 20)",
        ] {
            db::query(sql).execute(&pool).await.unwrap();
        }
        for now in [999_i64, 1000, 1999, 2000] {
            let sql = format!(
                "SELECT {} FROM product p WHERE p.id = 1",
                effective_price_sql(now)
            );
            let got: i64 = db::query_scalar(&sql).fetch_one(&pool).await.unwrap();
            let want = if schedule_running(true, 1000, 2000, now) {
                discounted(45_001, 20)
            } else {
                45_001
            };
            assert_eq!(got, want, "at {now}");
        }
        // The boundaries: the next start or end after an instant, and the
        // products a span of time reprices.
        assert_eq!(next_price_change(&pool, 500).await.unwrap(), Some(1000));
        assert_eq!(next_price_change(&pool, 1000).await.unwrap(), Some(2000));
        assert_eq!(next_price_change(&pool, 2000).await.unwrap(), None);
        assert_eq!(products_repriced(&pool, 999, 1000).await.unwrap(), vec![1]);
        assert!(products_repriced(&pool, 1000, 1999)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(products_repriced(&pool, 1999, 2000).await.unwrap(), vec![1]);
    }
}
