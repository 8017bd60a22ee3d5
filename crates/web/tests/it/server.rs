//! Starts the composed app the way `freehire-api` does (`freehire_web::app` over
//! `freehire_api::router`, served by `freehire_api::serve_router`), and a [`Browser`]: a
//! client that keeps its cookies and does not follow redirects, like a browser without
//! JavaScript.

use std::{collections::BTreeMap, sync::Arc, sync::Mutex};

use chrono::{DateTime, TimeZone, Utc};
use freehire_api::{AppState, ServerLimits};
use freehire_app::accounts::Accounts;
use freehire_domain::{
    CountryCode, Facets, JobPosting, Provider, Region, Salary, SalaryPeriod, Seniority, WorkMode,
};
use freehire_search::{EmbeddedIndex, SearchDocument, SearchIndex, indexable};
use freehire_store::{ListPage, testing::TestDb};
use freehire_web::WebState;

/// The pinned clock of the tests.
pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, 12, 0, 0).unwrap()
}

pub struct Server {
    pub base: String,
    pub db: TestDb,
    /// Where the server's mail is written (the file mailer).
    pub mail: tempfile::TempDir,
    /// The search index the server reads, if any.
    pub index: Option<Arc<dyn SearchIndex>>,
    /// The index directory, if any.
    pub _index: Option<tempfile::TempDir>,
}

impl Server {
    /// The composed app over `db`, with `index` as its search index (none: search is off).
    pub async fn start(
        db: TestDb,
        index: Option<(Arc<dyn SearchIndex>, tempfile::TempDir)>,
    ) -> Self {
        Self::start_mapped(db, index, |state| state).await
    }

    /// [`Server::start`] with the API's state changed by `map` first (the pages share its
    /// assistant).
    pub async fn start_mapped(
        db: TestDb,
        index: Option<(Arc<dyn SearchIndex>, tempfile::TempDir)>,
        map: impl FnOnce(AppState) -> AppState,
    ) -> Self {
        let mail = tempfile::tempdir().unwrap();
        let store = db.store.clone();
        let accounts = Accounts::ephemeral(store.clone(), mail.path());
        let mut state = AppState { clock: now, ..AppState::new(store.clone(), accounts) };
        let mut dir = None;
        let mut served = None;
        if let Some((index, d)) = index {
            state = state.with_search(index.clone());
            served = Some(index);
            dir = Some(d);
        }
        let state = map(state);
        let pages = WebState {
            clock: now,
            secure_cookies: state.cookie.secure,
            ..WebState::new(store, state.accounts.clone(), state.search.clone(), state.throttle())
        }
        .with_assistant(state.assistant.clone());
        let app = freehire_web::app(pages, freehire_api::router(state));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(freehire_api::serve_router(
            listener,
            app,
            ServerLimits::default(),
            std::future::pending(),
        ));
        Self { base, db, mail, index: served, _index: dir }
    }

    /// The catalogue of [`postings`] stored and indexed like the drain does, served.
    pub async fn indexed(db: TestDb) -> Self {
        Self::with_postings(db, postings()).await
    }

    /// `postings` stored (one a day from day 11) and indexed like the drain does (the
    /// companies index too), served.
    pub async fn with_postings(db: TestDb, postings: Vec<JobPosting>) -> Self {
        Self::with_postings_mapped(db, postings, |state| state).await
    }

    /// [`Server::indexed`] with the API's state changed by `map` first.
    pub async fn indexed_mapped(db: TestDb, map: impl FnOnce(AppState) -> AppState) -> Self {
        Self::with_postings_mapped(db, postings(), map).await
    }

    async fn with_postings_mapped(
        db: TestDb,
        postings: Vec<JobPosting>,
        map: impl FnOnce(AppState) -> AppState,
    ) -> Self {
        for (i, p) in postings.into_iter().enumerate() {
            db.store().upsert_jobs(&[p], day(11 + (i % 8) as u32)).await.unwrap();
        }
        let jobs = db.store().list_open_jobs(ListPage::new(100, 0)).await.unwrap().jobs;
        let docs: Vec<SearchDocument> = jobs
            .iter()
            .filter(|j| indexable(j))
            .map(|j| SearchDocument::from_job(j, day(20)))
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let index = Arc::new(EmbeddedIndex::open(dir.path()).unwrap());
        index.upsert(docs).await.unwrap();
        freehire_app::company_index::rebuild(db.store(), index.as_ref(), day(20)).await.unwrap();
        Self::start_mapped(db, Some((index, dir)), map).await
    }

    /// The composed app over `db` and an empty index (a fresh installation after the worker's
    /// first run).
    pub async fn empty(db: TestDb) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let index = Arc::new(EmbeddedIndex::open(dir.path()).unwrap());
        Self::start(db, Some((index, dir))).await
    }

    /// The code of the newest mail to `to` about `what` ("verification", "password reset"),
    /// waiting up to 5 s (some mail is sent in the background); `skip` older ones first.
    pub async fn mailed_code(&self, to: &str, what: &str, skip: usize) -> String {
        for _ in 0..100 {
            let mut mails: Vec<(std::path::PathBuf, String)> = std::fs::read_dir(self.mail.path())
                .unwrap()
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "eml"))
                .map(|p| {
                    let text = std::fs::read_to_string(&p).unwrap_or_default();
                    (p, text)
                })
                .filter(|(_, text)| {
                    text.lines().any(|l| l.eq_ignore_ascii_case(&format!("to: {to}")))
                        && text.contains(&format!("is your freehire {what} code"))
                })
                .collect();
            mails.sort();
            if mails.len() > skip {
                let text = &mails[mails.len() - 1].1;
                let subject = text.lines().find(|l| l.starts_with("Subject: ")).unwrap();
                return subject["Subject: ".len()..]["".len()..6].to_owned();
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("no {what} mail to {to}");
    }
}

pub fn day(d: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, d, 9, 0, 0).unwrap()
}

pub fn posting(external_id: &str, title: &str) -> JobPosting {
    JobPosting {
        source: Provider::parse("greenhouse").unwrap(),
        external_id: format!("acme:{external_id}"),
        url: format!("https://boards.greenhouse.io/acme/jobs/{external_id}"),
        title: title.to_owned(),
        company: "Acme".to_owned(),
        location: "Remote - EU".to_owned(),
        description: "<p>Hello</p>".to_owned(),
        remote: true,
        posted_at: Some(Utc.with_ymd_and_hms(2026, 11, 10, 8, 0, 0).unwrap()),
        facets: Facets {
            regions: vec![Region::Eu],
            work_mode: Some(WorkMode::Remote),
            is_tech: Some(true),
            skills: vec!["rust".into()],
            ..Facets::default()
        },
        salary: None,
        role_fingerprint: String::new(),
        structured: Default::default(),
    }
}

/// Five open jobs at four companies:
/// - Acme "Rust Engineer": remote, EU, rust + postgresql, senior, 80–100k EUR;
/// - Acme "Go Engineer": remote, EU, go + postgresql, middle;
/// - Globex "Staff Rust Engineer": hybrid, Germany (Berlin), rust, staff;
/// - Initech "Product Designer": onsite, US;
/// - Evil Corp "<script>alert(1)</script> Engineer": remote, EU (a title that must be escaped).
pub fn postings() -> Vec<JobPosting> {
    let mut rust = posting("1", "Rust Engineer");
    rust.description = "<h2>About the role</h2><p>Build <strong>fast</strong> services.</p>".into();
    rust.facets.skills = vec!["postgresql".into(), "rust".into()];
    rust.facets.seniority = Some(Seniority::Senior);
    rust.salary =
        Some(Salary::new(Some(80_000), Some(100_000), "EUR", SalaryPeriod::Year).unwrap());

    let mut go = posting("2", "Go Engineer");
    go.facets.skills = vec!["go".into(), "postgresql".into()];
    go.facets.seniority = Some(Seniority::Middle);

    let mut staff = posting("3", "Staff Rust Engineer");
    staff.company = "Globex".into();
    staff.location = "Berlin, Germany".into();
    staff.remote = false;
    staff.facets.countries = vec![CountryCode::parse("de").unwrap()];
    staff.facets.cities = vec!["Berlin".into()];
    staff.facets.work_mode = Some(WorkMode::Hybrid);
    staff.facets.seniority = Some(Seniority::Staff);

    let mut designer = posting("4", "Product Designer");
    designer.company = "Initech".into();
    designer.location = "Austin, TX".into();
    designer.remote = false;
    designer.facets.regions = vec![Region::NorthAmerica];
    designer.facets.countries = vec![CountryCode::parse("us").unwrap()];
    designer.facets.work_mode = Some(WorkMode::Onsite);
    designer.facets.skills = vec![];
    designer.facets.is_tech = Some(false);

    let mut evil = posting("5", "<script>alert(1)</script> Engineer");
    evil.company = "Evil <b>Corp</b>".into();
    vec![rust, go, staff, designer, evil]
}

/// One answer.
#[derive(Debug)]
pub struct Page {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: String,
}

impl Page {
    /// The `Location` of a redirect.
    pub fn location(&self) -> &str {
        self.headers.get("location").and_then(|v| v.to_str().ok()).unwrap_or_default()
    }

    /// The value of the hidden `csrf` field of the page's (first) form.
    pub fn csrf(&self) -> String {
        let at = self.body.find("name=\"csrf\" value=\"").expect("a form with a csrf field");
        let rest = &self.body[at + "name=\"csrf\" value=\"".len()..];
        rest[..rest.find('"').unwrap()].to_owned()
    }
}

/// A browser without JavaScript: keeps cookies, follows nothing by itself.
pub struct Browser<'a> {
    pub server: &'a Server,
    http: reqwest::Client,
    pub cookies: Mutex<BTreeMap<String, String>>,
}

impl<'a> Browser<'a> {
    pub fn new(server: &'a Server) -> Self {
        let http =
            reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        Self { server, http, cookies: Mutex::default() }
    }

    fn cookie_header(&self) -> Option<String> {
        let jar = self.cookies.lock().unwrap();
        (!jar.is_empty())
            .then(|| jar.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; "))
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> Page {
        let request = match self.cookie_header() {
            Some(c) => request.header("cookie", c),
            None => request,
        };
        let res = request.send().await.unwrap();
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        for set in headers.get_all("set-cookie") {
            let set = set.to_str().unwrap();
            let pair = set.split(';').next().unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            let mut jar = self.cookies.lock().unwrap();
            if set.contains("Max-Age=0") || value.is_empty() {
                jar.remove(name);
            } else {
                jar.insert(name.to_owned(), value.to_owned());
            }
        }
        Page { status, headers, body: res.text().await.unwrap() }
    }

    pub async fn get(&self, path: &str) -> Page {
        self.send(self.http.get(format!("{}{path}", self.server.base))).await
    }

    /// A GET as htmx sends it.
    pub async fn get_htmx(&self, path: &str) -> Page {
        self.get_with(path, &[("HX-Request", "true")]).await
    }

    /// A GET with extra headers.
    pub async fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Page {
        let mut request = self.http.get(format!("{}{path}", self.server.base));
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        self.send(request).await
    }

    /// Posts a form as is (no CSRF field added).
    pub async fn post_raw(&self, path: &str, form: &[(&str, &str)]) -> Page {
        let mut body = url::form_urlencoded::Serializer::new(String::new());
        for (k, v) in form {
            body.append_pair(k, v);
        }
        let request = self
            .http
            .post(format!("{}{path}", self.server.base))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body.finish());
        self.send(request).await
    }

    /// Posts a form with the CSRF token of the page at `from` (GET first, as a user would).
    pub async fn submit(&self, from: &str, action: &str, form: &[(&str, &str)]) -> Page {
        let token = self.get(from).await.csrf();
        let mut fields: Vec<(&str, &str)> = vec![("csrf", token.as_str())];
        fields.extend_from_slice(form);
        self.post_raw(action, &fields).await
    }

    /// The `Cookie` header this browser sends (for a hand-made request).
    pub fn cookie_header_value(&self) -> String {
        self.cookie_header().unwrap_or_default()
    }

    /// The session cookie, if signed in.
    pub fn session(&self) -> Option<String> {
        self.cookies.lock().unwrap().get("freehire_session").cloned()
    }

    /// A JSON API call with this browser's cookies.
    pub async fn api(&self, path: &str) -> (u16, serde_json::Value) {
        let page = self.get(path).await;
        (page.status, serde_json::from_str(&page.body).unwrap_or(serde_json::Value::Null))
    }
}

macro_rules! on_both_backends {
    ($($test:ident),* $(,)?) => {
        mod sqlite { $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() { super::$test(freehire_store::testing::TestDb::sqlite().await).await }
        )* }
        mod postgres { $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() { super::$test(freehire_store::testing::TestDb::postgres().await).await }
        )* }
    };
}
pub(crate) use on_both_backends;
