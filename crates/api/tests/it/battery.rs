//! The malformed-request battery: a seeded, generated set of bad requests on every route and
//! parameter, sent to the real server over a real socket. No answer may be a 5xx, every body
//! is JSON with a `code`, every `invalid_parameter` names its `param`, every answer comes
//! within 1 s. Deterministic (a fixed-seed generator), bounded (a few seconds).

use std::time::{Duration, Instant};

use freehire_search::{Facet, SCALAR_PARAMS};
use freehire_store::testing::TestDb;
use futures::StreamExt;
use serde_json::Value;

use crate::{catalogue::indexed, http::raw};

/// How many generated requests (besides the raw ones).
const REQUESTS: usize = 2_400;
/// The slowest acceptable answer.
const WITHIN: Duration = Duration::from_secs(1);

/// A small deterministic generator (xorshift64*), so the battery is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
}

/// Values, already encoded for a query string (some deliberately invalid UTF-8).
fn values() -> Vec<String> {
    let enc = |v: &str| url::form_urlencoded::byte_serialize(v.as_bytes()).collect::<String>();
    let mut v: Vec<String> = [
        "",
        " ",
        "0",
        "-1",
        "-99999999999999999999999",
        "99999999999999999999999",
        "1e308",
        "NaN",
        "nan",
        "inf",
        "-inf",
        "1.5",
        "0x10",
        "true",
        "maybe",
        "none",
        "nosuch",
        "Ünïcödé",
        "日本語",
        "🦀🦀",
        "\u{202e}rtl",
        "' OR 1=1 --",
        "\"; DROP TABLE jobs; --",
        "<script>alert(1)</script>",
        "$(rm -rf /)",
        "../../etc/passwd",
        "a,b,,c,",
        ",,,",
        "de,us,fr,xx",
        "*",
        "\\",
        "%",
        "\u{0}",
    ]
    .iter()
    .map(|s| enc(s))
    .collect();
    v.extend(
        ["%FF", "%FF%FE", "%C3%28", "%ED%A0%80", "%E2%82", "%00", "%", "%G1", "%%%"]
            .map(String::from),
    );
    v.push(enc(&"x".repeat(1_000)));
    v.push(enc(&"y".repeat(100_000)));
    v.push(enc(&"rust ".repeat(200)));
    v.push(enc(&"é".repeat(5_000)));
    v
}

fn params() -> Vec<String> {
    let mut p: Vec<String> = Vec::new();
    for f in Facet::ALL {
        let name = f.param();
        p.extend([name.to_owned(), format!("{name}_exclude"), format!("{name}_mode")]);
    }
    p.extend(SCALAR_PARAMS.iter().map(|s| (*s).to_owned()));
    p.extend(
        [
            "q",
            "q_fields",
            "sort",
            "order",
            "limit",
            "offset",
            "description_format",
            "facets",
            "disjunctive",
            "unknown_param",
            "%FF",
            "",
        ]
        .map(String::from),
    );
    p
}

const QUERY_ROUTES: [&str; 7] = [
    "/api/v1/jobs",
    "/api/v1/companies",
    "/api/v1/companies/acme",
    "/api/v1/jobs/search",
    "/api/v1/agent/jobs/search",
    "/api/v1/jobs/facets",
    "/health",
];

/// The generated paths: query strings of one to three (possibly repeated) parameters, and
/// slugs from the same values.
fn paths(rng: &mut Rng) -> Vec<String> {
    let (values, params) = (values(), params());
    (0..REQUESTS)
        .map(|i| {
            if i % 8 == 7 {
                let route = rng.pick(&["jobs", "companies"]);
                let value = rng.pick(&values);
                let value = if value.is_empty() { "%20" } else { value.as_str() };
                return format!("/api/v1/{route}/{value}");
            }
            let route = rng.pick(&QUERY_ROUTES);
            let pairs = 1 + rng.next() % 3;
            let query: Vec<String> = (0..pairs)
                .flat_map(|_| {
                    let (name, value) = (rng.pick(&params), rng.pick(&values));
                    let repeat = if rng.next().is_multiple_of(5) { 3 } else { 1 };
                    std::iter::repeat_n(format!("{name}={value}"), repeat)
                })
                .collect();
            format!("{route}?{}", query.join("&"))
        })
        .collect()
}

/// What is wrong with one answer, if anything.
fn judge(status: u16, json: bool, body: &Value, took: Duration) -> Option<String> {
    if status >= 500 {
        return Some(format!("{status} {body}"));
    }
    if took > WITHIN {
        return Some(format!("slow: {took:?} ({status})"));
    }
    if status != 200 {
        if !json || !body["code"].is_string() {
            return Some(format!("{status} without a JSON code: {body}"));
        }
        if body["code"] == "invalid_parameter" && !body["param"].is_string() {
            return Some(format!("400 without param: {body}"));
        }
    }
    None
}

// scenario: Malformed request battery
async fn malformed_requests_are_answered_by_the_error_table(db: TestDb) {
    let (s, _dir, _) = indexed(db).await;
    let mut rng = Rng(0x5EED_F00D_1234_5678);
    let paths = paths(&mut rng);
    let http = reqwest::Client::builder().timeout(Duration::from_secs(3)).build().unwrap();
    let started = Instant::now();
    let answers: Vec<(String, Option<String>)> = futures::stream::iter(paths)
        .map(|path| {
            let (http, base) = (http.clone(), s.base.clone());
            async move {
                let t = Instant::now();
                // Past the `http` crate's URI limit a client library refuses to send: raw.
                if path.len() > 60_000 {
                    let addr = base.trim_start_matches("http://").to_owned();
                    let request = format!("GET {path} HTTP/1.1\r\nhost: x\r\n\r\n");
                    let r = raw(&addr, request.as_bytes()).await;
                    let json = r.head.contains("content-type: application/json");
                    return (path, judge(r.status, json, &r.body, t.elapsed()));
                }
                let verdict = match http.get(format!("{base}{path}")).send().await {
                    Ok(res) => {
                        let status = res.status().as_u16();
                        let json = res
                            .headers()
                            .get("content-type")
                            .is_some_and(|v| v.as_bytes() == b"application/json");
                        let body: Value = res.json().await.unwrap_or(Value::Null);
                        judge(status, json, &body, t.elapsed())
                    }
                    Err(e) => Some(format!("no answer: {e}")),
                };
                (path, verdict)
            }
        })
        .buffer_unordered(8)
        .collect()
        .await;

    // Raw requests a client library will not send: over-long paths, broken request lines.
    let addr = s.base.trim_start_matches("http://").to_owned();
    let mut raws: Vec<(String, Vec<u8>)> = Vec::new();
    for len in [70_000, 100_000, 300_000, 500_000] {
        let path = format!("/api/v1/jobs/{}", "a".repeat(len));
        raws.push((
            format!("raw path of {len} bytes"),
            format!("GET {path} HTTP/1.1\r\nhost: x\r\n\r\n").into_bytes(),
        ));
    }
    for line in [
        "GARBAGE",
        "GET",
        "GET /",
        "GET / HTTP/1.1 extra",
        "\u{1}\u{2}\u{3}",
        "GET /\u{7f} HTTP/1.1",
    ] {
        raws.push((
            format!("raw line {line:?}"),
            format!("{line}\r\nhost: x\r\n\r\n").into_bytes(),
        ));
    }
    let mut failures: Vec<String> = answers
        .iter()
        .filter_map(|(path, v)| {
            v.as_ref().map(|v| format!("{}: {v}", &path[..path.len().min(160)]))
        })
        .collect();
    for (name, request) in raws {
        let t = Instant::now();
        let r = raw(&addr, &request).await;
        let json = r.head.contains("content-type: application/json");
        if let Some(v) = judge(r.status, json, &r.body, t.elapsed()) {
            failures.push(format!("{name}: {v}"));
        }
        if r.status == 0 {
            failures.push(format!("{name}: no answer"));
        }
    }
    let total = answers.len();
    let elapsed = started.elapsed();
    s.db.teardown().await;
    assert!(total >= 2_000);
    assert!(
        failures.is_empty(),
        "{} of {total} failed in {elapsed:?}:\n{}",
        failures.len(),
        failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

crate::search::on_both_backends![malformed_requests_are_answered_by_the_error_table];
