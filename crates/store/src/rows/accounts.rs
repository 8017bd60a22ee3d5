//! Account rows as read (`users`, `user_email_codes`, `api_keys`), decoded on both backends
//! through the [`bind`](crate::bind) types and parsed totally into domain values: a stored
//! value that no longer parses is [`StoreError::Corrupt`] naming its column.

use chrono::{DateTime, Utc};
use freehire_domain::{
    ApiKey, ApiKeyId, ApiKeyName, ApiKeyScope, Email, Language, Role, Timezone, User, UserId,
    Username,
};

use crate::{Credentials, KeyHolder, Result, StoreError, bind::Stamp};

/// A user row (the columns of `user_columns!`).
#[derive(sqlx::FromRow)]
pub(crate) struct UserRecord {
    id: i64,
    email: String,
    created_at: Stamp,
    role: String,
    email_verified: bool,
    token_version: i64,
    username: Option<String>,
    timezone: Option<String>,
    language: String,
    pro_until: Option<Stamp>,
    ultra_until: Option<Stamp>,
    has_password: bool,
}

impl UserRecord {
    pub fn into_user(self) -> Result<User> {
        Ok(User {
            id: UserId::new(self.id).map_err(|e| StoreError::corrupt("id", e))?,
            email: Email::parse(&self.email).map_err(|e| StoreError::corrupt("email", e))?,
            role: Role::parse(&self.role).map_err(|e| StoreError::corrupt("role", e))?,
            email_verified: self.email_verified,
            token_version: self.token_version,
            username: self
                .username
                .as_deref()
                .map(Username::parse)
                .transpose()
                .map_err(|e| StoreError::corrupt("username", e))?,
            timezone: self
                .timezone
                .as_deref()
                .map(Timezone::parse)
                .transpose()
                .map_err(|e| StoreError::corrupt("timezone", e))?,
            language: Language::parse(&self.language)
                .map_err(|e| StoreError::corrupt("language", e))?,
            has_password: self.has_password,
            created_at: self.created_at.into(),
            pro_until: self.pro_until.map(Into::into),
            ultra_until: self.ultra_until.map(Into::into),
        })
    }
}

/// A user row with its password hash.
#[derive(sqlx::FromRow)]
pub(crate) struct CredentialsRecord {
    #[sqlx(flatten)]
    user: UserRecord,
    password_hash: Option<String>,
}

impl CredentialsRecord {
    pub fn into_credentials(self) -> Result<Credentials> {
        Ok(Credentials { user: self.user.into_user()?, password_hash: self.password_hash })
    }
}

/// A key row (the `key_*` columns of `api_key_columns!`).
#[derive(sqlx::FromRow)]
pub(crate) struct ApiKeyRecord {
    key_id: i64,
    key_user_id: i64,
    key_name: String,
    key_prefix: String,
    key_scope: String,
    key_created_at: Stamp,
    key_last_used_at: Option<Stamp>,
    key_expires_at: Option<Stamp>,
}

impl ApiKeyRecord {
    pub fn into_api_key(self) -> Result<ApiKey> {
        Ok(ApiKey {
            id: ApiKeyId::new(self.key_id).map_err(|e| StoreError::corrupt("id", e))?,
            user_id: UserId::new(self.key_user_id)
                .map_err(|e| StoreError::corrupt("user_id", e))?,
            name: ApiKeyName::parse(&self.key_name).map_err(|e| StoreError::corrupt("name", e))?,
            prefix: self.key_prefix,
            scope: ApiKeyScope::parse(&self.key_scope)
                .map_err(|e| StoreError::corrupt("scope", e))?,
            created_at: self.key_created_at.into(),
            last_used_at: self.key_last_used_at.map(Into::into),
            expires_at: self.key_expires_at.map(Into::into),
        })
    }
}

/// A key joined with its owner.
#[derive(sqlx::FromRow)]
pub(crate) struct HolderRecord {
    #[sqlx(flatten)]
    key: ApiKeyRecord,
    #[sqlx(flatten)]
    user: UserRecord,
}

impl HolderRecord {
    pub fn into_holder(self) -> Result<KeyHolder> {
        Ok(KeyHolder { key: self.key.into_api_key()?, user: self.user.into_user()? })
    }
}

/// The live code of an owner and purpose.
#[derive(sqlx::FromRow)]
pub(crate) struct CodeRecord {
    code_hash: String,
    expires_at: Stamp,
    attempts: i32,
}

impl CodeRecord {
    /// A record as a read would decode it (for tests of the redeem rule).
    #[cfg(test)]
    pub fn new(code_hash: String, expires_at: Stamp, attempts: i32) -> Self {
        Self { code_hash, expires_at, attempts }
    }

    /// The stored hash.
    pub fn code_hash(&self) -> &str {
        &self.code_hash
    }

    /// When it stops being accepted.
    pub fn expires_at(&self) -> DateTime<Utc> {
        self.expires_at.into()
    }

    /// Wrong entries so far; a negative count is corrupt.
    pub fn attempts(&self) -> Result<u32> {
        u32::try_from(self.attempts).map_err(|e| StoreError::corrupt("attempts", e))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use chrono::TimeZone;

    use super::*;

    fn record() -> UserRecord {
        UserRecord {
            id: 7,
            email: "ada@example.com".into(),
            created_at: Stamp(Utc.with_ymd_and_hms(2026, 11, 5, 8, 0, 0).unwrap()),
            role: "moderator".into(),
            email_verified: true,
            token_version: 3,
            username: Some("Ada".into()),
            timezone: Some("Europe/Berlin".into()),
            language: "pt-BR".into(),
            pro_until: None,
            ultra_until: None,
            has_password: true,
        }
    }

    #[test]
    fn a_stored_user_parses_into_the_domain_shape() {
        let user = record().into_user().unwrap();
        assert_eq!(user.id.get(), 7);
        assert_eq!(user.role, Role::Moderator);
        assert_eq!(user.language.as_str(), "pt-BR");
        assert_eq!(user.timezone.unwrap().as_str(), "Europe/Berlin");
        assert!(user.has_password);
    }

    #[test]
    fn a_stored_value_that_no_longer_parses_is_corrupt_naming_its_column() {
        type Spoil = fn(&mut UserRecord);
        let cases: [(&str, Spoil); 6] = [
            ("role", |r| r.role = "admin".into()),
            ("email", |r| r.email = "not an address".into()),
            ("language", |r| r.language = "english".into()),
            ("timezone", |r| r.timezone = Some("Mars/Olympus".into())),
            ("username", |r| r.username = Some(" ".into())),
            ("id", |r| r.id = 0),
        ];
        for (column, spoil) in cases {
            let mut r = record();
            spoil(&mut r);
            let err = r.into_user().unwrap_err();
            assert!(
                matches!(err, StoreError::Corrupt { column: c, .. } if c == column),
                "{column}: {err:?}"
            );
        }
        let key = ApiKeyRecord {
            key_id: 1,
            key_user_id: 7,
            key_name: "laptop".into(),
            key_prefix: "fh_abc".into(),
            key_scope: "admin".into(),
            key_created_at: Stamp(Utc::now()),
            key_last_used_at: None,
            key_expires_at: None,
        };
        assert!(matches!(key.into_api_key(), Err(StoreError::Corrupt { column: "scope", .. })));
        let code =
            CodeRecord { code_hash: String::new(), expires_at: Stamp(Utc::now()), attempts: -1 };
        assert!(matches!(code.attempts(), Err(StoreError::Corrupt { column: "attempts", .. })));
    }
}
