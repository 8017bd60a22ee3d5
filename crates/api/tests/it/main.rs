//! HTTP tests: the real router on a random port, real databases, real HTTP.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// One `#[tokio::test]` per backend for each `async fn name(&Server)` of the module it is
/// used in, each on a fresh database (declared before the modules, so each of them sees it).
macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite { $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                let server = crate::server::Server::start(freehire_store::testing::TestDb::sqlite().await).await;
                super::$name(&server).await;
                server.db.teardown().await;
            }
        )* }
        mod postgres { $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                let server = crate::server::Server::start(freehire_store::testing::TestDb::postgres().await).await;
                super::$name(&server).await;
                server.db.teardown().await;
            }
        )* }
    };
}

mod accounts;
mod agent;
mod assistant;
mod battery;
mod catalogue;
mod companies;
mod cover_letters;
mod cv_import;
mod cvs;
mod errors;
mod experience;
mod facets;
mod http;
mod jobs;
mod lookup;
mod market;
mod mcp;
mod meili;
mod metrics;
mod missing_index;
mod openapi;
mod outages;
mod public_limits;
mod ratelimit;
mod reality;
mod saved_searches;
mod screening;
mod search;
mod server;
mod status;
mod tailoring;
mod tracking;
