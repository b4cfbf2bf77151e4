//! The generated site directory: where each page's file goes, precompression,
//! atomic writes, and the manifest that makes rebuilds incremental.
//!
//! A page at URL path `/product/sofa` is written as `product/sofa/index.html`
//! with `index.html.br` (and `index.html.gz` when asked for) beside it; a
//! path with a file extension (`/sitemap.xml`, `/404.html`) is written as
//! that file. A page the manifest lists is rewritten through a temporary name
//! in the same directory and a rename, so a reader (the origin, which serves
//! only what the manifest lists) never sees half a page; a new page is
//! written straight, as nobody reads it before the manifest names it.
//!
//! `manifest.json` maps each path to its content hash and surrogate keys. A
//! rebuild writes only the pages whose hash changed, removes the pages that
//! are gone, and reports both with their keys: that report is what the edge
//! purges.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

/// The manifest's file name inside the site directory.
pub const MANIFEST_FILE: &str = "manifest.json";

/// How hard to compress. The defaults were chosen from measured bytes and
/// seconds (`generator measure`, 32 KB product pages on this 2-core machine;
/// the table is in the README): brotli 3 makes pages 5 % larger than 4 and
/// 12 % larger than 5 (about 0.4 and 0.9 KB, 11 and 26 ms at 2G's
/// 280 kbit/s) in 72 % and 52 % of their time, which a 100,000-page build
/// needs to come near its minute (quality 9 and up cost 3–50× the time of 5
/// for under 10 %). No gzip copy of pages by default: browsers ask for
/// brotli over HTTPS, and the origin compresses the rare gzip-only request
/// itself, once per edge cache entry.
#[derive(Debug, Clone, Copy)]
pub struct Compression {
    /// Brotli quality, 0–11.
    pub brotli_quality: u32,
    /// Brotli window, log2 bytes (10–24).
    pub brotli_window: u32,
    /// Gzip level 0–9; `None` writes no `.gz` copy.
    pub gzip_level: Option<u32>,
}

impl Default for Compression {
    fn default() -> Self {
        Compression {
            brotli_quality: 3,
            brotli_window: 20,
            gzip_level: None,
        }
    }
}

/// One file of the site.
#[derive(Debug, Clone)]
pub struct Page {
    /// URL path, e.g. `/`, `/product/sofa`, `/sitemap.xml`.
    pub path: String,
    pub body: Vec<u8>,
    /// Surrogate keys: what a change to this page's data must purge.
    pub keys: Vec<String>,
}

/// What the manifest records of a page.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Entry {
    /// BLAKE3 of the uncompressed body, hex; also the page's ETag.
    pub hash: String,
    pub keys: Vec<String>,
    /// The instant (Unix seconds) whose data the page shows: the `now` of
    /// the build that rendered it last. Once a price change it shows has
    /// passed (`catalog::pricing::next_change_for(as_of, keys)`), the file
    /// is outdated until the watch rewrites it, and the origin sends it
    /// uncacheable. `None` in a manifest from before this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_of: Option<i64>,
}

impl Entry {
    /// Whether a price the page shows has changed at or before `now` since
    /// the data it was written from ([`Entry::as_of`]): a flash sale started
    /// or ended and the watch has not rewritten the file yet (it takes a
    /// moment, and a rebuild begun just before the boundary writes the old
    /// prices just after it). The origin sends such a copy uncacheable.
    pub async fn outdated(&self, pool: &catalog::db::Pool, now: i64) -> sqlx::Result<bool> {
        let Some(as_of) = self.as_of.filter(|t| *t < now) else {
            return Ok(false);
        };
        let change = catalog::pricing::next_change_for(pool, as_of, &self.keys).await?;
        Ok(change.is_some_and(|t| t <= now))
    }
}

/// Every page of the site, by URL path.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Manifest {
    pub pages: BTreeMap<String, Entry>,
}

impl Manifest {
    /// Reads `dir/manifest.json`; an absent file is an empty manifest.
    pub fn load(dir: &Path) -> anyhow::Result<Manifest> {
        let file = dir.join(MANIFEST_FILE);
        match fs::read(&file) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .with_context(|| format!("parsing {}", file.display())),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Manifest::default()),
            Err(err) => Err(err).with_context(|| format!("reading {}", file.display())),
        }
    }

    /// Writes `dir/manifest.json` atomically.
    pub fn save(&self, dir: &Path) -> anyhow::Result<()> {
        let bytes = serde_json::to_vec(self).context("serialising the manifest")?;
        write_atomic(&dir.join(MANIFEST_FILE), &bytes)
    }
}

/// A page a dry run ([`SiteWriter::open_dry`]) would write: its body and
/// compressed copies, kept in memory rather than in the site directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// URL path.
    pub path: String,
    /// The content hash ([`hash`], the ETag's source).
    pub hash: String,
    pub keys: Vec<String>,
    pub body: Vec<u8>,
    /// Brotli, as the site's `.br` copy would be.
    pub br: Vec<u8>,
    /// Gzip, as the origin would send it (the build's `.gz` level, or the
    /// level it compresses at on request).
    pub gz: Vec<u8>,
}

/// How a dry run renders: by when it must be done, and on which threads.
#[derive(Debug, Clone, Default)]
pub struct DryRun {
    /// Past this instant each further page fails the run (it is no use after
    /// the boundary it renders for).
    pub deadline: Option<std::time::SystemTime>,
    /// The threads that render and compress (e.g. a pool at low priority);
    /// none: rayon's global pool, as a build.
    pub threads: Option<std::sync::Arc<rayon::ThreadPool>>,
    /// Rendering for a boundary that reprices these products: a page whose
    /// content is unchanged is kept too when its freshness ends at the
    /// boundary ([`catalog::surrogate::priced_products`]: a list, the flash
    /// sales, the home page, or a page showing one of them), so its staged
    /// successor renews it there with no origin request. None: only pages
    /// whose content changed.
    pub renew: Option<std::sync::Arc<BTreeSet<i64>>>,
}

impl DryRun {
    /// Whether an unchanged page with these keys is kept (see [`DryRun::renew`]).
    fn renews(&self, keys: &[String]) -> bool {
        self.renew.as_ref().is_some_and(|repriced| {
            catalog::surrogate::priced_products(keys)
                .is_none_or(|ids| ids.iter().any(|id| repriced.contains(id)))
        })
    }
}

/// What a write of pages changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteReport {
    /// Paths written because they are new or their content changed.
    pub written: Vec<String>,
    /// Paths whose content was unchanged (not rewritten).
    pub unchanged: usize,
    /// Paths removed because they are no longer generated.
    pub removed: Vec<String>,
    /// The surrogate keys of every written or removed page.
    pub keys: BTreeSet<String>,
    /// Bytes written: uncompressed, brotli, gzip.
    pub bytes: (u64, u64, u64),
    /// The content hash of each written page.
    pub hashes: BTreeMap<String, String>,
    /// A dry run's pages (in `written`'s order); empty for a write.
    pub rendered: Vec<Rendered>,
}

/// The outcome of writing one page.
#[derive(Debug)]
pub enum PageOutcome {
    Unchanged,
    Written {
        raw: u64,
        br: u64,
        gz: u64,
    },
    /// A dry run's page, not written.
    Rendered(Box<Rendered>),
}

/// A dry run's version of [`write_page`]: the page and its compressed copies
/// in memory, unless `old` has the same content (and `dry` does not renew it).
fn render_page(
    page: &Page,
    old: Option<&Entry>,
    compression: Compression,
    shared: &SharedParts,
    dry: &DryRun,
) -> anyhow::Result<(Entry, PageOutcome)> {
    let entry = Entry {
        hash: hash(&page.body),
        keys: page.keys.clone(),
        as_of: None,
    };
    if old.is_some_and(|o| o.hash == entry.hash) && !dry.renews(&page.keys) {
        return Ok((entry, PageOutcome::Unchanged));
    }
    file_for(&page.path)?;
    let br = shared.brotli(&page.body, compression)?;
    let gz = gzip_bytes(
        &page.body,
        compression
            .gzip_level
            .unwrap_or(crate::answer::GZIP_ON_REQUEST),
    )?;
    let rendered = Rendered {
        path: page.path.clone(),
        hash: entry.hash.clone(),
        keys: page.keys.clone(),
        body: page.body.clone(),
        br,
        gz,
    };
    Ok((entry, PageOutcome::Rendered(Box::new(rendered))))
}

/// The file a URL path is written to, relative to the site directory.
/// Refuses paths that could escape it.
pub fn file_for(path: &str) -> anyhow::Result<PathBuf> {
    let trimmed = path.trim_start_matches('/');
    let rel = Path::new(trimmed);
    if !path.starts_with('/') || rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        bail!("page path {path:?} is not a clean absolute URL path");
    }
    let last = trimmed.rsplit('/').next().unwrap_or("");
    if trimmed.is_empty() || trimmed.ends_with('/') {
        Ok(rel.join("index.html"))
    } else if last.contains('.') {
        Ok(rel.to_path_buf())
    } else {
        Ok(rel.join("index.html"))
    }
}

/// The content hash of a body.
pub fn hash(body: &[u8]) -> String {
    blake3::hash(body).to_hex().to_string()
}

/// Writes `page` under `dir` with its compressed copies, unless `old` says the
/// same content is already there. Safe to call from many threads at once.
pub fn write_page(
    dir: &Path,
    page: &Page,
    old: Option<&Entry>,
    compression: Compression,
    shared: &SharedParts,
) -> anyhow::Result<(Entry, PageOutcome)> {
    let entry = Entry {
        hash: hash(&page.body),
        keys: page.keys.clone(),
        as_of: None,
    };
    let file = dir.join(file_for(&page.path)?);
    if old.is_some_and(|o| o.hash == entry.hash) && file.exists() {
        return Ok((entry, PageOutcome::Unchanged));
    }
    let parent = file
        .parent()
        .context("a site file has a parent directory")?;
    fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    // A page the manifest does not list yet is served by no one until the
    // manifest is saved: its files are written straight, without the
    // temporary name and rename that keep a served page whole.
    let write = |file: &Path, bytes: &[u8]| match old {
        Some(_) => write_in_place(file, bytes),
        None => fs::write(file, bytes).with_context(|| format!("writing {}", file.display())),
    };
    let br = shared.brotli(&page.body, compression)?;
    write(&with_suffix(&file, ".br"), &br)?;
    let gz = match compression.gzip_level {
        Some(level) => {
            let gz = gzip_bytes(&page.body, level)?;
            write(&with_suffix(&file, ".gz"), &gz)?;
            gz.len() as u64
        }
        None => {
            // A copy from an earlier build that kept one would be stale.
            remove_if_present(&with_suffix(&file, ".gz"))?;
            0
        }
    };
    // The uncompressed file goes last: its presence marks the page complete.
    write(&file, &page.body)?;
    Ok((
        entry,
        PageOutcome::Written {
            raw: page.body.len() as u64,
            br: br.len() as u64,
            gz,
        },
    ))
}

/// Whether a write covers the whole site (pages it does not name are gone)
/// or only some pages (the rest stay as they are).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Full,
    Partial,
}

/// Writes `pages` into `dir` in parallel, updates the manifest, and, for a
/// full build, removes pages that are no longer generated. Returns what changed.
#[cfg(test)]
pub fn write_pages(
    dir: &Path,
    pages: &[Page],
    compression: Compression,
    scope: Scope,
) -> anyhow::Result<WriteReport> {
    let mut writer = SiteWriter::open(dir, compression)?;
    writer.write(pages)?;
    writer.finish(scope)
}

/// Writes a site in batches, so a large build never holds every page in
/// memory: [`SiteWriter::write`] as many times as needed, then
/// [`SiteWriter::finish`] once (which removes what is gone, for a full build,
/// and saves the manifest).
#[derive(Debug)]
pub struct SiteWriter {
    dir: PathBuf,
    compression: Compression,
    shared: SharedParts,
    manifest: Manifest,
    seen: BTreeSet<String>,
    report: WriteReport,
    /// A dry run: nothing is written, the pages are kept in the report.
    dry: Option<DryRun>,
    /// The instant whose data the pages written show ([`Entry::as_of`]).
    as_of: Option<i64>,
}

impl SiteWriter {
    /// A writer that writes nothing: it reads `dir`'s manifest (which need
    /// not exist) and keeps each page whose content differs from it, with
    /// its compressed copies, in [`WriteReport::rendered`]. `finish` removes
    /// nothing and saves no manifest.
    pub fn open_dry(
        dir: &Path,
        compression: Compression,
        dry: DryRun,
    ) -> anyhow::Result<SiteWriter> {
        Ok(SiteWriter {
            dir: dir.to_path_buf(),
            compression,
            shared: SharedParts::default(),
            manifest: Manifest::load(dir)?,
            seen: BTreeSet::new(),
            report: WriteReport::default(),
            dry: Some(dry),
            as_of: None,
        })
    }

    /// Whether this is a dry run.
    pub fn is_dry(&self) -> bool {
        self.dry.is_some()
    }

    /// Opens `dir` (created when absent) and reads its manifest.
    pub fn open(dir: &Path, compression: Compression) -> anyhow::Result<SiteWriter> {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(SiteWriter {
            dir: dir.to_path_buf(),
            compression,
            shared: SharedParts::default(),
            manifest: Manifest::load(dir)?,
            seen: BTreeSet::new(),
            report: WriteReport::default(),
            dry: None,
            as_of: None,
        })
    }

    /// Records the pages written from now on as showing the data of instant
    /// `now` (Unix seconds, [`Entry::as_of`]).
    pub fn as_of(&mut self, now: i64) {
        self.as_of = Some(now);
    }

    /// Compresses the pages written from now on with these shared parts.
    pub fn share(&mut self, parts: SharedParts) {
        self.shared = parts;
    }

    /// The manifest as it was before this write (and the pages written so far).
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// Writes a batch of pages in parallel (compressing those that changed).
    pub fn write(&mut self, pages: &[Page]) -> anyhow::Result<()> {
        self.write_each(pages, Ok)
    }

    /// Renders each item into its page and writes it, in parallel, one item
    /// after the other on each thread (no page waits for a whole batch to
    /// render before it is compressed).
    pub fn render_and_write<T: Sync>(
        &mut self,
        items: &[T],
        render: impl Fn(&T) -> anyhow::Result<Page> + Sync + Send,
    ) -> anyhow::Result<()> {
        self.write_each(items, render)
    }

    /// Writes the page `page_of` gives for each item (rendered or borrowed).
    fn write_each<'a, T: Sync, P: std::borrow::Borrow<Page>>(
        &mut self,
        items: &'a [T],
        page_of: impl Fn(&'a T) -> anyhow::Result<P> + Sync + Send,
    ) -> anyhow::Result<()> {
        use rayon::prelude::*;

        let manifest = &self.manifest;
        let (dir, compression, shared, as_of) =
            (&self.dir, self.compression, &self.shared, self.as_of);
        let dry = self.dry.as_ref();
        let deadline = dry.and_then(|d| d.deadline);
        let each = || {
            items
                .par_iter()
                .map(|item| {
                    if deadline.is_some_and(|d| std::time::SystemTime::now() >= d) {
                        bail!("past the dry run's deadline");
                    }
                    let page = page_of(item)?;
                    let page = page.borrow();
                    let old = manifest.pages.get(&page.path);
                    let (mut entry, outcome) = match dry {
                        Some(dry) => render_page(page, old, compression, shared, dry)?,
                        None => write_page(dir, page, old, compression, shared)?,
                    };
                    entry.as_of = as_of;
                    Ok((page.path.clone(), entry, outcome))
                })
                .collect::<anyhow::Result<Vec<(String, Entry, PageOutcome)>>>()
        };
        let outcomes = match dry.and_then(|d| d.threads.as_ref()) {
            Some(threads) => threads.install(each)?,
            None => each()?,
        };
        for (path, entry, outcome) in outcomes {
            self.seen.insert(path.clone());
            let (raw, br, gz) = match outcome {
                PageOutcome::Unchanged => {
                    self.report.unchanged += 1;
                    self.manifest.pages.insert(path, entry);
                    continue;
                }
                PageOutcome::Written { raw, br, gz } => (raw, br, gz),
                PageOutcome::Rendered(page) => {
                    let sizes = (
                        page.body.len() as u64,
                        page.br.len() as u64,
                        page.gz.len() as u64,
                    );
                    self.report.rendered.push(*page);
                    sizes
                }
            };
            self.report.written.push(path.clone());
            self.report.hashes.insert(path.clone(), entry.hash.clone());
            self.report.keys.extend(entry.keys.iter().cloned());
            self.report.bytes.0 += raw;
            self.report.bytes.1 += br;
            self.report.bytes.2 += gz;
            self.manifest.pages.insert(path, entry);
        }
        Ok(())
    }

    /// Removes the pages not written by a full build, saves the manifest and
    /// returns what changed.
    pub fn finish(mut self, scope: Scope) -> anyhow::Result<WriteReport> {
        if self.dry.is_some() {
            if scope == Scope::Full {
                let seen = &self.seen;
                self.report.removed = (self.manifest.pages.keys())
                    .filter(|p| !seen.contains(*p))
                    .cloned()
                    .collect();
            }
            return Ok(self.report);
        }
        if scope == Scope::Full {
            let gone: Vec<String> = self
                .manifest
                .pages
                .keys()
                .filter(|p| !self.seen.contains(*p))
                .cloned()
                .collect();
            for path in gone {
                remove_page(&self.dir, &path)?;
                if let Some(entry) = self.manifest.pages.remove(&path) {
                    self.report.keys.extend(entry.keys);
                }
                self.report.removed.push(path);
            }
        }
        self.manifest.save(&self.dir)?;
        Ok(self.report)
    }
}

/// Removes a page's files (the page and its compressed copies).
pub fn remove_page(dir: &Path, path: &str) -> anyhow::Result<()> {
    let file = dir.join(file_for(path)?);
    for f in [with_suffix(&file, ".br"), with_suffix(&file, ".gz"), file] {
        remove_if_present(&f)?;
    }
    Ok(())
}

/// Removes `file`; one that is not there is fine.
pub(crate) fn remove_if_present(file: &Path) -> anyhow::Result<()> {
    match fs::remove_file(file) {
        Ok(()) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(err) => Err(err).with_context(|| format!("removing {}", file.display())),
    }
}

/// Parts that many pages repeat byte for byte (the inline stylesheet, the
/// header with its menus, the footer, the inline scripts), compressed once.
/// In a page, shared parts that follow each other with little between them
/// (at most [`Self::GAP`] bytes, such as `</style></head><body>`), and the
/// end of the page after the last of them, make one run; each distinct run
/// is compressed once, at brotli's best quality, and kept. A page's brotli
/// copy is then its own parts, compressed as it is written, and its runs,
/// joined into one stream by brotli's concatenation
/// ([`brotli::concat::BroCatli`]): every stream after the first is
/// "catable", which refers to nothing before it and not to brotli's
/// built-in dictionary. On 37 KB product pages, about half of each page is
/// in runs: this halves the compression time (0.48 → 0.23 ms a page at
/// brotli 3) for 0.8 % more bytes (`generator measure`; README, "Generator").
#[derive(Default)]
pub struct SharedParts {
    finders: Vec<memchr::memmem::Finder<'static>>,
    window: u32,
    /// Compressed runs by the BLAKE3 of their bytes.
    runs: std::sync::RwLock<std::collections::HashMap<[u8; 32], std::sync::Arc<Vec<u8>>>>,
}

impl std::fmt::Debug for SharedParts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SharedParts({} parts)", self.finders.len())
    }
}

impl SharedParts {
    /// Parts shorter than this are left in the page's own parts: splitting
    /// around them would save less than it costs in bytes.
    pub const MIN_LEN: usize = 1024;
    /// The most bytes between two shared parts (or after the last one, to
    /// the end of the page) that a run takes in.
    pub const GAP: usize = 128;
    /// The most distinct runs kept; past it a run is compressed with the page.
    pub const MAX_RUNS: usize = 64;

    /// Looks for each distinct part of at least [`Self::MIN_LEN`] bytes; runs
    /// are compressed with the pages' brotli window (joined streams must share it).
    pub fn new(parts: impl IntoIterator<Item = String>, compression: Compression) -> SharedParts {
        let mut seen = BTreeSet::new();
        let finders = parts
            .into_iter()
            .filter(|part| part.len() >= Self::MIN_LEN && seen.insert(part.clone()))
            .map(|part| memchr::memmem::Finder::new(part.as_bytes()).into_owned())
            .collect();
        SharedParts {
            finders,
            window: compression.brotli_window,
            runs: Default::default(),
        }
    }

    /// How many parts are looked for.
    #[cfg(test)]
    fn part_count(&self) -> usize {
        self.finders.len()
    }

    /// How many distinct runs have been compressed and kept.
    pub fn runs(&self) -> usize {
        self.runs.read().map_or(0, |r| r.len())
    }

    /// Brotli-compresses `body`, each of its runs of shared parts once.
    pub fn brotli(&self, body: &[u8], compression: Compression) -> anyhow::Result<Vec<u8>> {
        if compression.brotli_window != self.window {
            return brotli_bytes(body, compression);
        }
        let mut found: Vec<(usize, usize)> = self
            .finders
            .iter()
            .filter_map(|f| f.find(body).map(|at| (at, at + f.needle().len())))
            .collect();
        found.sort_unstable();
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for (start, end) in found {
            match runs.last_mut() {
                Some(last) if start < last.1 => {} // overlaps: left in the page
                Some(last) if start - last.1 <= Self::GAP => last.1 = end,
                _ => runs.push((start, end)),
            }
        }
        let Some(last) = runs.last_mut() else {
            return brotli_bytes(body, compression);
        };
        if body.len() - last.1 <= Self::GAP {
            last.1 = body.len();
        }
        let own = |part: &[u8], first: bool| {
            brotli_stream(part, compression.brotli_quality, self.window, !first)
        };
        let mut streams: Vec<std::sync::Arc<Vec<u8>>> = Vec::new();
        let mut at = 0;
        for (start, end) in runs {
            if start > at {
                streams.push(own(&body[at..start], streams.is_empty())?.into());
            }
            let run = &body[start..end];
            match self.run(run)? {
                Some(br) => streams.push(br),
                None => streams.push(own(run, streams.is_empty())?.into()),
            }
            at = end;
        }
        if at < body.len() {
            streams.push(own(&body[at..], streams.is_empty())?.into());
        }
        let streams: Vec<&[u8]> = streams.iter().map(|s| s.as_slice()).collect();
        concatenate(&streams)
    }

    /// The kept stream of a run, compressed now if it is new; `None` once
    /// [`Self::MAX_RUNS`] are kept and this one is not among them.
    fn run(&self, bytes: &[u8]) -> anyhow::Result<Option<std::sync::Arc<Vec<u8>>>> {
        let key = *blake3::hash(bytes).as_bytes();
        let poisoned = || anyhow::anyhow!("a thread failed while compressing shared parts");
        if let Some(br) = self.runs.read().map_err(|_| poisoned())?.get(&key) {
            return Ok(Some(br.clone()));
        }
        if self.runs() >= Self::MAX_RUNS {
            return Ok(None);
        }
        let br = std::sync::Arc::new(brotli_stream(bytes, 11, self.window, true)?);
        let mut runs = self.runs.write().map_err(|_| poisoned())?;
        Ok(Some(runs.entry(key).or_insert(br).clone()))
    }
}

/// One brotli stream of `data`: "catable" (to follow other streams), or
/// else "appendable" (to be followed by them; it may use the dictionary).
fn brotli_stream(data: &[u8], quality: u32, window: u32, catable: bool) -> anyhow::Result<Vec<u8>> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: quality as i32,
        lgwin: window as i32,
        catable,
        appendable: true,
        use_dictionary: !catable,
        size_hint: data.len(),
        ..Default::default()
    };
    let mut out = Vec::with_capacity(data.len() / 3 + 16);
    {
        let mut w = brotli::CompressorWriter::with_params(&mut out, 16 * 1024, &params);
        w.write_all(data).context("brotli")?;
        w.flush().context("brotli")?;
    }
    Ok(out)
}

/// Joins brotli streams made for it ([`brotli_stream`]) into one.
fn concatenate(streams: &[&[u8]]) -> anyhow::Result<Vec<u8>> {
    use brotli::concat::{BroCatli, BroCatliResult};
    let mut out = vec![0u8; streams.iter().map(|s| s.len()).sum::<usize>() + 16];
    let mut written = 0;
    let mut cat = BroCatli::new();
    for stream in streams {
        cat.new_brotli_file();
        let mut read = 0;
        match cat.stream(stream, &mut read, &mut out, &mut written) {
            BroCatliResult::NeedsMoreInput | BroCatliResult::Success if read == stream.len() => {}
            other => bail!("joining brotli streams: {other:?}"),
        }
    }
    match cat.finish(&mut out, &mut written) {
        BroCatliResult::Success => {}
        other => bail!("ending joined brotli streams: {other:?}"),
    }
    out.truncate(written);
    Ok(out)
}

/// Brotli-compresses `body`.
pub fn brotli_bytes(body: &[u8], compression: Compression) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len() / 4);
    let mut w = brotli::CompressorWriter::new(
        &mut out,
        16 * 1024,
        compression.brotli_quality,
        compression.brotli_window,
    );
    w.write_all(body).context("brotli")?;
    w.flush().context("brotli")?;
    drop(w);
    Ok(out)
}

/// Gzip-compresses `body` at `level`.
pub fn gzip_bytes(body: &[u8], level: u32) -> anyhow::Result<Vec<u8>> {
    let mut w = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 3),
        flate2::Compression::new(level),
    );
    w.write_all(body).context("gzip")?;
    w.finish().context("gzip")
}

pub(crate) fn with_suffix(file: &Path, suffix: &str) -> PathBuf {
    let mut s = file.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Writes `bytes` to `file` through a temporary file and a rename.
pub fn write_atomic(file: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let parent = file
        .parent()
        .context("a site file has a parent directory")?;
    fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    write_in_place(file, bytes)
}

/// [`write_atomic`] into a directory that exists.
fn write_in_place(file: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let parent = file
        .parent()
        .context("a site file has a parent directory")?;
    let mut tmp = tempfile::NamedTempFile::new_in(parent)
        .with_context(|| format!("temp file in {}", parent.display()))?;
    tmp.write_all(bytes)
        .with_context(|| format!("writing {}", file.display()))?;
    tmp.persist(file)
        .with_context(|| format!("renaming into {}", file.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn page(path: &str, body: &str, keys: &[&str]) -> Page {
        Page {
            path: path.into(),
            body: body.as_bytes().to_vec(),
            keys: keys.iter().map(|k| k.to_string()).collect(),
        }
    }

    #[test]
    fn paths_map_to_index_files_or_named_files_and_never_escape() {
        assert_eq!(file_for("/").unwrap(), PathBuf::from("index.html"));
        assert_eq!(
            file_for("/product/sofa").unwrap(),
            PathBuf::from("product/sofa/index.html")
        );
        assert_eq!(
            file_for("/c/beds/").unwrap(),
            PathBuf::from("c/beds/index.html")
        );
        assert_eq!(
            file_for("/sitemap.xml").unwrap(),
            PathBuf::from("sitemap.xml")
        );
        assert!(file_for("/../etc/passwd").is_err());
        assert!(file_for("relative").is_err());
        assert!(file_for("/a/./b").is_ok_and(|p| p == Path::new("a/b/index.html")));
    }

    #[test]
    fn a_page_is_written_with_brotli_and_gzip_copies_that_decompress_to_it() {
        let dir = tempfile::tempdir().unwrap();
        let body = "<!doctype html><title>Sofa</title>".repeat(50);
        let with_gzip = Compression {
            gzip_level: Some(1),
            ..Compression::default()
        };
        let (entry, outcome) = write_page(
            dir.path(),
            &page("/product/sofa", &body, &["product:1"]),
            None,
            with_gzip,
            &SharedParts::default(),
        )
        .unwrap();
        assert!(matches!(outcome, PageOutcome::Written { .. }));
        assert_eq!(entry.hash, hash(body.as_bytes()));
        let base = dir.path().join("product/sofa/index.html");
        assert_eq!(fs::read_to_string(&base).unwrap(), body);
        let mut br = Vec::new();
        brotli::Decompressor::new(fs::File::open(with_suffix(&base, ".br")).unwrap(), 4096)
            .read_to_end(&mut br)
            .unwrap();
        assert_eq!(br, body.as_bytes());
        let mut gz = String::new();
        flate2::read::GzDecoder::new(fs::File::open(with_suffix(&base, ".gz")).unwrap())
            .read_to_string(&mut gz)
            .unwrap();
        assert_eq!(gz, body);

        // Rewritten without a gzip copy (the default), the old one goes: it
        // would be stale.
        let (_, outcome) = write_page(
            dir.path(),
            &page("/product/sofa", "<p>new sofa</p>", &["product:1"]),
            Some(&entry),
            Compression::default(),
            &SharedParts::default(),
        )
        .unwrap();
        assert!(matches!(outcome, PageOutcome::Written { gz: 0, .. }));
        assert!(base.exists() && with_suffix(&base, ".br").exists());
        assert!(!with_suffix(&base, ".gz").exists());
    }

    /// Decompresses a brotli stream.
    fn unbrotli(br: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        brotli::Decompressor::new(br, 4096)
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn shared_parts_are_compressed_once_and_joined_into_a_stream_that_decompresses_to_the_page() {
        let c = Compression::default();
        let style = format!("<style>{}</style>", "body{margin:0}a{color:red}".repeat(60));
        let header = format!(
            "<header>{}</header>",
            "<a href=\"/c/sofa\">Sofa</a>".repeat(60)
        );
        let script = format!("<script>{}</script>", "console.log(1);".repeat(90));
        let short = "<footer>tiny</footer>".to_string();
        let shared = SharedParts::new(
            [
                style.clone(),
                header.clone(),
                script.clone(),
                short.clone(),
                style.clone(),
            ],
            c,
        );
        assert_eq!(
            shared.part_count(),
            3,
            "distinct parts of at least MIN_LEN bytes"
        );
        let own = "<main><h1>Oslo Bed</h1><p>Teak, king size.</p></main>".repeat(20);
        let other = "<main><h1>Rio Sofa</h1><p>Oak, three seats.</p></main>".repeat(20);
        let layouts = [
            // The page's own parts around shared ones; style and header one
            // run (a short gap), the script and the page's end another.
            format!("<!doctype html>{style}<body>{header}{own}{short}{script}</body>"),
            // The same runs around other own parts: nothing new compressed.
            format!("<!doctype html>{style}<body>{header}{other}{short}{script}</body>"),
            // Shared parts at the very start, side by side, and twice.
            format!("{style}{header}{own}{script}{script}"),
            // A shared part far from the end, followed by the page's own.
            format!("{header}{own}"),
            // None of them: compressed whole.
            own.clone(),
            String::new(),
        ];
        let mut runs = Vec::new();
        for body in &layouts {
            let br = shared.brotli(body.as_bytes(), c).unwrap();
            assert_eq!(unbrotli(&br), body.as_bytes(), "{:.60}", body);
            runs.push(shared.runs());
        }
        assert_eq!(runs, [2, 2, 4, 5, 5, 5], "runs kept after each page");
        // Another window than the runs were made for: the page is compressed whole.
        let wide = Compression {
            brotli_window: 22,
            ..c
        };
        let br = shared.brotli(layouts[0].as_bytes(), wide).unwrap();
        assert_eq!(br, brotli_bytes(layouts[0].as_bytes(), wide).unwrap());
    }

    #[test]
    fn an_unchanged_page_is_not_rewritten_and_a_changed_one_is() {
        let dir = tempfile::tempdir().unwrap();
        let p = page("/", "<p>home</p>", &["home"]);
        let none = SharedParts::default();
        let (entry, _) = write_page(dir.path(), &p, None, Compression::default(), &none).unwrap();
        let (_, outcome) =
            write_page(dir.path(), &p, Some(&entry), Compression::default(), &none).unwrap();
        assert!(matches!(outcome, PageOutcome::Unchanged));
        let (_, outcome) = write_page(
            dir.path(),
            &page("/", "<p>new home</p>", &["home"]),
            Some(&entry),
            Compression::default(),
            &SharedParts::default(),
        )
        .unwrap();
        assert!(matches!(outcome, PageOutcome::Written { .. }));
        assert_eq!(
            fs::read_to_string(dir.path().join("index.html")).unwrap(),
            "<p>new home</p>"
        );
    }

    #[test]
    fn a_full_rebuild_reports_written_and_removed_pages_with_their_keys() {
        let dir = tempfile::tempdir().unwrap();
        let c = Compression::default();
        let first = [
            page("/", "home", &["home"]),
            page("/product/a", "a", &["product:1"]),
            page("/product/b", "b", &["product:2"]),
        ];
        let r = write_pages(dir.path(), &first, c, Scope::Full).unwrap();
        assert_eq!(r.written.len(), 3);
        // b's price changed, a is gone, home is the same.
        let second = [
            page("/", "home", &["home"]),
            page("/product/b", "b2", &["product:2"]),
        ];
        let r = write_pages(dir.path(), &second, c, Scope::Full).unwrap();
        assert_eq!(r.written, vec!["/product/b".to_string()]);
        assert_eq!(r.removed, vec!["/product/a".to_string()]);
        assert_eq!(r.unchanged, 1);
        assert_eq!(
            r.keys.into_iter().collect::<Vec<_>>(),
            vec!["product:1".to_string(), "product:2".to_string()]
        );
        assert!(!dir.path().join("product/a/index.html").exists());
        // A partial write leaves pages it does not name alone.
        let r = write_pages(
            dir.path(),
            &[page("/product/c", "c", &["product:3"])],
            c,
            Scope::Partial,
        )
        .unwrap();
        assert!(r.removed.is_empty());
        assert_eq!(Manifest::load(dir.path()).unwrap().pages.len(), 3);
    }

    #[test]
    fn removing_a_page_removes_its_copies_and_the_manifest_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let (entry, _) = write_page(
            dir.path(),
            &page("/blogs/a", "x", &["post:1"]),
            None,
            Compression::default(),
            &SharedParts::default(),
        )
        .unwrap();
        remove_page(dir.path(), "/blogs/a").unwrap();
        assert!(!dir.path().join("blogs/a/index.html").exists());
        assert!(!dir.path().join("blogs/a/index.html.br").exists());
        remove_page(dir.path(), "/blogs/a").unwrap(); // idempotent
        let mut m = Manifest::default();
        m.pages.insert("/blogs/a".into(), entry);
        m.save(dir.path()).unwrap();
        assert_eq!(Manifest::load(dir.path()).unwrap(), m);
        assert_eq!(
            Manifest::load(&dir.path().join("absent")).unwrap(),
            Manifest::default()
        );
    }
}
