//! Test databases (feature `testing`), shared by every crate's tests: real databases, never
//! mocks. Real databases for a test: a fresh SQLite file per test, and a fresh
//! PostgreSQL schema per test on the server named by `FREEHIRE_TEST_DATABASE_URL` (else
//! `DATABASE_URL` when it is a PostgreSQL URL, else `postgres://postgres@127.0.0.1:5432/postgres`).
//! A test that cannot reach PostgreSQL fails with a message saying how to bring it up; it never
//! skips.

use std::{str::FromStr, sync::Arc};

pub mod seed;

use crate::{NotifiedJob, PgStore, SqliteLocation, SqliteStore, Store, bind::Stamp};
use sqlx::{Connection, Executor, PgConnection, postgres::PgConnectOptions};

/// The PostgreSQL server tests use.
pub fn postgres_url() -> String {
    if let Ok(url) = std::env::var("FREEHIRE_TEST_DATABASE_URL") {
        return url;
    }
    match std::env::var("DATABASE_URL") {
        Ok(url) if url.starts_with("postgres") => url,
        _ => "postgres://postgres@127.0.0.1:5432/postgres".to_owned(),
    }
}

/// Creates a verified account without a password at `address` (tests of what accounts own).
#[allow(clippy::expect_used)]
pub async fn user(
    store: &dyn Store,
    address: &str,
    at: chrono::DateTime<chrono::Utc>,
) -> freehire_domain::User {
    let email = freehire_domain::Email::parse(address).expect("a valid test address");
    let language = freehire_domain::Language::english();
    let new = crate::NewUser {
        email: &email,
        password_hash: None,
        role: freehire_domain::Role::User,
        email_verified: true,
        language: &language,
    };
    store.create_user(&new, at).await.expect("create the test user")
}

/// One test's database.
pub struct TestDb {
    /// The store, migrated.
    pub store: Arc<dyn Store>,
    cleanup: Cleanup,
}

enum Cleanup {
    Sqlite { _dir: tempfile::TempDir, file: std::path::PathBuf, store: SqliteStore },
    Postgres { url: String, schema: String, store: PgStore },
}

impl TestDb {
    /// A migrated SQLite database in a fresh temporary folder.
    #[allow(clippy::expect_used)]
    pub async fn sqlite() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("nested/freehire.db");
        let store =
            SqliteStore::connect(&SqliteLocation::File(file.clone())).await.expect("open sqlite");
        store.migrate().await.expect("migrate sqlite");
        Self { store: Arc::new(store.clone()), cleanup: Cleanup::Sqlite { _dir: dir, file, store } }
    }

    /// A migrated, empty PostgreSQL schema of its own. Panics (never skips) when the server
    /// cannot be reached.
    #[allow(clippy::expect_used, clippy::panic)]
    pub async fn postgres() -> Self {
        let url = postgres_url();
        let schema = format!("t_{}", uuid::Uuid::new_v4().simple());
        let mut admin = PgConnection::connect(&url).await.unwrap_or_else(|e| {
            panic!(
                "cannot reach PostgreSQL at {url}: {e}. Run the suite with `cargo xtask test`, \
                 which brings a server up, or set FREEHIRE_TEST_DATABASE_URL."
            )
        });
        admin.execute(format!("CREATE SCHEMA {schema}").as_str()).await.expect("create schema");
        admin.close().await.ok();
        let options = PgConnectOptions::from_str(&url)
            .expect("postgres url")
            .options([("search_path", schema.as_str())])
            // Names this test's connections in `pg_stat_activity` (outage tests terminate them).
            .application_name(&schema);
        let store = PgStore::connect_with(options).await.expect("connect postgres");
        store.migrate().await.expect("migrate postgres");
        Self { store: Arc::new(store.clone()), cleanup: Cleanup::Postgres { url, schema, store } }
    }

    /// The store.
    pub fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }

    /// On PostgreSQL, the server URL and this test's schema (also the `application_name` of
    /// its connections, so a test can find them in `pg_stat_activity`).
    pub fn postgres_schema(&self) -> Option<(String, String)> {
        match &self.cleanup {
            Cleanup::Postgres { url, schema, .. } => Some((url.clone(), schema.clone())),
            Cleanup::Sqlite { .. } => None,
        }
    }

    /// A second store on the same database with a pool of its own (another worker's).
    #[allow(clippy::expect_used)]
    pub async fn second_store(&self) -> Arc<dyn Store> {
        match &self.cleanup {
            Cleanup::Sqlite { file, .. } => Arc::new(
                SqliteStore::connect(&SqliteLocation::File(file.clone()))
                    .await
                    .expect("open sqlite again"),
            ),
            Cleanup::Postgres { url, schema, .. } => {
                let options = PgConnectOptions::from_str(url)
                    .expect("postgres url")
                    .options([("search_path", schema.as_str())])
                    .application_name(schema);
                Arc::new(PgStore::connect_with(options).await.expect("connect postgres again"))
            }
        }
    }

    /// Seeding for this database's tests (rows of tables other slices own).
    pub async fn seed(&self) -> seed::Seed {
        match &self.cleanup {
            Cleanup::Sqlite { file, .. } => seed::Seed::sqlite_file(file).await,
            Cleanup::Postgres { store, .. } => seed::Seed::Postgres(store.pool().clone()),
        }
    }

    /// On SQLite, the database file.
    pub fn sqlite_file(&self) -> Option<&std::path::Path> {
        match &self.cleanup {
            Cleanup::Sqlite { file, .. } => Some(file),
            Cleanup::Postgres { .. } => None,
        }
    }

    /// On PostgreSQL, the store's pool.
    pub fn postgres_pool(&self) -> Option<&sqlx::PgPool> {
        match &self.cleanup {
            Cleanup::Postgres { store, .. } => Some(store.pool()),
            Cleanup::Sqlite { .. } => None,
        }
    }

    /// Records a notification in `owner`'s history as the notify engine would (the store's
    /// port only reads the history; tests of those reads need rows).
    #[allow(clippy::expect_used)]
    pub async fn insert_notification(
        &self,
        owner: freehire_domain::UserId,
        n: &TestNotification<'_>,
    ) -> freehire_domain::NotificationId {
        let jobs = serde_json::to_string(n.jobs).expect("jobs as JSON");
        let total = i32::try_from(n.total).expect("total fits");
        let id: i64 = match &self.cleanup {
            Cleanup::Sqlite { store, .. } => {
                sqlx::query_scalar(concat!(
                    "INSERT INTO user_notifications (user_id, kind, title, body, public_slug, ",
                    "subscription_id, created_at, jobs, total) ",
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id"
                ))
                .bind(owner.get())
                .bind(n.kind.as_str())
                .bind(n.title)
                .bind(n.body)
                .bind(n.public_slug)
                .bind(n.subscription.map(|s| s.get()))
                .bind(Stamp(n.created_at))
                .bind(jobs)
                .bind(total)
                .fetch_one(store.writer())
                .await
            }
            Cleanup::Postgres { store, .. } => {
                sqlx::query_scalar(concat!(
                    "INSERT INTO user_notifications (user_id, kind, title, body, public_slug, ",
                    "subscription_id, created_at, jobs, total) ",
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9) RETURNING id"
                ))
                .bind(owner.get())
                .bind(n.kind.as_str())
                .bind(n.title)
                .bind(n.body)
                .bind(n.public_slug)
                .bind(n.subscription.map(|s| s.get()))
                .bind(Stamp(n.created_at))
                .bind(jobs)
                .bind(total)
                .fetch_one(store.pool())
                .await
            }
        }
        .expect("insert notification");
        freehire_domain::NotificationId::new(id).expect("a positive id")
    }

    /// Runs a test-support statement on its own connection (what no port offers: deleting a
    /// job row as a prune would, setting a column); the rows it changed.
    #[allow(clippy::expect_used)]
    pub async fn execute(&self, statement: &str) -> u64 {
        match &self.cleanup {
            Cleanup::Sqlite { file, .. } => {
                let mut conn = self.sqlite_connection(file).await;
                let done = sqlx::query(statement).execute(&mut conn).await.expect("statement");
                conn.close().await.ok();
                done.rows_affected()
            }
            Cleanup::Postgres { store, .. } => sqlx::query(statement)
                .execute(store.pool())
                .await
                .expect("statement")
                .rows_affected(),
        }
    }

    /// Blocks every write to `table` (reads go on) until the returned guard is dropped, as a
    /// stuck database would: PostgreSQL's `LOCK TABLE … IN EXCLUSIVE MODE`, SQLite's
    /// `BEGIN IMMEDIATE` (the whole file), each in a transaction of its own connection.
    #[allow(clippy::expect_used)]
    pub async fn block_writes(&self, table: &str) -> WriteBlock {
        match &self.cleanup {
            Cleanup::Sqlite { file, .. } => {
                let mut conn = self.sqlite_connection(file).await;
                sqlx::query("BEGIN IMMEDIATE").execute(&mut conn).await.expect("begin");
                WriteBlock { _sqlite: Some(conn), _postgres: None }
            }
            Cleanup::Postgres { store, .. } => {
                let mut tx = store.pool().begin().await.expect("begin");
                sqlx::query(&format!("LOCK TABLE {table} IN EXCLUSIVE MODE"))
                    .execute(&mut *tx)
                    .await
                    .expect("lock");
                WriteBlock { _sqlite: None, _postgres: Some(tx) }
            }
        }
    }

    /// Reads one integer with a test-support statement (a counter column, a `count(*)`).
    #[allow(clippy::expect_used)]
    pub async fn scalar(&self, statement: &str) -> i64 {
        match &self.cleanup {
            Cleanup::Sqlite { file, .. } => {
                let mut conn = self.sqlite_connection(file).await;
                let value: i64 =
                    sqlx::query_scalar(statement).fetch_one(&mut conn).await.expect("statement");
                conn.close().await.ok();
                value
            }
            Cleanup::Postgres { store, .. } => {
                sqlx::query_scalar(statement).fetch_one(store.pool()).await.expect("statement")
            }
        }
    }

    #[allow(clippy::expect_used)]
    async fn sqlite_connection(&self, file: &std::path::Path) -> sqlx::SqliteConnection {
        let options = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(file)
            .foreign_keys(true)
            .busy_timeout(std::time::Duration::from_secs(10));
        sqlx::ConnectOptions::connect(&options).await.expect("open sqlite")
    }

    /// Closes the store and drops the PostgreSQL schema.
    #[allow(clippy::expect_used)]
    pub async fn teardown(self) {
        self.store.close().await;
        if let Cleanup::Postgres { url, schema, .. } = &self.cleanup {
            let mut admin = PgConnection::connect(url).await.expect("reconnect");
            admin
                .execute(format!("DROP SCHEMA {schema} CASCADE").as_str())
                .await
                .expect("drop schema");
        }
    }
}

/// A notification for [`TestDb::insert_notification`].
#[derive(Debug, Clone)]
pub struct TestNotification<'a> {
    /// Its kind.
    pub kind: freehire_domain::NotificationKind,
    /// Its title.
    pub title: &'a str,
    /// Its text.
    pub body: &'a str,
    /// The slug it is about.
    pub public_slug: Option<&'a str>,
    /// The subscription it came from.
    pub subscription: Option<freehire_domain::SubscriptionId>,
    /// When it was recorded.
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// The jobs it lists.
    pub jobs: &'a [NotifiedJob],
    /// How many matched in all.
    pub total: u32,
}

/// Writes blocked by [`TestDb::block_writes`] until this is dropped (the transaction then
/// rolls back, or its connection closes).
pub struct WriteBlock {
    _sqlite: Option<sqlx::SqliteConnection>,
    _postgres: Option<sqlx::Transaction<'static, sqlx::Postgres>>,
}

impl std::fmt::Debug for WriteBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WriteBlock").finish_non_exhaustive()
    }
}
