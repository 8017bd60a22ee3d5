//! The accounts service on both backends, where the HTTP tests cannot reach: a code that
//! expires, a password stored with old parameters re-hashed at login, and key use stamped at
//! most once a minute.

use std::sync::Arc;

use chrono::{Duration, Utc};
use freehire_app::accounts::{
    AccountError, Accounts, AccountsConfig, CodeProblem, DEFAULT_SESSION_TTL, KeyRequest,
    OperatorAccount, Operators, PasswordHasher, SessionSecret,
};
use freehire_domain::{ApiKeyName, ApiKeyScope, Email, Password, Role};
use freehire_mail::FileMailer;
use freehire_store::{NewUser, Store, testing::TestDb};

macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite { $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                let db = freehire_store::testing::TestDb::sqlite().await;
                super::$name(&db).await;
                db.teardown().await;
            }
        )* }
        mod postgres { $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                let db = freehire_store::testing::TestDb::postgres().await;
                super::$name(&db).await;
                db.teardown().await;
            }
        )* }
    };
}

both_backends! {
    a_code_expires_after_fifteen_minutes,
    old_password_parameters_are_rehashed_at_login,
    key_use_is_stamped_at_most_once_a_minute,
    deletion_runs_its_hooks_before_the_rows_go,
}

fn later() -> chrono::DateTime<Utc> {
    Utc::now() + Duration::minutes(16)
}

fn service(store: Arc<dyn Store>, config: &AccountsConfig, mail: &std::path::Path) -> Accounts {
    Accounts::new(store, Arc::new(FileMailer::new(mail)), config, PasswordHasher::owasp())
}

fn email() -> Email {
    Email::parse("ada@example.com").unwrap()
}

fn password() -> Password {
    Password::parse("correct horse").unwrap()
}

/// The code in the newest mail in `dir`.
fn newest_code(dir: &std::path::Path) -> String {
    let mut mails: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    mails.sort();
    let text = std::fs::read_to_string(mails.last().unwrap()).unwrap();
    let subject = text.lines().find(|l| l.starts_with("Subject: ")).unwrap();
    subject["Subject: ".len()..]["".len()..6].to_owned()
}

async fn a_code_expires_after_fifteen_minutes(db: &TestDb) {
    let mail = tempfile::tempdir().unwrap();
    let config =
        AccountsConfig { secret: SessionSecret::random(), session_ttl: DEFAULT_SESSION_TTL };
    let now = service(db.store.clone(), &config, mail.path());
    let registered = now.register(email(), password(), None).await.unwrap();
    assert!(registered.verification_sent);
    let code = newest_code(mail.path());
    let expired = service(db.store.clone(), &config, mail.path()).with_clock(later);
    let e = expired.confirm_verification(&email(), &code).await.unwrap_err();
    assert!(matches!(e, AccountError::Code(CodeProblem::Expired)), "{e}");
    assert!(e.to_string().contains("expired"), "{e}");
    // The expired code is gone, even for the right clock.
    let e = now.confirm_verification(&email(), &code).await.unwrap_err();
    assert!(matches!(e, AccountError::Code(CodeProblem::Missing)), "{e}");
    // Sessions issued now are not accepted sixteen minutes later only if expired: a session
    // lasts a day.
    assert!(expired.session_user(&registered.session.token).await.unwrap().is_some());
}

async fn old_password_parameters_are_rehashed_at_login(db: &TestDb) {
    let cheap = PasswordHasher::with_params(argon2::Params::new(1024, 1, 1, None).unwrap());
    let old_hash = cheap.hash(&password()).await.unwrap();
    let language = freehire_domain::Language::english();
    let new = NewUser {
        email: &email(),
        password_hash: Some(&old_hash),
        role: Role::User,
        email_verified: true,
        language: &language,
    };
    db.store().create_user(&new, Utc::now()).await.unwrap();
    let mail = tempfile::tempdir().unwrap();
    let accounts = Accounts::ephemeral(db.store.clone(), mail.path());
    let (user, _) = accounts.login(&email(), Some(&password())).await.unwrap();
    let stored = db.store().credentials_by_id(user.id).await.unwrap().unwrap();
    let stored = stored.password_hash.unwrap();
    assert!(stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{stored}");
    assert_eq!(user.token_version, 1, "a re-hash keeps the sessions");
    accounts.login(&email(), Some(&password())).await.unwrap();
}

async fn key_use_is_stamped_at_most_once_a_minute(db: &TestDb) {
    let operators = Operators::new(db.store.clone(), PasswordHasher::owasp());
    let account =
        OperatorAccount { email: email(), password: None, role: Role::User, verified: true };
    operators.create_account(&account).await.unwrap();
    let request = KeyRequest {
        name: ApiKeyName::parse("ci").unwrap(),
        scope: ApiKeyScope::Full,
        expires_at: None,
    };
    let minted = operators.create_key(&email(), &request).await.unwrap();
    let mail = tempfile::tempdir().unwrap();
    let accounts = Accounts::ephemeral(db.store.clone(), mail.path());
    let stamp = || async {
        let keys =
            accounts.keys(&operators.account_by_email(&email()).await.unwrap()).await.unwrap();
        keys[0].last_used_at
    };
    assert_eq!(stamp().await, None);
    assert!(accounts.key_user(&minted.token).await.unwrap().is_some());
    let mut first = None;
    for _ in 0..100 {
        first = stamp().await;
        if first.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let first = first.expect("the first use is stamped");
    for _ in 0..5 {
        accounts.key_user(&minted.token).await.unwrap();
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert_eq!(stamp().await, Some(first), "uses within a minute are not stamped again");
    // A minute later (another process's clock), the next use is stamped.
    let later_accounts = Accounts::ephemeral(db.store.clone(), mail.path())
        .with_clock(|| Utc::now() + Duration::minutes(2));
    later_accounts.key_user(&minted.token).await.unwrap();
    let mut moved = false;
    for _ in 0..100 {
        if stamp().await.is_some_and(|t| t > first + Duration::minutes(1)) {
            moved = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(moved, "a use a minute later is stamped");
    // An expired key authenticates nothing.
    let expired = Accounts::ephemeral(db.store.clone(), mail.path());
    let request = KeyRequest { expires_at: Some(Utc::now() + Duration::minutes(1)), ..request };
    let short = operators.create_key(&email(), &request).await.unwrap();
    let future = expired.with_clock(|| Utc::now() + Duration::minutes(5));
    assert!(future.key_user(&short.token).await.unwrap().is_none());
}

// scenario: Deletion runs its hooks before the rows go
/// The deletion hooks (what blocks the account's gateway key) run once the confirmation
/// matched, while the account still exists, and not at all for a wrong confirmation.
async fn deletion_runs_its_hooks_before_the_rows_go(db: &TestDb) {
    let store = db.store.clone();
    let user = freehire_store::testing::user(store.as_ref(), "ada@example.com", Utc::now()).await;
    let seen: Arc<std::sync::Mutex<Vec<(freehire_domain::UserId, bool)>>> = Arc::default();
    let (log, hook_store) = (seen.clone(), store.clone());
    let mail = tempfile::tempdir().unwrap();
    let accounts =
        Accounts::ephemeral(store.clone(), mail.path()).with_before_delete(Arc::new(move |id| {
            let (log, store) = (log.clone(), hook_store.clone());
            Box::pin(async move {
                let present = store.user_by_id(id).await.unwrap().is_some();
                log.lock().unwrap().push((id, present));
            })
        }));
    let wrong = Email::parse("eve@example.com").unwrap();
    assert!(matches!(
        accounts.delete_account(&user, &wrong).await,
        Err(AccountError::EmailMismatch)
    ));
    assert!(seen.lock().unwrap().is_empty(), "a refused deletion runs no hook");
    accounts.delete_account(&user, &email()).await.unwrap();
    assert_eq!(*seen.lock().unwrap(), [(user.id, true)], "once, before the rows went");
    assert!(store.user_by_id(user.id).await.unwrap().is_none());
}
