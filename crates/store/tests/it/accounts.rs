//! Accounts, one-time email codes and API keys: every `AccountRepo` method and every outcome,
//! and that an owner-scoped method never reaches another account's rows.

use chrono::Duration;
use freehire_domain::{
    ApiKeyId, ApiKeyName, ApiKeyScope, CodePurpose, Email, Language, Role, Timezone, User, UserId,
    Username,
};
use freehire_store::{
    CodeOutcome, ListPage, NewApiKey, NewEmailCode, NewUser, ProfilePatch, Redeem, Sessions, Store,
    StoreError,
};

use crate::fixtures::t;

fn email(raw: &str) -> Email {
    Email::parse(raw).unwrap()
}

fn english() -> Language {
    Language::english()
}

/// A plain account with a password, created at `day` 09:00.
async fn user(s: &dyn Store, address: &str, day: u32) -> User {
    let email = email(address);
    let language = english();
    let new = NewUser {
        email: &email,
        password_hash: Some("$argon2id$v=19$first"),
        role: Role::User,
        email_verified: false,
        language: &language,
    };
    s.create_user(&new, t(day, 9)).await.unwrap()
}

/// A stand-in for a hex hash (a code's keyed hash, a token's SHA-256).
fn hash(n: u32) -> String {
    format!("{n:064x}")
}

async fn put(s: &dyn Store, owner: UserId, purpose: CodePurpose, code_hash: &str) {
    let code = NewEmailCode { purpose, code_hash, expires_at: t(10, 10) };
    assert!(s.put_email_code(owner, &code, t(10, 9)).await.unwrap());
}

/// Redeems a verification code at 10th 09:30 (the code of [`put`] lives until 10:00).
async fn verify(s: &dyn Store, owner: UserId, code_hash: &str, max: u32) -> CodeOutcome {
    s.redeem_email_code(
        owner,
        CodePurpose::Verify,
        code_hash,
        &Redeem::Verify,
        max,
        t(10, 9) + Duration::minutes(30),
    )
    .await
    .unwrap()
}

async fn key(
    s: &dyn Store,
    owner: UserId,
    name: &str,
    token_hash: &str,
    day: u32,
) -> freehire_domain::ApiKey {
    let name = ApiKeyName::parse(name).unwrap();
    let new = NewApiKey {
        name: &name,
        token_hash,
        prefix: &token_hash[..8],
        scope: ApiKeyScope::Full,
        expires_at: None,
    };
    s.create_api_key(owner, &new, t(day, 9)).await.unwrap()
}

fn missing_user() -> UserId {
    UserId::new(999_999).unwrap()
}

pub async fn users_are_created_read_and_listed_oldest_first(s: &dyn Store) {
    let ada = user(s, " Ada@Example.COM ", 3).await;
    assert_eq!(ada.email.as_str(), "ada@example.com");
    assert_eq!(ada.role, Role::User);
    assert!(!ada.email_verified);
    assert_eq!(ada.token_version, 1, "a new account's sessions start at version 1");
    assert_eq!(ada.username, None);
    assert_eq!(ada.timezone, None);
    assert_eq!(ada.language, english());
    assert!(ada.has_password);
    assert_eq!(ada.created_at, t(3, 9));
    assert_eq!((ada.pro_until, ada.ultra_until), (None, None));
    assert_eq!(s.user_by_id(ada.id).await.unwrap(), Some(ada.clone()));
    assert_eq!(s.user_by_id(missing_user()).await.unwrap(), None);

    // An operator-made account: verified, moderator, another language, no password.
    let grace_email = email("grace@example.com");
    let german = Language::parse("de").unwrap();
    let grace = s
        .create_user(
            &NewUser {
                email: &grace_email,
                password_hash: None,
                role: Role::Moderator,
                email_verified: true,
                language: &german,
            },
            t(1, 9),
        )
        .await
        .unwrap();
    assert_eq!(grace.role, Role::Moderator);
    assert!(grace.email_verified);
    assert!(!grace.has_password);
    assert_eq!(grace.language.as_str(), "de");

    let creds = s.credentials_by_email(&email("ADA@example.com")).await.unwrap().unwrap();
    assert_eq!(creds.user, ada);
    assert_eq!(creds.password_hash.as_deref(), Some("$argon2id$v=19$first"));
    let creds = s.credentials_by_id(grace.id).await.unwrap().unwrap();
    assert_eq!(creds.user, grace);
    assert_eq!(creds.password_hash, None);
    assert!(s.credentials_by_email(&email("nobody@example.com")).await.unwrap().is_none());
    assert!(s.credentials_by_id(missing_user()).await.unwrap().is_none());

    let linus = user(s, "linus@example.com", 5).await;
    let all = s.list_users(ListPage::default()).await.unwrap();
    assert_eq!(all.total, 3);
    assert_eq!(all.users, vec![grace.clone(), ada.clone(), linus.clone()], "oldest first");
    let page = s.list_users(ListPage::new(2, 1)).await.unwrap();
    assert_eq!(page.total, 3);
    assert_eq!(page.users, vec![ada, linus]);
    let past = s.list_users(ListPage::new(2, 3)).await.unwrap();
    assert_eq!((past.users.len(), past.total), (0, 3));
}

pub async fn an_email_is_taken_in_its_lower_cased_form(s: &dyn Store) {
    let ada = user(s, "ada@x.io", 1).await;
    let again = email("ADA@X.io");
    assert_eq!(again, ada.email);
    let language = english();
    let err = s
        .create_user(
            &NewUser {
                email: &again,
                password_hash: None,
                role: Role::User,
                email_verified: false,
                language: &language,
            },
            t(2, 9),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Conflict { field: "email" }), "{err:?}");
    assert_eq!(s.list_users(ListPage::default()).await.unwrap().total, 1, "nothing was written");
    // Another address is another account.
    user(s, "ada@y.io", 2).await;
}

pub async fn concurrent_creates_of_one_email_leave_one_account(s: &dyn Store) {
    let address = email("race@example.com");
    let language = english();
    let new = NewUser {
        email: &address,
        password_hash: None,
        role: Role::User,
        email_verified: false,
        language: &language,
    };
    let (a, b) = tokio::join!(s.create_user(&new, t(1, 9)), s.create_user(&new, t(1, 9)));
    let (won, lost) = match (a, b) {
        (Ok(user), Err(e)) | (Err(e), Ok(user)) => (user, e),
        other => panic!("exactly one create must win: {other:?}"),
    };
    assert!(matches!(lost, StoreError::Conflict { field: "email" }), "{lost:?}");
    let all = s.list_users(ListPage::default()).await.unwrap();
    assert_eq!(all.users, vec![won]);
}

pub async fn a_password_change_keeps_or_revokes_sessions(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    let kept = s.set_password_hash(ada.id, "$argon2id$rehash", Sessions::Keep).await.unwrap();
    let kept = kept.unwrap();
    assert_eq!(kept.token_version, 1, "a re-hash on login keeps the sessions");
    assert_eq!(
        s.credentials_by_id(ada.id).await.unwrap().unwrap().password_hash.as_deref(),
        Some("$argon2id$rehash")
    );
    let revoked = s.set_password_hash(ada.id, "$argon2id$new", Sessions::Revoke).await.unwrap();
    assert_eq!(revoked.unwrap().token_version, 2, "a new password revokes every session");
    assert_eq!(
        s.credentials_by_email(&ada.email).await.unwrap().unwrap().password_hash.as_deref(),
        Some("$argon2id$new")
    );
    let bumped = s.bump_token_version(ada.id).await.unwrap().unwrap();
    assert_eq!(bumped.token_version, 3);
    assert_eq!(s.user_by_id(ada.id).await.unwrap().unwrap().token_version, 3);

    // An account without a password gains one.
    let sso_email = email("sso@example.com");
    let language = english();
    let sso = s
        .create_user(
            &NewUser {
                email: &sso_email,
                password_hash: None,
                role: Role::User,
                email_verified: true,
                language: &language,
            },
            t(1, 9),
        )
        .await
        .unwrap();
    let with = s.set_password_hash(sso.id, "$argon2id$x", Sessions::Keep).await.unwrap();
    assert!(with.unwrap().has_password);

    assert_eq!(s.set_password_hash(missing_user(), "h", Sessions::Revoke).await.unwrap(), None);
    assert_eq!(s.bump_token_version(missing_user()).await.unwrap(), None);
    assert_eq!(s.user_by_id(ada.id).await.unwrap().unwrap().token_version, 3, "others untouched");
}

pub async fn profile_patches_set_clear_and_keep(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    let other = user(s, "other@example.com", 1).await;
    let set = ProfilePatch {
        username: Some(Some(Username::parse("Ada L.").unwrap())),
        timezone: Some(Some(Timezone::parse("Europe/Berlin").unwrap())),
        language: Some(Language::parse("pt_br").unwrap()),
    };
    let after = s.update_profile(ada.id, &set).await.unwrap().unwrap();
    assert_eq!(after.username.as_ref().map(Username::as_str), Some("Ada L."));
    assert_eq!(after.timezone.as_ref().map(Timezone::as_str), Some("Europe/Berlin"));
    assert_eq!(after.language.as_str(), "pt-BR");
    assert_eq!(s.user_by_id(ada.id).await.unwrap().unwrap(), after);

    // Only the username is cleared; the rest is kept.
    let clear = ProfilePatch { username: Some(None), ..ProfilePatch::default() };
    let cleared = s.update_profile(ada.id, &clear).await.unwrap().unwrap();
    assert_eq!(cleared.username, None);
    assert_eq!(cleared.timezone, after.timezone);
    assert_eq!(cleared.language, after.language);

    // A language alone; then a time zone cleared.
    let lang = ProfilePatch { language: Some(english()), ..ProfilePatch::default() };
    let english_again = s.update_profile(ada.id, &lang).await.unwrap().unwrap();
    assert_eq!(english_again.language, english());
    assert_eq!(english_again.timezone, after.timezone);
    let no_zone = ProfilePatch { timezone: Some(None), ..ProfilePatch::default() };
    assert_eq!(s.update_profile(ada.id, &no_zone).await.unwrap().unwrap().timezone, None);

    // An empty patch reads.
    let read = s.update_profile(ada.id, &ProfilePatch::default()).await.unwrap().unwrap();
    assert_eq!(read, s.user_by_id(ada.id).await.unwrap().unwrap());
    assert_eq!(s.update_profile(missing_user(), &set).await.unwrap(), None);
    assert_eq!(s.update_profile(missing_user(), &ProfilePatch::default()).await.unwrap(), None);
    assert_eq!(
        s.user_by_id(other.id).await.unwrap().unwrap(),
        other,
        "another account is untouched"
    );
}

pub async fn role_and_verification_are_set(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    let other = user(s, "other@example.com", 1).await;
    let moderator = s.set_role(ada.id, Role::Moderator).await.unwrap().unwrap();
    assert_eq!(moderator.role, Role::Moderator);
    assert_eq!(s.user_by_id(ada.id).await.unwrap().unwrap().role, Role::Moderator);
    assert_eq!(s.set_role(ada.id, Role::User).await.unwrap().unwrap().role, Role::User);
    let verified = s.set_email_verified(ada.id).await.unwrap().unwrap();
    assert!(verified.email_verified);
    assert!(s.set_email_verified(ada.id).await.unwrap().unwrap().email_verified, "idempotent");
    assert_eq!(s.set_role(missing_user(), Role::Moderator).await.unwrap(), None);
    assert_eq!(s.set_email_verified(missing_user()).await.unwrap(), None);
    assert_eq!(s.user_by_id(other.id).await.unwrap().unwrap(), other);
}

pub async fn a_right_code_is_redeemed_once(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    put(s, ada.id, CodePurpose::Verify, &hash(1)).await;
    let CodeOutcome::Redeemed(after) = verify(s, ada.id, &hash(1), 5).await else {
        panic!("a right, live code redeems");
    };
    assert!(after.email_verified);
    assert_eq!(after.token_version, ada.token_version, "verifying revokes nothing");
    assert_eq!(s.user_by_id(ada.id).await.unwrap().unwrap(), after);
    assert_eq!(verify(s, ada.id, &hash(1), 5).await, CodeOutcome::Missing, "a code is used once");
    // No code was ever requested.
    let reset = s
        .redeem_email_code(ada.id, CodePurpose::Reset, &hash(1), &Redeem::Verify, 5, t(10, 9))
        .await
        .unwrap();
    assert_eq!(reset, CodeOutcome::Missing);
    assert_eq!(verify(s, missing_user(), &hash(1), 5).await, CodeOutcome::Missing);
}

pub async fn wrong_codes_count_down_to_spent(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    put(s, ada.id, CodePurpose::Verify, &hash(1)).await;
    assert_eq!(verify(s, ada.id, &hash(2), 3).await, CodeOutcome::Wrong { attempts_left: 2 });
    // A right code after a wrong one still redeems.
    assert!(matches!(verify(s, ada.id, &hash(1), 3).await, CodeOutcome::Redeemed(_)));

    put(s, ada.id, CodePurpose::Verify, &hash(3)).await;
    assert_eq!(verify(s, ada.id, &hash(2), 3).await, CodeOutcome::Wrong { attempts_left: 2 });
    assert_eq!(verify(s, ada.id, &hash(2), 3).await, CodeOutcome::Wrong { attempts_left: 1 });
    assert_eq!(verify(s, ada.id, &hash(4), 3).await, CodeOutcome::Wrong { attempts_left: 0 });
    // Spent: deleted with the last attempt, so even the right code finds nothing.
    assert_eq!(verify(s, ada.id, &hash(3), 3).await, CodeOutcome::Missing);
    // A hash that differs only in length or case is wrong.
    put(s, ada.id, CodePurpose::Verify, &hash(5)).await;
    let longer = format!("{}0", hash(5));
    assert_eq!(verify(s, ada.id, &longer, 3).await, CodeOutcome::Wrong { attempts_left: 2 });
    let upper = hash(0xabc).to_uppercase();
    put(s, ada.id, CodePurpose::Verify, &hash(0xabc)).await;
    assert_eq!(verify(s, ada.id, &upper, 3).await, CodeOutcome::Wrong { attempts_left: 2 });
}

pub async fn an_expired_code_is_refused_and_deleted(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    put(s, ada.id, CodePurpose::Verify, &hash(1)).await;
    // The code of `put` expires at 10th 10:00: at that instant it is expired.
    let at_expiry = s
        .redeem_email_code(ada.id, CodePurpose::Verify, &hash(1), &Redeem::Verify, 5, t(10, 10))
        .await
        .unwrap();
    assert_eq!(at_expiry, CodeOutcome::Expired);
    assert_eq!(verify(s, ada.id, &hash(1), 5).await, CodeOutcome::Missing, "it was deleted");
    assert!(!s.user_by_id(ada.id).await.unwrap().unwrap().email_verified, "nothing applied");

    // Expired whatever is entered, a microsecond late.
    put(s, ada.id, CodePurpose::Verify, &hash(1)).await;
    let late = t(10, 10) + Duration::microseconds(1);
    let wrong_late = s
        .redeem_email_code(ada.id, CodePurpose::Verify, &hash(9), &Redeem::Verify, 5, late)
        .await
        .unwrap();
    assert_eq!(wrong_late, CodeOutcome::Expired);
    assert_eq!(verify(s, ada.id, &hash(1), 5).await, CodeOutcome::Missing);
}

pub async fn an_exhausted_code_is_refused_and_deleted(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    put(s, ada.id, CodePurpose::Verify, &hash(1)).await;
    assert_eq!(verify(s, ada.id, &hash(2), 5).await, CodeOutcome::Wrong { attempts_left: 4 });
    assert_eq!(verify(s, ada.id, &hash(2), 5).await, CodeOutcome::Wrong { attempts_left: 3 });
    // The limit came down to 2 (a configuration change): two attempts are spent already, so
    // even the right code is refused, and the code is gone.
    assert_eq!(verify(s, ada.id, &hash(1), 2).await, CodeOutcome::Exhausted);
    assert_eq!(verify(s, ada.id, &hash(1), 5).await, CodeOutcome::Missing);
    assert!(!s.user_by_id(ada.id).await.unwrap().unwrap().email_verified);
}

pub async fn a_new_code_replaces_the_old_and_resets_attempts(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    put(s, ada.id, CodePurpose::Verify, &hash(1)).await;
    assert_eq!(verify(s, ada.id, &hash(9), 3).await, CodeOutcome::Wrong { attempts_left: 2 });
    assert_eq!(verify(s, ada.id, &hash(9), 3).await, CodeOutcome::Wrong { attempts_left: 1 });
    put(s, ada.id, CodePurpose::Verify, &hash(2)).await;
    // The old code no longer works, and the count starts again for the new one.
    assert_eq!(verify(s, ada.id, &hash(1), 3).await, CodeOutcome::Wrong { attempts_left: 2 });
    assert_eq!(verify(s, ada.id, &hash(9), 3).await, CodeOutcome::Wrong { attempts_left: 1 });
    assert!(matches!(verify(s, ada.id, &hash(2), 3).await, CodeOutcome::Redeemed(_)));
    // A code for an account that does not exist is not stored.
    let code =
        NewEmailCode { purpose: CodePurpose::Verify, code_hash: &hash(1), expires_at: t(10, 10) };
    assert!(!s.put_email_code(missing_user(), &code, t(10, 9)).await.unwrap());
}

pub async fn codes_are_per_purpose_and_per_owner(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    let bob = user(s, "bob@example.com", 1).await;
    put(s, ada.id, CodePurpose::Verify, &hash(1)).await;
    put(s, ada.id, CodePurpose::Reset, &hash(2)).await;

    // A reset code does not verify, a verify code does not reset.
    assert_eq!(verify(s, ada.id, &hash(2), 3).await, CodeOutcome::Wrong { attempts_left: 2 });
    let reset_with_verify = s
        .redeem_email_code(ada.id, CodePurpose::Reset, &hash(1), &Redeem::Verify, 3, t(10, 9))
        .await
        .unwrap();
    assert_eq!(reset_with_verify, CodeOutcome::Wrong { attempts_left: 2 });

    // Bob cannot redeem Ada's code: he has none, and Ada's count is untouched.
    assert_eq!(verify(s, bob.id, &hash(1), 3).await, CodeOutcome::Missing);
    assert!(!s.user_by_id(bob.id).await.unwrap().unwrap().email_verified);
    put(s, bob.id, CodePurpose::Verify, &hash(3)).await;
    assert_eq!(verify(s, bob.id, &hash(1), 3).await, CodeOutcome::Wrong { attempts_left: 2 });
    assert_eq!(verify(s, ada.id, &hash(3), 3).await, CodeOutcome::Wrong { attempts_left: 1 });

    let CodeOutcome::Redeemed(ada_after) = verify(s, ada.id, &hash(1), 3).await else {
        panic!("Ada's own code redeems");
    };
    assert_eq!(ada_after.id, ada.id);
    assert!(!s.user_by_id(bob.id).await.unwrap().unwrap().email_verified, "Bob is not verified");
    // Bob's code and Ada's reset code are still live.
    assert!(
        matches!(verify(s, bob.id, &hash(3), 3).await, CodeOutcome::Redeemed(u) if u.id == bob.id)
    );
    let reset = s
        .redeem_email_code(
            ada.id,
            CodePurpose::Reset,
            &hash(2),
            &Redeem::SetPassword("$argon2id$reset".into()),
            3,
            t(10, 9),
        )
        .await
        .unwrap();
    assert!(matches!(reset, CodeOutcome::Redeemed(u) if u.id == ada.id));
}

pub async fn concurrent_redeems_of_one_code_take_turns(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    let (right, wrong) = (hash(1), hash(9));
    put(s, ada.id, CodePurpose::Verify, &right).await;
    let (a, b) = tokio::join!(verify(s, ada.id, &wrong, 3), verify(s, ada.id, &wrong, 3));
    let mut left = [a, b].map(|o| match o {
        CodeOutcome::Wrong { attempts_left } => attempts_left,
        other => panic!("a wrong code is wrong: {other:?}"),
    });
    left.sort_unstable();
    assert_eq!(left, [1, 2], "each wrong attempt counts, none is lost");
    let (a, b) = tokio::join!(verify(s, ada.id, &right, 3), verify(s, ada.id, &right, 3));
    let redeemed = [&a, &b].iter().filter(|o| matches!(o, CodeOutcome::Redeemed(_))).count();
    assert_eq!(redeemed, 1, "a code is used once: {a:?}, {b:?}");
    assert!([&a, &b].contains(&&CodeOutcome::Missing), "{a:?}, {b:?}");
}

pub async fn a_reset_code_sets_the_password_verifies_and_revokes_at_once(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    let bob = user(s, "bob@example.com", 1).await;
    put(s, ada.id, CodePurpose::Reset, &hash(7)).await;
    let redeem = Redeem::SetPassword("$argon2id$reset".into());
    let wrong = s
        .redeem_email_code(ada.id, CodePurpose::Reset, &hash(8), &redeem, 5, t(10, 9))
        .await
        .unwrap();
    assert_eq!(wrong, CodeOutcome::Wrong { attempts_left: 4 });
    let unchanged = s.credentials_by_id(ada.id).await.unwrap().unwrap();
    assert_eq!(
        unchanged.password_hash.as_deref(),
        Some("$argon2id$v=19$first"),
        "a wrong code writes nothing"
    );
    assert_eq!(unchanged.user, ada);

    let outcome = s
        .redeem_email_code(ada.id, CodePurpose::Reset, &hash(7), &redeem, 5, t(10, 9))
        .await
        .unwrap();
    let CodeOutcome::Redeemed(after) = outcome else {
        panic!("the right code redeems: {outcome:?}")
    };
    assert!(after.email_verified, "the holder read the mailbox");
    assert_eq!(after.token_version, ada.token_version + 1, "every session is revoked");
    let creds = s.credentials_by_id(ada.id).await.unwrap().unwrap();
    assert_eq!(creds.password_hash.as_deref(), Some("$argon2id$reset"));
    assert_eq!(creds.user, after);
    let again = s
        .redeem_email_code(ada.id, CodePurpose::Reset, &hash(7), &redeem, 5, t(10, 9))
        .await
        .unwrap();
    assert_eq!(again, CodeOutcome::Missing);
    let bob_now = s.credentials_by_id(bob.id).await.unwrap().unwrap();
    assert_eq!(bob_now.password_hash.as_deref(), Some("$argon2id$v=19$first"));
    assert_eq!(bob_now.user, bob);
}

pub async fn api_keys_are_listed_newest_first_and_deleted_by_their_owner(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    let bob = user(s, "bob@example.com", 1).await;
    let laptop = key(s, ada.id, "laptop", &hash(1), 2).await;
    assert_eq!(laptop.user_id, ada.id);
    assert_eq!(laptop.name.as_str(), "laptop");
    assert_eq!(laptop.prefix, hash(1)[..8]);
    assert_eq!(laptop.scope, ApiKeyScope::Full);
    assert_eq!(laptop.created_at, t(2, 9));
    assert_eq!((laptop.last_used_at, laptop.expires_at), (None, None));
    let name = ApiKeyName::parse("cv tool").unwrap();
    let cv = s
        .create_api_key(
            ada.id,
            &NewApiKey {
                name: &name,
                token_hash: &hash(2),
                prefix: "fh_cv",
                scope: ApiKeyScope::Cv,
                expires_at: Some(t(20, 0)),
            },
            t(3, 9),
        )
        .await
        .unwrap();
    assert_eq!(cv.scope, ApiKeyScope::Cv);
    assert_eq!(cv.expires_at, Some(t(20, 0)));
    // Same instant as `cv`: the later key is newer.
    let ci = key(s, ada.id, "ci", &hash(3), 3).await;
    let bobs = key(s, bob.id, "bob's", &hash(4), 4).await;

    assert_eq!(
        s.list_api_keys(ada.id).await.unwrap(),
        vec![ci.clone(), cv.clone(), laptop.clone()]
    );
    assert_eq!(s.list_api_keys(bob.id).await.unwrap(), vec![bobs.clone()]);
    assert_eq!(s.list_api_keys(missing_user()).await.unwrap(), vec![]);

    // A minting collision.
    let name = ApiKeyName::parse("twin").unwrap();
    let twin = NewApiKey {
        name: &name,
        token_hash: &hash(1),
        prefix: "fh_twin",
        scope: ApiKeyScope::Full,
        expires_at: None,
    };
    let err = s.create_api_key(bob.id, &twin, t(5, 9)).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict { field: "token" }), "{err:?}");
    assert_eq!(s.list_api_keys(bob.id).await.unwrap(), vec![bobs.clone()], "nothing written");

    // Bob cannot delete Ada's key.
    assert!(!s.delete_api_key(bob.id, laptop.id).await.unwrap());
    assert_eq!(s.list_api_keys(ada.id).await.unwrap().len(), 3, "Ada's key is still there");
    assert!(s.api_key_holder(&hash(1)).await.unwrap().is_some());
    assert!(s.delete_api_key(ada.id, laptop.id).await.unwrap());
    assert!(!s.delete_api_key(ada.id, laptop.id).await.unwrap(), "deleted once");
    assert!(!s.delete_api_key(ada.id, ApiKeyId::new(999_999).unwrap()).await.unwrap());
    assert_eq!(s.list_api_keys(ada.id).await.unwrap(), vec![ci, cv]);
    assert!(s.api_key_holder(&hash(1)).await.unwrap().is_none());
    assert_eq!(s.list_api_keys(bob.id).await.unwrap(), vec![bobs]);
}

pub async fn a_token_hash_names_its_key_and_owner(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    let bob = user(s, "bob@example.com", 1).await;
    let ada_key = key(s, ada.id, "laptop", &hash(0xa1), 2).await;
    let name = ApiKeyName::parse("old").unwrap();
    let expired = s
        .create_api_key(
            bob.id,
            &NewApiKey {
                name: &name,
                token_hash: &hash(2),
                prefix: "fh_old",
                scope: ApiKeyScope::Cv,
                expires_at: Some(t(3, 0)),
            },
            t(2, 9),
        )
        .await
        .unwrap();

    let holder = s.api_key_holder(&hash(0xa1)).await.unwrap().unwrap();
    assert_eq!(holder.key, ada_key);
    assert_eq!(holder.user, ada);
    let holder = s.api_key_holder(&hash(2)).await.unwrap().unwrap();
    assert_eq!(holder.key, expired, "an expired key is found: the caller decides");
    assert!(holder.key.expired(t(4, 0)));
    assert_eq!(holder.user, bob);
    assert!(s.api_key_holder(&hash(3)).await.unwrap().is_none());
    assert!(s.api_key_holder(&hash(0xa1).to_uppercase()).await.unwrap().is_none(), "exact hash");

    // The holder carries the owner as it is now.
    let moderator = s.set_role(ada.id, Role::Moderator).await.unwrap().unwrap();
    assert_eq!(s.api_key_holder(&hash(0xa1)).await.unwrap().unwrap().user, moderator);
}

pub async fn touch_writes_at_most_once_per_interval(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    let used = key(s, ada.id, "laptop", &hash(1), 1).await;
    let other = key(s, ada.id, "ci", &hash(2), 1).await;
    let minute = Duration::minutes(1);
    let first = t(2, 9);
    assert!(s.touch_api_key(used.id, first, minute).await.unwrap(), "the first touch writes");
    let last_used = |keys: Vec<freehire_domain::ApiKey>, id: ApiKeyId| {
        keys.into_iter().find(|k| k.id == id).unwrap().last_used_at
    };
    assert_eq!(last_used(s.list_api_keys(ada.id).await.unwrap(), used.id), Some(first));
    let within = first + Duration::seconds(59);
    assert!(!s.touch_api_key(used.id, within, minute).await.unwrap(), "within the interval");
    assert_eq!(last_used(s.list_api_keys(ada.id).await.unwrap(), used.id), Some(first));
    let after = first + minute;
    assert!(s.touch_api_key(used.id, after, minute).await.unwrap(), "a full interval later");
    assert_eq!(last_used(s.list_api_keys(ada.id).await.unwrap(), used.id), Some(after));
    let holder = s.api_key_holder(&hash(1)).await.unwrap().unwrap();
    assert_eq!(holder.key.last_used_at, Some(after));
    assert_eq!(last_used(s.list_api_keys(ada.id).await.unwrap(), other.id), None, "one key only");
    assert!(!s.touch_api_key(ApiKeyId::new(999_999).unwrap(), after, minute).await.unwrap());
}

pub async fn deleting_a_user_removes_their_codes_and_keys(s: &dyn Store) {
    let ada = user(s, "ada@example.com", 1).await;
    let bob = user(s, "bob@example.com", 1).await;
    key(s, ada.id, "laptop", &hash(1), 2).await;
    let bobs = key(s, bob.id, "bob's", &hash(2), 2).await;
    put(s, ada.id, CodePurpose::Verify, &hash(3)).await;
    put(s, ada.id, CodePurpose::Reset, &hash(4)).await;
    put(s, bob.id, CodePurpose::Verify, &hash(5)).await;

    assert!(s.delete_user(ada.id).await.unwrap());
    assert_eq!(s.user_by_id(ada.id).await.unwrap(), None);
    assert!(s.credentials_by_email(&ada.email).await.unwrap().is_none());
    assert!(s.api_key_holder(&hash(1)).await.unwrap().is_none(), "the key went with it");
    assert_eq!(s.list_api_keys(ada.id).await.unwrap(), vec![]);
    assert_eq!(verify(s, ada.id, &hash(3), 5).await, CodeOutcome::Missing, "the codes too");
    let reset = s
        .redeem_email_code(ada.id, CodePurpose::Reset, &hash(4), &Redeem::Verify, 5, t(10, 9))
        .await
        .unwrap();
    assert_eq!(reset, CodeOutcome::Missing);
    assert!(!s.delete_user(ada.id).await.unwrap(), "deleted once");
    assert!(!s.delete_user(missing_user()).await.unwrap());

    // Bob keeps everything, and Ada's address is free again.
    assert_eq!(s.list_users(ListPage::default()).await.unwrap().users, vec![bob.clone()]);
    assert_eq!(s.api_key_holder(&hash(2)).await.unwrap().unwrap().key, bobs);
    assert!(
        matches!(verify(s, bob.id, &hash(5), 5).await, CodeOutcome::Redeemed(u) if u.id == bob.id)
    );
    let again = user(s, "ada@example.com", 3).await;
    assert_ne!(again.id, ada.id, "ids are not reused");
    assert_eq!(s.list_api_keys(again.id).await.unwrap(), vec![]);
}
