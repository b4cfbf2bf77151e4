//! Images under `/storage/`: the stored files, and resized variants of the
//! pictures made on demand, once.
//!
//! - `GET /storage/{path}` serves the stored file as it is.
//! - `GET /storage/{path}?w=N[&q=Q]` serves the picture `N` pixels wide, `N`
//!   rounded up by SPEC.md §9's rule ([`generator::serve::responsive_width`],
//!   the rule the pages' `srcset`s use) and never wider than the original
//!   (no upscaling). `Q` is the encoding quality (1–100, rounded up to a
//!   multiple of 5; default [`DEFAULT_QUALITY`]): the 360 frames ask for 35.
//!   The format follows `Accept`: WebP when it names `image/webp`, else JPEG,
//!   with `Vary: Accept`.
//!
//! A variant is made on a blocking thread, at most one per CPU at a time, and
//! written to the variant cache (`--image-cache`, default
//! `{storage}/.variants/`) as `{path}/{width}-q{quality}-v{VERSION}.{ext}`
//! through a temporary file and a rename, so no request ever reads half a
//! file. Concurrent first requests for one variant wait for a single maker;
//! later ones read the file. A variant older than its original is made
//! again. The cache can be deleted at any time.
//!
//! Every image answer is `Cache-Control: public, max-age=31536000,
//! immutable` (stored files are never rewritten under the same name); a
//! variant's ETag names its original's size and time, the width, quality,
//! format and [`VERSION`], and a matching `If-None-Match` gets a 304. Bad
//! input (a path leaving the storage, a hidden file, `w` or `q` that is not a
//! number in range, `w` on a file that is not a picture) is a JSON 400; a
//! missing file is a JSON 404.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::SystemTime;

use anyhow::Context;
use axum::body::Body;
use axum::extract::rejection::PathRejection;
use axum::extract::{Request, State};
use axum::http::header::{HeaderValue, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE, ETAG, VARY};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use generator::serve::responsive_width;
use image::imageops::FilterType;
use image::{DynamicImage, GenericImageView, ImageReader};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;
use tower::ServiceExt;
use tower_http::services::ServeDir;

use crate::plumbing::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::surfaces::site::ASSET_CACHE_CONTROL;

/// The widest `w` accepted; a wider original is never stored by the shop.
pub const MAX_WIDTH: u32 = 4000;
/// The quality of a variant when the request names none.
pub const DEFAULT_QUALITY: u8 = 80;
/// The version of the variant maker, in variant file names and ETags: raise
/// it when the resizing or encoding changes, so old variants are not reused.
pub const VERSION: u32 = 1;
/// The variant cache's folder name inside the storage when none is set.
pub const DEFAULT_CACHE_DIR: &str = ".variants";
/// File extensions of the pictures that have variants.
pub const EXTENSIONS: &[&str] = &["jpg", "jpeg", "png", "webp"];

/// The routes under `/storage` (nest them there).
pub fn router() -> Router<AppState> {
    Router::new().route("/{*path}", get(storage))
}

/// The encoding of a variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Webp,
    Jpeg,
}

impl Format {
    /// WebP when `Accept` names `image/webp` (with a non-zero q), else JPEG: the
    /// rule the edge keys image variants by ([`negotiate::accepts_webp`]).
    pub fn for_accept(headers: &HeaderMap) -> Format {
        if negotiate::accepts_webp(headers) {
            Format::Webp
        } else {
            Format::Jpeg
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Format::Webp => "webp",
            Format::Jpeg => "jpg",
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            Format::Webp => "image/webp",
            Format::Jpeg => "image/jpeg",
        }
    }
}

/// The query of an image request; anything else in it is ignored.
#[derive(Debug, Default, Deserialize)]
struct VariantQuery {
    w: Option<String>,
    q: Option<String>,
}

/// Parses `w`: a whole number of pixels, 1 to [`MAX_WIDTH`], rounded up by
/// SPEC.md §9's rule.
pub fn parse_width(w: &str) -> ApiResult<u32> {
    match w.trim().parse::<u32>() {
        Ok(w @ 1..=MAX_WIDTH) => Ok(responsive_width(w)),
        _ => Err(ApiError::invalid(
            "w",
            format!("The width must be a whole number of pixels from 1 to {MAX_WIDTH}."),
        )),
    }
}

/// Parses `q`: 1 to 100, rounded up to a multiple of 5 (so a few variants
/// serve every request).
pub fn parse_quality(q: &str) -> ApiResult<u8> {
    match q.trim().parse::<u8>() {
        Ok(q @ 1..=100) => Ok(q.div_ceil(5) * 5),
        _ => Err(ApiError::invalid(
            "q",
            "The quality must be a whole number from 1 to 100.",
        )),
    }
}

/// The storage-relative path of a request, or `None` when it could leave the
/// storage or names a hidden file (`..`, `.`, `.variants`, `C:`, a backslash,
/// an empty segment).
pub fn safe_path(path: &str) -> Option<PathBuf> {
    let path = path.trim_start_matches('/');
    if path.is_empty() || path.contains(['\\', '\0']) {
        return None;
    }
    let mut out = PathBuf::new();
    for segment in path.split('/') {
        if segment.is_empty() || segment.starts_with('.') {
            return None;
        }
        let mut components = Path::new(segment).components();
        match (components.next(), components.next()) {
            (Some(Component::Normal(part)), None) => out.push(part),
            _ => return None,
        }
    }
    Some(out)
}

async fn storage(
    State(state): State<AppState>,
    path: Result<axum::extract::Path<String>, PathRejection>,
    request: Request,
) -> Response {
    match serve(&state, path, request).await {
        Ok(response) => response,
        Err(err) => err.into_response(),
    }
}

async fn serve(
    state: &AppState,
    path: Result<axum::extract::Path<String>, PathRejection>,
    request: Request,
) -> ApiResult<Response> {
    let invalid_path = || ApiError::invalid("path", "That is not a path in the storage.");
    let axum::extract::Path(path) = path.map_err(|_| invalid_path())?;
    let rel = safe_path(&path).ok_or_else(invalid_path)?;
    let query = axum::extract::Query::<VariantQuery>::try_from_uri(request.uri())
        .map_err(|rejection| ApiError::BadRequest {
            message: format!("Invalid query parameters: {}", rejection.body_text()),
            errors: Default::default(),
        })?
        .0;
    if query.w.is_none() && query.q.is_none() {
        return original(state, request).await;
    }
    let is_picture = rel
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
    if !is_picture {
        return Err(ApiError::invalid(
            "w",
            "Only pictures (JPEG, PNG, WebP) have sizes.",
        ));
    }
    let width = query.w.as_deref().map(parse_width).transpose()?;
    let quality = query
        .q
        .as_deref()
        .map(parse_quality)
        .transpose()?
        .unwrap_or(DEFAULT_QUALITY);
    let format = Format::for_accept(request.headers());
    let source = state.dirs.storage.join(&rel);
    let found = tokio::task::spawn_blocking(move || Original::open(source))
        .await
        .context("reading an image's size")??;
    let Some(original) = found else {
        return Err(ApiError::not_found("Image not found."));
    };
    let width = width.map_or(original.width, |w| w.min(original.width));
    let variant = Variant {
        path: state.dirs.image_cache.join(&rel).join(format!(
            "{width}-q{quality}-v{VERSION}.{}",
            format.extension()
        )),
        width,
        quality,
        format,
        original,
    };
    let etag = variant.etag(&rel);
    let mut response =
        if crate::surfaces::site::if_none_match(request.headers(), |tag| tag == "*" || tag == etag)
        {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            let bytes = variant.bytes().await?;
            let mut response = Body::from(bytes.clone()).into_response();
            let headers = response.headers_mut();
            headers.insert(
                CONTENT_TYPE,
                HeaderValue::from_static(format.content_type()),
            );
            headers.insert(CONTENT_LENGTH, HeaderValue::from(bytes.len()));
            response
        };
    let headers = response.headers_mut();
    headers.insert(CACHE_CONTROL, HeaderValue::from_static(ASSET_CACHE_CONTROL));
    headers.insert(VARY, HeaderValue::from_static("Accept"));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(ETAG, value);
    }
    Ok(response)
}

/// A stored file as it is (any kind: pictures, videos), cacheable for a year.
async fn original(state: &AppState, request: Request) -> ApiResult<Response> {
    let Ok(response) = ServeDir::new(&state.dirs.storage).oneshot(request).await;
    let status = response.status();
    if status == StatusCode::NOT_FOUND {
        return Err(ApiError::not_found("File not found."));
    }
    let mut response = response.into_response();
    if status.is_success() || status == StatusCode::NOT_MODIFIED {
        response
            .headers_mut()
            .insert(CACHE_CONTROL, HeaderValue::from_static(ASSET_CACHE_CONTROL));
    }
    Ok(response)
}

/// An original picture: where it is, when it changed, its width.
#[derive(Debug, Clone)]
struct Original {
    path: PathBuf,
    modified: SystemTime,
    len: u64,
    width: u32,
}

impl Original {
    /// Reads the file's metadata and the picture's size from its header;
    /// `None` when there is no such file.
    fn open(path: PathBuf) -> anyhow::Result<Option<Original>> {
        let meta = match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => meta,
            Ok(_) => return Ok(None),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(err).with_context(|| format!("reading {}", path.display())),
        };
        let (width, _) = ImageReader::open(&path)
            .and_then(|r| r.with_guessed_format())
            .with_context(|| format!("opening {}", path.display()))?
            .into_dimensions()
            .with_context(|| format!("reading the size of {}", path.display()))?;
        Ok(Some(Original {
            modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            len: meta.len(),
            width,
            path,
        }))
    }
}

/// One variant of an original: its width, quality and format, and its file
/// in the variant cache.
#[derive(Debug, Clone)]
struct Variant {
    original: Original,
    width: u32,
    quality: u8,
    format: Format,
    path: PathBuf,
}

/// Variants being made now, by cache file: later requests for one wait on
/// its lock, then read the file the first one wrote.
static MAKING: LazyLock<Mutex<HashMap<PathBuf, Arc<tokio::sync::Mutex<()>>>>> =
    LazyLock::new(Default::default);

/// At most one variant is made per CPU at a time: a burst of new sizes
/// queues here instead of starving the API.
static MAKERS: LazyLock<Semaphore> =
    LazyLock::new(|| Semaphore::new(std::thread::available_parallelism().map_or(2, |n| n.get())));

impl Variant {
    /// A strong ETag: a hash of what the variant is made from.
    fn etag(&self, rel: &Path) -> String {
        let since = self
            .original
            .modified
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default();
        let key = format!(
            "{}|{}|{}|{}|{}|{}|{VERSION}",
            rel.display(),
            self.original.len,
            since.as_nanos(),
            self.width,
            self.quality,
            self.format.extension()
        );
        let hash = Sha256::digest(key.as_bytes());
        let hex: String = hash[..10].iter().map(|b| format!("{b:02x}")).collect();
        format!("\"{hex}\"")
    }

    /// The variant's bytes: from the cache, or made (once) and cached.
    async fn bytes(&self) -> anyhow::Result<Vec<u8>> {
        if let Some(bytes) = self.cached().await? {
            return Ok(bytes);
        }
        let lock = {
            let mut making = MAKING.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(making.entry(self.path.clone()).or_default())
        };
        let result = {
            let _turn = lock.lock().await;
            match self.cached().await {
                Ok(Some(bytes)) => Ok(bytes),
                Ok(None) => self.make().await,
                Err(err) => Err(err),
            }
        };
        let mut making = MAKING.lock().unwrap_or_else(|e| e.into_inner());
        // Only the map and this request hold the lock: nobody waits on it.
        if Arc::strong_count(&lock) == 2 {
            making.remove(&self.path);
        }
        result
    }

    /// The cached file, when it exists and is not older than the original.
    async fn cached(&self) -> anyhow::Result<Option<Vec<u8>>> {
        let fresh = match tokio::fs::metadata(&self.path).await {
            Ok(meta) => meta
                .modified()
                .is_ok_and(|made| made >= self.original.modified),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => false,
            Err(err) => return Err(err).context("reading the variant cache"),
        };
        if !fresh {
            return Ok(None);
        }
        match tokio::fs::read(&self.path).await {
            Ok(bytes) => Ok(Some(bytes)),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(err).context("reading the variant cache"),
        }
    }

    /// Makes the variant on a blocking thread and writes it to the cache.
    async fn make(&self) -> anyhow::Result<Vec<u8>> {
        let _permit = MAKERS.acquire().await.context("image makers closed")?;
        let variant = self.clone();
        tokio::task::spawn_blocking(move || {
            let started = std::time::Instant::now();
            let bytes = variant.render()?;
            if let Err(err) = generator::serve::write_atomic(&variant.path, &bytes) {
                // Still answer: the next request tries again.
                tracing::warn!(path = %variant.path.display(), cause = %format!("{err:#}"), "cannot cache an image variant");
            }
            tracing::debug!(
                path = %variant.path.display(),
                bytes = bytes.len(),
                ms = started.elapsed().as_millis() as u64,
                "image variant made"
            );
            Ok(bytes)
        })
        .await
        .context("the image maker stopped")?
    }

    /// Decodes, resizes (Lanczos3) and encodes.
    fn render(&self) -> anyhow::Result<Vec<u8>> {
        let path = &self.original.path;
        let image = ImageReader::open(path)
            .and_then(|r| r.with_guessed_format())
            .with_context(|| format!("opening {}", path.display()))?
            .decode()
            .with_context(|| format!("decoding {}", path.display()))?;
        let (w, h) = image.dimensions();
        let image = if self.width < w {
            let height = ((u64::from(h) * u64::from(self.width) + u64::from(w) / 2) / u64::from(w))
                .max(1) as u32;
            image.resize_exact(self.width, height, FilterType::Lanczos3)
        } else {
            image
        };
        encode(&image, self.format, self.quality)
    }
}

/// Encodes a picture: JPEG (transparency flattened onto white) or lossy WebP.
pub fn encode(image: &DynamicImage, format: Format, quality: u8) -> anyhow::Result<Vec<u8>> {
    match format {
        Format::Jpeg => {
            let rgb = flatten(image);
            let mut out = Vec::new();
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality)
                .encode_image(&rgb)
                .context("encoding JPEG")?;
            Ok(out)
        }
        Format::Webp => {
            let memory = if image.color().has_alpha() {
                let rgba = image.to_rgba8();
                webp::Encoder::from_rgba(&rgba, rgba.width(), rgba.height())
                    .encode_simple(false, f32::from(quality))
            } else {
                let rgb = image.to_rgb8();
                webp::Encoder::from_rgb(&rgb, rgb.width(), rgb.height())
                    .encode_simple(false, f32::from(quality))
            }
            .map_err(|err| anyhow::anyhow!("encoding WebP: {err:?}"))?;
            Ok(memory.to_vec())
        }
    }
}

/// The picture as RGB, transparent parts over white.
fn flatten(image: &DynamicImage) -> image::RgbImage {
    if !image.color().has_alpha() {
        return image.to_rgb8();
    }
    let rgba = image.to_rgba8();
    image::RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        let over = |c: u8| ((u16::from(c) * u16::from(a) + 255 * (255 - u16::from(a))) / 255) as u8;
        image::Rgb([over(r), over(g), over(b)])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::ACCEPT;

    fn headers(accept: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(ACCEPT, HeaderValue::from_str(accept).unwrap());
        h
    }

    #[test]
    fn webp_only_when_accept_names_it() {
        let chrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
        assert_eq!(Format::for_accept(&headers(chrome)), Format::Webp);
        assert_eq!(Format::for_accept(&headers("image/*,*/*")), Format::Jpeg);
        assert_eq!(Format::for_accept(&headers("image/webp;q=0")), Format::Jpeg);
        assert_eq!(Format::for_accept(&HeaderMap::new()), Format::Jpeg);
    }

    #[test]
    fn widths_and_qualities_round_up_and_out_of_range_is_refused() {
        assert_eq!(parse_width("190").unwrap(), 200);
        assert_eq!(parse_width("20").unwrap(), 25);
        assert_eq!(parse_width("4000").unwrap(), 4000);
        for bad in ["0", "-1", "4001", "1e3", "abc", "", "99999999999"] {
            assert!(parse_width(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_quality("35").unwrap(), 35);
        assert_eq!(parse_quality("33").unwrap(), 35);
        assert_eq!(parse_quality("100").unwrap(), 100);
        for bad in ["0", "101", "x"] {
            assert!(parse_quality(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn paths_stay_inside_the_storage() {
        assert_eq!(
            safe_path("uploads/fullsize/a.jpg"),
            Some(PathBuf::from("uploads/fullsize/a.jpg"))
        );
        for bad in [
            "../x.jpg",
            "uploads/../../x.jpg",
            "./a.jpg",
            ".variants/a.jpg",
            "a//b.jpg",
            "a\\..\\b.jpg",
            "",
        ] {
            assert_eq!(safe_path(bad), None, "{bad}");
        }
    }
}
