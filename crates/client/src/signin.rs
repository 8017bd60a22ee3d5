//! Signing in from the command line (`freehire auth login`): the password signs in once
//! (`POST /auth/login`, the session cookie), the session mints a `full` API key for this
//! machine (`POST /me/api-keys`), and the session is signed out again (`POST /auth/logout`).
//! Only the key is kept; the password is never stored.

use reqwest::header::{COOKIE, SET_COOKIE};
use secrecy::{ExposeSecret, SecretString};
use serde_json::{Value, json};

use crate::client::refusal;
use crate::{Client, ClientError};

/// The session cookie's name (the API's `freehire_session`).
const SESSION_COOKIE: &str = "freehire_session";

/// A key minted by signing in.
#[derive(Debug)]
pub struct Minted {
    /// The token (`fhk_…`).
    pub token: SecretString,
    /// The account's address.
    pub email: String,
}

impl Client {
    /// Signs in to the server at `api_url` as `email`, mints a `full` key called `key_name`
    /// and signs the session out. A wrong password is the server's 401.
    pub async fn sign_in_and_mint(
        api_url: &str,
        email: &str,
        password: &SecretString,
        key_name: &str,
    ) -> Result<Minted, ClientError> {
        let client = Client::public(api_url)?;
        let body = json!({ "email": email, "password": password.expose_secret() });
        let (url, login) = client.request(reqwest::Method::POST, "auth/login", Some(&body))?;
        let unreachable = |source: reqwest::Error| ClientError::Unreachable {
            url: url.clone(),
            source: source.without_url(),
        };
        let answer = login.send().await.map_err(unreachable)?;
        let status = answer.status();
        let cookie = answer
            .headers()
            .get_all(SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .filter_map(|v| v.split(';').next())
            .find(|pair| pair.starts_with(&format!("{SESSION_COOKIE}=")))
            .map(str::to_owned);
        let bytes = answer.bytes().await.map_err(unreachable)?;
        if !status.is_success() {
            return Err(refusal(status, &bytes));
        }
        let cookie = cookie.ok_or_else(|| ClientError::Unexpected {
            url: url.clone(),
            reason: "signed in, but no session cookie came back".into(),
        })?;
        let user: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        let email = user["data"]["email"].as_str().unwrap_or(email).to_owned();

        let mint = json!({ "name": key_name, "scope": "full" });
        let (url, request) = client.request(reqwest::Method::POST, "me/api-keys", Some(&mint))?;
        let answer = request.header(COOKIE, &cookie).send().await.map_err(|source| {
            ClientError::Unreachable { url: url.clone(), source: source.without_url() }
        })?;
        let status = answer.status();
        let bytes = answer.bytes().await.unwrap_or_default();
        // The session is not needed any more, minted or not.
        if let Ok((_, logout)) = client.request(reqwest::Method::POST, "auth/logout", None::<&()>) {
            let _ = logout.header(COOKIE, &cookie).send().await;
        }
        if !status.is_success() {
            return Err(refusal(status, &bytes));
        }
        let minted: Value =
            serde_json::from_slice(&bytes).map_err(|e| ClientError::Unexpected {
                url: url.clone(),
                reason: format!("not the expected JSON: {e}"),
            })?;
        let token = minted["data"]["token"].as_str().ok_or_else(|| ClientError::Unexpected {
            url,
            reason: "the answer has no token".into(),
        })?;
        Ok(Minted { token: SecretString::from(token.to_owned()), email })
    }
}
