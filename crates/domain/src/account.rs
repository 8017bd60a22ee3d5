//! Accounts (reference §4.2, §6.2): the values a job seeker's account is made of, parsed at the
//! edge, and the stored shapes the store hands back.
//!
//! - [`Email`]: trimmed and lower-cased as a whole (the account is unique on that form), one
//!   `@`, a local part of 1–64 and a dotted domain, at most 254 characters;
//! - [`Password`]: 8–128 characters, never printed by `Debug` and never serialised;
//! - [`Username`], [`Timezone`] (an IANA zone name), [`Language`] (an IETF tag in canonical
//!   case), [`ApiKeyName`];
//! - [`User`] and [`ApiKey`]: what the store returns; neither carries a secret.

use chrono::{DateTime, Utc};

use crate::{ApiKeyId, ApiKeyScope, DomainError, Role, UserId};

/// Fewest characters in a password.
pub const PASSWORD_MIN_CHARS: usize = 8;
/// Most characters in a password (argon2 hashes any length; this bounds the work a request asks for).
pub const PASSWORD_MAX_CHARS: usize = 128;
/// Most characters in an email address (RFC 5321's path limit).
pub const EMAIL_MAX_CHARS: usize = 254;
/// Most characters in a username.
pub const USERNAME_MAX_CHARS: usize = 40;
/// Most characters in an API key's name.
pub const API_KEY_NAME_MAX_CHARS: usize = 100;
/// Most characters in a language tag.
pub const LANGUAGE_MAX_CHARS: usize = 35;

/// An email address in its account form: trimmed and lower-cased.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct Email(String);

impl Email {
    /// Parses and normalises an address.
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        let value = raw.trim().to_lowercase();
        let invalid = |reason| DomainError::invalid("email", raw, reason);
        if value.is_empty() {
            return Err(invalid("must not be empty"));
        }
        if value.chars().count() > EMAIL_MAX_CHARS {
            return Err(invalid("must be at most 254 characters"));
        }
        if value.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(invalid("must not contain spaces or control characters"));
        }
        let Some((local, domain)) = value.split_once('@') else {
            return Err(invalid("must contain an @"));
        };
        if domain.contains('@') {
            return Err(invalid("must contain exactly one @"));
        }
        if local.is_empty() || local.chars().count() > 64 {
            return Err(invalid("the part before @ must be 1 to 64 characters"));
        }
        if local.starts_with('.') || local.ends_with('.') || local.contains("..") {
            return Err(invalid("the part before @ must not start, end or repeat a dot"));
        }
        if local.chars().any(|c| "\"(),:;<>[\\]".contains(c)) {
            return Err(invalid("the part before @ must not contain quotes, brackets or commas"));
        }
        let labels: Vec<&str> = domain.split('.').collect();
        let label_ok = |l: &&str| {
            !l.is_empty()
                && l.chars().count() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_alphanumeric() || c == '-')
        };
        if labels.len() < 2 || !labels.iter().all(label_ok) {
            return Err(invalid("the domain must be dotted names of letters, digits and hyphens"));
        }
        Ok(Self(value))
    }

    /// The normalised address.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Email {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for Email {
    type Err = DomainError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

/// A plaintext password as the user typed it: 8–128 characters, kept as given (no trimming:
/// spaces are characters). `Debug` prints `Password(***)`; there is no `Display` and no
/// `Serialize`.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    /// Checks the length.
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        let chars = raw.chars().count();
        if chars < PASSWORD_MIN_CHARS {
            return Err(DomainError::invalid("password", "***", "must be at least 8 characters"));
        }
        if chars > PASSWORD_MAX_CHARS {
            return Err(DomainError::invalid("password", "***", "must be at most 128 characters"));
        }
        Ok(Self(raw.to_owned()))
    }

    /// The plaintext, for hashing.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(***)")
    }
}

/// A display name: trimmed, 1–40 characters, no control characters. Not unique.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct Username(String);

impl Username {
    /// Trims and checks a name.
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        let value = raw.trim();
        if value.is_empty() {
            return Err(DomainError::invalid("username", raw, "must not be empty"));
        }
        if value.chars().count() > USERNAME_MAX_CHARS {
            return Err(DomainError::invalid("username", raw, "must be at most 40 characters"));
        }
        if value.chars().any(char::is_control) {
            return Err(DomainError::invalid(
                "username",
                raw,
                "must not contain control characters",
            ));
        }
        Ok(Self(value.to_owned()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An IANA time zone name (`Europe/Berlin`, `UTC`), as the tz database spells it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct Timezone(String);

impl Timezone {
    /// Accepts a zone the tz database knows (exact spelling; `utc` is refused, `UTC` accepted).
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        match raw.trim().parse::<chrono_tz::Tz>() {
            Ok(tz) => Ok(Self(tz.name().to_owned())),
            Err(_) => Err(DomainError::invalid(
                "timezone",
                raw,
                "must be an IANA time zone name such as Europe/Berlin or UTC",
            )),
        }
    }

    /// The zone name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The assistant's answer language: an IETF BCP 47 tag of letters and digits (`en`, `pt-BR`,
/// `zh-Hant-TW`), in canonical case (language lower, script title, region upper).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct Language(String);

impl Language {
    /// The default, `en`.
    pub fn english() -> Self {
        Self("en".to_owned())
    }

    /// Parses a tag: a 2–3 letter language, then subtags of 1–8 letters or digits joined by
    /// `-` (or `_`, read as `-`).
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        let value = raw.trim().replace('_', "-");
        let invalid = || {
            DomainError::invalid(
                "language",
                raw,
                "must be an IETF language tag such as en, de or pt-BR",
            )
        };
        if value.is_empty() || value.len() > LANGUAGE_MAX_CHARS {
            return Err(invalid());
        }
        let mut parts = value.split('-');
        let primary = parts.next().unwrap_or_default();
        if !(2..=3).contains(&primary.len()) || !primary.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(invalid());
        }
        let mut tag = primary.to_ascii_lowercase();
        for part in parts {
            if part.is_empty() || part.len() > 8 || !part.chars().all(|c| c.is_ascii_alphanumeric())
            {
                return Err(invalid());
            }
            tag.push('-');
            let alphabetic = part.chars().all(|c| c.is_ascii_alphabetic());
            match part.len() {
                2 if alphabetic => tag.push_str(&part.to_ascii_uppercase()),
                4 if alphabetic => {
                    let lower = part.to_ascii_lowercase();
                    tag.push_str(&lower[..1].to_ascii_uppercase());
                    tag.push_str(&lower[1..]);
                }
                _ => tag.push_str(&part.to_ascii_lowercase()),
            }
        }
        Ok(Self(tag))
    }

    /// The tag.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The primary language subtag (`pt` of `pt-BR`).
    pub fn primary(&self) -> &str {
        self.0.split('-').next().unwrap_or(&self.0)
    }
}

/// An API key's name: trimmed, 1–100 characters, no control characters.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct ApiKeyName(String);

impl ApiKeyName {
    /// Trims and checks a name.
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        let value = raw.trim();
        if value.is_empty() {
            return Err(DomainError::invalid("name", raw, "must not be empty"));
        }
        if value.chars().count() > API_KEY_NAME_MAX_CHARS {
            return Err(DomainError::invalid("name", raw, "must be at most 100 characters"));
        }
        if value.chars().any(char::is_control) {
            return Err(DomainError::invalid("name", raw, "must not contain control characters"));
        }
        Ok(Self(value.to_owned()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A stored account, without its password hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// Its id.
    pub id: UserId,
    /// The normalised address.
    pub email: Email,
    /// What it may do.
    pub role: Role,
    /// Whether the holder proved they read the mailbox.
    pub email_verified: bool,
    /// Sessions carry it; bumping it revokes every session.
    pub token_version: i64,
    /// A display name.
    pub username: Option<Username>,
    /// The holder's zone (digests, reminders).
    pub timezone: Option<Timezone>,
    /// The assistant's answer language.
    pub language: Language,
    /// Whether the account has a password (accounts made by an identity provider may not).
    pub has_password: bool,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// The assistant plan: `pro` until then.
    pub pro_until: Option<DateTime<Utc>>,
    /// The assistant plan: `ultra` until then.
    pub ultra_until: Option<DateTime<Utc>>,
}

/// A minted API key as stored: never its secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKey {
    /// Its id (addresses it under `/me/api-keys/{id}`; owner-scoped).
    pub id: ApiKeyId,
    /// The owner.
    pub user_id: UserId,
    /// What the holder called it.
    pub name: ApiKeyName,
    /// The first characters of the token, not secret: tells keys apart in a list.
    pub prefix: String,
    /// What it reaches.
    pub scope: ApiKeyScope,
    /// When it was minted.
    pub created_at: DateTime<Utc>,
    /// When it last authenticated a request (to the minute).
    pub last_used_at: Option<DateTime<Utc>>,
    /// When it stops working, if ever.
    pub expires_at: Option<DateTime<Utc>>,
}

impl ApiKey {
    /// Whether the key has expired at `now`.
    pub fn expired(&self, now: DateTime<Utc>) -> bool {
        self.expires_at.is_some_and(|at| at <= now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn email_is_trimmed_lowercased_and_checked() {
        assert_eq!(Email::parse("  Ada@Example.COM ").map(|e| e.0), Ok("ada@example.com".into()));
        for bad in [
            "",
            "ada",
            "ada@",
            "@example.com",
            "ada@example",
            "a b@example.com",
            "ada@@example.com",
            "ada@exa_mple.com",
            ".ada@example.com",
            "ada@-x.com",
        ] {
            let err = Email::parse(bad).unwrap_err().to_string();
            assert!(err.starts_with("invalid email"), "{bad}: {err}");
        }
        assert!(Email::parse(&format!("{}@example.com", "a".repeat(65))).is_err());
        assert!(Email::parse("jürgen@bücher.de").is_ok(), "internationalised addresses are kept");
    }

    #[test]
    fn password_length_and_redaction() {
        assert!(Password::parse("short").is_err());
        assert!(Password::parse(&"x".repeat(129)).is_err());
        let p = Password::parse("correct horse").unwrap();
        assert_eq!(format!("{p:?}"), "Password(***)");
        let err = Password::parse("hunter2").unwrap_err().to_string();
        assert!(!err.contains("hunter2"), "{err}");
        assert!(Password::parse(&"é".repeat(128)).is_ok(), "characters, not bytes");
    }

    #[test]
    fn language_tags_take_canonical_case() {
        assert_eq!(Language::parse("pt_br").unwrap().as_str(), "pt-BR");
        assert_eq!(Language::parse("ZH-hant-tw").unwrap().as_str(), "zh-Hant-TW");
        assert_eq!(Language::parse("de").unwrap().primary(), "de");
        for bad in ["", "e", "english", "en-", "en--US", "en-toolongsubtag", "e1"] {
            assert!(Language::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn timezones_are_iana_names() {
        assert_eq!(Timezone::parse("Europe/Berlin").unwrap().as_str(), "Europe/Berlin");
        assert!(Timezone::parse("UTC").is_ok());
        assert!(Timezone::parse("Mars/Olympus").is_err());
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(Username::parse("  ada ").unwrap().as_str(), "ada");
        assert!(Username::parse("   ").is_err());
        assert!(Username::parse(&"a".repeat(41)).is_err());
        assert!(ApiKeyName::parse("laptop\u{7}").is_err());
        assert_eq!(ApiKeyName::parse(" ci ").unwrap().as_str(), "ci");
    }
}
