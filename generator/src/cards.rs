//! The product card as pages show it, from `catalog::read::cards` (the one
//! card query the API uses too).

use catalog::read::ProductCard;

use crate::format::{image_url, srcset, taka};

/// Widths offered for a card image: half a phone screen to a quarter of a desktop.
pub const CARD_WIDTHS: [u32; 2] = [200, 400];

/// A card ready for a template.
#[derive(Debug, Clone)]
pub struct CardView {
    pub id: i64,
    pub href: String,
    pub title: String,
    pub sub_title: String,
    pub price: String,
    /// The list price when it is higher than the price paid.
    pub before: Option<String>,
    pub off: i64,
    pub src: Option<String>,
    pub srcset: String,
}

impl CardView {
    /// A card from the shared card row.
    pub fn from_card(c: &ProductCard) -> CardView {
        let (src, set) = match &c.first_image {
            Some(img) => (
                Some(image_url(&img.full_size_directory, 400)),
                srcset(&img.full_size_directory, &CARD_WIDTHS, 0),
            ),
            None => (None, String::new()),
        };
        CardView {
            id: c.id,
            href: format!("/product/{}", c.seo_url),
            title: c.title.clone(),
            sub_title: c.sub_title.clone(),
            price: taka(c.product_price_now),
            before: (c.local_selling_price > c.product_price_now)
                .then(|| taka(c.local_selling_price)),
            off: c.local_discount,
            src,
            srcset: set,
        }
    }
}

/// Widths offered for a tile or banner image.
pub const TILE_WIDTHS: [u32; 3] = [200, 400, 800];

/// A linked picture with a title: posts, galleries, product sets, tag tiles.
#[derive(Debug, Clone)]
pub struct Tile {
    pub href: String,
    pub title: String,
    pub sub: String,
    pub src: Option<String>,
    pub srcset: String,
    /// The picture's height at the tile's width of 400 (300: a 4:3 picture,
    /// the tiles' usual shape); the tile keeps the picture's shape.
    pub height: u32,
}

impl Tile {
    /// A tile linking to `href` with a stored picture.
    pub fn new(href: String, title: &str, sub: &str, image: Option<&str>) -> Tile {
        Tile {
            href,
            title: title.to_string(),
            sub: sub.to_string(),
            src: image.map(|p| image_url(p, 400)),
            srcset: image
                .map(|p| srcset(p, &TILE_WIDTHS, 0))
                .unwrap_or_default(),
            height: 300,
        }
    }

    /// The tile shaped as its picture of `width` x `height` pixels (a
    /// square drawing stays square, a wide banner wide): nothing of it is
    /// cut off. Unknown sizes keep 4:3.
    pub fn sized(mut self, width: i64, height: i64) -> Tile {
        if width > 0 && height > 0 {
            self.height = (400 * height / width).clamp(100, 800) as u32;
        }
        self
    }
}
