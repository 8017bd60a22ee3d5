//! The account routes' bodies and answers. Request bodies refuse unknown fields (a misspelt
//! field is an error naming it, not silently ignored); values are parsed into domain types by
//! the `parse` methods, so a bad one is a 400 naming its field. Answers never carry the
//! internal user id, a password hash or a stored token hash.

use chrono::{DateTime, Utc};
use freehire_app::accounts::KeyRequest;
use freehire_domain::{
    ApiKey, ApiKeyName, ApiKeyScope, DomainError, Email, Language, Password, Timezone, Username,
};
use freehire_store::ProfilePatch;
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

/// `POST /auth/register`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegisterBody {
    /// The address (normalised: trimmed, lower-cased).
    #[schema(example = "ada@example.com", max_length = 254)]
    pub email: String,
    /// 8–128 characters.
    #[schema(example = "correct horse", min_length = 8, max_length = 128)]
    pub password: String,
    /// The assistant's answer language (an IETF tag; default `en`).
    #[serde(default)]
    #[schema(example = "en")]
    pub language: Option<String>,
}

impl RegisterBody {
    /// The checked values.
    pub fn parse(&self) -> Result<(Email, Password, Option<Language>), DomainError> {
        Ok((
            Email::parse(&self.email)?,
            Password::parse(&self.password)?,
            self.language.as_deref().map(Language::parse).transpose()?,
        ))
    }
}

/// `POST /auth/login`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoginBody {
    /// The address.
    pub email: String,
    /// The password.
    pub password: String,
}

impl LoginBody {
    /// The checked values. A password of the wrong length cannot be right: it is refused as a
    /// wrong password, not as a malformed one (the answer is the same for every wrong login).
    pub fn parse(&self) -> Result<(Email, Option<Password>), DomainError> {
        Ok((Email::parse(&self.email)?, Password::parse(&self.password).ok()))
    }
}

/// `POST /auth/verify/request` and `POST /auth/password/forgot`.
#[derive(Debug, Deserialize, Default, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmailBody {
    /// The address (optional for a signed-in verification request).
    #[serde(default)]
    pub email: Option<String>,
}

/// `POST /auth/verify/confirm`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfirmBody {
    /// The address (optional when signed in).
    #[serde(default)]
    pub email: Option<String>,
    /// The six digits.
    pub code: String,
}

/// `POST /auth/password/reset`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetBody {
    /// The address.
    pub email: String,
    /// The six digits.
    pub code: String,
    /// The new password.
    pub password: String,
}

/// `POST /me/password`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordBody {
    /// The password now.
    pub current_password: String,
    /// The new one.
    pub new_password: String,
}

impl PasswordBody {
    /// The checked values (the current password of the wrong length is just wrong).
    pub fn parse(&self) -> Result<(Option<Password>, Password), DomainError> {
        let new = Password::parse(&self.new_password).map_err(|e| rename(e, "new_password"))?;
        Ok((Password::parse(&self.current_password).ok(), new))
    }
}

/// The same error naming another field.
pub fn rename(e: DomainError, to: &'static str) -> DomainError {
    match e {
        DomainError::Invalid { value, reason, .. } => {
            DomainError::Invalid { field: to, value, reason }
        }
        DomainError::UnknownValue { value, allowed, .. } => {
            DomainError::UnknownValue { field: to, value, allowed }
        }
    }
}

/// `PATCH /me`: absent leaves a field, `null` clears `username` or `timezone`.
#[derive(Debug, Deserialize, Default, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileBody {
    /// A display name (1–40 characters), or `null` to clear it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, example = "Ada")]
    pub username: Option<Option<String>>,
    /// An IANA zone, or `null` to clear it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, example = "Europe/Berlin")]
    pub timezone: Option<Option<String>>,
    /// An IETF tag (`null` is refused: the language cannot be cleared).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, required = false, example = "pt-BR")]
    pub language: Option<Option<String>>,
}

/// A present field, `null` or not: `Some(None)` for `null`.
pub(crate) fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

impl ProfileBody {
    /// The checked patch.
    pub fn parse(&self) -> Result<ProfilePatch, DomainError> {
        Ok(ProfilePatch {
            username: self
                .username
                .as_ref()
                .map(|v| v.as_deref().map(Username::parse).transpose())
                .transpose()?,
            timezone: self
                .timezone
                .as_ref()
                .map(|v| v.as_deref().map(Timezone::parse).transpose())
                .transpose()?,
            language: match &self.language {
                None => None,
                Some(None) => {
                    return Err(DomainError::Invalid {
                        field: "language",
                        value: "null".to_owned(),
                        reason: "cannot be cleared: send a language tag such as en",
                    });
                }
                Some(Some(tag)) => Some(Language::parse(tag)?),
            },
        })
    }
}

/// `DELETE /me`: the account's email, repeated.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteBody {
    /// Must be the signed-in account's address.
    pub email: String,
}

/// `POST /me/api-keys`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyBody {
    /// What to call it.
    pub name: String,
    /// `full` (default) or `cv`.
    #[serde(default)]
    #[schema(example = "full")]
    pub scope: Option<String>,
    /// When it stops working (RFC 3339, in the future); never when absent.
    #[serde(default)]
    pub expires_at: Option<DateTime<Utc>>,
}

impl KeyBody {
    /// The checked request.
    pub fn parse(&self) -> Result<KeyRequest, DomainError> {
        Ok(KeyRequest {
            name: ApiKeyName::parse(&self.name)?,
            scope: self
                .scope
                .as_deref()
                .map(ApiKeyScope::parse)
                .transpose()?
                .unwrap_or(ApiKeyScope::Full),
            expires_at: self.expires_at,
        })
    }
}

/// An account on the wire.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct UserView {
    /// The normalised address.
    pub email: String,
    /// `user` or `moderator`.
    #[schema(example = "user")]
    pub role: String,
    /// Whether the address is verified.
    pub email_verified: bool,
    /// The display name.
    pub username: Option<String>,
    /// The IANA zone.
    pub timezone: Option<String>,
    /// The assistant's answer language.
    pub language: String,
    /// Whether the account has a password.
    pub has_password: bool,
    /// When it was created.
    pub created_at: DateTime<Utc>,
}

impl From<&freehire_domain::User> for UserView {
    fn from(u: &freehire_domain::User) -> Self {
        Self {
            email: u.email.as_str().to_owned(),
            role: u.role.as_str().to_owned(),
            email_verified: u.email_verified,
            username: u.username.as_ref().map(|n| n.as_str().to_owned()),
            timezone: u.timezone.as_ref().map(|t| t.as_str().to_owned()),
            language: u.language.as_str().to_owned(),
            has_password: u.has_password,
            created_at: u.created_at,
        }
    }
}

/// An API key on the wire (never its token, but once: [`MintedKeyView`]).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ApiKeyView {
    /// Addresses it under `/me/api-keys/{id}`.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// The token's first characters.
    pub prefix: String,
    /// `full` or `cv`.
    pub scope: String,
    /// When it was minted.
    pub created_at: DateTime<Utc>,
    /// When it last authenticated a request (to the minute).
    pub last_used_at: Option<DateTime<Utc>>,
    /// When it stops working.
    pub expires_at: Option<DateTime<Utc>>,
}

impl From<&ApiKey> for ApiKeyView {
    fn from(k: &ApiKey) -> Self {
        Self {
            id: k.id.get(),
            name: k.name.as_str().to_owned(),
            prefix: k.prefix.clone(),
            scope: k.scope.as_str().to_owned(),
            created_at: k.created_at,
            last_used_at: k.last_used_at,
            expires_at: k.expires_at,
        }
    }
}

/// A minted key: the key and its token, shown this once.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MintedKeyView {
    /// The key.
    #[serde(flatten)]
    pub key: ApiKeyView,
    /// The whole token (`fhk_…`): store it now, it is never shown again.
    #[schema(example = "fhk_mfrggzdfmztwq2lknnwg23tpobyxe43uov3ho6dz")]
    pub token: String,
}

/// The answer of a request that mails something (or, to say nothing about who has an
/// account, might).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Accepted {
    /// What happens next.
    pub message: &'static str,
}

/// The registration answer: the account and whether its code was mailed.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RegisteredEnvelope {
    /// The new account.
    pub data: UserView,
    /// What happened beside it.
    pub meta: RegisteredMeta,
}

/// `meta` of the registration answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RegisteredMeta {
    /// Whether the verification code was mailed.
    pub verification_sent: bool,
}
