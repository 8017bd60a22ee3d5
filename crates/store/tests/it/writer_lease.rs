//! The embedded index's writer lease: exactly one process drains into the embedded index.

use chrono::Duration;
use freehire_store::Store;

use crate::fixtures::t;

// scenario: One writer of the embedded index
pub async fn one_holder_at_a_time_and_an_expired_lease_changes_hands(s: &dyn Store) {
    let expiry = Duration::seconds(90);
    let at = |secs: i64| t(3, 0) + Duration::seconds(secs);
    assert!(s.hold_writer_lease("w1", expiry, at(0)).await.unwrap(), "a free lease is taken");
    assert!(!s.hold_writer_lease("w2", expiry, at(1)).await.unwrap(), "held by w1");
    assert!(s.hold_writer_lease("w1", expiry, at(60)).await.unwrap(), "the holder renews");
    assert!(!s.hold_writer_lease("w2", expiry, at(120)).await.unwrap(), "renewed at 60 s");
    // w1 stops renewing (killed): past the expiry w2 takes the lease over, and w1's late
    // renewal fails, so it closes its writer.
    assert!(s.hold_writer_lease("w2", expiry, at(151)).await.unwrap());
    assert!(!s.hold_writer_lease("w1", expiry, at(152)).await.unwrap());
    // A clean shutdown gives the lease up at once; another holder's release changes nothing.
    s.release_writer_lease("w1").await.unwrap();
    assert!(!s.hold_writer_lease("w3", expiry, at(153)).await.unwrap());
    s.release_writer_lease("w2").await.unwrap();
    assert!(s.hold_writer_lease("w3", expiry, at(154)).await.unwrap());
}
