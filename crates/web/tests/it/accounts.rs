//! The account pages with plain form posts (no JavaScript), on both backends: the whole
//! journey (sign up, the mailed code, verify, sign out, sign in, mint a key, call the API
//! with it, revoke it, sign out), form errors next to their field, the forgotten password,
//! the profile's time zone on the dates, and account deletion.

use freehire_store::testing::TestDb;

use crate::server::{Browser, Server, on_both_backends};

const EMAIL: &str = "ada@example.com";
const PASSWORD: &str = "correct horse battery";

/// A bearer call to the API.
async fn with_key(s: &Server, key: &str, path: &str) -> u16 {
    reqwest::Client::new()
        .get(format!("{}{path}", s.base))
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

// scenario: The newcomer's journey with plain forms
async fn sign_up_verify_sign_in_mint_and_revoke_a_key(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    let signup = b.get("/signup").await;
    assert_eq!(signup.status, 200);
    for field in ["email", "password", "language"] {
        assert!(signup.body.contains(&format!("<label for=\"{field}\">")), "{field} has a label");
    }
    let page = b
        .submit(
            "/signup",
            "/signup",
            &[("email", EMAIL), ("password", PASSWORD), ("language", "en")],
        )
        .await;
    assert_eq!(page.status, 303, "{}", page.body);
    assert_eq!(page.location(), "/verify?done=signed-up");
    assert!(b.session().is_some(), "signed in");
    // The page's session is the API's.
    let (status, me) = b.api("/api/v1/auth/me").await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["data"]["email"], EMAIL);
    assert_eq!(me["data"]["email_verified"], false);
    // The header says who is signed in.
    assert!(b.get("/jobs").await.body.contains(">ada@example.com</a>"));

    let code = s.mailed_code(EMAIL, "verification", 0).await;
    let page = b.get("/verify?done=signed-up").await;
    assert!(page.body.contains("We mailed you a six-digit code"));
    let wrong = b.submit("/verify", "/verify", &[("code", "000000")]).await;
    assert_eq!(wrong.status, 422);
    assert!(wrong.body.contains("id=\"code-error\""), "the message is next to the code field");
    let page = b.submit("/verify", "/verify", &[("code", &code)]).await;
    assert_eq!((page.status, page.location()), (303, "/account?done=verified"), "{}", page.body);

    let out = b.submit("/account", "/logout", &[]).await;
    assert_eq!(out.status, 303);
    assert!(b.session().is_none(), "signed out");
    assert_eq!(b.get("/account").await.location(), "/login?next=%2Faccount");
    // Signing in from there comes back to the account page; another origin is never followed.
    let login = b.get("/login?next=%2Faccount").await;
    assert!(login.body.contains("name=\"next\" value=\"/account\""), "{}", login.body);
    let evil = b.get("/login?next=%2F%2Fevil.example").await;
    assert!(!evil.body.contains("evil.example"), "{}", evil.body);

    let bad =
        b.submit("/login", "/login", &[("email", EMAIL), ("password", "wrong password")]).await;
    assert_eq!(bad.status, 422);
    assert!(bad.body.contains("wrong email or password"));
    assert!(bad.body.contains("value=\"ada@example.com\""), "the address is kept");
    assert!(!bad.body.contains("wrong password\""), "the password is not");
    let page = b
        .submit(
            "/login?next=%2Faccount",
            "/login",
            &[("email", EMAIL), ("password", PASSWORD), ("next", "//evil.example")],
        )
        .await;
    assert_eq!((page.status, page.location()), (303, "/account"), "not another origin");
    b.submit("/account", "/logout", &[]).await;
    let page = b
        .submit(
            "/login",
            "/login",
            &[("email", EMAIL), ("password", PASSWORD), ("next", "/jobs?q=rust")],
        )
        .await;
    assert_eq!((page.status, page.location()), (303, "/jobs?q=rust"), "back where it started");

    let account = b.get("/account").await;
    assert!(account.body.contains("verified") && account.body.contains("No keys yet"));
    let minted =
        b.submit("/account", "/account/keys", &[("name", "laptop"), ("scope", "full")]).await;
    assert_eq!(minted.status, 201, "{}", minted.body);
    assert_eq!(minted.headers["cache-control"], "no-store");
    let at = minted.body.find("<code class=\"token\">").unwrap() + "<code class=\"token\">".len();
    let token = minted.body[at..at + minted.body[at..].find('<').unwrap()].to_owned();
    assert!(token.starts_with("fhk_"), "{token}");
    assert_eq!(with_key(&s, &token, "/api/v1/auth/me").await, 200);
    let account = b.get("/account").await;
    assert!(!account.body.contains(&token), "the token is shown once");
    assert!(account.body.contains("laptop"));
    let revoke = account
        .body
        .split("action=\"")
        .find_map(|r| r.starts_with("/account/keys/").then(|| r[..r.find('"').unwrap()].to_owned()))
        .unwrap();
    let page = b.submit("/account", &revoke, &[]).await;
    assert_eq!((page.status, page.location()), (303, "/account?done=revoked"));
    assert_eq!(with_key(&s, &token, "/api/v1/auth/me").await, 401);
    assert!(b.get("/account?done=revoked").await.body.contains("The key is revoked."));

    b.submit("/account", "/logout", &[]).await;
    assert_eq!(b.api("/api/v1/auth/me").await.0, 401, "signed out of the API too");
    s.db.teardown().await;
}

// scenario: Form errors name their field and keep what was typed
async fn form_errors_are_shown_next_to_their_field(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    let short = b.submit("/signup", "/signup", &[("email", EMAIL), ("password", "short")]).await;
    assert_eq!(short.status, 422);
    assert!(
        short.body.contains("id=\"password-error\">must be at least 8 characters"),
        "{}",
        short.body
    );
    assert!(short.body.contains("value=\"ada@example.com\""));
    assert!(!short.body.contains("value=\"short\""), "never the password");
    let bad = b
        .submit("/signup", "/signup", &[("email", "not-an-address"), ("password", PASSWORD)])
        .await;
    assert!(bad.body.contains("id=\"email-error\""), "{}", bad.body);
    b.submit("/signup", "/signup", &[("email", EMAIL), ("password", PASSWORD)]).await;
    let other = Browser::new(&s);
    let taken =
        other.submit("/signup", "/signup", &[("email", EMAIL), ("password", PASSWORD)]).await;
    assert!(taken.body.contains("id=\"email-error\">an account with this email already exists"));
    // An unverified account cannot mint a key; the profile refuses a bad zone, keeping it.
    let refused = b.submit("/account", "/account/keys", &[("name", "k")]).await;
    assert_eq!(refused.status, 422);
    assert!(refused.body.contains("verify your email address first"));
    let zone = b
        .submit("/account", "/account/profile", &[("timezone", "Mars/Olympus"), ("language", "en")])
        .await;
    assert_eq!(zone.status, 422);
    assert!(zone.body.contains("id=\"timezone-error\""), "{}", zone.body);
    assert!(zone.body.contains("value=\"Mars/Olympus\""));
    s.db.teardown().await;
}

// scenario: Dates in the viewer's time zone
async fn the_profile_zone_is_the_zone_of_the_dates(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    assert!(b.get("/jobs").await.body.contains("Times are in UTC."));
    b.submit("/signup", "/signup", &[("email", EMAIL), ("password", PASSWORD)]).await;
    let saved = b
        .submit(
            "/account",
            "/account/profile",
            &[("username", "Ada"), ("timezone", "Asia/Tokyo"), ("language", "de")],
        )
        .await;
    assert_eq!((saved.status, saved.location()), (303, "/account?done=profile"));
    let page = b.get("/jobs?q=%22staff%20rust%22").await;
    assert!(page.body.contains("Times are in Asia/Tokyo (your account"), "{}", page.body);
    assert!(page.body.contains(">Ada</a>"), "the display name in the header");
    let job = page
        .body
        .split("href=\"")
        .find_map(|r| r.starts_with("/jobs/staff").then(|| r[..r.find('"').unwrap()].to_owned()))
        .unwrap();
    // First seen 2026-11-13 09:00 UTC is 18:00 in Tokyo.
    let detail = b.get(&job).await.body;
    assert!(detail.contains("2026-11-13 18:00"));
    // scenario: Reality signals on the detail and the hits
    assert!(
        detail.contains(
            "class=\"reality reality-fresh\" id=\"reality\">Fresh: first seen 7 days ago"
        ),
        "{detail}"
    );
    // scenario: Ghost reports and the signal
    let report = format!("{job}/ghost-report");
    let done = b.submit(&job, &report, &[("applied_on", "2026-11-01")]).await;
    assert_eq!((done.status, done.location()), (303, job.as_str()));
    let detail = b.get(&job).await.body;
    assert!(
        detail.contains("You reported this as a ghost job (you applied on 2026-11-01)"),
        "{detail}"
    );
    let bad = b.submit(&job, &report, &[("applied_on", "2027-01-01")]).await;
    assert_eq!(bad.status, 422);
    assert!(bad.body.contains("applied_on"), "{}", bad.body);
    let back = b.submit(&job, &format!("{report}/retract"), &[]).await;
    assert_eq!((back.status, back.location()), (303, job.as_str()));
    assert!(b.get(&job).await.body.contains("id=\"report-ghost\""));
    s.db.teardown().await;
}

// scenario: Forgotten password with the mailed code
async fn a_forgotten_password_is_reset_with_the_mailed_code(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    b.submit("/signup", "/signup", &[("email", EMAIL), ("password", PASSWORD)]).await;
    b.submit("/account", "/logout", &[]).await;
    let sent = b.submit("/forgot", "/forgot", &[("email", EMAIL)]).await;
    assert_eq!(sent.status, 303);
    assert!(
        sent.location().starts_with("/reset?done=reset-sent&email=ada%40example.com"),
        "{}",
        sent.location()
    );
    let code = s.mailed_code(EMAIL, "password reset", 0).await;
    let reset = b.get(sent.location()).await;
    assert!(reset.body.contains("value=\"ada@example.com\""));
    let page = b
        .submit(
            sent.location(),
            "/reset",
            &[("email", EMAIL), ("code", &code), ("password", "a brand new secret")],
        )
        .await;
    assert_eq!((page.status, page.location()), (303, "/account?done=password"), "{}", page.body);
    b.submit("/account", "/logout", &[]).await;
    let page =
        b.submit("/login", "/login", &[("email", EMAIL), ("password", "a brand new secret")]).await;
    assert_eq!(page.status, 303);
    s.db.teardown().await;
}

// scenario: Deleting the account
async fn the_account_is_deleted_after_typing_its_address(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    b.submit("/signup", "/signup", &[("email", EMAIL), ("password", PASSWORD)]).await;
    let wrong = b.submit("/account", "/account/delete", &[("email", "eve@example.com")]).await;
    assert_eq!(wrong.status, 422);
    assert!(wrong.body.contains("the email does not match"));
    let page = b.submit("/account", "/account/delete", &[("email", EMAIL)]).await;
    assert_eq!((page.status, page.location()), (303, "/login?done=deleted"));
    assert!(b.session().is_none());
    let users = s.db.store().list_users(freehire_store::ListPage::default()).await.unwrap();
    assert_eq!(users.total, 0);
    s.db.teardown().await;
}

on_both_backends![
    sign_up_verify_sign_in_mint_and_revoke_a_key,
    form_errors_are_shown_next_to_their_field,
    the_profile_zone_is_the_zone_of_the_dates,
    a_forgotten_password_is_reset_with_the_mailed_code,
    the_account_is_deleted_after_typing_its_address,
];

// scenario: Sign-in forms share the API's rate limits
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_in_attempts_count_against_the_api_buckets() {
    let s = Server::indexed(TestDb::sqlite().await).await;
    let b = Browser::new(&s);
    for i in 0..10 {
        let page =
            b.submit("/login", "/login", &[("email", EMAIL), ("password", "wrong password")]).await;
        assert_eq!(page.status, 422, "attempt {i}");
    }
    let page =
        b.submit("/login", "/login", &[("email", EMAIL), ("password", "wrong password")]).await;
    assert_eq!(page.status, 429, "{}", page.body);
    assert!(page.body.contains("too many attempts: try again in"), "{}", page.body);
    let api = reqwest::Client::new()
        .post(format!("{}/api/v1/auth/login", s.base))
        .json(&serde_json::json!({"email": EMAIL, "password": "wrong password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(api.status().as_u16(), 429, "the JSON route shares the bucket");
    s.db.teardown().await;
}
