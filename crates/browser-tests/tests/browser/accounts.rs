//! The account pages in a browser, with JavaScript and without: sign up, read the file
//! mailer's code, verify, sign out, sign in (a wrong password first), mint an API key (the API
//! takes it), revoke it (the API refuses it), save screening answers (a bad one refused next to
//! its field), sign out.

use freehire_browser_tests::{Browser, Scripts};

use crate::common::{LIMIT, htmx_loaded, served};
use crate::pages::shoot;
use crate::server::Server;

const PASSWORD: &str = "correct horse battery";

/// Submits the form whose action is `action` with its submit button.
async fn submit(b: &Browser, action: &str) {
    b.click(&format!("form[action='{action}'] button[type=submit]")).await.unwrap();
}

/// Waits for the URL to be `path` exactly (path and query).
async fn wait_at(b: &Browser, path: &str) {
    let at = b.wait_location(&format!("be {path}"), |l| l == path).await;
    if let Err(e) = at {
        let now = b.location().await.unwrap_or_default();
        let alert = b.text("main").await.unwrap_or_default();
        panic!("{e}: at {now}, showing {alert:?}");
    }
}

async fn sign_out(b: &Browser) {
    submit(b, "/logout").await;
    wait_at(b, "/login?done=signed-out").await;
    b.wait_for("header a[href='/login']").await.unwrap();
}

/// The whole journey; `shots` also writes the account pages' screenshots.
async fn journey(b: &Browser, server: &Server, email: &str, shots: bool) {
    b.visit("/signup").await.unwrap();
    if shots {
        shoot(b, "signup").await;
    }
    b.fill("#email", email).await.unwrap();
    b.fill("#password", PASSWORD).await.unwrap();
    submit(b, "/signup").await;
    wait_at(b, "/verify?done=signed-up").await;
    // Signed up is signed in: the header names the account.
    b.wait_for("header a[href='/account']").await.unwrap();

    let code = server.mailed_code(email, "verification", 0).await;
    b.fill("#code", &code).await.unwrap();
    submit(b, "/verify").await;
    wait_at(b, "/account?done=verified").await;
    assert!(b.text("main").await.unwrap().contains("verified"));
    sign_out(b).await;

    // Sign in: a wrong password is refused on the form, the right one goes to the account.
    b.fill("#email", email).await.unwrap();
    b.fill("#password", "not the password").await.unwrap();
    submit(b, "/login").await;
    b.wait_for("main p.error").await.unwrap();
    assert_eq!(b.location().await.unwrap(), "/login");
    assert_eq!(b.wait_for("#email").await.unwrap().prop("value").await.unwrap().unwrap(), email);
    if shots {
        shoot(b, "login").await;
    }
    b.fill("#password", PASSWORD).await.unwrap();
    submit(b, "/login").await;
    wait_at(b, "/account").await;
    assert!(b.text("main").await.unwrap().contains(email));

    // Mint a key: shown once, and the API takes it.
    b.fill("#name", "laptop").await.unwrap();
    submit(b, "/account/keys").await;
    let token = b.text("code.token").await.unwrap();
    assert!(token.starts_with("fhk_"), "a key, not {token:?}");
    assert_eq!(server.me_with_key(&token).await, 200, "the API takes the minted key");
    b.wait_text("#keys ~ .table-wrap, section[aria-labelledby=keys]", "laptop").await.unwrap();
    // The MCP section names this server's endpoint with the new key, and an MCP client
    // configured from it is answered as the key's owner.
    let endpoint = b.text("#mcp-url").await.unwrap();
    assert_eq!(endpoint, format!("{}/mcp", server.base), "the endpoint as the browser reached it");
    let config = b.text("#mcp-http").await.unwrap();
    assert!(config.contains(&endpoint) && config.contains(&token), "{config}");
    assert!(b.text("#mcp-stdio").await.unwrap().contains("\"args\": [\"mcp\"]"));
    assert_eq!(server.mcp_whoami(&endpoint, &token).await, email, "the snippet's key works");
    if shots {
        shoot(b, "account").await;
    }

    // Revoke it: gone from the list, and the API refuses it.
    b.click("button[aria-label='Revoke laptop']").await.unwrap();
    wait_at(b, "/account?done=revoked").await;
    b.wait_gone("button[aria-label='Revoke laptop']").await.unwrap();
    assert!(b.count("code.token").await.unwrap() == 0, "the token is never shown again");
    assert_eq!(server.me_with_key(&token).await, 401, "a revoked key is refused");

    // Screening answers: a bad value is refused next to its field, keeping what was typed; the
    // saved answers come back into the form.
    b.fill("#authorized_countries", "DE, fr").await.unwrap();
    b.fill("#desired_salary_amount", "85,000").await.unwrap();
    b.fill("#desired_salary_currency", "euros").await.unwrap();
    b.click("#desired_salary_period option[value='year']").await.unwrap();
    b.click("#willing_to_relocate option[value='no']").await.unwrap();
    submit(b, "/account/screening").await;
    b.wait_for("#desired_salary_currency-error").await.unwrap();
    let value = |css: &'static str| async move {
        b.wait_for(css).await.unwrap().prop("value").await.unwrap().unwrap_or_default()
    };
    assert_eq!(value("#authorized_countries").await, "DE, fr", "what was typed stays");
    b.fill("#desired_salary_currency", "eur").await.unwrap();
    submit(b, "/account/screening").await;
    wait_at(b, "/account?done=screening").await;
    assert_eq!(value("#authorized_countries").await, "DE, FR");
    assert_eq!(value("#desired_salary_amount").await, "85000");
    assert_eq!(value("#desired_salary_currency").await, "EUR");
    assert_eq!(value("#desired_salary_period").await, "year");
    assert_eq!(value("#willing_to_relocate").await, "no");
    assert_eq!(value("#age_18_or_older").await, "", "not stated");

    sign_out(b).await;
    b.visit("/account").await.unwrap();
    wait_at(b, "/login?next=%2Faccount").await;
}

// scenario: The newcomer's journey in a browser
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newcomer_signs_up_verifies_signs_in_and_mints_and_revokes_a_key() {
    let (server, b) = served(Scripts::On).await;
    b.check("a_newcomer_signs_up_verifies_signs_in_and_mints_and_revokes_a_key", LIMIT, async {
        b.visit("/").await.unwrap();
        assert!(htmx_loaded(&b).await, "the page's script runs");
        journey(&b, &server, "ada@example.com", true).await;
    })
    .await;
}

// scenario: The newcomer's journey with plain forms
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signing_up_and_in_work_without_javascript() {
    let (server, b) = served(Scripts::Off).await;
    b.check("signing_up_and_in_work_without_javascript", LIMIT, async {
        b.visit("/login").await.unwrap();
        assert!(!htmx_loaded(&b).await, "no page script runs");
        journey(&b, &server, "grace@example.com", false).await;
    })
    .await;
}
