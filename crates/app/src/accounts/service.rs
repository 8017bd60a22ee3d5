//! [`Accounts`], the service behind the account routes and pages.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};
use freehire_domain::{
    ApiKey, ApiKeyId, ApiKeyScope, CodePurpose, Email, Language, Password, Role, User, UserId,
};
use freehire_ingest::error_chain;
use freehire_mail::Mailer;
use freehire_store::{CodeOutcome, NewEmailCode, NewUser, ProfilePatch, Redeem, Sessions, Store};

use super::{
    AccountError, CODE_MAX_ATTEMPTS, CODE_TTL, CodeKey, CodeProblem, KeyRequest, MintedKey,
    PasswordHasher, Session, SessionKeys, SessionSecret, code, keys, mail, operator, token,
};

/// Least time between two writes of a key's `last_used_at`.
pub const KEY_TOUCH_INTERVAL: Duration = Duration::minutes(1);

/// How the service is set up.
#[derive(Clone, Debug)]
pub struct AccountsConfig {
    /// Signs sessions and keys code hashes.
    pub secret: SessionSecret,
    /// How long a session lasts.
    pub session_ttl: Duration,
}

/// Work that must happen before an account's rows are deleted, outside the database (e.g.
/// blocking the account's own model key at the gateway). It gets the account's id, logs its
/// own failures and never stops the deletion.
pub type BeforeDelete =
    Arc<dyn Fn(UserId) -> futures::future::BoxFuture<'static, ()> + Send + Sync>;

/// The accounts service.
#[derive(Clone)]
pub struct Accounts {
    store: Arc<dyn Store>,
    mailer: Arc<dyn Mailer>,
    sessions: SessionKeys,
    codes: CodeKey,
    hasher: PasswordHasher,
    clock: fn() -> DateTime<Utc>,
    touched: Arc<Mutex<HashMap<ApiKeyId, DateTime<Utc>>>>,
    before_delete: Vec<BeforeDelete>,
}

/// What signing up returns.
#[derive(Debug, Clone)]
pub struct Registered {
    /// The new account.
    pub user: User,
    /// A session for it (registration signs in).
    pub session: Session,
    /// Whether the verification code was mailed (a mail failure is logged; the holder can ask
    /// again).
    pub verification_sent: bool,
}

/// What the caller authenticated with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    /// The session cookie.
    Session,
    /// An API key of this scope.
    Key(ApiKeyScope),
}

impl Accounts {
    /// The service over a store and a mailer.
    pub fn new(
        store: Arc<dyn Store>,
        mailer: Arc<dyn Mailer>,
        config: &AccountsConfig,
        hasher: PasswordHasher,
    ) -> Self {
        Self {
            store,
            mailer,
            sessions: SessionKeys::new(&config.secret, config.session_ttl),
            codes: CodeKey::derive(&config.secret),
            hasher,
            clock: Utc::now,
            touched: Arc::default(),
            before_delete: Vec::new(),
        }
    }

    /// The same service running `hook` when an account is deleted, after the confirmation
    /// matched and before its rows go (the hook may still read them).
    pub fn with_before_delete(mut self, hook: BeforeDelete) -> Self {
        self.before_delete.push(hook);
        self
    }

    /// A service for this process only: a random session secret (sessions end with the
    /// process), mail written as files into `mail_dir`, the production hasher. For tests and
    /// embedding.
    pub fn ephemeral(store: Arc<dyn Store>, mail_dir: &std::path::Path) -> Self {
        let config = AccountsConfig {
            secret: SessionSecret::random(),
            session_ttl: super::DEFAULT_SESSION_TTL,
        };
        let mailer = Arc::new(freehire_mail::FileMailer::new(mail_dir));
        Self::new(store, mailer, &config, PasswordHasher::owasp())
    }

    /// The same service reading time from `clock` (tests).
    pub fn with_clock(self, clock: fn() -> DateTime<Utc>) -> Self {
        Self { clock, ..self }
    }

    fn now(&self) -> DateTime<Utc> {
        (self.clock)()
    }

    /// How long sessions last (the cookie's `Max-Age`).
    pub fn session_ttl(&self) -> Duration {
        self.sessions.ttl()
    }

    /// What the mail goes through (for start-up logs).
    pub fn mailer(&self) -> &dyn Mailer {
        self.mailer.as_ref()
    }

    // ---- sign-up and sign-in ----

    /// Creates an account, signs it in and mails its verification code.
    pub async fn register(
        &self,
        email: Email,
        password: Password,
        language: Option<Language>,
    ) -> Result<Registered, AccountError> {
        let hash = self.hasher.hash(&password).await?;
        let language = language.unwrap_or_else(Language::english);
        let new = NewUser {
            email: &email,
            password_hash: Some(&hash),
            role: Role::User,
            email_verified: false,
            language: &language,
        };
        let user = operator::create_user(self.store.as_ref(), &new).await?;
        let session = self.sessions.issue(&user, self.now())?;
        let verification_sent = match self.send_code(&user, CodePurpose::Verify).await {
            Ok(()) => true,
            Err(e) => {
                tracing::error!(error = %error_chain(&e), "cannot mail the verification code");
                false
            }
        };
        Ok(Registered { user, session, verification_sent })
    }

    /// Checks an email and password and signs in; re-hashes a password stored with other
    /// parameters. `None` is a password that cannot be anyone's (the wrong length): it is
    /// refused like a wrong one, after the same work.
    pub async fn login(
        &self,
        email: &Email,
        password: Option<&Password>,
    ) -> Result<(User, Session), AccountError> {
        let credentials = self.store.credentials_by_email(email).await?;
        let stored = credentials.as_ref().and_then(|c| c.password_hash.as_deref());
        let Some(password) = password else {
            self.hasher.verify(&unmatchable(), None).await?;
            return Err(AccountError::WrongCredentials);
        };
        if !self.hasher.verify(password, stored).await? {
            return Err(AccountError::WrongCredentials);
        }
        let rehash = stored.is_some_and(|phc| self.hasher.needs_rehash(phc));
        let Some(credentials) = credentials else {
            return Err(AccountError::WrongCredentials);
        };
        let mut user = credentials.user;
        if rehash {
            let hash = self.hasher.hash(password).await?;
            if let Some(updated) =
                self.store.set_password_hash(user.id, &hash, Sessions::Keep).await?
            {
                user = updated;
            }
        }
        let session = self.sessions.issue(&user, self.now())?;
        Ok((user, session))
    }

    /// The account a session token belongs to, if the token is genuine, unexpired and not
    /// revoked.
    pub async fn session_user(&self, token: &str) -> Result<Option<User>, AccountError> {
        let Some(claims) = self.sessions.check(token, self.now()) else {
            return Ok(None);
        };
        let user = self.store.user_by_id(claims.user_id).await?;
        Ok(user.filter(|u| u.token_version == claims.token_version))
    }

    /// The account and scope of an API key token, if it is a live key. Stamps the key's
    /// `last_used_at` (in the background, at most once a minute per key).
    pub async fn key_user(&self, token: &str) -> Result<Option<(User, ApiKeyScope)>, AccountError> {
        if !token::looks_like_token(token) {
            return Ok(None);
        }
        let Some(holder) = self.store.api_key_holder(&token::hash(token)).await? else {
            return Ok(None);
        };
        let now = self.now();
        if holder.key.expired(now) {
            return Ok(None);
        }
        self.touch(holder.key.id, now);
        Ok(Some((holder.user, holder.key.scope)))
    }

    fn touch(&self, id: ApiKeyId, now: DateTime<Utc>) {
        {
            let Ok(mut touched) = self.touched.lock() else { return };
            if touched.get(&id).is_some_and(|at| now - *at < KEY_TOUCH_INTERVAL) {
                return;
            }
            touched.insert(id, now);
        }
        let store = self.store.clone();
        tokio::spawn(async move {
            if let Err(e) = store.touch_api_key(id, now, KEY_TOUCH_INTERVAL).await {
                tracing::warn!(error = %error_chain(&e), "cannot stamp an API key's last use");
            }
        });
    }

    /// Revokes every session of the account.
    pub async fn logout_everywhere(&self, user: &User) -> Result<(), AccountError> {
        self.store.bump_token_version(user.id).await?;
        Ok(())
    }

    // ---- codes ----

    async fn send_code(&self, user: &User, purpose: CodePurpose) -> Result<(), AccountError> {
        let code = self.codes.generate();
        let hash = self.codes.hash(user.id, purpose, &code);
        let now = self.now();
        let stored = NewEmailCode { purpose, code_hash: &hash, expires_at: now + CODE_TTL };
        if !self.store.put_email_code(user.id, &stored, now).await? {
            return Err(AccountError::NotFound("account"));
        }
        let message = mail::code_message(&user.email, purpose, &code, CODE_TTL.num_minutes());
        self.mailer.send(&message).await.map_err(AccountError::Mail)?;
        Ok(())
    }

    /// Mails a new verification code to a signed-in account (nothing when it is verified).
    pub async fn request_verification(&self, user: &User) -> Result<(), AccountError> {
        if user.email_verified {
            return Ok(());
        }
        self.send_code(user, CodePurpose::Verify).await
    }

    /// Mails a new verification code to the account of `email`, if there is an unverified one,
    /// in the background: the answer is the same, as fast, whether or not there is.
    pub async fn request_verification_by_email(&self, email: &Email) -> Result<(), AccountError> {
        self.in_background(email, CodePurpose::Verify).await
    }

    /// Mails a password-reset code to the account of `email`, if there is one, in the
    /// background (the same answer either way).
    pub async fn forgot_password(&self, email: &Email) -> Result<(), AccountError> {
        self.in_background(email, CodePurpose::Reset).await
    }

    async fn in_background(&self, email: &Email, purpose: CodePurpose) -> Result<(), AccountError> {
        let this = self.clone();
        let email = email.clone();
        tokio::spawn(async move {
            let result = async {
                let Some(credentials) = this.store.credentials_by_email(&email).await? else {
                    return Ok(());
                };
                if purpose == CodePurpose::Verify && credentials.user.email_verified {
                    return Ok(());
                }
                this.send_code(&credentials.user, purpose).await
            }
            .await;
            if let Err(e) = result {
                tracing::error!(error = %error_chain(&e), purpose = %purpose, "cannot mail a code");
            }
        });
        Ok(())
    }

    /// Redeems a verification code for the account of `email`.
    pub async fn confirm_verification(
        &self,
        email: &Email,
        code: &str,
    ) -> Result<User, AccountError> {
        check_code_shape(code)?;
        let Some(credentials) = self.store.credentials_by_email(email).await? else {
            return Err(AccountError::Code(CodeProblem::Missing));
        };
        let user = credentials.user;
        if user.email_verified {
            return Ok(user);
        }
        self.redeem(&user, CodePurpose::Verify, code, &Redeem::Verify).await
    }

    /// Redeems a reset code: sets the new password, marks the address verified, revokes every
    /// session and signs in afresh.
    pub async fn reset_password(
        &self,
        email: &Email,
        code: &str,
        password: &Password,
    ) -> Result<(User, Session), AccountError> {
        check_code_shape(code)?;
        let Some(credentials) = self.store.credentials_by_email(email).await? else {
            return Err(AccountError::Code(CodeProblem::Missing));
        };
        let hash = self.hasher.hash(password).await?;
        let user = self
            .redeem(&credentials.user, CodePurpose::Reset, code, &Redeem::SetPassword(hash))
            .await?;
        let session = self.sessions.issue(&user, self.now())?;
        Ok((user, session))
    }

    async fn redeem(
        &self,
        user: &User,
        purpose: CodePurpose,
        code: &str,
        redeem: &Redeem,
    ) -> Result<User, AccountError> {
        let hash = self.codes.hash(user.id, purpose, code);
        let outcome = self
            .store
            .redeem_email_code(user.id, purpose, &hash, redeem, CODE_MAX_ATTEMPTS, self.now())
            .await?;
        match outcome {
            CodeOutcome::Redeemed(user) => Ok(user),
            CodeOutcome::Wrong { attempts_left } => {
                Err(AccountError::Code(CodeProblem::Wrong { attempts_left }))
            }
            CodeOutcome::Expired => Err(AccountError::Code(CodeProblem::Expired)),
            CodeOutcome::Exhausted => Err(AccountError::Code(CodeProblem::Exhausted)),
            CodeOutcome::Missing => Err(AccountError::Code(CodeProblem::Missing)),
        }
    }

    // ---- the signed-in account ----

    /// Changes the password (the current one must be given), revokes every session and signs
    /// this client in afresh.
    pub async fn change_password(
        &self,
        user: &User,
        current: &Password,
        new: &Password,
    ) -> Result<(User, Session), AccountError> {
        let credentials = self.store.credentials_by_id(user.id).await?;
        let stored = credentials.as_ref().and_then(|c| c.password_hash.as_deref());
        if !self.hasher.verify(current, stored).await? {
            return Err(AccountError::WrongCurrentPassword);
        }
        let hash = self.hasher.hash(new).await?;
        let user = self
            .store
            .set_password_hash(user.id, &hash, Sessions::Revoke)
            .await?
            .ok_or(AccountError::NotFound("account"))?;
        let session = self.sessions.issue(&user, self.now())?;
        Ok((user, session))
    }

    /// Applies a profile patch.
    pub async fn update_profile(
        &self,
        user: &User,
        patch: &ProfilePatch,
    ) -> Result<User, AccountError> {
        self.store.update_profile(user.id, patch).await?.ok_or(AccountError::NotFound("account"))
    }

    /// Deletes the account and everything it owns; `confirmation` must be its email.
    pub async fn delete_account(
        &self,
        user: &User,
        confirmation: &Email,
    ) -> Result<(), AccountError> {
        if confirmation != &user.email {
            return Err(AccountError::EmailMismatch);
        }
        for hook in &self.before_delete {
            hook(user.id).await;
        }
        if !self.store.delete_user(user.id).await? {
            return Err(AccountError::NotFound("account"));
        }
        Ok(())
    }

    // ---- API keys ----

    /// Mints a key for a verified account.
    pub async fn create_key(
        &self,
        user: &User,
        request: &KeyRequest,
    ) -> Result<MintedKey, AccountError> {
        keys::mint(self.store.as_ref(), user, request, self.now()).await
    }

    /// The account's keys, newest first.
    pub async fn keys(&self, user: &User) -> Result<Vec<ApiKey>, AccountError> {
        Ok(self.store.list_api_keys(user.id).await?)
    }

    /// Deletes one of the account's keys ("not found" for anyone else's).
    pub async fn delete_key(&self, user: &User, id: ApiKeyId) -> Result<(), AccountError> {
        if self.store.delete_api_key(user.id, id).await? {
            Ok(())
        } else {
            Err(AccountError::NotFound("API key"))
        }
    }

    /// The account of an id (gates re-read it).
    pub async fn account(&self, id: UserId) -> Result<Option<User>, AccountError> {
        Ok(self.store.user_by_id(id).await?)
    }
}

/// A password to spend the dummy verification on (verified against the dummy hash only,
/// which never matches).
fn unmatchable() -> Password {
    #[allow(clippy::expect_used)] // a constant of valid length
    Password::parse("the dummy verification of a refused login").expect("a valid length")
}

fn check_code_shape(code: &str) -> Result<(), AccountError> {
    if code::looks_like_code(code) {
        Ok(())
    } else {
        Err(freehire_domain::DomainError::Invalid {
            field: "code",
            value: code.chars().take(20).collect(),
            reason: "must be the 6 digits from the message",
        }
        .into())
    }
}
