//! Rate-limit cells: `RateCellRepo` on both backends. A burst of `limit` is counted and the
//! next refused with the wait until one more passes; subjects and buckets count apart;
//! concurrent takes never count more than the quota; time refills a bucket; the sweep drops
//! only cells that are full again.

use std::time::Duration;

use freehire_store::Store;
use freehire_store::rates::RateQuota;

const MINUTE_US: i64 = 60_000_000;

// scenario: A shared rate cell counts a burst and refuses the next
pub async fn a_burst_is_counted_and_the_next_refused(s: &dyn Store) {
    let quota = RateQuota::new(3, MINUTE_US);
    let mut left = Vec::new();
    for _ in 0..3 {
        let take = s.take_rate_cell("public_read", b"ip:1", quota).await.unwrap();
        assert!(take.counted, "{take:?}");
        left.push(take.remaining(quota));
    }
    assert_eq!(left, [2, 1, 0]);
    let refused = s.take_rate_cell("public_read", b"ip:1", quota).await.unwrap();
    assert!(!refused.counted, "{refused:?}");
    assert_eq!(refused.remaining(quota), 0);
    // One more drips out after about one interval (20 s), the bucket is full after a minute.
    let wait = refused.retry_after_us(quota);
    assert!((19_000_000..=20_000_000).contains(&wait), "{wait}");
    assert!((59_000_000..=MINUTE_US).contains(&refused.reset_us()), "{refused:?}");

    // Another subject, and the same subject in another bucket, count apart.
    assert!(s.take_rate_cell("public_read", b"ip:2", quota).await.unwrap().counted);
    let other = s.take_rate_cell("agent_search", b"ip:1", quota).await.unwrap();
    assert!(other.counted);
    assert_eq!(other.remaining(quota), 2);
}

// scenario: Concurrent takes never count past the quota
pub async fn concurrent_takes_never_pass_the_quota(s: &dyn Store) {
    let quota = RateQuota::new(10, MINUTE_US);
    let takes = (0..30).map(|_| s.take_rate_cell("public_read", b"key:busy", quota));
    let counted = futures::future::join_all(takes)
        .await
        .into_iter()
        .map(Result::unwrap)
        .filter(|take| take.counted)
        .count();
    assert_eq!(counted, 10);
}

pub async fn time_refills_and_the_sweep_drops_only_full_cells(s: &dyn Store) {
    // Two per 400 ms: one more every 200 ms.
    let quick = RateQuota::new(2, 400_000);
    assert!(s.take_rate_cell("login", b"a", quick).await.unwrap().counted);
    assert!(s.take_rate_cell("login", b"a", quick).await.unwrap().counted);
    assert!(!s.take_rate_cell("login", b"a", quick).await.unwrap().counted);
    tokio::time::sleep(Duration::from_millis(250)).await;
    assert!(s.take_rate_cell("login", b"a", quick).await.unwrap().counted, "one dripped out");

    // A long cell stays; the quick one is full again after its period and goes.
    let slow = RateQuota::new(5, MINUTE_US);
    assert!(s.take_rate_cell("login", b"b", slow).await.unwrap().counted);
    tokio::time::sleep(Duration::from_millis(450)).await;
    assert_eq!(s.sweep_rate_cells().await.unwrap(), 1);
    let again = s.take_rate_cell("login", b"b", slow).await.unwrap();
    assert_eq!(again.remaining(slow), 3, "the kept cell still counts");
    let fresh = s.take_rate_cell("login", b"a", quick).await.unwrap();
    assert_eq!(fresh.remaining(quick), 1, "a swept cell is a new subject");
}
