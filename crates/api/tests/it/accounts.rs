//! Accounts over HTTP on both backends: the newcomer's whole journey (register, read the
//! mailed code, verify, log in, mint a key, call with it, sign out everywhere), every refusal
//! in the one error shape, codes, password change and reset, profile, deletion, API key scopes,
//! and the cross-user table (another user's resource is not found on every route).

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::server::Server;

/// A client with its own session cookie (one browser): it keeps what `Set-Cookie` sets.
pub struct Client<'a> {
    server: &'a Server,
    http: reqwest::Client,
    bearer: Option<String>,
    cookie: std::sync::Mutex<Option<String>>,
}

/// One answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub set_cookie: Option<String>,
}

impl<'a> Client<'a> {
    pub fn new(server: &'a Server) -> Self {
        Self { server, http: reqwest::Client::new(), bearer: None, cookie: Default::default() }
    }

    pub fn with_key(server: &'a Server, key: &str) -> Self {
        Self { bearer: Some(key.to_owned()), ..Self::new(server) }
    }

    /// A client holding a new API key of `scope` (`full` or `cv`) that this signed-in client
    /// mints.
    pub async fn minted_key(&self, scope: &str) -> Client<'a> {
        let made =
            self.post("/me/api-keys", serde_json::json!({"name": scope, "scope": scope})).await;
        let token = made.body["data"]["token"].as_str().expect("a key's token").to_owned();
        Self::with_key(self.server, &token)
    }

    /// The session cookie this client holds (`name=value`), if any.
    pub fn cookie_header(&self) -> Option<String> {
        self.cookie.lock().unwrap().clone()
    }

    pub async fn call(&self, method: Method, path: &str, body: Option<Value>) -> Answer {
        let mut request = self.http.request(method, format!("{}/api/v1{path}", self.server.base));
        if let Some(key) = &self.bearer {
            request = request.bearer_auth(key);
        }
        if let Some(cookie) = self.cookie.lock().unwrap().clone() {
            request = request.header("cookie", cookie);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let res = request.send().await.unwrap();
        let status = res.status().as_u16();
        let set_cookie =
            res.headers().get("set-cookie").and_then(|v| v.to_str().ok()).map(str::to_owned);
        if let Some(set) = &set_cookie {
            let pair = set.split(';').next().unwrap_or_default().to_owned();
            let cleared = set.contains("Max-Age=0");
            *self.cookie.lock().unwrap() = (!cleared).then_some(pair);
        }
        let text = res.text().await.unwrap();
        let body = if text.is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap() };
        Answer { status, body, set_cookie }
    }

    /// The session token this client holds, if signed in.
    pub fn session(&self) -> Option<String> {
        let cookie = self.cookie.lock().unwrap().clone()?;
        cookie.strip_prefix("freehire_session=").map(str::to_owned)
    }

    pub async fn post(&self, path: &str, body: Value) -> Answer {
        self.call(Method::POST, path, Some(body)).await
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.call(Method::GET, path, None).await
    }
}

#[track_caller]
pub fn refused(a: &Answer, status: u16, code: &str, param: Option<&str>) {
    assert_eq!(a.status, status, "{a:?}");
    assert_eq!(a.body["code"], code, "{a:?}");
    assert!(a.body["error"].as_str().is_some_and(|m| !m.is_empty()), "{a:?}");
    match param {
        Some(p) => assert_eq!(a.body["param"], p, "{a:?}"),
        None => assert!(a.body.get("param").is_none(), "{a:?}"),
    }
}

/// The code of the newest mail to `to` about `what` ("verification" or "password reset"),
/// waiting for it up to 5 s (some mail is sent in the background).
pub async fn mailed_code(server: &Server, to: &str, what: &str, skip: usize) -> String {
    for _ in 0..100 {
        let mut mails: Vec<(std::path::PathBuf, String)> = std::fs::read_dir(server.mail.path())
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
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no {what} mail to {to} in {}", server.mail.path().display());
}

/// Registers, verifies and returns a signed-in client.
pub async fn verified_user<'a>(server: &'a Server, email: &str) -> Client<'a> {
    let client = Client::new(server);
    let a =
        client.post("/auth/register", json!({"email": email, "password": "correct horse"})).await;
    assert_eq!(a.status, 201, "{a:?}");
    let code = mailed_code(server, email, "verification", 0).await;
    let a = client.post("/auth/verify/confirm", json!({"code": code})).await;
    assert_eq!(a.status, 200, "{a:?}");
    client
}

both_backends! {
    a_newcomer_registers_verifies_mints_a_key_and_signs_out_everywhere,
    registration_refusals_name_the_field_and_write_nothing,
    wrong_logins_all_look_alike,
    codes_say_what_is_wrong_with_them,
    a_forgotten_password_is_reset_by_code,
    a_password_change_revokes_other_sessions,
    the_profile_is_patched_and_cleared,
    keys_are_scoped_and_cookie_managed,
    an_account_is_deleted_with_everything_it_owns,
    another_users_resources_are_not_found,
}

// scenario: A newcomer signs up with no mail server
async fn a_newcomer_registers_verifies_mints_a_key_and_signs_out_everywhere(server: &Server) {
    let browser = Client::new(server);
    let a = browser
        .post("/auth/register", json!({"email": " Ada@Example.com ", "password": "correct horse"}))
        .await;
    assert_eq!(a.status, 201, "{a:?}");
    assert_eq!(a.body["data"]["email"], "ada@example.com");
    assert_eq!(a.body["data"]["email_verified"], false);
    assert_eq!(a.body["meta"]["verification_sent"], true);
    assert!(a.body["data"].get("id").is_none(), "internal ids never leave the server");
    let cookie = a.set_cookie.unwrap();
    for part in ["freehire_session=", "HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=86400"] {
        assert!(cookie.contains(part), "{cookie} lacks {part}");
    }
    // Unverified accounts cannot mint keys.
    let a = browser.post("/me/api-keys", json!({"name": "laptop"})).await;
    refused(&a, 403, "forbidden", None);

    let code = mailed_code(server, "ada@example.com", "verification", 0).await;
    let a = browser
        .post("/auth/verify/confirm", json!({"email": "ada@example.com", "code": code}))
        .await;
    assert_eq!((a.status, &a.body["data"]["email_verified"]), (200, &json!(true)), "{a:?}");
    let a = browser.post("/auth/verify/confirm", json!({"code": code})).await;
    assert_eq!(a.status, 200, "confirming a verified account again is fine: {a:?}");

    // A second browser logs in.
    let laptop = Client::new(server);
    let a = laptop
        .post("/auth/login", json!({"email": "ADA@example.com", "password": "correct horse"}))
        .await;
    assert_eq!(a.status, 200, "{a:?}");
    let a = laptop.post("/me/api-keys", json!({"name": "cli", "scope": "full"})).await;
    assert_eq!(a.status, 201, "{a:?}");
    let token = a.body["data"]["token"].as_str().unwrap().to_owned();
    assert!(token.starts_with("fhk_") && token.len() == 44, "{token}");
    assert_eq!(a.body["data"]["prefix"], token[..12]);

    let cli = Client::with_key(server, &token);
    let a = cli.get("/auth/me").await;
    assert_eq!((a.status, &a.body["data"]["email"]), (200, &json!("ada@example.com")), "{a:?}");
    let listed = laptop.get("/me/api-keys").await;
    assert_eq!(listed.body["data"].as_array().unwrap().len(), 1);
    assert!(listed.body["data"][0].get("token").is_none(), "the token is shown once");

    // Sign out everywhere: both browsers' sessions end; the key keeps working.
    let a = laptop.post("/auth/logout-all", json!({})).await;
    assert_eq!(a.status, 204, "{a:?}");
    assert!(a.set_cookie.unwrap().contains("Max-Age=0"));
    refused(&browser.get("/auth/me").await, 401, "unauthorized", None);
    refused(&laptop.get("/auth/me").await, 401, "unauthorized", None);
    assert_eq!(cli.get("/auth/me").await.status, 200);
    // Logging out just drops this browser's cookie.
    let again = Client::new(server);
    again
        .post("/auth/login", json!({"email": "ada@example.com", "password": "correct horse"}))
        .await;
    assert_eq!(again.get("/auth/me").await.status, 200);
    let a = again.post("/auth/logout", json!({})).await;
    assert_eq!(a.status, 204);
    assert_eq!(again.get("/auth/me").await.status, 401);
}

// scenario: Bad registrations are refused whole
async fn registration_refusals_name_the_field_and_write_nothing(server: &Server) {
    let c = Client::new(server);
    let cases = [
        (json!({"email": "not-an-email", "password": "correct horse"}), "email"),
        (json!({"email": "a@example.com", "password": "short"}), "password"),
        (json!({"email": "a@example.com", "password": "x".repeat(129)}), "password"),
        (json!({"email": "a@example.com"}), "password"),
        (json!({"password": "correct horse"}), "email"),
        (json!({"email": "a@example.com", "password": "correct horse", "admin": true}), "admin"),
        (json!({"email": 42, "password": "correct horse"}), "email"),
        (
            json!({"email": "a@example.com", "password": "correct horse", "language": "klingon!"}),
            "language",
        ),
    ];
    for (body, param) in cases {
        refused(&c.post("/auth/register", body).await, 400, "invalid_parameter", Some(param));
    }
    let raw = |body: &'static str, content_type: &'static str| {
        server
            .http
            .post(format!("{}/api/v1/auth/register", server.base))
            .header("content-type", content_type)
            .body(body)
    };
    let res = raw(r#"{"email": "a@example.com", "#, "application/json").send().await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(res.json::<Value>().await.unwrap()["param"], "body");
    let res = raw("email=a@example.com", "application/x-www-form-urlencoded").send().await.unwrap();
    assert_eq!(res.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(res.json::<Value>().await.unwrap()["code"], "unsupported_media_type");
    let huge = format!(r#"{{"email":"a@example.com","password":"{}"}}"#, "x".repeat(2 << 20));
    let sent = server
        .http
        .post(format!("{}/api/v1/auth/register", server.base))
        .header("content-type", "application/json")
        .body(huge)
        .send()
        .await;
    match sent {
        Ok(res) => assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE),
        // The server answers 413 from the Content-Length alone and closes without reading the
        // body; a client still writing it may see the close as a broken pipe before it reads
        // the answer (a race on a loaded machine). Either way nothing was read or written.
        Err(e) => assert!(
            format!("{e:?}").contains("BodyWrite"),
            "a refused body may only break the client's write: {e:?}"
        ),
    }
    // Nothing was written by any of them: the address is still free, and no mail went out.
    assert_eq!(std::fs::read_dir(server.mail.path()).map(|d| d.count()).unwrap_or(0), 0);
    let a = c
        .post("/auth/register", json!({"email": "a@example.com", "password": "correct horse"}))
        .await;
    assert_eq!(a.status, 201, "{a:?}");
    // A taken address is 409 whether or not it is verified, with one message.
    let taken = c
        .post("/auth/register", json!({"email": "A@example.com", "password": "another one"}))
        .await;
    refused(&taken, 409, "conflict", Some("email"));
    let verified = verified_user(server, "b@example.com").await;
    drop(verified);
    let taken_verified = c
        .post("/auth/register", json!({"email": "b@example.com", "password": "another one"}))
        .await;
    refused(&taken_verified, 409, "conflict", Some("email"));
    assert_eq!(taken.body, taken_verified.body);
}

// scenario: Wrong logins look alike
async fn wrong_logins_all_look_alike(server: &Server) {
    verified_user(server, "ada@example.com").await;
    let c = Client::new(server);
    let wrong =
        c.post("/auth/login", json!({"email": "ada@example.com", "password": "wrong horse"})).await;
    let unknown = c
        .post("/auth/login", json!({"email": "nobody@example.com", "password": "correct horse"}))
        .await;
    let short = c.post("/auth/login", json!({"email": "ada@example.com", "password": "x"})).await;
    refused(&wrong, 401, "unauthorized", None);
    assert_eq!(wrong.body, unknown.body);
    assert_eq!(wrong.body, short.body);
    assert!(wrong.set_cookie.is_none());
    refused(
        &c.post("/auth/login", json!({"email": "nope", "password": "x"})).await,
        400,
        "invalid_parameter",
        Some("email"),
    );
    // A garbage cookie or key is no session.
    let res = server
        .http
        .get(format!("{}/api/v1/auth/me", server.base))
        .header("cookie", "freehire_session=not.a.token")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let a = Client::with_key(server, "fhk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
        .get("/auth/me")
        .await;
    refused(&a, 401, "unauthorized", None);
    let res = server
        .http
        .get(format!("{}/api/v1/auth/me", server.base))
        .header("authorization", "Basic abc")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
}

// scenario: Codes say what is wrong with them
async fn codes_say_what_is_wrong_with_them(server: &Server) {
    let c = Client::new(server);
    c.post("/auth/register", json!({"email": "ada@example.com", "password": "correct horse"}))
        .await;
    let right = mailed_code(server, "ada@example.com", "verification", 0).await;
    let wrong = if right == "000000" { "000001" } else { "000000" };
    refused(
        &c.post("/auth/verify/confirm", json!({"code": "12345"})).await,
        400,
        "invalid_parameter",
        Some("code"),
    );
    let a = c.post("/auth/verify/confirm", json!({"code": wrong})).await;
    refused(&a, 400, "invalid_parameter", Some("code"));
    assert!(a.body["error"].as_str().unwrap().contains("4 attempts left"), "{a:?}");
    for _ in 0..3 {
        c.post("/auth/verify/confirm", json!({"code": wrong})).await;
    }
    let a = c.post("/auth/verify/confirm", json!({"code": wrong})).await;
    assert!(a.body["error"].as_str().unwrap().contains("used up"), "{a:?}");
    let a = c.post("/auth/verify/confirm", json!({"code": right})).await;
    assert!(
        a.body["error"].as_str().unwrap().contains("no code is pending"),
        "the spent code is gone: {a:?}"
    );
    // A new request mails a new code, which works.
    let a = c.post("/auth/verify/request", json!({})).await;
    assert_eq!(a.status, 202, "{a:?}");
    let fresh = mailed_code(server, "ada@example.com", "verification", 1).await;
    let a = c.post("/auth/verify/confirm", json!({"code": fresh})).await;
    assert_eq!(a.status, 200, "{a:?}");
    // Without a session the email is required.
    let anonymous = Client::new(server);
    refused(
        &anonymous.post("/auth/verify/confirm", json!({"code": fresh})).await,
        400,
        "invalid_parameter",
        Some("email"),
    );
    refused(
        &anonymous.call(Method::POST, "/auth/verify/request", None).await,
        400,
        "invalid_parameter",
        Some("email"),
    );
    let a = anonymous.post("/auth/verify/request", json!({"email": "nobody@example.com"})).await;
    let b = anonymous.post("/auth/verify/request", json!({"email": "ada@example.com"})).await;
    assert_eq!((a.status, &a.body), (b.status, &b.body), "the same answer for any address");
}

// scenario: A forgotten password is reset by code
async fn a_forgotten_password_is_reset_by_code(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let c = Client::new(server);
    let unknown = c.post("/auth/password/forgot", json!({"email": "nobody@example.com"})).await;
    let known = c.post("/auth/password/forgot", json!({"email": "ada@example.com"})).await;
    assert_eq!(known.status, 202, "{known:?}");
    assert_eq!((unknown.status, &unknown.body), (known.status, &known.body));
    let code = mailed_code(server, "ada@example.com", "password reset", 0).await;
    let a = c
        .post(
            "/auth/password/reset",
            json!({"email": "ada@example.com", "code": code, "password": "short"}),
        )
        .await;
    refused(&a, 400, "invalid_parameter", Some("password"));
    let a = c
        .post(
            "/auth/password/reset",
            json!({"email": "ada@example.com", "code": code, "password": "new battery staple"}),
        )
        .await;
    assert_eq!(a.status, 200, "{a:?}");
    assert!(a.set_cookie.is_some());
    assert_eq!(c.get("/auth/me").await.status, 200, "the reset signs in");
    assert_eq!(ada.get("/auth/me").await.status, 401, "every older session is revoked");
    let login = |password: &'static str| {
        let c = Client::new(server);
        async move {
            c.post("/auth/login", json!({"email": "ada@example.com", "password": password}))
                .await
                .status
        }
    };
    assert_eq!(login("correct horse").await, 401);
    assert_eq!(login("new battery staple").await, 200);
    let a = c
        .post(
            "/auth/password/reset",
            json!({"email": "ada@example.com", "code": code, "password": "third password"}),
        )
        .await;
    refused(&a, 400, "invalid_parameter", Some("code"));
}

// scenario: A password change revokes other sessions
async fn a_password_change_revokes_other_sessions(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let other = Client::new(server);
    other
        .post("/auth/login", json!({"email": "ada@example.com", "password": "correct horse"}))
        .await;
    let a = ada
        .post(
            "/me/password",
            json!({"current_password": "wrong horse", "new_password": "new battery staple"}),
        )
        .await;
    refused(&a, 400, "invalid_parameter", Some("current_password"));
    let a = ada
        .post("/me/password", json!({"current_password": "correct horse", "new_password": "short"}))
        .await;
    refused(&a, 400, "invalid_parameter", Some("new_password"));
    let token = ada.post("/me/api-keys", json!({"name": "k"})).await.body["data"]["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let a = Client::with_key(server, &token)
        .post(
            "/me/password",
            json!({"current_password": "correct horse", "new_password": "new battery staple"}),
        )
        .await;
    refused(&a, 403, "forbidden", None);
    let a = ada
        .post(
            "/me/password",
            json!({"current_password": "correct horse", "new_password": "new battery staple"}),
        )
        .await;
    assert_eq!(a.status, 200, "{a:?}");
    assert_eq!(ada.get("/auth/me").await.status, 200, "this client has the new session");
    assert_eq!(other.get("/auth/me").await.status, 401, "the other session is revoked");
}

// scenario: The profile is patched
async fn the_profile_is_patched_and_cleared(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let patch = |body: Value| ada.call(Method::PATCH, "/me", Some(body));
    let a =
        patch(json!({"username": "  Ada L ", "timezone": "Europe/Berlin", "language": "pt_br"}))
            .await;
    assert_eq!(a.status, 200, "{a:?}");
    assert_eq!(
        (&a.body["data"]["username"], &a.body["data"]["timezone"], &a.body["data"]["language"]),
        (&json!("Ada L"), &json!("Europe/Berlin"), &json!("pt-BR"))
    );
    let a = patch(json!({"timezone": null})).await;
    assert_eq!(
        (&a.body["data"]["timezone"], &a.body["data"]["username"]),
        (&Value::Null, &json!("Ada L"))
    );
    refused(
        &patch(json!({"timezone": "Mars/Olympus"})).await,
        400,
        "invalid_parameter",
        Some("timezone"),
    );
    refused(&patch(json!({"language": null})).await, 400, "invalid_parameter", Some("language"));
    refused(
        &patch(json!({"email": "x@example.com"})).await,
        400,
        "invalid_parameter",
        Some("email"),
    );
    let me = ada.get("/auth/me").await;
    assert_eq!(me.body["data"]["language"], "pt-BR", "refused patches changed nothing");
    // A cv key reads /auth/me but cannot patch; a full key can.
    let cv =
        ada.post("/me/api-keys", json!({"name": "cv", "scope": "cv"})).await.body["data"]["token"]
            .as_str()
            .unwrap()
            .to_owned();
    let full = ada.post("/me/api-keys", json!({"name": "full"})).await.body["data"]["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let cv = Client::with_key(server, &cv);
    assert_eq!(cv.get("/auth/me").await.status, 200);
    refused(
        &cv.call(Method::PATCH, "/me", Some(json!({"username": "x"}))).await,
        403,
        "forbidden",
        None,
    );
    let a = Client::with_key(server, &full)
        .call(Method::PATCH, "/me", Some(json!({"username": "Ada"})))
        .await;
    assert_eq!((a.status, &a.body["data"]["username"]), (200, &json!("Ada")), "{a:?}");
}

// scenario: Keys are scoped and managed by cookie
async fn keys_are_scoped_and_cookie_managed(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    refused(
        &ada.post("/me/api-keys", json!({"name": " "})).await,
        400,
        "invalid_parameter",
        Some("name"),
    );
    refused(
        &ada.post("/me/api-keys", json!({"name": "k", "scope": "admin"})).await,
        400,
        "invalid_parameter",
        Some("scope"),
    );
    refused(
        &ada.post("/me/api-keys", json!({"name": "k", "expires_at": "2001-01-01T00:00:00Z"})).await,
        400,
        "invalid_parameter",
        Some("expires_at"),
    );
    refused(
        &ada.post("/me/api-keys", json!({"name": "k", "expires_at": "soon"})).await,
        400,
        "invalid_parameter",
        Some("expires_at"),
    );
    let a =
        ada.post("/me/api-keys", json!({"name": "k", "expires_at": "2999-01-01T00:00:00Z"})).await;
    assert_eq!(
        (a.status, &a.body["data"]["expires_at"]),
        (201, &json!("2999-01-01T00:00:00Z")),
        "{a:?}"
    );
    let token = a.body["data"]["token"].as_str().unwrap().to_owned();
    let id = a.body["data"]["id"].as_i64().unwrap();
    let key = Client::with_key(server, &token);
    // Keys never manage keys.
    refused(&key.get("/me/api-keys").await, 403, "forbidden", None);
    refused(&key.post("/me/api-keys", json!({"name": "x"})).await, 403, "forbidden", None);
    refused(
        &key.call(Method::DELETE, &format!("/me/api-keys/{id}"), None).await,
        403,
        "forbidden",
        None,
    );
    refused(
        &ada.call(Method::DELETE, "/me/api-keys/abc", None).await,
        400,
        "invalid_parameter",
        Some("id"),
    );
    refused(&ada.call(Method::DELETE, "/me/api-keys/999999", None).await, 404, "not_found", None);
    assert_eq!(ada.call(Method::DELETE, &format!("/me/api-keys/{id}"), None).await.status, 204);
    refused(&key.get("/auth/me").await, 401, "unauthorized", None);
    // Anonymous callers get 401 on every signed-in route.
    let anonymous = Client::new(server);
    for (method, path) in [
        (Method::GET, "/auth/me"),
        (Method::POST, "/auth/logout-all"),
        (Method::GET, "/me/api-keys"),
        (Method::POST, "/me/password"),
        (Method::PATCH, "/me"),
        (Method::DELETE, "/me"),
    ] {
        refused(&anonymous.call(method, path, Some(json!({}))).await, 401, "unauthorized", None);
    }
}

// scenario: An account is deleted with everything it owns
async fn an_account_is_deleted_with_everything_it_owns(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let token = ada.post("/me/api-keys", json!({"name": "k"})).await.body["data"]["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let key = Client::with_key(server, &token);
    refused(
        &key.call(Method::DELETE, "/me", Some(json!({"email": "ada@example.com"}))).await,
        403,
        "forbidden",
        None,
    );
    refused(
        &ada.call(Method::DELETE, "/me", Some(json!({"email": "bob@example.com"}))).await,
        400,
        "invalid_parameter",
        Some("email"),
    );
    refused(
        &ada.call(Method::DELETE, "/me", Some(json!({}))).await,
        400,
        "invalid_parameter",
        Some("email"),
    );
    assert_eq!(ada.get("/auth/me").await.status, 200, "refused deletions delete nothing");
    let a = ada.call(Method::DELETE, "/me", Some(json!({"email": " ADA@example.com"}))).await;
    assert_eq!(a.status, 204, "{a:?}");
    assert_eq!(ada.get("/auth/me").await.status, 401);
    assert_eq!(key.get("/auth/me").await.status, 401, "its keys went with it");
    let login = Client::new(server)
        .post("/auth/login", json!({"email": "ada@example.com", "password": "correct horse"}))
        .await;
    assert_eq!(login.status, 401);
    // The address is free again.
    let again = Client::new(server)
        .post("/auth/register", json!({"email": "ada@example.com", "password": "correct horse"}))
        .await;
    assert_eq!(again.status, 201, "{again:?}");
}

/// A resource user A owns: how A creates it (answering its id) and the routes that address
/// it, each `(method, path with {id}, body)`. Later issues add rows.
struct Owned {
    what: &'static str,
    create: for<'c> fn(&'c Client<'c>) -> futures::future::BoxFuture<'c, String>,
    routes: &'static [(&'static str, &'static str, Option<&'static str>)],
    /// How A checks it still exists after B's attempts.
    still_there: for<'c> fn(&'c Client<'c>, String) -> futures::future::BoxFuture<'c, bool>,
}

fn owned_resources() -> Vec<Owned> {
    vec![
        Owned {
            what: "api key",
            create: |a| {
                Box::pin(async move {
                    a.post("/me/api-keys", json!({"name": "a's"})).await.body["data"]["id"]
                        .to_string()
                })
            },
            routes: &[("DELETE", "/me/api-keys/{id}", None)],
            still_there: |a, id| {
                Box::pin(async move {
                    let list = a.get("/me/api-keys").await;
                    list.body["data"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|k| k["id"] == id.parse::<i64>().unwrap())
                })
            },
        },
        Owned {
            what: "saved search",
            create: |a| {
                Box::pin(async move {
                    let body = json!({"name": "a's search", "query": "skills=rust"});
                    a.post("/me/saved-searches", body).await.body["data"]["id"].to_string()
                })
            },
            routes: &[
                (
                    "PATCH",
                    "/me/saved-searches/{id}",
                    Some(r#"{"name": "b's now", "shared": true}"#),
                ),
                ("DELETE", "/me/saved-searches/{id}", None),
                ("POST", "/me/saved-searches/{id}/subscriptions", Some(r#"{"channel": "email"}"#)),
            ],
            still_there: |a, id| {
                Box::pin(async move {
                    let list = a.get("/me/saved-searches").await;
                    list.body["data"].as_array().unwrap().iter().any(|s| {
                        s["id"] == id.parse::<i64>().unwrap()
                            && s["name"] == "a's search"
                            && s["shared_slug"].is_null()
                            && s["subscriptions"].as_array().unwrap().is_empty()
                    })
                })
            },
        },
        Owned {
            what: "subscription",
            create: |a| {
                Box::pin(async move {
                    let body = json!({"name": "a's subscribed", "query": "skills=go"});
                    let search =
                        a.post("/me/saved-searches", body).await.body["data"]["id"].clone();
                    let path = format!("/me/saved-searches/{search}/subscriptions");
                    a.post(&path, json!({"channel": "email"})).await.body["data"]["id"].to_string()
                })
            },
            routes: &[("DELETE", "/me/subscriptions/{id}", None)],
            still_there: |a, id| {
                Box::pin(async move {
                    let list = a.get("/me/saved-searches").await;
                    list.body["data"].as_array().unwrap().iter().any(|s| {
                        s["subscriptions"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|sub| sub["id"] == id.parse::<i64>().unwrap())
                    })
                })
            },
        },
        Owned {
            what: "application",
            create: |a| {
                Box::pin(async move {
                    let slug = crate::tracking::job(a.server, "owned-1", "Owned Role").await;
                    let t = a.call(Method::POST, &format!("/jobs/{slug}/apply"), None).await;
                    t.body["data"]["application"]["id"].to_string()
                })
            },
            routes: &[
                ("PATCH", "/me/applications/{id}", Some(r#"{"notes": "b's"}"#)),
                ("DELETE", "/me/applications/{id}/stage", None),
                ("DELETE", "/me/applications/{id}", None),
            ],
            still_there: |a, id| {
                Box::pin(async move {
                    let list = a.get("/me/tracking?filter=applied").await;
                    list.body["data"].as_array().unwrap().iter().any(|c| {
                        c["id"] == id.parse::<i64>().unwrap()
                            && c["notes"] == ""
                            && c["stage"] == "applied"
                    })
                })
            },
        },
        Owned {
            what: "tracked job",
            create: |a| {
                Box::pin(async move {
                    let slug = crate::tracking::job(a.server, "owned-2", "Tracked Role").await;
                    let on = (crate::server::now() - chrono::Duration::days(40)).date_naive();
                    let body = json!({"applied_on": on.to_string()});
                    a.call(Method::POST, &format!("/jobs/{slug}/apply"), Some(body)).await;
                    slug
                })
            },
            routes: &[
                ("GET", "/me/tracking/{id}", None),
                ("GET", "/me/tracking/{id}/followup", None),
                ("POST", "/me/tracking/{id}/followup", None),
            ],
            still_there: |a, slug| {
                Box::pin(async move {
                    let d = a.get(&format!("/me/tracking/{slug}")).await;
                    d.status == 200 && d.body["data"]["followed_up_at"].is_null()
                })
            },
        },
        Owned {
            what: "assistant session",
            create: |a| {
                Box::pin(async move {
                    let created = a.call(Method::POST, "/assistant/sessions", None).await;
                    created.body["data"]["id"].as_str().unwrap().to_owned()
                })
            },
            routes: &[
                ("GET", "/assistant/sessions/{id}", None),
                ("POST", "/assistant/sessions/{id}/messages", Some(r#"{"text": "b's now"}"#)),
                ("POST", "/assistant/sessions/{id}/retry", None),
                ("POST", "/assistant/sessions/{id}/opening", None),
                ("POST", "/assistant/sessions/{id}/cancel", None),
                ("DELETE", "/assistant/sessions/{id}", None),
            ],
            still_there: |a, id| {
                Box::pin(async move {
                    let d = a.get(&format!("/assistant/sessions/{id}")).await;
                    d.status == 200 && d.body["data"]["messages"] == json!([])
                })
            },
        },
    ]
}

// scenario: Another user's resource is not found
async fn another_users_resources_are_not_found(server: &Server) {
    let a = verified_user(server, "a@example.com").await;
    let b = verified_user(server, "b@example.com").await;
    for resource in owned_resources() {
        let id = (resource.create)(&a).await;
        for (method, path, body) in resource.routes {
            let path = path.replace("{id}", &id);
            let body = body.map(|b| serde_json::from_str(b).unwrap());
            let answer = b.call(method.parse().unwrap(), &path, body).await;
            refused(&answer, 404, "not_found", None);
        }
        assert!((resource.still_there)(&a, id).await, "{} survived B's attempts", resource.what);
    }
}

/// A server over `db` whose clients are named by `X-Forwarded-For` from 127.0.0.1.
async fn behind_a_proxy(db: freehire_store::testing::TestDb) -> Server {
    let mail = tempfile::tempdir().unwrap();
    let state = crate::server::state(db.store.clone(), mail.path())
        .with_trusted_proxies("127.0.0.1/32".parse().unwrap());
    Server::start_state(db, state).await
}

async fn from(server: &Server, ip: &str, path: &str, body: Value) -> reqwest::Response {
    server
        .http
        .post(format!("{}/api/v1{path}", server.base))
        .header("x-forwarded-for", ip)
        .json(&body)
        .send()
        .await
        .unwrap()
}

fn header(res: &reqwest::Response, name: &str) -> Option<String> {
    res.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned)
}

// scenario: The auth routes are rate limited
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_auth_routes_are_limited_per_ip_and_per_account() {
    let server = behind_a_proxy(freehire_store::testing::TestDb::sqlite().await).await;
    // Register: 5 a minute per IP.
    for n in 0..5 {
        let body = json!({"email": format!("u{n}@example.com"), "password": "correct horse"});
        let res = from(&server, "203.0.113.7", "/auth/register", body).await;
        assert_eq!(res.status(), 201);
        assert_eq!(header(&res, "x-ratelimit-limit").as_deref(), Some("5"));
        assert_eq!(header(&res, "x-ratelimit-remaining"), Some((4 - n).to_string()));
        assert!(header(&res, "x-ratelimit-reset").is_some());
    }
    let res = from(
        &server,
        "203.0.113.7",
        "/auth/register",
        json!({"email": "u9@example.com", "password": "correct horse"}),
    )
    .await;
    assert_eq!(res.status(), 429);
    let retry: u64 = header(&res, "retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], "rate_limited");
    // Another IP is not limited, and the refused registration wrote nothing.
    let res = from(
        &server,
        "198.51.100.1",
        "/auth/register",
        json!({"email": "u9@example.com", "password": "correct horse"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    // Login: 10 a minute per account, whatever the IP.
    for n in 0..10 {
        let res = from(
            &server,
            &format!("192.0.2.{n}"),
            "/auth/login",
            json!({"email": "u0@example.com", "password": "wrong horse"}),
        )
        .await;
        assert_eq!(res.status(), 401, "attempt {n}");
    }
    let res = from(
        &server,
        "192.0.2.99",
        "/auth/login",
        json!({"email": "u0@example.com", "password": "correct horse"}),
    )
    .await;
    assert_eq!(res.status(), 429, "the account is limited across IPs");
    let res = from(
        &server,
        "192.0.2.99",
        "/auth/login",
        json!({"email": "u1@example.com", "password": "correct horse"}),
    )
    .await;
    assert_eq!(res.status(), 200, "another account from the same IP is not");
    // Forgotten password: 3 per 5 minutes.
    for _ in 0..3 {
        assert_eq!(
            from(
                &server,
                "192.0.2.50",
                "/auth/password/forgot",
                json!({"email": "u2@example.com"})
            )
            .await
            .status(),
            202
        );
    }
    assert_eq!(
        from(&server, "192.0.2.50", "/auth/password/forgot", json!({"email": "u2@example.com"}))
            .await
            .status(),
        429
    );
    server.db.teardown().await;
}

/// `GET /moderated`: a route behind the `Moderator` gate (no product route needs it yet).
async fn moderated(freehire_api::auth::Moderator(caller): freehire_api::auth::Moderator) -> String {
    caller.user.email.to_string()
}

// scenario: Only moderators pass the moderator gate
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_moderator_gate_admits_moderators_only() {
    use freehire_app::accounts::{OperatorAccount, Operators, PasswordHasher};
    use freehire_domain::{Email, Password, Role};
    let db = freehire_store::testing::TestDb::sqlite().await;
    let mail = tempfile::tempdir().unwrap();
    let state = crate::server::state(db.store.clone(), mail.path());
    let operators = Operators::new(db.store.clone(), PasswordHasher::owasp());
    for (email, role) in [("mod@example.com", Role::Moderator), ("user@example.com", Role::User)] {
        let account = OperatorAccount {
            email: Email::parse(email).unwrap(),
            password: Some(Password::parse("correct horse").unwrap()),
            role,
            verified: true,
        };
        operators.create_account(&account).await.unwrap();
    }
    let app = axum::Router::new()
        .route("/moderated", axum::routing::get(moderated))
        .with_state(state.clone())
        .merge(freehire_api::router(state));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let limits = freehire_api::ServerLimits::default();
    tokio::spawn(freehire_api::serve_router(listener, app, limits, std::future::pending()));
    let http = reqwest::Client::new();
    let session = |email: &'static str| {
        let (http, base) = (http.clone(), base.clone());
        async move {
            let res = http
                .post(format!("{base}/api/v1/auth/login"))
                .json(&json!({"email": email, "password": "correct horse"}))
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200);
            let cookie = res.headers()["set-cookie"].to_str().unwrap();
            cookie.split(';').next().unwrap().to_owned()
        }
    };
    let get = |cookie: Option<String>| {
        let (http, base) = (http.clone(), base.clone());
        async move {
            let mut request = http.get(format!("{base}/moderated"));
            if let Some(cookie) = cookie {
                request = request.header("cookie", cookie);
            }
            request.send().await.unwrap().status().as_u16()
        }
    };
    assert_eq!(get(Some(session("mod@example.com").await)).await, 200);
    assert_eq!(get(Some(session("user@example.com").await)).await, 403);
    assert_eq!(get(None).await, 401);
    db.teardown().await;
}
