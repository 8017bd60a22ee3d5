//! [`Operators`]: the account commands an operator runs from the command line (`freehire
//! users …`, `freehire keys create`). They need the store and the password hasher, not the
//! session secret or a mailer: nothing here signs a session or sends mail.

use std::sync::Arc;

use chrono::Utc;
use freehire_domain::{Email, Language, Password, Role, User};
use freehire_store::{ListPage, NewUser, Store, StoreError, UserList};

use super::{AccountError, KeyRequest, MintedKey, PasswordHasher, keys};

/// An account an operator creates.
#[derive(Debug, Clone)]
pub struct OperatorAccount {
    /// The address.
    pub email: Email,
    /// The password, if it has one.
    pub password: Option<Password>,
    /// Its role.
    pub role: Role,
    /// Whether the address counts as verified.
    pub verified: bool,
}

/// The operator's account commands.
#[derive(Clone)]
pub struct Operators {
    store: Arc<dyn Store>,
    hasher: PasswordHasher,
}

/// Creates an account; a taken address is [`AccountError::EmailTaken`].
pub(super) async fn create_user(
    store: &dyn Store,
    new: &NewUser<'_>,
) -> Result<User, AccountError> {
    match store.create_user(new, Utc::now()).await {
        Err(StoreError::Conflict { field: "email" }) => Err(AccountError::EmailTaken),
        other => Ok(other?),
    }
}

impl Operators {
    /// The commands over a store.
    pub fn new(store: Arc<dyn Store>, hasher: PasswordHasher) -> Self {
        Self { store, hasher }
    }

    /// Creates an account (no mail is sent).
    pub async fn create_account(&self, account: &OperatorAccount) -> Result<User, AccountError> {
        let hash = match &account.password {
            Some(password) => Some(self.hasher.hash(password).await?),
            None => None,
        };
        let language = Language::english();
        let new = NewUser {
            email: &account.email,
            password_hash: hash.as_deref(),
            role: account.role,
            email_verified: account.verified,
            language: &language,
        };
        create_user(self.store.as_ref(), &new).await
    }

    /// A page of accounts, oldest first.
    pub async fn list_accounts(&self, page: ListPage) -> Result<UserList, AccountError> {
        Ok(self.store.list_users(page).await?)
    }

    /// The account of an address.
    pub async fn account_by_email(&self, email: &Email) -> Result<User, AccountError> {
        let credentials = self.store.credentials_by_email(email).await?;
        credentials.map(|c| c.user).ok_or(AccountError::NotFound("account"))
    }

    /// Sets an account's role.
    pub async fn set_role(&self, email: &Email, role: Role) -> Result<User, AccountError> {
        let user = self.account_by_email(email).await?;
        self.store.set_role(user.id, role).await?.ok_or(AccountError::NotFound("account"))
    }

    /// Mints a key for the (verified) account of an address.
    pub async fn create_key(
        &self,
        email: &Email,
        request: &KeyRequest,
    ) -> Result<MintedKey, AccountError> {
        let user = self.account_by_email(email).await?;
        keys::mint(self.store.as_ref(), &user, request, Utc::now()).await
    }
}
