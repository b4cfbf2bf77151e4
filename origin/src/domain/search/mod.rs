//! Product search with Tantivy, in memory, built at start from the database
//! and kept current from `change_log` ([`follow`]).
//!
//! Stop words leave the query ([`words::query_words`]), and two words that
//! name one thing stand for it ([`words::PHRASES`]: "jutar almari" is a shoe
//! cabinet, "drawing room sofa" a living sofa). Each query word is then
//! widened over the index's vocabulary, each widening with a class
//! ([`Class`]): the word itself; its synonyms (and its stems'); words with
//! the same phonetic key ([`words::keys`]: Banglish, Bangla script and
//! English spellings of one sound; a w also read as v) when the word itself
//! is not indexed; the word without a case
//! ending ("khater", বাচ্চাদের); for the word being typed (the last one),
//! words it begins, the shortest first ("bst-43": BST-430 before
//! BST-4301); words within the typos its length allows (1 from 5
//! letters, 2 from 9; one more on a word that finds nothing else); a
//! joined word split into indexed words ("nightstand" → night stand), and
//! two query words joined when the index has them as one ("book shelf" →
//! bookshelf).
//!
//! Every query word must match (AND). When no product has them all, the
//! query is relaxed and says which words its products match
//! ([`Found::relaxed`]): first without the words that match nothing; then,
//! of three words or more, without the least informative one (the one most
//! products have) that leaves something; then any word, products with more
//! words first. A one-word query of one or two letters is answered from
//! memory after its first time in an index generation ([`Search::ranked`]).
//!
//! Ranking: a product's score is, per query word, its best match (class,
//! then title over the rest), plus a bonus for query words next to each
//! other in the title and one for each query word naming one of the
//! product's categories (its name or an ancestor's); so exact
//! words beat phonetic ones, which beat prefixes and typos; words close
//! together beat words apart; a product of the category named beats one
//! that only has the word in its title ("living room furniture": a sofa
//! before a "living room rug"); a title beats a description, and a
//! category's keywords (what else shoppers call it: "khat" for Beds) count
//! as a synonym at best, below a product's own words. Equal scores go to
//! the more popular product, then the one
//! in stock. An exact product code or SKU (or a variation's code) comes
//! first. Categories for the suggestion panel are matched in memory.

pub mod words;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Mutex, RwLock};
use std::time::{Duration, Instant};

use anyhow::Context;
use sqlx::FromRow;
use tantivy::collector::TopDocs;
use tantivy::indexer::{LogMergePolicy, NoMergePolicy};
use tantivy::query::{
    BooleanQuery, ConstScoreQuery, DisjunctionMaxQuery, Occur, PhraseQuery, Query, TermQuery,
    TermSetQuery,
};
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

use words::{
    alternatives, is_bangla, key, keys, matches, max_typos, normalized, same_word_by_key, stems,
    typos_between,
};

/// Most vocabulary words one query word may widen to.
const MAX_EXPANSIONS: usize = 40;
/// Most words the word being typed begins that are looked at, to keep the
/// nearest [`MAX_EXPANSIONS`].
const PREFIX_SCAN: usize = 400;
/// Most parts a joined query word is split into ("sofacumbed").
const MAX_PARTS: usize = 3;
/// A one-word query of at most this many letters is answered from memory
/// after its first time in an index generation ([`Search::ranked`]).
const SHORT_QUERY: usize = 2;
/// Most short answers kept (any two letters may be typed).
const SHORT_ANSWERS: usize = 2048;

/// How a vocabulary word matches a query word, best last; the value is the
/// score of such a match in tenths of [`CLASS_SCORE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    /// One typo more than the word's length allows (one on a word of three
    /// or four letters, two on one of five to eight), only when it finds
    /// nothing else.
    ExtraTypo = 20,
    /// Two typos.
    TwoTypos = 30,
    /// One typo.
    OneTypo = 50,
    /// A word that the word being typed begins, longer than the shortest
    /// such word.
    LongerPrefix = 65,
    /// One of the shortest words that the word being typed begins.
    Prefix = 70,
    /// A joined word split, or two words joined.
    Joined = 80,
    /// The word without its case ending, spelled otherwise ("খাটের": খাট's
    /// sounds), below the stem and its synonyms as written.
    StemSound = 83,
    /// The word (or a synonym) without its case ending or plural suffix.
    Stem = 85,
    /// A synonym spelled otherwise.
    Related = 87,
    /// The same sounds heard a second way: a w read as v ("dewan": divan),
    /// below the first reading ("dewal": দেয়াল before "double").
    SecondReading = 88,
    /// The same sounds spelled otherwise (Banglish, Bangla script).
    Phonetic = 90,
    /// A synonym.
    Synonym = 95,
    /// The word itself.
    Exact = 100,
}

impl Class {
    /// The score of a match of this class outside the title (the title
    /// adds [`TITLE_SCORE`]).
    fn score(self) -> f32 {
        (self as u32 * CLASS_SCORE / 10) as f32
    }
}

/// A match's score per class step of ten: above every proximity and title
/// bonus a query can add up.
const CLASS_SCORE: u32 = 1000;
/// Two query words next to each other in the title (at most one apart).
const PROXIMITY_SCORE: f32 = 40.0;
/// A query word matched in the title rather than elsewhere.
const TITLE_SCORE: f32 = 4.0;
/// A query word naming one of the product's categories (or an ancestor of
/// one): above the title, so that "living room
/// furniture" is a sofa before a rug called "living room rug".
const CATEGORY_SCORE: f32 = 20.0;
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
    /// Answers of short queries ([`Search::ranked`]).
    short: Mutex<ShortAnswers>,
}

/// Products best first with their addresses, and the words a relaxed query
/// matched ([`Found::relaxed`]).
type Ranked = (Vec<(i64, DocAddress)>, Option<String>);

/// Answers of one-word queries of at most [`SHORT_QUERY`] letters, for one
/// index generation (addresses change with it).
#[derive(Default)]
struct ShortAnswers {
    generation: u64,
    answers: HashMap<(String, usize), Ranked>,
}

/// What a search found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// Product ids, best first.
    pub ids: Vec<i64>,
    /// When no product has every word and the query was relaxed: the words
    /// the products match, as typed, for "Showing results for …": the
    /// words that match something ("sofa" for "sofa qqxxzz"), or, when no
    /// product has them all, the words as typed, a comma between them
    /// ("wardrobe, lamp": each product has some of them, those with more
    /// first; never a word the shopper did not type, as "or" was).
    pub relaxed: Option<String>,
}

#[derive(Debug, Clone, Copy)]
struct Fields {
    id: Field,
    in_stock: Field,
    title: Field,
    body: Field,
    /// What else shoppers call the product's categories (their keywords:
    /// "khat" for Beds): words the shop says mean its category, so a match
    /// there counts as a synonym at best ([`Class::Synonym`]), never above
    /// the title's own words matched by a synonym.
    aliases: Field,
    /// The names of the product's categories and their ancestors' (English
    /// and Bangla), for [`CATEGORY_SCORE`].
    category: Field,
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
    /// Words by phonetic key; a Bangla word also by its stems' keys
    /// (শিশুদের is found as শিশু).
    by_key: HashMap<String, Vec<String>>,
    /// The words of category names, the only ones a [`CATEGORY_SCORE`]
    /// bonus can be for.
    category: BTreeSet<String>,
    /// The words of category keywords, the only ones the keyword field
    /// ([`Fields::aliases`]) is asked for.
    aliases: BTreeSet<String>,
}

impl Vocabulary {
    /// Adds these words (those already known are skipped).
    fn add(&mut self, words: BTreeSet<String>) {
        for w in words {
            if !self.all.contains(&w) {
                if !w.chars().any(|c| c.is_numeric()) {
                    self.letters.push(w.clone());
                    // Every reading of it ("visitor" is also heard ভিজিটর).
                    let mut keys = keys(&w);
                    if is_bangla(&w) {
                        keys.extend(stems(&w).iter().map(|s| key(s)));
                    }
                    for k in keys {
                        if k.is_empty() {
                            continue;
                        }
                        let list = self.by_key.entry(k).or_default();
                        if !list.contains(&w) {
                            list.push(w.clone());
                        }
                    }
                }
                self.all.insert(w);
            }
        }
    }

    /// Whether `word` is an indexed word of letters alone.
    fn has_letters_word(&self, word: &str) -> bool {
        word.chars().count() >= 2
            && !word.chars().any(|c| c.is_numeric())
            && self.all.contains(word)
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
    // The title keeps positions, for words close together.
    let title_words = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("words")
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let id = b.add_u64_field("id", INDEXED | FAST | STORED);
    let in_stock = b.add_u64_field("in_stock", FAST);
    let title = b.add_text_field("title", title_words);
    let category = b.add_text_field(
        "category",
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer("words")
                .set_index_option(IndexRecordOption::Basic),
        ),
    );
    let body = b.add_text_field("body", words.clone());
    let aliases = b.add_text_field("aliases", words);
    let code = b.add_text_field("code", STRING);
    let popularity = b.add_u64_field("popularity", FAST);
    let shown_title = b.add_text_field("shown_title", STORED);
    let sub_title = b.add_text_field("sub_title", STORED);
    let seo_url = b.add_text_field("seo_url", STORED);
    (
        b.build(),
        Fields {
            id,
            in_stock,
            title,
            body,
            aliases,
            category,
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
    stock: i64,
    variation_codes: Option<String>,
    tags: Option<String>,
}

#[derive(Debug, FromRow)]
struct CategoryRow {
    id: i64,
    parent: Option<i64>,
    name: String,
    name_bn: Option<String>,
    keywords: Option<String>,
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
    aliases: String,
    category: String,
    codes: Vec<String>,
    popularity: u64,
    in_stock: bool,
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
            short: Mutex::new(ShortAnswers::default()),
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
            "SELECT id, parent, name, name_bn, keywords, seo_url, type AS kind, \
             (is_active AND is_published) AS visible FROM category",
        )
        .fetch_all(pool)
        .await?;
        let by_id: HashMap<i64, &CategoryRow> = categories.iter().map(|c| (c.id, c)).collect();
        // A category's names with its ancestors' ("Sofas" is also "Living"),
        // and their keywords ("furniture", what else shoppers call it).
        let lineage = |mut id: i64| {
            let (mut names, mut keywords) = (String::new(), String::new());
            for _ in 0..10 {
                let Some(c) = by_id.get(&id) else { break };
                for name in [Some(&c.name), c.name_bn.as_ref()].into_iter().flatten() {
                    names.push_str(name);
                    names.push(' ');
                }
                keywords.push_str(c.keywords.as_deref().unwrap_or_default());
                keywords.push(' ');
                match c.parent {
                    Some(p) => id = p,
                    None => break,
                }
            }
            (names, keywords)
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
            "SELECT p.id, p.title, p.sub_title, p.seo_url, p.product_code, p.sku, p.popularity, p.stock, \
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
        // Per product: its categories' names, and their keywords.
        let mut cats_of: HashMap<i64, (String, String)> = HashMap::new();
        for (product, category) in links {
            let entry = cats_of.entry(product).or_default();
            let (names, keywords) = lineage(category);
            entry.0.push_str(&names);
            entry.1.push_str(&keywords);
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
                let (category, keywords) = cats_of.remove(&r.id).unwrap_or_default();
                // A keyword that repeats a category's name ("kids beds" for
                // Kids Beds) adds nothing to the names in the body.
                let names: BTreeSet<String> = words::words(&category).into_iter().collect();
                let keywords: BTreeSet<String> = words::words(&keywords)
                    .into_iter()
                    .filter(|w| !names.contains(w))
                    .collect();
                let keywords = keywords.into_iter().collect::<Vec<_>>().join(" ");
                ProductDoc {
                    id: r.id,
                    body: format!(
                        "{} {} {} {} {}",
                        r.sub_title,
                        category,
                        r.tags.unwrap_or_default(),
                        r.product_code,
                        r.sku
                    ),
                    aliases: keywords,
                    category,
                    title: r.title,
                    sub_title: r.sub_title,
                    seo_url: r.seo_url,
                    codes,
                    popularity: r.popularity.max(0) as u64,
                    in_stock: r.stock > 0,
                }
            })
            .collect();
        let count = docs.len();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut aliased: BTreeSet<String> = BTreeSet::new();
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
                let aliases = normalized(&d.aliases);
                for w in title
                    .split(' ')
                    .chain(body.split(' '))
                    .chain(aliases.split(' '))
                {
                    if !w.is_empty() && !seen.contains(w) {
                        seen.insert(w.to_string());
                    }
                }
                for w in aliases.split(' ') {
                    if !w.is_empty() && !aliased.contains(w) {
                        aliased.insert(w.to_string());
                    }
                }
                let mut doc = doc!(
                    self.fields.id => d.id as u64,
                    self.fields.title => title,
                    self.fields.body => body,
                    self.fields.aliases => aliases,
                    self.fields.category => normalized(&d.category),
                    self.fields.popularity => d.popularity,
                    self.fields.in_stock => u64::from(d.in_stock),
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
        let mut vocabulary = self
            .vocabulary
            .write()
            .map_err(|_| anyhow::anyhow!("vocabulary poisoned"))?;
        vocabulary.add(seen);
        vocabulary.aliases.extend(aliased);
        vocabulary.category = categories
            .iter()
            .flat_map(|c| {
                words::words(&format!(
                    "{} {}",
                    c.name,
                    c.name_bn.as_deref().unwrap_or_default()
                ))
            })
            .collect();
        drop(vocabulary);
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

    /// What the query word `word` matches in `vocabulary`; `typing` when it
    /// is the last word, perhaps not finished.
    fn expand(vocabulary: &Vocabulary, word: &str, typed: &str, typing: bool) -> Widened {
        let mut out = Widened::default();
        let alts = alternatives(word);
        let exact = vocabulary.all.contains(word);
        if exact {
            out.push(word, Class::Exact);
        }
        // A word that sounds like another and means something else, as
        // written ("kather": wood, not khat): only that
        // (not what its sounds are a synonym of: "kather" heard k-d-r is no
        // "kedara", a chair).
        if let Some(meant) = words::as_written(word) {
            for alt in alternatives(meant) {
                if vocabulary.all.contains(&alt) {
                    out.push(&alt, Class::Synonym);
                }
            }
            return out;
        }
        for alt in &alts[1..] {
            if vocabulary.all.contains(alt) {
                out.push(alt, Class::Synonym);
            }
        }
        // A number word is also its digit, below its sounds ("char" alone is
        // a chair; "char joner" a 4 seater).
        if let Some(d) = words::number(word).filter(|d| vocabulary.all.contains(*d)) {
            out.push(d, Class::Related);
        }
        if exact {
            // The same word in the other script (ক্যাবিনেট, in "টিভি
            // ক্যাবিনেট", is also "cabinet").
            for k in keys(word) {
                for w in vocabulary.by_key.get(&k).into_iter().flatten() {
                    if is_bangla(w) != is_bangla(word)
                        && k.chars().count() >= 2
                        && same_word_by_key(word, &k, w)
                    {
                        out.push(w, Class::Phonetic);
                    }
                }
            }
            // An indexed word with a case ending is also its stem's synonyms
            // (পড়ার, in "পড়ার টেবিল", is also "study").
            for stem in stems(word) {
                for alt in alternatives(&stem) {
                    if alt != word && vocabulary.all.contains(&alt) {
                        out.push(&alt, Class::Stem);
                    }
                }
            }
        }
        if !exact {
            // Other spellings of the same sounds, of the word and of its
            // synonyms; then the same without a case ending.
            let mut forms: Vec<(String, Class, Class)> = alts
                .iter()
                .enumerate()
                .map(|(i, a)| match i {
                    0 => (a.clone(), Class::Phonetic, Class::Phonetic),
                    _ => (a.clone(), Class::Synonym, Class::Related),
                })
                .collect();
            // The word as typed, when folding an English plural changed it:
            // a Banglish word ending in s is seldom a plural ("shokes").
            if typed != word && typed.chars().all(|c| c.is_ascii_alphabetic()) {
                forms.push((typed.to_string(), Class::Phonetic, Class::Phonetic));
            }
            for stem in stems(word) {
                for (i, alt) in alternatives(&stem).into_iter().enumerate() {
                    let by_key = if i == 0 {
                        Class::StemSound
                    } else {
                        Class::Related
                    };
                    forms.push((alt, Class::Stem, by_key));
                }
            }
            for (form, as_word, by_key) in forms {
                if form != word && vocabulary.all.contains(&form) {
                    out.push(&form, as_word);
                }
                for (reading, k) in keys(&form).into_iter().enumerate() {
                    let sounds = k.chars().count();
                    if by_key == Class::Related && sounds < 3 {
                        // A synonym's short key finds too much ("settee" is
                        // not "set").
                        continue;
                    }
                    let Some(list) = vocabulary.by_key.get(&k) else {
                        continue;
                    };
                    let class = if reading == 0 {
                        by_key
                    } else {
                        by_key.min(Class::SecondReading)
                    };
                    for w in list {
                        let alike = if sounds < 2 {
                            // One sound ("shoe") says too little: only a
                            // near spelling in the same script, or a word
                            // of three letters at most in the other (ডে: day).
                            if is_bangla(w) == is_bangla(&form) {
                                words::distance(&form, w, 1) <= 1
                            } else {
                                w.chars().count().min(form.chars().count()) <= 3
                                    && !w.chars().any(|c| c.is_numeric())
                            }
                        } else {
                            same_word_by_key(&form, &k, w)
                        };
                        if alike {
                            out.push(w, class);
                        }
                    }
                }
            }
        }
        // Words the word being typed begins (not its synonyms': "khat" is
        // not "bedside"); they are contiguous in the sorted vocabulary. The
        // nearest first: "43" is 430 to 439 before 4300 ("bst-43").
        if typing {
            let mut begun: Vec<&String> = vocabulary
                .all
                .range(word.to_string()..)
                .take_while(|w| w.starts_with(word))
                .filter(|w| *w != word)
                .take(PREFIX_SCAN)
                .collect();
            begun.sort_by_key(|w| w.len());
            let nearest = begun.first().map_or(0, |w| w.len());
            for w in begun.into_iter().take(MAX_EXPANSIONS) {
                out.push(
                    w,
                    if w.len() == nearest {
                        Class::Prefix
                    } else {
                        Class::LongerPrefix
                    },
                );
            }
        }
        // Typos of the word typed, not of its synonyms ("light" for "lamp"
        // is no "night").
        let typos = usize::from(max_typos(word));
        if typos > 0 {
            for w in &vocabulary.letters {
                match typos_between(word, w, typos, typing) {
                    Some(1) => out.push(w, Class::OneTypo),
                    Some(2) => out.push(w, Class::TwoTypos),
                    _ => {}
                }
            }
        }
        let joinable = (word.len() >= 5 && word.chars().all(|c| c.is_ascii_alphabetic()))
            || (is_bangla(word) && word.chars().count() >= 4);
        if !exact && joinable {
            if let Some(parts) = split(vocabulary, word, typing) {
                out.splits.push(parts);
            }
        }
        // A word that finds nothing else: one typo more than its length
        // allows ("chr": chair; "dainig": dining), at most two.
        let extra = typos + 1;
        if out.is_empty() && word.chars().count() >= 3 && extra <= 2 {
            for w in &vocabulary.letters {
                if typos_between(word, w, extra, typing).is_some() {
                    out.push(w, Class::ExtraTypo);
                }
            }
        }
        out
    }

    /// The query for one widened word: its best match in the title or
    /// elsewhere.
    fn word_query(&self, vocabulary: &Vocabulary, widened: &Widened) -> Box<dyn Query> {
        let mut disjuncts: Vec<Box<dyn Query>> = Vec::new();
        // One clause per class and field: several words of a class are one
        // set (a bitset of their products, far cheaper than a union of
        // many lists, e.g. the forty words "s" begins).
        let mut classes: Vec<Class> = widened.words.iter().map(|w| w.1).collect();
        classes.sort_unstable();
        classes.dedup();
        for class in classes {
            let words: Vec<&String> = widened
                .words
                .iter()
                .filter(|w| w.1 == class)
                .map(|w| &w.0)
                .collect();
            // The keyword field only for words it holds: one clause fewer per
            // class for the rest, a cost per product.
            let aliased: Vec<&String> = words
                .iter()
                .copied()
                .filter(|w| vocabulary.aliases.contains(*w))
                .collect();
            for (field, score, words) in [
                (self.fields.title, class.score() + TITLE_SCORE, &words),
                (self.fields.body, class.score(), &words),
                (
                    self.fields.aliases,
                    class.min(Class::Synonym).score(),
                    &aliased,
                ),
            ] {
                let q: Box<dyn Query> = match words.as_slice() {
                    [] => continue,
                    [one] => Box::new(TermQuery::new(
                        Term::from_field_text(field, one),
                        IndexRecordOption::Basic,
                    )),
                    many => Box::new(TermSetQuery::new(
                        many.iter().map(|w| Term::from_field_text(field, w)),
                    )),
                };
                disjuncts.push(Box::new(ConstScoreQuery::new(q, score)));
            }
        }
        // A split word: every part in the title, or each part anywhere.
        for parts in &widened.splits {
            let all_in = |fields: &[Field]| -> Box<dyn Query> {
                let must: Vec<(Occur, Box<dyn Query>)> = parts
                    .iter()
                    .map(|words| {
                        let should: Vec<(Occur, Box<dyn Query>)> = words
                            .iter()
                            .flat_map(|w| fields.iter().map(move |field| (*field, w)))
                            .map(|(field, w)| {
                                let q: Box<dyn Query> = Box::new(TermQuery::new(
                                    Term::from_field_text(field, w),
                                    IndexRecordOption::Basic,
                                ));
                                (Occur::Should, q)
                            })
                            .collect();
                        let q: Box<dyn Query> = Box::new(BooleanQuery::new(should));
                        (Occur::Must, q)
                    })
                    .collect();
                Box::new(BooleanQuery::new(must))
            };
            disjuncts.push(Box::new(ConstScoreQuery::new(
                all_in(&[self.fields.title]),
                Class::Joined.score() + TITLE_SCORE,
            )));
            disjuncts.push(Box::new(ConstScoreQuery::new(
                all_in(&[self.fields.title, self.fields.body, self.fields.aliases]),
                Class::Joined.score(),
            )));
        }
        Box::new(DisjunctionMaxQuery::new(disjuncts))
    }

    /// A bonus for two query words next to each other (at most one word
    /// apart) in the title, as their best matches; `None` when either
    /// matches no single word. One phrase per pair: positions are read for
    /// every product both words match, the costliest part of a query.
    fn proximity_query(&self, a: &Widened, b: &Widened) -> Option<Box<dyn Query>> {
        let best = |w: &Widened| w.words.iter().max_by_key(|w| w.1).map(|w| w.0.clone());
        let (x, y) = (best(a)?, best(b)?);
        let q = PhraseQuery::new_with_offset_and_slop(
            vec![
                (0, Term::from_field_text(self.fields.title, &x)),
                (1, Term::from_field_text(self.fields.title, &y)),
            ],
            1,
        );
        Some(Box::new(ConstScoreQuery::new(Box::new(q), PROXIMITY_SCORE)))
    }

    /// A bonus for a query word (any of its matches) naming one of the
    /// product's categories; `None` when it names none.
    fn category_query(&self, vocabulary: &Vocabulary, w: &Widened) -> Option<Box<dyn Query>> {
        let terms: Vec<Term> = w
            .words
            .iter()
            .filter(|(word, _)| vocabulary.category.contains(word))
            .map(|(word, _)| Term::from_field_text(self.fields.category, word))
            .collect();
        let q: Box<dyn Query> = match terms.len() {
            0 => return None,
            1 => Box::new(TermQuery::new(terms[0].clone(), IndexRecordOption::Basic)),
            _ => Box::new(TermSetQuery::new(terms)),
        };
        Some(Box::new(ConstScoreQuery::new(q, CATEGORY_SCORE)))
    }

    /// Product ids matching `keyword`, best first, at most `limit`.
    pub fn products(&self, keyword: &str, limit: usize) -> anyhow::Result<Vec<i64>> {
        Ok(self.found(keyword, limit)?.ids)
    }

    /// Product ids matching `keyword`, best first, at most `limit`, and
    /// whether the query was relaxed to find them (no product has every
    /// word: "Showing results for …").
    pub fn find(&self, keyword: &str, limit: usize) -> anyhow::Result<(Vec<i64>, bool)> {
        let found = self.found(keyword, limit)?;
        let relaxed = found.relaxed.is_some();
        Ok((found.ids, relaxed))
    }

    /// Product ids matching `keyword`, best first, at most `limit`, and the
    /// words a relaxed query matched ([`Found::relaxed`]).
    pub fn found(&self, keyword: &str, limit: usize) -> anyhow::Result<Found> {
        let searcher = self.reader.searcher();
        let (ranked, relaxed) = self.ranked(&searcher, keyword, limit)?;
        Ok(Found {
            ids: ranked.into_iter().map(|(id, _)| id).collect(),
            relaxed,
        })
    }

    /// The suggestion panel's products for `keyword`, best first, at most
    /// `limit`, answered from the index alone.
    pub fn suggest(&self, keyword: &str, limit: usize) -> anyhow::Result<Vec<SearchHit>> {
        Ok(self.suggest_relaxed(keyword, limit)?.0)
    }

    /// [`Search::suggest`], and the words a relaxed query matched
    /// ([`Found::relaxed`]).
    pub fn suggest_relaxed(
        &self,
        keyword: &str,
        limit: usize,
    ) -> anyhow::Result<(Vec<SearchHit>, Option<String>)> {
        let searcher = self.reader.searcher();
        let text = |doc: &TantivyDocument, field: Field| {
            doc.get_first(field)
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string()
        };
        let mut hits = Vec::new();
        let (ranked, relaxed) = self.ranked(&searcher, keyword, limit)?;
        for (id, addr) in ranked {
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
        Ok((hits, relaxed))
    }

    /// The products `query` matches, best first: by score, then
    /// popularity, then stock, then the lower id.
    fn run(
        &self,
        searcher: &Searcher,
        query: &dyn Query,
        limit: usize,
    ) -> anyhow::Result<Vec<(i64, DocAddress)>> {
        let collector =
            TopDocs::with_limit(limit).tweak_score(move |segment: &tantivy::SegmentReader| {
                let column = |name: &str| {
                    segment
                        .fast_fields()
                        .u64(name)
                        .map(|c| c.first_or_default_col(0))
                };
                let pop = column("popularity");
                let stock = column("in_stock");
                let id = column("id");
                move |doc: tantivy::DocId, score: tantivy::Score| {
                    let p = pop.as_ref().map_or(0, |c| c.get_val(doc));
                    let s = stock.as_ref().map_or(0, |c| c.get_val(doc));
                    let id = id.as_ref().map_or(0, |c| c.get_val(doc));
                    (score.round() as i64, p, s, u64::MAX - id)
                }
            });
        Ok(searcher
            .search(query, &collector)?
            .into_iter()
            .map(|(key, addr)| ((u64::MAX - key.3) as i64, addr))
            .collect())
    }

    /// Ids and addresses of the products matching `keyword`, best first,
    /// and the words a relaxed query matched. A one-word query of at most
    /// [`SHORT_QUERY`] letters ("s", "so", "খ": the first letters typed,
    /// whose prefixes match much of the shop) is answered once per index
    /// generation and then from memory.
    fn ranked(&self, searcher: &Searcher, keyword: &str, limit: usize) -> anyhow::Result<Ranked> {
        let keyword = keyword.trim();
        let typed = words::typed_words(keyword);
        let short = match typed.as_slice() {
            [(_, w)] if w.chars().count() <= SHORT_QUERY => Some((w.clone(), limit)),
            _ => None,
        };
        let generation = searcher.generation().generation_id();
        if let Some(key) = &short {
            let cache = self
                .short
                .lock()
                .map_err(|_| anyhow::anyhow!("short answers poisoned"))?;
            if cache.generation == generation {
                if let Some(answer) = cache.answers.get(key) {
                    return Ok(answer.clone());
                }
            }
        }
        let answer = self.ranked_uncached(searcher, keyword, &typed, limit)?;
        if let Some(key) = short {
            let mut cache = self
                .short
                .lock()
                .map_err(|_| anyhow::anyhow!("short answers poisoned"))?;
            if cache.generation != generation || cache.answers.len() >= SHORT_ANSWERS {
                cache.answers.clear();
                cache.generation = generation;
            }
            cache.answers.insert(key, answer.clone());
        }
        Ok(answer)
    }

    /// [`Search::ranked`] without the memory of short queries; `typed` are
    /// `keyword`'s query words ([`words::typed_words`]).
    fn ranked_uncached(
        &self,
        searcher: &Searcher,
        keyword: &str,
        typed: &[(String, String)],
        limit: usize,
    ) -> anyhow::Result<Ranked> {
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
        let query_words: Vec<String> = typed.iter().map(|w| w.1.clone()).collect();
        if query_words.is_empty() {
            return Ok((ids, None));
        }
        let last = query_words.len() - 1;
        // Each group is one query word, or two the index has as one word;
        // with whether it matches anything, the words as typed, and whether
        // it names a category.
        let mut groups: Vec<(Box<dyn Query>, bool, String, bool)> = Vec::new();
        // Scores added to what the words match: words next to each other,
        // words naming the product's categories.
        let mut bonuses: Vec<Box<dyn Query>> = Vec::new();
        {
            let vocabulary = self
                .vocabulary
                .read()
                .map_err(|_| anyhow::anyhow!("vocabulary poisoned"))?;
            let widened: Vec<Widened> = query_words
                .iter()
                .enumerate()
                .map(|(i, w)| Self::expand(&vocabulary, w, &typed[i].0.to_lowercase(), i == last))
                .collect();
            let names_category = |w: &Widened| {
                w.words
                    .iter()
                    .any(|(word, _)| vocabulary.category.contains(word))
            };
            let mut i = 0;
            while i < widened.len() {
                let joined = query_words.get(i + 1).and_then(|next| {
                    joined_word(&vocabulary, (&query_words[i], next), i + 1 == last)
                });
                match joined {
                    Some(j) => {
                        let apart: Vec<(Occur, Box<dyn Query>)> = vec![
                            (Occur::Must, self.word_query(&vocabulary, &widened[i])),
                            (Occur::Must, self.word_query(&vocabulary, &widened[i + 1])),
                        ];
                        let together = Widened {
                            words: vec![(j, Class::Joined)],
                            splits: Vec::new(),
                        };
                        // Two words' worth.
                        let together = BooleanQuery::new(vec![
                            (Occur::Must, self.word_query(&vocabulary, &together)),
                            (Occur::Should, self.word_query(&vocabulary, &together)),
                        ]);
                        groups.push((
                            Box::new(DisjunctionMaxQuery::new(vec![
                                Box::new(BooleanQuery::new(apart)),
                                Box::new(together),
                            ])),
                            true,
                            format!("{} {}", typed[i].0, typed[i + 1].0),
                            names_category(&widened[i]) || names_category(&widened[i + 1]),
                        ));
                        i += 2;
                    }
                    None => {
                        groups.push((
                            self.word_query(&vocabulary, &widened[i]),
                            !widened[i].is_empty(),
                            typed[i].0.clone(),
                            names_category(&widened[i]),
                        ));
                        i += 1;
                    }
                }
            }
            for pair in widened.windows(2) {
                bonuses.extend(self.proximity_query(&pair[0], &pair[1]));
            }
            bonuses.extend(
                widened
                    .iter()
                    .filter_map(|w| self.category_query(&vocabulary, w)),
            );
        }
        let with_bonuses = |required: Occur, groups: &[&dyn Query]| {
            let mut clauses: Vec<(Occur, Box<dyn Query>)> =
                groups.iter().map(|q| (required, q.box_clone())).collect();
            clauses.extend(bonuses.iter().map(|q| (Occur::Should, q.box_clone())));
            BooleanQuery::new(clauses)
        };
        let add = |ids: &mut Vec<(i64, DocAddress)>, found: Vec<(i64, DocAddress)>| {
            for (id, addr) in found {
                if !ids.iter().any(|(known, _)| *known == id) {
                    ids.push((id, addr));
                }
            }
            ids.truncate(limit);
        };
        let all_known = groups.iter().all(|g| g.1);
        let known: Vec<&dyn Query> = groups
            .iter()
            .filter(|g| g.1)
            .map(|g| g.0.as_ref())
            .collect();
        let known_words: Vec<&str> = groups
            .iter()
            .filter(|g| g.1)
            .map(|g| g.2.as_str())
            .collect();
        let known_names_category: Vec<bool> = groups.iter().filter(|g| g.1).map(|g| g.3).collect();
        // 1. Every word.
        if all_known {
            let found = self.run(searcher, &with_bonuses(Occur::Must, &known), limit)?;
            if !found.is_empty() || !ids.is_empty() {
                add(&mut ids, found);
                return Ok((ids, None));
            }
        }
        if !ids.is_empty() || known.is_empty() {
            return Ok((ids, None));
        }
        // 2. Without the words that match nothing.
        if !all_known {
            let found = self.run(searcher, &with_bonuses(Occur::Must, &known), limit)?;
            if !found.is_empty() {
                add(&mut ids, found);
                return Ok((ids, Some(known_words.join(" "))));
            }
        }
        // 3. Of three words or more, without the least informative one that
        // leaves something: a word naming no category before one that does
        // (the shopper's "small dining table" is a dining table), then the
        // one most products have ("oak wood dressing table": oak dressing
        // table).
        if known.len() >= 3 {
            let mut by_count: Vec<(bool, usize, usize)> = Vec::with_capacity(known.len());
            for (i, q) in known.iter().enumerate() {
                let count = searcher.search(*q, &tantivy::collector::Count)?;
                by_count.push((known_names_category[i], count, i));
            }
            by_count.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(b.2.cmp(&a.2)));
            for (_, _, dropped) in by_count {
                let kept: Vec<&dyn Query> = known
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != dropped)
                    .map(|(_, q)| *q)
                    .collect();
                let found = self.run(searcher, &with_bonuses(Occur::Must, &kept), limit)?;
                if !found.is_empty() {
                    add(&mut ids, found);
                    let words: Vec<&str> = known_words
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != dropped)
                        .map(|(_, w)| *w)
                        .collect();
                    return Ok((ids, Some(words.join(" "))));
                }
            }
        }
        // 4. Any word, products with more of them first.
        if known.len() > 1 {
            let found = self.run(searcher, &with_bonuses(Occur::Should, &known), limit)?;
            add(&mut ids, found);
            let relaxed = (!ids.is_empty()).then(|| known_words.join(", "));
            return Ok((ids, relaxed));
        }
        Ok((ids, None))
    }

    /// Categories whose names match every word of `keyword`, at most `limit`.
    pub fn categories(&self, keyword: &str, limit: usize) -> Vec<SearchTerm> {
        let query_words = words::query_words(keyword);
        if query_words.is_empty() {
            return Vec::new();
        }
        let Ok(terms) = self.categories.read() else {
            return Vec::new();
        };
        let last = query_words.len() - 1;
        // Each word with its synonyms and its stems' ("বাচ্চাদের" is "kid").
        let forms: Vec<Vec<String>> = query_words
            .iter()
            .map(|q| {
                let mut forms = alternatives(q);
                for stem in stems(q) {
                    forms.extend(alternatives(&stem));
                }
                forms
            })
            .collect();
        terms
            .iter()
            .filter(|t| {
                forms.iter().enumerate().all(|(i, forms)| {
                    forms
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

/// What one query word matches in the vocabulary.
#[derive(Debug, Default)]
struct Widened {
    /// Vocabulary words, each with its best class.
    words: Vec<(String, Class)>,
    /// Splits of a joined word into indexed words, each part the words it
    /// may be (a typed last part: the words it begins).
    splits: Vec<Vec<Vec<String>>>,
}

impl Widened {
    fn is_empty(&self) -> bool {
        self.words.is_empty() && self.splits.is_empty()
    }

    /// Adds `word` as matched by `class`, keeping its best class.
    fn push(&mut self, word: &str, class: Class) {
        if let Some(known) = self.words.iter_mut().find(|(w, _)| w == word) {
            known.1 = known.1.max(class);
        } else if self.words.len() < MAX_EXPANSIONS {
            self.words.push((word.to_string(), class));
        }
    }
}

/// The indexed word two query words make when joined ("book shelf" →
/// bookshelf, "sho kes" → showcase, "bed sied" → bedside): the word itself,
/// else one with the same sounds (three or more), else one within the typos
/// the joined length allows. Words of letters only.
fn joined_word(
    vocabulary: &Vocabulary,
    (first, second): (&str, &str),
    typing: bool,
) -> Option<String> {
    let joined = format!("{first}{second}");
    if vocabulary.has_letters_word(&joined) {
        return Some(joined);
    }
    // Or what the two mean, joined ("khater pasher": bed side, bedside).
    let seconds = words::meanings(second);
    for a in words::meanings(first) {
        for b in &seconds {
            let joined = format!("{a}{b}");
            if vocabulary.has_letters_word(&joined) {
                return Some(joined);
            }
        }
    }
    if !joined.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let typos = usize::from(max_typos(&joined));
    // Not one of the two words alone, spelled otherwise ("tv cabinet" is
    // not "cabinet" with two typos).
    let other = |w: &str| {
        [first, second]
            .iter()
            .all(|p| key(p) != key(w) && words::distance(p, w, typos) > typos)
    };
    let k = key(&joined);
    if k.chars().count() >= 3 {
        if let Some(w) = vocabulary
            .by_key
            .get(&k)
            .and_then(|l| l.iter().find(|w| !is_bangla(w) && other(w)))
        {
            return Some(w.clone());
        }
    }
    if typos == 0 {
        return None;
    }
    vocabulary
        .letters
        .iter()
        .filter(|w| other(w))
        .filter_map(|w| typos_between(&joined, w, typos, typing).map(|d| (d, w)))
        .min_by_key(|(d, w)| (*d, w.len()))
        .map(|(_, w)| w.clone())
}

/// `word` split into two or three indexed words ("nightstand" → night
/// stand, "sofacumbed" → sofa cum bed), fewest parts first, then the
/// longest first part; a typed last part may be the start of a word.
fn split(vocabulary: &Vocabulary, word: &str, typing: bool) -> Option<Vec<Vec<String>>> {
    fn whole_or_begun(vocabulary: &Vocabulary, rest: &str, typing: bool) -> Option<Vec<String>> {
        if vocabulary.has_letters_word(rest) {
            return Some(vec![rest.to_string()]);
        }
        // Or without a case ending (ড্রেসিংটেবিলের: ড্রেসিং টেবিল).
        if let Some(stem) = stems(rest)
            .into_iter()
            .find(|s| vocabulary.has_letters_word(s))
        {
            return Some(vec![stem]);
        }
        // Or the same sounds spelled otherwise ("nightstnd": night stand),
        // when they are three or more, in the same script.
        let k = key(rest);
        if k.chars().count() >= 3 {
            if let Some(list) = vocabulary.by_key.get(&k) {
                let same: Vec<String> = list
                    .iter()
                    .filter(|w| is_bangla(w) == is_bangla(rest))
                    .cloned()
                    .collect();
                if !same.is_empty() {
                    return Some(same);
                }
            }
        }
        if typing && rest.len() >= 2 {
            let begun: Vec<String> = vocabulary
                .all
                .range(rest.to_string()..)
                .take_while(|w| w.starts_with(rest))
                .filter(|w| !w.chars().any(|c| c.is_numeric()))
                .take(10)
                .cloned()
                .collect();
            if !begun.is_empty() {
                return Some(begun);
            }
        }
        None
    }
    fn parts(
        vocabulary: &Vocabulary,
        rest: &str,
        left: usize,
        typing: bool,
    ) -> Option<Vec<Vec<String>>> {
        if left == 1 {
            return whole_or_begun(vocabulary, rest, typing).map(|p| vec![p]);
        }
        // Cut between characters, leaving two or more on each side.
        let cuts: Vec<usize> = rest.char_indices().map(|(i, _)| i).collect();
        for &cut in cuts.iter().skip(2).take(cuts.len().saturating_sub(3)).rev() {
            let head = &rest[..cut];
            if !vocabulary.has_letters_word(head) {
                continue;
            }
            if let Some(tail) = parts(vocabulary, &rest[cut..], left - 1, typing) {
                let mut all = vec![vec![head.to_string()]];
                all.extend(tail);
                return Some(all);
            }
        }
        None
    }
    (2..=MAX_PARTS).find_map(|n| parts(vocabulary, word, n, typing))
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
