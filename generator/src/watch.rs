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

use catalog::db;
use catalog::surrogate::SurrogateKey;
use std::collections::BTreeSet;
use std::future::Future;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use serde::Serialize;
use tokio::sync::mpsc;

use crate::build::{build_for, BuildOptions, BuildReport, Products};

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
        self.all |= other.all;
        self.urls.extend(other.urls);
        self.tags.extend(other.tags);
        if self.urls.len() > PURGE_ALL_OVER || self.tags.len() > PURGE_ALL_OVER {
            self.all = true;
        }
        if self.all {
            self.urls.clear();
            self.tags.clear();
        }
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
        "flash_schedule" => &[Flash],
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
    let mut purges = Vec::new();
    let mut purgers = Vec::new();
    for edge in &options.edges {
        let (tx, handle) = spawn_purger(edge.clone())?;
        purges.push(tx);
        purgers.push(handle);
    }
    let purge = |p: Purge| {
        if !p.is_empty() {
            for tx in &purges {
                // Each purger ends only after its sender is dropped.
                let _ = tx.send(p.clone());
            }
        }
    };

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
        let due = next.flatten().is_some_and(|t| t * 1000 <= now_ms);
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
        match rebuild(&options.build, &products, at, reason, changes.rows).await {
            Ok(report) => {
                failures = 0;
                applied = changes.last;
                built_at = at;
                let mut p = pages_of(&report);
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
    }
    tracing::info!("stopping");
    drop(purges);
    // Give pending purges a moment to reach the edges.
    let _ = tokio::time::timeout(Duration::from_secs(2), join_all(purgers)).await;
    Ok(())
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

/// Starts the task that sends purges to the edge, merging those that queue
/// up while one is in flight and retrying failures with backoff.
fn spawn_purger(
    edge: EdgeAdmin,
) -> anyhow::Result<(mpsc::UnboundedSender<Purge>, tokio::task::JoinHandle<()>)> {
    let client = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(1))
        .timeout(Duration::from_secs(3))
        .build()
        .context("HTTP client")?;
    let (tx, mut rx) = mpsc::unbounded_channel::<Purge>();
    let handle = tokio::spawn(async move {
        let mut pending = Purge::default();
        let mut failures = 0u32;
        // Whether the watcher still runs; once it stops, a failed purge gets
        // one more try.
        let mut open = true;
        loop {
            if pending.is_empty() {
                match rx.recv().await {
                    Some(p) => pending = p,
                    None => return,
                }
            }
            while let Ok(p) = rx.try_recv() {
                pending.merge(p);
            }
            let started = Instant::now();
            match send(&client, &edge, &pending).await {
                Ok(()) => {
                    tracing::info!(
                        urls = pending.urls.len(),
                        tags = pending.tags.len(),
                        all = pending.all,
                        ms = started.elapsed().as_millis() as u64,
                        "purged"
                    );
                    pending = Purge::default();
                    failures = 0;
                }
                Err(err) if !open => {
                    tracing::warn!(cause = %format!("{err:#}"), "stopping with a purge undelivered");
                    return;
                }
                Err(err) => {
                    failures += 1;
                    let wait = backoff(failures);
                    tracing::warn!(
                        cause = %format!("{err:#}"),
                        attempt = failures,
                        retry_ms = wait.as_millis() as u64,
                        "purge failed; retrying"
                    );
                    let deadline = tokio::time::Instant::now() + wait;
                    while open {
                        tokio::select! {
                            () = tokio::time::sleep_until(deadline) => break,
                            p = rx.recv() => match p {
                                Some(p) => pending.merge(p),
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

/// Sends one purge (in as many requests as it takes).
async fn send(client: &reqwest::Client, edge: &EdgeAdmin, purge: &Purge) -> anyhow::Result<()> {
    let url = format!("{}/purge", edge.url.trim_end_matches('/'));
    for body in purge.bodies() {
        let mut request = client.post(&url).json(&body);
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
            all: false,
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
            all: false,
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
    fn changed_rows_name_the_keys_the_origin_tags_with() {
        assert_eq!(tags_for("product", 12), ["product:12"]);
        assert_eq!(tags_for("category", 3), ["category:3", "categories"]);
        assert_eq!(tags_for("flash_schedule", 1), ["flash"]);
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
