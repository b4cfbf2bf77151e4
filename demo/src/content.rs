//! The content part of the demo shop: sliders, menus, widgets, settings, SEO
//! texts, CMS pages, blog and news posts, interior galleries, the divisions
//! and districts, delivery charges, showrooms and coupons.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use catalog::pricing::{emi_per_month, taka};

use super::catalogue::{
    image_id, top_theme, warranty, Catalogue, Product, EMI_MONTHS, EMI_PLANS, FLASH_SALES,
    INTERIOR_CATS, SUBS, TOPS,
};
use super::images::{self, Kind, Pool};
use super::texts::{PostText, BLOGS, FAQ, NEWS};
use super::{row, SeedOptions, Table};

/// The districts file (a copy of shared/data/districts.csv): division,
/// division_bn, district, district_bn.
const DISTRICTS_CSV: &str = include_str!("../data/districts.csv");

/// Other spellings shoppers use, keyed by the CSV's spelling (the name).
const ALIASES: [(&str, &str); 10] = [
    ("Chattogram", "Chittagong"),
    ("Cumilla", "Comilla"),
    ("Barishal", "Barisal"),
    ("Jashore", "Jessore"),
    ("Bogura", "Bogra"),
    ("Cox's Bazar", "Coxsbazar|Coxs Bazar|Cox Bazar"),
    ("Chapainawabganj", "Chapai Nawabganj|Nawabganj"),
    ("Jhalokathi", "Jhalakathi|Jhalokati"),
    ("Netrokona", "Netrakona"),
    ("Moulvibazar", "Maulvibazar|Moulvi Bazar"),
];

/// The fields of one CSV line; a field may be quoted ("Cox's Bazar") and a
/// quoted field may hold commas and doubled quotes.
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field).trim().to_string()),
            _ => field.push(c),
        }
    }
    fields.push(field.trim().to_string());
    fields
}

/// Showrooms: title, district, thana, address, latitude, longitude.
const SHOWROOMS: [(&str, &str, &str, &str, f64, f64); 16] = [
    (
        "Gulshan Showroom",
        "Dhaka",
        "Gulshan",
        "House 12, Road 90, Gulshan 2, Dhaka 1212",
        23.7925,
        90.4078,
    ),
    (
        "Dhanmondi Showroom",
        "Dhaka",
        "Dhanmondi",
        "House 55, Satmasjid Road, Dhanmondi, Dhaka 1209",
        23.7465,
        90.3760,
    ),
    (
        "Mirpur Showroom",
        "Dhaka",
        "Mirpur",
        "Plot 7, Section 10, Mirpur, Dhaka 1216",
        23.8069,
        90.3687,
    ),
    (
        "Uttara Showroom",
        "Dhaka",
        "Uttara",
        "House 3, Sector 7, Uttara, Dhaka 1230",
        23.8747,
        90.3984,
    ),
    (
        "Bashundhara Showroom",
        "Dhaka",
        "Badda",
        "Block C, Bashundhara R/A, Dhaka 1229",
        23.8151,
        90.4255,
    ),
    (
        "Agrabad Showroom",
        "Chattogram",
        "Double Mooring",
        "1 Agrabad C/A, Chattogram 4100",
        22.3256,
        91.8123,
    ),
    (
        "GEC Showroom",
        "Chattogram",
        "Panchlaish",
        "GEC Circle, CDA Avenue, Chattogram 4000",
        22.3590,
        91.8213,
    ),
    (
        "Zindabazar Showroom",
        "Sylhet",
        "Kotwali",
        "Zindabazar Point, Sylhet 3100",
        24.8949,
        91.8687,
    ),
    (
        "Khulna Showroom",
        "Khulna",
        "Sonadanga",
        "KDA Avenue, Khulna 9100",
        22.8170,
        89.5540,
    ),
    (
        "Rajshahi Showroom",
        "Rajshahi",
        "Boalia",
        "Shaheb Bazar, Rajshahi 6100",
        24.3660,
        88.6000,
    ),
    (
        "Rangpur Showroom",
        "Rangpur",
        "Kotwali",
        "Station Road, Rangpur 5400",
        25.7460,
        89.2500,
    ),
    (
        "Barishal Showroom",
        "Barishal",
        "Kotwali",
        "Sadar Road, Barishal 8200",
        22.7010,
        90.3535,
    ),
    (
        "Mymensingh Showroom",
        "Mymensingh",
        "Kotwali",
        "Ganginarpar, Mymensingh 2200",
        24.7560,
        90.4060,
    ),
    (
        "Cumilla Showroom",
        "Cumilla",
        "Kotwali",
        "Kandirpar, Cumilla 3500",
        23.4600,
        91.1800,
    ),
    (
        "Narayanganj Showroom",
        "Narayanganj",
        "Sadar",
        "Chashara, Narayanganj 1400",
        23.6200,
        90.5000,
    ),
    (
        "Gazipur Factory Outlet",
        "Gazipur",
        "Tongi",
        "Board Bazar, Gazipur 1704",
        23.9450,
        90.3800,
    ),
];

const AUTHORS: [&str; 5] = [
    "Nusrat Jahan",
    "Tanvir Ahmed",
    "Farhana Rahman",
    "Arif Hossain",
    "Sadia Islam",
];

const PAGES: [(i64, &str, &str); 8] = [
    (1, "About Us", "about-us"),
    (2, "Terms and Conditions", "terms-and-conditions"),
    (3, "Privacy Policy", "privacy-policy"),
    (4, "Delivery Policy", "delivery-policy"),
    (5, "Return and Refund", "return-and-refund"),
    (6, "EMI Policy", "emi-policy"),
    (7, "Warranty", "warranty"),
    (8, "FAQ", "faq"),
];

/// The EMI widget's HTML table: one row per bank, one column per length,
/// from the same plans the products' EMI rows use.
fn emi_table() -> String {
    let mut html = String::from("<table><thead><tr><th>Bank</th>");
    for m in EMI_MONTHS {
        html.push_str(&format!("<th>{m} months</th>"));
    }
    html.push_str("</tr></thead><tbody>");
    for (bank, rates) in EMI_PLANS {
        html.push_str(&format!("<tr><td>{bank}</td>"));
        for bp in rates {
            html.push_str(&format!("<td>{}%</td>", percent(bp)));
        }
        html.push_str("</tr>");
    }
    html.push_str(
        "</tbody></table><p>Interest per year. EMI on card payments of ৳20,000 or more.</p>",
    );
    html
}

/// Basis points as a percentage for people: 850 → "8.5", 900 → "9".
fn percent(bp: i64) -> String {
    if bp % 100 == 0 {
        (bp / 100).to_string()
    } else {
        format!("{}.{}", bp / 100, (bp % 100) / 10)
    }
}

/// Delivery charges by zone: (zone, charge, free from), in taka. The
/// `delivery_charge_setting` rows and the delivery policy page both come
/// from here.
const DELIVERY_CHARGES: [(&str, i64, i64); 2] =
    [("inside_dhaka", 200, 3000), ("outside_dhaka", 300, 5000)];

/// How a piece of furniture of `kind` is named in a caption.
fn piece_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Bed => "bed",
        Kind::Sofa => "sofa",
        Kind::Table => "table",
        Kind::Chair => "chair",
        Kind::Wardrobe => "wardrobe",
        Kind::Showcase => "showcase",
        Kind::Cabinet => "cabinet",
        Kind::Desk => "desk",
        Kind::Lamp => "floor lamp",
        Kind::Decor => "mirror",
        Kind::Dresser => "dressing table",
        Kind::Rug => "rug",
    }
}

/// A post's HTML: its opening, its sections under headings, and links to
/// up to three products of its category (of the sizes it speaks of) that
/// are in stock.
fn post_html(text: &PostText, products: &[Product], n: usize) -> String {
    let mut html = format!("<p>{}</p>", text.intro);
    for (heading, para) in text.sections {
        html.push_str(&format!("<h2>{heading}</h2><p>{para}</p>"));
    }
    if let Some(sub) = text.sub {
        let picks: Vec<&Product> = products
            .iter()
            .filter(|p| p.sub == sub && p.stock > 0 && !p.pre_booking)
            .filter(|p| text.sizes.is_empty() || p.size.is_some_and(|s| text.sizes.contains(&s)))
            .skip(n % 3)
            .take(3)
            .collect();
        if !picks.is_empty() {
            html.push_str(&format!(
                "<h2>From our {}</h2><ul>",
                SUBS[sub].name.to_lowercase()
            ));
            for p in picks {
                html.push_str(&format!(
                    "<li><a href=\"/product/{}\">{}</a> ({})</li>",
                    p.seo_url,
                    p.title,
                    p.sub_title.replace(" | ", ", ")
                ));
            }
            html.push_str("</ul>");
        }
    }
    html
}

/// The divisions and their districts, in the CSV's order.
fn divisions() -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in DISTRICTS_CSV
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
    {
        let cols = csv_fields(line);
        let (Some(division), Some(district)) = (cols.first(), cols.get(2)) else {
            continue;
        };
        match out.iter_mut().find(|(d, _)| d == division) {
            Some((_, list)) => list.push(district.clone()),
            None => out.push((division.clone(), vec![district.clone()])),
        }
    }
    out
}

/// A CMS page's summary (its sub-title and meta description), its HTML and
/// the room theme of its picture. Every figure comes from the settings the
/// shop runs on, so the pages cannot contradict the checkout.
fn page_text(id: i64) -> (String, String, usize) {
    let [(_, in_charge, in_free), (_, out_charge, out_free)] = DELIVERY_CHARGES;
    let hotline = "<a href=\"tel:09612345678\">09612345678</a>";
    let email = "<a href=\"mailto:care@example.com\">care@example.com</a>";
    match id {
        1 => {
            let cities: Vec<&str> = {
                let mut c: Vec<&str> = SHOWROOMS.iter().map(|s| s.1).collect();
                c.dedup();
                c
            };
            (
                "A Bangladeshi furniture maker: our factory, our showrooms and how we work.".into(),
                format!(
                    "<p>Regal Furniture makes beds, wardrobes, sofas, dining sets and office furniture in its own factory at Board Bazar, Gazipur, and sells them in {} showrooms and online. Every piece is designed for Bangladeshi homes: for rooms of Dhaka flats, for monsoon damp and for families who host at Eid.</p>\
                     <h2>Our factory</h2><p>Timber arrives as logs and leaves as furniture. We season segun, mahogany and oak in our own kilns to 12 percent moisture, treat it against termites, and cut, join and finish it under one roof. Engineered wood pieces use moisture-resistant board with sealed edges. Upholstery is cut and sewn in the same building.</p>\
                     <h2>Our showrooms</h2><p>You can see and sit on our furniture in {}. The <a href=\"/page/showrooms\">showroom page</a> lists addresses, phone numbers and opening hours.</p>\
                     <h2>How we deliver</h2><p>Our own teams deliver and assemble across all 64 districts; pieces in stock arrive within 72 hours. You can pay in cash when the furniture arrives, by card, by mobile wallet, or in card instalments on larger pieces.</p>\
                     <h2>Talk to us</h2><p>Hotline {hotline}, 9 am to 9 pm every day, or {email}.</p>",
                    SHOWROOMS.len(),
                    cities.join(", ")
                ),
                1,
            )
        }
        2 => (
            "The terms of buying from Regal Furniture, online and by phone.".into(),
            format!(
                "<p>These terms apply to every order placed on this website, through our hotline or by chat. By placing an order you accept them.</p>\
                 <h2>Prices</h2><p>Prices are in taka and include VAT. The price you pay is the price shown at the moment you place the order: a flash-sale price applies only while the sale runs, from its start to its end in Dhaka time. If a price on the site is plainly wrong, we tell you before delivery and you may cancel.</p>\
                 <h2>Orders and stock</h2><p>An order is confirmed when you receive its order number. We hold stock for it at that moment; if a piece is damaged in our warehouse before delivery, we offer a replacement, a later date or a full refund.</p>\
                 <h2>Payment</h2><p>You can pay in cash on delivery, by card, or by mobile wallet where the checkout offers it. Some products can only be paid on delivery and say so; a cart holding one must be paid on delivery. Card instalments are described in the <a href=\"/page/emi-policy\">EMI policy</a>.</p>\
                 <h2>Pre-booking</h2><p>A pre-booked piece is made to order. You pay the part shown on its page (20 to 50 percent) when ordering and the rest on delivery. A cart holds either pre-booked pieces or ordinary ones.</p>\
                 <h2>Cancelling</h2><p>You may cancel an order free of charge until it leaves our warehouse; call {hotline}. Cancelling a pre-booking after production has started costs 10 percent of the price, deducted from the part payment.</p>\
                 <h2>Delivery, returns and warranty</h2><p>See the <a href=\"/page/delivery-policy\">delivery policy</a>, <a href=\"/page/return-and-refund\">returns and refunds</a> and <a href=\"/page/warranty\">warranty</a>.</p>\
                 <h2>Law</h2><p>These terms are governed by the laws of Bangladesh, including the Consumer Rights Protection Act 2009.</p>"
            ),
            3,
        ),
        3 => (
            "What we collect when you shop with us, why, and how long we keep it.".into(),
            format!(
                "<p>We collect only what we need to deliver your furniture and look after it afterwards.</p>\
                 <h2>What we collect</h2><p>For an order: your name, your mobile number and a second emergency number, your district and address, and what you ordered. For an account, which is optional: your e-mail address and a password, stored only as a salted hash. If you write a review or a question, the name you give with it.</p>\
                 <h2>Payments</h2><p>Card and mobile-wallet payments are made on the payment provider's own pages. We never see or store your card number or wallet PIN; we receive only whether the payment succeeded and its amount.</p>\
                 <h2>How we use it</h2><p>To deliver, to call you about the delivery, to honour the warranty and to answer you. We do not sell or rent your details. We send offers only if you subscribe to our newsletter, and every message says how to stop them.</p>\
                 <h2>Cookies</h2><p>The site uses cookies and local storage to keep your cart, your sign-in and your wishlist. There are no advertising cookies.</p>\
                 <h2>How long we keep it</h2><p>Order records are kept for six years, as tax law requires; accounts until you close them.</p>\
                 <h2>Your rights</h2><p>Ask us at {email} to see, correct or delete your details; we answer within 30 days.</p>"
            ),
            3,
        ),
        4 => {
            let mut rows = String::new();
            let divisions = divisions();
            let count: usize = divisions.iter().map(|(_, d)| d.len()).sum();
            for (division, districts) in &divisions {
                rows.push_str(&format!(
                    "<tr><td>{division}</td><td>{}</td></tr>",
                    districts.join(", ")
                ));
            }
            (
                format!(
                    "Delivery in all {count} districts: {} inside Dhaka (free from {}), {} elsewhere (free from {}).",
                    taka(in_charge),
                    taka(in_free),
                    taka(out_charge),
                    taka(out_free)
                ),
                format!(
                    "<p>Our own teams deliver to every one of Bangladesh's {count} districts and assemble the furniture in your home.</p>\
                     <h2>Delivery charges</h2><table><thead><tr><th scope=\"col\">Where</th><th scope=\"col\">Charge</th><th scope=\"col\">Free on orders from</th></tr></thead>\
                     <tbody><tr><td>Inside Dhaka</td><td>{}</td><td>{}</td></tr><tr><td>Everywhere else</td><td>{}</td><td>{}</td></tr></tbody></table>\
                     <p>Inside Dhaka means an address in Dhaka district. Addresses in Gazipur, Narayanganj and the other districts around the capital pay the outside-Dhaka charge. The checkout shows the charge for your district before you pay.</p>\
                     <h2>Delivery times</h2><ul><li>Pieces in stock: within 72 hours of your order, not counting Fridays and public holidays.</li><li>Pieces made to order: 10 to 15 working days.</li><li>Pre-booked pieces: three to four weeks, as the product page says.</li></ul>\
                     <p>We call you the day before delivery to agree a time. Please make sure the piece fits through the door and up the stairs; our team will take beds and wardrobes apart to carry them if needed.</p>\
                     <h2>Districts we deliver to</h2><table><thead><tr><th scope=\"col\">Division</th><th scope=\"col\">Districts</th></tr></thead><tbody>{rows}</tbody></table>\
                     <h2>Questions</h2><p>Call {hotline} or track your order on the <a href=\"/page/track-order\">Track Order</a> page.</p>",
                    taka(in_charge),
                    taka(in_free),
                    taka(out_charge),
                    taka(out_free)
                ),
                // The dressing room: a wardrobe and a dresser, the pieces the
                // page says the team carries in and assembles (was the office).
                5,
            )
        }
        5 => (
            "Damaged or faulty on arrival? Tell us within 7 days and we repair, replace or refund.".into(),
            format!(
                "<p>We want every piece to arrive perfect. When it does not, this is what we do.</p>\
                 <h2>Check on delivery</h2><p>Please look the furniture over while our team is still there, after it is unpacked and assembled. Point out any damage and the team will note it on the delivery slip.</p>\
                 <h2>Damage found later</h2><p>Call {hotline} or write to {email} within 7 days of delivery, with photos of the damage and your order number. We inspect within three working days and then repair the piece in your home, replace it, or refund it: your choice when a repair is not possible.</p>\
                 <h2>Change of mind</h2><p>You may refuse a piece at the door before it is unpacked; the delivery charge is not refunded. Pieces made to order, pre-booked pieces and pieces in a fabric you chose cannot be returned for a change of mind.</p>\
                 <h2>Refunds</h2><ul><li>Paid in cash: to your bKash or Nagad wallet or bank account within 7 working days.</li><li>Paid by card: back to the same card within 7 to 10 working days (your bank may take longer to show it).</li><li>Paid by mobile wallet: back to the same wallet within 7 working days.</li></ul>\
                 <p>A pre-booking's part payment is refunded in full if we miss the promised date by more than two weeks.</p>"
            ),
            0,
        ),
        6 => {
            let plans: Vec<String> = EMI_PLANS.iter().map(|(b, _)| b.to_string()).collect();
            let months: Vec<String> = EMI_MONTHS.iter().map(i64::to_string).collect();
            // A worked example with the very rule the product page uses.
            let (price, m, bp) = (60_000, 12, EMI_PLANS[0].1[3]);
            let per = emi_per_month(price, m, bp);
            (
                format!(
                    "Card instalments over {} months on products from ৳20,000, with {} banks.",
                    months.join(", "),
                    plans.len()
                ),
                format!(
                    "<p>You can pay for any product of ৳20,000 or more in monthly instalments with a credit card from one of our partner banks: {}. Each product page lists the banks that offer it and the lowest monthly amount.</p>\
                     <h2>Banks, months and rates</h2>{}\
                     <h2>How the monthly amount is worked out</h2><p>Interest is simple yearly interest on the price: the total you repay is the price plus the price × the yearly rate × the months ÷ 12, and the monthly amount is that total divided by the months, rounded up to the next whole taka. For example, {} over {m} months at {}% a year costs {} a month with {}.</p>\
                     <h2>How to pay by EMI</h2><p>Choose card payment at checkout, then choose an instalment plan on your bank's payment page. The bank turns the payment into monthly instalments on your card statement; we receive the full price from the bank.</p>\
                     <h2>Good to know</h2><ul><li>EMI needs a credit card; debit cards and cash on delivery cannot be split.</li><li>Flash-sale prices can be paid by EMI when the sale price is ৳20,000 or more.</li><li>Your bank may charge its own processing fee; ask the bank.</li><li>Returns of EMI purchases are refunded to the card, and the bank cancels the remaining instalments.</li></ul>",
                    plans.join(", "),
                    emi_table(),
                    taka(price),
                    percent(bp),
                    taka(per),
                    EMI_PLANS[0].0
                ),
                1,
            )
        }
        7 => {
            let mut items = String::new();
            for (label, kind, material) in [
                ("Solid wood (segun, mahogany, oak)", Kind::Bed, "Segun Wood"),
                ("Engineered wood", Kind::Bed, "Engineered Wood"),
                ("Metal", Kind::Chair, "Metal"),
                ("Upholstered in fabric or leather", Kind::Sofa, "Fabric"),
                ("Rugs", Kind::Rug, "Fabric"),
            ] {
                items.push_str(&format!("<li>{label}: {}.</li>", warranty(kind, material)));
            }
            (
                "What our warranty covers, for how long, and how to claim.".into(),
                format!(
                    "<p>Every piece we make carries a warranty from the day it is delivered. Its length depends on what the piece is made of, and each product page states it.</p>\
                     <h2>How long</h2><ul>{items}</ul>\
                     <h2>What it covers</h2><p>Defects in materials and workmanship: joints that open, drawers or hinges that fail, cracks in the frame, rust on metal frames and, for solid wood, termite damage. We repair the piece in your home or replace it.</p>\
                     <h2>What it does not cover</h2><p>Wear from normal use, scratches and stains, damage from water, floods or fire, damage from moving the piece yourself, and furniture altered or repaired by others.</p>\
                     <h2>How to claim</h2><p>Call {hotline} or write to {email} with your order number and photos. We visit within five working days inside Dhaka and ten elsewhere.</p>"
                ),
                0,
            )
        }
        _ => {
            let mut html = String::from(
                "<p>Answers to the questions our hotline hears most often.</p>",
            );
            for (q, a) in FAQ {
                html.push_str(&format!("<h2>{q}</h2><p>{a}</p>"));
            }
            html.push_str(&format!(
                "<p>Not answered here? Call {hotline} (9 am to 9 pm, every day) or write to {email}.</p>"
            ));
            (
                "Delivery, payment, assembly, returns and pre-booking: the answers.".into(),
                html,
                1,
            )
        }
    }
}

pub(super) struct Content {
    pub tables: Vec<Table>,
}

pub(super) fn build(
    rng: &mut ChaCha8Rng,
    options: &SeedOptions,
    pool: &Pool,
    cat: &Catalogue,
) -> Content {
    let now = options.now;
    let mut tables = Vec::new();

    let mut sliders = Table::new(
        "slider",
        &[
            "image_id",
            "url",
            "title",
            "description",
            "type",
            "internal",
            "device",
            "color_code",
            "text_color",
            "border_bottom",
            "position",
            "active",
        ],
    );
    // Main banners: a headline and a line the page sets over the picture
    // (the pictures keep their left side calm for it).
    let headlines = [
        (
            "Beds and wardrobes built to last a lifetime",
            "Solid wood, made in our Gazipur factory, delivered in 72 hours",
        ),
        (
            "Sofas that seat the whole family",
            "Fabric, leather and wood, from 2 seaters to L-shapes",
        ),
        (
            "Dining tables for four, six or eight",
            "With chairs and showcases to match",
        ),
        (
            "A home office that works as hard as you",
            "Tables, chairs and cabinets, assembled at your desk",
        ),
    ];
    for (i, ((_, _, _, slug), (title, line))) in TOPS.iter().zip(headlines).enumerate() {
        sliders.push(row![
            image_id(pool.banners[i]),
            format!("/c/{slug}"),
            title,
            line,
            0,
            true,
            0,
            "#5c3c28",
            "#ffffff",
            "",
            i as i64,
            true
        ]);
    }
    // Featured tiles: a category each, over a room of its kind (a 4:3 room
    // as the tiles are, not a wide banner whose middle the tile would cut).
    let featured = [
        (0, "Storage beds", "Room for quilts under the mattress"),
        (5, "Divans and day beds", "A seat by day, a bed for guests"),
        (10, "Dining chairs", "Solid wood and upholstered seats"),
        (15, "Kids beds", "Lead-free finishes, rounded corners"),
    ];
    for (i, title, line) in featured {
        let s = &SUBS[i];
        sliders.push(row![
            image_id(pool.room(top_theme(s.parent), 1)),
            format!("/c/{}", s.slug),
            title,
            line,
            1,
            true,
            0,
            "#1e3c5a",
            "#ffffff",
            "",
            i as i64,
            true
        ]);
    }
    sliders.push(row![
        image_id(pool.banners[5]),
        "/page/flash-sale",
        "Last season's sale",
        "Ended",
        0,
        true,
        0,
        "",
        "",
        "",
        99,
        false
    ]);
    tables.push(sliders);

    // Menus. Item 21 is the root of the side menu's product tree.
    let mut menus = Table::new("menu", &["id", "name", "title", "location", "sort"]);
    let mut items = Table::new(
        "menu_item",
        &["id", "menu_id", "parent", "label", "link", "sort", "depth"],
    );
    menus.push(row![1, "Header", "", "header", 0]);
    menus.push(row![11, "Header child menus", "", "header_child", 1]);
    menus.push(row![
        12,
        "Header child sub-menus",
        "",
        "header_child_sub",
        2
    ]);
    menus.push(row![20, "Products", "Products", "products", 3]);
    for (i, (label, link)) in [
        ("Products", "/c/products"),
        ("Showroom", "/page/showrooms"),
        ("Interiors", "/gallery"),
        ("Home Decor", "/c/home-decor"),
    ]
    .iter()
    .enumerate()
    {
        items.push(row![i as i64 + 1, 1, 0, *label, *link, i as i64, 0]);
    }
    for (i, (label, link)) in [
        ("Flash Sale", "/page/flash-sale"),
        ("Top Offers", "/page/top-offers"),
        ("Bundle Offers", "/page/bundle-offers"),
        ("Pre-booking", "/page/prebooking"),
    ]
    .iter()
    .enumerate()
    {
        items.push(row![i as i64 + 5, 11, 0, *label, *link, i as i64, 0]);
    }
    for (i, (label, link)) in [
        ("Blogs", "/blogs"),
        ("News and Events", "/news-event"),
        ("Track Order", "/page/track-order"),
        ("Contact us", "/page/contact"),
    ]
    .iter()
    .enumerate()
    {
        items.push(row![i as i64 + 9, 12, 0, *label, *link, i as i64, 0]);
    }
    items.push(row![21, 20, 0, "Products", "/c/products", 0, 0]);
    let mut next_item = 100;
    for (i, (top, name, _, slug)) in TOPS.iter().enumerate() {
        let top_item = next_item;
        items.push(row![
            top_item,
            20,
            21,
            *name,
            format!("/c/{slug}"),
            i as i64,
            1
        ]);
        next_item += 1;
        for (k, s) in SUBS.iter().filter(|s| s.parent == *top).enumerate() {
            items.push(row![
                next_item,
                20,
                top_item,
                s.name,
                format!("/c/{}", s.slug),
                k as i64,
                2
            ]);
            next_item += 1;
        }
    }
    let footer: [(&str, &[(&str, &str)]); 4] = [
        (
            "Customer Service",
            &[
                ("Track Order", "/page/track-order"),
                ("Delivery Policy", "/page/delivery-policy"),
                ("Return and Refund", "/page/return-and-refund"),
                ("FAQ", "/page/faq"),
            ],
        ),
        (
            "About Us",
            &[
                ("Our Story", "/page/about-us"),
                ("Showrooms", "/page/showrooms"),
                ("Blogs", "/blogs"),
                ("News and Events", "/news-event"),
            ],
        ),
        (
            "Policies",
            &[
                ("Terms and Conditions", "/page/terms-and-conditions"),
                ("Privacy Policy", "/page/privacy-policy"),
                ("EMI Policy", "/page/emi-policy"),
                ("Warranty", "/page/warranty"),
            ],
        ),
        (
            "Quick Links",
            &[
                ("Flash Sale", "/page/flash-sale"),
                ("Top Offers", "/page/top-offers"),
                ("Interiors", "/gallery"),
                ("Chat to Buy", "/page/chatbuy"),
            ],
        ),
    ];
    for (i, (title, links)) in footer.iter().enumerate() {
        let menu_id = 30 + i as i64;
        menus.push(row![menu_id, *title, *title, "footer", 10 + i as i64]);
        for (k, (label, link)) in links.iter().enumerate() {
            items.push(row![next_item, menu_id, 0, *label, *link, k as i64, 0]);
            next_item += 1;
        }
    }
    tables.push(menus);
    tables.push(items);

    let mut widgets = Table::new(
        "widget",
        &["id", "name", "type", "description", "is_active", "special"],
    );
    // The advert names the running sale and its real length, but no clock
    // time: a seeded database is often moved in time (loadtests/tool.py
    // rebase) and the countdown on the sale's page shows the real end. It
    // belongs to that sale (`special` = `flash:<id>`): the pages show it only
    // while the sale runs, and a page written before the end does not open
    // it after.
    let (sale_id, sale_name, _, starts, ends) = FLASH_SALES[0];
    let hours = (ends - starts) / 3600;
    widgets.push(row![5, "Pre-load advert", "html", format!("<h2>Up to 40% off for {hours} hours</h2><p>The {sale_name} is on: selected furniture at up to 40% off while it lasts. The countdown on the sale's page shows the minutes left. <a href=\"/page/flash-sale\">Shop the sale</a></p>"), true, format!("flash:{sale_id}")]);
    widgets.push(row![14, "Delivery instructions", "html", "<p>Stocked items arrive within 72 hours (Fridays and holidays excluded); made-to-order items in 10–15 working days.</p>", true, ""]);
    widgets.push(row![
        15,
        "Pre-book now",
        "html",
        "Pre-book now: pay from 20% today, the rest on delivery",
        true,
        ""
    ]);
    widgets.push(row![
        16,
        "Love your furniture",
        "html",
        "<p>Made in our Gazipur factory, assembled in your home, and covered by our warranty.</p>",
        true,
        ""
    ]);
    widgets.push(row![
        17,
        "EMI",
        "html",
        "<p>0% EMI for 3 months with all five partner banks, and for 6 months with four of them, on products from ৳20,000; 9 and 12 months at a low yearly rate.</p>",
        true,
        ""
    ]);
    widgets.push(row![
        19,
        "Free delivery",
        "html",
        "<p>Free delivery inside Dhaka on orders from ৳3,000.</p>",
        true,
        ""
    ]);
    widgets.push(row![
        20,
        "Easy returns",
        "html",
        "<p>Return within 7 days if the product is damaged on arrival.</p>",
        true,
        ""
    ]);
    widgets.push(row![
        21,
        "Cash on delivery",
        "html",
        "<p>Pay in cash when your furniture arrives.</p>",
        true,
        ""
    ]);
    widgets.push(row![22, "EMI details", "html", emi_table(), true, ""]);
    tables.push(widgets);

    let home_category = TOPS
        .iter()
        .map(|t| t.0.to_string())
        .collect::<Vec<_>>()
        .join("|");
    let settings: Vec<(&str, String)> = vec![
        ("com_name", "Regal Furniture".into()),
        ("com_logourl", "/logo.svg".into()),
        ("com_metatitle", "Regal Furniture — furniture online in Bangladesh".into()),
        ("com_metadescription", "Beds, sofas, dining and office furniture made in Bangladesh. Cash on delivery, EMI, delivery in 72 hours inside Dhaka.".into()),
        ("com_metakeywords", "furniture, bangladesh, bed, sofa, dining table, khat, almari".into()),
        ("com_phone", "09612345678".into()),
        ("com_email", "care@example.com".into()),
        ("com_address", "Board Bazar, Gazipur 1704, Bangladesh".into()),
        ("special_notification_product_single_page", "Delivery inside Dhaka within 72 hours.".into()),
        ("showroom_location_popup", "show".into()),
        ("disable_buy", "off".into()),
        ("home_category", home_category),
        ("social_facebook", "https://www.facebook.com/regalfurniturebd".into()),
        ("social_youtube", "https://www.youtube.com/@regalfurniturebd".into()),
        ("social_instagram", "https://www.instagram.com/regalfurniturebd/".into()),
        ("copyright", "© Regal Furniture. All rights reserved.".into()),
        ("footer_support", "<strong>Support</strong><p>Hotline <a href=\"tel:09612345678\">09612345678</a> (9 am – 9 pm, every day)</p><p><a href=\"mailto:care@example.com\">care@example.com</a></p>".into()),
        ("offer_title", "Top Offers".into()),
        ("category_title", "Shop by Category".into()),
        ("flash_sale_title", "Flash Sale".into()),
    ];
    let mut setting = Table::new("setting", &["name", "value"]);
    for (k, v) in settings {
        setting.push(row![k, v]);
    }
    tables.push(setting);

    let mut seo = Table::new(
        "seo_content",
        &[
            "post_type",
            "post_id",
            "meta_title",
            "meta_description",
            "meta_keywords",
        ],
    );
    for p in cat.products.iter().take(50) {
        seo.push(row![
            "product",
            p.id,
            format!("{} | Regal Furniture", p.title),
            format!(
                "Buy the {} ({}) online in Bangladesh, delivered and assembled in all 64 districts.",
                p.title, p.sub_title
            ),
            "furniture, bangladesh"
        ]);
    }
    for (id, name, _, _) in TOPS {
        seo.push(row![
            "category",
            id,
            format!("{name} furniture price in Bangladesh"),
            format!(
                "Shop {} furniture online: solid wood, EMI and cash on delivery.",
                name.to_lowercase()
            ),
            name.to_lowercase()
        ]);
    }
    let page_texts: Vec<(i64, &str, &str, String, String, usize)> = PAGES
        .iter()
        .map(|(id, title, slug)| {
            let (summary, html, theme) = page_text(*id);
            (*id, *title, *slug, summary, html, theme)
        })
        .collect();
    for (id, title, _, summary, _, _) in &page_texts {
        seo.push(row![
            "page",
            *id,
            format!("{title} | Regal Furniture"),
            summary.as_str(),
            ""
        ]);
    }

    let mut pages = Table::new(
        "page",
        &[
            "id",
            "title",
            "sub_title",
            "seo_url",
            "description",
            "image_file_id",
        ],
    );
    for (id, title, slug, summary, html, theme) in page_texts {
        pages.push(row![
            id,
            title,
            summary,
            slug,
            html,
            image_id(pool.room(theme, id as usize % 2))
        ]);
    }
    tables.push(pages);

    let mut posts = Table::new(
        "post",
        &[
            "id",
            "kind",
            "title",
            "sub_title",
            "seo_url",
            "short_description",
            "description",
            "image_file_id",
            "author",
            "published_at",
        ],
    );
    let mut post_images = Table::new("post_image", &["post_id", "image_file_id", "sort"]);
    let mut post_id = 1;
    for (kind, texts) in [("blog", &BLOGS[..]), ("news", &NEWS[..])] {
        for (i, text) in texts.iter().enumerate() {
            let published = now - (i as i64 * 6 + rng.gen_range(1..5)) * 86_400;
            // Pictures of the room the post is about.
            let img = pool.room(text.theme, i % 2);
            let title = text.title;
            posts.push(row![
                post_id,
                kind,
                title,
                "",
                images::slug(title),
                text.summary,
                post_html(text, &cat.products, i),
                image_id(img),
                AUTHORS[i % AUTHORS.len()],
                published
            ]);
            post_images.push(row![post_id, image_id(img), 0]);
            post_images.push(row![post_id, image_id(pool.room(text.theme, i % 2 + 1)), 1]);
            seo.push(row![
                "post",
                post_id,
                format!("{title} | Regal Furniture"),
                text.summary,
                ""
            ]);
            post_id += 1;
        }
    }
    tables.push(posts);
    tables.push(post_images);
    tables.push(seo);

    let mut interiors = Table::new(
        "interior",
        &[
            "id",
            "title",
            "slug",
            "sub_title",
            "description",
            "image_id",
            "category_id",
        ],
    );
    let mut interior_images = Table::new(
        "interior_image",
        &["interior_id", "image_id", "title", "caption", "sort"],
    );
    let places = [
        "Gulshan",
        "Banani",
        "Dhanmondi",
        "Uttara",
        "Bashundhara",
        "Chattogram",
        "Sylhet",
        "Mirpur",
    ];
    for i in 0..16_usize {
        // Interior categories are bedroom, living, dining and office: the
        // room themes of the same numbers.
        let theme = i % INTERIOR_CATS.len();
        let (cat_id, cat_name, _) = INTERIOR_CATS[theme];
        let place = places[(i + i / places.len()) % places.len()];
        let room_name = cat_name.trim_end_matches(" Interiors").to_lowercase();
        let title = format!("{} in {place}", cat_name.trim_end_matches('s'));
        let slug = format!("{}-{}", images::slug(&title), i + 1);
        // The room from two sides, then its pieces one by one.
        let mut shots: Vec<(usize, String)> = vec![
            (
                pool.room(theme, i % 2),
                format!("The {room_name}, seen from the door"),
            ),
            (
                pool.room(theme, i % 2 + 1),
                format!("The {room_name} in evening light"),
            ),
        ];
        for (kind, colour, ..) in images::theme_pieces(theme) {
            let name = images::COLOURS[*colour].0.to_lowercase();
            if let Some(first) = pool.views(*kind, *colour).first() {
                if shots.iter().all(|(img, _)| img != first) {
                    shots.push((*first, format!("The {} in {name}", piece_name(*kind))));
                }
            }
        }
        interiors.push(row![
            i as i64 + 1,
            title.as_str(),
            slug,
            "Designed and furnished by our team",
            format!(
                "<p>A {room_name} in {place}, planned with the family from a floor plan and furnished by our team in a week. The photos show the room and each of its pieces.</p>"
            ),
            image_id(shots[0].0),
            cat_id
        ]);
        let wanted = rng.gen_range(4..=8_usize);
        for (k, (img, caption)) in shots.iter().take(wanted.max(4)).enumerate() {
            interior_images.push(row![
                i as i64 + 1,
                image_id(*img),
                format!("View {}", k + 1),
                caption.as_str(),
                k as i64
            ]);
        }
    }
    tables.push(interiors);
    tables.push(interior_images);

    // Divisions and districts.
    let mut divisions = Table::new("division", &["id", "name", "name_bn"]);
    let mut districts = Table::new(
        "district",
        &[
            "id",
            "division_id",
            "name",
            "name_bn",
            "aliases",
            "delivery_zone",
        ],
    );
    let mut division_ids: Vec<String> = Vec::new();
    let mut district_ids: Vec<(i64, String)> = Vec::new();
    for line in DISTRICTS_CSV
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
    {
        let cols = csv_fields(line);
        let [division, division_bn, district, district_bn] = &cols[..] else {
            continue;
        };
        let (division, district) = (division.as_str(), district.as_str());
        let div_id = match division_ids.iter().position(|d| d == division) {
            Some(i) => i as i64 + 1,
            None => {
                division_ids.push(division.to_string());
                divisions.push(row![
                    division_ids.len() as i64,
                    division,
                    division_bn.as_str()
                ]);
                division_ids.len() as i64
            }
        };
        let id = district_ids.len() as i64 + 1;
        let aliases = ALIASES
            .iter()
            .find(|(n, _)| *n == district)
            .map_or("", |(_, a)| a);
        let zone = if district == "Dhaka" {
            "inside_dhaka"
        } else {
            "outside_dhaka"
        };
        districts.push(row![
            id,
            div_id,
            district,
            district_bn.as_str(),
            aliases,
            zone
        ]);
        district_ids.push((id, district.to_string()));
    }
    tables.push(divisions);
    tables.push(districts);
    let mut charges = Table::new("delivery_charge_setting", &["zone", "charge", "free_from"]);
    for (zone, charge, free_from) in DELIVERY_CHARGES {
        charges.push(row![zone, charge, free_from]);
    }
    tables.push(charges);

    let mut showrooms = Table::new(
        "showroom",
        &[
            "title",
            "sub_title",
            "seo_url",
            "description",
            "shop_type",
            "district_id",
            "thana",
            "address",
            "phone",
            "opening_hours",
            "latitude",
            "longitude",
        ],
    );
    let district_id = |name: &str| {
        district_ids
            .iter()
            .find(|(_, d)| d == name)
            .map_or(1, |(id, _)| *id)
    };
    for (i, (title, district, thana, address, lat, lon)) in SHOWROOMS.iter().enumerate() {
        showrooms.push(row![
            *title,
            format!("{district} — {thana}"),
            images::slug(title),
            format!("<p>Visit our {title} to see every collection.</p>"),
            "Showroom",
            district_id(district),
            *thana,
            *address,
            format!("017{:08}", 11_000_000 + i * 7_919),
            "10 am – 9 pm, Saturday to Thursday",
            *lat,
            *lon
        ]);
    }
    for (i, district) in ["Dhaka", "Chattogram", "Sylhet", "Khulna", "Rajshahi"]
        .iter()
        .enumerate()
    {
        showrooms.push(row![
            format!("Chat to buy — {district}"),
            "WhatsApp and Messenger",
            format!("chatbuy-{}", images::slug(district)),
            "<p>Message us to order.</p>",
            "Chatbuy",
            district_id(district),
            "",
            "",
            format!("019{:08}", 22_000_000 + i * 4_241),
            "9 am – 11 pm, every day",
            None::<f64>,
            None::<f64>
        ]);
    }
    tables.push(showrooms);

    let mut coupons = Table::new(
        "coupon",
        &[
            "coupon_code",
            "amount_type",
            "price",
            "upto_amount",
            "purchase_min",
            "purchase_max",
            "used_limit",
            "used_count",
            "starts_at",
            "ends_at",
            "comment",
            "is_active",
        ],
    );
    coupons.push(row![
        "WELCOME10",
        "Percentage",
        10,
        5000,
        3000,
        None::<i64>,
        1000,
        12,
        now - 30 * 86_400,
        now + 60 * 86_400,
        "10% off, up to ৳5,000, on orders from ৳3,000",
        true
    ]);
    coupons.push(row![
        "FLAT500",
        "Fixed",
        500,
        None::<i64>,
        5000,
        None::<i64>,
        None::<i64>,
        3,
        now - 10 * 86_400,
        now + 30 * 86_400,
        "৳500 off orders from ৳5,000",
        true
    ]);
    coupons.push(row![
        "EID2025",
        "Percentage",
        15,
        10_000,
        0,
        None::<i64>,
        None::<i64>,
        40,
        now - 400 * 86_400,
        now - 300 * 86_400,
        "Expired",
        true
    ]);
    coupons.push(row![
        "USEDUP",
        "Fixed",
        1000,
        None::<i64>,
        0,
        None::<i64>,
        5,
        5,
        now - 5 * 86_400,
        now + 5 * 86_400,
        "Usage limit reached",
        true
    ]);
    coupons.push(row![
        "NEWYEAR",
        "Percentage",
        12,
        8000,
        10_000,
        200_000,
        500,
        0,
        now + 20 * 86_400,
        now + 50 * 86_400,
        "Starts later",
        true
    ]);
    tables.push(coupons);

    Content { tables }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_handle_quoted_names() {
        assert_eq!(
            csv_fields(r#"Chattogram,চট্টগ্রাম,"Cox's Bazar",কক্সবাজার"#),
            vec!["Chattogram", "চট্টগ্রাম", "Cox's Bazar", "কক্সবাজার"]
        );
        assert_eq!(csv_fields(r#"a,"b, ""c""",d"#), vec!["a", r#"b, "c""#, "d"]);
    }

    #[test]
    fn every_alias_belongs_to_a_district_of_the_csv() {
        let names: Vec<String> = DISTRICTS_CSV
            .lines()
            .skip(1)
            .filter_map(|l| csv_fields(l).get(2).cloned())
            .collect();
        assert_eq!(names.len(), 64);
        for (name, _) in ALIASES {
            assert!(names.iter().any(|n| n == name), "{name} is not in the CSV");
        }
    }

    #[test]
    fn basis_points_read_as_percentages() {
        assert_eq!(percent(0), "0");
        assert_eq!(percent(900), "9");
        assert_eq!(percent(850), "8.5");
        assert!(emi_table()
            .contains("<td>BRAC Bank</td><td>0%</td><td>0%</td><td>5%</td><td>8.5%</td>"));
    }
}
