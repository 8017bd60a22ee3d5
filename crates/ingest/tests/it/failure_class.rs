//! What kind of failure a board's crawl met ([`IngestError::class`]), each provoked for real:
//! a name that does not resolve, a closed port, a plain-HTTP server asked for TLS, a server
//! that never answers, a body cut short, and the platform's answers (status, gone, block page,
//! a shape without the field the adapter needs, a body over the cap).

use std::time::Duration;

use freehire_domain::FailureClass;
use freehire_ingest::IngestError;
use freehire_ingest::http::{
    ClientConfig, Fetcher, HttpClient, ProviderPolicy, RetryConfig, SsrfPolicy,
};
use freehire_ingest::replay::{Reply, Route};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use url::Url;

use crate::support::{fetch, setup, target};

/// A client that retries nothing and gives up after `timeout`, under `ssrf`.
fn client(ssrf: SsrfPolicy, timeout: Duration) -> Fetcher {
    let config = ClientConfig {
        ssrf,
        timeout,
        retry: RetryConfig { retries: 0, delay: Duration::from_millis(1) },
        ..ClientConfig::default()
    };
    HttpClient::new(config).unwrap().for_provider(ProviderPolicy::default())
}

async fn get(client: &Fetcher, url: &str) -> IngestError {
    let url = Url::parse(url).unwrap();
    client.get_json::<serde_json::Value>(&url).await.unwrap_err()
}

/// A local server that answers every connection with `reply` once it has read the request
/// head (or never answers, for `None`).
async fn raw_server(reply: Option<&'static [u8]>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else { return };
            tokio::spawn(async move {
                let mut buf = [0u8; 2048];
                let _ = socket.read(&mut buf).await;
                match reply {
                    Some(bytes) => {
                        let _ = socket.write_all(bytes).await;
                    }
                    None => tokio::time::sleep(Duration::from_secs(30)).await,
                }
            });
        }
    });
    port
}

#[tokio::test]
async fn a_name_that_does_not_resolve_is_dns() {
    // `.invalid` never resolves (RFC 2606); through our guarded resolver and the default one.
    for ssrf in [SsrfPolicy::Enforce, SsrfPolicy::AllowPrivateTargets] {
        let err =
            get(&client(ssrf, Duration::from_secs(10)), "https://jobs.no-such-board.invalid/")
                .await;
        assert_eq!(
            err.class(),
            FailureClass::Dns,
            "{ssrf:?}: {}",
            freehire_ingest::error_chain(&err)
        );
    }
}

#[tokio::test]
async fn a_closed_port_is_connect() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        listener.local_addr().unwrap().port()
    };
    let client = client(SsrfPolicy::AllowPrivateTargets, Duration::from_secs(10));
    let err = get(&client, &format!("http://127.0.0.1:{port}/jobs")).await;
    assert_eq!(err.class(), FailureClass::Connect, "{}", freehire_ingest::error_chain(&err));
}

#[tokio::test]
async fn plain_http_asked_for_tls_is_tls() {
    let port = raw_server(Some(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}")).await;
    let client = client(SsrfPolicy::AllowPrivateTargets, Duration::from_secs(10));
    let err = get(&client, &format!("https://127.0.0.1:{port}/jobs")).await;
    assert_eq!(err.class(), FailureClass::Tls, "{}", freehire_ingest::error_chain(&err));
}

#[tokio::test]
async fn no_answer_is_a_timeout() {
    let port = raw_server(None).await;
    let client = client(SsrfPolicy::AllowPrivateTargets, Duration::from_millis(300));
    let err = get(&client, &format!("http://127.0.0.1:{port}/jobs")).await;
    assert_eq!(err.class(), FailureClass::Timeout, "{}", freehire_ingest::error_chain(&err));
}

#[tokio::test]
async fn a_body_cut_short_is_network() {
    let port =
        raw_server(Some(b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{\"jobs\": [")).await;
    let client = client(SsrfPolicy::AllowPrivateTargets, Duration::from_secs(10));
    let err = get(&client, &format!("http://127.0.0.1:{port}/jobs")).await;
    assert_eq!(err.class(), FailureClass::Network, "{}", freehire_ingest::error_chain(&err));
}

#[tokio::test]
async fn an_internal_address_is_refused() {
    let err =
        get(&client(SsrfPolicy::Enforce, Duration::from_secs(10)), "http://127.0.0.1:9/").await;
    assert_eq!(err.class(), FailureClass::Refused, "{err}");
}

const ASHBY: &str = "https://api.ashbyhq.com";
const BOARD: &str = "/posting-api/job-board/acme";

#[tokio::test]
async fn the_platforms_answers_have_their_classes() {
    let page = "<!DOCTYPE html><html><title>Just a moment...</title></html>";
    let cases: [(&str, Reply, FailureClass); 4] = [
        ("gone", Reply::status(404), FailureClass::Gone),
        ("down", Reply::status(403), FailureClass::HttpStatus),
        ("blocked", Reply::html(page), FailureClass::BlockPage),
        ("reshaped", Reply::json(r#"{"jobz": []}"#), FailureClass::Parse),
    ];
    let routes: Vec<Route> = cases
        .iter()
        .map(|(board, reply, _)| {
            Route::get(ASHBY, &BOARD.replace("acme", board)).reply(reply.clone())
        })
        .collect();
    let (_s, reg) = setup(routes).await;
    for (board, _, class) in cases {
        let err = fetch(&reg, &target("ashby", board, "")).await.unwrap_err();
        assert_eq!(err.class(), class, "{board}: {err}");
    }
    let invalid = fetch(&reg, &target("recruitee", "evil.com/x", "")).await.unwrap_err();
    assert_eq!(invalid.class(), FailureClass::InvalidBoard);
}

#[tokio::test]
async fn a_parse_error_names_the_missing_field() {
    let route = Route::get(ASHBY, BOARD).reply(Reply::json(r#"{"jobz": []}"#));
    let (_s, reg) = setup(vec![route]).await;
    let err = fetch(&reg, &target("ashby", "acme", "")).await.unwrap_err();
    let chain = freehire_ingest::error_chain(&err);
    assert!(chain.contains("missing field `jobs`"), "{chain}");
}
