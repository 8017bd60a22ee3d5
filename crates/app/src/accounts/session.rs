//! Session tokens: an HS256 JWT (`jsonwebtoken`) whose claims are the user id (`sub`), the
//! account's `token_version` (`tv`), and issue and expiry times. It travels only in the
//! session cookie ([`SESSION_COOKIE`]: HttpOnly, `SameSite=Lax`, `Path=/`, `Secure` when
//! configured). A token is accepted while it has not expired *and* its `tv` equals the
//! account's current `token_version`, so bumping the version revokes every session at once.

use chrono::{DateTime, Duration, Utc};
use freehire_domain::{User, UserId};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};

use super::{AccountError, SessionSecret};

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "freehire_session";

/// The default session lifetime: 24 hours.
pub const DEFAULT_SESSION_TTL: Duration = Duration::hours(24);

#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Claims {
    sub: String,
    tv: i64,
    iat: i64,
    exp: i64,
}

/// A freshly issued session: the token and when it expires (the cookie's `Max-Age`).
#[derive(Debug, Clone)]
pub struct Session {
    /// The signed token (the cookie's value).
    pub token: String,
    /// When it stops being accepted.
    pub expires_at: DateTime<Utc>,
}

/// What a valid signature and expiry say; the caller still checks `token_version`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionClaims {
    /// The account.
    pub user_id: UserId,
    /// The account's `token_version` when the session was issued.
    pub token_version: i64,
}

/// Signs and checks session tokens.
#[derive(Clone)]
pub struct SessionKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    ttl: Duration,
}

impl std::fmt::Debug for SessionKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionKeys").field("ttl", &self.ttl).finish_non_exhaustive()
    }
}

impl SessionKeys {
    /// Keys from a secret, issuing sessions that last `ttl`.
    pub fn new(secret: &SessionSecret, ttl: Duration) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.validate_exp = true;
        validation.set_required_spec_claims(&["exp", "sub"]);
        Self {
            encoding: EncodingKey::from_secret(secret.bytes()),
            decoding: DecodingKey::from_secret(secret.bytes()),
            validation,
            ttl,
        }
    }

    /// How long sessions last.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Issues a session for `user` at `now`.
    pub fn issue(&self, user: &User, now: DateTime<Utc>) -> Result<Session, AccountError> {
        let expires_at = now + self.ttl;
        let claims = Claims {
            sub: user.id.to_string(),
            tv: user.token_version,
            iat: now.timestamp(),
            exp: expires_at.timestamp(),
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| AccountError::Hashing(format!("signing a session: {e}")))?;
        Ok(Session { token, expires_at })
    }

    /// The claims of a token signed with this secret and not expired at `now` (the library
    /// checks expiry against the system clock; `now` is checked too, for pinned clocks).
    pub fn check(&self, token: &str, now: DateTime<Utc>) -> Option<SessionClaims> {
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation).ok()?;
        if data.claims.exp <= now.timestamp() {
            return None;
        }
        let user_id = data.claims.sub.parse().ok()?;
        Some(SessionClaims { user_id, token_version: data.claims.tv })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use freehire_domain::{Email, Language, Role};
    use secrecy::SecretString;

    fn user(tv: i64) -> User {
        User {
            id: UserId::new(7).unwrap(),
            email: Email::parse("ada@example.com").unwrap(),
            role: Role::User,
            email_verified: false,
            token_version: tv,
            username: None,
            timezone: None,
            language: Language::english(),
            has_password: true,
            created_at: Utc::now(),
            pro_until: None,
            ultra_until: None,
        }
    }

    fn keys(secret: &str) -> SessionKeys {
        SessionKeys::new(
            &SessionSecret::new(SecretString::from(secret.to_owned())).unwrap(),
            DEFAULT_SESSION_TTL,
        )
    }

    #[test]
    fn issued_tokens_check_until_they_expire() {
        let keys = keys(&"k".repeat(32));
        let now = Utc::now();
        let session = keys.issue(&user(3), now).unwrap();
        assert_eq!(session.expires_at, now + DEFAULT_SESSION_TTL);
        let claims = keys.check(&session.token, now).unwrap();
        assert_eq!(claims, SessionClaims { user_id: UserId::new(7).unwrap(), token_version: 3 });
        assert!(keys.check(&session.token, now + Duration::hours(25)).is_none());
    }

    #[test]
    fn other_secrets_and_tampering_are_refused() {
        let a = keys(&"a".repeat(32));
        let b = keys(&"b".repeat(32));
        let session = a.issue(&user(1), Utc::now()).unwrap();
        assert!(b.check(&session.token, Utc::now()).is_none());
        let mut tampered = session.token.clone();
        tampered.pop();
        assert!(a.check(&tampered, Utc::now()).is_none());
        assert!(a.check("", Utc::now()).is_none());
        assert!(a.check("not.a.jwt", Utc::now()).is_none());
        let expired = a.issue(&user(1), Utc::now() - Duration::hours(48)).unwrap();
        assert!(a.check(&expired.token, Utc::now()).is_none(), "the library's own clock check");
    }
}
