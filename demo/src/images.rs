//! The demo catalogue's images, drawn by code: furniture in wood, metal,
//! fabric and leather colours on a studio backdrop (each piece in three
//! views: front, angled and close-up, every one of them in the same colour),
//! furnished rooms for banners, posts and galleries, fabric swatches, and
//! the 36 frames of a piece turning once for the 360 viewer (the same
//! drawing and colour as that piece's photos).
//!
//! A fixed pool is drawn once and shared by every product, so the catalogue
//! scales to 100,000 products without 500,000 files. Files that already exist
//! with the right dimensions are kept, so seeding a second database into the
//! same storage is fast, and drawings are shared between storage folders
//! through a cache folder (see [`make_pool_cached`]). Drawing is
//! deterministic: the pool depends on nothing but the code ([`POOL_VERSION`]).

use std::collections::HashMap;
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
    /// A framed wall mirror.
    Decor,
    /// A dressing table with its mirror.
    Dresser,
    /// A woven rug.
    Rug,
}

/// Every furniture kind, in pool order.
pub const KINDS: [Kind; 12] = [
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
    Kind::Dresser,
    Kind::Rug,
];

/// Wood, metal, fabric and leather colours, with the names the catalogue
/// gives them (the Colour attribute's values, in this order).
pub const COLOURS: [(&str, [u8; 3]); 8] = [
    ("Walnut", [110, 72, 44]),
    ("Natural Teak", [176, 124, 74]),
    ("Dark Brown", [74, 48, 32]),
    ("White", [222, 214, 200]),
    ("Grey", [128, 128, 132]),
    ("Royal Blue", [48, 72, 140]),
    ("Black", [44, 44, 46]),
    ("Beige", [204, 184, 150]),
];

/// The colours (indexes into [`COLOURS`]) each kind is drawn in: those its
/// products come in (the catalogue's materials decide; a test checks).
pub fn kind_colours(kind: Kind) -> &'static [usize] {
    match kind {
        Kind::Bed | Kind::Wardrobe | Kind::Showcase | Kind::Dresser => &[0, 1, 2, 3, 4],
        Kind::Sofa => &[0, 1, 2, 4, 5, 6, 7],
        Kind::Table | Kind::Cabinet | Kind::Desk | Kind::Lamp | Kind::Decor => &[0, 1, 2, 3, 4, 6],
        Kind::Chair => &[0, 1, 2, 3, 4, 5, 6, 7],
        Kind::Rug => &[4, 5, 7],
    }
}

/// The pieces drawn turning for the 360 viewer: (kind, colour index).
/// Only products of these kinds in these colours get 360 frames.
pub const TURNS: [(Kind, usize); 6] = [
    (Kind::Sofa, 4),
    (Kind::Sofa, 5),
    (Kind::Sofa, 7),
    (Kind::Chair, 0),
    (Kind::Chair, 1),
    (Kind::Chair, 6),
];

/// The fabrics of product sets: name and colour (swatch `n` shows fabric `n`).
pub const FABRICS: [(&str, [u8; 3]); 5] = [
    ("Velvet Maroon", [118, 36, 48]),
    ("Jute Beige", [200, 180, 140]),
    ("Linen Grey", [150, 150, 152]),
    ("Leatherette Black", [42, 40, 40]),
    ("Cotton Blue", [58, 90, 150]),
];

/// Part of every pool file name: bump it when the drawing changes, so a
/// storage directory seeded by older code does not keep stale pictures.
pub const POOL_VERSION: u32 = 7;

/// Views of each kind and colour in the pool (front, angled, close-up).
pub const VIEWS: u32 = 3;
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
        colour: usize,
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
    /// `furniture[&(kind index, colour index)]` = its [`VIEWS`] views, in order.
    pub furniture: HashMap<(usize, usize), Vec<usize>>,
    /// `turns[&(kind index, colour index)]` = its 36 frames, in order ([`TURNS`]).
    pub turns: HashMap<(usize, usize), Vec<usize>>,
    /// One per [`ROOM_THEMES`], in order.
    pub banners: Vec<usize>,
    /// Two per [`ROOM_THEMES`]: room `n` shows theme `n % 6`.
    pub rooms: Vec<usize>,
    /// One per [`FABRICS`], in order.
    pub swatches: Vec<usize>,
    /// The product videos by (kind index, colour index): one per [`TURNS`]
    /// piece, none without `ffmpeg` ([`make_videos`]).
    pub videos: HashMap<(usize, usize), Video>,
}

impl Pool {
    /// The views of a piece of `kind` in colour `colour` (empty when that
    /// colour is not drawn for the kind: see [`kind_colours`]).
    pub fn views(&self, kind: Kind, colour: usize) -> &[usize] {
        self.furniture
            .get(&(kind_index(kind), colour))
            .map_or(&[], Vec::as_slice)
    }

    /// The 360 frames of a piece of `kind` in colour `colour`, if drawn.
    pub fn turn(&self, kind: Kind, colour: usize) -> Option<&[usize]> {
        self.turns
            .get(&(kind_index(kind), colour))
            .map(Vec::as_slice)
    }

    /// The video of a piece of `kind` in colour `colour`, if made.
    pub fn video(&self, kind: Kind, colour: usize) -> Option<&Video> {
        self.videos.get(&(kind_index(kind), colour))
    }

    /// A room of the given theme (index into [`ROOM_THEMES`]), variant `n`.
    pub fn room(&self, theme: usize, n: usize) -> usize {
        let themes = ROOM_THEMES.len();
        self.rooms[(theme % themes + themes * n) % self.rooms.len()]
    }
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
        for &colour in kind_colours(kind) {
            for view in 0..VIEWS {
                jobs.push(Job::Furniture { kind, colour, view });
            }
        }
    }
    for (kind, colour) in TURNS {
        for frame in 0..FRAMES {
            jobs.push(Job::Frame {
                kind,
                colour,
                frame,
            });
        }
    }
    let themes = ROOM_THEMES.len() as u32;
    jobs.extend((0..themes).map(|n| Job::Banner { n }));
    jobs.extend((0..themes * 2).map(|n| Job::Room { n }));
    jobs.extend((0..FABRICS.len() as u32).map(|n| Job::Swatch { n }));

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

    let mut pool = Pool::default();
    for (i, job) in jobs.iter().enumerate() {
        match job {
            Job::Furniture { kind, colour, .. } => pool
                .furniture
                .entry((kind_index(*kind), *colour))
                .or_default()
                .push(i),
            Job::Frame { kind, colour, .. } => pool
                .turns
                .entry((kind_index(*kind), *colour))
                .or_default()
                .push(i),
            Job::Banner { .. } => pool.banners.push(i),
            Job::Room { .. } => pool.rooms.push(i),
            Job::Swatch { .. } => pool.swatches.push(i),
        }
    }
    pool.files = files;
    pool.videos = make_videos(storage_dir, &pool, cache)?;
    Ok(pool)
}

/// Seconds of each product video: the 360 frames turning twice.
pub const VIDEO_SECONDS: u32 = 6;
/// Frames per second of the product videos (a turn of [`FRAMES`] in 3 s).
pub const VIDEO_FPS: u32 = 12;

/// A product video: the 360 frames of one piece turned into a WebM (VP9)
/// file under `storage/videos/`.
#[derive(Debug, Clone)]
pub struct Video {
    /// Its address, `/storage/videos/360-sofa-grey-v7.webm`.
    pub url: String,
    /// The pool file its first frame is (the poster): an index into [`Pool::files`].
    pub poster: usize,
}

/// Whether `ffmpeg` runs here.
pub fn have_ffmpeg() -> bool {
    std::process::Command::new("ffmpeg")
        .arg("-version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether `path` holds a WebM file (its EBML magic), at least of `min` bytes.
fn is_webm(path: &Path, min: u64) -> bool {
    use std::io::Read;
    let mut head = [0u8; 4];
    std::fs::metadata(path).is_ok_and(|m| m.len() >= min)
        && std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut head))
            .is_ok()
        && head == [0x1A, 0x45, 0xDF, 0xA3]
}

/// Turns each piece of [`TURNS`] into a [`VIDEO_SECONDS`] video by Debian's
/// `ffmpeg` (the 360 frames of the pool, already under
/// `storage_dir/uploads/fullsize/`), kept like the pictures: a valid file
/// already in the storage is kept, one in `cache` is copied, else it is
/// encoded and left in the cache too. Without `ffmpeg` there are no videos
/// (an empty map, and a line on stderr saying so): the products that would
/// have one simply have none.
pub fn make_videos(
    storage_dir: &Path,
    pool: &Pool,
    cache: Option<&Path>,
) -> anyhow::Result<HashMap<(usize, usize), Video>> {
    let dir = storage_dir.join("videos");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let cache = cache
        .map(|c| c.join("videos"))
        .filter(|c| std::fs::create_dir_all(c).is_ok());
    let name = |kind: Kind, colour: usize| {
        format!(
            "360-{}-{}-v{POOL_VERSION}.webm",
            kind_slug(kind),
            slug(COLOURS[colour].0)
        )
    };
    // A few KB is no video: a file cut short by a killed seed is made again.
    const MIN: u64 = 4096;
    let missing: Vec<(Kind, usize)> = TURNS
        .iter()
        .copied()
        .filter(|(kind, colour)| {
            let file = name(*kind, *colour);
            let path = dir.join(&file);
            if is_webm(&path, MIN) {
                return false;
            }
            match &cache {
                Some(c) if is_webm(&c.join(&file), MIN) => {
                    copy_file(&c.join(&file), &path).is_err()
                }
                _ => true,
            }
        })
        .collect();
    if !missing.is_empty() && !have_ffmpeg() {
        eprintln!(
            "seed: ffmpeg is not installed: the demo products get no video \
             (install Debian's ffmpeg, as scripts/run does, for their 360 videos)"
        );
        return Ok(HashMap::new());
    }
    let full_dir = storage_dir.join("uploads/fullsize");
    missing
        .par_iter()
        .map(|(kind, colour)| {
            let file = name(*kind, *colour);
            let path = dir.join(&file);
            let frames = full_dir.join(format!(
                "360-{}-{}-%02d-v{POOL_VERSION}.jpg",
                kind_slug(*kind),
                slug(COLOURS[*colour].0)
            ));
            let tmp = dir.join(format!("{file}.tmp{}", std::process::id()));
            let loops = VIDEO_SECONDS * VIDEO_FPS / FRAMES;
            let out = std::process::Command::new("ffmpeg")
                .args(["-hide_banner", "-loglevel", "error", "-nostdin", "-y"])
                .args(["-framerate", &VIDEO_FPS.to_string()])
                .args(["-stream_loop", &(loops.max(1) - 1).to_string()])
                .arg("-i")
                .arg(&frames)
                .args(["-c:v", "libvpx-vp9", "-crf", "34", "-b:v", "0"])
                .args(["-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1"])
                .args(["-g", &FRAMES.to_string(), "-pix_fmt", "yuv420p", "-an"])
                .args(["-f", "webm"])
                .arg(&tmp)
                .output()
                .context("running ffmpeg")?;
            if !out.status.success() || !is_webm(&tmp, MIN) {
                let _ = std::fs::remove_file(&tmp);
                anyhow::bail!(
                    "ffmpeg could not make {file}: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                );
            }
            std::fs::rename(&tmp, &path)
                .with_context(|| format!("renaming to {}", path.display()))?;
            if let Some(c) = &cache {
                // Best effort, as for the pictures.
                let _ = copy_file(&path, &c.join(&file));
            }
            Ok(())
        })
        .collect::<anyhow::Result<()>>()?;
    Ok(TURNS
        .iter()
        .filter_map(|&(kind, colour)| {
            let frames = pool.turn(kind, colour)?;
            Some((
                (kind_index(kind), colour),
                Video {
                    url: format!("/storage/videos/{}", name(kind, colour)),
                    poster: frames[0],
                },
            ))
        })
        .collect())
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
        Kind::Decor => "mirror",
        Kind::Dresser => "dresser",
        Kind::Rug => "rug",
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
        Job::Frame {
            kind,
            colour,
            frame,
        } => (
            format!(
                "360-{}-{}-{:02}.jpg",
                kind_slug(*kind),
                slug(COLOURS[*colour].0),
                frame + 1
            ),
            72,
        ),
        Job::Banner { n } => (
            format!(
                "banner-{}-{}.jpg",
                ROOM_THEMES[*n as usize % ROOM_THEMES.len()],
                n + 1
            ),
            78,
        ),
        Job::Room { n } => (
            format!(
                "room-{}-{}.jpg",
                ROOM_THEMES[*n as usize % ROOM_THEMES.len()],
                n + 1
            ),
            78,
        ),
        Job::Swatch { n } => (
            format!(
                "fabric-{}.jpg",
                slug(FABRICS[*n as usize % FABRICS.len()].0)
            ),
            80,
        ),
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
                    furniture(*kind, COLOURS[*colour].1, Pen::view(*view), FULL)
                }
                Job::Frame {
                    kind,
                    colour,
                    frame,
                } => turn_frame(*kind, COLOURS[*colour].1, *frame, FRAME),
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
                    furniture(*kind, COLOURS[*colour].1, Pen::view(*view), ICON)
                }
                Job::Frame {
                    kind,
                    colour,
                    frame,
                } => turn_frame(*kind, COLOURS[*colour].1, *frame, ICON),
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
    // The grain's wave depends on the column only, its strength on the row
    // only: one sine per pixel is left (drawing the pool is mostly this).
    let waves: Vec<f32> = (ax..bx)
        .map(|x| {
            let fx = x as f32;
            4.0 * (fx / 97.0).sin() + 1.5 * (fx / 23.0).sin()
        })
        .collect();
    for y in ay..by {
        let fy = y as f32;
        let strength = 0.04 * (0.6 + 0.4 * (fy / 13.0).sin());
        for (x, wave) in (ax..bx).zip(&waves) {
            let streak = 1.0 + strength * ((fy + wave) / 1.9).sin();
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
        ((cy + ry).max(0.0) as u32).min(img.height()),
    );
    let (x0, x1) = (
        (cx - rx).max(0.0) as u32,
        ((cx + rx).max(0.0) as u32).min(img.width()),
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

/// The studio shadow under a product picture's piece.
const SHADOW: Rgb<u8> = Rgb([200, 194, 184]);

/// Pastes a product picture onto `dst` at (x, y) without its studio
/// backdrop and its shadow, so a piece stands in a room or on a banner.
fn cut_out(dst: &mut RgbImage, piece: &RgbImage, x: i64, y: i64) {
    let backdrop = studio(piece.width());
    for (px, py, p) in piece.enumerate_pixels() {
        let (dx, dy) = (x + i64::from(px), y + i64::from(py));
        if dx >= 0
            && dy >= 0
            && dx < i64::from(dst.width())
            && dy < i64::from(dst.height())
            && backdrop.get_pixel(px, py) != p
            && *p != SHADOW
        {
            dst.put_pixel(dx as u32, dy as u32, *p);
        }
    }
}

/// Where a piece stands in its square picture: the drawing's coordinates
/// (fractions) are scaled about the centre and moved, so one drawing gives
/// the front view, the angled view, the close-up and every 360 frame.
#[derive(Debug, Clone, Copy)]
struct Pen {
    sx: f32,
    sy: f32,
    dx: f32,
    dy: f32,
}

impl Pen {
    /// The view `view` of a product picture: 0 front, 1 angled, 2 close-up.
    fn view(view: u32) -> Pen {
        match view {
            0 => Pen {
                sx: 1.0,
                sy: 1.0,
                dx: 0.0,
                dy: 0.0,
            },
            1 => Pen {
                sx: 0.8,
                sy: 0.92,
                dx: 0.07,
                dy: 0.02,
            },
            _ => Pen {
                sx: 1.9,
                sy: 1.9,
                dx: 0.32,
                dy: 0.02,
            },
        }
    }
    fn x(&self, v: f32) -> f32 {
        0.5 + (v - 0.5) * self.sx + self.dx
    }
    fn y(&self, v: f32) -> f32 {
        0.6 + (v - 0.6) * self.sy + self.dy
    }
    fn rect(&self, img: &mut RgbImage, x0: f32, y0: f32, x1: f32, y1: f32, c: Rgb<u8>) {
        rect(img, self.x(x0), self.y(y0), self.x(x1), self.y(y1), c);
    }
    fn ellipse(&self, img: &mut RgbImage, cx: f32, cy: f32, rx: f32, ry: f32, c: Rgb<u8>) {
        ellipse(
            img,
            self.x(cx),
            self.y(cy),
            rx * self.sx.abs(),
            ry * self.sy,
            c,
        );
    }
}

const BRASS: Rgb<u8> = Rgb([210, 180, 90]);
const GLASS: Rgb<u8> = Rgb([204, 222, 230]);
const LINEN: Rgb<u8> = Rgb([245, 245, 240]);

/// A product picture: a piece of furniture of `kind` in colour `c`, drawn
/// with `pen` (see [`Pen::view`]) on the studio backdrop.
fn furniture(kind: Kind, c: [u8; 3], pen: Pen, size: u32) -> RgbImage {
    let mut img = studio(size);
    let p = pen;
    let i = &mut img;
    p.ellipse(i, 0.5, 0.86, 0.40, 0.04, SHADOW);
    let (base, dark, light) = (shade(c, 1.0), shade(c, 0.7), shade(c, 1.25));
    match kind {
        Kind::Bed => {
            p.rect(i, 0.12, 0.30, 0.20, 0.84, dark); // headboard post
            p.rect(i, 0.80, 0.30, 0.88, 0.84, dark);
            p.rect(i, 0.12, 0.30, 0.88, 0.50, base); // headboard
            p.rect(i, 0.16, 0.34, 0.84, 0.46, light); // its panel
            p.rect(i, 0.12, 0.58, 0.88, 0.74, base); // frame
            p.rect(i, 0.14, 0.52, 0.86, 0.60, LINEN); // mattress
            p.rect(i, 0.18, 0.47, 0.36, 0.53, Rgb([250, 250, 250])); // pillows
            p.rect(i, 0.64, 0.47, 0.82, 0.53, Rgb([250, 250, 250]));
            p.rect(i, 0.40, 0.55, 0.86, 0.60, Rgb([196, 176, 150])); // throw
            p.rect(i, 0.14, 0.74, 0.18, 0.84, dark);
            p.rect(i, 0.82, 0.74, 0.86, 0.84, dark);
        }
        Kind::Sofa => {
            p.rect(i, 0.14, 0.38, 0.86, 0.58, base); // back
            p.rect(i, 0.18, 0.42, 0.49, 0.57, light); // back cushions
            p.rect(i, 0.51, 0.42, 0.82, 0.57, light);
            p.rect(i, 0.10, 0.50, 0.20, 0.76, dark); // arms
            p.rect(i, 0.80, 0.50, 0.90, 0.76, dark);
            p.rect(i, 0.20, 0.58, 0.497, 0.70, light); // seat cushions
            p.rect(i, 0.503, 0.58, 0.80, 0.70, light);
            p.rect(i, 0.16, 0.70, 0.84, 0.78, base);
            p.rect(i, 0.18, 0.78, 0.21, 0.84, Rgb([40, 30, 24]));
            p.rect(i, 0.79, 0.78, 0.82, 0.84, Rgb([40, 30, 24]));
        }
        Kind::Table | Kind::Desk => {
            p.rect(i, 0.12, 0.46, 0.88, 0.52, light); // top
            p.rect(i, 0.12, 0.515, 0.88, 0.525, dark); // its edge
            p.rect(i, 0.16, 0.52, 0.20, 0.84, dark);
            p.rect(i, 0.80, 0.52, 0.84, 0.84, dark);
            if kind == Kind::Desk {
                p.rect(i, 0.60, 0.52, 0.84, 0.70, base); // drawers
                p.rect(i, 0.60, 0.605, 0.84, 0.615, dark);
                p.rect(i, 0.70, 0.56, 0.74, 0.58, BRASS);
                p.rect(i, 0.70, 0.64, 0.74, 0.66, BRASS);
            } else {
                p.rect(i, 0.20, 0.55, 0.80, 0.57, dark); // apron rail
            }
        }
        Kind::Dresser => {
            p.rect(i, 0.30, 0.12, 0.70, 0.46, dark); // mirror frame
            p.rect(i, 0.33, 0.15, 0.67, 0.44, GLASS);
            p.rect(i, 0.40, 0.18, 0.43, 0.30, Rgb([236, 244, 248])); // reflection
            p.rect(i, 0.18, 0.46, 0.82, 0.50, light); // top
            p.rect(i, 0.20, 0.50, 0.80, 0.72, base); // drawers
            p.rect(i, 0.20, 0.605, 0.80, 0.615, dark);
            p.rect(i, 0.495, 0.50, 0.505, 0.72, dark);
            for y in [0.55, 0.66] {
                p.rect(i, 0.33, y, 0.37, y + 0.02, BRASS);
                p.rect(i, 0.63, y, 0.67, y + 0.02, BRASS);
            }
            p.rect(i, 0.22, 0.72, 0.25, 0.84, dark);
            p.rect(i, 0.75, 0.72, 0.78, 0.84, dark);
        }
        Kind::Chair => {
            p.rect(i, 0.34, 0.22, 0.66, 0.50, base); // back
            p.rect(i, 0.38, 0.26, 0.62, 0.46, light);
            p.rect(i, 0.30, 0.52, 0.70, 0.60, light); // seat
            p.rect(i, 0.30, 0.50, 0.70, 0.52, base);
            p.rect(i, 0.32, 0.60, 0.36, 0.84, dark);
            p.rect(i, 0.64, 0.60, 0.68, 0.84, dark);
        }
        Kind::Wardrobe | Kind::Showcase | Kind::Cabinet => {
            let top = match kind {
                Kind::Wardrobe => 0.12,
                Kind::Showcase => 0.18,
                _ => 0.44,
            };
            p.rect(i, 0.235, top - 0.006, 0.765, 0.826, dark); // outline
            p.rect(i, 0.24, top, 0.76, 0.82, base);
            p.rect(i, 0.495, top, 0.505, 0.82, dark);
            if kind == Kind::Showcase {
                p.rect(i, 0.28, top + 0.04, 0.47, 0.70, GLASS); // glass doors
                p.rect(i, 0.53, top + 0.04, 0.72, 0.70, GLASS);
                for y in [0.34, 0.52] {
                    p.rect(i, 0.28, y, 0.47, y + 0.01, dark); // shelves
                    p.rect(i, 0.53, y, 0.72, y + 0.01, dark);
                }
                p.rect(i, 0.24, 0.72, 0.76, 0.73, dark);
            } else if kind == Kind::Wardrobe {
                p.rect(i, 0.27, top + 0.03, 0.47, 0.79, light); // door panels
                p.rect(i, 0.53, top + 0.03, 0.73, 0.79, light);
            }
            p.rect(i, 0.46, 0.46, 0.48, 0.52, BRASS); // handles
            p.rect(i, 0.52, 0.46, 0.54, 0.52, BRASS);
            p.rect(i, 0.24, 0.82, 0.76, 0.85, dark);
        }
        Kind::Lamp => {
            p.rect(i, 0.49, 0.36, 0.51, 0.80, dark);
            p.ellipse(i, 0.5, 0.82, 0.10, 0.03, dark);
            p.rect(i, 0.36, 0.20, 0.64, 0.36, Rgb([240, 226, 196])); // shade
            p.rect(i, 0.36, 0.20, 0.64, 0.22, base);
            p.rect(i, 0.36, 0.34, 0.64, 0.36, base);
        }
        Kind::Decor => {
            // A framed wall mirror.
            p.rect(i, 0.26, 0.12, 0.74, 0.78, base); // frame
            p.rect(i, 0.24, 0.10, 0.76, 0.12, dark);
            p.rect(i, 0.30, 0.16, 0.70, 0.74, GLASS);
            for k in 0..8 {
                let t = k as f32 * 0.025;
                p.rect(
                    i,
                    0.36 + t,
                    0.40 - t * 1.4,
                    0.39 + t,
                    0.44 - t * 1.4,
                    Rgb([238, 246, 250]),
                );
            }
        }
        Kind::Rug => {
            p.rect(i, 0.10, 0.48, 0.90, 0.84, dark); // border
            p.rect(i, 0.14, 0.52, 0.86, 0.80, base); // field
            p.rect(i, 0.28, 0.58, 0.72, 0.74, light); // panel
            p.ellipse(i, 0.5, 0.66, 0.10, 0.05, dark); // medallion
            p.ellipse(i, 0.5, 0.66, 0.05, 0.025, base);
            let mut y = 0.49;
            while y < 0.83 {
                p.rect(i, 0.07, y, 0.10, y + 0.01, Rgb([236, 228, 210])); // fringes
                p.rect(i, 0.90, y, 0.93, y + 0.01, Rgb([236, 228, 210]));
                y += 0.025;
            }
        }
    }
    img
}

/// Frame `frame` of a piece of `kind` in colour `c` turning once around:
/// the same drawing as its photos, narrowed by the angle, its back darker.
fn turn_frame(kind: Kind, c: [u8; 3], frame: u32, size: u32) -> RgbImage {
    let angle = frame as f32 / FRAMES as f32 * std::f32::consts::TAU;
    let pen = Pen {
        sx: 0.3 + 0.7 * angle.cos().abs(),
        sy: 1.0,
        dx: 0.03 * angle.sin(),
        dy: 0.0,
    };
    let colour = if angle.cos() < 0.0 {
        let d = shade(c, 0.85);
        d.0
    } else {
        c
    };
    furniture(kind, colour, pen, size)
}

/// What a room scene shows: its name and its pieces, each (kind, colour
/// index, height as a share of the picture's height, x of its left edge as
/// a share of the furniture zone), back to front.
pub type Piece = (Kind, usize, f32, f32);

/// The room scenes, by theme: banners use one each, rooms cycle through them.
pub const ROOM_THEMES: [&str; 6] = ["bedroom", "living", "dining", "office", "kids", "dressing"];

pub fn theme_pieces(theme: usize) -> &'static [Piece] {
    match theme {
        0 => &[(Kind::Bed, 0, 0.95, 0.08), (Kind::Cabinet, 0, 0.48, 0.70)],
        1 => &[
            (Kind::Lamp, 3, 0.62, 0.80),
            (Kind::Sofa, 4, 0.90, 0.04),
            (Kind::Table, 1, 0.46, 0.38),
        ],
        2 => &[
            (Kind::Showcase, 2, 0.86, 0.72),
            (Kind::Chair, 0, 0.62, 0.02),
            (Kind::Table, 0, 0.66, 0.16),
            (Kind::Chair, 0, 0.62, 0.40),
        ],
        3 => &[
            (Kind::Cabinet, 3, 0.56, 0.66),
            (Kind::Desk, 2, 0.80, 0.08),
            (Kind::Chair, 6, 0.56, 0.26),
        ],
        4 => &[
            (Kind::Bed, 5, 0.72, 0.02),
            (Kind::Desk, 3, 0.62, 0.50),
            (Kind::Chair, 5, 0.44, 0.60),
        ],
        _ => &[
            (Kind::Wardrobe, 1, 0.92, 0.0),
            (Kind::Dresser, 1, 0.72, 0.40),
            (Kind::Lamp, 0, 0.60, 0.78),
        ],
    }
}

/// A furnished room, `w` by `h`: wall, window, a framed picture, a wooden
/// floor with a rug, and the theme's pieces standing on it. Banners keep
/// the left `text` share of the picture a calm wall, for the headline the
/// page sets over it in HTML.
fn scene(w: u32, h: u32, theme: usize, variant: usize, text: f32) -> RgbImage {
    let walls = [
        [236, 226, 210],
        [214, 226, 232],
        [226, 232, 216],
        [232, 220, 226],
    ];
    let wall = walls[(theme + variant) % walls.len()];
    let low = [
        (f32::from(wall[0]) * 0.9) as u8,
        (f32::from(wall[1]) * 0.9) as u8,
        (f32::from(wall[2]) * 0.9) as u8,
    ];
    let mut img = background(w, h, wall, low);
    let floor = 0.80;
    let zone = text + 0.02;
    let span = 1.0 - zone - 0.02;
    // The window, with curtains, high on the wall of the furniture zone.
    let (wx0, wx1) = (zone + span * 0.52, zone + span * 0.80);
    rect(
        &mut img,
        wx0 - 0.01,
        0.08,
        wx1 + 0.01,
        0.46,
        Rgb([250, 250, 248]),
    );
    rect(&mut img, wx0, 0.10, wx1, 0.44, Rgb([186, 214, 236]));
    rect(
        &mut img,
        (wx0 + wx1) / 2.0 - 0.004,
        0.10,
        (wx0 + wx1) / 2.0 + 0.004,
        0.44,
        Rgb([250, 250, 248]),
    );
    rect(
        &mut img,
        wx0 - 0.04,
        0.06,
        wx0 + 0.01,
        0.52,
        shade([150, 60, 60], 1.0 + 0.1 * variant as f32),
    );
    rect(
        &mut img,
        wx1 - 0.01,
        0.06,
        wx1 + 0.04,
        0.52,
        shade([150, 60, 60], 1.0 + 0.1 * variant as f32),
    );
    // A framed picture: hills and a sun.
    let (fx0, fx1) = (zone + span * 0.14, zone + span * 0.36);
    rect(&mut img, fx0, 0.12, fx1, 0.36, Rgb([70, 52, 40]));
    rect(
        &mut img,
        fx0 + 0.01,
        0.14,
        fx1 - 0.01,
        0.34,
        Rgb([232, 222, 196]),
    );
    ellipse(
        &mut img,
        (fx0 + fx1) / 2.0,
        0.34,
        (fx1 - fx0) * 0.4,
        0.10,
        Rgb([112, 150, 100]),
    );
    rect(&mut img, fx0, 0.34, fx1, 0.36, Rgb([70, 52, 40]));
    ellipse(
        &mut img,
        fx1 - 0.04,
        0.20,
        0.012,
        0.016,
        Rgb([230, 160, 70]),
    );
    // Skirting and a wooden floor in planks.
    rect(
        &mut img,
        0.0,
        floor - 0.015,
        1.0,
        floor,
        Rgb([246, 244, 238]),
    );
    rect(&mut img, 0.0, floor, 1.0, 1.0, Rgb([164, 118, 80]));
    let mut x = 0.0;
    while x < 1.0 {
        rect(&mut img, x, floor, x + 0.002, 1.0, Rgb([130, 92, 62]));
        x += 0.09;
    }
    // A rug under the pieces.
    let rug = COLOURS[[5, 7, 4, 0][(theme + variant) % 4]].1;
    rect(
        &mut img,
        zone + span * 0.06,
        floor + 0.06,
        zone + span * 0.94,
        floor + 0.17,
        shade(rug, 0.75),
    );
    rect(
        &mut img,
        zone + span * 0.08,
        floor + 0.075,
        zone + span * 0.92,
        floor + 0.155,
        shade(rug, 1.0),
    );
    // The pieces, standing on the floor (a picture's legs end at 86 %).
    let (wf, hf) = (w as f32, h as f32);
    for (kind, colour, height, left) in theme_pieces(theme) {
        let size = (hf * height).round() as u32;
        let piece = furniture(*kind, COLOURS[*colour].1, Pen::view(0), size);
        // Its drawing fills the middle of its square: keep that inside the zone.
        let x = ((zone + span * left) * wf - size as f32 * 0.1)
            .min(wf - size as f32 * 0.92)
            .max(zone * wf - size as f32 * 0.08) as i64;
        let y = ((floor + 0.09) * hf - size as f32 * 0.86) as i64;
        cut_out(&mut img, &piece, x, y);
    }
    img
}

/// Banner `n`: a wide room of theme `n`, its left side kept for the text.
fn banner(n: u32) -> RgbImage {
    scene(
        BANNER.0,
        BANNER.1,
        n as usize % ROOM_THEMES.len(),
        n as usize / ROOM_THEMES.len(),
        0.42,
    )
}

/// Room `n`: theme `n % 6`, in the wall colour of variant `n / 6`.
fn room(n: u32) -> RgbImage {
    scene(
        FULL,
        FULL * 3 / 4,
        n as usize % ROOM_THEMES.len(),
        n as usize / ROOM_THEMES.len() + 1,
        0.0,
    )
}

fn swatch(n: u32) -> RgbImage {
    let c = FABRICS[n as usize % FABRICS.len()].1;
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
        for kind in KINDS {
            for colour in 0..COLOURS.len() {
                let drawn = kind_colours(kind).contains(&colour);
                let views = pool.views(kind, colour).len();
                assert_eq!(
                    views,
                    if drawn { VIEWS as usize } else { 0 },
                    "{kind:?} {colour}"
                );
            }
        }
        for (kind, colour) in TURNS {
            assert!(kind_colours(kind).contains(&colour));
            assert_eq!(pool.turn(kind, colour).map(<[usize]>::len), Some(36));
        }
        assert_eq!(pool.banners.len(), ROOM_THEMES.len());
        assert_eq!(pool.swatches.len(), FABRICS.len());
        let first = &pool.files[pool.views(Kind::Bed, 0)[0]];
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
        let frame = &pool.files[pool.turn(TURNS[0].0, TURNS[0].1).unwrap()[0]];
        assert_eq!((frame.width, frame.height), (FRAME, FRAME));

        // A second run keeps the files it finds with the right dimensions...
        let kept = dir.path().join(first.full.trim_start_matches("storage/"));
        let before = std::fs::metadata(&kept).unwrap().modified().unwrap();
        // ...and redraws one whose dimensions are wrong (an older, smaller drawing).
        let stale = &pool.files[pool.views(Kind::Sofa, 4)[0]];
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
