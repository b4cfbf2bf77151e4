//! The in-memory cache storage: sharded, bounded in bytes, bodies kept as `Bytes`.
//!
//! Pingora's own `MemCache` is for tests (one global lock, a copy of the body on every hit,
//! a panic when an entry vanishes under `update_meta`). This one keeps each object as one
//! immutable [`Entry`] behind an `Arc` in one of many `RwLock`ed shards; a hit clones the
//! `Arc` and hands out the body `Bytes` without copying it.
//!
//! Writes are all-or-nothing: a miss handler buffers the body and only `finish` publishes
//! it, after checking it against `Content-Length`. A handler dropped mid-body (the origin
//! hung up, the client went away) publishes nothing, so readers never see a truncated object.
//!
//! The byte bound is enforced when an object is published: the storage admits it to the LRU
//! eviction manager itself and removes whatever the manager evicts before `finish` returns.
//! Pingora admits the same entry again afterwards, which is a no-op for an unchanged size.

use async_trait::async_trait;
use bytes::{Bytes, BytesMut};
use pingora::cache::eviction::{lru, CacheEntryKey, CacheEntryKeyRef, EvictionManager};
use pingora::cache::key::{CacheHashKey, CompactCacheKey, HashBinary};
use pingora::cache::storage::{
    HandleHit, HandleMiss, HitHandler, MissFinishType, MissHandler, PurgeOutcome, PurgeTarget,
    PurgeType,
};
use pingora::cache::trace::SpanHandle;
use pingora::cache::{CacheKey, CacheMeta, Storage};
use pingora::http::ResponseHeader;
use pingora::{Error, ErrorType, Result};
use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, OnceLock, RwLock};
use std::time::SystemTime;

/// Number of independently locked shards.
const SHARDS: usize = 64;
/// Fixed per-object bookkeeping counted against the byte bound.
const ENTRY_OVERHEAD: usize = 256;
/// Variants of one URL stored besides the one in its primary slot: a request header a
/// response varies on cannot flood the cache; beyond them, a new variant is not stored.
pub const MAX_VARIANTS: u16 = 16;

/// The LRU eviction manager the storage is paired with.
pub type Eviction = lru::Manager<16>;

/// The serialized header part of an empty response, used to rebuild a [`CacheMeta`] from
/// the stored internal meta without decompressing the stored header on every hit.
static EMPTY_HEADER: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let header = ResponseHeader::build(200, None).expect("a bare 200 header builds");
    let meta = CacheMeta::new(SystemTime::now(), SystemTime::now(), 0, 0, header);
    meta.serialize().expect("a bare header serializes").1
});

/// What a purge scan matches on.
#[derive(Debug, Clone, Copy)]
pub enum Selector<'a> {
    /// Every object.
    All,
    /// Objects of this URL id (path and normalised query).
    Url(&'a str),
    /// Objects carrying this surrogate key.
    Tag(&'a str),
}

/// One shard of the object map.
type Shard = RwLock<HashMap<HashBinary, Arc<Entry>>>;

/// One stored object.
struct Entry {
    /// Serialized internal meta (freshness, variance, timestamps).
    internal: Vec<u8>,
    /// The stored response header, kept parsed.
    header: ResponseHeader,
    /// The header as a fresh hit sends it before its per-request headers, prepared by the
    /// proxy on the first such hit (counted in the weight from the start).
    hit_header: OnceLock<ResponseHeader>,
    body: Bytes,
    /// Bytes counted against the bound.
    weight: usize,
    /// When the fill that produced this entry started (or it was last revalidated);
    /// purges issued after this time apply to it.
    stored_at: SystemTime,
    url: Box<str>,
    tags: Box<[Box<str>]>,
    key: CompactCacheKey,
    /// Freshness as the stored meta says, for [`MemoryStorage::fresh`].
    times: Times,
}

/// What a hit outside Pingora's cache phases needs from the stored meta.
#[derive(Debug, Clone, Copy)]
struct Times {
    /// Until when the object is fresh.
    fresh_until: SystemTime,
    /// What its age counts from (Pingora's `CacheMeta::epoch`).
    epoch: SystemTime,
    /// Whether the object is one variant of a `Vary` family (its meta has a variance).
    variant: bool,
}

impl Times {
    fn of(meta: &CacheMeta) -> Self {
        Self {
            fresh_until: meta.fresh_until(),
            epoch: meta.epoch(),
            variant: meta.variance().is_some(),
        }
    }
}

impl Entry {
    fn matches(&self, selector: Selector<'_>) -> bool {
        match selector {
            Selector::All => true,
            Selector::Url(url) => &*self.url == url,
            Selector::Tag(tag) => self.tags.iter().any(|t| &**t == tag),
        }
    }
}

/// The storage. Create it once and leak it: Pingora wants `&'static` storage.
pub struct MemoryStorage {
    shards: Box<[Shard]>,
    eviction: &'static Eviction,
    max_object_bytes: usize,
    bytes: AtomicUsize,
    items: AtomicUsize,
    aborted_writes: AtomicU64,
    /// Variants stored per primary key (objects with a variance only; rare, so one lock).
    variants: std::sync::Mutex<HashMap<HashBinary, u16>>,
}

/// Internal response headers the proxy adds to stored metas and strips from responses.
pub const URL_HEADER: &str = "x-edge-url";

impl MemoryStorage {
    /// A storage whose objects are at most `max_object_bytes`, bounded by `eviction`'s limit.
    pub fn new(eviction: &'static Eviction, max_object_bytes: usize) -> Self {
        let shards = (0..SHARDS).map(|_| RwLock::new(HashMap::new())).collect();
        Self {
            shards,
            eviction,
            max_object_bytes,
            bytes: AtomicUsize::new(0),
            items: AtomicUsize::new(0),
            aborted_writes: AtomicU64::new(0),
            variants: std::sync::Mutex::new(HashMap::new()),
        }
    }

    /// Bytes currently stored (bodies, headers and bookkeeping).
    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Objects currently stored.
    pub fn items(&self) -> usize {
        self.items.load(Ordering::Relaxed)
    }

    /// Fills that were abandoned mid-body or refused for size.
    pub fn aborted_writes(&self) -> u64 {
        self.aborted_writes.load(Ordering::Relaxed)
    }

    /// Objects evicted for space so far.
    pub fn evicted_items(&self) -> usize {
        self.eviction.evicted_items()
    }

    fn shard(&self, hash: &HashBinary) -> &Shard {
        &self.shards[usize::from(hash[0]) % SHARDS]
    }

    /// Count a variant stored (`1`) or removed (`-1`) under its primary key.
    fn count_variant(&self, key: &CompactCacheKey, delta: i32) {
        if key.variance.is_none() {
            return;
        }
        let mut variants = self.variants.lock().expect("variant counts lock poisoned");
        let count = variants.entry(key.primary).or_insert(0);
        *count = count.saturating_add_signed(delta as i16);
        if *count == 0 {
            variants.remove(&key.primary);
        }
    }

    /// Whether a new variant of `key`'s primary key may be stored ([`MAX_VARIANTS`]).
    fn variant_room(&self, key: &CacheKey) -> bool {
        let hash = key.combined_bin();
        if key.variance_bin().is_none()
            || self
                .shard(&hash)
                .read()
                .expect("cache shard lock poisoned")
                .contains_key(&hash)
        {
            return true;
        }
        let variants = self.variants.lock().expect("variant counts lock poisoned");
        variants.get(&key.primary_bin()).copied().unwrap_or(0) < MAX_VARIANTS
    }

    fn insert(&self, hash: HashBinary, entry: Arc<Entry>) {
        let weight = entry.weight;
        let key = entry.key.clone();
        let old = self
            .shard(&hash)
            .write()
            .expect("cache shard lock poisoned")
            .insert(hash, entry);
        self.bytes.fetch_add(weight, Ordering::Relaxed);
        match old {
            Some(old) => {
                self.bytes.fetch_sub(old.weight, Ordering::Relaxed);
            }
            None => {
                self.items.fetch_add(1, Ordering::Relaxed);
                self.count_variant(&key, 1);
            }
        }
    }

    fn remove(&self, hash: &HashBinary) -> Option<Arc<Entry>> {
        let removed = self
            .shard(hash)
            .write()
            .expect("cache shard lock poisoned")
            .remove(hash);
        if let Some(entry) = &removed {
            self.bytes.fetch_sub(entry.weight, Ordering::Relaxed);
            self.items.fetch_sub(1, Ordering::Relaxed);
            self.count_variant(&entry.key, -1);
        }
        removed
    }

    /// Remove every object the selector matches; returns how many.
    pub fn remove_matching(&self, selector: Selector<'_>) -> usize {
        let mut removed = 0;
        for shard in self.shards.iter() {
            let mut map = shard.write().expect("cache shard lock poisoned");
            map.retain(|_, entry| {
                if entry.matches(selector) {
                    self.bytes.fetch_sub(entry.weight, Ordering::Relaxed);
                    self.items.fetch_sub(1, Ordering::Relaxed);
                    self.count_variant(&entry.key, -1);
                    self.eviction
                        .remove(CacheEntryKeyRef::from_entry_id(&entry.key, None));
                    removed += 1;
                    false
                } else {
                    true
                }
            });
        }
        removed
    }

    /// Remove the object in `key`'s primary slot, if any; returns whether there was one.
    /// That invalidates every variant of a `Vary` family too: Pingora only looks for a
    /// variant after finding the primary slot, and takes no variant older than it.
    /// Two map operations, no scan.
    pub fn invalidate(&self, key: &CacheKey) -> bool {
        let Some(entry) = self.remove(&key.primary_bin()) else {
            return false;
        };
        self.eviction
            .remove(CacheEntryKeyRef::from_entry_id(&entry.key, None));
        true
    }

    /// Count the objects the selector matches (a soft purge leaves them stored).
    pub fn count_matching(&self, selector: Selector<'_>) -> usize {
        self.shards
            .iter()
            .map(|shard| {
                shard
                    .read()
                    .expect("cache shard lock poisoned")
                    .values()
                    .filter(|e| e.matches(selector))
                    .count()
            })
            .sum()
    }

    /// When the object under `key` was stored (or last revalidated), if there is one.
    pub fn stored_at(&self, key: &CacheKey) -> Option<SystemTime> {
        self.get(key).map(|entry| entry.stored_at)
    }

    /// Store a whole object under `key` at once (a staged successor, `crate::staged`),
    /// replacing what is there: the meta's header carries the URL ([`URL_HEADER`]) as a
    /// fill's does, and the body is complete. Admitted to the eviction manager as a fill.
    pub fn put(&self, key: &CacheKey, meta: &CacheMeta, body: Bytes) -> Result<()> {
        if body.len() > self.max_object_bytes {
            return Error::e_explain(ErrorType::InternalError, "object above the maximum size");
        }
        let (internal, _) = meta.serialize()?;
        let mut header = meta.response_header_copy();
        let url = header
            .remove_header(URL_HEADER)
            .and_then(|v| v.to_str().ok().map(Box::from))
            .unwrap_or_default();
        let times = Times::of(meta);
        let key = key.to_compact();
        let weight = entry_weight(body.len(), &header, internal.len());
        let entry = Entry {
            internal,
            tags: surrogate_keys(&header),
            header,
            hit_header: OnceLock::new(),
            body,
            weight,
            stored_at: SystemTime::now(),
            url,
            key: key.clone(),
            times,
        };
        self.insert(key.combined_bin(), Arc::new(entry));
        let evicted = self.eviction.admit(
            CacheEntryKey::from_entry_id(key, None),
            weight,
            times.fresh_until,
        );
        for item in evicted {
            self.remove(&item.key().combined_bin());
        }
        Ok(())
    }

    /// Remove every object of the URL ids in `before` stored before the time given for its
    /// URL (every host, coding and variant); returns how many. One scan for them all, as a
    /// purge's.
    pub fn remove_stored_before(&self, before: &HashMap<String, SystemTime>) -> usize {
        if before.is_empty() {
            return 0;
        }
        let mut removed = 0;
        for shard in self.shards.iter() {
            let mut map = shard.write().expect("cache shard lock poisoned");
            map.retain(|_, entry| {
                if before
                    .get(&*entry.url)
                    .is_some_and(|&before| entry.stored_at < before)
                {
                    self.bytes.fetch_sub(entry.weight, Ordering::Relaxed);
                    self.items.fetch_sub(1, Ordering::Relaxed);
                    self.count_variant(&entry.key, -1);
                    self.eviction
                        .remove(CacheEntryKeyRef::from_entry_id(&entry.key, None));
                    removed += 1;
                    false
                } else {
                    true
                }
            });
        }
        removed
    }

    /// The stored entry under `key`, if any.
    fn get(&self, key: &CacheKey) -> Option<Arc<Entry>> {
        let hash = key.combined_bin();
        self.shard(&hash)
            .read()
            .expect("cache shard lock poisoned")
            .get(&hash)
            .cloned()
    }

    /// The object under `key` if it can be served as it is: fresh at `now`, and not one
    /// variant of a `Vary` family (Pingora's variance lookup decides those). Purge rules
    /// are the caller's to check, and [`Self::count_access`] tells the eviction manager.
    pub fn fresh(&self, key: &CacheKey, now: SystemTime) -> Option<MemoryHit> {
        let entry = self.get(key)?;
        let times = entry.times;
        (times.fresh_until >= now && !times.variant).then(|| MemoryHit::new(entry))
    }

    /// Count a hit served from [`Self::fresh`] in the eviction order, as Pingora does for
    /// the hits it serves.
    pub fn count_access(&self, hit: &MemoryHit) {
        let entry = &hit.entry;
        let key = CacheEntryKey::from_entry_id(entry.key.clone(), None);
        self.eviction
            .access(&key, entry.weight, entry.times.fresh_until);
    }
}

/// Bytes an object counts against the bound: its body, its header twice (as stored and as
/// a fresh hit sends it), its internal meta and fixed bookkeeping.
fn entry_weight(body: usize, header: &ResponseHeader, internal: usize) -> usize {
    body + 2 * header_weight(header) + internal + ENTRY_OVERHEAD
}

fn header_weight(header: &ResponseHeader) -> usize {
    header
        .headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum::<usize>()
        + 32
}

/// Split a `Surrogate-Key` header into tags.
pub fn surrogate_keys(header: &ResponseHeader) -> Box<[Box<str>]> {
    header
        .headers
        .get_all("surrogate-key")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split_ascii_whitespace())
        .map(Box::from)
        .collect()
}

#[async_trait]
impl Storage for MemoryStorage {
    async fn lookup(
        &'static self,
        key: &CacheKey,
        _trace: &SpanHandle,
    ) -> Result<Option<(CacheMeta, HitHandler)>> {
        let Some(entry) = self.get(key) else {
            return Ok(None);
        };
        let mut meta = CacheMeta::deserialize(&entry.internal, &EMPTY_HEADER)?;
        *meta.response_header_mut() = entry.header.clone();
        Ok(Some((meta, Box::new(MemoryHit::new(entry)))))
    }

    async fn get_miss_handler(
        &'static self,
        key: &CacheKey,
        meta: &CacheMeta,
        _trace: &SpanHandle,
    ) -> Result<MissHandler> {
        let (internal, _) = meta.serialize()?;
        let mut header = meta.response_header_copy();
        let expected_len = header
            .headers
            .get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        if expected_len.is_some_and(|len| len > self.max_object_bytes) {
            return Error::e_explain(ErrorType::InternalError, "object above the maximum size");
        }
        if !self.variant_room(key) {
            return Error::e_explain(ErrorType::InternalError, "too many variants of one URL");
        }
        // The URL travels in the header only to get here: every hit would copy it.
        let url = header
            .remove_header(URL_HEADER)
            .and_then(|v| v.to_str().ok().map(Box::from))
            .unwrap_or_default();
        Ok(Box::new(MemoryMiss {
            storage: self,
            times: Times::of(meta),
            hash: key.combined_bin(),
            key: key.to_compact(),
            tags: surrogate_keys(&header),
            url,
            internal,
            header,
            body: BytesMut::with_capacity(expected_len.unwrap_or(0)),
            expected_len,
            stored_at: SystemTime::now(),
            failed: false,
            unpublished: Unpublished(Some(self)),
        }))
    }

    async fn purge(
        &'static self,
        target: PurgeTarget<'_>,
        purge_type: PurgeType,
        _trace: &SpanHandle,
    ) -> Result<PurgeOutcome> {
        let hash = target.key().combined_bin();
        match self.remove(&hash) {
            Some(entry) => {
                if matches!(purge_type, PurgeType::Invalidation) {
                    self.eviction
                        .remove(CacheEntryKeyRef::from_entry_id(&entry.key, None));
                }
                Ok(PurgeOutcome::Purged(None))
            }
            None => Ok(PurgeOutcome::NotFound),
        }
    }

    async fn update_meta(
        &'static self,
        key: &CacheKey,
        meta: &CacheMeta,
        _trace: &SpanHandle,
    ) -> Result<bool> {
        let hash = key.combined_bin();
        let (internal, _) = meta.serialize()?;
        let shard = self.shard(&hash);
        let mut map = shard.write().expect("cache shard lock poisoned");
        let Some(old) = map.get(&hash) else {
            // The entry was evicted or purged while it was being revalidated.
            return Ok(false);
        };
        let mut header = meta.response_header_copy();
        header.remove_header(URL_HEADER);
        let weight = entry_weight(old.body.len(), &header, internal.len());
        let entry = Entry {
            internal,
            tags: surrogate_keys(&header),
            header,
            hit_header: OnceLock::new(),
            body: old.body.clone(),
            weight,
            stored_at: SystemTime::now(),
            url: old.url.clone(),
            key: old.key.clone(),
            times: Times::of(meta),
        };
        let old_weight = old.weight;
        map.insert(hash, Arc::new(entry));
        drop(map);
        self.bytes.fetch_add(weight, Ordering::Relaxed);
        self.bytes.fetch_sub(old_weight, Ordering::Relaxed);
        Ok(true)
    }

    fn as_any(&self) -> &(dyn Any + Send + Sync + 'static) {
        self
    }
}

/// Reads one stored object.
pub struct MemoryHit {
    entry: Arc<Entry>,
    range: (usize, usize),
    done: bool,
}

impl MemoryHit {
    fn new(entry: Arc<Entry>) -> Self {
        let len = entry.body.len();
        Self {
            entry,
            range: (0, len),
            done: false,
        }
    }

    /// When the object was stored or last revalidated.
    pub fn stored_at(&self) -> SystemTime {
        self.entry.stored_at
    }

    /// The object's URL id.
    pub fn url(&self) -> &str {
        &self.entry.url
    }

    /// The object's surrogate keys.
    pub fn tags(&self) -> &[Box<str>] {
        &self.entry.tags
    }

    /// The stored response header (internal headers included).
    pub fn header(&self) -> &ResponseHeader {
        &self.entry.header
    }

    /// The header a fresh hit sends, once [`Self::set_hit_header`] has prepared it.
    pub fn hit_header(&self) -> Option<&ResponseHeader> {
        self.entry.hit_header.get()
    }

    /// Keep the header a fresh hit sends (before its per-request headers) for the next hits
    /// of this object. The first one prepared wins.
    pub fn set_hit_header(&self, header: ResponseHeader) {
        let _ = self.entry.hit_header.set(header);
    }

    /// The whole body, without a copy.
    pub fn body(&self) -> Bytes {
        self.entry.body.clone()
    }

    /// Until when the object is fresh.
    pub fn fresh_until(&self) -> SystemTime {
        self.entry.times.fresh_until
    }

    /// Its age at `now` in whole seconds, as Pingora computes it for the `Age` of a hit.
    pub fn age(&self, now: SystemTime) -> u64 {
        now.duration_since(self.entry.times.epoch)
            .unwrap_or_default()
            .as_secs()
    }
}

#[async_trait]
impl HandleHit for MemoryHit {
    async fn read_body(&mut self) -> Result<Option<Bytes>> {
        if self.done {
            return Ok(None);
        }
        self.done = true;
        let (start, end) = self.range;
        Ok(Some(self.entry.body.slice(start..end)))
    }

    async fn finish(
        self: Box<Self>,
        _storage: &'static (dyn Storage + Sync),
        _key: &CacheKey,
        _trace: &SpanHandle,
    ) -> Result<()> {
        Ok(())
    }

    fn can_seek(&self) -> bool {
        true
    }

    fn seek(&mut self, start: usize, end: Option<usize>) -> Result<()> {
        let len = self.entry.body.len();
        if start >= len {
            return Error::e_explain(ErrorType::InternalError, "seek start out of range");
        }
        self.range = (start, end.map_or(len, |end| end.min(len)));
        self.done = false;
        Ok(())
    }

    fn get_eviction_weight(&self) -> usize {
        self.entry.weight
    }

    fn as_any(&self) -> &(dyn Any + Send + Sync) {
        self
    }

    fn as_any_mut(&mut self) -> &mut (dyn Any + Send + Sync) {
        self
    }
}

/// Counts a fill as aborted when it is dropped unpublished: Pingora drops the
/// miss handler without calling `finish` when the origin or the client goes
/// away mid-body, and `finish` refuses bodies that failed or miss their length.
struct Unpublished(Option<&'static MemoryStorage>);

impl Drop for Unpublished {
    fn drop(&mut self) {
        if let Some(storage) = self.0 {
            storage.aborted_writes.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Buffers one fill; publishes it only from `finish`.
struct MemoryMiss {
    storage: &'static MemoryStorage,
    times: Times,
    hash: HashBinary,
    key: CompactCacheKey,
    tags: Box<[Box<str>]>,
    url: Box<str>,
    internal: Vec<u8>,
    header: ResponseHeader,
    body: BytesMut,
    expected_len: Option<usize>,
    stored_at: SystemTime,
    failed: bool,
    /// Disarmed only when the object is published.
    unpublished: Unpublished,
}

#[async_trait]
impl HandleMiss for MemoryMiss {
    async fn write_body(&mut self, data: Bytes, _eof: bool) -> Result<()> {
        if self.body.len() + data.len() > self.storage.max_object_bytes {
            self.failed = true;
            return Error::e_explain(ErrorType::InternalError, "object above the maximum size");
        }
        self.body.extend_from_slice(&data);
        Ok(())
    }

    async fn finish(self: Box<Self>) -> Result<MissFinishType> {
        let mut this = *self;
        if this.failed {
            return Error::e_explain(ErrorType::InternalError, "fill failed, not stored");
        }
        if this.expected_len.is_some_and(|len| len != this.body.len()) {
            return Error::e_explain(
                ErrorType::InternalError,
                "body shorter or longer than Content-Length, not stored",
            );
        }
        this.unpublished.0 = None;
        let body = this.body.freeze();
        let weight = entry_weight(body.len(), &this.header, this.internal.len());
        let entry = Entry {
            internal: this.internal,
            header: this.header,
            hit_header: OnceLock::new(),
            body,
            weight,
            stored_at: this.stored_at,
            url: this.url,
            tags: this.tags,
            key: this.key.clone(),
            times: this.times,
        };
        this.storage.insert(this.hash, Arc::new(entry));
        let evicted = this.storage.eviction.admit(
            CacheEntryKey::from_entry_id(this.key, None),
            weight,
            this.times.fresh_until,
        );
        for item in evicted {
            this.storage.remove(&item.key().combined_bin());
        }
        Ok(MissFinishType::Created(weight))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pingora::cache::trace::Span;

    fn leaked(limit: usize, max_object: usize) -> &'static MemoryStorage {
        let eviction: &'static Eviction = Box::leak(Box::new(Eviction::with_capacity(limit, 64)));
        Box::leak(Box::new(MemoryStorage::new(eviction, max_object)))
    }

    fn meta(body_len: Option<usize>, tags: &str, url: &str) -> CacheMeta {
        let mut header = ResponseHeader::build(200, None).unwrap();
        if let Some(len) = body_len {
            header.insert_header("content-length", len).unwrap();
        }
        header.insert_header("surrogate-key", tags).unwrap();
        header.insert_header(URL_HEADER, url).unwrap();
        let now = SystemTime::now();
        CacheMeta::new(now + std::time::Duration::from_secs(60), now, 0, 0, header)
    }

    async fn fill(storage: &'static MemoryStorage, key: &CacheKey, body: &[u8], tags: &str) {
        let span = Span::inactive().handle();
        let mut miss = storage
            .get_miss_handler(key, &meta(Some(body.len()), tags, "/x"), &span)
            .await
            .unwrap();
        miss.write_body(Bytes::copy_from_slice(body), true)
            .await
            .unwrap();
        miss.finish().await.unwrap();
    }

    #[tokio::test]
    async fn write_then_read_without_copy() {
        let storage = leaked(1 << 20, 1 << 16);
        let key = CacheKey::new("a", "");
        fill(storage, &key, b"hello", "home").await;
        let span = Span::inactive().handle();
        let (meta, mut hit) = storage.lookup(&key, &span).await.unwrap().unwrap();
        assert_eq!(meta.headers().get("surrogate-key").unwrap(), "home");
        // The URL is kept beside the object, not in the header every hit copies.
        assert!(meta.headers().get(URL_HEADER).is_none());
        let entry = hit.as_any().downcast_ref::<MemoryHit>().unwrap();
        assert_eq!(entry.url(), "/x");
        assert_eq!(storage.count_matching(Selector::Url("/x")), 1);
        assert_eq!(hit.read_body().await.unwrap().unwrap(), "hello");
        assert!(hit.read_body().await.unwrap().is_none());
        assert_eq!(storage.items(), 1);
        assert_eq!(storage.aborted_writes(), 0);
    }

    #[tokio::test]
    async fn a_writer_dropped_mid_body_leaves_nothing() {
        let storage = leaked(1 << 20, 1 << 16);
        let key = CacheKey::new("b", "");
        let span = Span::inactive().handle();
        let mut miss = storage
            .get_miss_handler(&key, &meta(Some(10), "", "/b"), &span)
            .await
            .unwrap();
        miss.write_body(Bytes::from_static(b"half"), false)
            .await
            .unwrap();
        drop(miss);
        assert!(storage.lookup(&key, &span).await.unwrap().is_none());
        assert_eq!(storage.bytes(), 0);
        assert_eq!(storage.aborted_writes(), 1);
    }

    #[tokio::test]
    async fn a_short_body_is_refused_at_finish() {
        let storage = leaked(1 << 20, 1 << 16);
        let key = CacheKey::new("c", "");
        let span = Span::inactive().handle();
        let mut miss = storage
            .get_miss_handler(&key, &meta(Some(10), "", "/c"), &span)
            .await
            .unwrap();
        miss.write_body(Bytes::from_static(b"half"), true)
            .await
            .unwrap();
        assert!(miss.finish().await.is_err());
        assert!(storage.lookup(&key, &span).await.unwrap().is_none());
        assert_eq!(storage.aborted_writes(), 1);
    }

    #[tokio::test]
    async fn objects_above_the_maximum_are_refused() {
        let storage = leaked(1 << 20, 8);
        let key = CacheKey::new("d", "");
        let span = Span::inactive().handle();
        assert!(storage
            .get_miss_handler(&key, &meta(Some(100), "", "/d"), &span)
            .await
            .is_err());
        let mut miss = storage
            .get_miss_handler(&key, &meta(None, "", "/d"), &span)
            .await
            .unwrap();
        assert!(miss
            .write_body(Bytes::from(vec![0; 100]), true)
            .await
            .is_err());
        assert!(miss.finish().await.is_err());
        assert_eq!(storage.items(), 0);
        assert_eq!(storage.aborted_writes(), 1);
    }

    #[tokio::test]
    async fn the_byte_bound_holds_under_overfill() {
        let limit = 64 * 1024;
        let storage = leaked(limit, 8 * 1024);
        for i in 0..200 {
            let key = CacheKey::new(format!("k{i}"), "");
            fill(storage, &key, &[7u8; 4000], "").await;
            assert!(storage.bytes() <= limit, "{} > {limit}", storage.bytes());
        }
        assert!(storage.items() > 5);
        assert!(storage.evicted_items() > 100);
    }

    #[tokio::test]
    async fn remove_matching_by_tag() {
        let storage = leaked(1 << 20, 1 << 16);
        fill(storage, &CacheKey::new("p1", ""), b"1", "product:1 home").await;
        fill(storage, &CacheKey::new("p2", ""), b"2", "product:2 home").await;
        assert_eq!(storage.count_matching(Selector::Tag("home")), 2);
        assert_eq!(storage.remove_matching(Selector::Tag("product:1")), 1);
        assert_eq!(storage.items(), 1);
        assert_eq!(storage.remove_matching(Selector::All), 1);
        assert_eq!(storage.bytes(), 0);
    }
}
