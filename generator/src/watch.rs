//! `generator watch`: keeps the site current and the edge honest.
//!
//! It builds once at start (incrementally: only pages whose content changed
//! are written), remembers the last `change_log` id, and then polls the log.
//! New rows trigger a rebuild, which writes only the pages whose content
//! hash changed ([`crate::output`]); a flash sale's start or end
//! ([`catalog::pricing::next_price_change`]) triggers one at that very
//! instant, built with `now` = the boundary, so sale prices appear and go on
//! time. When only products changed (an edit, an order's stock, a sale's
//! prices), the rebuild renders just the product pages that show one of
//! them ([`crate::build::pages_showing`]) and the few other pages; any other
//! change (a menu, a setting, a category, a new or removed product) renders
//! every page. A targeted rebuild keeps each other product page's related
//! lists as they were: a list that would now include a changed product
//! catches up at the next full build. After each rebuild the written and
//! removed pages, and the surrogate keys of the rows that changed, are
//! purged at the edge (hard) by a background task that retries with backoff:
//! a purge that fails is logged and retried, never fatal, and never delays
//! the next rebuild.
//!
//! Some minutes before each boundary ([`WatchOptions::stage_lead`]) the pages
//! that change at it are rendered into memory and staged at every edge
//! ([`crate::stage`]); each edge's task sends its purges and stagings in the
//! order they were made. The boundary's rebuild does not purge the pages it
//! writes with the content staged at an edge that took the staging, has had
//! no purge of them since and still lists them (`GET /staged`): the edge
//! switches to them by itself.

use catalog::db;
use catalog::surrogate::SurrogateKey;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use serde::Serialize;
use tokio::sync::mpsc;

use crate::build::{build_for, BuildOptions, BuildReport, Products};
use crate::stage::{Chunk, Staging};

/// Purge requests carry at most this many URLs (the edge takes 1 MiB bodies).
const URLS_PER_REQUEST: usize = 2_000;
/// Past this many URLs or tags a purge is of everything: one rule instead of
/// thousands, and the whole site has changed anyway (a menu or setting edit).
const PURGE_ALL_OVER: usize = 10_000;
/// The longest wait between retries of a failed purge.
const MAX_BACKOFF: Duration = Duration::from_secs(10);

/// What to watch and where to purge.
#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// The build; its `now` is replaced by each rebuild's instant.
    pub build: BuildOptions,
    /// The edges to purge (every edge of a cluster: each gets every purge,
    /// retried until it takes it); none, nothing is purged.
    pub edges: Vec<EdgeAdmin>,
    /// How often the change log is read.
    pub poll: Duration,
    /// How long before a flash-sale boundary the pages that change at it are
    /// rendered and staged at the edges; `None`: never staged (the
    /// boundary's rebuild purges them, and the edges ask the origin).
    pub stage_lead: Option<Duration>,
}

/// The edge's admin API.
#[derive(Debug, Clone)]
pub struct EdgeAdmin {
    /// Base URL, e.g. `http://127.0.0.1:9080`.
    pub url: String,
    /// The bearer token of `POST /purge`.
    pub token: Option<String>,
}

/// What to purge at the edge: paths and surrogate keys, or everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Purge {
    pub urls: BTreeSet<String>,
    pub tags: BTreeSet<String>,
    pub all: bool,
    /// Those of `urls` that an edge holding them staged (with the content
    /// just written) is not sent: a purge would drop the staged successor.
    pub unless_staged: BTreeSet<String>,
    /// The boundary (Unix milliseconds) of the staging `unless_staged` refers to.
    pub spare_at_ms: Option<i64>,
}

/// One `POST /purge` body.
#[derive(Debug, Serialize)]
struct PurgeBody<'a> {
    urls: Vec<&'a str>,
    tags: Vec<&'a str>,
    all: bool,
    soft: bool,
}

impl Purge {
    /// Nothing to purge.
    pub fn is_empty(&self) -> bool {
        !self.all && self.urls.is_empty() && self.tags.is_empty()
    }

    /// Adds another purge to this one.
    pub fn merge(&mut self, other: Purge) {
        // A URL stays spared only if no purge names it without sparing it.
        let spared = |p: &Purge, u: &String| !p.urls.contains(u) || p.unless_staged.contains(u);
        let unless: BTreeSet<String> = self
            .unless_staged
            .iter()
            .chain(&other.unless_staged)
            .filter(|u| spared(self, u) && spared(&other, u))
            .cloned()
            .collect();
        self.unless_staged = unless;
        match (self.spare_at_ms, other.spare_at_ms) {
            (Some(a), Some(b)) if a != b => self.unless_staged.clear(),
            (None, b) => self.spare_at_ms = b,
            _ => {}
        }
        self.all |= other.all;
        self.urls.extend(other.urls);
        self.tags.extend(other.tags);
        if self.urls.len() > PURGE_ALL_OVER || self.tags.len() > PURGE_ALL_OVER {
            self.all = true;
        }
        if self.all {
            self.urls.clear();
            self.tags.clear();
            self.unless_staged.clear();
        }
    }

    /// This purge for an edge that holds `staged` (URL path → surrogate
    /// keys): the URLs it may spare that are staged there are left out.
    fn for_edge(&self, staged_at: Option<i64>, staged: &BTreeMap<String, Vec<String>>) -> Purge {
        let mut p = self.clone();
        let here = self.spare_at_ms.is_some() && self.spare_at_ms == staged_at;
        p.urls
            .retain(|u| !(here && self.unless_staged.contains(u) && staged.contains_key(u)));
        p.unless_staged.clear();
        p.spare_at_ms = None;
        p
    }

    /// Drops from `staged` what this purge drops at the edge.
    fn drop_from(&self, staged: &mut BTreeMap<String, Vec<String>>) {
        if self.all {
            staged.clear();
            return;
        }
        staged.retain(|url, keys| {
            !self.urls.contains(url) && !keys.iter().any(|k| self.tags.contains(k))
        });
    }

    /// The request bodies: the URLs in chunks, the tags with the first.
    fn bodies(&self) -> Vec<PurgeBody<'_>> {
        if self.all {
            return vec![PurgeBody {
                urls: Vec::new(),
                tags: Vec::new(),
                all: true,
                soft: false,
            }];
        }
        let urls: Vec<&str> = self.urls.iter().map(String::as_str).collect();
        let mut chunks: Vec<Vec<&str>> = urls.chunks(URLS_PER_REQUEST).map(<[_]>::to_vec).collect();
        if chunks.is_empty() {
            chunks.push(Vec::new());
        }
        chunks
            .into_iter()
            .enumerate()
            .map(|(i, urls)| PurgeBody {
                urls,
                tags: if i == 0 {
                    self.tags.iter().map(String::as_str).collect()
                } else {
                    Vec::new()
                },
                all: false,
                soft: false,
            })
            .collect()
    }
}

/// Rows of the change log since an id: the last id and the surrogate keys of
/// what changed.
#[derive(Debug, Default)]
pub struct Changes {
    /// Rows read.
    pub rows: usize,
    /// The highest id read.
    pub last: i64,
    /// Keys of the changed rows (`product:12`, `menu`...).
    pub tags: BTreeSet<String>,
    /// The log was cleared or replaced (its ids went back): purge everything.
    pub reset: bool,
}

/// The surrogate keys the origin and the pages use for a changed row
/// ([`SurrogateKey`]). Product lists are not purged by the `products`
/// collection key: every order changes a product's stock, and that key
/// reaches every product answer; the pages that list the product carry
/// `product:{id}` and are purged by URL as well.
pub fn tags_for(entity: &str, id: i64) -> Vec<String> {
    use SurrogateKey::*;
    let keys: &[SurrogateKey] = match entity {
        "product" => &[Product(id)],
        "category" => &[Category(id), Categories],
        "product_set" => &[ProductSet(id), ProductSets],
        "post" => &[Post(id), Posts],
        "page" => &[Page(id)],
        "interior" => &[Interior(id), Interiors],
        "widget" => &[Widget(id)],
        "flash_schedule" => &[FlashSchedule(id), Flash],
        "showroom" => &[Showrooms],
        "slider" => &[Sliders, Home],
        "tag_gallery" => &[Home, Categories],
        "menu" => &[Menu],
        "setting" | "seo_content" => &[Setting],
        _ => &[],
    };
    keys.iter().map(ToString::to_string).collect()
}

/// The highest id in the change log (0 when empty).
pub async fn last_change(pool: &catalog::db::Pool) -> anyhow::Result<i64> {
    Ok(
        db::query_scalar("SELECT COALESCE(MAX(id), 0) FROM change_log")
            .fetch_one(pool)
            .await?,
    )
}

/// Reads the change log after `after`.
pub async fn changes_since(pool: &catalog::db::Pool, after: i64) -> anyhow::Result<Changes> {
    let mut changes = Changes {
        last: after,
        ..Changes::default()
    };
    let max = last_change(pool).await?;
    if max < after {
        changes.reset = true;
        changes.last = max;
        changes.rows = 1;
        return Ok(changes);
    }
    while changes.last < max {
        let rows: Vec<(i64, String, i64)> = db::query_as(
            "SELECT id, entity, entity_id FROM change_log WHERE id > $1 AND id <= $2 \
             ORDER BY id LIMIT 5000",
        )
        .bind(changes.last)
        .bind(max)
        .fetch_all(pool)
        .await?;
        let Some(last) = rows.last().map(|r| r.0) else {
            break;
        };
        changes.rows += rows.len();
        changes.last = last;
        for (_, entity, id) in rows {
            changes.tags.extend(tags_for(&entity, id));
        }
    }
    Ok(changes)
}

/// Unix milliseconds now.
fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Why a rebuild ran, for the log line.
#[derive(Debug, Clone, Copy)]
enum Reason {
    Start,
    Changes,
    Boundary,
}

impl Reason {
    fn as_str(self) -> &'static str {
        match self {
            Reason::Start => "start",
            Reason::Changes => "changes",
            Reason::Boundary => "flash boundary",
        }
    }
}

/// The lock that lets one watch act per database ([`catalog::db::Leader`]).
pub const LEADER_KEY: &str = "generator-watch";

/// Keeps the site current until `shutdown` resolves: first waits to be the
/// one watch that acts on this database (others stand by), then builds and
/// follows the change log (woken by PostgreSQL's notifications, or polling
/// SQLite). Returns an error when the first build fails (a wrong database or
/// output directory) or when the leader lock is lost; later build failures
/// are logged and retried.
pub async fn watch(
    options: WatchOptions,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    let pool = catalog::db::connect(&catalog::db::PoolConfig {
        url: options.build.database.clone(),
        max_connections: 1,
        create_if_missing: false,
        mmap_size: catalog::db::BULK_MMAP_SIZE,
    })
    .await
    .with_context(|| format!("opening {}", options.build.database))?;
    tokio::pin!(shutdown);
    // One watch acts per database; others stand by and take over when it
    // dies (its lock ends with its connection or process).
    let mut leader = tokio::select! {
        () = &mut shutdown => return Ok(()),
        leader = catalog::db::Leader::acquire(&pool, LEADER_KEY, Duration::from_secs(1)) => leader,
    };
    tracing::info!("leading: this watch keeps the site current");
    let mut feed = catalog::db::ChangeFeed::new(&pool, options.poll).await;
    let mut orders = Vec::new();
    let mut purgers = Vec::new();
    for edge in &options.edges {
        let (tx, handle) = spawn_edge(edge.clone())?;
        orders.push(tx);
        purgers.push(handle);
    }
    let order = |o: Order| {
        for tx in &orders {
            // Each edge's task ends only after its sender is dropped.
            let _ = tx.send(o.clone());
        }
    };
    let purge = |p: Purge| {
        if !p.is_empty() {
            order(Order::Purge(p));
        }
    };
    // The pages staged for the coming boundary, the boundary a staging was
    // last made (or tried) for, and when one may be made again.
    let mut staging: Option<Staging> = None;
    let mut stage_tried: Option<i64> = None;
    let mut restage_from_ms = 0i64;
    // How long the last targeted rebuild took (ms): how close to a boundary
    // a rebuild for changes waits for it instead.
    let mut last_rebuild_ms = 0i64;
    // Nothing to stage at without an edge.
    let stage_lead = options.stage_lead.filter(|_| !options.edges.is_empty());

    // The ids read before a build are covered by it.
    let mut applied = last_change(&pool).await?;
    let mut built_at = catalog::clock::now_unix();
    let report = rebuild(&options.build, &Products::All, built_at, Reason::Start, 0).await?;
    purge(pages_of(&report));
    let mut next = next_boundary(&pool, built_at).await;

    let mut failures = 0u32;
    loop {
        let now_ms = unix_ms();
        // Listening (PostgreSQL), a change wakes the loop; the nap is only
        // the fallback. Polling (SQLite), the nap is the polling interval.
        let mut nap = if feed.listening() {
            catalog::db::LISTEN_FALLBACK
        } else {
            options.poll
        };
        if let Some(Some(t)) = next {
            nap = nap.min(Duration::from_millis((t * 1000 - now_ms).max(0) as u64));
            if let Some(lead) = stage_lead.filter(|_| stage_tried != Some(t)) {
                let stage_ms = (t * 1000 - lead.as_millis() as i64).max(restage_from_ms);
                if stage_ms < t * 1000 - STAGE_MARGIN_MS {
                    nap = nap.min(Duration::from_millis((stage_ms - now_ms).max(0) as u64));
                }
            }
        }
        if failures > 0 {
            nap = nap.max(backoff(failures));
        }
        tokio::select! {
            () = &mut shutdown => break,
            () = feed.wait(nap) => {}
        }
        if !leader.still_holds().await {
            // The lock's connection is gone, and with it the lock: a standby
            // may be acting already. Stop, and let the supervisor restart us
            // as a standby.
            anyhow::bail!("lost the leader lock (database connection closed)");
        }
        let now_ms = unix_ms();
        let boundary = next.flatten();
        let due = boundary.is_some_and(|t| t * 1000 <= now_ms);
        if let (Some(t), Some(lead)) = (boundary, stage_lead) {
            let window = (t * 1000 - lead.as_millis() as i64)..(t * 1000 - STAGE_MARGIN_MS);
            if stage_tried != Some(t) && window.contains(&now_ms) && now_ms >= restage_from_ms {
                stage_tried = Some(t);
                restage_from_ms = now_ms + RESTAGE_GAP_MS;
                let old = staging.take().filter(|s| s.at == t);
                staging = stage(&options.build, &pool, built_at, t, old, &order).await;
            }
        }
        let changes = match changes_since(&pool, applied).await {
            Ok(c) => c,
            Err(err) => {
                failures += 1;
                tracing::warn!(cause = %format!("{err:#}"), "cannot read the change log; retrying");
                continue;
            }
        };
        if !due && changes.rows == 0 {
            failures = 0;
            if next.is_none() {
                // Unknown when the schedules could not be read: ask again.
                next = next_boundary(&pool, built_at).await;
            }
            continue;
        }
        // A rebuild for changes that would still run at the boundary waits
        // for it: it would write the old prices after the boundary, and purge
        // the staged successors of what it writes. At the boundary the staged
        // pages move in first, and one rebuild takes the changes too.
        if let Some(wait) = boundary
            .filter(|_| !due)
            .and_then(|t| wait_for_boundary(t, unix_ms(), last_rebuild_ms))
        {
            tokio::select! {
                () = &mut shutdown => break,
                () = tokio::time::sleep(wait) => {}
            }
            continue;
        }
        let at = now_ms / 1000;
        let reason = if due {
            Reason::Boundary
        } else {
            Reason::Changes
        };
        // The pages to render: those showing a changed or repriced product
        // (a targeted build), unless the change is of anything else.
        let mut tags = changes.tags.clone();
        if due {
            match catalog::pricing::products_repriced(&pool, built_at, at).await {
                Ok(ids) => tags.extend(
                    ids.into_iter()
                        .map(|id| SurrogateKey::Product(id).to_string()),
                ),
                Err(err) => {
                    failures += 1;
                    tracing::warn!(cause = %err, "cannot read flash schedules; retrying");
                    continue;
                }
            }
        }
        let products = if changes.reset {
            Products::All
        } else {
            Products::Changed(tags)
        };
        // At the boundary the staged pages move into the site first, and are
        // purged at once except where an edge holds them staged: an edge
        // that lost their successor may hold a copy from before the sale was
        // known, fresh for a day.
        if let Some(staged) = staging.as_ref().filter(|s| due && Some(s.at) == boundary) {
            let moved: BTreeSet<String> = install_staged(&options.build, staged, now_ms)
                .into_iter()
                .collect();
            purge(Purge {
                urls: moved.clone(),
                unless_staged: moved,
                spare_at_ms: Some(staged.at * 1000),
                ..Purge::default()
            });
        }
        let started = Instant::now();
        match rebuild(&options.build, &products, at, reason, changes.rows).await {
            Ok(report) => {
                failures = 0;
                if !report.full {
                    last_rebuild_ms = started.elapsed().as_millis() as i64;
                }
                applied = changes.last;
                built_at = at;
                let mut p = pages_of(&report);
                if due {
                    if let Some(staged) = staging.take().filter(|s| Some(s.at) == boundary) {
                        spare_staged(&mut p, &report, &staged);
                    }
                } else if let Some(staged) = &staging {
                    // A change before the boundary: pages it purges lose
                    // their successor, and what the boundary changes may
                    // have changed (a sale edited): stage again (at most
                    // every RESTAGE_GAP).
                    let flash = SurrogateKey::Flash.to_string();
                    let unnamed = changes.rows > 0 && changes.tags.is_empty();
                    if unnamed
                        || changes.reset
                        || changes.tags.contains(&flash)
                        || staged.touched_by(&p.urls, &changes.tags, p.all)
                    {
                        stage_tried = None;
                    }
                }
                p.merge(Purge {
                    tags: changes.tags,
                    all: changes.reset,
                    ..Purge::default()
                });
                purge(p);
            }
            Err(err) => {
                failures += 1;
                tracing::error!(cause = %format!("{err:#}"), reason = reason.as_str(), "rebuild failed; retrying");
                continue;
            }
        }
        next = next_boundary(&pool, built_at).await;
        // A staging for what is no longer the next boundary (a sale moved or
        // removed): its successors must not apply.
        if let Some(staged) = staging.take_if(|s| next.is_some_and(|n| n != Some(s.at))) {
            discard_staged(&options.build.out);
            tracing::info!(
                at = staged.at,
                pages = staged.pages.len(),
                "the staged boundary is gone: purging its pages"
            );
            purge(Purge {
                urls: staged.pages.into_keys().collect(),
                ..Purge::default()
            });
        }
    }
    tracing::info!("stopping");
    drop(orders);
    // Give pending purges a moment to reach the edges.
    let _ = tokio::time::timeout(Duration::from_secs(2), join_all(purgers)).await;
    Ok(())
}

/// The wait until boundary `t` (Unix seconds) at `now_ms` when a rebuild as
/// long as the last targeted one (`rebuild_ms`, with a margin) would not end
/// before it; none when it would, or when the boundary is past. A rebuild
/// slower than [`MAX_BOUNDARY_WAIT_MS`] waits no longer than that.
fn wait_for_boundary(t: i64, now_ms: i64, rebuild_ms: i64) -> Option<Duration> {
    let left = t * 1000 - now_ms;
    let window = (rebuild_ms + REBUILD_MARGIN_MS).min(MAX_BOUNDARY_WAIT_MS);
    (left > 0 && left < window).then(|| Duration::from_millis(left as u64))
}

/// What a targeted rebuild may take beyond the last one's time (ms).
const REBUILD_MARGIN_MS: i64 = 250;
/// The longest a change waits for a boundary (ms).
const MAX_BOUNDARY_WAIT_MS: i64 = 10_000;

/// No staging is begun later than this before its boundary (ms).
const STAGE_MARGIN_MS: i64 = 1_000;
/// Restagings for one boundary are at least this far apart (ms).
const RESTAGE_GAP_MS: i64 = 30_000;

/// Renders and stages the pages that change at boundary `at`, replacing the
/// staging `old` for it (whose pages not staged again are purged, so that no
/// outdated successor applies). Returns the staging, `None` when it failed
/// (logged: the boundary's rebuild purges as without one).
async fn stage(
    options: &BuildOptions,
    pool: &catalog::db::Pool,
    built_at: i64,
    at: i64,
    old: Option<Staging>,
    order: &impl Fn(Order),
) -> Option<Staging> {
    let started = Instant::now();
    let staged = match crate::stage::render(options, pool, built_at, at).await {
        Ok(staged) => staged,
        Err(err) => {
            discard_staged(&options.out);
            tracing::warn!(cause = %format!("{err:#}"), at, "cannot render the pages of the coming boundary; they are purged at it");
            if let Some(old) = old {
                order(Order::Purge(Purge {
                    urls: old.pages.into_keys().collect(),
                    ..Purge::default()
                }));
            }
            return None;
        }
    };
    if let Some(old) = old {
        let gone: BTreeSet<String> = old
            .pages
            .into_keys()
            .filter(|u| !staged.pages.contains_key(u))
            .collect();
        if !gone.is_empty() {
            order(Order::Purge(Purge {
                urls: gone,
                ..Purge::default()
            }));
        }
    }
    for chunk in &staged.chunks {
        order(Order::Stage(chunk.clone()));
    }
    tracing::info!(
        at,
        pages = staged.pages.len(),
        requests = staged.chunks.len(),
        ms = started.elapsed().as_millis() as u64,
        "rendered the coming boundary's pages for staging"
    );
    Some(Staging {
        chunks: Vec::new(),
        ..staged
    })
}

/// Removes the pages kept for a staging that will not apply.
fn discard_staged(out: &std::path::Path) {
    if let Err(err) = crate::stage::discard(out) {
        tracing::warn!(cause = %format!("{err:#}"), "cannot remove the kept staged pages");
    }
}

/// Moves the pages kept for the boundary into the site before its rebuild
/// ([`crate::stage::install`]), and logs how long after the boundary that was.
/// Returns the paths moved.
fn install_staged(options: &BuildOptions, staged: &Staging, now_ms: i64) -> Vec<String> {
    let started = Instant::now();
    let out = &options.out;
    match tokio::task::block_in_place(|| crate::stage::install(out, staged, options.compression)) {
        Ok(installed) => {
            tracing::info!(
                pages = installed.len(),
                after_boundary_ms = now_ms - staged.at * 1000,
                ms = started.elapsed().as_millis() as u64,
                "boundary: the staged pages moved into the site"
            );
            installed
        }
        Err(err) => {
            tracing::warn!(
                cause = %format!("{err:#}"),
                "cannot move the staged pages into the site; the rebuild writes them"
            );
            Vec::new()
        }
    }
}

/// Marks the pages of a boundary's rebuild written with the content staged
/// for it as spared at the edges that hold them staged.
fn spare_staged(purge: &mut Purge, report: &BuildReport, staged: &Staging) {
    purge.unless_staged = report
        .write
        .hashes
        .iter()
        .filter(|(url, hash)| staged.pages.get(*url).is_some_and(|p| &p.hash == *hash))
        .map(|(url, _)| url.clone())
        .filter(|url| purge.urls.contains(url))
        .collect();
    purge.spare_at_ms = Some(staged.at * 1000);
    tracing::info!(
        staged = staged.pages.len(),
        written = report.write.written.len(),
        spared = purge.unless_staged.len(),
        "boundary: pages written as staged are not purged where staged"
    );
}

/// Waits for every handle (a failed one included).
async fn join_all(handles: Vec<tokio::task::JoinHandle<()>>) {
    for handle in handles {
        let _ = handle.await;
    }
}

/// The next flash-sale start or end after `at`: `Some(None)` when there is
/// none, `None` when the schedules cannot be read (the next poll asks again).
async fn next_boundary(pool: &catalog::db::Pool, at: i64) -> Option<Option<i64>> {
    match catalog::pricing::next_price_change(pool, at).await {
        Ok(t) => Some(t),
        Err(err) => {
            tracing::warn!(cause = %err, "cannot read flash schedules");
            None
        }
    }
}

/// Rebuilds the site at instant `at` and logs one line.
async fn rebuild(
    options: &BuildOptions,
    products: &Products,
    at: i64,
    reason: Reason,
    changes: usize,
) -> anyhow::Result<BuildReport> {
    let started = Instant::now();
    let report = build_for(
        &BuildOptions {
            now: at,
            progress: false,
            ..options.clone()
        },
        products,
    )
    .await?;
    tracing::info!(
        reason = reason.as_str(),
        changes,
        full = report.full,
        pages = report.pages,
        written = report.write.written.len(),
        removed = report.write.removed.len(),
        keys = report.write.keys.len(),
        ms = started.elapsed().as_millis() as u64,
        "rebuilt"
    );
    Ok(report)
}

/// The written and removed pages of a build.
fn pages_of(report: &BuildReport) -> Purge {
    let mut p = Purge::default();
    p.merge(Purge {
        urls: report
            .write
            .written
            .iter()
            .chain(&report.write.removed)
            .cloned()
            .collect(),
        ..Purge::default()
    });
    p
}

/// The wait after `failures` failures in a row: 250 ms doubling, at most 10 s.
fn backoff(failures: u32) -> Duration {
    (Duration::from_millis(250) * 2u32.saturating_pow(failures.saturating_sub(1).min(10)))
        .min(MAX_BACKOFF)
}

/// What an edge's task sends, in the order given.
#[derive(Debug, Clone)]
enum Order {
    Purge(Purge),
    Stage(Arc<Chunk>),
}

/// How long past its boundary a staging is retried (as the edges retry
/// their peers): after it, a staging applies at once, or never.
const STAGE_RETRIED_PAST: Duration = Duration::from_secs(600);

/// What became of one order.
enum Sent {
    Done,
    /// Failed for good (refused, or too late): dropped.
    Dropped(anyhow::Error),
    /// Failed for now: retried.
    Failed(anyhow::Error),
}

/// Queues an order, merging a purge into a purge queued last.
fn enqueue(queue: &mut VecDeque<Order>, order: Order) {
    if let (Order::Purge(p), Some(Order::Purge(last))) = (&order, queue.back_mut()) {
        last.merge(p.clone());
        return;
    }
    queue.push_back(order);
}

/// Starts the task that sends purges and stagings to the edge in order,
/// merging purges that queue up while one is in flight and retrying
/// failures with backoff.
fn spawn_edge(
    edge: EdgeAdmin,
) -> anyhow::Result<(mpsc::UnboundedSender<Order>, tokio::task::JoinHandle<()>)> {
    let client = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(1))
        .build()
        .context("HTTP client")?;
    let (tx, mut rx) = mpsc::unbounded_channel::<Order>();
    let handle = tokio::spawn(async move {
        let mut queue = VecDeque::new();
        // The pages this edge took staged for the boundary `staged_at` and
        // has had no purge of since (URL path → surrogate keys).
        let mut staged: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut staged_at: Option<i64> = None;
        let mut failures = 0u32;
        // Whether the watcher still runs; once it stops, a failed order gets
        // one more try.
        let mut open = true;
        loop {
            if queue.is_empty() {
                match rx.recv().await {
                    Some(order) => enqueue(&mut queue, order),
                    None => return,
                }
            }
            while let Ok(order) = rx.try_recv() {
                enqueue(&mut queue, order);
            }
            let started = Instant::now();
            let sent = match queue.front().expect("an order is queued") {
                Order::Purge(purge) => {
                    if let Some(at_ms) = purge
                        .spare_at_ms
                        .filter(|at| Some(*at) == staged_at && !purge.unless_staged.is_empty())
                    {
                        // Spare only what the edge says it holds: one
                        // restarted without --staged-dir holds nothing.
                        match held(&client, &edge, at_ms).await {
                            Ok(Some(urls)) => staged.retain(|url, _| urls.contains(url)),
                            Ok(None) => {}
                            Err(err) => {
                                tracing::warn!(cause = %format!("{err:#}"), "cannot list what the edge holds staged: purging every page");
                                staged.clear();
                            }
                        }
                    }
                    let p = purge.for_edge(staged_at, &staged);
                    let spared = purge.urls.len() - p.urls.len();
                    let result = if p.is_empty() {
                        Ok(())
                    } else {
                        send(&client, &edge, &p).await
                    };
                    match result {
                        Ok(()) => {
                            p.drop_from(&mut staged);
                            tracing::info!(
                                urls = p.urls.len(),
                                tags = p.tags.len(),
                                all = p.all,
                                spared,
                                ms = started.elapsed().as_millis() as u64,
                                "purged"
                            );
                            Sent::Done
                        }
                        Err(err) => Sent::Failed(err),
                    }
                }
                Order::Stage(chunk) => {
                    let late = crate::stage::instant(chunk.at_ms) + STAGE_RETRIED_PAST;
                    match post_stage(&client, &edge, chunk).await {
                        Ok(()) => {
                            if staged_at != Some(chunk.at_ms) {
                                staged.clear();
                                staged_at = Some(chunk.at_ms);
                            }
                            staged.extend(chunk.pages.clone());
                            tracing::info!(
                                pages = chunk.pages.len(),
                                bytes = chunk.body.len(),
                                at_ms = chunk.at_ms,
                                ms = started.elapsed().as_millis() as u64,
                                "staged"
                            );
                            Sent::Done
                        }
                        Err(StageError::Refused(err)) => Sent::Dropped(err),
                        Err(StageError::Failed(err)) if SystemTime::now() >= late => {
                            Sent::Dropped(err.context("retried past the boundary"))
                        }
                        Err(StageError::Failed(err)) => Sent::Failed(err),
                    }
                }
            };
            match sent {
                Sent::Done => {
                    queue.pop_front();
                    failures = 0;
                }
                Sent::Dropped(err) => {
                    tracing::error!(cause = %format!("{err:#}"), "staging dropped: the edge asks the origin at the boundary");
                    queue.pop_front();
                }
                Sent::Failed(err) if !open => {
                    tracing::warn!(cause = %format!("{err:#}"), "stopping with an order undelivered");
                    return;
                }
                Sent::Failed(err) => {
                    failures += 1;
                    let wait = backoff(failures);
                    tracing::warn!(
                        cause = %format!("{err:#}"),
                        attempt = failures,
                        retry_ms = wait.as_millis() as u64,
                        "edge admin call failed; retrying"
                    );
                    let deadline = tokio::time::Instant::now() + wait;
                    while open {
                        tokio::select! {
                            () = tokio::time::sleep_until(deadline) => break,
                            order = rx.recv() => match order {
                                Some(order) => enqueue(&mut queue, order),
                                None => open = false,
                            },
                        }
                    }
                }
            }
        }
    });
    Ok((tx, handle))
}

/// Successors `GET /staged` lists at most (the edge's limit).
const LISTED_AT_MOST: usize = 1000;

/// The URLs the edge holds successors of for the boundary `at_ms`; `None`
/// when its list is cut short (then what it took is trusted).
async fn held(
    client: &reqwest::Client,
    edge: &EdgeAdmin,
    at_ms: i64,
) -> anyhow::Result<Option<BTreeSet<String>>> {
    let url = format!("{}/staged", edge.url.trim_end_matches('/'));
    let mut request = client.get(&url).timeout(Duration::from_secs(3));
    if let Some(token) = &edge.token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.with_context(|| format!("GET {url}"))?;
    let status = response.status();
    if !status.is_success() {
        anyhow::bail!("GET {url}: {status}");
    }
    let listed: serde_json::Value = response
        .json()
        .await
        .with_context(|| format!("GET {url}"))?;
    let successors = listed["successors"]
        .as_array()
        .with_context(|| format!("GET {url}: no successors listed"))?;
    if successors.len() >= LISTED_AT_MOST {
        return Ok(None);
    }
    Ok(Some(
        successors
            .iter()
            .filter(|s| s["at_ms"].as_i64() == Some(at_ms))
            .filter_map(|s| s["url"].as_str().map(str::to_string))
            .collect(),
    ))
}

/// Why a staging did not go through.
enum StageError {
    /// The edge refused it (400, 413): sending it again changes nothing.
    Refused(anyhow::Error),
    Failed(anyhow::Error),
}

/// Sends one `POST /stage`.
async fn post_stage(
    client: &reqwest::Client,
    edge: &EdgeAdmin,
    chunk: &Chunk,
) -> Result<(), StageError> {
    let url = format!("{}/stage", edge.url.trim_end_matches('/'));
    let mut request = client
        .post(&url)
        .timeout(Duration::from_secs(30))
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(chunk.body.clone());
    if let Some(token) = &edge.token {
        request = request.bearer_auth(token);
    }
    let response = request
        .send()
        .await
        .with_context(|| format!("POST {url}"))
        .map_err(StageError::Failed)?;
    let status = response.status();
    if status.is_success() {
        return Ok(());
    }
    let text = response.text().await.unwrap_or_default();
    let err = anyhow::anyhow!("POST {url}: {status} {}", text.trim());
    if matches!(status.as_u16(), 400 | 413) {
        Err(StageError::Refused(err))
    } else {
        Err(StageError::Failed(err))
    }
}

/// Sends one purge (in as many requests as it takes).
async fn send(client: &reqwest::Client, edge: &EdgeAdmin, purge: &Purge) -> anyhow::Result<()> {
    let url = format!("{}/purge", edge.url.trim_end_matches('/'));
    for body in purge.bodies() {
        let mut request = client
            .post(&url)
            .timeout(Duration::from_secs(3))
            .json(&body);
        if let Some(token) = &edge.token {
            request = request.bearer_auth(token);
        }
        let response = request
            .send()
            .await
            .with_context(|| format!("POST {url}"))?;
        let status = response.status();
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            anyhow::bail!("POST {url}: {status} {}", text.trim());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn purges_merge_and_collapse_to_everything_when_large() {
        let mut p = Purge::default();
        assert!(p.is_empty());
        p.merge(Purge {
            urls: set(&["/product/a"]),
            tags: set(&["product:1"]),
            ..Purge::default()
        });
        p.merge(Purge {
            urls: set(&["/", "/product/a"]),
            ..Purge::default()
        });
        assert_eq!(p.urls, set(&["/", "/product/a"]));
        assert_eq!(p.tags, set(&["product:1"]));
        let many: BTreeSet<String> = (0..=PURGE_ALL_OVER).map(|i| format!("/p/{i}")).collect();
        p.merge(Purge {
            urls: many,
            ..Purge::default()
        });
        assert!(p.all && p.urls.is_empty() && p.tags.is_empty());
        let bodies = p.bodies();
        assert_eq!(bodies.len(), 1);
        assert!(bodies[0].all && !bodies[0].soft);
    }

    #[test]
    fn urls_go_in_chunks_and_tags_once() {
        let p = Purge {
            urls: (0..URLS_PER_REQUEST + 1)
                .map(|i| format!("/p/{i}"))
                .collect(),
            tags: set(&["product:1", "flash"]),
            ..Purge::default()
        };
        let bodies = p.bodies();
        assert_eq!(bodies.len(), 2);
        assert_eq!(bodies[0].urls.len(), URLS_PER_REQUEST);
        assert_eq!(bodies[1].urls.len(), 1);
        assert_eq!(bodies[0].tags, ["flash", "product:1"]);
        assert!(bodies[1].tags.is_empty());
        let tags_only = Purge {
            tags: set(&["menu"]),
            ..Purge::default()
        };
        assert_eq!(tags_only.bodies().len(), 1);
    }

    #[test]
    fn a_staged_page_is_spared_only_where_it_is_held_for_that_boundary() {
        let boundary = Purge {
            urls: set(&["/p/a", "/p/b"]),
            unless_staged: set(&["/p/a"]),
            spare_at_ms: Some(5000),
            ..Purge::default()
        };
        let held: BTreeMap<String, Vec<String>> =
            [("/p/a".to_string(), vec!["product:1".to_string()])].into();
        let both = set(&["/p/a", "/p/b"]);
        assert_eq!(boundary.for_edge(Some(5000), &held).urls, set(&["/p/b"]));
        // Held for another boundary, or not held: purged.
        assert_eq!(boundary.for_edge(Some(4000), &held).urls, both);
        assert_eq!(boundary.for_edge(Some(5000), &BTreeMap::new()).urls, both);
        // A change's purge of the same URL merged in: purged everywhere.
        let mut merged = boundary.clone();
        merged.merge(Purge {
            urls: set(&["/p/a"]),
            ..Purge::default()
        });
        assert!(merged.unless_staged.is_empty());
        assert_eq!(merged.for_edge(Some(5000), &held).urls, both);
        // A tag purge merged in keeps the spared URL spared.
        let mut tagged = boundary.clone();
        tagged.merge(Purge {
            tags: set(&["menu"]),
            ..Purge::default()
        });
        assert_eq!(tagged.for_edge(Some(5000), &held).urls, set(&["/p/b"]));
        // What a purge names, by URL or key, is no longer held.
        let mut h = held.clone();
        Purge {
            tags: set(&["product:1"]),
            ..Purge::default()
        }
        .drop_from(&mut h);
        assert!(h.is_empty());
    }

    #[test]
    fn a_rebuild_that_would_run_past_the_boundary_waits_for_it() {
        let t = 100;
        // 300 ms before the boundary, after rebuilds of 200 ms: wait 300 ms.
        assert_eq!(
            wait_for_boundary(t, 99_700, 200),
            Some(Duration::from_millis(300))
        );
        // 600 ms before it: a rebuild ends in time.
        assert_eq!(wait_for_boundary(t, 99_400, 200), None);
        // At or after it: the boundary's rebuild is due.
        assert_eq!(wait_for_boundary(t, 100_000, 200), None);
        assert_eq!(wait_for_boundary(t, 100_500, 200), None);
        // However slow the rebuilds, a change waits at most 10 s.
        assert_eq!(wait_for_boundary(t, 85_000, 60_000), None);
        assert_eq!(
            wait_for_boundary(t, 91_000, 60_000),
            Some(Duration::from_secs(9))
        );
    }

    #[test]
    fn changed_rows_name_the_keys_the_origin_tags_with() {
        assert_eq!(tags_for("product", 12), ["product:12"]);
        assert_eq!(tags_for("category", 3), ["category:3", "categories"]);
        assert_eq!(tags_for("flash_schedule", 1), ["flash_schedule:1", "flash"]);
        assert!(tags_for("something_new", 1).is_empty());
    }

    #[test]
    fn backoff_doubles_up_to_a_limit() {
        assert_eq!(backoff(1), Duration::from_millis(250));
        assert_eq!(backoff(2), Duration::from_millis(500));
        assert_eq!(backoff(3), Duration::from_secs(1));
        assert_eq!(backoff(40), MAX_BACKOFF);
    }
}
