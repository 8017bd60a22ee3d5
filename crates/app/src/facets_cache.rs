//! The facets response cache (reference search-ingest §5.9: the reference keeps facet
//! responses in Redis; its TTL is our choice, 60 s): one entry per canonical query (the
//! text, the scoped fields, the selections, the scalar bounds, the distributions asked for
//! and `disjunctive`; ignored parameters and the page play no part), so a page of filter
//! panels opened by many people costs one count a minute. Each API process keeps its own:
//! every process answers within the same minute of staleness, which is what a shared cache
//! would give. Only answers are cached, never errors. The map is bounded: at
//! [`FacetsCache::CAPACITY`] entries, expired ones are dropped and, if none had expired, the
//! whole map is cleared (a burst of distinct queries costs a recount, never memory).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use freehire_search::{FacetCounts, FacetsRequest, SearchIndex};

use crate::AppError;

/// A process's facets cache; cloning shares it.
#[derive(Clone)]
pub struct FacetsCache {
    ttl: Duration,
    entries: Arc<Mutex<HashMap<String, (Instant, FacetCounts)>>>,
}

impl Default for FacetsCache {
    fn default() -> Self {
        Self::new(Self::TTL)
    }
}

impl std::fmt::Debug for FacetsCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FacetsCache").field("ttl", &self.ttl).field("entries", &self.len()).finish()
    }
}

impl FacetsCache {
    /// How long an answer is served again (§5.9, our choice).
    pub const TTL: Duration = Duration::from_secs(60);
    /// Entries kept at most.
    pub const CAPACITY: usize = 1024;

    /// A cache keeping answers for `ttl` (zero: nothing is kept).
    pub fn new(ttl: Duration) -> Self {
        Self { ttl, entries: Arc::new(Mutex::new(HashMap::new())) }
    }

    /// The counts of `request`: a cached answer younger than the TTL, else counted by
    /// [`crate::search::facets`] and kept.
    pub async fn facets(
        &self,
        index: &dyn SearchIndex,
        request: &FacetsRequest,
        now: DateTime<Utc>,
    ) -> Result<FacetCounts, AppError> {
        let key = canonical(request);
        if let Some(hit) = self.get(&key, Instant::now()) {
            metrics::counter!("freehire_facets_cache_total", "outcome" => "hit").increment(1);
            return Ok(hit);
        }
        metrics::counter!("freehire_facets_cache_total", "outcome" => "miss").increment(1);
        let counts = crate::search::facets(index, request, now).await?;
        self.put(key, counts.clone(), Instant::now());
        Ok(counts)
    }

    /// Entries held (expired ones included until the next insert drops them).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Instant, FacetCounts)>> {
        // A panic while holding the lock leaves a map that is still whole: keep using it.
        self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn get(&self, key: &str, at: Instant) -> Option<FacetCounts> {
        let entries = self.lock();
        let (stored, counts) = entries.get(key)?;
        (at.duration_since(*stored) < self.ttl).then(|| counts.clone())
    }

    fn put(&self, key: String, counts: FacetCounts, at: Instant) {
        if self.ttl.is_zero() {
            return;
        }
        let mut entries = self.lock();
        if entries.len() >= Self::CAPACITY && !entries.contains_key(&key) {
            entries.retain(|_, (stored, _)| at.duration_since(*stored) < self.ttl);
            if entries.len() >= Self::CAPACITY {
                entries.clear();
            }
        }
        entries.insert(key, (at, counts));
    }
}

/// The cache key of a request: what decides its counts, nothing else.
fn canonical(request: &FacetsRequest) -> String {
    let q = &request.query;
    format!(
        "{:?}|{:?}|{:?}|{:?}|{:?}|{}",
        q.q, q.q_fields, q.facets, q.scalars, request.facets, request.disjunctive
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(query: &str) -> FacetsRequest {
        let pairs: Vec<(String, String)> = query
            .split('&')
            .map(|kv| kv.split_once('=').unwrap_or((kv, "")))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        FacetsRequest::parse(&pairs).unwrap()
    }

    fn counts(total: u64) -> FacetCounts {
        FacetCounts { total, ..FacetCounts::default() }
    }

    #[test]
    fn the_key_is_what_decides_the_counts() {
        let key = |q| canonical(&request(q));
        assert_eq!(key("work_mode=remote&bogus=1"), key("work_mode=remote"));
        assert_eq!(key("work_mode=remote&limit=5"), key("work_mode=remote"));
        assert_ne!(key("work_mode=remote"), key("work_mode=hybrid"));
        assert_ne!(key("q=rust"), key("q=go"));
        assert_ne!(key("facets=skills"), key("facets=seniority"));
        assert_ne!(key("work_mode=remote&disjunctive=true"), key("work_mode=remote"));
    }

    #[test]
    fn an_answer_is_served_until_the_ttl_and_not_after() {
        let cache = FacetsCache::new(Duration::from_secs(60));
        let t0 = Instant::now();
        cache.put("a".into(), counts(3), t0);
        assert_eq!(cache.get("a", t0 + Duration::from_secs(59)), Some(counts(3)));
        assert_eq!(cache.get("a", t0 + Duration::from_secs(60)), None);
        assert_eq!(cache.get("b", t0), None);
        let off = FacetsCache::new(Duration::ZERO);
        off.put("a".into(), counts(3), t0);
        assert!(off.is_empty());
    }

    #[test]
    fn a_full_cache_drops_expired_entries_then_everything() {
        let cache = FacetsCache::new(Duration::from_secs(60));
        let t0 = Instant::now();
        for i in 0..FacetsCache::CAPACITY - 1 {
            cache.put(format!("old{i}"), counts(1), t0);
        }
        let later = t0 + Duration::from_secs(30);
        cache.put("fresh".into(), counts(2), later);
        assert_eq!(cache.len(), FacetsCache::CAPACITY);
        // Full: at +61 s the old ones have expired, the fresh one stays.
        let t1 = t0 + Duration::from_secs(61);
        cache.put("new".into(), counts(3), t1);
        assert_eq!(cache.len(), 2);
        assert_eq!(cache.get("fresh", t1), Some(counts(2)));
        // Full of live entries: cleared, then the new one kept.
        let live = FacetsCache::new(Duration::from_secs(60));
        for i in 0..FacetsCache::CAPACITY {
            live.put(format!("live{i}"), counts(1), t1);
        }
        assert_eq!(live.len(), FacetsCache::CAPACITY);
        live.put("last".into(), counts(4), t1);
        assert_eq!(live.len(), 1);
        assert_eq!(live.get("last", t1), Some(counts(4)));
    }
}
