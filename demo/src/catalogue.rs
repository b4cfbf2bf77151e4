//! The catalogue part of the demo shop: image files, the category tree,
//! attributes, tags, products (with images, 360 frames, videos, EMI plans,
//! attributes, variations), product sets with fabrics, tag galleries and
//! flash sales.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::images::{self, Kind, Pool, COLOURS};
use super::{row, SeedOptions, Table};

/// A top-level category: id, name, Bangla name, slug.
pub(super) const TOPS: [(i64, &str, &str, &str); 6] = [
    (2, "Bedroom", "শোবার ঘর", "bedroom"),
    (3, "Living", "বসার ঘর", "living"),
    (4, "Dining", "খাবার ঘর", "dining"),
    (5, "Office", "অফিস", "office"),
    (6, "Kids", "শিশুদের", "kids"),
    (7, "Home Decor", "ঘর সাজানো", "home-decor"),
];

/// A sub-category and how its products look.
pub(super) struct Sub {
    pub id: i64,
    pub parent: i64,
    pub name: &'static str,
    pub name_bn: &'static str,
    pub slug: &'static str,
    /// Product code letters, e.g. BDH-201.
    pub prefix: &'static str,
    pub kind: Kind,
    pub nouns: &'static [&'static str],
    /// Price range in taka.
    pub price: (i64, i64),
    pub sizes: &'static [&'static str],
    /// Relative share of the catalogue.
    pub weight: u32,
}

const BED_SIZES: &[&str] = &["Single", "Semi-Double", "Queen", "King"];
const SOFA_SIZES: &[&str] = &["2 Seater", "3 Seater", "3+2+1 Set", "L-Shape"];
const TABLE_SIZES: &[&str] = &["4 Seater", "6 Seater", "8 Seater"];
const STD: &[&str] = &["Standard", "Large", "Compact"];

pub(super) const SUBS: [Sub; 21] = [
    Sub {
        id: 10,
        parent: 2,
        name: "Beds",
        name_bn: "খাট",
        slug: "beds",
        prefix: "BDH",
        kind: Kind::Bed,
        nouns: &[
            "King Size Bed",
            "Queen Size Bed",
            "Semi-Double Bed",
            "Storage Bed",
            "Box Bed",
        ],
        price: (28_000, 140_000),
        sizes: BED_SIZES,
        weight: 14,
    },
    Sub {
        id: 11,
        parent: 2,
        name: "Wardrobes",
        name_bn: "আলমারি",
        slug: "wardrobes",
        prefix: "WDH",
        kind: Kind::Wardrobe,
        nouns: &[
            "3 Door Wardrobe",
            "2 Door Wardrobe",
            "Sliding Wardrobe",
            "Almirah",
        ],
        price: (22_000, 95_000),
        sizes: STD,
        weight: 8,
    },
    Sub {
        id: 12,
        parent: 2,
        name: "Dressing Tables",
        name_bn: "ড্রেসিং টেবিল",
        slug: "dressing-tables",
        prefix: "DTH",
        kind: Kind::Desk,
        nouns: &[
            "Dressing Table",
            "Dressing Table with Mirror",
            "Vanity Table",
        ],
        price: (12_000, 48_000),
        sizes: STD,
        weight: 5,
    },
    Sub {
        id: 13,
        parent: 2,
        name: "Bedside Tables",
        name_bn: "বেডসাইড টেবিল",
        slug: "bedside-tables",
        prefix: "BST",
        kind: Kind::Cabinet,
        nouns: &["Bedside Table", "Night Stand"],
        price: (4_500, 16_000),
        sizes: STD,
        weight: 5,
    },
    Sub {
        id: 14,
        parent: 3,
        name: "Sofas",
        name_bn: "সোফা",
        slug: "sofas",
        prefix: "SFH",
        kind: Kind::Sofa,
        nouns: &[
            "Sofa Set",
            "Fabric Sofa",
            "Leather Sofa",
            "Corner Sofa",
            "Sofa Cum Bed",
        ],
        price: (35_000, 220_000),
        sizes: SOFA_SIZES,
        weight: 12,
    },
    Sub {
        id: 15,
        parent: 3,
        name: "Divans",
        name_bn: "ডিভান",
        slug: "divans",
        prefix: "DVH",
        kind: Kind::Sofa,
        nouns: &["Divan", "Day Bed"],
        price: (15_000, 45_000),
        sizes: STD,
        weight: 4,
    },
    Sub {
        id: 16,
        parent: 3,
        name: "Centre Tables",
        name_bn: "সেন্টার টেবিল",
        slug: "centre-tables",
        prefix: "CTH",
        kind: Kind::Table,
        nouns: &["Centre Table", "Coffee Table", "Tea Table"],
        price: (6_000, 28_000),
        sizes: STD,
        weight: 5,
    },
    Sub {
        id: 17,
        parent: 3,
        name: "TV Cabinets",
        name_bn: "টিভি ক্যাবিনেট",
        slug: "tv-cabinets",
        prefix: "TVC",
        kind: Kind::Cabinet,
        nouns: &["TV Cabinet", "TV Trolley", "Entertainment Unit"],
        price: (8_000, 42_000),
        sizes: STD,
        weight: 4,
    },
    Sub {
        id: 18,
        parent: 3,
        name: "Shoe Racks",
        name_bn: "জুতার র‍্যাক",
        slug: "shoe-racks",
        prefix: "SRH",
        kind: Kind::Cabinet,
        nouns: &["Shoe Rack", "Shoe Cabinet"],
        price: (3_500, 14_000),
        sizes: STD,
        weight: 3,
    },
    Sub {
        id: 19,
        parent: 4,
        name: "Dining Tables",
        name_bn: "ডাইনিং টেবিল",
        slug: "dining-tables",
        prefix: "DNT",
        kind: Kind::Table,
        nouns: &["Dining Table", "Dining Table Set", "Glass Top Dining Table"],
        price: (18_000, 120_000),
        sizes: TABLE_SIZES,
        weight: 8,
    },
    Sub {
        id: 20,
        parent: 4,
        name: "Dining Chairs",
        name_bn: "ডাইনিং চেয়ার",
        slug: "dining-chairs",
        prefix: "DNC",
        kind: Kind::Chair,
        nouns: &["Dining Chair", "Upholstered Chair"],
        price: (3_500, 14_000),
        sizes: STD,
        weight: 6,
    },
    Sub {
        id: 21,
        parent: 4,
        name: "Showcases",
        name_bn: "শোকেস",
        slug: "showcases",
        prefix: "SCH",
        kind: Kind::Showcase,
        nouns: &["Showcase", "Crockery Cabinet", "Display Cabinet"],
        price: (16_000, 70_000),
        sizes: STD,
        weight: 4,
    },
    Sub {
        id: 22,
        parent: 5,
        name: "Office Tables",
        name_bn: "অফিস টেবিল",
        slug: "office-tables",
        prefix: "OFT",
        kind: Kind::Desk,
        nouns: &[
            "Executive Table",
            "Workstation",
            "Computer Table",
            "Laptop Table",
        ],
        price: (900, 65_000),
        sizes: STD,
        weight: 6,
    },
    Sub {
        id: 23,
        parent: 5,
        name: "Office Chairs",
        name_bn: "অফিস চেয়ার",
        slug: "office-chairs",
        prefix: "OFC",
        kind: Kind::Chair,
        nouns: &[
            "Executive Chair",
            "Swivel Chair",
            "Visitor Chair",
            "Mesh Chair",
        ],
        price: (3_000, 38_000),
        sizes: STD,
        weight: 6,
    },
    Sub {
        id: 24,
        parent: 5,
        name: "File Cabinets",
        name_bn: "ফাইল ক্যাবিনেট",
        slug: "file-cabinets",
        prefix: "FCH",
        kind: Kind::Cabinet,
        nouns: &["File Cabinet", "Almirah", "Book Shelf"],
        price: (7_000, 32_000),
        sizes: STD,
        weight: 3,
    },
    Sub {
        id: 25,
        parent: 6,
        name: "Kids Beds",
        name_bn: "শিশুদের খাট",
        slug: "kids-beds",
        prefix: "KBH",
        kind: Kind::Bed,
        nouns: &["Kids Bed", "Bunk Bed", "Car Bed"],
        price: (14_000, 60_000),
        sizes: BED_SIZES,
        weight: 4,
    },
    Sub {
        id: 26,
        parent: 6,
        name: "Study Tables",
        name_bn: "পড়ার টেবিল",
        slug: "study-tables",
        prefix: "STH",
        kind: Kind::Desk,
        nouns: &["Study Table", "Reading Table", "Kids Desk"],
        price: (4_000, 22_000),
        sizes: STD,
        weight: 4,
    },
    Sub {
        id: 27,
        parent: 6,
        name: "Kids Chairs",
        name_bn: "শিশুদের চেয়ার",
        slug: "kids-chairs",
        prefix: "KCH",
        kind: Kind::Chair,
        nouns: &["Kids Chair", "Study Chair"],
        price: (1_500, 7_000),
        sizes: STD,
        weight: 2,
    },
    Sub {
        id: 28,
        parent: 7,
        name: "Wall Decor",
        name_bn: "দেয়াল সজ্জা",
        slug: "wall-decor",
        prefix: "WDC",
        kind: Kind::Decor,
        nouns: &["Wall Frame", "Wall Mirror", "Wall Shelf", "Wall Clock"],
        price: (1_200, 12_000),
        sizes: STD,
        weight: 3,
    },
    Sub {
        id: 29,
        parent: 7,
        name: "Lamps",
        name_bn: "বাতি",
        slug: "lamps",
        prefix: "LMP",
        kind: Kind::Lamp,
        nouns: &["Floor Lamp", "Table Lamp", "Ceiling Lamp"],
        price: (1_500, 18_000),
        sizes: STD,
        weight: 3,
    },
    Sub {
        id: 30,
        parent: 7,
        name: "Cushions and Rugs",
        name_bn: "কুশন ও কার্পেট",
        slug: "cushions-and-rugs",
        prefix: "CRG",
        kind: Kind::Decor,
        nouns: &["Cushion Cover Set", "Area Rug", "Floor Mat"],
        price: (900, 9_000),
        sizes: STD,
        weight: 2,
    },
];

/// Interior-gallery categories (type 'interior'): id, name, slug.
pub(super) const INTERIOR_ROOT: i64 = 40;
pub(super) const INTERIOR_CATS: [(i64, &str, &str); 4] = [
    (41, "Bedroom Interiors", "bedroom-interiors"),
    (42, "Living Room Interiors", "living-room-interiors"),
    (43, "Dining Interiors", "dining-interiors"),
    (44, "Office Interiors", "office-interiors"),
];

const STYLES: [&str; 28] = [
    "Lisbon",
    "Monaco",
    "Sylhet",
    "Padma",
    "Meghna",
    "Jamuna",
    "Karnaphuli",
    "Orchid",
    "Aster",
    "Zinnia",
    "Victoria",
    "Royal",
    "Classic",
    "Nordic",
    "Aurora",
    "Sonargaon",
    "Bokul",
    "Kadam",
    "Shimul",
    "Hijol",
    "Tulip",
    "Crescent",
    "Heritage",
    "Madrid",
    "Oslo",
    "Kyoto",
    "Rupsha",
    "Teesta",
];

/// Attribute (id, label, field name) and its values.
const ATTRIBUTES: [(i64, &str, &str, &[&str]); 4] = [
    (
        1,
        "Material",
        "material",
        &[
            "Segun Wood",
            "Mahogany",
            "Oak",
            "Engineered Wood",
            "Metal",
            "Fabric",
            "Leather",
        ],
    ),
    (
        2,
        "Colour",
        "colour",
        &[
            "Walnut",
            "Natural Teak",
            "Dark Brown",
            "White",
            "Grey",
            "Royal Blue",
        ],
    ),
    (
        3,
        "Size",
        "size",
        &[
            "Single",
            "Semi-Double",
            "Queen",
            "King",
            "2 Seater",
            "3 Seater",
            "3+2+1 Set",
            "L-Shape",
            "4 Seater",
            "6 Seater",
            "8 Seater",
            "Standard",
            "Large",
            "Compact",
        ],
    ),
    (
        4,
        "Finish",
        "finish",
        &["Matte", "Glossy", "Lacquer", "Veneer"],
    ),
];

/// The materials a product of `sub` is made of (names of the Material attribute's values).
fn materials(sub: &Sub) -> &'static [&'static str] {
    match (sub.slug, sub.kind) {
        ("cushions-and-rugs", _) => &["Fabric"],
        ("file-cabinets", _) => &["Metal", "Engineered Wood"],
        ("dressing-tables" | "bedside-tables" | "showcases", _) => {
            &["Segun Wood", "Mahogany", "Oak", "Engineered Wood"]
        }
        (_, Kind::Sofa) => &["Fabric", "Leather", "Segun Wood"],
        (_, Kind::Chair) => &["Segun Wood", "Oak", "Metal", "Fabric", "Leather"],
        (_, Kind::Lamp) => &["Metal", "Segun Wood"],
        (_, Kind::Decor) => &["Segun Wood", "Metal"],
        (_, Kind::Desk | Kind::Table | Kind::Cabinet) => {
            &["Segun Wood", "Mahogany", "Oak", "Engineered Wood", "Metal"]
        }
        _ => &["Segun Wood", "Mahogany", "Oak", "Engineered Wood"],
    }
}

const TAGS: [&str; 8] = [
    "Eid Special",
    "Best Seller",
    "Space Saver",
    "Premium",
    "Budget Pick",
    "New Design",
    "Made in Bangladesh",
    "Easy Assembly",
];

/// Card-instalment plans: the bank and its yearly interest in basis points
/// for 3, 6, 9 and 12 months (the EMI widget's table shows the same figures).
pub(super) const EMI_PLANS: [(&str, [i64; 4]); 5] = [
    ("City Bank", [0, 0, 600, 900]),
    ("BRAC Bank", [0, 0, 500, 850]),
    ("Eastern Bank (EBL)", [0, 0, 650, 900]),
    ("Dutch-Bangla Bank", [0, 300, 700, 1000]),
    ("Standard Chartered", [0, 0, 550, 800]),
];

/// The instalment lengths offered, in months.
pub(super) const EMI_MONTHS: [i64; 4] = [3, 6, 9, 12];

/// The price range of a product: its sub-category's, narrowed for nouns
/// that cost far less than the rest of their category (a laptop table).
fn price_range(sub: &Sub, noun: &str) -> (i64, i64) {
    match noun {
        "Laptop Table" => (900, 3_500),
        "Computer Table" => (4_500, 18_000),
        "Visitor Chair" => (3_000, 9_000),
        "Night Stand" => (4_500, 9_000),
        _ => sub.price,
    }
}

/// A product as later parts of the seed need it.
#[derive(Debug, Clone)]
pub(super) struct Product {
    pub id: i64,
    pub title: String,
    pub sub_title: String,
    pub code: String,
    pub price_before: i64,
    pub price_now: i64,
    pub sub: usize,
    pub pre_booking: bool,
}

/// The catalogue's rows and what later parts refer to.
pub(super) struct Catalogue {
    pub tables: Vec<Table>,
    pub products: Vec<Product>,
    pub category_count: u64,
}

/// The `image_file` id of pool image `index`.
pub(super) fn image_id(index: usize) -> i64 {
    index as i64 + 1
}

fn round_to(v: i64, step: i64) -> i64 {
    ((v + step / 2) / step * step).max(step)
}

pub(super) fn build(rng: &mut ChaCha8Rng, options: &SeedOptions, pool: &Pool) -> Catalogue {
    let now = options.now;
    let mut tables = Vec::new();

    let mut files = Table::new(
        "image_file",
        &[
            "id",
            "original_name",
            "filename",
            "file_type",
            "file_size",
            "file_extension",
            "full_size_directory",
            "icon_size_directory",
            "width",
            "height",
        ],
    );
    for (i, f) in pool.files.iter().enumerate() {
        files.push(row![
            image_id(i),
            f.filename.as_str(),
            f.filename.as_str(),
            "image/jpeg",
            f.size as i64,
            "jpg",
            f.full.as_str(),
            f.icon.as_str(),
            i64::from(f.width),
            i64::from(f.height)
        ]);
    }
    tables.push(files);

    // Categories: the root, the top level, the sub-categories, the interior tree.
    let mut cats = Table::new(
        "category",
        &[
            "id",
            "name",
            "name_bn",
            "seo_url",
            "seo_h1",
            "seo_h2",
            "seo_h3",
            "seo_h4",
            "seo_h5",
            "type",
            "position",
            "serial",
            "description",
            "keywords",
            "parent",
            "in_product_home",
            "with_sub_menu",
            "column_count",
            "home_img",
            "page_image",
            "banner1",
        ],
    );
    let furniture_img = |kind: Kind, n: usize| {
        image_id(pool.furniture[images::kind_index(kind)][n % pool.furniture[0].len()])
    };
    cats.push(row![1, "Products", "পণ্য", "products", "All furniture", "Furniture online in Bangladesh", "Beds, sofas, dining and office furniture", "Cash on delivery and EMI", "Delivered across all 64 districts", "product", 0, 0, "Every product of the shop: bedroom, living, dining, office, kids and home decor furniture, delivered across Bangladesh.", "furniture, bangladesh", None::<i64>, false, true, 3, None::<i64>, None::<i64>, image_id(pool.banners[0])]);
    for (pos, (id, name, bn, slug)) in TOPS.iter().enumerate() {
        let kind = SUBS
            .iter()
            .find(|s| s.parent == *id)
            .map_or(Kind::Decor, |s| s.kind);
        cats.push(row![*id, *name, *bn, *slug, format!("{name} furniture"), format!("Buy {name} furniture online in Bangladesh"), format!("{name} furniture"), format!("{name} furniture price in Bangladesh"), format!("Why buy {} furniture from us", name.to_lowercase()), "product", pos as i64, pos as i64, format!("{name} furniture in solid wood and engineered wood, made in Bangladesh, with delivery in 72 hours inside Dhaka."), format!("{}, furniture", name.to_lowercase()), 1, true, true, 2, furniture_img(kind, pos), furniture_img(kind, pos + 1), image_id(pool.banners[pos % pool.banners.len()])]);
    }
    for (pos, s) in SUBS.iter().enumerate() {
        cats.push(row![
            s.id,
            s.name,
            s.name_bn,
            s.slug,
            s.name,
            format!("{} price in Bangladesh", s.name),
            s.name,
            format!("Buy {} online", s.name.to_lowercase()),
            format!("How to choose {}", s.name.to_lowercase()),
            "product",
            pos as i64,
            pos as i64,
            format!(
                "{} in many designs and sizes. Cash on delivery and EMI available.",
                s.name
            ),
            s.slug.replace('-', " "),
            s.parent,
            false,
            false,
            1,
            furniture_img(s.kind, pos),
            furniture_img(s.kind, pos + 2),
            image_id(pool.banners[pos % pool.banners.len()])
        ]);
    }
    cats.push(row![
        INTERIOR_ROOT,
        "Interiors",
        "ইন্টেরিয়র",
        "interiors",
        "Interior galleries",
        None::<String>,
        None::<String>,
        None::<String>,
        None::<String>,
        "interior",
        0,
        0,
        "Rooms we furnished, for ideas.",
        "interior design",
        None::<i64>,
        false,
        false,
        1,
        image_id(pool.rooms[0]),
        None::<i64>,
        None::<i64>
    ]);
    for (pos, (id, name, slug)) in INTERIOR_CATS.iter().enumerate() {
        cats.push(row![
            *id,
            *name,
            None::<String>,
            *slug,
            *name,
            None::<String>,
            None::<String>,
            None::<String>,
            None::<String>,
            "interior",
            pos as i64,
            pos as i64,
            format!("{name} by our design team."),
            None::<String>,
            INTERIOR_ROOT,
            false,
            false,
            1,
            image_id(pool.rooms[pos + 1]),
            None::<i64>,
            None::<i64>
        ]);
    }
    let category_count = cats.len() as u64;
    tables.push(cats);

    let mut attrs = Table::new("attribute", &["id", "field_label", "field_name", "sort"]);
    let mut values = Table::new(
        "attribute_value",
        &["id", "value", "slug", "attribute_id", "sort"],
    );
    let mut value_ids: Vec<Vec<(i64, &str)>> = Vec::new();
    let mut next_value = 1;
    for (id, label, name, vals) in ATTRIBUTES {
        attrs.push(row![id, label, name, id]);
        let mut ids = Vec::new();
        for (i, v) in vals.iter().enumerate() {
            values.push(row![next_value, *v, images::slug(v), id, i as i64]);
            ids.push((next_value, *v));
            next_value += 1;
        }
        value_ids.push(ids);
    }
    tables.push(attrs);
    tables.push(values);

    let mut tags = Table::new("tag", &["id", "name", "slug"]);
    for (i, t) in TAGS.iter().enumerate() {
        tags.push(row![i as i64 + 1, *t, images::slug(t)]);
    }
    tables.push(tags);

    // Products.
    let total_weight: u32 = SUBS.iter().map(|s| s.weight).sum();
    let mut products = Table::new(
        "product",
        &[
            "id",
            "title",
            "sub_title",
            "product_code",
            "sku",
            "seo_url",
            "short_description",
            "description",
            "price_before",
            "price_now",
            "stock",
            "cash_on_delivery",
            "pre_booking",
            "pre_booking_min_percent",
            "emi_available",
            "new_arrival",
            "recommended",
            "recommended_serial",
            "best_selling",
            "enable_variation",
            "popularity",
            "delivery_time",
            "pro_warranty",
            "care_info",
            "seo_title",
            "seo_description",
            "created_at",
            "updated_at",
        ],
    );
    let mut product_cats = Table::new(
        "product_category",
        &["product_id", "category_id", "is_primary"],
    );
    let mut product_images = Table::new(
        "product_image",
        &["product_id", "image_file_id", "sort", "is_main"],
    );
    let mut frames = Table::new(
        "product_360_frame",
        &["product_id", "image_file_id", "frame_no"],
    );
    let mut videos = Table::new("product_video", &["product_id", "url", "title"]);
    let mut emis = Table::new(
        "product_emi",
        &["product_id", "bank", "months", "interest_bp"],
    );
    let mut product_attrs = Table::new("product_attribute", &["product_id", "attribute_value_id"]);
    let mut product_tags = Table::new("product_tag", &["product_id", "tag_id"]);
    let mut variations = Table::new(
        "product_variation",
        &[
            "product_id",
            "attribute",
            "value",
            "product_code",
            "sub_title",
            "price_before",
            "price_now",
            "stock",
            "image_file_id",
            "sort",
        ],
    );
    let mut list = Vec::with_capacity(options.products as usize);
    let mut code_counter = vec![100_i64; SUBS.len()];
    for n in 0..options.products as i64 {
        let id = n + 1;
        let mut pick = rng.gen_range(0..total_weight);
        let sub_idx = SUBS.iter().position(|s| {
            if pick < s.weight {
                true
            } else {
                pick -= s.weight;
                false
            }
        });
        let sub_idx = sub_idx.unwrap_or(0);
        let sub = &SUBS[sub_idx];
        code_counter[sub_idx] += 1;
        let code = format!("{}-{}", sub.prefix, code_counter[sub_idx]);
        let style = STYLES.choose(rng).copied().unwrap_or("Classic");
        let noun = sub.nouns.choose(rng).copied().unwrap_or(sub.name);
        let allowed = materials(sub);
        let choices: Vec<(i64, &str)> = value_ids[0]
            .iter()
            .copied()
            .filter(|(_, v)| allowed.contains(v))
            .collect();
        let mut material = choices.choose(rng).copied().unwrap_or(value_ids[0][0]);
        // A "Leather Sofa" is leather and an "Upholstered Chair" fabric.
        let named = match noun {
            n if n.contains("Leather") => Some("Leather"),
            n if n.contains("Fabric") || n.contains("Upholstered") => Some("Fabric"),
            _ => None,
        };
        if let Some(m) = named.and_then(|m| value_ids[0].iter().find(|(_, v)| *v == m)) {
            material = *m;
        }
        let colour_idx = rng.gen_range(0..COLOURS.len());
        let colour = value_ids[1][colour_idx];
        let size_name = sub.sizes.choose(rng).copied().unwrap_or("Standard");
        let size = value_ids[2]
            .iter()
            .copied()
            .find(|(_, v)| *v == size_name)
            .unwrap_or(value_ids[2][11]);
        let finish = value_ids[3].choose(rng).copied().unwrap_or((1, "Matte"));
        let title = if noun.contains(material.1) || named.is_some() {
            format!("{style} {noun}")
        } else {
            format!("{style} {} {noun}", material.1)
        };
        let sub_title = format!("{} | {} | {}", colour.1, size.1, finish.1);
        let (low, high) = price_range(sub, noun);
        let base = rng.gen_range(low..=high);
        let price_before = round_to(base, if base < 5_000 { 50 } else { 500 });
        let discount = *[0, 0, 0, 5, 10, 10, 15, 20].choose(rng).unwrap_or(&0);
        let price_now = round_to(price_before * (100 - discount) / 100, 10).min(price_before);
        let stock = if rng.gen_bool(0.12) {
            0
        } else {
            rng.gen_range(1..60)
        };
        let pre_booking = rng.gen_bool(0.04);
        let cod = !rng.gen_bool(0.08);
        let emi = price_now >= 20_000;
        let created = now - rng.gen_range(0..400) * 86_400 - rng.gen_range(0..86_400);
        let seo_url = format!("{}-{}", images::slug(&title), code.to_lowercase());
        let has_variations = rng.gen_bool(0.15);
        let short = format!(
            "{title} in {} with a {} finish. {} size, made in Bangladesh.",
            colour.1.to_lowercase(),
            finish.1.to_lowercase(),
            size.1
        );
        let description = format!(
            "<p>The {title} is built from {} and finished by hand in our Gazipur factory.</p><ul><li>Colour: {}</li><li>Size: {}</li><li>Finish: {}</li><li>Warranty: 1 year against manufacturing defects</li></ul><p>Delivered and assembled free inside Dhaka.</p>",
            material.1.to_lowercase(), colour.1, size.1, finish.1
        );
        products.push(row![
            id,
            title.as_str(),
            sub_title.as_str(),
            code.as_str(),
            format!("RF{id:06}"),
            seo_url.as_str(),
            short.as_str(),
            description,
            price_before,
            price_now,
            stock,
            cod,
            pre_booking,
            if pre_booking {
                rng.gen_range(2..=5) * 10
            } else {
                0
            },
            emi,
            created > now - 45 * 86_400,
            rng.gen_bool(0.06),
            rng.gen_range(0..100),
            rng.gen_bool(0.08),
            has_variations,
            rng.gen_range(0..10_000),
            match (pre_booking, stock > 0) {
                (true, _) => "Pre-booking: ships in 3-4 weeks",
                (false, true) => "Within 72 hours",
                (false, false) => "10-15 working days",
            },
            "1 year",
            "Wipe with a soft dry cloth. Keep away from direct sunlight and damp walls.",
            format!("{title} price in Bangladesh"),
            short.as_str(),
            created,
            created
        ]);
        product_cats.push(row![id, sub.id, true]);
        if rng.gen_bool(0.1) {
            // A second, related category (e.g. a bed also listed under kids beds).
            let other = SUBS.iter().find(|s| s.kind == sub.kind && s.id != sub.id);
            if let Some(other) = other {
                product_cats.push(row![id, other.id, false]);
            }
        }
        let kind_pool = &pool.furniture[images::kind_index(sub.kind)];
        let count = rng.gen_range(3..=6);
        // Start with the product's colour so the main image matches its sub-title.
        let first = colour_idx * images::VIEWS as usize;
        for k in 0..count {
            let idx = kind_pool[(first + k) % kind_pool.len()];
            product_images.push(row![id, image_id(idx), k as i64, k == 0]);
        }
        if rng.gen_bool(0.1) {
            let turn = &pool.turns[usize::from(sub.kind == Kind::Chair)];
            for (f, idx) in turn.iter().enumerate() {
                frames.push(row![id, image_id(*idx), f as i64]);
            }
        }
        if rng.gen_bool(0.12) {
            videos.push(row![
                id,
                format!("https://www.youtube-nocookie.com/embed/demo{:05}", id % 97),
                format!("{title} — a closer look")
            ]);
        }
        if emi {
            for (bank, rates) in EMI_PLANS.iter().take(rng.gen_range(2..=EMI_PLANS.len())) {
                for (months, rate) in EMI_MONTHS.iter().zip(rates) {
                    emis.push(row![id, *bank, *months, *rate]);
                }
            }
        }
        for v in [material.0, colour.0, size.0, finish.0] {
            product_attrs.push(row![id, v]);
        }
        for t in (1..=TAGS.len() as i64).filter(|_| rng.gen_bool(0.12)) {
            product_tags.push(row![id, t]);
        }
        // Products sold in several sizes vary by size; the others by colour.
        let by_size = has_variations && sub.sizes.len() > 2 && rng.gen_bool(0.5);
        if by_size {
            let here = sub.sizes.iter().position(|s| *s == size_name).unwrap_or(0);
            for (k, other) in sub
                .sizes
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != here)
                .take(2)
                .map(|(i, s)| (i, *s))
                .enumerate()
            {
                // A larger size costs more, a smaller one less.
                let step = other.0 as i64 - here as i64;
                let vbefore = round_to(price_before + price_before * step / 8, 100);
                let vnow = round_to(vbefore * (100 - discount) / 100, 10).min(vbefore);
                variations.push(row![
                    id,
                    "Size",
                    other.1,
                    format!("{code}-S{}", k + 1),
                    format!("{} | {} | {}", colour.1, other.1, finish.1),
                    vbefore,
                    vnow,
                    rng.gen_range(0..20),
                    image_id(kind_pool[(first + 1) % kind_pool.len()]),
                    k as i64
                ]);
            }
        } else if has_variations {
            for (k, (_, (_, c))) in value_ids[1]
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != colour_idx)
                .take(2)
                .enumerate()
            {
                let vcode = format!("{code}-{}", k + 1);
                let vbefore = price_before + 500 * k as i64;
                let vnow = (price_now + 500 * k as i64).min(vbefore);
                let vimg = kind_pool
                    [(k * images::VIEWS as usize + images::VIEWS as usize) % kind_pool.len()];
                variations.push(row![
                    id,
                    "Colour",
                    *c,
                    vcode,
                    format!("{c} | {} | {}", size.1, finish.1),
                    vbefore,
                    vnow,
                    rng.gen_range(0..20),
                    image_id(vimg),
                    k as i64
                ]);
            }
        }
        list.push(Product {
            id,
            title,
            sub_title,
            code,
            price_before,
            price_now,
            sub: sub_idx,
            pre_booking,
        });
    }
    tables.push(products);
    tables.extend([
        product_cats,
        product_images,
        frames,
        videos,
        emis,
        product_attrs,
        product_tags,
        variations,
    ]);

    // Product sets: a bedroom set, a living set, a dining set... each of real products.
    let mut sets = Table::new(
        "product_set",
        &[
            "id",
            "title",
            "subtitle",
            "slug",
            "category_id",
            "image_file_id",
            "description",
            "price_info",
        ],
    );
    let mut set_items = Table::new(
        "product_set_item",
        &["product_set_id", "product_id", "qty", "sort"],
    );
    let mut fabrics = Table::new(
        "fabric",
        &["id", "product_set_id", "title", "image_file_id", "sort"],
    );
    let mut fabric_images = Table::new("fabric_image", &["fabric_id", "image_file_id", "sort"]);
    let mut set_infos = Table::new(
        "product_set_info",
        &[
            "product_set_id",
            "title",
            "sub_title",
            "description",
            "sort",
        ],
    );
    let set_specs: [(&str, i64, &[usize]); 6] = [
        ("Bedroom Set", 2, &[0, 1, 2, 3]),
        ("Master Bedroom Set", 2, &[0, 1, 3]),
        ("Living Room Set", 3, &[4, 6, 7]),
        ("Dining Set", 4, &[9, 10, 11]),
        ("Home Office Set", 5, &[12, 13, 14]),
        ("Kids Room Set", 6, &[15, 16, 17]),
    ];
    let mut fabric_id = 1;
    for (i, (name, top, subs)) in set_specs.iter().enumerate() {
        let members: Vec<&Product> = subs
            .iter()
            .filter_map(|s| list.iter().find(|p| p.sub == *s))
            .collect();
        if members.len() < 2 {
            continue;
        }
        let id = i as i64 + 1;
        let style = STYLES[(i * 5) % STYLES.len()];
        let title = format!("{style} {name}");
        let slug = images::slug(&title);
        sets.push(row![
            id,
            title.as_str(),
            format!("{} pieces, solid wood", members.len()),
            slug.as_str(),
            *top,
            image_id(pool.rooms[i % pool.rooms.len()]),
            format!("<p>The {title} brings matching pieces together at a bundle price.</p>"),
            "Bundle price, save up to 12%"
        ]);
        for (k, p) in members.iter().enumerate() {
            let qty = if SUBS[p.sub].kind == Kind::Chair {
                4
            } else {
                1
            };
            set_items.push(row![id, p.id, qty, k as i64]);
        }
        for k in 0..rng.gen_range(2..=4) {
            let swatch = pool.swatches[(i + k) % pool.swatches.len()];
            fabrics.push(row![
                fabric_id,
                id,
                [
                    "Velvet Maroon",
                    "Jute Beige",
                    "Linen Grey",
                    "Leatherette Black",
                    "Cotton Blue"
                ][(i + k) % 5],
                image_id(swatch),
                k as i64
            ]);
            fabric_images.push(row![fabric_id, image_id(swatch), 0]);
            fabric_images.push(row![
                fabric_id,
                image_id(pool.swatches[(i + k + 1) % pool.swatches.len()]),
                1
            ]);
            fabric_id += 1;
        }
        for (k, (t, d)) in [
            ("Dimensions", "<p>See each product for its size.</p>"),
            (
                "Care",
                "<p>Wipe with a dry cloth; vacuum fabric monthly.</p>",
            ),
            (
                "Delivery",
                "<p>Free delivery and assembly inside Dhaka within 72 hours.</p>",
            ),
        ]
        .iter()
        .enumerate()
        {
            set_infos.push(row![id, *t, "", *d, k as i64]);
        }
    }
    tables.extend([sets, set_items, fabrics, fabric_images, set_infos]);

    // Tag galleries: the home page's (no category) and one per top category.
    let mut gallery = Table::new(
        "tag_gallery_item",
        &[
            "category_id",
            "term_name",
            "term_url",
            "url",
            "url_type",
            "image_file_id",
            "sort",
        ],
    );
    for (i, s) in SUBS.iter().enumerate().take(10) {
        gallery.push(row![
            None::<i64>,
            s.name,
            s.slug,
            format!("/c/{}", s.slug),
            1,
            furniture_img(s.kind, i),
            i as i64
        ]);
    }
    for (top, ..) in TOPS {
        for (i, s) in SUBS.iter().filter(|s| s.parent == top).enumerate() {
            gallery.push(row![
                top,
                s.name,
                s.slug,
                format!("/c/{}", s.slug),
                1,
                furniture_img(s.kind, i + 3),
                i as i64
            ]);
        }
    }
    tables.push(gallery);

    // Flash sales: one running now, one starting in two days, one over.
    let mut schedules = Table::new(
        "flash_schedule",
        &[
            "id",
            "fs_name",
            "fs_description",
            "starts_at",
            "ends_at",
            "show_price",
            "is_active",
        ],
    );
    schedules.push(row![
        1,
        "Weekend Flash Sale",
        "Up to 40% off selected furniture, today only.",
        now - 2 * 3600,
        now + 22 * 3600,
        true,
        true
    ]);
    schedules.push(row![
        2,
        "Victory Day Sale",
        "Celebrate with prices that start at midnight.",
        now + 2 * 86_400,
        now + 3 * 86_400,
        true,
        true
    ]);
    schedules.push(row![
        3,
        "Eid Flash Sale",
        "Over.",
        now - 40 * 86_400,
        now - 39 * 86_400,
        true,
        true
    ]);
    let mut flash = Table::new(
        "flash_item",
        &[
            "schedule_id",
            "product_id",
            "discount_percent",
            "show_tag",
            "qty",
            "sort",
        ],
    );
    let mut ids: Vec<i64> = list
        .iter()
        .filter(|p| !p.pre_booking)
        .map(|p| p.id)
        .collect();
    ids.shuffle(rng);
    for (k, pid) in ids.iter().take(20).enumerate() {
        flash.push(row![
            1,
            *pid,
            rng.gen_range(1..=4) * 10,
            true,
            rng.gen_range(5..30),
            k as i64
        ]);
    }
    for (k, pid) in ids.iter().skip(20).take(15).enumerate() {
        flash.push(row![2, *pid, rng.gen_range(1..=3) * 10, true, 0, k as i64]);
    }
    for (k, pid) in ids.iter().skip(35).take(5).enumerate() {
        flash.push(row![3, *pid, 25, true, 0, k as i64]);
    }
    tables.push(schedules);
    tables.push(flash);

    Catalogue {
        tables,
        products: list,
        category_count,
    }
}
