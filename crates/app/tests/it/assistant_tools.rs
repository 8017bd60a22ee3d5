//! The assistant's tool catalogue on both backends and a real embedded search index: every
//! tool's answer and error texts (reference §10.2, §10.3, §10.8), the cross-user rule, the
//! preset × group matrix of the real registries and the prompts that name only the tools a
//! session registers (`TestPromptOnlyNamesToolsThePresetHas`).

use std::sync::Arc;

use chrono::{DateTime, Duration, TimeZone, Utc};
use freehire_app::assistant::{
    ASSISTANT_RESULT_CAP, BANK_TOOLS, Binding, DISCOVERY_TOOLS, INTERVIEW_TOOLS, Preset,
    SCREENING_TOOLS, TRACKING_TOOLS, ToolDeps, all_tool_names, compose_session, normalize_preset,
    registry_for,
};
use freehire_app::search_slot::SearchSlot;
use freehire_app::tracking::{Tracking, TrackingFilter};
use freehire_assistant::{NewMessage, Role, SessionId};
use freehire_domain::{
    AtomDraft, Author, CountryCode, EmploymentDraft, EmploymentKind, EventKind, EventSource,
    Facets, JobId, JobPosting, PublicSlug, User, UserId, WorkMode,
};
use freehire_search::EmbeddedIndex;
use freehire_store::{AtomWrite, NewSession, Store, testing::TestDb};
use freehire_tools::{CallContext, Registry};
use serde_json::{Value, json};

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, 12, 0, 0).unwrap()
}

async fn user(s: &dyn Store, address: &str) -> User {
    crate::support::user(s, address, now()).await
}

fn posting(
    id: &str,
    title: &str,
    company: &str,
    skills: &[&str],
    country: &str,
    mode: WorkMode,
) -> JobPosting {
    JobPosting {
        location: "Berlin".to_owned(),
        description: format!("<p>Build <strong>fast</strong> things as a {title}.</p>"),
        remote: mode == WorkMode::Remote,
        facets: Facets {
            skills: skills.iter().map(|s| (*s).to_owned()).collect(),
            countries: vec![CountryCode::parse(country).unwrap()],
            work_mode: Some(mode),
            ..Facets::default()
        },
        ..crate::support::posting(id, title, company)
    }
}

/// The catalogue of the tests: five jobs in the store and in a real embedded index.
struct World {
    deps: ToolDeps,
    _dir: tempfile::TempDir,
    /// Rust Engineer (Acme, de), Rust Developer (Initech, fr), Go Engineer (Acme, de), Data
    /// Scientist (Umbrella, de), Staff Engineer (Hooli, de, a long description).
    slugs: Vec<PublicSlug>,
    ada: User,
    grace: User,
}

impl World {
    fn registry(&self) -> Registry<UserId> {
        registry_for(&self.deps, &binding(Preset::Chat, None))
    }

    async fn job_id(&self, i: usize) -> JobId {
        self.deps.store.job_by_slug(&self.slugs[i]).await.unwrap().unwrap().id
    }
}

async fn world(db: &TestDb) -> World {
    let s = db.store();
    let mut long = posting("5", "Staff Engineer", "Hooli", &["rust"], "de", WorkMode::Remote);
    long.description = format!("<p>{}</p>", "responsibility ".repeat(800));
    let postings = [
        posting("1", "Rust Engineer", "Acme", &["rust", "postgresql"], "de", WorkMode::Remote),
        posting("2", "Rust Developer", "Initech", &["rust", "kafka"], "fr", WorkMode::Onsite),
        posting("3", "Go Engineer", "Acme", &["go", "postgresql"], "de", WorkMode::Remote),
        posting("4", "Data Scientist", "Umbrella", &["python"], "de", WorkMode::Hybrid),
        long,
    ];
    let (deps, dir, slugs) = indexed(db, &postings).await;
    let ada = user(s, "ada@example.com").await;
    let grace = user(s, "grace@example.com").await;
    World { deps, _dir: dir, slugs, ada, grace }
}

/// `postings` written to the store and indexed in a real embedded index: the tools' deps, the
/// index directory (kept while the test runs) and the postings' slugs in order.
async fn indexed(
    db: &TestDb,
    postings: &[JobPosting],
) -> (ToolDeps, tempfile::TempDir, Vec<PublicSlug>) {
    let s = db.store();
    let written = s.upsert_jobs(postings, now() - Duration::days(1)).await.unwrap();
    let mut slugs = Vec::new();
    for w in written {
        slugs.push(s.jobs_by_ids(&[w.id]).await.unwrap().remove(0).public_slug);
    }
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    freehire_app::reindex::reindex(s, &index, now()).await.unwrap();
    let search = SearchSlot::open(Arc::new(index));
    (
        ToolDeps {
            store: Arc::clone(&db.store),
            search,
            clock: now,
            cvs: None,
            cover_letters: None,
        },
        dir,
        slugs,
    )
}

fn binding(preset: Preset, job_id: Option<JobId>) -> Binding {
    Binding {
        session: SessionId::random(),
        preset,
        job_id,
        cv_id: None,
        batch: uuid::Uuid::new_v4(),
    }
}

/// Calls `name` for `owner`: the result, or the error text of `{"error": …}`.
async fn call(
    reg: &Registry<UserId>,
    owner: &User,
    name: &str,
    args: Value,
) -> Result<Value, String> {
    let result = reg.call(&CallContext::default(), &owner.id, name, &args.to_string()).await;
    let value: Value = serde_json::from_str(&result.content).unwrap();
    if result.failed {
        assert_eq!(value.as_object().unwrap().len(), 1, "an error envelope: {value}");
        Err(value["error"].as_str().unwrap().to_owned())
    } else {
        Ok(value)
    }
}

fn slugs_of(jobs: &Value) -> Vec<String> {
    jobs.as_array().unwrap().iter().map(|j| j["public_slug"].as_str().unwrap().to_owned()).collect()
}

// scenario: Discovery tools read the catalogue and the index
pub async fn discovery_tools_answer_from_the_catalogue_and_the_index(db: &TestDb) {
    let w = world(db).await;
    let reg = w.registry();
    let ada = &w.ada;

    // facets: live counts; an unknown filter name lists the valid ones; blank values drop.
    let f = call(&reg, ada, "facets", json!({})).await.unwrap();
    assert_eq!(f["total"], 5);
    assert_eq!(f["facets"]["skills"]["rust"], 3);
    let f =
        call(&reg, ada, "facets", json!({"filters": {"countries": ["de", " "]}})).await.unwrap();
    assert_eq!(f["total"], 4);
    let e = call(&reg, ada, "facets", json!({"filters": {"skill": ["rust"]}})).await.unwrap_err();
    assert!(
        e.starts_with("unknown filter \"skill\" — call the facets tool for the valid filter names and values; valid names are: "),
        "{e}"
    );
    assert!(
        e.contains("countries, domains") && e.contains("skills") && e.contains("salary_min"),
        "{e}"
    );
    let e = call(&reg, ada, "facets", json!({"filters": {"work_mode": ["underwater"]}}))
        .await
        .unwrap_err();
    assert!(e.contains("work_mode") && e.contains("underwater") && e.contains("remote"), "{e}");

    // search_jobs: filters, markdown descriptions, the page bounds.
    let r =
        call(&reg, ada, "search_jobs", json!({"query": "rust", "filters": {"countries": ["de"]}}))
            .await
            .unwrap();
    assert_eq!(r["total"], 1, "{r}");
    assert_eq!(slugs_of(&r["jobs"]), [w.slugs[0].to_string()]);
    let desc = r["jobs"][0]["description"].as_str().unwrap();
    assert!(desc.contains("**fast**") && !desc.contains("<p>"), "{desc}");
    assert!(r["jobs"][0].get("url").is_none(), "no links for the model");
    let all = call(&reg, ada, "search_jobs", json!({})).await.unwrap();
    assert_eq!(
        (all["limit"].clone(), all["offset"].clone(), all["total"].clone()),
        (json!(10), json!(0), json!(5))
    );
    let capped = call(&reg, ada, "search_jobs", json!({"limit": 50, "offset": -3})).await.unwrap();
    assert_eq!((capped["limit"].clone(), capped["offset"].clone()), (json!(20), json!(0)));
    let zero = call(&reg, ada, "search_jobs", json!({"limit": 0})).await.unwrap();
    assert_eq!(zero["limit"], 10);
    let page = call(&reg, ada, "search_jobs", json!({"limit": 2, "offset": 4})).await.unwrap();
    assert_eq!(page["jobs"].as_array().unwrap().len(), 1);

    // get_job and get_company.
    let slug = w.slugs[0].to_string();
    let job = call(&reg, ada, "get_job", json!({"slug": slug})).await.unwrap();
    assert_eq!(job["title"], "Rust Engineer");
    assert_eq!(job["skills"], json!(["rust", "postgresql"]));
    assert!(job["description"].as_str().unwrap().contains("**fast**"));
    assert_eq!(
        call(&reg, ada, "get_job", json!({"slug": "  "})).await.unwrap_err(),
        "slug is required"
    );
    assert_eq!(
        call(&reg, ada, "get_job", json!({"slug": "nope"})).await.unwrap_err(),
        "no vacancy with slug \"nope\""
    );
    let e = call(&reg, ada, "get_job", json!({})).await.unwrap_err();
    assert!(e.contains("slug"), "{e}");
    let e = call(&reg, ada, "get_job", json!({"slugg": "x"})).await.unwrap_err();
    assert!(e.contains("\"slugg\"") && e.contains("allowed: \"slug\""), "{e}");
    let e =
        call(&reg, ada, "present_jobs", json!({"jobs": [{"slug": "a", "note": "b", "nte": "c"}]}))
            .await
            .unwrap_err();
    assert!(e.contains("\"nte\" in jobs[0]") && e.contains("\"note\""), "{e}");
    let e = call(&reg, ada, "search_jobs", json!({"limit": "ten"})).await.unwrap_err();
    assert!(e.contains("limit"), "{e}");
    let acme = call(&reg, ada, "get_company", json!({"slug": "acme"})).await.unwrap();
    assert_eq!(acme["company"]["name"], "Acme");
    assert_eq!(acme["jobs"].as_array().unwrap().len(), 2);
    assert_eq!(acme["total_jobs"], 2);
    assert_eq!(
        call(&reg, ada, "get_company", json!({"slug": "globex"})).await.unwrap_err(),
        "no company with slug \"globex\""
    );

    // Without an index, the search tools say so.
    let off = ToolDeps { search: SearchSlot::none(), ..w.deps.clone() };
    let dark = registry_for(&off, &binding(Preset::Chat, None));
    for (tool, args) in [
        ("facets", json!({})),
        ("search_jobs", json!({})),
        ("market_fit", json!({"skills": ["rust"]})),
    ] {
        assert_eq!(call(&dark, ada, tool, args).await.unwrap_err(), "search is not available");
    }
}

// scenario: market_fit measures a set of skills
pub async fn market_fit_measures_coverage_gaps_and_top_skills(db: &TestDb) {
    let w = world(db).await;
    let reg = w.registry();
    let ada = &w.ada;
    let fit =
        call(&reg, ada, "market_fit", json!({"skills": ["rust", "kafka", "haskell", "rust"]}))
            .await
            .unwrap();
    assert_eq!(fit["total"], 5);
    assert_eq!(fit["covered"], 3);
    assert_eq!(fit["coverage_percent"], 60.0);
    assert_eq!(fit["coherence_percent"], 0);
    assert_eq!(
        fit["skills"],
        json!([
            {"skill": "rust", "vacancies": 3, "percent": 60.0},
            {"skill": "kafka", "vacancies": 1, "percent": 20.0},
            {"skill": "haskell", "vacancies": 0, "percent": 0.0},
        ])
    );
    assert_eq!(fit["gaps"], json!(["haskell"]));
    let top = fit["top_skills"].as_array().unwrap();
    assert_eq!(top[0], json!({"skill": "rust", "vacancies": 3, "measured": true}));
    assert!(top.contains(&json!({"skill": "postgresql", "vacancies": 2, "measured": false})));
    // The filter narrows the slice; a skills selection in it is not the measured set.
    let de = call(
        &reg,
        ada,
        "market_fit",
        json!({"skills": ["rust"], "filters": {"countries": ["de"], "skills": ["python"]}}),
    )
    .await
    .unwrap();
    assert_eq!((de["total"].clone(), de["covered"].clone()), (json!(4), json!(2)));
    assert_eq!(
        call(&reg, ada, "market_fit", json!({"skills": [" ", ""]})).await.unwrap_err(),
        "skills is required — list the canonical slugs to measure"
    );
    let many: Vec<String> = (0..21).map(|i| format!("skill-{i}")).collect();
    assert_eq!(
        call(&reg, ada, "market_fit", json!({"skills": many})).await.unwrap_err(),
        "too many skills (max 20)"
    );
}

// scenario: present_jobs validates and resolves every slug
pub async fn present_jobs_returns_a_receipt_and_names_what_is_wrong(db: &TestDb) {
    let w = world(db).await;
    let reg = w.registry();
    let ada = &w.ada;
    let (a, b) = (w.slugs[0].to_string(), w.slugs[2].to_string());
    let receipt = call(
        &reg,
        ada,
        "present_jobs",
        json!({"heading": "Rust in Berlin", "jobs": [
            {"slug": b, "note": "Go, but the team is moving to Rust.", "concerns": ["Go first"]},
            {"slug": "made-up-job-aaaaaaaa", "note": "Invented."},
            {"slug": a, "note": "A direct fit.", "why_fits": ["Rust", "Remote"]},
        ]}),
    )
    .await
    .unwrap();
    assert_eq!(receipt["presented"], json!([b, a]), "the model's order");
    assert_eq!(
        receipt["dropped"],
        json!([{"slug": "made-up-job-aaaaaaaa", "reason": "no vacancy has this public_slug — copy it from a search or read result"}])
    );
    let entry = |slug: &str| json!({"slug": slug, "note": "Fits."});
    let cases = [
        (json!({"jobs": []}), "jobs must contain at least one vacancy to show"),
        (json!({"jobs": vec![entry(&a); 11]}), "jobs has 11 entries; show at most 10"),
        (json!({"jobs": [entry(&a), {"slug": " ", "note": "x"}]}), "jobs[1] has no slug"),
        (json!({"jobs": [{"slug": a, "note": ""}]}), &format!("jobs[0] ({a}) has no note") as &str),
        (
            json!({"jobs": [{"slug": a, "note": "x", "why_fits": ["1", "2", "3", "4", "5"]}]}),
            &format!("jobs[0] ({a}) has 5 why_fits; give at most 4"),
        ),
        (
            json!({"jobs": [{"slug": a, "note": "x", "concerns": ["1", "2", "3", "4"]}]}),
            &format!("jobs[0] ({a}) has 4 concerns; give at most 3"),
        ),
        (
            json!({"jobs": [entry("ghost-one-aaaaaaaa"), entry("ghost-two-bbbbbbbb")]}),
            "none of these slugs exist, so there is nothing to show: ghost-one-aaaaaaaa, ghost-two-bbbbbbbb",
        ),
    ];
    for (args, want) in cases {
        let e = call(&reg, ada, "present_jobs", args.clone()).await.unwrap_err();
        assert!(e.starts_with(want), "{args}: {e}");
    }
    // It writes no state.
    let mine = call(&reg, ada, "my_jobs", json!({"filter": "all"})).await.unwrap();
    assert_eq!(mine["total"], 0);
}

// scenario: Tracking tools act for the session owner
pub async fn tracking_tools_save_apply_stage_and_list(db: &TestDb) {
    let w = world(db).await;
    let reg = w.registry();
    let ada = &w.ada;
    let slug = w.slugs[0].to_string();

    let p = call(&reg, ada, "get_profile", json!({})).await.unwrap();
    assert_eq!(p["profile"], Value::Null);
    assert!(p["next"].as_str().unwrap().contains("/account"), "{p}");

    let saved = call(&reg, ada, "save_job", json!({"slug": slug})).await.unwrap();
    assert_eq!((saved["saved"].clone(), saved["public_slug"].clone()), (json!(true), json!(slug)));
    let again = call(&reg, ada, "save_job", json!({"slug": slug})).await.unwrap();
    assert_eq!(again["saved"], true, "idempotent");
    let unsaved = call(&reg, ada, "unsave_job", json!({"slug": slug})).await.unwrap();
    assert_eq!(unsaved["saved"], false);
    let applied = call(&reg, ada, "apply_job", json!({"slug": slug})).await.unwrap();
    assert_eq!(applied["stage"], "applied");
    call(&reg, ada, "apply_job", json!({"slug": slug})).await.unwrap();
    let detail =
        Tracking::new(Arc::clone(&w.deps.store)).detail(ada.id, &slug, now()).await.unwrap();
    let applied_events: Vec<_> =
        detail.events.iter().filter(|e| e.kind == EventKind::Applied).collect();
    assert_eq!(applied_events.len(), 1, "applying twice records one application");
    assert_eq!(applied_events[0].source, EventSource::Assistant);

    let staged = call(
        &reg,
        ada,
        "track_job",
        json!({"slug": slug, "stage": "interview", "note": "Call on Monday."}),
    )
    .await
    .unwrap();
    assert_eq!(
        (staged["stage"].clone(), staged["notes"].clone()),
        (json!("interview"), json!("Call on Monday."))
    );
    let noted = call(&reg, ada, "track_job", json!({"slug": slug, "note": "Bring the portfolio."}))
        .await
        .unwrap();
    assert_eq!(noted["notes"], "Call on Monday.\nBring the portfolio.", "notes are appended");
    assert_eq!(noted["stage"], "interview");
    for args in [json!({"slug": slug}), json!({"slug": slug, "stage": " ", "note": "  "})] {
        assert_eq!(
            call(&reg, ada, "track_job", args).await.unwrap_err(),
            "nothing to change — pass a stage, a note, or both"
        );
    }
    assert_eq!(
        call(&reg, ada, "track_job", json!({"slug": slug, "stage": "ghosted"})).await.unwrap_err(),
        "unknown stage \"ghosted\" — valid stages are: preparing, applied, screening, responded, interview, offer, accepted, rejected, withdrawn, expired"
    );
    for tool in ["save_job", "unsave_job", "apply_job"] {
        assert_eq!(
            call(&reg, ada, tool, json!({"slug": "no-such-job-aaaaaaaa"})).await.unwrap_err(),
            "no vacancy with slug \"no-such-job-aaaaaaaa\" — use the public_slug from a search result",
            "{tool}"
        );
        assert_eq!(
            call(&reg, ada, tool, json!({"slug": ""})).await.unwrap_err(),
            "slug is required"
        );
    }
    assert_eq!(
        call(&reg, ada, "track_job", json!({"slug": "Not A Slug", "stage": "offer"}))
            .await
            .unwrap_err(),
        "no vacancy with slug \"Not A Slug\" — use the public_slug from a search result"
    );

    // my_jobs: the board by default, every filter, the page bounds.
    call(&reg, ada, "save_job", json!({"slug": w.slugs[1].to_string()})).await.unwrap();
    Tracking::new(Arc::clone(&w.deps.store)).dismiss(ada.id, &w.slugs[3], now()).await.unwrap();
    let board = call(&reg, ada, "my_jobs", json!({})).await.unwrap();
    assert_eq!((board["filter"].clone(), board["total"].clone()), (json!("board"), json!(1)));
    assert_eq!(board["jobs"][0]["stage"], "interview");
    assert_eq!(board["jobs"][0]["notes"], "Call on Monday.\nBring the portfolio.");
    for (filter, total) in [("all", 3), ("saved", 1), ("applied", 1), ("dismissed", 1)] {
        let page = call(&reg, ada, "my_jobs", json!({"filter": filter})).await.unwrap();
        assert_eq!(page["total"], total, "{filter}");
    }
    let dismissed = call(&reg, ada, "my_jobs", json!({"filter": "dismissed"})).await.unwrap();
    assert_eq!(slugs_of(&dismissed["jobs"]), [w.slugs[3].to_string()]);
    assert_eq!(
        call(&reg, ada, "my_jobs", json!({"filter": "archived"})).await.unwrap_err(),
        "unknown filter \"archived\" — use all, viewed, saved, applied, board or dismissed"
    );
    let one = call(&reg, ada, "my_jobs", json!({"filter": "all", "limit": 1})).await.unwrap();
    assert_eq!((one["jobs"].as_array().unwrap().len(), one["total"].clone()), (1, json!(3)));

    // get_profile now summarises what exists.
    let p = call(&reg, ada, "get_profile", json!({})).await.unwrap();
    assert_eq!(p["account"]["language"], "en");
    assert_eq!(p["tracking"]["tracked"], 3);
    assert_eq!(p["tracking"]["saved"], 1);
    assert_eq!(p["tracking"]["board"]["interview"], 1);
    assert_eq!(p["saved_searches"], json!([]));

    // A saved search alone is a profile: it says what the candidate looks for.
    let grace = &w.grace;
    db.seed().await.saved_search(grace.id, "Rust in Berlin", "q=rust&countries=de", now()).await;
    let p = call(&reg, grace, "get_profile", json!({})).await.unwrap();
    assert_eq!(
        p["saved_searches"],
        json!([{"name": "Rust in Berlin", "query": "q=rust&countries=de"}])
    );
    assert_eq!(p["tracking"]["tracked"], 0);
}

// scenario: my_jobs pages are capped
pub async fn my_jobs_defaults_to_ten_and_caps_at_twenty(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let postings: Vec<JobPosting> = (0..22)
        .map(|i| {
            posting(
                &format!("p{i}"),
                &format!("Role {i}"),
                "Acme",
                &["rust"],
                "de",
                WorkMode::Remote,
            )
        })
        .collect();
    let written = s.upsert_jobs(&postings, now() - Duration::days(1)).await.unwrap();
    let tracking = Tracking::new(Arc::clone(&db.store));
    for w in &written {
        let job = s.jobs_by_ids(&[w.id]).await.unwrap().remove(0);
        tracking.save(ada.id, &job.public_slug, now()).await.unwrap();
    }
    let deps = ToolDeps {
        store: Arc::clone(&db.store),
        search: SearchSlot::none(),
        clock: now,
        cvs: None,
        cover_letters: None,
    };
    let reg = registry_for(&deps, &binding(Preset::Chat, None));
    let len = |v: &Value| v["jobs"].as_array().unwrap().len();
    let default = call(&reg, &ada, "my_jobs", json!({"filter": "saved"})).await.unwrap();
    assert_eq!((len(&default), default["total"].clone()), (10, json!(22)));
    let capped =
        call(&reg, &ada, "my_jobs", json!({"filter": "saved", "limit": 50})).await.unwrap();
    assert_eq!(len(&capped), 20);
    let negative =
        call(&reg, &ada, "my_jobs", json!({"filter": "saved", "limit": -1})).await.unwrap();
    assert_eq!(len(&negative), 10);
}

// scenario: Another user's tracking is not found through the tools
/// The cross-user table over the whole catalogue: Grace holds a saved vacancy, an application
/// with a stage and a note, a saved search and an interview session with a transcript; Ada's
/// registry, bound like Grace's session, calls every tool with Grace's slugs. A tool bound to
/// Grace's application is not found; the tools reading the caller's own state show Ada's
/// (nothing); the catalogue tools answer, showing nothing of Grace's; the writes start Ada's own
/// records. No answer carries anything of Grace's and her state never changes.
pub async fn another_users_tracking_is_not_found(db: &TestDb) {
    /// What Ada's call must answer.
    enum Expect {
        /// `{"error": …}` starting with this.
        NotFound(&'static str),
        /// An answer whose `field` is this: Ada's own state, which is empty.
        Own(&'static str, Value),
        /// An answer from the shared catalogue.
        Catalogue,
        /// A write on Ada's own record of the vacancy: her stage, never Grace's.
        Write,
    }
    const NOTE: &str = "grace-secret-note";
    const SEARCH: &str = "grace-secret-search";
    const QUERY: &str = "q=grace-secret-query";
    const LABEL: &str = "grace-secret-label";
    const MESSAGE: &str = "grace-secret-message";
    const CLAIM: &str = "grace-secret-claim about the kubernetes migration";
    const EMPLOYER: &str = "grace-secret-employer";
    let w = world(db).await;
    let (ada, grace) = (&w.ada, &w.grace);
    let s = db.store();
    let (tracked, saved, interviewed) =
        (w.slugs[1].to_string(), w.slugs[3].to_string(), w.slugs[2].to_string());
    let own = w.registry();
    call(&own, grace, "save_job", json!({"slug": saved})).await.unwrap();
    call(&own, grace, "apply_job", json!({"slug": tracked})).await.unwrap();
    call(&own, grace, "track_job", json!({"slug": tracked, "stage": "offer", "note": NOTE}))
        .await
        .unwrap();
    call(&own, grace, "apply_job", json!({"slug": interviewed})).await.unwrap();
    db.seed().await.saved_search(grace.id, SEARCH, QUERY, now()).await;
    call(&own, grace, "screening_answers_set", json!({"desired_salary_amount": 123_456}))
        .await
        .unwrap();
    let job = w.job_id(2).await;
    let session = NewSession {
        owner: grace.id,
        preset: "interview",
        label: Some(LABEL),
        cv_id: None,
        job_id: Some(job),
    };
    let session = s.create_session(session, now()).await.unwrap();
    let message = NewMessage { role: Role::User, content: json!({"text": MESSAGE}).to_string() };
    s.insert_message(session.id, grace.id, &message, now()).await.unwrap().unwrap();
    let job_draft = EmploymentDraft {
        company: EMPLOYER.to_owned(),
        role: "CTO".to_owned(),
        ..EmploymentDraft::new(EmploymentKind::Job)
    };
    let employment = s.create_employment(grace.id, &job_draft, now()).await.unwrap();
    let mut atoms = Vec::new();
    for claim in [CLAIM, "grace-secret-claim, the kubernetes migration"] {
        let draft = AtomDraft { employment_id: Some(employment.id), ..AtomDraft::claim(claim) };
        match s.add_atom(grace.id, &draft, Author::Candidate, now()).await.unwrap() {
            AtomWrite::Inserted(a) => atoms.push(a.id.to_string()),
            other => panic!("{other:?}"),
        }
    }
    let theirs = || async {
        let bank = (
            s.list_atoms(grace.id).await.unwrap(),
            s.list_employments(grace.id).await.unwrap().len(),
            s.experience_require_context(grace.id).await.unwrap(),
            s.screening_answers(grace.id).await.unwrap(),
        );
        let tracking = Tracking::new(Arc::clone(&w.deps.store));
        let all = tracking.list(grace.id, TrackingFilter::All, 20, 0, now()).await.unwrap();
        let cards: Vec<String> = all.cards.iter().map(|c| format!("{:?}", c.card)).collect();
        let searches = s.list_saved_searches(grace.id).await.unwrap();
        let messages = s.session_messages(session.id, grace.id, None).await.unwrap().unwrap();
        (cards, searches.len(), messages.len(), format!("{bank:?}"))
    };
    let before = theirs().await;
    assert_eq!((before.0.len(), before.1, before.2), (3, 1, 1), "{before:?}");

    // Ada's registry as Grace's session binds it: the full catalogue.
    let graces = Binding {
        session: session.id,
        preset: Preset::Interview,
        job_id: Some(job),
        cv_id: None,
        batch: uuid::Uuid::new_v4(),
    };
    let reg = registry_for(&w.deps, &graces);
    let slug = |s: &str| json!({ "slug": s });
    // In this order: the reads of Ada's own state come before her writes.
    let table = [
        ("interview_context", json!({}), Expect::NotFound("application not found")),
        ("get_profile", json!({}), Expect::Own("profile", Value::Null)),
        ("my_jobs", json!({"filter": "all"}), Expect::Own("total", json!(0))),
        ("my_jobs", json!({"filter": "board"}), Expect::Own("total", json!(0))),
        ("my_jobs", json!({"filter": "saved"}), Expect::Own("total", json!(0))),
        ("my_jobs", json!({"filter": "applied"}), Expect::Own("total", json!(0))),
        ("facets", json!({"filters": {"skills": ["kafka"]}}), Expect::Catalogue),
        ("search_jobs", json!({"query": "rust"}), Expect::Catalogue),
        ("get_job", slug(&tracked), Expect::Catalogue),
        ("get_company", slug("initech"), Expect::Catalogue),
        ("market_fit", json!({"skills": ["kafka", "rust"]}), Expect::Catalogue),
        ("present_jobs", json!({"jobs": [{"slug": tracked, "note": "Fits."}]}), Expect::Catalogue),
        ("experience_employments", json!({}), Expect::Own("employments", json!([]))),
        ("experience_search", json!({"query": CLAIM}), Expect::Own("evidence", json!([]))),
        (
            "experience_get",
            json!({"ids": [atoms[0]]}),
            Expect::Own("unresolved", json!([atoms[0]])),
        ),
        (
            "experience_update",
            json!({"id": atoms[0], "skills": ["rust"]}),
            Expect::NotFound("achievement not found"),
        ),
        ("experience_merge", json!({"ids": atoms}), Expect::NotFound("achievement not found")),
        (
            "experience_add",
            json!({"claim": "Led the migration", "employment_id": employment.id.to_string()}),
            Expect::NotFound("this candidate has no roles on file yet"),
        ),
        (
            "experience_set_require_context",
            json!({"enabled": true}),
            Expect::Own("require_context", json!(true)),
        ),
        (
            "screening_answers_set",
            json!({"notice_period_days": 30}),
            Expect::Own("screening_answers", json!({"notice_period_days": 30})),
        ),
        ("unsave_job", slug(&saved), Expect::Write),
        ("save_job", slug(&saved), Expect::Write),
        ("apply_job", slug(&tracked), Expect::Write),
        ("track_job", json!({"slug": tracked, "note": "Ada's own note."}), Expect::Write),
        ("track_job", json!({"slug": interviewed, "stage": "withdrawn"}), Expect::Write),
    ];

    // Every registered tool has a row: a new tool cannot be added without one.
    let mut registered = std::collections::BTreeSet::new();
    for preset in Preset::ALL {
        for job in [None, Some(job)] {
            let reg = registry_for(&w.deps, &binding(preset, job));
            registered.extend(reg.names().into_iter().map(str::to_owned));
        }
    }
    let rows: std::collections::BTreeSet<String> =
        table.iter().map(|(name, ..)| (*name).to_owned()).collect();
    assert_eq!(rows, registered, "the table covers exactly the registered tools");
    assert_eq!(reg.names().len(), registered.len(), "the session's registry is the full catalogue");

    for (tool, args, expect) in table {
        let answer = call(&reg, ada, tool, args.clone()).await;
        let text = match &answer {
            Ok(v) => v.to_string(),
            Err(e) => e.clone(),
        };
        for secret in [
            NOTE,
            SEARCH,
            QUERY,
            LABEL,
            MESSAGE,
            "grace-secret-claim",
            EMPLOYER,
            "grace@example.com",
            "123456",
        ] {
            assert!(!text.contains(secret), "{tool} {args} shows Grace's {secret:?}: {text}");
        }
        match expect {
            Expect::NotFound(prefix) => {
                let e = answer.expect_err(tool);
                assert!(e.starts_with(prefix), "{tool} {args}: {e}");
            }
            Expect::Own(field, want) => {
                let v = answer.unwrap_or_else(|e| panic!("{tool} {args}: {e}"));
                assert_eq!(v[field], want, "{tool} {args}: {v}");
            }
            Expect::Catalogue => {
                answer.unwrap_or_else(|e| panic!("{tool} {args}: {e}"));
            }
            Expect::Write => {
                let v = answer.unwrap_or_else(|e| panic!("{tool} {args}: {e}"));
                assert_ne!(v["stage"], "offer", "{tool} {args}: Grace's stage: {v}");
            }
        }
        assert_eq!(theirs().await, before, "{tool} {args} changed Grace's state");
    }
    // What Ada wrote is her own.
    let mine = call(&own, ada, "my_jobs", json!({"filter": "all"})).await.unwrap();
    let notes: Vec<&str> =
        mine["jobs"].as_array().unwrap().iter().filter_map(|j| j["notes"].as_str()).collect();
    assert_eq!(mine["total"], 3, "{mine}");
    assert!(notes.contains(&"Ada's own note."), "{notes:?}");
    // Grace's own registry still finds her application.
    let hers = registry_for(&w.deps, &graces);
    assert_eq!(
        call(&hers, grace, "interview_context", json!({})).await.unwrap()["application_stage"],
        "applied"
    );
}

// scenario: interview_context reads the session's vacancy and application
pub async fn interview_context_carries_the_vacancy_and_the_stage(db: &TestDb) {
    let w = world(db).await;
    let reg = w.registry();
    let ada = &w.ada;
    let long = w.slugs[4].to_string();
    call(&reg, ada, "apply_job", json!({"slug": long})).await.unwrap();
    call(&reg, ada, "track_job", json!({"slug": long, "stage": "interview"})).await.unwrap();
    for preset in [Preset::Interview, Preset::Debrief] {
        let reg = registry_for(&w.deps, &binding(preset, Some(w.job_id(4).await)));
        let ctx = call(&reg, ada, "interview_context", json!({})).await.unwrap();
        assert_eq!(ctx["job"]["title"], "Staff Engineer");
        assert_eq!(ctx["job"]["company"], "Hooli");
        assert_eq!(ctx["job"]["public_slug"], long);
        assert_eq!(ctx["application_stage"], "interview");
        assert_eq!(ctx["requirements"], json!([]), "no fit analysis yet, and it still succeeds");
        assert!(ctx.get("invitation").is_none(), "no invitation is omitted");
        let description = ctx["job"]["description"].as_str().unwrap();
        assert_eq!(description.chars().count(), 6_001, "clipped to 6,000 and marked");
        assert!(description.ends_with('…') && description.starts_with("responsibility"));
    }
    // No row for the session's job: an error (the ownership check).
    let untracked = registry_for(&w.deps, &binding(Preset::Debrief, Some(w.job_id(3).await)));
    let e = call(&untracked, ada, "interview_context", json!({})).await.unwrap_err();
    assert!(e.starts_with("application not found"), "{e}");
}

/// The tool names a session of `preset` registers today.
fn expected(preset: Preset, job: bool) -> Vec<&'static str> {
    let mut names = [DISCOVERY_TOOLS, TRACKING_TOOLS, BANK_TOOLS, SCREENING_TOOLS].concat();
    if job && matches!(preset, Preset::Interview | Preset::Debrief) {
        names.extend_from_slice(INTERVIEW_TOOLS);
    }
    names
}

// scenario: Registries follow the preset matrix
pub async fn registries_follow_the_preset_matrix(db: &TestDb) {
    let deps = ToolDeps {
        store: Arc::clone(&db.store),
        search: SearchSlot::none(),
        clock: now,
        cvs: None,
        cover_letters: None,
    };
    let job = Some(JobId::new(1).unwrap());
    for preset in Preset::ALL {
        for bound in [None, job] {
            let reg = registry_for(&deps, &binding(preset, bound));
            assert_eq!(reg.names(), expected(preset, bound.is_some()), "{preset} {bound:?}");
            assert_eq!(reg.max_result_bytes(), ASSISTANT_RESULT_CAP);
            assert!(reg.names().iter().all(|n| !n.starts_with("inbox_")), "no mail yet");
        }
    }
    // The debrief carries the rehearsal's tools (TestTheDebriefCarriesTheRehearsalsTools).
    let names = |p| registry_for(&deps, &binding(p, job)).names().join(",");
    assert_eq!(names(Preset::Interview), names(Preset::Debrief));
    assert!(names(Preset::Interview).contains("interview_context"));
    // An unknown preset is chat; browse, demoted or not, gets chat's tools.
    let chat = names(Preset::Chat);
    assert_eq!(names(normalize_preset("browze")), chat);
    assert_eq!(names(Preset::Browse), chat);
    assert!(chat.contains("search_jobs"));
    // Every tool's schema is a strict object; the limits are in the schemas.
    let reg = registry_for(&deps, &binding(Preset::Interview, job));
    for spec in reg.definitions() {
        assert_eq!(spec.parameters["type"], "object", "{}", spec.name);
        assert_eq!(spec.parameters["additionalProperties"], false, "{}", spec.name);
        assert!(!spec.description.is_empty());
    }
    let schema =
        |name: &str| reg.definitions().into_iter().find(|d| d.name == name).unwrap().parameters;
    let present = schema("present_jobs");
    assert_eq!(present["required"], json!(["jobs"]));
    assert_eq!(
        (
            present["properties"]["jobs"]["minItems"].clone(),
            present["properties"]["jobs"]["maxItems"].clone()
        ),
        (json!(1), json!(10))
    );
    let stages = schema("track_job")["properties"]["stage"]["enum"].as_array().unwrap().len();
    assert_eq!(stages, 10);
    assert_eq!(schema("my_jobs")["properties"]["filter"]["enum"].as_array().unwrap().len(), 6);
    assert_eq!(schema("market_fit")["required"], json!(["skills"]));
    assert!(
        schema("search_jobs")["properties"]["limit"]["description"]
            .as_str()
            .unwrap()
            .contains("20")
    );
}

// scenario: A session prompt names only the tools its registry holds
/// `TestPromptOnlyNamesToolsThePresetHas` on the real catalogue: every backticked word of a
/// session's prompt that names a tool anywhere is registered for that session.
pub async fn session_prompts_name_only_registered_tools(db: &TestDb) {
    let deps = ToolDeps {
        store: Arc::clone(&db.store),
        search: SearchSlot::none(),
        clock: now,
        cvs: None,
        cover_letters: None,
    };
    let every = all_tool_names();
    for preset in Preset::ALL {
        for job in [None, Some(JobId::new(1).unwrap())] {
            let c = compose_session(&deps, &binding(preset, job), "ru");
            let own = c.registry.names();
            let named: Vec<&str> =
                c.system.split('`').skip(1).step_by(2).filter(|w| every.contains(w)).collect();
            assert!(!named.is_empty(), "{preset} names some tools");
            for w in named {
                assert!(
                    own.contains(&w),
                    "{preset} {job:?}: the prompt names `{w}`, not registered"
                );
            }
            assert!(
                c.system
                    .contains("\n\nLANGUAGE\n\nReply to the candidate in Russian, regardless of"),
                "{preset}"
            );
            assert!(!c.system.contains("APPLICATION MAIL") && !c.system.contains("BROWSING"));
            assert_eq!(c.preset, preset);
            assert_eq!(c.max_steps, preset.max_steps());
        }
    }
    let interview =
        compose_session(&deps, &binding(Preset::Interview, Some(JobId::new(1).unwrap())), "en");
    assert!(
        interview.system.contains("mock-interview coach"),
        "a bound interview keeps its prompt"
    );
    assert!(
        interview.system.contains("`interview_context`")
            && interview.system.contains("`experience_add`"),
        "the bank is registered for the interview, so its lines stay"
    );
    assert!(interview.system.contains("For the CV-questions round, use `get_profile`."));
    let profile = compose_session(&deps, &binding(Preset::Profile, None), "en");
    assert!(profile.system.contains("experience interviewer"), "profile runs its own prompt");
    let unbound = compose_session(&deps, &binding(Preset::Interview, None), "en");
    let chat = compose_session(&deps, &binding(Preset::Chat, None), "en");
    assert_eq!(unbound.system, chat.system, "an interview without its job runs as chat");
    assert!(chat.system.contains("/account") && !chat.system.contains("/jobs/"));
    assert_eq!(compose_session(&deps, &binding(Preset::Browse, None), "en").system, chat.system);
    assert_eq!(
        compose_session(&deps, &binding(normalize_preset("wizard"), None), "en").system,
        chat.system
    );
}

// scenario: A full page of long descriptions fits the result cap
pub async fn a_full_page_of_long_descriptions_fits_the_result_cap(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let postings: Vec<JobPosting> = (0..25)
        .map(|i| {
            let mut p = posting(
                &format!("l{i}"),
                &format!("Rust Role {i}"),
                "Acme",
                &["rust"],
                "de",
                WorkMode::Remote,
            );
            p.description =
                format!("<p>{}</p>", "Ownership and borrowing all day long. ".repeat(600));
            p
        })
        .collect();
    let (deps, _dir, _) = indexed(db, &postings).await;
    let reg = registry_for(&deps, &binding(Preset::Chat, None));
    let result = reg
        .call(&CallContext::default(), &ada.id, "search_jobs", &json!({"limit": 20}).to_string())
        .await;
    assert!(!result.failed);
    assert!(result.content.len() < ASSISTANT_RESULT_CAP, "{} bytes", result.content.len());
    let page: Value = serde_json::from_str(&result.content).unwrap();
    assert_eq!((page["total"].clone(), page["jobs"].as_array().unwrap().len()), (json!(25), 20));
    let description = page["jobs"][0]["description"].as_str().unwrap();
    assert!(description.ends_with('…') && description.starts_with("Ownership"), "clipped, marked");
}

// scenario: screening_answers_set records what the candidate stated
/// A partial update in every preset: only the arguments sent change, the result lists what is
/// still unstated, a bad value is refused naming its field and writes nothing, an empty call is
/// refused, and `get_profile` shows the answers.
pub async fn screening_answers_set_records_a_partial_update(db: &TestDb) {
    let w = world(db).await;
    let ada = &w.ada;
    for preset in Preset::ALL {
        let names = registry_for(&w.deps, &binding(preset, None)).names().join(",");
        assert!(names.contains("screening_answers_set"), "{preset}: {names}");
    }
    let reg = w.registry();
    let first = json!({
        "authorized_countries": ["DE", "fr"],
        "desired_salary_amount": 85_000,
        "desired_salary_currency": "eur",
        "desired_salary_period": "year",
    });
    let v = call(&reg, ada, "screening_answers_set", first).await.unwrap();
    assert_eq!(v["screening_answers"]["authorized_countries"], json!(["de", "fr"]));
    assert_eq!(v["screening_answers"]["desired_salary_currency"], "EUR");
    assert_eq!(
        v["unstated"],
        json!([
            "visa_sponsorship_needed",
            "notice_period_days",
            "willing_to_relocate",
            "age_18_or_older"
        ])
    );
    let v =
        call(&reg, ada, "screening_answers_set", json!({"notice_period_days": 60})).await.unwrap();
    assert_eq!(v["screening_answers"]["notice_period_days"], 60);
    assert_eq!(v["screening_answers"]["desired_salary_amount"], 85_000, "kept: {v}");

    // Bad values name their field; nothing is written.
    let before = db.store().screening_answers(ada.id).await.unwrap();
    for (args, field) in [
        (
            json!({"desired_salary_currency": "euros", "notice_period_days": 1}),
            "desired_salary_currency",
        ),
        (json!({"authorized_countries": ["Germany"]}), "authorized_countries"),
        (json!({"notice_period_days": -3}), "notice_period_days"),
        (json!({"desired_salary_amount": 0}), "desired_salary_amount"),
    ] {
        let e = call(&reg, ada, "screening_answers_set", args.clone()).await.unwrap_err();
        assert!(e.contains(field), "{args}: {e}");
    }
    let e = call(&reg, ada, "screening_answers_set", json!({"desired_salary_period": "week"}))
        .await
        .unwrap_err();
    assert!(e.contains("desired_salary_period") || e.contains("year"), "{e}");
    let e = call(&reg, ada, "screening_answers_set", json!({"provenance": "x"})).await.unwrap_err();
    assert!(e.contains("provenance"), "unknown fields are refused: {e}");
    let e = call(&reg, ada, "screening_answers_set", json!({})).await.unwrap_err();
    assert!(e.starts_with("nothing to record"), "{e}");
    assert_eq!(db.store().screening_answers(ada.id).await.unwrap(), before);

    // The profile shows them.
    let profile = call(&reg, ada, "get_profile", json!({})).await.unwrap();
    assert_eq!(profile["screening_answers"]["notice_period_days"], 60, "{profile}");
    assert_eq!(profile["screening_unstated"].as_array().unwrap().len(), 3, "{profile}");
}
