//! The HTTP client's guards: SSRF refusal, the replay rewrite and header, the User-Agent, the
//! per-host pacing.

use freehire_ingest::IngestError;
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use freehire_ingest::http::{
    ClientConfig, Fetcher, HostPace, HostPacing, HttpClient, ProviderPolicy, SsrfPolicy, USER_AGENT,
};
use freehire_ingest::replay::{ReplayServer, Reply, Route};
use url::Url;

async fn local_server() -> ReplayServer {
    ReplayServer::builder()
        .route(Route::get("", "/x").reply(Reply::json("{}")))
        .start()
        .await
        .unwrap()
}

// scenario: Internal target refused
#[tokio::test]
async fn ssrf_guard_refuses_internal_targets() {
    let server = local_server().await;
    let client =
        HttpClient::new(ClientConfig::default()).unwrap().for_provider(ProviderPolicy::default());
    let port = server.addr().port();
    for target in [
        format!("http://127.0.0.1:{port}/x"),
        format!("http://localhost:{port}/x"),
        format!("http://[::1]:{port}/x"),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        "http://10.0.0.1/".to_owned(),
        "http://192.168.0.1/".to_owned(),
        "file:///etc/passwd".to_owned(),
    ] {
        let err = client.get(&Url::parse(&target).unwrap(), "application/json").await.unwrap_err();
        assert!(matches!(err, IngestError::Refused { .. }), "{target}: {err}");
    }
    assert!(server.requests().is_empty(), "nothing reached the local server");
}

#[tokio::test]
async fn opt_out_allows_local_targets() {
    let server = local_server().await;
    let config = ClientConfig { ssrf: SsrfPolicy::AllowPrivateTargets, ..ClientConfig::default() };
    let client = HttpClient::new(config).unwrap().for_provider(ProviderPolicy::default());
    let url = Url::parse(&format!("http://127.0.0.1:{}/x", server.addr().port())).unwrap();
    let fetched = client.get(&url, "application/json").await.unwrap();
    assert_eq!(fetched.body, b"{}");
}

// scenario: Replayed request
#[tokio::test]
async fn replay_keeps_path_and_query_and_names_the_upstream() {
    let server = ReplayServer::builder()
        .route(
            Route::get("https://api.example.org", "/a/b")
                .query("q=1&r=two")
                .reply(Reply::json("[1]")),
        )
        .start()
        .await
        .unwrap();
    // The SSRF guard stays on: the replay origin is the one allowed target.
    let client = HttpClient::new(ClientConfig::replaying(server.origin()))
        .unwrap()
        .for_provider(ProviderPolicy::default());
    let fetched = client
        .get(&Url::parse("https://api.example.org/a/b?q=1&r=two").unwrap(), "application/json")
        .await
        .unwrap();
    assert_eq!(fetched.body, b"[1]");
    assert_eq!(fetched.url.as_str(), "https://api.example.org/a/b?q=1&r=two");
    let r = &server.requests()[0];
    assert_eq!(
        (r.upstream.as_str(), r.path.as_str(), r.query.as_deref()),
        ("https://api.example.org", "/a/b", Some("q=1&r=two"))
    );
}

#[tokio::test]
async fn sends_our_user_agent() {
    assert_eq!(USER_AGENT, "freehire-rs/0.1 (+https://github.com/freehire/freehire-rs)");
    // The replay server records no headers but the upstream; check the UA through a raw
    // listener instead.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let accept = tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let (mut sock, _) = listener.accept().await.unwrap();
        let mut buf = vec![0u8; 4096];
        let n = sock.read(&mut buf).await.unwrap();
        sock.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}")
            .await
            .unwrap();
        String::from_utf8_lossy(&buf[..n]).into_owned()
    });
    let config = ClientConfig { ssrf: SsrfPolicy::AllowPrivateTargets, ..ClientConfig::default() };
    let client = HttpClient::new(config).unwrap().for_provider(ProviderPolicy::default());
    client.get(&Url::parse(&format!("http://{addr}/")).unwrap(), "application/json").await.unwrap();
    let head = accept.await.unwrap().to_ascii_lowercase();
    assert!(head.contains(&format!("user-agent: {}", USER_AGENT.to_ascii_lowercase())), "{head}");
}

// scenario: Replay keeps the SSRF guard on redirects
#[tokio::test]
async fn replay_refuses_redirects_to_internal_targets_and_follows_public_ones() {
    let internal = [
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254"),
        ("http://127.0.0.1:8080/admin", "127.0.0.1"),
        ("http://localhost/admin", "localhost"),
        ("http://api.localhost/admin", "api.localhost"),
        ("http://[::1]/admin", "[::1]"),
        ("http://10.0.0.1/", "10.0.0.1"),
        ("http://[::ffff:169.254.169.254]/", "[::ffff:a9fe:a9fe]"),
    ];
    let mut builder = ReplayServer::builder()
        .route(Route::get("https://public.example.org", "/ok").reply(Reply::json("[2]")));
    for (i, (target, _)) in internal.iter().enumerate() {
        builder = builder.route(
            Route::get("https://api.example.org", &format!("/r{i}"))
                .reply(Reply::redirect(302, target)),
        );
    }
    builder = builder.route(
        Route::get("https://api.example.org", "/public")
            .reply(Reply::redirect(301, "https://public.example.org/ok")),
    );
    let server = builder.start().await.unwrap();
    let client = HttpClient::new(ClientConfig::replaying(server.origin()))
        .unwrap()
        .for_provider(ProviderPolicy::default());
    for (i, (target, host)) in internal.iter().enumerate() {
        let url = Url::parse(&format!("https://api.example.org/r{i}")).unwrap();
        let err = client.get(&url, "application/json").await.unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, IngestError::Refused { .. }), "{target}: {text}");
        assert!(text.contains(host), "the error names the refused host {host}: {text}");
    }
    assert_eq!(server.requests().len(), internal.len(), "no refused hop reached the server");
    assert!(server.requests().iter().all(|r| r.upstream == "https://api.example.org"));
    let url = Url::parse("https://api.example.org/public").unwrap();
    let fetched = client.get(&url, "application/json").await.unwrap();
    assert_eq!(fetched.body, b"[2]");
    assert_eq!(fetched.url.as_str(), "https://public.example.org/ok");
    // A first request to an internal target is refused under replay too.
    let err = client
        .get(&Url::parse("http://169.254.169.254/").unwrap(), "application/json")
        .await
        .unwrap_err();
    assert!(matches!(err, IngestError::Refused { .. }), "{err}");
}

/// `n` GETs of `host`'s `/x` at once; how long they took.
async fn at_once(client: &Fetcher, host: &str, n: usize) -> Duration {
    let url = Url::parse(&format!("https://{host}/x")).unwrap();
    let start = Instant::now();
    let all = futures::future::join_all((0..n).map(|_| client.get(&url, "application/json")));
    for fetched in all.await {
        assert_eq!(fetched.unwrap().body, b"{}");
    }
    start.elapsed()
}

// scenario: Requests are paced per upstream host
#[tokio::test]
async fn requests_to_one_upstream_host_are_spaced_under_replay() {
    let server = ReplayServer::builder()
        .route(Route::get("https://a.example.org", "/x").reply(Reply::json("{}")))
        .route(Route::get("https://b.example.org", "/x").reply(Reply::json("{}")))
        .start()
        .await
        .unwrap();
    let pace = |n| NonZeroU32::new(n).unwrap();
    // 50/s, no burst: 11 requests to one host span at least 10 intervals of 20 ms.
    let config = ClientConfig {
        host_pacing: HostPacing::Paced(HostPace::per_second(pace(50), pace(1))),
        ..ClientConfig::replaying(server.origin())
    };
    let http = HttpClient::new(config).unwrap();
    let client = http.for_provider(ProviderPolicy::default());
    // Both hosts go to the one replay origin, yet each keeps its own pace: keyed by the
    // original host, they run side by side (serialised they would take 420 ms).
    let (a, b) = tokio::join!(at_once(&client, "a.example.org", 11), async {
        at_once(&client, "b.example.org", 11).await
    });
    let paced = Duration::from_millis(195);
    assert!(a >= paced && b >= paced, "each upstream host is paced: {a:?} {b:?}");
    assert!(a.max(b) < Duration::from_millis(400), "hosts are paced apart: {a:?} {b:?}");
    assert_eq!(server.requests().len(), 22, "waiting, never dropping");

    // A platform's override replaces the default pace for its requests: 4 at 10/s, no burst.
    let slow = http.for_provider(ProviderPolicy {
        host_pace: Some(HostPace::per_second(pace(10), pace(1))),
        ..ProviderPolicy::default()
    });
    let took = at_once(&slow, "a.example.org", 4).await;
    assert!(took >= Duration::from_millis(295), "the override paces: {took:?}");
}
