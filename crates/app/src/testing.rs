//! Test support for the binaries' process tests (feature `testing`): running a built binary
//! and reading what it printed, stopping a server with SIGTERM within a deadline, the recorded
//! ATS fixtures behind a replay server, and counting what an index holds. Panics on failure:
//! it is for tests only.
//!
//! [`openai`] is a local server speaking the OpenAI chat-completions protocol, scripted per
//! test, for running real assistant turns; [`bifrost`] a local fake of the Bifrost governance
//! API, where per-user gateway keys are minted and blocked.

pub mod bifrost;
pub mod openai;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use freehire_ingest::replay::ReplayServer;
use freehire_search::{IndexError, JobQuery, SearchIndex, SearchRequest};

/// Serves `app` on `127.0.0.1:0` until the token is cancelled: the address and the token
/// (`what` names the server in the log if serving fails).
async fn serve_locally(
    app: axum::Router,
    what: &'static str,
) -> (std::net::SocketAddr, tokio_util::sync::CancellationToken) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().expect("the listener's address");
    let stop = tokio_util::sync::CancellationToken::new();
    let until = stop.clone();
    tokio::spawn(async move {
        let served = axum::serve(listener, app)
            .with_graceful_shutdown(async move { until.cancelled().await });
        if let Err(e) = served.await {
            tracing::warn!(error = %e, server = what, "a test server stopped");
        }
    });
    (addr, stop)
}

/// Runs `command` to its end: whether it succeeded, its stdout and its stderr.
pub fn output(command: &mut Command) -> (bool, String, String) {
    let out = command.output().expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// Sends SIGTERM to `child` and waits for its exit, panicking with `what` if it takes longer
/// than `limit`. The wait yields to the runtime (a replay server may still be answering).
pub async fn terminate(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let sent = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    assert!(sent.is_ok_and(|s| s.success()), "kill -TERM {}", child.id());
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("the child's status") {
            return status;
        }
        assert!(Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The recorded ATS fixtures (`shared/fixtures/ats` above `manifest_dir`, or
/// `FREEHIRE_ATS_FIXTURES`).
pub fn ats_fixtures(manifest_dir: &str) -> PathBuf {
    freehire_ingest::replay::recorded_fixtures(Path::new(manifest_dir))
        .expect("shared/fixtures/ats not found above the crate; set FREEHIRE_ATS_FIXTURES")
}

/// A replay server answering Ashby's board API from the recorded `ashby-boards` fixtures.
pub async fn ashby_replay(manifest_dir: &str) -> ReplayServer {
    ReplayServer::builder()
        .directory(
            "https://api.ashbyhq.com",
            "/posting-api/job-board/",
            ats_fixtures(manifest_dir).join("ashby-boards"),
            "json",
        )
        .expect("the ashby-boards fixtures")
        .start()
        .await
        .expect("the replay server starts")
}

/// How many documents `index` holds (the total of an empty query).
pub async fn indexed_total(index: &dyn SearchIndex) -> Result<u64, IndexError> {
    let query = JobQuery::default();
    Ok(index.search(SearchRequest::new(&query, chrono::Utc::now())).await?.total)
}
