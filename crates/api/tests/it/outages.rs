//! Storage outages over HTTP: every route answers 503 with a JSON error while the database is
//! gone, and `/health` says so too.

use std::str::FromStr;

use freehire_store::{PgStore, Store, testing::TestDb};
use sqlx::{Connection, Executor, PgConnection, postgres::PgConnectOptions};

use crate::server::Server;

/// Routes that read the database (the companies list is served by the search index; a
/// company's page reads the database).
const ROUTES: [&str; 4] = [
    "/health",
    "/api/v1/jobs",
    "/api/v1/companies/acme",
    "/api/v1/jobs/rust-engineer-acme-aaaaaaaa",
];

async fn assert_all_unavailable(server: &Server) {
    for route in ROUTES {
        let (status, body) = server.get(route).await;
        assert_eq!(status, 503, "{route}: {body}");
        assert_eq!(body["error"], "database unavailable", "{route}: {body}");
    }
}

// scenario: A deleted SQLite file answers 503 on every route
#[tokio::test]
async fn a_deleted_sqlite_file_answers_503_everywhere_and_is_not_recreated() {
    let server = Server::start(TestDb::sqlite().await).await;
    assert_eq!(server.get("/health").await.0, 200);
    assert_eq!(server.get("/api/v1/jobs").await.0, 200);
    let file = server.db.sqlite_file().unwrap().to_owned();
    for suffix in ["", "-wal", "-shm"] {
        let mut p = file.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(std::path::PathBuf::from(p));
    }
    assert_all_unavailable(&server).await;
    assert!(!file.exists(), "no new empty database");
}

// scenario: Database down
// scenario: A PostgreSQL outage answers 503 on every route
#[tokio::test]
async fn a_postgres_outage_answers_503_everywhere() {
    // The store logs in as a role of its own, so the test can lock that role out and end its
    // sessions without touching anyone else's.
    let db = TestDb::postgres().await;
    let (url, schema) = db.postgres_schema().unwrap();
    let mut admin = PgConnection::connect(&url).await.unwrap();
    let role = format!("r_{schema}");
    for statement in [
        format!("CREATE ROLE {role} LOGIN"),
        format!("GRANT ALL ON SCHEMA {schema} TO {role}"),
        format!("GRANT ALL ON ALL TABLES IN SCHEMA {schema} TO {role}"),
        format!("GRANT ALL ON ALL SEQUENCES IN SCHEMA {schema} TO {role}"),
    ] {
        admin.execute(statement.as_str()).await.unwrap();
    }
    let options = PgConnectOptions::from_str(&url)
        .unwrap()
        .username(&role)
        .options([("search_path", schema.as_str())]);
    let store = std::sync::Arc::new(PgStore::connect_with(options).await.unwrap());
    let server = Server::start_over(db, store.clone()).await;
    assert_eq!(server.get("/health").await.0, 200);
    assert_eq!(server.get("/api/v1/jobs").await.0, 200);

    admin.execute(format!("ALTER ROLE {role} CONNECTION LIMIT 0").as_str()).await.unwrap();
    admin
        .execute(
            format!(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '{role}'"
            )
            .as_str(),
        )
        .await
        .unwrap();
    assert_all_unavailable(&server).await;

    admin.execute(format!("ALTER ROLE {role} CONNECTION LIMIT -1").as_str()).await.unwrap();
    assert_eq!(server.get("/health").await.0, 200, "back when the server takes connections");
    store.close().await;
    admin.execute(format!("DROP OWNED BY {role}").as_str()).await.unwrap();
    admin.execute(format!("DROP ROLE {role}").as_str()).await.unwrap();
    admin.close().await.unwrap();
    server.db.teardown().await;
}
