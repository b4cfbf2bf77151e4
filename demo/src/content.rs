//! The content part of the demo shop: sliders, menus, widgets, settings, SEO
//! texts, CMS pages, blog and news posts, interior galleries, the divisions
//! and districts, delivery charges, showrooms and coupons.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::catalogue::{image_id, Catalogue, EMI_MONTHS, EMI_PLANS, INTERIOR_CATS, SUBS, TOPS};
use super::images::{self, Pool};
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

const BLOG_TOPICS: [&str; 20] = [
    "How to choose a bed for a small room",
    "Segun or mahogany: which wood lasts longer",
    "Caring for wooden furniture in the monsoon",
    "Five sofa layouts for a Dhaka flat",
    "Picking a dining table for six",
    "Making a home office that works",
    "Kids' rooms that grow with them",
    "Wardrobe storage ideas",
    "Colours that make a room feel larger",
    "Why engineered wood is not cheap wood",
    "Choosing a mattress",
    "Lighting a living room",
    "Furnishing a rented flat",
    "Balcony furniture that survives the rain",
    "Decorating for Eid",
    "The right height for a study table",
    "Leather or fabric sofa",
    "Keeping termites away",
    "A guide to EMI on furniture",
    "Moving house without scratches",
];

const NEWS_TOPICS: [&str; 20] = [
    "New showroom opens in Bashundhara",
    "Rangpur showroom now open on Fridays",
    "Pre-booking opens for the Eid collection",
    "Mattress exchange week",
    "Furniture donated to flood-hit schools in Sunamganj",
    "Victory Day sale announced",
    "Free delivery inside Dhaka extended",
    "Our Gazipur factory goes solar",
    "Winter collection launched",
    "Partnership with five banks for 0% EMI",
    "Showroom open late during Ramadan",
    "Furniture fair at Bashundhara ICC",
    "New fabric range for sofas",
    "Customer service hotline now 24/7",
    "Kids collection wins design award",
    "Chittagong GEC showroom renovated",
    "Recycled packaging on every delivery",
    "Online order tracking launched",
    "Sylhet showroom anniversary offers",
    "Office furniture for startups",
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
    for (i, (_, name, _, slug)) in TOPS.iter().enumerate().take(4) {
        sliders.push(row![
            image_id(pool.banners[i]),
            format!("/c/{slug}"),
            format!("{name} collection"),
            format!("New {} designs, delivered in 72 hours", name.to_lowercase()),
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
    for (i, s) in SUBS.iter().enumerate().step_by(5).take(4) {
        sliders.push(row![
            image_id(pool.banners[(i + 4) % pool.banners.len()]),
            format!("/c/{}", s.slug),
            s.name,
            "Featured this week",
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
        "Old campaign",
        "Inactive",
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
        &["id", "name", "type", "description", "is_active"],
    );
    widgets.push(row![5, "Pre-load advert", "html", "<h2>Weekend Flash Sale</h2><p>Up to 40% off beds, sofas and dining sets until midnight. <a href=\"/page/flash-sale\">Shop the sale</a></p>", true]);
    widgets.push(row![14, "Delivery instructions", "html", "<p>Stocked items arrive within 72 hours (Fridays and holidays excluded); made-to-order items in 10–15 working days.</p>", true]);
    widgets.push(row![
        15,
        "Pre-book now",
        "html",
        "Pre-book now: pay from 20% today, the rest on delivery",
        true
    ]);
    widgets.push(row![
        16,
        "Love your furniture",
        "html",
        "<p>Solid wood, made in Bangladesh, built to last a generation.</p>",
        true
    ]);
    widgets.push(row![
        17,
        "EMI",
        "html",
        "<p>0% EMI for 3 and 6 months with partner banks on orders from ৳20,000; 9 and 12 months at a low rate.</p>",
        true
    ]);
    widgets.push(row![
        19,
        "Free delivery",
        "html",
        "<p>Free delivery inside Dhaka on orders from ৳3,000.</p>",
        true
    ]);
    widgets.push(row![
        20,
        "Easy returns",
        "html",
        "<p>Return within 7 days if the product is damaged on arrival.</p>",
        true
    ]);
    widgets.push(row![
        21,
        "Cash on delivery",
        "html",
        "<p>Pay in cash when your furniture arrives.</p>",
        true
    ]);
    widgets.push(row![22, "EMI details", "html", emi_table(), true]);
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
                "Buy the {} ({}) online in Bangladesh at ৳{}. Cash on delivery available.",
                p.title, p.sub_title, p.price_now
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
    for (id, title, _) in PAGES {
        seo.push(row![
            "page",
            id,
            format!("{title} | Regal Furniture"),
            format!("{title} of Regal Furniture."),
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
    for (id, title, slug) in PAGES {
        pages.push(row![id, title, "", slug, format!("<h2>{title}</h2><p>This page explains our {}. Questions? Call <a href=\"tel:09612345678\">09612345678</a>.</p><p>Orders are delivered within 72 hours inside Dhaka and within 5 working days elsewhere.</p>", title.to_lowercase()), image_id(pool.rooms[id as usize % pool.rooms.len()])]);
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
    for (kind, topics) in [("blog", &BLOG_TOPICS[..]), ("news", &NEWS_TOPICS[..])] {
        for (i, title) in topics.iter().enumerate() {
            let published = now - (i as i64 * 6 + rng.gen_range(1..5)) * 86_400;
            let img = pool.rooms[(i + post_id as usize) % pool.rooms.len()];
            posts.push(row![post_id, kind, *title, "", images::slug(title), format!("{title}: what we learned from furnishing thousands of homes."), format!("<p>{title}. Our designers share what works in Bangladeshi homes.</p><h2>What to look for</h2><p>Measure the room, think about light and moisture, and choose wood that suits the climate.</p><h2>Our advice</h2><p>Visit a showroom to see the finish in daylight.</p>"), image_id(img), AUTHORS[i % AUTHORS.len()], published]);
            post_images.push(row![post_id, image_id(img), 0]);
            post_images.push(row![
                post_id,
                image_id(pool.rooms[(i + 3) % pool.rooms.len()]),
                1
            ]);
            seo.push(row![
                "post",
                post_id,
                format!("{title} | Regal Furniture"),
                format!("{title}."),
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
        let (cat_id, cat_name, _) = INTERIOR_CATS[i % INTERIOR_CATS.len()];
        let title = format!(
            "{} in {}",
            cat_name.trim_end_matches('s'),
            places[i % places.len()]
        );
        let slug = format!("{}-{}", images::slug(&title), i + 1);
        interiors.push(row![
            i as i64 + 1,
            title.as_str(),
            slug,
            "Designed and furnished by our team",
            format!("<p>A {} furnished end to end.</p>", title.to_lowercase()),
            image_id(pool.rooms[i % pool.rooms.len()]),
            cat_id
        ]);
        for k in 0..rng.gen_range(4..=8) {
            interior_images.push(row![
                i as i64 + 1,
                image_id(pool.rooms[(i + k) % pool.rooms.len()]),
                format!("View {}", k + 1),
                format!("{title}, view {}", k + 1),
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
    charges.push(row!["inside_dhaka", 200, 3000]);
    charges.push(row!["outside_dhaka", 300, 5000]);
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
