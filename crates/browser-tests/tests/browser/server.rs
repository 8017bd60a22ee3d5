//! The server under test, composed the way `freehire-api` composes it (start-up over a real
//! SQLite file and embedded index, the accounts service from the same arguments with the file
//! mailer, the JSON API and the web pages on one router), on 127.0.0.1:0 in this process,
//! over the offline demo's catalogue (`freehire_app::demo::ingest`: real recorded boards
//! through the real adapters and the replay mechanism, as `cargo xtask run --demo` does).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use freehire_api::{AppState, ServerLimits, auth::cookie::CookieConfig};
use freehire_app::assistant::{model::AssistantModel, service::AssistantService, turns::TurnLocks};
use freehire_app::notify::{NotifyArgs, PassStats};
use freehire_app::plans::Plans;
use freehire_app::{accounts::AccountsArgs, search_engine::SearchEngineArgs};
use freehire_domain::plan::PlanPolicy;
use freehire_domain::{Facets, JobId, JobPosting, Provider};
use freehire_llm::{OpenAiClient, OpenAiConfig};
use freehire_store::{DatabaseUrl, Store};
use freehire_web::WebState;

/// A running server and what the tests read beside it.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// How many jobs the catalogue holds.
    pub jobs: usize,
    /// The server's store (the same database file).
    store: Arc<dyn Store>,
    dir: tempfile::TempDir,
}

impl Server {
    /// A fresh database and index holding the seeded catalogue, served.
    pub async fn start() -> Self {
        Self::start_with(None).await
    }

    /// [`Server::start`] with the assistant turning on `model` under the plan `policy` (else
    /// the environment's, as the binary).
    pub async fn start_with(model: Option<(String, PlanPolicy)>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url: DatabaseUrl =
            format!("sqlite://{}", dir.path().join("freehire.db").display()).parse().unwrap();
        let search =
            SearchEngineArgs { index_dir: dir.path().join("index"), ..SearchEngineArgs::default() };
        let services = freehire_app::startup::open(&url, &search).await.unwrap();
        // The offline demo's path: the recorded boards crawled by the real adapters over the
        // replay mechanism, drained into the index the server then opens for reading.
        let writer = services.writer().await.unwrap();
        let demo =
            freehire_app::demo::ingest(services.store.as_ref(), writer.as_ref()).await.unwrap();
        drop(writer);
        assert_eq!(demo.run.failed, 0, "every demo board is crawled: {demo:?}");
        let jobs = usize::try_from(demo.drained.indexed).unwrap();
        assert!(jobs > 0, "the demo has jobs: {demo:?}");
        let args = AccountsArgs { mail_dir: Some(dir.path().join("mail")), ..Default::default() };
        let accounts = args.accounts(services.store.clone(), &url).unwrap();
        let cookie = CookieConfig { secure: args.cookie_secure };
        let mut state = AppState::open(&services, accounts, cookie).await;
        if let Some((base_url, policy)) = model {
            let client = OpenAiClient::new(OpenAiConfig::new(base_url, "scripted")).unwrap();
            let store = services.store.clone();
            let search = state.search.clone();
            state = state.with_assistant(AssistantService::new(
                store.clone(),
                search,
                Some(AssistantModel::new(client, None)),
                Plans::new(store, policy, chrono::Utc::now),
                TurnLocks::local(),
                chrono::Utc::now,
            ));
        }
        let pages = WebState {
            secure_cookies: state.cookie.secure,
            ..WebState::new(
                services.store.clone(),
                state.accounts.clone(),
                state.search.clone(),
                state.throttle(),
            )
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
        Self { base, jobs, store: services.store.clone(), dir }
    }

    /// What the JSON API says the total of the search `query` (`q=rust&skills=go`) is: the
    /// pages must show the same.
    pub async fn api_total(&self, query: &str) -> usize {
        let url = format!("{}/api/v1/jobs/search?{query}", self.base);
        let body: serde_json::Value = reqwest::get(&url).await.unwrap().json().await.unwrap();
        let total = body["meta"]["total"].as_u64().unwrap_or_else(|| panic!("{url}: {body}"));
        usize::try_from(total).unwrap()
    }

    /// What the JSON API answers for `GET /companies?{query}`.
    pub async fn api_companies(&self, query: &str) -> serde_json::Value {
        let url = format!("{}/api/v1/companies?{query}", self.base);
        let body: serde_json::Value = reqwest::get(&url).await.unwrap().json().await.unwrap();
        assert!(body["data"].is_array(), "{url}: {body}");
        body
    }

    /// Merges the company `alias` into `into`, as `freehire merge-companies --apply` does.
    pub async fn merge_companies(&self, alias: &str, into: &str) {
        let slug = |s: &str| freehire_domain::CompanySlug::parse(s).unwrap();
        let reason = freehire_domain::AliasReason::Spelling;
        self.store
            .merge_companies(&slug(alias), &slug(into), reason, chrono::Utc::now())
            .await
            .unwrap();
    }

    /// The public slug of the first job the JSON API lists.
    pub async fn first_slug(&self) -> String {
        let url = format!("{}/api/v1/jobs?limit=1", self.base);
        let body: serde_json::Value = reqwest::get(&url).await.unwrap().json().await.unwrap();
        body["data"][0]["public_slug"]
            .as_str()
            .unwrap_or_else(|| panic!("{url}: {body}"))
            .to_owned()
    }

    /// The job the JSON API answers for `slug`.
    pub async fn api_job(&self, slug: &str) -> serde_json::Value {
        let url = format!("{}/api/v1/jobs/{slug}", self.base);
        let body: serde_json::Value = reqwest::get(&url).await.unwrap().json().await.unwrap();
        assert!(body["data"].is_object(), "{url}: {body}");
        body["data"].clone()
    }

    /// The status `GET /api/v1/auth/me` answers with `key` as the bearer token.
    pub async fn me_with_key(&self, key: &str) -> u16 {
        let url = format!("{}/api/v1/auth/me", self.base);
        let client = reqwest::Client::new();
        client.get(&url).bearer_auth(key).send().await.unwrap().status().as_u16()
    }

    /// The email `whoami` answers over MCP at `endpoint` with `key` (one stateless
    /// `tools/call`, as an MCP client sends it).
    pub async fn mcp_whoami(&self, endpoint: &str, key: &str) -> String {
        let call = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "whoami", "arguments": {}}});
        let answer = reqwest::Client::new()
            .post(endpoint)
            .bearer_auth(key)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18")
            .json(&call)
            .send()
            .await
            .unwrap();
        let status = answer.status();
        let text = answer.text().await.unwrap();
        let body: serde_json::Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("MCP answered {status} {text:?}: {e}"));
        body["result"]["structuredContent"]["email"].as_str().unwrap_or_default().to_owned()
    }

    /// Where the file mailer writes.
    pub fn mail_dir(&self) -> PathBuf {
        self.dir.path().join("mail")
    }

    /// The code of the `nth` (from 0) mail to `to` about `what` ("verification", "password
    /// reset"), read from the file mailer's `.eml` files, waiting up to 10 s for it (some mail
    /// is sent in the background).
    pub async fn mailed_code(&self, to: &str, what: &str, nth: usize) -> String {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let codes = codes(&self.mail_dir(), to, what);
            if let Some(code) = codes.get(nth) {
                return code.clone();
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "no {what} mail #{nth} to {to} in {}",
                self.mail_dir().display()
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
}

impl Server {
    /// Banks `claim` for the account of `email` as the assistant's own reading
    /// (`agent_inferred`), as a profile conversation without a backing quote would.
    pub async fn bank_inferred(&self, email: &str, claim: &str) {
        let email = freehire_domain::Email::parse(email).unwrap();
        let user = self.store.credentials_by_email(&email).await.unwrap().unwrap().user;
        let draft = freehire_domain::AtomDraft::claim(claim);
        let written = self
            .store
            .add_atom(user.id, &draft, freehire_domain::Author::Agent, chrono::Utc::now())
            .await
            .unwrap();
        assert!(matches!(written, freehire_store::AtomWrite::Inserted(_)), "{written:?}");
    }

    /// Records a failure of `class` with `error` on the first board of the catalogue, as a
    /// crawl that met it would; returns the board as `provider/board`.
    pub async fn fail_a_board(&self, class: freehire_domain::FailureClass, error: &str) -> String {
        let boards = self.store.list_boards(&freehire_store::BoardFilter::default()).await.unwrap();
        let board = boards.first().expect("the demo catalogue has boards");
        self.store
            .record_board_failure(&board.key, class, error, chrono::Utc::now())
            .await
            .unwrap();
        board.key.to_string()
    }

    /// A new job in the catalogue, as a crawl would store it, first seen now.
    pub async fn add_job(&self, title: &str) -> JobId {
        let posting = JobPosting {
            source: Provider::parse("greenhouse").unwrap(),
            external_id: format!("browser-suite:{title}"),
            url: "https://jobs.example.com/browser-suite".to_owned(),
            title: title.to_owned(),
            company: "Browser Suite Ltd".to_owned(),
            location: "Berlin".to_owned(),
            description: "<p>Build things.</p>".to_owned(),
            remote: false,
            posted_at: None,
            facets: Facets::default(),
            salary: None,
            role_fingerprint: String::new(),
            structured: Default::default(),
        };
        let stored = self.store.upsert_jobs(&[posting], chrono::Utc::now()).await.unwrap();
        stored[0].id
    }

    /// One pass of every notification engine against this server's database, configured as
    /// `freehire-worker --notify-once` configures it (its `NotifyArgs`): the file mailer in
    /// this server's mail folder, links to this server.
    pub async fn notify_pass(&self) -> PassStats {
        let args = NotifyArgs {
            notify_every_secs: 300,
            remind_every_secs: 900,
            nudge_every_secs: 3600,
            deliver_every_secs: 60,
            notify_lease_secs: 300,
            public_url: self.base.clone(),
            webhook_allow_private: false,
            smtp_url: None,
            mail_from: None,
            mail_dir: Some(self.mail_dir()),
        };
        let notifier = args.notifier(self.store.clone(), "browser-suite").unwrap();
        notifier.run_pass(chrono::Utc::now()).await.unwrap()
    }

    /// The text of every mail to `to` whose subject contains `about`, oldest first (decoded).
    pub fn mails(&self, to: &str, about: &str) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.mail_dir()) else { return Vec::new() };
        let mut files: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .collect();
        files.sort();
        files
            .iter()
            .filter_map(|file| {
                let bytes = std::fs::read(file).ok()?;
                let mail = mail_parser::MessageParser::default().parse(&bytes)?;
                let to_them = mail
                    .to()
                    .and_then(|a| a.first())
                    .and_then(|a| a.address())
                    .is_some_and(|a| a.eq_ignore_ascii_case(to));
                let subject = mail.subject().unwrap_or_default();
                (to_them && subject.contains(about))
                    .then(|| mail.body_text(0))?
                    .map(|t| t.into_owned())
            })
            .collect()
    }
}

/// The codes of the mails to `to` about `what`, oldest first (the mailer's file names sort in
/// sending order; the subject opens with the code).
fn codes(dir: &Path, to: &str, what: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    files.sort();
    let about = format!(" is your freehire {what} code");
    files
        .iter()
        .filter_map(|file| {
            let text = std::fs::read_to_string(file).ok()?;
            text.lines().find(|l| l.eq_ignore_ascii_case(&format!("to: {to}")))?;
            let subject = text.lines().find_map(|l| l.strip_prefix("Subject: "))?;
            let code = subject.strip_suffix(&about)?;
            (code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit())).then(|| code.to_owned())
        })
        .collect()
}
