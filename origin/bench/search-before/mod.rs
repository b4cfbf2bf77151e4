//! The search engine as it was before issue 20 (commit c9eac33's parent),
//! kept only for `search-bench` to compare against in the same run.
//!
//! Product search with Tantivy, in memory, built at start from the database
//! and kept current from `change_log` ([`follow`]).
//!
//! Each query word is first widened over the index's vocabulary: the word,
//! its synonyms (Bangla script, Banglish; [`words`]), words within the typos
//! its length allows, and, for the word being typed (the last one), words it
//! begins. Every query word must match (AND); a word's matches are OR-ed, an
//! exact match in the title scoring highest. Ties go to the more popular
//! product. An exact product code or SKU (or a variation's code) comes first.
//! Categories for the suggestion panel are matched the same way in memory.

pub mod words;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Mutex, RwLock};
use std::time::{Duration, Instant};

use anyhow::Context;
use sqlx::FromRow;
use tantivy::collector::TopDocs;
use tantivy::indexer::{LogMergePolicy, NoMergePolicy};
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, Value, FAST, INDEXED, STORED,
    STRING,
};
use tantivy::tokenizer::{TextAnalyzer, WhitespaceTokenizer};
use tantivy::{
    doc, DocAddress, Index, IndexReader, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term,
};

use catalog::db::{self, Pool};
use catalog::read::content::{SearchHit, SearchTerm};

use words::{alternatives, distance, matches, max_typos, normalized};

/// Most vocabulary words one query word may widen to.
const MAX_EXPANSIONS: usize = 40;
/// Tantivy's indexing memory budget, bytes.
const WRITER_MEMORY: usize = 64 * 1024 * 1024;

/// The index and what is needed to query and update it.
pub struct Search {
    index: Index,
    reader: IndexReader,
    writer: Mutex<IndexWriter>,
    fields: Fields,
    /// Every indexed word, for widening query words.
    vocabulary: RwLock<Vocabulary>,
    /// Categories offered as suggestion terms.
    categories: RwLock<Vec<CategoryTerm>>,
    /// The last `change_log` id applied.
    applied: Mutex<i64>,
}

#[derive(Debug, Clone, Copy)]
struct Fields {
    id: Field,
    title: Field,
    body: Field,
    code: Field,
    popularity: Field,
    /// Stored as shown, for the suggestion panel.
    shown_title: Field,
    sub_title: Field,
    seo_url: Field,
}

/// The indexed words. Words with a digit (codes, SKUs, sizes) are many, one
/// or more per product, and matched only as typed or as prefixes; typos are
/// looked for among the words of letters alone, a few hundred.
#[derive(Debug, Default)]
struct Vocabulary {
    all: BTreeSet<String>,
    letters: Vec<String>,
}

impl Vocabulary {
    /// Adds these words (those already known are skipped).
    fn add(&mut self, words: BTreeSet<String>) {
        for w in words {
            if !self.all.contains(&w) {
                if !w.chars().any(|c| c.is_numeric()) {
                    self.letters.push(w.clone());
                }
                self.all.insert(w);
            }
        }
    }
}

/// A category the suggestion panel can offer.
#[derive(Debug, Clone)]
struct CategoryTerm {
    id: i64,
    name: String,
    seo_url: String,
    words: Vec<String>,
}

/// Figures of one build.
#[derive(Debug, Clone, Copy)]
pub struct BuildStats {
    pub products: usize,
    pub seconds: f64,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let words = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("words")
            .set_index_option(IndexRecordOption::WithFreqs),
    );
    let id = b.add_u64_field("id", INDEXED | FAST | STORED);
    let title = b.add_text_field("title", words.clone());
    let body = b.add_text_field("body", words);
    let code = b.add_text_field("code", STRING);
    let popularity = b.add_u64_field("popularity", FAST);
    let shown_title = b.add_text_field("shown_title", STORED);
    let sub_title = b.add_text_field("sub_title", STORED);
    let seo_url = b.add_text_field("seo_url", STORED);
    (
        b.build(),
        Fields {
            id,
            title,
            body,
            code,
            popularity,
            shown_title,
            sub_title,
            seo_url,
        },
    )
}

#[derive(Debug, FromRow)]
struct ProductRow {
    id: i64,
    title: String,
    sub_title: String,
    seo_url: String,
    product_code: String,
    sku: String,
    popularity: i64,
    variation_codes: Option<String>,
    tags: Option<String>,
}

#[derive(Debug, FromRow)]
struct CategoryRow {
    id: i64,
    parent: Option<i64>,
    name: String,
    name_bn: Option<String>,
    seo_url: String,
    kind: String,
    visible: bool,
}

/// What a product document is made of, before normalisation.
struct ProductDoc {
    id: i64,
    title: String,
    sub_title: String,
    seo_url: String,
    body: String,
    codes: Vec<String>,
    popularity: u64,
}

impl Search {
    /// Builds the index of every active product.
    pub async fn build(pool: &Pool) -> anyhow::Result<(Search, BuildStats)> {
        let started = Instant::now();
        let applied: i64 = db::query_scalar("SELECT COALESCE(MAX(id), 0) FROM change_log")
            .fetch_one(pool)
            .await?;
        let (schema, fields) = schema();
        let index = Index::create_in_ram(schema);
        index.tokenizers().register(
            "words",
            TextAnalyzer::builder(WhitespaceTokenizer::default()).build(),
        );
        let writer: IndexWriter = index.writer(WRITER_MEMORY).context("index writer")?;
        // The first build ends as one segment (below); merging while it runs
        // would only race that.
        writer.set_merge_policy(Box::new(NoMergePolicy));
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .context("index reader")?;
        let search = Search {
            index,
            reader,
            writer: Mutex::new(writer),
            fields,
            vocabulary: RwLock::new(Vocabulary::default()),
            categories: RwLock::new(Vec::new()),
            applied: Mutex::new(applied),
        };
        let products = search.reindex(pool, None).await?;
        search.merge_all()?;
        let stats = BuildStats {
            products,
            seconds: started.elapsed().as_secs_f64(),
        };
        Ok((search, stats))
    }

    /// (Re)indexes `only` these products, or all of them; products that are
    /// inactive or gone are removed. Categories are reloaded too.
    async fn reindex(&self, pool: &Pool, only: Option<&[i64]>) -> anyhow::Result<usize> {
        let categories: Vec<CategoryRow> = db::query_as(
            "SELECT id, parent, name, name_bn, seo_url, type AS kind, \
             (is_active AND is_published) AS visible FROM category",
        )
        .fetch_all(pool)
        .await?;
        let by_id: HashMap<i64, &CategoryRow> = categories.iter().map(|c| (c.id, c)).collect();
        // A category's words with its ancestors' ("Sofas" is also "Living").
        let lineage = |mut id: i64| {
            let mut text = String::new();
            for _ in 0..10 {
                let Some(c) = by_id.get(&id) else { break };
                text.push_str(&c.name);
                text.push(' ');
                text.push_str(c.name_bn.as_deref().unwrap_or_default());
                text.push(' ');
                match c.parent {
                    Some(p) => id = p,
                    None => break,
                }
            }
            text
        };
        let mut filter = String::new();
        if let Some(ids) = only {
            if ids.is_empty() {
                return Ok(0);
            }
            let list: Vec<String> = ids.iter().map(i64::to_string).collect();
            filter = format!(" AND p.id IN ({})", list.join(","));
        }
        let rows: Vec<ProductRow> = db::query_as(&format!(
            "SELECT p.id, p.title, p.sub_title, p.seo_url, p.product_code, p.sku, p.popularity, \
             (SELECT string_agg(v.product_code, ' ' ORDER BY v.id) FROM product_variation v WHERE v.product_id = p.id) AS variation_codes, \
             (SELECT string_agg(t.name, ' ' ORDER BY t.id) FROM product_tag pt JOIN tag t ON t.id = pt.tag_id WHERE pt.product_id = p.id) AS tags \
             FROM product p WHERE p.is_active{filter}"
        ))
        .fetch_all(pool)
        .await?;
        let links: Vec<(i64, i64)> = db::query_as(&format!(
            "SELECT pc.product_id, pc.category_id FROM product_category pc \
             JOIN product p ON p.id = pc.product_id WHERE p.is_active{filter}"
        ))
        .fetch_all(pool)
        .await?;
        let mut cats_of: HashMap<i64, String> = HashMap::new();
        for (product, category) in links {
            let entry = cats_of.entry(product).or_default();
            entry.push_str(&lineage(category));
        }
        let docs: Vec<ProductDoc> = rows
            .into_iter()
            .map(|r| {
                let mut codes = vec![r.product_code.to_lowercase(), r.sku.to_lowercase()];
                codes.extend(
                    r.variation_codes
                        .unwrap_or_default()
                        .split(' ')
                        .filter(|c| !c.is_empty())
                        .map(str::to_lowercase),
                );
                ProductDoc {
                    id: r.id,
                    body: format!(
                        "{} {} {} {} {}",
                        r.sub_title,
                        cats_of.remove(&r.id).unwrap_or_default(),
                        r.tags.unwrap_or_default(),
                        r.product_code,
                        r.sku
                    ),
                    title: r.title,
                    sub_title: r.sub_title,
                    seo_url: r.seo_url,
                    codes,
                    popularity: r.popularity.max(0) as u64,
                }
            })
            .collect();
        let count = docs.len();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        {
            let mut writer = self
                .writer
                .lock()
                .map_err(|_| anyhow::anyhow!("index writer poisoned"))?;
            match only {
                None => {
                    writer.delete_all_documents()?;
                }
                Some(ids) => {
                    for id in ids {
                        writer.delete_term(Term::from_field_u64(self.fields.id, *id as u64));
                    }
                }
            }
            for d in docs {
                let title = normalized(&d.title);
                let body = normalized(&d.body);
                for w in title.split(' ').chain(body.split(' ')) {
                    if !w.is_empty() && !seen.contains(w) {
                        seen.insert(w.to_string());
                    }
                }
                let mut doc = doc!(
                    self.fields.id => d.id as u64,
                    self.fields.title => title,
                    self.fields.body => body,
                    self.fields.popularity => d.popularity,
                    self.fields.shown_title => d.title,
                    self.fields.sub_title => d.sub_title,
                    self.fields.seo_url => d.seo_url,
                );
                for code in d.codes {
                    doc.add_text(self.fields.code, code);
                }
                writer.add_document(doc)?;
            }
            writer.commit()?;
        }
        // Queries read the vocabulary: it is locked only to add to it.
        self.vocabulary
            .write()
            .map_err(|_| anyhow::anyhow!("vocabulary poisoned"))?
            .add(seen);
        self.reader.reload()?;
        let terms = categories
            .iter()
            .filter(|c| c.kind == "product" && c.visible && c.parent.is_some())
            .map(|c| CategoryTerm {
                id: c.id,
                name: c.name.clone(),
                seo_url: c.seo_url.clone(),
                words: words::words(&format!(
                    "{} {}",
                    c.name,
                    c.name_bn.as_deref().unwrap_or_default()
                )),
            })
            .collect();
        *self
            .categories
            .write()
            .map_err(|_| anyhow::anyhow!("categories poisoned"))? = terms;
        Ok(count)
    }

    /// Merges the index into one segment (a query then walks one list per
    /// word, not one per segment), and lets later small segments merge as
    /// they come.
    fn merge_all(&self) -> anyhow::Result<()> {
        let mut writer = self
            .writer
            .lock()
            .map_err(|_| anyhow::anyhow!("index writer poisoned"))?;
        let segments = self.index.searchable_segment_ids()?;
        if segments.len() > 1 {
            writer.merge(&segments).wait()?;
        }
        writer.set_merge_policy(Box::new(LogMergePolicy::default()));
        drop(writer);
        self.reader.reload()?;
        Ok(())
    }

    /// Applies the change log since the last call: changed products are
    /// indexed again; a category change re-indexes everything. Returns how
    /// many entries were applied.
    pub async fn catch_up(&self, pool: &Pool) -> anyhow::Result<usize> {
        let from = *self
            .applied
            .lock()
            .map_err(|_| anyhow::anyhow!("applied poisoned"))?;
        let rows: Vec<(i64, String, i64)> = db::query_as(
            "SELECT id, entity, entity_id FROM change_log WHERE id > $1 \
             AND entity IN ('product', 'category') ORDER BY id LIMIT 5000",
        )
        .bind(from)
        .fetch_all(pool)
        .await?;
        let Some(last) = rows.last().map(|r| r.0) else {
            return Ok(0);
        };
        if rows.iter().any(|r| r.1 == "category") {
            self.reindex(pool, None).await?;
        } else {
            let mut ids: Vec<i64> = rows.iter().map(|r| r.2).collect();
            ids.sort_unstable();
            ids.dedup();
            self.reindex(pool, Some(&ids)).await?;
        }
        *self
            .applied
            .lock()
            .map_err(|_| anyhow::anyhow!("applied poisoned"))? = last;
        Ok(rows.len())
    }

    /// The vocabulary words `word` stands for, each with a weight: 1.0 for
    /// the word or a synonym, less for a typo or a longer word it begins.
    fn expand(&self, word: &str, typing: bool) -> Vec<(String, f32)> {
        let Ok(vocabulary) = self.vocabulary.read() else {
            return Vec::new();
        };
        let alts = alternatives(word);
        let mut out: Vec<(String, f32)> = Vec::new();
        for alt in &alts {
            if vocabulary.all.contains(alt) {
                out.push((alt.clone(), 1.0));
            }
        }
        // Prefixes are contiguous in the sorted vocabulary.
        if typing {
            for alt in &alts {
                for w in vocabulary
                    .all
                    .range(alt.clone()..)
                    .take_while(|w| w.starts_with(alt.as_str()))
                    .take(MAX_EXPANSIONS)
                {
                    if !out.iter().any(|(o, _)| o == w) {
                        out.push((w.clone(), 0.6));
                    }
                }
            }
        }
        if max_typos(word) > 0 || typing {
            for w in &vocabulary.letters {
                if out.len() >= MAX_EXPANSIONS {
                    break;
                }
                if out.iter().any(|(o, _)| o == w) {
                    continue;
                }
                if alts.iter().any(|a| matches(a, w, typing)) {
                    let d = distance(word, w, 2) as f32;
                    out.push((w.clone(), 0.5 / (1.0 + d)));
                }
            }
        }
        out
    }

    /// Product ids matching `keyword`, best first, at most `limit`.
    pub fn products(&self, keyword: &str, limit: usize) -> anyhow::Result<Vec<i64>> {
        let searcher = self.reader.searcher();
        let ranked = self.ranked(&searcher, keyword, limit)?;
        Ok(ranked.into_iter().map(|(id, _)| id).collect())
    }

    /// The suggestion panel's products for `keyword`, best first, at most
    /// `limit`, answered from the index alone.
    pub fn suggest(&self, keyword: &str, limit: usize) -> anyhow::Result<Vec<SearchHit>> {
        let searcher = self.reader.searcher();
        let text = |doc: &TantivyDocument, field: Field| {
            doc.get_first(field)
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string()
        };
        let mut hits = Vec::new();
        for (id, addr) in self.ranked(&searcher, keyword, limit)? {
            let doc: TantivyDocument = searcher.doc(addr)?;
            let seo_url = text(&doc, self.fields.seo_url);
            hits.push(SearchHit {
                id,
                title: text(&doc, self.fields.shown_title),
                sub_title: text(&doc, self.fields.sub_title),
                url: format!("/product/{seo_url}"),
                seo_url,
            });
        }
        Ok(hits)
    }

    /// Ids and addresses of the products matching `keyword`, best first.
    fn ranked(
        &self,
        searcher: &Searcher,
        keyword: &str,
        limit: usize,
    ) -> anyhow::Result<Vec<(i64, DocAddress)>> {
        let keyword = keyword.trim();
        let mut ids: Vec<(i64, DocAddress)> = Vec::new();
        // An exact code or SKU first.
        let code = keyword.to_lowercase();
        if !code.is_empty() && !code.contains(' ') {
            let q = TermQuery::new(
                Term::from_field_text(self.fields.code, &code),
                IndexRecordOption::Basic,
            );
            for (_, addr) in searcher.search(&q, &TopDocs::with_limit(limit).order_by_score())? {
                let doc: TantivyDocument = searcher.doc(addr)?;
                if let Some(id) = doc.get_first(self.fields.id).and_then(|v| v.as_u64()) {
                    ids.push((id as i64, addr));
                }
            }
        }
        let query_words = words::words(keyword);
        if query_words.is_empty() {
            return Ok(ids);
        }
        let last = query_words.len() - 1;
        let mut must: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for (i, word) in query_words.iter().enumerate() {
            let expanded = self.expand(word, i == last);
            if expanded.is_empty() {
                // A word that matches nothing: nothing matches all words.
                return Ok(ids);
            }
            let mut should: Vec<(Occur, Box<dyn Query>)> = Vec::new();
            for (w, weight) in expanded {
                for (field, boost) in [(self.fields.title, 3.0), (self.fields.body, 1.0)] {
                    let q = TermQuery::new(
                        Term::from_field_text(field, &w),
                        IndexRecordOption::WithFreqs,
                    );
                    should.push((
                        Occur::Should,
                        Box::new(BoostQuery::new(Box::new(q), boost * weight)),
                    ));
                }
            }
            must.push((Occur::Must, Box::new(BooleanQuery::new(should))));
        }
        let query = BooleanQuery::new(must);
        let collector =
            TopDocs::with_limit(limit).tweak_score(move |segment: &tantivy::SegmentReader| {
                let pop = segment
                    .fast_fields()
                    .u64("popularity")
                    .map(|c| c.first_or_default_col(0));
                let id = segment
                    .fast_fields()
                    .u64("id")
                    .map(|c| c.first_or_default_col(0));
                move |doc: tantivy::DocId, score: tantivy::Score| {
                    let p = pop.as_ref().map_or(0, |c| c.get_val(doc));
                    let id = id.as_ref().map_or(0, |c| c.get_val(doc));
                    // Scores within 1 % are a tie; then popularity, then id.
                    (((score * 100.0).round() as i64), p, u64::MAX - id)
                }
            });
        for (key, addr) in searcher.search(&query, &collector)? {
            let id = (u64::MAX - key.2) as i64;
            if !ids.iter().any(|(known, _)| *known == id) {
                ids.push((id, addr));
            }
        }
        ids.truncate(limit);
        Ok(ids)
    }

    /// Categories whose names match every word of `keyword`, at most `limit`.
    pub fn categories(&self, keyword: &str, limit: usize) -> Vec<SearchTerm> {
        let query_words = words::words(keyword);
        if query_words.is_empty() {
            return Vec::new();
        }
        let Ok(terms) = self.categories.read() else {
            return Vec::new();
        };
        let last = query_words.len() - 1;
        terms
            .iter()
            .filter(|t| {
                query_words.iter().enumerate().all(|(i, q)| {
                    alternatives(q)
                        .iter()
                        .any(|a| t.words.iter().any(|w| matches(a, w, i == last)))
                })
            })
            .take(limit)
            .map(|t| SearchTerm {
                id: t.id,
                name: t.name.clone(),
                url: format!("/c/{}", t.seo_url),
                kind: "category".into(),
            })
            .collect()
    }

    /// Number of documents in the index.
    pub fn len(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index (for tools that inspect it).
    pub fn index(&self) -> &Index {
        &self.index
    }
}

/// Keeps `search` current: applies the change log whenever it may have grown
/// (woken by PostgreSQL's notifications, else every `every`), logging
/// failures and carrying on.
pub async fn follow(search: std::sync::Arc<Search>, pool: Pool, every: Duration) {
    let mut feed = catalog::db::ChangeFeed::new(&pool, every).await;
    tracing::info!(
        listening = feed.listening(),
        "search index follows the change log"
    );
    loop {
        feed.wait(every.max(catalog::db::LISTEN_FALLBACK)).await;
        match search.catch_up(&pool).await {
            Ok(0) => {}
            Ok(n) => tracing::debug!(changes = n, "search index caught up"),
            Err(err) => tracing::warn!(error = %format!("{err:#}"), "search index update failed"),
        }
    }
}
