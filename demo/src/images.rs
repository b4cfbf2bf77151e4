//! The demo catalogue's images, drawn by code: furniture silhouettes in wood
//! and fabric colours on a soft background, room scenes, banners, fabric
//! swatches, and the 36 frames of a turning piece for the 360 viewer.
//!
//! A fixed pool is drawn once and shared by every product, so the catalogue
//! scales to 100,000 products without 500,000 files. Files that already exist
//! with the right dimensions are kept, so seeding a second database into the
//! same storage is fast, and drawings are shared between storage folders
//! through a cache folder (see [`make_pool_cached`]). Drawing is
//! deterministic: the pool depends on nothing but the code ([`POOL_VERSION`]).

use std::path::{Path, PathBuf};

use anyhow::Context;
use image::codecs::jpeg::JpegEncoder;
use image::{imageops, Rgb, RgbImage};
use rayon::prelude::*;

/// What a picture shows; products use the pool of their category's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Bed,
    Sofa,
    Table,
    Chair,
    Wardrobe,
    Showcase,
    Cabinet,
    Desk,
    Lamp,
    Decor,
}

/// Every furniture kind, in pool order.
pub const KINDS: [Kind; 10] = [
    Kind::Bed,
    Kind::Sofa,
    Kind::Table,
    Kind::Chair,
    Kind::Wardrobe,
    Kind::Showcase,
    Kind::Cabinet,
    Kind::Desk,
    Kind::Lamp,
    Kind::Decor,
];

/// Wood and fabric colours, with the names the catalogue gives them.
pub const COLOURS: [(&str, [u8; 3]); 6] = [
    ("Walnut", [110, 72, 44]),
    ("Natural Teak", [176, 124, 74]),
    ("Dark Brown", [74, 48, 32]),
    ("White", [222, 214, 200]),
    ("Grey", [128, 128, 132]),
    ("Royal Blue", [48, 72, 140]),
];

/// Part of every pool file name: bump it when the drawing changes, so a
/// storage directory seeded by older code does not keep stale pictures.
pub const POOL_VERSION: u32 = 4;

/// Views of each kind and colour in the pool (front, angled).
pub const VIEWS: u32 = 2;
/// Frames of a 360-degree turn.
pub const FRAMES: u32 = 36;

/// One image file written to storage, as the `image_file` table records it.
#[derive(Debug, Clone)]
pub struct ImageFile {
    /// e.g. `bed-walnut-1.jpg`
    pub filename: String,
    /// `storage/uploads/fullsize/...`
    pub full: String,
    /// `storage/uploads/icon/...`
    pub icon: String,
    pub size: u64,
    pub width: u32,
    pub height: u32,
}

/// What a job draws.
#[derive(Debug, Clone)]
enum Job {
    Furniture {
        kind: Kind,
        colour: usize,
        view: u32,
    },
    Frame {
        kind: Kind,
        frame: u32,
    },
    Banner {
        n: u32,
    },
    Room {
        n: u32,
    },
    Swatch {
        n: u32,
    },
}

/// The drawn pool, by purpose. Indexes into `files`.
#[derive(Debug, Clone, Default)]
pub struct Pool {
    pub files: Vec<ImageFile>,
    /// `furniture[kind index]` = the pool images of that kind (all colours and views).
    pub furniture: Vec<Vec<usize>>,
    /// Turn frames of a sofa and of a chair, 36 each, in order.
    pub turns: Vec<Vec<usize>>,
    pub banners: Vec<usize>,
    pub rooms: Vec<usize>,
    pub swatches: Vec<usize>,
}

/// Full-size product pictures are square, `FULL` pixels a side.
pub const FULL: u32 = 1000;
/// Icons (thumbnails) are `ICON` pixels wide (square for square pictures).
pub const ICON: u32 = 300;
/// 360 frames are square, `FRAME` pixels a side.
pub const FRAME: u32 = 600;
const BANNER: (u32, u32) = (1200, 450);

/// The shared drawing cache: `$SEED_IMAGE_CACHE` (empty: none), else a
/// folder in the system's temp dir. File names carry [`POOL_VERSION`].
pub fn default_cache_dir() -> Option<PathBuf> {
    match std::env::var_os("SEED_IMAGE_CACHE") {
        Some(dir) if dir.is_empty() => None,
        Some(dir) => Some(PathBuf::from(dir)),
        None => Some(std::env::temp_dir().join("furniture-shop-image-pool")),
    }
}

/// Draws (or finds) the whole pool under `storage_dir/uploads/`, sharing
/// drawings through [`default_cache_dir`].
pub fn make_pool(storage_dir: &Path) -> anyhow::Result<Pool> {
    make_pool_cached(storage_dir, default_cache_dir().as_deref())
}

/// Draws (or finds) the whole pool under `storage_dir/uploads/`. A picture
/// missing there is copied from `cache` when the cache has it,
/// else drawn and then left in the cache too: every test binary seeds a
/// fresh temp dir, and drawing the pool costs seconds of a shared CPU.
pub fn make_pool_cached(storage_dir: &Path, cache: Option<&Path>) -> anyhow::Result<Pool> {
    let mut jobs = Vec::new();
    for kind in KINDS {
        for colour in 0..COLOURS.len() {
            for view in 0..VIEWS {
                jobs.push(Job::Furniture { kind, colour, view });
            }
        }
    }
    for kind in [Kind::Sofa, Kind::Chair] {
        for frame in 0..FRAMES {
            jobs.push(Job::Frame { kind, frame });
        }
    }
    jobs.extend((0..6).map(|n| Job::Banner { n }));
    jobs.extend((0..12).map(|n| Job::Room { n }));
    jobs.extend((0..8).map(|n| Job::Swatch { n }));

    let full_dir = storage_dir.join("uploads/fullsize");
    let icon_dir = storage_dir.join("uploads/icon");
    for d in [&full_dir, &icon_dir] {
        std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
    }
    // The cache is best effort: without it everything is simply drawn.
    let cache_dirs = cache
        .map(|c| (c.join("fullsize"), c.join("icon")))
        .filter(|(f, i)| std::fs::create_dir_all(f).is_ok() && std::fs::create_dir_all(i).is_ok());
    let cache_dirs = cache_dirs.as_ref().map(|(f, i)| (f.as_path(), i.as_path()));
    let files: Vec<ImageFile> = jobs
        .par_iter()
        .map(|job| draw_job(job, &full_dir, &icon_dir, cache_dirs))
        .collect::<anyhow::Result<_>>()?;

    let mut pool = Pool {
        furniture: vec![Vec::new(); KINDS.len()],
        turns: vec![Vec::new(); 2],
        ..Pool::default()
    };
    for (i, job) in jobs.iter().enumerate() {
        match job {
            Job::Furniture { kind, .. } => pool.furniture[kind_index(*kind)].push(i),
            Job::Frame { kind, .. } => pool.turns[usize::from(*kind == Kind::Chair)].push(i),
            Job::Banner { .. } => pool.banners.push(i),
            Job::Room { .. } => pool.rooms.push(i),
            Job::Swatch { .. } => pool.swatches.push(i),
        }
    }
    pool.files = files;
    Ok(pool)
}

/// The position of a kind in [`KINDS`].
pub fn kind_index(kind: Kind) -> usize {
    KINDS
        .iter()
        .position(|k| *k == kind)
        .expect("every kind is listed in KINDS")
}

fn kind_slug(kind: Kind) -> &'static str {
    match kind {
        Kind::Bed => "bed",
        Kind::Sofa => "sofa",
        Kind::Table => "table",
        Kind::Chair => "chair",
        Kind::Wardrobe => "wardrobe",
        Kind::Showcase => "showcase",
        Kind::Cabinet => "cabinet",
        Kind::Desk => "desk",
        Kind::Lamp => "lamp",
        Kind::Decor => "decor",
    }
}

fn draw_job(
    job: &Job,
    full_dir: &Path,
    icon_dir: &Path,
    cache: Option<(&Path, &Path)>,
) -> anyhow::Result<ImageFile> {
    let (name, quality) = match job {
        Job::Furniture { kind, colour, view } => (
            format!(
                "{}-{}-{}.jpg",
                kind_slug(*kind),
                slug(COLOURS[*colour].0),
                view + 1
            ),
            80,
        ),
        Job::Frame { kind, frame } => {
            (format!("360-{}-{:02}.jpg", kind_slug(*kind), frame + 1), 72)
        }
        Job::Banner { n } => (format!("banner-{}.jpg", n + 1), 78),
        Job::Room { n } => (format!("room-{}.jpg", n + 1), 78),
        Job::Swatch { n } => (format!("fabric-{}.jpg", n + 1), 80),
    };
    let name = name.replace(".jpg", &format!("-v{POOL_VERSION}.jpg"));
    let full_path = full_dir.join(&name);
    let icon_path = icon_dir.join(&name);
    let (width, height) = match job {
        Job::Frame { .. } => (FRAME, FRAME),
        Job::Banner { .. } => BANNER,
        Job::Room { .. } => (FULL, FULL * 3 / 4),
        Job::Swatch { .. } => (ICON * 2, ICON * 2),
        _ => (FULL, FULL),
    };
    let icon_size = (ICON, (ICON * height / width).max(1));
    // A file from an earlier seed is kept when both sizes still decode to the
    // right dimensions (reading the header only), so re-seeding is fast.
    let fits = |full: &Path, icon: &Path| {
        image::image_dimensions(full).ok() == Some((width, height))
            && image::image_dimensions(icon).ok() == Some(icon_size)
    };
    let cached = cache.map(|(f, i)| (f.join(&name), i.join(&name)));
    let from_cache = !fits(&full_path, &icon_path)
        && match &cached {
            Some((f, i)) if fits(f, i) => {
                copy_file(f, &full_path)?;
                copy_file(i, &icon_path)?;
                true
            }
            _ => false,
        };
    let existing = std::fs::metadata(&full_path)
        .ok()
        .filter(|_| from_cache || fits(&full_path, &icon_path));
    let size = match existing {
        Some(meta) => meta.len(),
        None => {
            let img = match job {
                Job::Furniture { kind, colour, view } => {
                    furniture(*kind, COLOURS[*colour].1, *view, FULL)
                }
                Job::Frame { kind, frame } => turn_frame(*kind, *frame, FRAME),
                Job::Banner { n } => banner(*n),
                Job::Room { n } => room(*n),
                Job::Swatch { n } => swatch(*n),
            };
            let mut img = img;
            // Fine sensor-like noise: flat colours would make 15 KB files that
            // no product photo ever is, and the pages' byte budgets should be
            // measured against realistic images.
            grain(&mut img, name.bytes().map(u32::from).sum());
            debug_assert_eq!((img.width(), img.height()), (width, height));
            let bytes = encode_jpeg(&img, quality)?;
            // Shapes are drawn again at icon size: far cheaper than resampling.
            let mut icon = match job {
                Job::Furniture { kind, colour, view } => {
                    furniture(*kind, COLOURS[*colour].1, *view, ICON)
                }
                Job::Frame { kind, frame } => turn_frame(*kind, *frame, ICON),
                _ => imageops::resize(
                    &img,
                    icon_size.0,
                    icon_size.1,
                    imageops::FilterType::Triangle,
                ),
            };
            grain(&mut icon, 1);
            debug_assert_eq!((icon.width(), icon.height()), icon_size);
            let icon_bytes = encode_jpeg(&icon, 75)?;
            write_file(&full_path, &bytes)?;
            write_file(&icon_path, &icon_bytes)?;
            if let Some((f, i)) = &cached {
                // Best effort: a read-only or full cache only costs a redraw later.
                let _ = copy_file(&full_path, f).and_then(|()| copy_file(&icon_path, i));
            }
            bytes.len() as u64
        }
    };
    Ok(ImageFile {
        full: format!("storage/uploads/fullsize/{name}"),
        icon: format!("storage/uploads/icon/{name}"),
        filename: name,
        size,
        width,
        height,
    })
}

fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    // Write then rename, so a concurrent seed into the same storage never sees half a file.
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))
}

/// Puts a copy of `from` at `to`, atomically: a concurrent reader sees the
/// old file or the new one. A copy, not a hard link: a file later edited in
/// place in one storage folder must not change the cache or other shops.
fn copy_file(from: &Path, to: &Path) -> anyhow::Result<()> {
    let tmp = to.with_extension(format!("copy{}", std::process::id()));
    std::fs::copy(from, &tmp)
        .with_context(|| format!("copying {} to {}", from.display(), tmp.display()))?;
    std::fs::rename(&tmp, to).with_context(|| format!("renaming to {}", to.display()))
}

fn encode_jpeg(img: &RgbImage, quality: u8) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, quality)
        .encode_image(img)
        .context("encoding a JPEG")?;
    Ok(out)
}

/// A lower-case slug: letters and digits, words joined by '-'.
pub fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

// ---- drawing ----

fn shade(c: [u8; 3], f: f32) -> Rgb<u8> {
    let s = |v: u8| (v as f32 * f).clamp(0.0, 255.0) as u8;
    Rgb([s(c[0]), s(c[1]), s(c[2])])
}

fn background(w: u32, h: u32, top: [u8; 3], bottom: [u8; 3]) -> RgbImage {
    RgbImage::from_fn(w, h, |_, y| {
        let t = y as f32 / h as f32;
        let mix = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * t) as u8;
        Rgb([
            mix(top[0], bottom[0]),
            mix(top[1], bottom[1]),
            mix(top[2], bottom[2]),
        ])
    })
}

/// A cheap integer hash, for noise that depends on nothing but its inputs.
fn hash(x: u32, y: u32, seed: u32) -> u32 {
    let mut h =
        x.wrapping_mul(0x9E37_79B1) ^ y.wrapping_mul(0x85EB_CA77) ^ seed.wrapping_mul(0xC2B2_AE3D);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    h
}

/// Adds a little per-pixel noise (±3 levels) to the whole picture.
fn grain(img: &mut RgbImage, seed: u32) {
    for (x, y, p) in img.enumerate_pixels_mut() {
        let d = (hash(x, y, seed) % 7) as i16 - 3;
        for v in &mut p.0 {
            *v = (i16::from(*v) + d).clamp(0, 255) as u8;
        }
    }
}

/// Fills a rectangle given in fractions of the image size, with a faint
/// wood-grain (or weave) streak so that surfaces do not look flat.
fn rect(img: &mut RgbImage, x0: f32, y0: f32, x1: f32, y1: f32, c: Rgb<u8>) {
    let (w, h) = (img.width() as f32, img.height() as f32);
    let (ax, bx) = (
        (x0.min(x1) * w).max(0.0) as u32,
        (x0.max(x1) * w).min(w) as u32,
    );
    let (ay, by) = (
        (y0.min(y1) * h).max(0.0) as u32,
        (y0.max(y1) * h).min(h) as u32,
    );
    for y in ay..by {
        for x in ax..bx {
            let (fx, fy) = (x as f32, y as f32);
            let wave = 4.0 * (fx / 97.0).sin() + 1.5 * (fx / 23.0).sin();
            let streak = 1.0 + 0.04 * ((fy + wave) / 1.9).sin() * (0.6 + 0.4 * (fy / 13.0).sin());
            let tone = |v: u8| (f32::from(v) * streak).clamp(0.0, 255.0) as u8;
            img.put_pixel(x, y, Rgb([tone(c[0]), tone(c[1]), tone(c[2])]));
        }
    }
}

/// Fills an ellipse given by centre and radii in fractions of the image size.
fn ellipse(img: &mut RgbImage, cx: f32, cy: f32, rx: f32, ry: f32, c: Rgb<u8>) {
    let (w, h) = (img.width() as f32, img.height() as f32);
    let (cx, cy, rx, ry) = (cx * w, cy * h, (rx * w).max(1.0), (ry * h).max(1.0));
    let (y0, y1) = (
        (cy - ry).max(0.0) as u32,
        ((cy + ry) as u32).min(img.height()),
    );
    let (x0, x1) = (
        (cx - rx).max(0.0) as u32,
        ((cx + rx) as u32).min(img.width()),
    );
    for y in y0..y1 {
        for x in x0..x1 {
            let dx = (x as f32 - cx) / rx;
            let dy = (y as f32 - cy) / ry;
            if dx * dx + dy * dy <= 1.0 {
                img.put_pixel(x, y, c);
            }
        }
    }
}

/// The soft studio backdrop of product pictures.
fn studio(size: u32) -> RgbImage {
    background(size, size, [246, 243, 238], [226, 220, 210])
}

/// Pastes a product picture onto `dst` at (x, y) without its studio
/// backdrop, so a piece stands in a room or on a banner (its shadow stays).
fn cut_out(dst: &mut RgbImage, piece: &RgbImage, x: u32, y: u32) {
    let backdrop = studio(piece.width());
    for (px, py, p) in piece.enumerate_pixels() {
        let (dx, dy) = (x + px, y + py);
        if dx < dst.width() && dy < dst.height() && backdrop.get_pixel(px, py) != p {
            dst.put_pixel(dx, dy, *p);
        }
    }
}

/// A piece of furniture of `kind` in colour `c`; `view` 1 is drawn a little
/// narrower and lower, as seen from an angle.
fn furniture(kind: Kind, c: [u8; 3], view: u32, size: u32) -> RgbImage {
    let mut img = studio(size);
    let s = if view == 0 { 1.0 } else { 0.85 };
    let dx = if view == 0 { 0.0 } else { 0.06 };
    let x = |v: f32| 0.5 + (v - 0.5) * s + dx;
    ellipse(&mut img, x(0.5), 0.86, 0.40 * s, 0.04, Rgb([200, 194, 184]));
    let (base, dark, light) = (shade(c, 1.0), shade(c, 0.7), shade(c, 1.25));
    match kind {
        Kind::Bed => {
            rect(&mut img, x(0.12), 0.30, x(0.20), 0.84, dark); // headboard post
            rect(&mut img, x(0.12), 0.30, x(0.88), 0.50, base); // headboard
            rect(&mut img, x(0.12), 0.58, x(0.88), 0.74, base); // frame
            rect(&mut img, x(0.14), 0.52, x(0.86), 0.60, Rgb([245, 245, 240])); // mattress
            rect(&mut img, x(0.18), 0.47, x(0.36), 0.53, Rgb([250, 250, 250])); // pillow
            rect(&mut img, x(0.64), 0.47, x(0.82), 0.53, Rgb([250, 250, 250]));
            rect(&mut img, x(0.14), 0.74, x(0.18), 0.84, dark);
            rect(&mut img, x(0.82), 0.74, x(0.86), 0.84, dark);
        }
        Kind::Sofa => {
            rect(&mut img, x(0.14), 0.38, x(0.86), 0.58, base); // back
            rect(&mut img, x(0.10), 0.50, x(0.20), 0.76, dark); // arms
            rect(&mut img, x(0.80), 0.50, x(0.90), 0.76, dark);
            rect(&mut img, x(0.20), 0.58, x(0.50), 0.70, light); // cushions
            rect(&mut img, x(0.50), 0.58, x(0.80), 0.70, light);
            rect(&mut img, x(0.16), 0.70, x(0.84), 0.78, base);
            rect(&mut img, x(0.18), 0.78, x(0.21), 0.84, Rgb([40, 30, 24]));
            rect(&mut img, x(0.79), 0.78, x(0.82), 0.84, Rgb([40, 30, 24]));
        }
        Kind::Table | Kind::Desk => {
            rect(&mut img, x(0.12), 0.46, x(0.88), 0.52, light); // top
            rect(&mut img, x(0.16), 0.52, x(0.20), 0.84, dark);
            rect(&mut img, x(0.80), 0.52, x(0.84), 0.84, dark);
            if kind == Kind::Desk {
                rect(&mut img, x(0.60), 0.52, x(0.84), 0.70, base); // drawers
                rect(&mut img, x(0.70), 0.58, x(0.74), 0.60, Rgb([210, 180, 90]));
            }
        }
        Kind::Chair => {
            rect(&mut img, x(0.34), 0.22, x(0.66), 0.50, base); // back
            rect(&mut img, x(0.30), 0.52, x(0.70), 0.60, light); // seat
            rect(&mut img, x(0.32), 0.60, x(0.36), 0.84, dark);
            rect(&mut img, x(0.64), 0.60, x(0.68), 0.84, dark);
        }
        Kind::Wardrobe | Kind::Showcase | Kind::Cabinet => {
            let top = match kind {
                Kind::Wardrobe => 0.12,
                Kind::Showcase => 0.18,
                _ => 0.44,
            };
            rect(&mut img, x(0.235), top - 0.006, x(0.765), 0.826, dark); // outline
            rect(&mut img, x(0.24), top, x(0.76), 0.82, base);
            rect(&mut img, x(0.495), top, x(0.505), 0.82, dark);
            if kind == Kind::Showcase {
                rect(
                    &mut img,
                    x(0.28),
                    top + 0.04,
                    x(0.47),
                    0.78,
                    Rgb([200, 222, 230]),
                ); // glass
                rect(
                    &mut img,
                    x(0.53),
                    top + 0.04,
                    x(0.72),
                    0.78,
                    Rgb([200, 222, 230]),
                );
            }
            rect(&mut img, x(0.46), 0.46, x(0.48), 0.52, Rgb([210, 180, 90])); // handles
            rect(&mut img, x(0.52), 0.46, x(0.54), 0.52, Rgb([210, 180, 90]));
            rect(&mut img, x(0.24), 0.82, x(0.76), 0.85, dark);
        }
        Kind::Lamp => {
            rect(&mut img, x(0.49), 0.36, x(0.51), 0.80, dark);
            ellipse(&mut img, x(0.5), 0.82, 0.10, 0.03, dark);
            rect(&mut img, x(0.36), 0.20, x(0.64), 0.36, light);
        }
        Kind::Decor => {
            rect(&mut img, x(0.22), 0.18, x(0.78), 0.70, dark); // frame
            rect(&mut img, x(0.26), 0.22, x(0.74), 0.66, light);
            ellipse(&mut img, x(0.5), 0.44, 0.12, 0.12, base);
        }
    }
    img
}

/// Frame `frame` of a turning sofa or chair: its width follows the angle.
fn turn_frame(kind: Kind, frame: u32, size: u32) -> RgbImage {
    let angle = frame as f32 / FRAMES as f32 * std::f32::consts::TAU;
    let width = 0.25 + 0.15 * angle.cos().abs();
    let mut img = background(size, size, [248, 246, 242], [230, 226, 218]);
    let c = if kind == Kind::Sofa {
        COLOURS[5].1
    } else {
        COLOURS[0].1
    };
    ellipse(
        &mut img,
        0.5,
        0.84,
        width + 0.04,
        0.04,
        Rgb([200, 194, 184]),
    );
    let (base, dark) = (shade(c, 1.0), shade(c, 0.7));
    rect(&mut img, 0.5 - width, 0.40, 0.5 + width, 0.60, base);
    rect(
        &mut img,
        0.5 - width,
        0.60,
        0.5 + width,
        0.72,
        shade(c, 1.2),
    );
    // A marker that moves around, so the turn is visible.
    let mx = 0.5 + width * 0.8 * angle.sin();
    rect(&mut img, mx - 0.02, 0.44, mx + 0.02, 0.56, dark);
    rect(&mut img, 0.5 - width, 0.72, 0.5 - width + 0.03, 0.82, dark);
    rect(&mut img, 0.5 + width - 0.03, 0.72, 0.5 + width, 0.82, dark);
    img
}

fn banner(n: u32) -> RgbImage {
    let palettes = [
        ([92, 60, 40], [180, 130, 80]),
        ([30, 60, 90], [90, 140, 180]),
        ([60, 90, 60], [150, 190, 140]),
        ([120, 40, 50], [220, 140, 120]),
        ([50, 50, 60], [150, 150, 170]),
        ([140, 100, 30], [230, 200, 120]),
    ];
    let (a, b) = palettes[n as usize % palettes.len()];
    let mut img = background(BANNER.0, BANNER.1, a, b);
    let kind = KINDS[n as usize % KINDS.len()];
    let piece = furniture(kind, COLOURS[n as usize % COLOURS.len()].1, 0, BANNER.1);
    cut_out(&mut img, &piece, BANNER.0 - BANNER.1 - 40, 0);
    rect(&mut img, 0.06, 0.30, 0.46, 0.36, Rgb([250, 250, 250])); // headline bar
    rect(&mut img, 0.06, 0.42, 0.34, 0.46, Rgb([235, 235, 235]));
    img
}

fn room(n: u32) -> RgbImage {
    let (w, h) = (FULL, FULL * 3 / 4);
    let walls = [
        [232, 222, 206],
        [214, 226, 232],
        [236, 230, 214],
        [220, 214, 230],
    ];
    let mut img = background(w, h, walls[n as usize % walls.len()], [200, 190, 175]);
    rect(&mut img, 0.0, 0.72, 1.0, 1.0, Rgb([150, 110, 80])); // floor
    rect(&mut img, 0.64, 0.14, 0.90, 0.46, Rgb([190, 215, 235])); // window
    let a = furniture(
        KINDS[n as usize % KINDS.len()],
        COLOURS[n as usize % COLOURS.len()].1,
        0,
        h * 2 / 3,
    );
    cut_out(&mut img, &a, 40, h / 3 - 20);
    let b = furniture(
        KINDS[(n as usize + 3) % KINDS.len()],
        COLOURS[(n as usize + 2) % COLOURS.len()].1,
        1,
        h / 2,
    );
    cut_out(&mut img, &b, w / 2 + 40, h / 2 - 10);
    img
}

fn swatch(n: u32) -> RgbImage {
    let c = COLOURS[n as usize % COLOURS.len()].1;
    RgbImage::from_fn(ICON * 2, ICON * 2, |x, y| {
        let weave = ((x / 4 + y / 4) % 2) as f32 * 0.12
            + f32::from(u8::from((x + n * 3).is_multiple_of(7))) * 0.05;
        shade(c, 0.9 + weave)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_storage_folder_gets_the_drawings_from_the_cache() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let first = make_pool_cached(&dir.path().join("a"), Some(&cache)).unwrap();
        // The cache now holds every drawing; mark one to see where the second copy comes from.
        let name = &first.files[0].filename;
        let cached = cache.join("fullsize").join(name);
        assert!(cached.exists());
        let second = make_pool_cached(&dir.path().join("b"), Some(&cache)).unwrap();
        let copy = dir.path().join("b/uploads/fullsize").join(name);
        assert_eq!(
            std::fs::read(&copy).unwrap(),
            std::fs::read(&cached).unwrap()
        );
        assert_eq!(
            second.files.iter().map(|f| f.size).collect::<Vec<_>>(),
            first.files.iter().map(|f| f.size).collect::<Vec<_>>()
        );
        // A cached file of the wrong size is not used: the picture is drawn again.
        RgbImage::new(10, 10).save(&cached).unwrap();
        make_pool_cached(&dir.path().join("c"), Some(&cache)).unwrap();
        let redrawn = dir.path().join("c/uploads/fullsize").join(name);
        assert_eq!(
            image::image_dimensions(&redrawn).unwrap(),
            (first.files[0].width, first.files[0].height)
        );
    }

    #[test]
    fn slugs_are_lower_case_words_joined_by_dashes() {
        assert_eq!(slug("Segun Wood King Size Bed"), "segun-wood-king-size-bed");
        assert_eq!(slug("  3+2+1 Sofa -- Set! "), "3-2-1-sofa-set");
        assert_eq!(slug("Cox's Bazar"), "cox-s-bazar");
    }

    #[test]
    fn the_pool_is_drawn_as_decodable_jpegs_and_reused_when_present() {
        let dir = tempfile::tempdir().unwrap();
        let pool = make_pool_cached(dir.path(), None).unwrap();
        assert_eq!(pool.furniture.len(), KINDS.len());
        assert!(pool
            .furniture
            .iter()
            .all(|k| k.len() == COLOURS.len() * VIEWS as usize));
        assert_eq!(
            pool.turns.iter().map(Vec::len).collect::<Vec<_>>(),
            vec![36, 36]
        );
        let first = &pool.files[pool.furniture[0][0]];
        let img = image::open(dir.path().join(first.full.trim_start_matches("storage/"))).unwrap();
        assert_eq!((img.width(), img.height()), (FULL, FULL));
        // A realistic product photo size, not a few kilobytes of flat colour.
        assert!(
            (60_000..400_000).contains(&first.size),
            "{} bytes",
            first.size
        );
        let icon = image::open(dir.path().join(first.icon.trim_start_matches("storage/"))).unwrap();
        assert_eq!((icon.width(), icon.height()), (ICON, ICON));
        let frame = &pool.files[pool.turns[0][0]];
        assert_eq!((frame.width, frame.height), (FRAME, FRAME));

        // A second run keeps the files it finds with the right dimensions...
        let kept = dir.path().join(first.full.trim_start_matches("storage/"));
        let before = std::fs::metadata(&kept).unwrap().modified().unwrap();
        // ...and redraws one whose dimensions are wrong (an older, smaller drawing).
        let stale = &pool.files[pool.furniture[1][0]];
        let stale_path = dir.path().join(stale.full.trim_start_matches("storage/"));
        RgbImage::new(10, 10).save(&stale_path).unwrap();
        let again = make_pool_cached(dir.path(), None).unwrap();
        assert_eq!(again.files.len(), pool.files.len());
        assert_eq!(again.files[0].size, pool.files[0].size);
        assert_eq!(
            std::fs::metadata(&kept).unwrap().modified().unwrap(),
            before
        );
        assert_eq!(image::image_dimensions(&stale_path).unwrap(), (FULL, FULL));
    }
}
