//! Purges: by URL, by surrogate key (tag) and everything; soft or hard.
//!
//! Every purge is recorded as a rule "objects of this URL/tag stored before time T are
//! purged". `cache_hit_filter` asks [`PurgeRules::verdict`] about each hit: a hard purge
//! forces a miss, a soft one marks the object stale so it revalidates (serving stale while
//! it does, within its windows). Hard purges also free the memory at once. Recording a rule
//! rather than only deleting closes the race with a fill that started before the purge and
//! lands after it.
//!
//! Every edge keeps a numbered log of the purges it received from operators and pushes it
//! to its peers, retrying until each peer has taken it: a peer that was down catches up when
//! it is back.

use crate::cache::key::url_id;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Rules older than this are dropped: anything stored before then is past every stale
/// window, and a revalidation answered 304 is then the origin's word that it is current.
const RULE_HORIZON: Duration = Duration::from_secs(3 * 86_400);
/// Purges kept in the log for peers and the dashboard.
const LOG_CAPACITY: usize = 10_000;

/// Soft marks stale (revalidate, serve stale meanwhile); hard deletes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Mark stale and revalidate.
    Soft,
    /// Delete: the next request is a miss.
    #[default]
    Hard,
}

impl Mode {
    /// Metric label.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Soft => "soft",
            Self::Hard => "hard",
        }
    }
}

/// The body of `POST /purge` (and what peers send each other).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct PurgeRequest {
    /// URLs, absolute or path-only; query normalised like the cache key.
    #[serde(default)]
    pub urls: Vec<String>,
    /// Surrogate keys.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Everything.
    #[serde(default)]
    pub all: bool,
    /// Soft (`true`) or hard (default).
    #[serde(default)]
    pub soft: bool,
    /// A unique id, set by the first edge; peers use it to apply a purge once.
    #[serde(default)]
    pub id: Option<String>,
    /// Unix milliseconds when the first edge received it: objects stored before are purged.
    #[serde(default)]
    pub at_ms: Option<u64>,
}

impl PurgeRequest {
    /// Soft or hard.
    pub fn mode(&self) -> Mode {
        if self.soft {
            Mode::Soft
        } else {
            Mode::Hard
        }
    }

    /// Whether it names anything.
    pub fn is_empty(&self) -> bool {
        !self.all && self.urls.is_empty() && self.tags.is_empty()
    }

    /// The kind label for metrics: all, tag or url.
    pub fn kind(&self) -> &'static str {
        if self.all {
            "all"
        } else if !self.tags.is_empty() {
            "tag"
        } else {
            "url"
        }
    }
}

/// A purge as the log keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PurgeRecord {
    /// Position in this edge's log.
    pub seq: u64,
    /// The request, with `id` and `at_ms` filled in.
    pub request: PurgeRequest,
    /// `operator` or `peer`.
    pub source: String,
    /// Objects removed or marked at once.
    pub matched: usize,
}

/// Turn a purge URL (absolute or a path) into the URL id the cache uses.
pub fn purge_url_id(url: &str) -> String {
    let without_scheme = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let path_and_query = match without_scheme {
        Some(rest) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => url,
    };
    let path_and_query = path_and_query.split('#').next().unwrap_or("/");
    match path_and_query.split_once('?') {
        Some((path, query)) => url_id(path, Some(query)),
        None => url_id(path_and_query, None),
    }
}

/// Unix milliseconds.
pub fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Time from unix milliseconds.
pub fn from_unix_ms(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

#[derive(Default)]
struct Rules {
    all: Option<(SystemTime, Mode)>,
    urls: HashMap<String, (SystemTime, Mode)>,
    tags: HashMap<String, (SystemTime, Mode)>,
}

#[derive(Default)]
struct Log {
    next_seq: u64,
    records: VecDeque<PurgeRecord>,
    seen: HashSet<String>,
}

/// The purge rules and the log, shared by the proxy and the admin listener.
#[derive(Default)]
pub struct PurgeRules {
    rules: std::sync::RwLock<Rules>,
    log: Mutex<Log>,
}

impl PurgeRules {
    /// An empty rule set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Record a purge's rules. Returns `false` if this purge id was already applied.
    pub fn record(&self, request: &PurgeRequest, at: SystemTime) -> bool {
        if let Some(id) = &request.id {
            let log = self.log.lock().expect("purge log lock poisoned");
            if log.seen.contains(id) {
                return false;
            }
        }
        let mode = request.mode();
        let mut rules = self.rules.write().expect("purge rules lock poisoned");
        let merge = |slot: &mut (SystemTime, Mode)| {
            if at > slot.0 {
                *slot = (at, mode);
            } else if at == slot.0 && mode == Mode::Hard {
                slot.1 = Mode::Hard;
            }
        };
        if request.all {
            let slot = rules.all.get_or_insert((at, mode));
            merge(slot);
        }
        for url in &request.urls {
            merge(rules.urls.entry(purge_url_id(url)).or_insert((at, mode)));
        }
        for tag in &request.tags {
            merge(rules.tags.entry(tag.clone()).or_insert((at, mode)));
        }
        let horizon = SystemTime::now()
            .checked_sub(RULE_HORIZON)
            .unwrap_or(SystemTime::UNIX_EPOCH);
        if rules.urls.len() + rules.tags.len() > 100_000 {
            rules.urls.retain(|_, (t, _)| *t > horizon);
            rules.tags.retain(|_, (t, _)| *t > horizon);
        }
        true
    }

    /// Whether an object stored at `stored_at` with this URL id and tags is purged, and how.
    pub fn verdict(
        &self,
        stored_at: SystemTime,
        url: &str,
        tags: &[Box<str>],
    ) -> Option<(Mode, SystemTime)> {
        let rules = self.rules.read().expect("purge rules lock poisoned");
        let mut verdict: Option<(Mode, SystemTime)> = None;
        let mut consider = |rule: Option<&(SystemTime, Mode)>| {
            if let Some(&(at, mode)) = rule {
                if at > stored_at {
                    verdict = match verdict {
                        Some((Mode::Hard, t)) => Some((Mode::Hard, t)),
                        Some((Mode::Soft, t)) if mode == Mode::Soft => {
                            Some((Mode::Soft, t.min(at)))
                        }
                        _ => Some((mode, at)),
                    };
                }
            }
        };
        consider(rules.all.as_ref());
        consider(rules.urls.get(url));
        for tag in tags {
            consider(rules.tags.get(&**tag));
        }
        verdict
    }

    /// Append to the log; returns the record's sequence number.
    pub fn append(&self, request: PurgeRequest, source: &str, matched: usize) -> u64 {
        let mut log = self.log.lock().expect("purge log lock poisoned");
        let seq = log.next_seq;
        log.next_seq += 1;
        if let Some(id) = &request.id {
            log.seen.insert(id.clone());
        }
        log.records.push_back(PurgeRecord {
            seq,
            request,
            source: source.to_string(),
            matched,
        });
        while log.records.len() > LOG_CAPACITY {
            if let Some(old) = log.records.pop_front() {
                if let Some(id) = old.request.id {
                    log.seen.remove(&id);
                }
            }
        }
        seq
    }

    /// Records with `seq >= from`, oldest first, at most `limit`.
    pub fn since(&self, from: u64, limit: usize) -> Vec<PurgeRecord> {
        let log = self.log.lock().expect("purge log lock poisoned");
        log.records
            .iter()
            .filter(|r| r.seq >= from)
            .take(limit)
            .cloned()
            .collect()
    }

    /// The most recent records, newest first.
    pub fn recent(&self, n: usize) -> Vec<PurgeRecord> {
        let log = self.log.lock().expect("purge log lock poisoned");
        log.records.iter().rev().take(n).cloned().collect()
    }

    /// The sequence number the next record will get.
    pub fn next_seq(&self) -> u64 {
        self.log.lock().expect("purge log lock poisoned").next_seq
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: u64) -> SystemTime {
        SystemTime::now() - Duration::from_secs(1000) + Duration::from_secs(s)
    }

    fn tags(list: &[&str]) -> Vec<Box<str>> {
        list.iter().map(|s| Box::from(*s)).collect()
    }

    #[test]
    fn purge_urls_normalise_like_the_cache_key() {
        assert_eq!(purge_url_id("https://shop.test/p/1?utm_source=x"), "/p/1");
        assert_eq!(
            purge_url_id("/c/products?page=2&keyword=a"),
            "/c/products?keyword=a&page=2"
        );
        assert_eq!(purge_url_id("http://shop.test"), "/");
    }

    #[test]
    fn only_objects_stored_before_the_purge_match() {
        let rules = PurgeRules::new();
        let req = PurgeRequest {
            tags: vec!["product:1".into()],
            ..Default::default()
        };
        rules.record(&req, t(10));
        assert_eq!(
            rules
                .verdict(t(5), "/p/1", &tags(&["product:1"]))
                .map(|v| v.0),
            Some(Mode::Hard)
        );
        assert_eq!(rules.verdict(t(11), "/p/1", &tags(&["product:1"])), None);
        assert_eq!(rules.verdict(t(5), "/p/1", &tags(&["product:2"])), None);
    }

    #[test]
    fn hard_wins_over_soft_and_all_matches_everything() {
        let rules = PurgeRules::new();
        rules.record(
            &PurgeRequest {
                urls: vec!["/p/1".into()],
                soft: true,
                ..Default::default()
            },
            t(10),
        );
        assert_eq!(
            rules.verdict(t(5), "/p/1", &[]).map(|v| v.0),
            Some(Mode::Soft)
        );
        rules.record(
            &PurgeRequest {
                all: true,
                ..Default::default()
            },
            t(20),
        );
        assert_eq!(
            rules.verdict(t(5), "/p/1", &[]).map(|v| v.0),
            Some(Mode::Hard)
        );
        assert_eq!(
            rules.verdict(t(15), "/other", &[]).map(|v| v.0),
            Some(Mode::Hard)
        );
        assert_eq!(rules.verdict(t(25), "/other", &[]), None);
    }

    #[test]
    fn a_purge_id_applies_once() {
        let rules = PurgeRules::new();
        let req = PurgeRequest {
            all: true,
            id: Some("abc".into()),
            ..Default::default()
        };
        assert!(rules.record(&req, t(1)));
        rules.append(req.clone(), "peer", 0);
        assert!(!rules.record(&req, t(2)));
        assert_eq!(rules.since(0, 10).len(), 1);
        assert_eq!(rules.next_seq(), 1);
    }
}
