//! `generator build`: a flat list of timed steps. Each step loads its rows
//! (async, sqlx), renders its pages in parallel (rayon) and hands them to the
//! site writer, which compresses and writes only what changed. Large page
//! types go in batches so memory stays flat at 100,000 products.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use std::collections::{BTreeSet, HashMap};

use catalog::read::site as q;
use catalog::surrogate::SurrogateKey;

use crate::catalogue::Catalogue;
use crate::chrome::ChromeData;
use crate::islands::Assets;
use crate::output::{
    Compression, DryRun, Manifest, Page, Scope, SharedParts, SiteWriter, WriteReport,
};
use crate::pages::{self, crawl::SitemapUrl};
use crate::render::Site;

/// What to build and how.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Database URL (`sqlite:var/shop.db`).
    pub database: String,
    /// The site directory.
    pub out: PathBuf,
    /// The public origin for canonical links and the sitemap, no trailing slash.
    pub base_url: String,
    /// Vite's output directory (`web/dist`), for the islands' script tags.
    pub web_dist: PathBuf,
    pub compression: Compression,
    /// Draw a progress bar (only on a terminal).
    pub progress: bool,
    /// The instant prices are computed at (unix seconds).
    pub now: i64,
    /// Pages rendered and written per batch.
    pub batch: usize,
}

/// Which product pages a build renders.
#[derive(Debug, Clone, Default)]
pub enum Products {
    /// Every product page; pages no longer generated are removed.
    #[default]
    All,
    /// The pages that show a changed product, when every key is a
    /// `product:{id}` and the site already has each one's page (see
    /// `pages_showing`); anything else makes it [`Products::All`].
    Changed(BTreeSet<String>),
}

/// The products whose pages show one of `tags` (each a `product:{id}`): the
/// products themselves and every product page whose manifest keys name
/// one (a related list shows its card). `None` when the change is not of
/// that kind: another key, or a product without a page yet or no longer
/// listed, which a full build adds or removes.
pub fn pages_showing(
    catalogue: &Catalogue,
    manifest: &Manifest,
    tags: &BTreeSet<String>,
) -> Option<BTreeSet<i64>> {
    let mut ids = BTreeSet::new();
    for tag in tags {
        let SurrogateKey::Product(id) = tag.parse().ok()? else {
            return None;
        };
        let placement = catalogue.placements.get(&id)?;
        if !manifest
            .pages
            .contains_key(&format!("/product/{}", placement.seo_url))
        {
            return None;
        }
        ids.insert(id);
    }
    let by_slug: HashMap<&str, i64> = catalogue
        .placements
        .values()
        .map(|p| (p.seo_url.as_str(), p.id))
        .collect();
    for (path, entry) in &manifest.pages {
        let Some(slug) = path.strip_prefix("/product/") else {
            continue;
        };
        if entry.keys.iter().any(|k| tags.contains(k)) {
            if let Some(id) = by_slug.get(slug) {
                ids.insert(*id);
            }
        }
    }
    Some(ids)
}

/// One timed step of a build.
#[derive(Debug, Clone)]
pub struct Step {
    pub name: &'static str,
    pub elapsed: Duration,
    /// Pages the step produced.
    pub pages: usize,
}

/// What a build did.
#[derive(Debug, Clone, Default)]
pub struct BuildReport {
    pub steps: Vec<Step>,
    /// Pages generated (written or unchanged).
    pub pages: usize,
    pub write: WriteReport,
    pub elapsed: Duration,
    /// Every product page was rendered (not only the changed ones).
    pub full: bool,
    /// The parts the pages share (compressed once, see `output::SharedParts`).
    pub shared: Vec<String>,
}

impl BuildReport {
    /// Pages per second over the whole build.
    pub fn pages_per_second(&self) -> f64 {
        self.pages as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The per-step timing summary and what changed, for a terminal.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        for step in &self.steps {
            s.push_str(&format!(
                "  {:<14} {:>8.2} s  {:>7} pages\n",
                step.name,
                step.elapsed.as_secs_f64(),
                step.pages
            ));
        }
        let (raw, br, gz) = self.write.bytes;
        s.push_str(&format!(
            "  {:<14} {:>8.2} s  {:>7} pages  ({:.0} pages/s)\n",
            "total",
            self.elapsed.as_secs_f64(),
            self.pages,
            self.pages_per_second()
        ));
        s.push_str(&format!(
            "written {} (raw {} KB, br {} KB, gz {} KB), unchanged {}, removed {}\n",
            self.write.written.len(),
            raw / 1024,
            br / 1024,
            gz / 1024,
            self.write.unchanged,
            self.write.removed.len()
        ));
        s
    }
}

/// The state a build carries from step to step.
pub struct Ctx {
    pub pool: catalog::db::Pool,
    pub site: Site,
    pub now: i64,
    pub batch: usize,
    writer: SiteWriter,
    progress: ProgressBar,
    /// Every indexable URL, for the sitemap.
    pub sitemap: Vec<SitemapUrl>,
    pages: usize,
    /// The header's top links, which the error pages offer as a way on.
    helpful: Vec<(String, String)>,
}

impl Ctx {
    /// Writes rendered pages (in parallel) and counts them.
    pub fn emit(&mut self, pages: Vec<Page>) -> anyhow::Result<usize> {
        let n = pages.len();
        tokio::task::block_in_place(|| self.writer.write(&pages))?;
        self.progress.inc(n as u64);
        self.pages += n;
        Ok(n)
    }

    /// Renders items into pages and writes them (in parallel), and counts them.
    pub fn render_and_emit<T: Sync>(
        &mut self,
        items: &[T],
        render: impl Fn(&Site, &T) -> anyhow::Result<Page> + Sync + Send,
    ) -> anyhow::Result<usize> {
        let n = items.len();
        let site = &self.site;
        tokio::task::block_in_place(|| {
            self.writer
                .render_and_write(items, |item| render(site, item))
        })?;
        self.progress.inc(n as u64);
        self.pages += n;
        Ok(n)
    }

    /// Adds to the expected total of the progress bar.
    pub fn expect(&self, pages: usize) {
        self.progress.inc_length(pages as u64);
    }

    /// Lists a URL in the sitemap.
    pub fn index(&mut self, path: String, updated_at: i64) {
        self.sitemap.push(SitemapUrl { path, updated_at });
    }
}

/// The cards of `ids` by id (one batch query, the API's card query).
pub async fn card_map(
    pool: &catalog::db::Pool,
    ids: &[i64],
    now: i64,
) -> anyhow::Result<HashMap<i64, catalog::read::ProductCard>> {
    let mut map = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(500) {
        for card in catalog::read::cards(pool, chunk, now).await? {
            map.insert(card.id, card);
        }
    }
    Ok(map)
}

/// Builds the whole site.
pub async fn build(options: &BuildOptions) -> anyhow::Result<BuildReport> {
    build_for(options, &Products::All).await
}

/// Builds the site with the product pages `products` selects (every other
/// page is rendered each time: there are few, and most list products). Each
/// step is a function below, timed in the report under its name.
pub async fn build_for(options: &BuildOptions, products: &Products) -> anyhow::Result<BuildReport> {
    build_into(options, products, None).await
}

/// [`build_for`] without writing: the pages whose content differs from the
/// site directory's are returned in the report (`write.rendered`, with their
/// compressed copies) and nothing in the directory changes (no page, asset
/// or manifest). `generator watch` stages them at the edge before a boundary.
pub async fn build_dry(
    options: &BuildOptions,
    products: &Products,
    dry: DryRun,
) -> anyhow::Result<BuildReport> {
    build_into(options, products, Some(dry)).await
}

async fn build_into(
    options: &BuildOptions,
    products: &Products,
    dry: Option<DryRun>,
) -> anyhow::Result<BuildReport> {
    let mut laps = Laps::start();
    let (pool, writer) = open(options, dry).await?;
    laps.lap("open", 0);
    let (mut ctx, assets_copied) = chrome(options, pool, writer).await?;
    laps.lap("chrome", ctx.pages);
    fixed_pages(&mut ctx)?;
    laps.lap("fixed pages", ctx.pages);
    let (catalogue, product_ids, scope) = load_catalogue(&mut ctx, products).await?;
    laps.lap("catalogue", ctx.pages);
    let db_waits = product_pages(&mut ctx, &catalogue, &product_ids).await?;
    laps.lap("products", ctx.pages);
    laps.aside("(db waits)", db_waits);
    let listing = category_pages(&mut ctx, &catalogue).await?;
    laps.lap("categories", ctx.pages);
    let strips = home_page(&mut ctx, &catalogue, &listing).await?;
    laps.lap("home", ctx.pages);
    content_pages(&mut ctx, &listing, strips).await?;
    laps.lap("content", ctx.pages);
    sitemap(&mut ctx)?;
    laps.lap("sitemap", ctx.pages);
    finish(ctx, assets_copied, scope, laps).await
}

/// The steps' timings: each lap is the time and the pages since the last.
struct Laps {
    started: Instant,
    timer: Instant,
    done: usize,
    steps: Vec<Step>,
}

impl Laps {
    fn start() -> Laps {
        Laps {
            started: Instant::now(),
            timer: Instant::now(),
            done: 0,
            steps: Vec::new(),
        }
    }

    /// Ends the step `name`, `total` pages into the build.
    fn lap(&mut self, name: &'static str, total: usize) {
        self.steps.push(Step {
            name,
            elapsed: self.timer.elapsed(),
            pages: total - self.done,
        });
        self.done = total;
        self.timer = Instant::now();
    }

    /// A figure measured inside the last step (not added to the total).
    fn aside(&mut self, name: &'static str, elapsed: Duration) {
        self.steps.push(Step {
            name,
            elapsed,
            pages: 0,
        });
    }
}

/// Opens the database and the site directory.
async fn open(
    options: &BuildOptions,
    dry: Option<DryRun>,
) -> anyhow::Result<(catalog::db::Pool, SiteWriter)> {
    let pool = catalog::db::connect(&catalog::db::PoolConfig {
        url: options.database.clone(),
        max_connections: 4,
        create_if_missing: false,
        mmap_size: catalog::db::BULK_MMAP_SIZE,
    })
    .await
    .with_context(|| format!("opening {}", options.database))?;
    let mut writer = match dry {
        Some(dry) => SiteWriter::open_dry(&options.out, options.compression, dry)?,
        None => SiteWriter::open(&options.out, options.compression)?,
    };
    writer.as_of(options.now);
    Ok((pool, writer))
}

/// The header and footer every page shares, and the web build's assets. The
/// scripts and styles are compressed hard (once per new file) on a thread of
/// their own while the pages build; [`finish`] waits for them.
async fn chrome(
    options: &BuildOptions,
    pool: catalog::db::Pool,
    mut writer: SiteWriter,
) -> anyhow::Result<(Ctx, tokio::task::JoinHandle<anyhow::Result<usize>>)> {
    let chrome_data = ChromeData::load_at(&pool, options.now).await?;
    let chrome = chrome_data.render()?;
    let assets = Assets::load(&options.web_dist)?;
    let assets_copied = {
        let (dist, out, dry) = (
            options.web_dist.clone(),
            options.out.clone(),
            writer.is_dry(),
        );
        tokio::task::spawn_blocking(move || {
            if dry {
                return Ok(0);
            }
            crate::islands::copy_assets(&dist, &out)
        })
    };
    let site = Site {
        base_url: options.base_url.trim_end_matches('/').to_string(),
        chrome,
        assets,
    };
    writer.share(SharedParts::new(site.shared_parts(), options.compression));
    let ctx = Ctx {
        pool,
        site,
        now: options.now,
        batch: options.batch.max(1),
        writer,
        progress: progress_bar(options.progress),
        sitemap: Vec::new(),
        pages: 0,
        helpful: chrome_data
            .top
            .iter()
            .map(|n| (n.label.clone(), n.link.clone()))
            .collect(),
    };
    Ok((ctx, assets_copied))
}

/// A progress bar on a terminal, a hidden one elsewhere.
fn progress_bar(wanted: bool) -> ProgressBar {
    if !(wanted && std::io::stderr().is_terminal()) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {msg:<12} [{bar:30}] {pos}/{len} pages {per_sec} eta {eta}",
        )
        .expect("the progress template is valid")
        .progress_chars("=> "),
    );
    bar
}

/// The pages that read no rows of their own: errors, the per-visitor shells,
/// robots.txt, the favicon and the service worker.
fn fixed_pages(ctx: &mut Ctx) -> anyhow::Result<()> {
    ctx.progress.set_message("fixed pages");
    let mut fixed = pages::errors::pages(&ctx.site, &ctx.helpful)?;
    fixed.extend(pages::shells::pages(&ctx.site)?);
    fixed.push(pages::crawl::robots(&ctx.site.base_url));
    fixed.push(pages::crawl::favicon());
    fixed.extend(ctx.site.assets.service_worker_page());
    ctx.expect(fixed.len());
    ctx.emit(fixed)?;
    Ok(())
}

/// The catalogue's shape, and which product pages this build renders: all of
/// them, or (for [`Products::Changed`]) those [`pages_showing`] the change.
/// Every product page goes into the sitemap either way.
async fn load_catalogue(
    ctx: &mut Ctx,
    products: &Products,
) -> anyhow::Result<(Arc<Catalogue>, Vec<i64>, Scope)> {
    ctx.progress.set_message("catalogue");
    let catalogue = Catalogue::load(&ctx.pool, ctx.now).await?;
    let selected = match products {
        Products::All => None,
        Products::Changed(tags) => pages_showing(&catalogue, ctx.writer.manifest(), tags),
    };
    let scope = if selected.is_some() {
        Scope::Partial
    } else {
        Scope::Full
    };
    let mut product_ids: Vec<i64> = catalogue.placements.keys().copied().collect();
    product_ids.sort_unstable();
    for id in &product_ids {
        let p = &catalogue.placements[id];
        ctx.index(format!("/product/{}", p.seo_url), p.updated_at);
    }
    if let Some(selected) = selected {
        product_ids = selected.into_iter().collect();
    }
    ctx.expect(product_ids.len() + catalogue.categories.len() + 1);
    Ok((Arc::new(catalogue), product_ids, scope))
}

/// The product pages, batch by batch: the next batch loads from the database
/// while this one renders and compresses, so neither core waits on the other.
/// Returns the time spent waiting for the database all the same.
async fn product_pages(
    ctx: &mut Ctx,
    catalogue: &Arc<Catalogue>,
    product_ids: &[i64],
) -> anyhow::Result<Duration> {
    ctx.progress.set_message("products");
    let (pool, now) = (ctx.pool.clone(), ctx.now);
    let load = |ids: &[i64]| {
        let (pool, catalogue, ids) = (pool.clone(), catalogue.clone(), ids.to_vec());
        tokio::spawn(async move { pages::product::load(&pool, &catalogue, &ids, now).await })
    };
    let mut batches = product_ids.chunks(ctx.batch);
    let mut next = batches.next().map(load);
    let mut waited = Duration::ZERO;
    while let Some(loading) = next.take() {
        let wait = Instant::now();
        let data = loading.await.context("loading products")??;
        waited += wait.elapsed();
        next = batches.next().map(load);
        ctx.render_and_emit(&data, pages::product::render)?;
    }
    Ok(waited)
}

/// The category pages (each one's first page of products); returns what they
/// share with the home and content pages.
async fn category_pages(
    ctx: &mut Ctx,
    catalogue: &Catalogue,
) -> anyhow::Result<pages::listing::ListingData> {
    ctx.progress.set_message("categories");
    let shared = pages::listing::ListingData {
        filters: catalog::read::listing::filter_values(&ctx.pool).await?,
        memberships: pages::listing::ListingData::memberships_of(
            &catalog::read::listing::filter_memberships(&ctx.pool).await?,
        ),
        tag_gallery: q::tag_gallery(&ctx.pool).await?,
        sets: q::product_sets(&ctx.pool).await?,
    };
    let mut listed: Vec<i64> = catalogue
        .categories
        .iter()
        .flat_map(|c| pages::listing::first_page(catalogue, c))
        .collect();
    listed.sort_unstable();
    listed.dedup();
    let cards = card_map(&ctx.pool, &listed, ctx.now).await?;
    for c in &catalogue.categories {
        ctx.index(format!("/c/{}", c.seo_url), c.updated_at);
    }
    ctx.render_and_emit(&catalogue.categories, |site, c| {
        pages::listing::render(site, catalogue, &shared, c, &cards)
    })?;
    Ok(shared)
}

/// What the home page loads that the content pages show too.
struct Strips {
    flash: Option<(q::FlashSale, Vec<i64>)>,
    top_offers: Vec<i64>,
    pre_bookings: Vec<i64>,
    blogs: Vec<q::ContentRow>,
    news: Vec<q::ContentRow>,
}

/// The home page `/`.
async fn home_page(
    ctx: &mut Ctx,
    catalogue: &Catalogue,
    listing: &pages::listing::ListingData,
) -> anyhow::Result<Strips> {
    ctx.progress.set_message("home");
    let (top_offers, pre_bookings, new_arrivals) =
        q::home_strips(&ctx.pool, ctx.now, pages::home::STRIP as i64 * 3).await?;
    let strips = Strips {
        flash: q::flash_sale(&ctx.pool, ctx.now).await?,
        top_offers,
        pre_bookings,
        blogs: q::posts(&ctx.pool, "blog").await?,
        news: q::posts(&ctx.pool, "news").await?,
    };
    let home = pages::home::HomeData {
        sliders: q::sliders(&ctx.pool).await?,
        tag_gallery: listing.tag_gallery.clone(),
        flash: strips.flash.clone(),
        top_offers: strips.top_offers.clone(),
        pre_bookings: strips.pre_bookings.clone(),
        new_arrivals,
        blogs: strips.blogs.clone(),
        news: strips.news.clone(),
    };
    let mut ids: Vec<i64> = home
        .top_offers
        .iter()
        .chain(&home.pre_bookings)
        .chain(&home.new_arrivals)
        .chain(home.flash.iter().flat_map(|(_, ids)| ids))
        .copied()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let cards = card_map(&ctx.pool, &ids, ctx.now).await?;
    let page = pages::home::render(&ctx.site, catalogue, &home, &cards, ctx.now)?;
    ctx.index("/".into(), 0);
    ctx.emit(vec![page])?;
    Ok(strips)
}

/// The content pages: posts, interiors, CMS pages, product sets, showrooms
/// and the offer pages.
async fn content_pages(
    ctx: &mut Ctx,
    listing: &pages::listing::ListingData,
    strips: Strips,
) -> anyhow::Result<()> {
    ctx.progress.set_message("content");
    let (_, set_infos) = q::product_set_extras(&ctx.pool).await?;
    let content = pages::content::ContentData {
        blogs: strips.blogs,
        news: strips.news,
        interiors: q::interiors(&ctx.pool).await?,
        interior_images: q::interior_images(&ctx.pool).await?,
        pages: q::cms_pages(&ctx.pool).await?,
        sets: listing.sets.clone(),
        set_items: q::product_set_items(&ctx.pool).await?,
        set_stock: catalog::read::product::set_item_stock(&ctx.pool).await?,
        fabrics: catalog::read::product::set_fabrics(&ctx.pool).await?,
        set_infos,
        showrooms: q::showrooms(&ctx.pool).await?,
        flash: strips.flash,
        top_offers: strips.top_offers,
        pre_bookings: strips.pre_bookings,
    };
    let mut ids: Vec<i64> = content
        .set_items
        .iter()
        .map(|x| x.1)
        .chain(content.top_offers.iter().copied())
        .chain(content.pre_bookings.iter().copied())
        .chain(
            content
                .flash
                .iter()
                .flat_map(|(_, ids)| ids.iter().copied()),
        )
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let cards = card_map(&ctx.pool, &ids, ctx.now).await?;
    let mut urls = Vec::new();
    let rendered = tokio::task::block_in_place(|| {
        pages::content::render_all(&ctx.site, &content, &cards, ctx.now, &mut |path, at| {
            urls.push((path, at))
        })
    })?;
    for (path, at) in urls {
        ctx.index(path, at);
    }
    ctx.expect(rendered.len());
    ctx.emit(rendered)?;
    Ok(())
}

/// The sitemap of every page indexed by the steps before.
fn sitemap(ctx: &mut Ctx) -> anyhow::Result<()> {
    ctx.progress.set_message("sitemap");
    let sitemaps = pages::crawl::sitemaps(
        &ctx.site.base_url,
        &ctx.sitemap,
        pages::crawl::SITEMAP_PART_URLS,
    );
    ctx.expect(sitemaps.len());
    ctx.emit(sitemaps)?;
    Ok(())
}

/// Waits for the assets, writes the manifest (and, for a full build, removes
/// the pages no longer generated), and reports.
async fn finish(
    ctx: Ctx,
    assets_copied: tokio::task::JoinHandle<anyhow::Result<usize>>,
    scope: Scope,
    mut laps: Laps,
) -> anyhow::Result<BuildReport> {
    ctx.progress.finish_and_clear();
    assets_copied.await.context("copying the web assets")??;
    let pages = ctx.pages;
    let write = tokio::task::block_in_place(|| ctx.writer.finish(scope))?;
    laps.lap("finish", pages);
    Ok(BuildReport {
        steps: laps.steps,
        pages,
        write,
        elapsed: laps.started.elapsed(),
        full: scope == Scope::Full,
        shared: ctx.site.shared_parts(),
    })
}
