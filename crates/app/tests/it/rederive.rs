//! `freehire jobs rederive`: stale facets come back to what the dictionaries say; structured
//! values survive.

use freehire_app::{
    ingest::{IngestConfig, run_provider},
    rederive::rederive_all,
};
use freehire_domain::{BoardKey, BoardStatus, NewBoard, Provider};
use freehire_ingest::replay::Reply;
use freehire_store::{DerivedUpdate, ListPage, OutboxKind, Store};
use tokio_util::sync::CancellationToken;

use crate::support::{ashby_board, ashby_server, t};

// scenario: Stale facets
pub async fn stale_facets_are_rederived_and_structured_values_kept(s: &dyn Store) {
    let key = BoardKey::new(Provider::parse("ashby").unwrap(), "cartesia", "").unwrap();
    let board =
        NewBoard { key, company: "Cartesia".into(), url: None, status: BoardStatus::Active };
    s.add_board(&board, t(1, 0)).await.unwrap();
    let body = serde_json::to_vec(&ashby_board("cartesia")).unwrap();
    let (_server, registry) = ashby_server(&[("cartesia", Reply::json(body))]).await;
    let ashby = Provider::parse("ashby").unwrap();
    run_provider(
        s,
        &registry,
        &ashby,
        &IngestConfig::default(),
        &CancellationToken::new(),
        &|| t(2, 0),
    )
    .await
    .unwrap();
    let before = s.list_open_jobs(ListPage::new(100, 0)).await.unwrap().jobs;
    assert!(
        before.iter().any(|j| !j.posting.structured.countries.is_empty()),
        "structured values are stored"
    );

    // Nothing to do right after ingest.
    assert_eq!(rederive_all(s, 7, t(3, 0)).await.unwrap().changed, 0);

    // Make every job's facets stale, as an older dictionary would have left them.
    let stale: Vec<DerivedUpdate> = before
        .iter()
        .map(|j| {
            let mut p = j.posting.clone();
            p.facets.skills = vec!["cobol".into()];
            p.facets.countries.clear();
            DerivedUpdate {
                id: j.id,
                content_hash: p.content_hash(),
                facets: p.facets,
                role_fingerprint: p.role_fingerprint,
            }
        })
        .collect();
    s.rewrite_derived(&stale, t(3, 0)).await.unwrap();
    let drained = s.claim_outbox(OutboxKind::Index, Default::default(), t(3, 1)).await.unwrap();
    s.ack_outbox(OutboxKind::Index, &drained).await.unwrap();

    let stats = rederive_all(s, 7, t(4, 0)).await.unwrap();
    assert_eq!(stats.scanned as usize, before.len());
    assert_eq!(stats.changed as usize, before.len());
    let after = s.list_open_jobs(ListPage::new(100, 0)).await.unwrap().jobs;
    for (a, b) in after.iter().zip(&before) {
        assert_eq!(a.posting.facets, b.posting.facets, "{}", a.public_slug);
        assert_eq!(a.content_hash, b.content_hash);
        assert_eq!(a.updated_at, t(4, 0));
    }
    assert_eq!(
        s.outbox_depth(OutboxKind::Index).await.unwrap() as usize,
        before.len(),
        "changed jobs are re-indexed"
    );
    assert_eq!(rederive_all(s, 7, t(5, 0)).await.unwrap().changed, 0, "idempotent");
}
