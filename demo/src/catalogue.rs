//! The catalogue part of the demo shop: image files, the category tree,
//! attributes, tags, products (with images, 360 frames, videos, EMI plans,
//! attributes, variations), product sets with fabrics, tag galleries and
//! flash sales.

use std::collections::HashMap;

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use catalog::pricing::taka;

use super::images::{self, Kind, Pool, COLOURS, FABRICS};
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

/// A product name within a sub-category, and what the name implies.
pub(super) struct Noun {
    pub name: &'static str,
    /// The sizes it comes in; empty: its sub-category's.
    pub sizes: &'static [&'static str],
    /// The material its name states (a "Leather Sofa"), left out of the title.
    pub material: Option<&'static str>,
    /// Its price range, when narrower than its sub-category's.
    pub price: Option<(i64, i64)>,
    /// What to add to the description about this piece.
    pub about: &'static str,
}

const fn noun(name: &'static str, about: &'static str) -> Noun {
    Noun {
        name,
        sizes: &[],
        material: None,
        price: None,
        about,
    }
}

/// A sub-category and how its products look.
pub(super) struct Sub {
    pub id: i64,
    pub parent: i64,
    pub name: &'static str,
    pub name_bn: &'static str,
    pub slug: &'static str,
    /// What else shoppers call it (English, Banglish), for the category's
    /// keywords, which search reads.
    pub also: &'static str,
    /// Product code letters, e.g. BDH-201.
    pub prefix: &'static str,
    pub kind: Kind,
    pub nouns: &'static [Noun],
    /// Price range in taka.
    pub price: (i64, i64),
    /// Sizes, smallest first (a larger one costs more); empty: the
    /// category has no Size attribute (chairs, lamps).
    pub sizes: &'static [&'static str],
    /// Whether the size is part of the name ("King Size", "3 Door").
    pub size_in_title: bool,
    /// The materials its products are made of (Material attribute values).
    pub materials: &'static [&'static str],
    /// Relative share of the catalogue.
    pub weight: u32,
    /// One sentence every product of the category says about itself.
    pub about: &'static str,
}

const BED_SIZES: &[&str] = &["Single", "Semi-Double", "Queen", "King"];
const KIDS_BED_SIZES: &[&str] = &["Toddler", "Single"];
const SOFA_SIZES: &[&str] = &["2 Seater", "3 Seater", "3+2+1 Set", "L-Shape"];
const DIVAN_SIZES: &[&str] = &["Single", "Semi-Double"];
const TABLE_SIZES: &[&str] = &["4 Seater", "6 Seater", "8 Seater"];
const WARDROBE_SIZES: &[&str] = &["2 Door", "3 Door", "4 Door"];
const RUG_SIZES: &[&str] = &["4 x 6 ft", "5 x 7 ft", "6 x 9 ft"];
const STD: &[&str] = &["Compact", "Standard", "Large"];
const NO_SIZE: &[&str] = &[];

const SOLID: &[&str] = &["Segun Wood", "Mahogany", "Oak", "Engineered Wood"];

pub(super) const SUBS: [Sub; 21] = [
    Sub {
        id: 10,
        parent: 2,
        name: "Beds",
        name_bn: "খাট",
        slug: "beds",
        also: "khat, palang, double bed",
        prefix: "BDH",
        kind: Kind::Bed,
        nouns: &[
            noun("Bed", "A classic frame with a panelled headboard."),
            noun(
                "Storage Bed",
                "The base lifts on gas struts to reveal storage for quilts and winter clothes.",
            ),
            noun(
                "Box Bed",
                "Its closed box base keeps dust and cockroaches out from under the bed.",
            ),
            noun("Panel Bed", "Raised panels on the headboard and the footboard."),
            noun(
                "Platform Bed",
                "A low platform that takes the mattress without a box spring.",
            ),
        ],
        price: (28_000, 140_000),
        sizes: BED_SIZES,
        size_in_title: true,
        materials: SOLID,
        weight: 14,
        about: "Seasoned wooden slats carry the mattress (sold separately); the frame bolts together, so it fits through narrow stairwells.",
    },
    Sub {
        id: 11,
        parent: 2,
        name: "Wardrobes",
        name_bn: "আলমারি",
        slug: "wardrobes",
        also: "almirah, almari, cupboard, closet",
        prefix: "WDH",
        kind: Kind::Wardrobe,
        nouns: &[
            noun("Wardrobe", "A hanging rail, four shelves and a locker drawer."),
            Noun {
                sizes: &["2 Door", "3 Door"],
                ..noun(
                    "Sliding Wardrobe",
                    "Sliding doors need no swing space in a small bedroom.",
                )
            },
            noun(
                "Almirah",
                "A lockable almirah with a hanging rail, shelves and a hidden drawer.",
            ),
        ],
        price: (22_000, 95_000),
        sizes: WARDROBE_SIZES,
        size_in_title: true,
        materials: SOLID,
        weight: 8,
        about: "Doors hang on soft-close hinges and the back panel is sealed against damp walls.",
    },
    Sub {
        id: 12,
        parent: 2,
        name: "Dressing Tables",
        name_bn: "ড্রেসিং টেবিল",
        slug: "dressing-tables",
        also: "vanity, makeup table, mirror table",
        prefix: "DTH",
        kind: Kind::Dresser,
        nouns: &[
            noun("Dressing Table", "A full-width mirror over four drawers."),
            noun(
                "Dressing Table with Stool",
                "Comes with a matching cushioned stool.",
            ),
            noun("Vanity Table", "A slim vanity with a mirror and two drawers."),
        ],
        price: (12_000, 48_000),
        sizes: STD,
        size_in_title: false,
        materials: SOLID,
        weight: 5,
        about: "The mirror is 5 mm float glass, fixed to the frame with a safety backing.",
    },
    Sub {
        id: 13,
        parent: 2,
        name: "Bedside Tables",
        name_bn: "বেডসাইড টেবিল",
        slug: "bedside-tables",
        also: "night stand, side table",
        prefix: "BST",
        kind: Kind::Cabinet,
        nouns: &[
            noun("Bedside Table", "Two drawers on smooth runners."),
            Noun {
                price: Some((4_500, 9_000)),
                ..noun("Night Stand", "A compact stand with one drawer and an open shelf.")
            },
        ],
        price: (4_500, 16_000),
        sizes: STD,
        size_in_title: false,
        materials: SOLID,
        weight: 5,
        about: "Its top sits level with most mattresses, within reach from bed.",
    },
    Sub {
        id: 14,
        parent: 3,
        name: "Sofas",
        name_bn: "সোফা",
        slug: "sofas",
        also: "couch, sofa set, settee",
        prefix: "SFH",
        kind: Kind::Sofa,
        nouns: &[
            Noun {
                sizes: &["2 Seater", "3 Seater"],
                ..noun("Sofa", "Deep seats with removable cushion covers.")
            },
            Noun {
                sizes: &["2 Seater", "3 Seater"],
                material: Some("Fabric"),
                ..noun("Fabric Sofa", "Upholstered in a hard-wearing fabric with zipped covers.")
            },
            Noun {
                sizes: &["2 Seater", "3 Seater"],
                material: Some("Leather"),
                ..noun("Leather Sofa", "Upholstered in genuine leather over high-density foam.")
            },
            Noun {
                sizes: &["3+2+1 Set"],
                ..noun("Sofa Set", "A three-seater, a two-seater and an armchair that match.")
            },
            Noun {
                sizes: &["L-Shape"],
                ..noun("Corner Sofa", "An L-shaped corner unit that seats five or six.")
            },
            Noun {
                sizes: &["2 Seater", "3 Seater"],
                material: Some("Fabric"),
                ..noun("Sofa Cum Bed", "The seat pulls out into a bed for guests.")
            },
        ],
        price: (35_000, 220_000),
        sizes: SOFA_SIZES,
        size_in_title: true,
        materials: &["Fabric", "Leather", "Segun Wood"],
        weight: 12,
        about: "The frame is kiln-dried segun wood with no-sag springs under 32-density foam.",
    },
    Sub {
        id: 15,
        parent: 3,
        name: "Divans",
        name_bn: "ডিভান",
        slug: "divans",
        also: "diwan, day bed",
        prefix: "DVH",
        kind: Kind::Sofa,
        nouns: &[
            noun("Divan", "A backrest and bolsters turn it from a bed into a seat."),
            noun("Day Bed", "A day bed for the drawing room or the verandah."),
        ],
        price: (15_000, 45_000),
        sizes: DIVAN_SIZES,
        size_in_title: true,
        materials: &["Fabric", "Segun Wood"],
        weight: 4,
        about: "Sleeps one adult at night and seats three by day.",
    },
    Sub {
        id: 16,
        parent: 3,
        name: "Centre Tables",
        name_bn: "সেন্টার টেবিল",
        slug: "centre-tables",
        also: "center table, coffee table, tea table",
        prefix: "CTH",
        kind: Kind::Table,
        nouns: &[
            noun("Centre Table", "A lower shelf keeps newspapers and remotes tidy."),
            noun("Coffee Table", "A low coffee table with rounded corners."),
            noun("Tea Table", "A light tea table that is easy to move."),
        ],
        price: (6_000, 28_000),
        sizes: STD,
        size_in_title: false,
        materials: &["Segun Wood", "Mahogany", "Oak", "Engineered Wood", "Metal"],
        weight: 5,
        about: "Its top is sealed against tea rings and hot cups.",
    },
    Sub {
        id: 17,
        parent: 3,
        name: "TV Cabinets",
        name_bn: "টিভি ক্যাবিনেট",
        slug: "tv-cabinets",
        also: "tv stand, tv trolley, tv unit, entertainment unit",
        prefix: "TVC",
        kind: Kind::Cabinet,
        nouns: &[
            noun("TV Cabinet", "Two closed cupboards and an open shelf for a set-top box."),
            noun("TV Stand", "A low stand for screens up to 55 inches."),
            noun("Entertainment Unit", "Room for the TV, a sound bar and books."),
        ],
        price: (8_000, 42_000),
        sizes: STD,
        size_in_title: false,
        materials: &["Segun Wood", "Mahogany", "Oak", "Engineered Wood"],
        weight: 4,
        about: "Cable holes in the back panel keep the wires out of sight.",
    },
    Sub {
        id: 18,
        parent: 3,
        name: "Shoe Racks",
        name_bn: "জুতার র‍্যাক",
        slug: "shoe-racks",
        also: "shoe cabinet, shoe stand",
        prefix: "SRH",
        kind: Kind::Cabinet,
        nouns: &[
            noun("Shoe Rack", "Holds twelve to eighteen pairs."),
            noun("Shoe Cabinet", "Closed doors with vents keep shoes aired and out of sight."),
        ],
        price: (3_500, 14_000),
        sizes: STD,
        size_in_title: false,
        materials: &["Segun Wood", "Engineered Wood", "Metal"],
        weight: 3,
        about: "Shelves are angled so that heels catch and shoes stay put.",
    },
    Sub {
        id: 19,
        parent: 4,
        name: "Dining Tables",
        name_bn: "ডাইনিং টেবিল",
        slug: "dining-tables",
        also: "dining set, dinner table",
        prefix: "DNT",
        kind: Kind::Table,
        nouns: &[
            noun("Dining Table", "A solid top on four sturdy legs."),
            noun(
                "Extendable Dining Table",
                "A leaf slides out to seat two more guests.",
            ),
            noun(
                "Glass Top Dining Table",
                "A 10 mm tempered glass top on a matching base.",
            ),
        ],
        price: (18_000, 120_000),
        sizes: TABLE_SIZES,
        size_in_title: true,
        materials: &["Segun Wood", "Mahogany", "Oak", "Engineered Wood", "Metal"],
        weight: 8,
        about: "Chairs are sold separately or together as a dining set.",
    },
    Sub {
        id: 20,
        parent: 4,
        name: "Dining Chairs",
        name_bn: "ডাইনিং চেয়ার",
        slug: "dining-chairs",
        also: "dinner chair",
        prefix: "DNC",
        kind: Kind::Chair,
        nouns: &[
            noun("Dining Chair", "A curved back that supports a long meal."),
            Noun {
                material: Some("Fabric"),
                ..noun("Upholstered Dining Chair", "A padded seat and back in a stain-resistant fabric.")
            },
        ],
        price: (3_500, 14_000),
        sizes: NO_SIZE,
        size_in_title: false,
        materials: &["Segun Wood", "Oak", "Metal", "Fabric"],
        weight: 6,
        about: "Sold one at a time; the price is for a single chair.",
    },
    Sub {
        id: 21,
        parent: 4,
        name: "Showcases",
        name_bn: "শোকেস",
        slug: "showcases",
        also: "crockery cabinet, display cabinet",
        prefix: "SCH",
        kind: Kind::Showcase,
        nouns: &[
            noun("Showcase", "Glass doors and two glass shelves for the good crockery."),
            noun("Crockery Cabinet", "Glass above, closed cupboards below."),
            noun("Display Cabinet", "A tall cabinet to show off souvenirs and trophies."),
        ],
        price: (16_000, 70_000),
        sizes: STD,
        size_in_title: false,
        materials: SOLID,
        weight: 4,
        about: "The doors lock, and the glass is tempered.",
    },
    Sub {
        id: 22,
        parent: 5,
        name: "Office Tables",
        name_bn: "অফিস টেবিল",
        slug: "office-tables",
        also: "computer table, desk, workstation, laptop table",
        prefix: "OFT",
        kind: Kind::Desk,
        nouns: &[
            Noun {
                price: Some((25_000, 65_000)),
                ..noun("Executive Table", "A wide executive desk with a lockable drawer unit.")
            },
            Noun {
                price: Some((12_000, 40_000)),
                ..noun("Workstation", "A workstation with a drawer unit and cable management.")
            },
            Noun {
                price: Some((4_500, 18_000)),
                ..noun("Computer Table", "A keyboard tray and a shelf for the CPU.")
            },
            Noun {
                sizes: &["Compact"],
                price: Some((900, 3_500)),
                ..noun("Laptop Table", "A light table for a laptop, on the bed or the sofa.")
            },
        ],
        price: (900, 65_000),
        sizes: STD,
        size_in_title: false,
        materials: &["Segun Wood", "Oak", "Engineered Wood", "Metal"],
        weight: 6,
        about: "Desk height is 30 inches, the standard for office chairs.",
    },
    Sub {
        id: 23,
        parent: 5,
        name: "Office Chairs",
        name_bn: "অফিস চেয়ার",
        slug: "office-chairs",
        also: "computer chair, gaming chair, boss chair, swivel chair, revolving chair, desk chair, castor chair, meeting chair, conference chair, height adjustable chair",
        prefix: "OFC",
        kind: Kind::Chair,
        nouns: &[
            Noun {
                material: Some("Leather"),
                price: Some((12_000, 38_000)),
                ..noun("Executive Chair", "A high back, padded arms and a tilt lock.")
            },
            Noun {
                price: Some((5_000, 18_000)),
                ..noun("Swivel Chair", "Swivels on five castors with a gas-lift seat.")
            },
            Noun {
                price: Some((3_000, 9_000)),
                ..noun("Visitor Chair", "A fixed-frame chair for visitors and meeting rooms.")
            },
            Noun {
                price: Some((6_000, 20_000)),
                ..noun("Ergonomic Chair", "Adjustable lumbar support, arms and seat height.")
            },
        ],
        price: (3_000, 38_000),
        sizes: NO_SIZE,
        size_in_title: false,
        materials: &["Fabric", "Leather", "Metal"],
        weight: 6,
        about: "Tested for 120 kg and eight hours a day.",
    },
    Sub {
        id: 24,
        parent: 5,
        name: "File Cabinets",
        name_bn: "ফাইল ক্যাবিনেট",
        slug: "file-cabinets",
        also: "file rack, drawer cabinet",
        prefix: "FCH",
        kind: Kind::Cabinet,
        nouns: &[
            noun("File Cabinet", "Takes A4 and legal-size hanging files."),
            noun("Office Cabinet", "Adjustable shelves behind lockable doors."),
        ],
        price: (7_000, 32_000),
        sizes: STD,
        size_in_title: false,
        materials: &["Metal", "Engineered Wood"],
        weight: 3,
        about: "One key locks every door and drawer.",
    },
    Sub {
        id: 25,
        parent: 6,
        name: "Kids Beds",
        name_bn: "শিশুদের খাট",
        slug: "kids-beds",
        also: "baby bed, cot, bunk bed, toddler bed",
        prefix: "KBH",
        kind: Kind::Bed,
        nouns: &[
            noun("Kids Bed", "Rounded corners and a low height for small climbers."),
            noun(
                "Kids Storage Bed",
                "Two drawers under the bed hold toys and bedding.",
            ),
            noun(
                "Kids Bed with Guard Rail",
                "A guard rail on one side stops a sleeping child from rolling out.",
            ),
        ],
        price: (14_000, 60_000),
        sizes: KIDS_BED_SIZES,
        size_in_title: true,
        materials: &["Segun Wood", "Oak", "Engineered Wood"],
        weight: 4,
        about: "Finished with lead-free paints and lacquers that are safe for children.",
    },
    Sub {
        id: 26,
        parent: 6,
        name: "Study Tables",
        name_bn: "পড়ার টেবিল",
        slug: "study-tables",
        also: "reading table, homework desk",
        prefix: "STH",
        kind: Kind::Desk,
        nouns: &[
            noun("Study Table", "A drawer and a book shelf within reach."),
            noun("Reading Table", "A slim reading table for a corner of the room."),
            noun("Kids Desk", "A desk sized for children from six to twelve."),
        ],
        price: (4_000, 22_000),
        sizes: STD,
        size_in_title: false,
        materials: &["Segun Wood", "Oak", "Engineered Wood"],
        weight: 4,
        about: "The top is wide enough for a laptop and an open textbook.",
    },
    Sub {
        id: 27,
        parent: 6,
        name: "Kids Chairs",
        name_bn: "শিশুদের চেয়ার",
        slug: "kids-chairs",
        also: "baby chair",
        prefix: "KCH",
        kind: Kind::Chair,
        nouns: &[
            noun("Kids Chair", "Light enough for a child to move."),
            noun("Study Chair", "The right height for a study table."),
        ],
        price: (1_500, 7_000),
        sizes: NO_SIZE,
        size_in_title: false,
        materials: &["Segun Wood", "Oak", "Metal"],
        weight: 2,
        about: "Rounded edges and a wide base that does not tip.",
    },
    Sub {
        id: 28,
        parent: 7,
        name: "Wall Decor",
        name_bn: "দেয়াল সজ্জা",
        slug: "wall-decor",
        also: "wall mirror, wall frame, wall art",
        prefix: "WDC",
        kind: Kind::Decor,
        nouns: &[
            noun("Wall Mirror", "A framed mirror for the living room or the hall."),
            noun("Framed Mirror", "A mirror in a broad frame that makes a small room look larger."),
            noun("Hallway Mirror", "A tall mirror for a last look before leaving home."),
        ],
        price: (1_200, 12_000),
        sizes: STD,
        size_in_title: false,
        materials: &["Segun Wood", "Metal"],
        weight: 3,
        about: "Comes with wall hooks and screws; the glass is 5 mm with a safety backing.",
    },
    Sub {
        id: 29,
        parent: 7,
        name: "Lamps",
        name_bn: "বাতি",
        slug: "lamps",
        also: "light, floor lamp, night lamp",
        prefix: "LMP",
        kind: Kind::Lamp,
        nouns: &[
            noun("Floor Lamp", "A fabric shade over an E27 holder (bulb not included)."),
            noun("Reading Floor Lamp", "A tall lamp that lights a chair for reading."),
            noun("Standing Lamp", "Soft light for a corner of the room."),
        ],
        price: (1_500, 18_000),
        sizes: NO_SIZE,
        size_in_title: false,
        materials: &["Metal", "Segun Wood"],
        weight: 3,
        about: "Wired for 220 V with a foot switch on the cable.",
    },
    Sub {
        id: 30,
        parent: 7,
        name: "Cushions and Rugs",
        name_bn: "কুশন ও কার্পেট",
        slug: "cushions-and-rugs",
        also: "carpet, mat, galicha, shotoronji, floor cushion, pillow",
        prefix: "CRG",
        kind: Kind::Rug,
        nouns: &[
            Noun {
                material: Some("Fabric"),
                ..noun("Area Rug", "A woven rug with a bordered field and a central medallion.")
            },
            Noun {
                material: Some("Fabric"),
                ..noun("Woven Rug", "Hand-finished fringes at both ends.")
            },
            Noun {
                material: Some("Fabric"),
                ..noun("Living Room Rug", "Sized to sit under a sofa and a centre table.")
            },
        ],
        price: (900, 9_000),
        sizes: RUG_SIZES,
        size_in_title: true,
        materials: &["Fabric"],
        weight: 2,
        about: "Woven in Rangpur; an anti-slip underlay is sold separately.",
    },
];

/// The colours (indexes into [`COLOURS`]) a material comes in.
pub(super) fn material_colours(material: &str) -> &'static [usize] {
    match material {
        "Segun Wood" => &[1, 0, 2],
        "Mahogany" => &[0, 2],
        "Oak" => &[1, 3, 0],
        "Engineered Wood" => &[0, 3, 4, 2],
        "Metal" => &[6, 4, 3],
        "Fabric" => &[4, 5, 7],
        "Leather" => &[2, 6, 7],
        _ => &[0],
    }
}

/// The finishes a material comes in.
fn material_finishes(material: &str) -> &'static [&'static str] {
    match material {
        "Segun Wood" | "Mahogany" | "Oak" => &["Matte", "Glossy", "Lacquer"],
        "Engineered Wood" => &["Matte", "Glossy", "Veneer"],
        "Metal" => &["Powder Coated", "Matte"],
        "Fabric" => &["Woven", "Velvet"],
        _ => &["Matte", "Glossy"],
    }
}

/// The warranty of a product of `kind` in `material` (the warranty page
/// says the same).
pub(super) fn warranty(kind: Kind, material: &str) -> &'static str {
    match (kind, material) {
        (Kind::Rug, _) => "6 months against manufacturing defects",
        (_, "Segun Wood" | "Mahogany" | "Oak") => {
            "5 years on the wooden frame (termites included), 1 year on fittings"
        }
        (_, "Engineered Wood") => "2 years on the board and fittings",
        (_, "Metal") => "3 years against rust and broken welds",
        _ => "3 years on the frame, 1 year on the upholstery",
    }
}

/// How to look after a product made of `material`.
pub(super) fn care(material: &str) -> &'static str {
    match material {
        "Segun Wood" | "Mahogany" | "Oak" => "Dust with a soft dry cloth and wipe spills at once. Keep it a hand's width from damp walls and out of strong sun; polish twice a year.",
        "Engineered Wood" => "Wipe with a damp, well-wrung cloth and dry at once; never leave water standing on the edges.",
        "Metal" => "Wipe with a damp cloth and dry; no abrasive cleaners.",
        "Fabric" => "Vacuum once a week and blot spills at once; have stains cleaned professionally.",
        _ => "Dust with a dry cloth, condition the leather every six months, and keep it out of strong sun.",
    }
}

/// A size's measurements, when it has standard ones.
pub(super) fn dimensions(size: &str) -> Option<&'static str> {
    Some(match size {
        "Toddler" => "mattress 54 x 30 in (4.5 x 2.5 ft)",
        "Single" => "mattress 78 x 42 in (6.5 x 3.5 ft)",
        "Semi-Double" => "mattress 78 x 48 in (6.5 x 4 ft)",
        "Queen" => "mattress 80 x 60 in (6.7 x 5 ft)",
        "King" => "mattress 80 x 72 in (6.7 x 6 ft)",
        "2 Seater" => "W 60 x D 33 x H 34 in",
        "3 Seater" => "W 84 x D 33 x H 34 in",
        "3+2+1 Set" => "a 3-seater (W 84 in), a 2-seater (W 60 in) and an armchair (W 36 in)",
        "L-Shape" => "W 110 x 72 in along the two sides",
        "4 Seater" => "table top 48 x 30 in",
        "6 Seater" => "table top 66 x 36 in",
        "8 Seater" => "table top 84 x 40 in",
        "2 Door" => "W 36 x D 22 x H 78 in",
        "3 Door" => "W 54 x D 22 x H 78 in",
        "4 Door" => "W 72 x D 22 x H 78 in",
        _ => return None,
    })
}

/// How a size reads in a product's name.
fn size_phrase(size: &str) -> &str {
    match size {
        "Queen" => "Queen Size",
        "King" => "King Size",
        "3+2+1 Set" => "3+2+1",
        other => other,
    }
}

/// The sub-categories a product may also be listed in (besides its own),
/// when its size and material belong there too: a single bed is also a kids'
/// bed, a computer table also a study table.
const ALSO_LISTED: [(i64, i64); 4] = [(10, 25), (25, 10), (22, 26), (26, 22)];

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

/// Attribute (id, label, field name) and its values (values added later
/// come last, so that earlier ids stay; colours are [`COLOURS`]' names).
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
            "Black",
            "Beige",
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
            "Toddler",
            "2 Door",
            "3 Door",
            "4 Door",
            "4 x 6 ft",
            "5 x 7 ft",
            "6 x 9 ft",
        ],
    ),
    (
        4,
        "Finish",
        "finish",
        &[
            "Matte",
            "Glossy",
            "Lacquer",
            "Veneer",
            "Powder Coated",
            "Woven",
            "Velvet",
        ],
    ),
];

/// The flash sales: id, name, description, start and end relative to the
/// seeding instant (seconds). The running sale lasts 24 hours, the next one
/// a day; discounts are 10-40 % and 10-30 % (see the flash items).
pub(super) const FLASH_SALES: [(i64, &str, &str, i64, i64); 3] = [
    (
        1,
        "24-Hour Flash Sale",
        "Up to 40% off selected beds, sofas, tables and more for 24 hours, while the sale stock lasts.",
        -2 * 3600,
        22 * 3600,
    ),
    (
        2,
        "One-Day Home Sale",
        "Up to 30% off selected furniture for one day only.",
        2 * 86_400,
        3 * 86_400,
    ),
    (
        3,
        "Month-End Flash Sale",
        "25% off selected furniture for one day.",
        -40 * 86_400,
        -39 * 86_400,
    ),
];

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
    pub material: &'static str,
    pub stock: i64,
    pub seo_url: String,
    /// Index into [`COLOURS`].
    pub colour: usize,
    pub size: Option<&'static str>,
    /// Its collection, the first word of its name ([`STYLES`]).
    pub style: &'static str,
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

/// The room theme ([`images::ROOM_THEMES`]) of a top-level category.
pub(super) fn top_theme(top: i64) -> usize {
    TOPS.iter()
        .position(|t| t.0 == top)
        .unwrap_or(1)
        .min(images::ROOM_THEMES.len() - 1)
}

/// A sub-category's introduction on its listing page.
fn sub_description(s: &Sub) -> String {
    let materials: Vec<String> = s.materials.iter().map(|m| m.to_lowercase()).collect();
    let emi = if s.price.1 >= 20_000 {
        " Card instalments (EMI) on pieces from ৳20,000."
    } else {
        ""
    };
    format!(
        "{} in {}, made in our Gazipur factory, from {} to {}. {}{emi} Cash on delivery across all 64 districts.",
        s.name,
        materials.join(", "),
        taka(s.price.0),
        taka(s.price.1),
        s.about
    )
}

/// A set's pieces led by `lead`: it, then for each of `subs` a piece of its
/// collection, in its material where the collection has one.
fn set_members<'a>(
    lead: &'a Product,
    subs: &[usize],
    by_style: &HashMap<(usize, &str), Vec<&'a Product>>,
) -> Vec<&'a Product> {
    let mut members = vec![lead];
    for s in subs {
        let Some(pieces) = by_style.get(&(*s, lead.style)) else {
            continue;
        };
        let same = pieces.iter().find(|p| p.material == lead.material);
        if let Some(p) = same.or_else(|| pieces.first()) {
            members.push(p);
        }
    }
    members
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
    // A category's pictures show its own kind of furniture (front views, in
    // the colours that kind comes in).
    let furniture_img = |kind: Kind, n: usize| {
        let colours = images::kind_colours(kind);
        image_id(pool.views(kind, colours[n % colours.len()])[0])
    };
    cats.push(row![1, "Products", "পণ্য", "products", "All furniture", "Furniture online in Bangladesh", "Beds, sofas, dining and office furniture", "Cash on delivery and EMI", "Delivered across all 64 districts", "product", 0, 0, "Every product of the shop: bedroom, living, dining, office, kids and home decor furniture, delivered across Bangladesh.", "furniture, bangladesh", None::<i64>, false, true, 3, None::<i64>, None::<i64>, image_id(pool.banners[0])]);
    for (pos, (id, name, bn, slug)) in TOPS.iter().enumerate() {
        let kind = SUBS
            .iter()
            .find(|s| s.parent == *id)
            .map_or(Kind::Decor, |s| s.kind);
        let names: Vec<String> = SUBS
            .iter()
            .filter(|s| s.parent == *id)
            .map(|s| s.name.to_lowercase())
            .collect();
        let description = format!(
            "{name} furniture made in our Gazipur factory: {}. Stocked pieces arrive within 72 hours, with cash on delivery across all 64 districts.",
            names.join(", ")
        );
        cats.push(row![
            *id,
            *name,
            *bn,
            *slug,
            format!("{name} furniture"),
            format!("Buy {name} furniture online in Bangladesh"),
            format!("{name} furniture"),
            format!("{name} furniture price in Bangladesh"),
            format!("Why buy {} furniture from us", name.to_lowercase()),
            "product",
            pos as i64,
            pos as i64,
            description,
            format!("{}, furniture", name.to_lowercase()),
            1,
            true,
            true,
            2,
            furniture_img(kind, pos),
            furniture_img(kind, pos + 1),
            image_id(pool.banners[pos % pool.banners.len()])
        ]);
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
            sub_description(s),
            format!("{}, {}", s.slug.replace('-', " "), s.also),
            s.parent,
            false,
            false,
            1,
            furniture_img(s.kind, pos),
            furniture_img(s.kind, pos + 2),
            image_id(pool.banners[top_theme(s.parent)])
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
        image_id(pool.room(1, 0)),
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
            image_id(pool.room(pos, 1)),
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
    let mut value_ids: Vec<Vec<(i64, &'static str)>> = Vec::new();
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
    let mut videos = Table::new(
        "product_video",
        &["product_id", "url", "title", "poster_image_id"],
    );
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
    let value_id = |attr: usize, name: &str| -> (i64, &'static str) {
        value_ids[attr]
            .iter()
            .copied()
            .find(|(_, v)| *v == name)
            .unwrap_or_else(|| panic!("{name} is a value of attribute {}", attr + 1))
    };
    let mut names_taken: std::collections::HashSet<(String, String)> =
        std::collections::HashSet::with_capacity(options.products as usize);
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
        let noun = sub.nouns.choose(rng).unwrap_or(&sub.nouns[0]);
        // The material: the one the name states, else one of the category's.
        let mut material = sub.materials.choose(rng).copied().unwrap_or("Segun Wood");
        if let Some(m) = noun.material {
            material = m;
        }
        let material_v = value_id(0, material);
        // The colour and the finish follow the material: no "Royal Blue"
        // mahogany, no lacquered fabric.
        let colours = material_colours(material);
        let colour_idx = colours[rng.gen_range(0..COLOURS.len()) % colours.len()];
        let colour = value_id(1, COLOURS[colour_idx].0);
        let sizes = if noun.sizes.is_empty() {
            sub.sizes
        } else {
            noun.sizes
        };
        let size_pos = if sizes.is_empty() {
            0
        } else {
            rng.gen_range(0..sizes.len())
        };
        let size_name = sizes.get(size_pos).copied();
        let size = size_name.map(|s| value_id(2, s));
        let finishes = material_finishes(material);
        let finish_name = finishes[rng.gen_range(0..4_usize) % finishes.len()];
        let finish = value_id(3, finish_name);
        let name_in = |style: &str| {
            let mut title = String::from(style);
            if let (Some(s), true) = (size_name, sub.size_in_title) {
                title.push(' ');
                title.push_str(size_phrase(s));
            }
            if noun.material.is_none() {
                title.push(' ');
                title.push_str(material);
            }
            title.push(' ');
            title.push_str(noun.name);
            title
        };
        let sub_title = match size {
            Some(s) => format!("{} | {} | {}", colour.1, s.1, finish.1),
            None => format!("{} | {}", colour.1, finish.1),
        };
        // No two products alike (the same name and the same colour, size
        // and finish): a piece that would repeat one belongs to the next
        // collection whose name is still free, while one is (at 100,000
        // products some names must repeat).
        let start = STYLES.iter().position(|s| *s == style).unwrap_or(0);
        let style = (0..STYLES.len())
            .map(|k| STYLES[(start + k) % STYLES.len()])
            .find(|s| !names_taken.contains(&(name_in(s), sub_title.clone())))
            .unwrap_or(style);
        let title = name_in(style);
        names_taken.insert((title.clone(), sub_title.clone()));
        // A larger size costs more: the price falls in the size's share of the range.
        let (low, high) = noun.price.unwrap_or(sub.price);
        let base = rng.gen_range(low..=high);
        let base = if sizes.len() > 1 {
            let t = (base - low) as f64 / (high - low).max(1) as f64;
            low + ((high - low) as f64 * (size_pos as f64 + t) / sizes.len() as f64) as i64
        } else {
            base
        };
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
        let warranty_text = warranty(sub.kind, material);
        let short = match size_name {
            Some(s) if !sub.size_in_title => format!(
                "{title} in {} with a {} finish, {} size. Made in Bangladesh.",
                colour.1.to_lowercase(),
                finish.1.to_lowercase(),
                s.to_lowercase()
            ),
            _ => format!(
                "{title} in {} with a {} finish. Made in Bangladesh.",
                colour.1.to_lowercase(),
                finish.1.to_lowercase()
            ),
        };
        let delivery = match (pre_booking, stock > 0) {
            (true, _) => "Pre-booking: ships in 3-4 weeks",
            (false, true) => "Within 72 hours",
            (false, false) => "10-15 working days",
        };
        let delivery_note = match (pre_booking, stock > 0) {
            (true, _) => "Made to order: reserve it now with a part payment and we deliver in three to four weeks.",
            (false, true) => "In stock: delivered within 72 hours of your order (Fridays and public holidays not counted), and assembled by our team.",
            (false, false) => "Made to order: delivered in 10 to 15 working days, and assembled by our team.",
        };
        let charge_note = if price_now >= 5_000 {
            "Delivery is free anywhere in Bangladesh."
        } else if price_now >= 3_000 {
            "Delivery is free inside Dhaka; elsewhere it costs ৳300."
        } else {
            "Delivery costs ৳200 inside Dhaka and ৳300 elsewhere, free on orders from ৳3,000 inside Dhaka and ৳5,000 outside."
        };
        // The page's specifications table already lists the attributes and
        // the warranty: the description adds what the table cannot say.
        let measures = match size_name.and_then(|s| dimensions(s).map(|d| (s, d))) {
            Some((s, d)) => format!("<p>Measurements of the {s} size: {d}.</p>"),
            None => String::new(),
        };
        let description = format!(
            "<p>The {title} is made in our Gazipur factory from {} in {} with a {} finish. {} {}</p>\
             {measures}<p>{delivery_note} {charge_note}</p>",
            material.to_lowercase(),
            colour.1.to_lowercase(),
            finish.1.to_lowercase(),
            noun.about,
            sub.about,
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
            delivery,
            warranty_text,
            care(material),
            format!("{title} price in Bangladesh"),
            short.as_str(),
            created,
            created
        ]);
        product_cats.push(row![id, sub.id, true]);
        if rng.gen_bool(0.1) {
            // A second category where the product belongs too (a single bed
            // is also a kids' bed): same size and material available there.
            let other = ALSO_LISTED
                .iter()
                .filter(|(from, _)| *from == sub.id)
                .filter_map(|(_, to)| SUBS.iter().find(|s| s.id == *to))
                .find(|o| {
                    o.materials.contains(&material)
                        && size_name.is_none_or(|s| o.sizes.contains(&s))
                });
            if let Some(other) = other {
                product_cats.push(row![id, other.id, false]);
            }
        }
        // Every picture shows this piece in its own colour: the front view
        // first (the card's), then the angled view and the close-up.
        let views = pool.views(sub.kind, colour_idx);
        assert_eq!(
            views.len(),
            images::VIEWS as usize,
            "{:?} is drawn in {}",
            sub.kind,
            COLOURS[colour_idx].0
        );
        let _wanted = rng.gen_range(3..=6);
        for (k, idx) in views.iter().enumerate() {
            product_images.push(row![id, image_id(*idx), k as i64, k == 0]);
        }
        // The 360 view turns the same piece in the same colour, so only the
        // pieces drawn turning have one.
        let turns = rng.gen_bool(0.85);
        let turning = turns && pool.turn(sub.kind, colour_idx).is_some();
        if let (true, Some(turn)) = (turning, pool.turn(sub.kind, colour_idx)) {
            for (f, idx) in turn.iter().enumerate() {
                frames.push(row![id, image_id(*idx), f as i64]);
            }
        }
        // A piece that turns may have a video of it turning (its 360 frames
        // as a WebM, made by the seed; none without ffmpeg), its first
        // frame the poster.
        let wants_video = rng.gen_bool(0.3);
        if let (true, true, Some(video)) = (turning, wants_video, pool.video(sub.kind, colour_idx))
        {
            videos.push(row![
                id,
                video.url.as_str(),
                format!("{title}: a turn all round"),
                image_id(video.poster)
            ]);
        }
        if emi {
            for (bank, rates) in EMI_PLANS.iter().take(rng.gen_range(2..=EMI_PLANS.len())) {
                for (months, rate) in EMI_MONTHS.iter().zip(rates) {
                    emis.push(row![id, *bank, *months, *rate]);
                }
            }
        }
        for v in [Some(material_v), Some(colour), size, Some(finish)]
            .into_iter()
            .flatten()
        {
            product_attrs.push(row![id, v.0]);
        }
        for t in (1..=TAGS.len() as i64).filter(|_| rng.gen_bool(0.12)) {
            product_tags.push(row![id, t]);
        }
        // Products sold in several sizes vary by size; the others by colour.
        let by_size = has_variations && sizes.len() > 2 && rng.gen_bool(0.5);
        if by_size {
            for (k, (other_pos, other)) in sizes
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != size_pos)
                .take(2)
                .enumerate()
            {
                // A larger size costs more, a smaller one less.
                let step = other_pos as i64 - size_pos as i64;
                let vbefore = round_to(price_before + price_before * step / 8, 100);
                let vnow = round_to(vbefore * (100 - discount) / 100, 10).min(vbefore);
                variations.push(row![
                    id,
                    "Size",
                    *other,
                    format!("{code}-S{}", k + 1),
                    format!("{} | {} | {}", colour.1, other, finish.1),
                    vbefore,
                    vnow,
                    rng.gen_range(0..20),
                    image_id(views[1]),
                    k as i64
                ]);
            }
        } else if has_variations {
            // The other colours of the same material, each with its own photo.
            for (k, c) in colours
                .iter()
                .copied()
                .filter(|c| *c != colour_idx)
                .take(2)
                .enumerate()
            {
                let name = COLOURS[c].0;
                let vcode = format!("{code}-{}", k + 1);
                let vbefore = price_before + 500 * k as i64;
                let vnow = (price_now + 500 * k as i64).min(vbefore);
                let sub_title = match size {
                    Some(s) => format!("{name} | {} | {}", s.1, finish.1),
                    None => format!("{name} | {}", finish.1),
                };
                variations.push(row![
                    id,
                    "Colour",
                    name,
                    vcode,
                    sub_title,
                    vbefore,
                    vnow,
                    rng.gen_range(0..20),
                    image_id(pool.views(sub.kind, c)[0]),
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
            material,
            stock,
            seo_url,
            colour: colour_idx,
            size: size_name,
            style,
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
    // (name, top category, sub-categories, the sizes of its first piece
    // (empty: any), room theme and variant of its picture)
    type SetSpec = (
        &'static str,
        i64,
        &'static [usize],
        &'static [&'static str],
        usize,
        usize,
    );
    let set_specs: [SetSpec; 6] = [
        ("Bedroom Set", 2, &[0, 1, 2, 3], &[], 0, 0),
        (
            "Master Bedroom Set",
            2,
            &[0, 1, 3],
            &["Queen", "King"],
            0,
            1,
        ),
        ("Living Room Set", 3, &[4, 6, 7], &[], 1, 0),
        ("Dining Set", 4, &[9, 10, 11], &[], 2, 0),
        ("Home Office Set", 5, &[12, 13, 14], &[], 3, 0),
        ("Kids Room Set", 6, &[15, 16, 17], &[], 4, 0),
    ];
    // The products of each sub-category and collection, in id order.
    let mut by_style: HashMap<(usize, &str), Vec<&Product>> = HashMap::new();
    for p in &list {
        by_style.entry((p.sub, p.style)).or_default().push(p);
    }
    let mut fabric_id = 1;
    let mut set_styles = Vec::new();
    for (i, (name, top, subs, lead_sizes, theme, variant)) in set_specs.iter().enumerate() {
        // A set is one collection: every piece bears the set's collection
        // name. Its first piece (of the sizes the set calls for) decides the
        // collection and the material; the others match the material where
        // the collection has a piece in it. The first lead whose collection
        // has a piece of every sub-category wins, else the one with most.
        // Each set is of its own collection.
        let mut members: Vec<&Product> = Vec::new();
        for lead in list.iter().filter(|p| {
            p.sub == subs[0]
                && !set_styles.contains(&p.style)
                && (lead_sizes.is_empty() || p.size.is_some_and(|s| lead_sizes.contains(&s)))
        }) {
            let found = set_members(lead, &subs[1..], &by_style);
            if found.len() > members.len() {
                members = found;
                if members.len() == subs.len() {
                    break;
                }
            }
        }
        if members.len() < 2 {
            continue;
        }
        let id = i as i64 + 1;
        let style = members[0].style;
        set_styles.push(style);
        let title = format!("{style} {name}");
        let slug = images::slug(&title);
        let lead = members[0].material;
        let subtitle = if members.iter().all(|p| p.material == lead) {
            format!("{} pieces in {}", members.len(), lead.to_lowercase())
        } else {
            format!("{} matching pieces", members.len())
        };
        let qty_of = |p: &Product| {
            if SUBS[p.sub].kind == Kind::Chair {
                4
            } else {
                1
            }
        };
        let pieces: Vec<String> = members
            .iter()
            .map(|p| {
                let qty = qty_of(p);
                if qty > 1 {
                    format!("{qty} × {}", p.title)
                } else {
                    p.title.clone()
                }
            })
            .collect();
        sets.push(row![
            id,
            title.as_str(),
            subtitle,
            slug.as_str(),
            *top,
            image_id(pool.room(*theme, *variant)),
            format!(
                "<p>The {title} brings together pieces chosen to be used side by side: {}. Upholstered parts come in the fabric you choose below.</p>",
                pieces.join(", ")
            ),
            "The set's price is the sum of its pieces' prices today"
        ]);
        for (k, p) in members.iter().enumerate() {
            set_items.push(row![id, p.id, qty_of(p), k as i64]);
        }
        for k in 0..rng.gen_range(2..=4) {
            let f = (i + k) % FABRICS.len();
            let swatch = pool.swatches[f];
            fabrics.push(row![
                fabric_id,
                id,
                FABRICS[f].0,
                image_id(swatch),
                k as i64
            ]);
            fabric_images.push(row![fabric_id, image_id(swatch), 0]);
            fabric_id += 1;
        }
        let sizes: Vec<String> = members
            .iter()
            .map(|p| format!("<li>{}: {}</li>", p.title, p.sub_title.replace(" | ", ", ")))
            .collect();
        let infos = [
            ("Sizes", format!("<ul>{}</ul>", sizes.join(""))),
            (
                "Care",
                format!("<p>{} Vacuum upholstered parts once a week.</p>", care(lead)),
            ),
            (
                "Delivery",
                "<p>Every piece arrives together, assembled by our team: within 72 hours when all are in stock, else in 10 to 15 working days. Delivery is free on orders from ৳5,000.</p>".to_string(),
            ),
        ];
        for (k, (t, d)) in infos.iter().enumerate() {
            set_infos.push(row![id, *t, "", d.as_str(), k as i64]);
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

    // Flash sales: one running now, one starting in two days, one over. Their
    // names and descriptions say nothing the schedule contradicts (no
    // weekday, no holiday, no "until midnight"): see [`FLASH_SALES`].
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
    for (id, name, description, starts, ends) in FLASH_SALES {
        schedules.push(row![
            id,
            name,
            description,
            now + starts,
            now + ends,
            true,
            true
        ]);
    }
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
