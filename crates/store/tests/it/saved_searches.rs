//! Saved searches, subscriptions, notification settings and the notification history: every
//! `SavedSearchRepo` method, the per-user cap under concurrent inserts, case-insensitive
//! names, and that an owner-scoped method never reaches another user's rows.

use freehire_domain::{
    Channel, DigestFrequency, Email, Language, NotificationId, NotificationKind, Role,
    SavedSearchId, SubscriptionId, Timezone, User, UserId,
};
use freehire_store::{
    ListPage, NewSavedSearch, NewSubscription, NewUser, NotificationSettings, NotifiedJob,
    SavedSearch, SavedSearchInsert, SavedSearchPatch, Store, StoreError,
    testing::{TestDb, TestNotification},
};

use crate::fixtures::t;

async fn user(s: &dyn Store, address: &str) -> User {
    let email = Email::parse(address).unwrap();
    let language = Language::english();
    let new = NewUser {
        email: &email,
        password_hash: None,
        role: Role::User,
        email_verified: true,
        language: &language,
    };
    s.create_user(&new, t(1, 9)).await.unwrap()
}

fn new<'a>(name: &'a str, query: &'a str) -> NewSavedSearch<'a> {
    NewSavedSearch { name, query, max_per_user: 50 }
}

async fn create(s: &dyn Store, owner: UserId, name: &str, query: &str) -> SavedSearch {
    match s.create_saved_search(owner, &new(name, query), t(2, 9)).await.unwrap() {
        SavedSearchInsert::Created(search) => search,
        SavedSearchInsert::LimitReached => panic!("{name}: limit reached"),
    }
}

const EMAIL: NewSubscription<'static> =
    NewSubscription { channel: Channel::Email, destination: None, secret: None };

fn missing_search() -> SavedSearchId {
    SavedSearchId::new(999_999).unwrap()
}

pub async fn saved_searches_are_created_listed_patched_and_deleted(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let rust = create(s, ada.id, "Rust in Berlin", "countries=de&skills=rust").await;
    assert_eq!(rust.name, "Rust in Berlin");
    assert_eq!(rust.query, "countries=de&skills=rust");
    assert_eq!((rust.created_at, rust.updated_at), (t(2, 9), t(2, 9)));
    assert_eq!((rust.public_slug.clone(), rust.subscriptions.len()), (None, 0));
    let all = create(s, ada.id, "Everything", "").await;
    assert_eq!(s.list_saved_searches(ada.id).await.unwrap(), vec![rust.clone(), all.clone()]);
    assert_eq!(s.saved_search(ada.id, rust.id).await.unwrap(), Some(rust.clone()));
    assert_eq!(s.saved_search(ada.id, missing_search()).await.unwrap(), None);

    let patch = SavedSearchPatch { name: Some("Rust, Germany"), ..Default::default() };
    let renamed = s.update_saved_search(ada.id, rust.id, &patch, t(3, 9)).await.unwrap().unwrap();
    assert_eq!(
        (renamed.name.as_str(), renamed.query.as_str()),
        ("Rust, Germany", rust.query.as_str())
    );
    assert_eq!((renamed.created_at, renamed.updated_at), (t(2, 9), t(3, 9)));
    let patch = SavedSearchPatch { query: Some("skills=go"), ..Default::default() };
    let requery = s.update_saved_search(ada.id, rust.id, &patch, t(4, 9)).await.unwrap().unwrap();
    assert_eq!((requery.name.as_str(), requery.query.as_str()), ("Rust, Germany", "skills=go"));
    // An empty patch only moves updated_at.
    let same = s
        .update_saved_search(ada.id, rust.id, &SavedSearchPatch::default(), t(5, 9))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((same.name, same.query), (requery.name, requery.query));
    let nothing = s.update_saved_search(ada.id, missing_search(), &patch, t(5, 9)).await.unwrap();
    assert_eq!(nothing, None);

    assert!(s.delete_saved_search(ada.id, rust.id).await.unwrap());
    assert!(!s.delete_saved_search(ada.id, rust.id).await.unwrap(), "gone");
    assert_eq!(s.list_saved_searches(ada.id).await.unwrap(), vec![all]);
}

pub async fn a_name_is_unique_per_owner_case_insensitively(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let bob = user(s, "bob@example.com").await;
    let first = create(s, ada.id, "Rust Jobs", "skills=rust").await;
    let err = s.create_saved_search(ada.id, &new("rust JOBS", ""), t(2, 9)).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict { field: "name" }), "{err:?}");
    // Another owner may use it.
    create(s, bob.id, "Rust Jobs", "").await;
    // Renaming onto a taken name is refused too.
    let other = create(s, ada.id, "Go Jobs", "skills=go").await;
    let patch = SavedSearchPatch { name: Some("RUST jobs"), ..Default::default() };
    let err = s.update_saved_search(ada.id, other.id, &patch, t(3, 9)).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict { field: "name" }), "{err:?}");
    // Renaming to its own name in another case is fine.
    let patch = SavedSearchPatch { name: Some("RUST JOBS"), ..Default::default() };
    let same = s.update_saved_search(ada.id, first.id, &patch, t(3, 9)).await.unwrap().unwrap();
    assert_eq!(same.name, "RUST JOBS");
}

pub async fn concurrent_inserts_of_one_name_leave_one_search(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let (first, second) = (new("Race", "q=a"), new("race", "q=b"));
    let (a, b) = tokio::join!(
        s.create_saved_search(ada.id, &first, t(2, 9)),
        s.create_saved_search(ada.id, &second, t(2, 9)),
    );
    match (a, b) {
        (Ok(SavedSearchInsert::Created(_)), Err(e))
        | (Err(e), Ok(SavedSearchInsert::Created(_))) => {
            assert!(matches!(e, StoreError::Conflict { field: "name" }), "{e:?}")
        }
        other => panic!("exactly one insert must win: {other:?}"),
    }
    assert_eq!(s.list_saved_searches(ada.id).await.unwrap().len(), 1);
}

pub async fn the_cap_holds_under_concurrent_inserts(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let bob = user(s, "bob@example.com").await;
    for n in 0..48 {
        create(s, ada.id, &format!("search {n}"), "").await;
    }
    // Four at once for the last two places: two get in, two are refused.
    let (w, x, y, z) = (new("w", ""), new("x", ""), new("y", ""), new("z", ""));
    let outcomes = tokio::join!(
        s.create_saved_search(ada.id, &w, t(3, 9)),
        s.create_saved_search(ada.id, &x, t(3, 9)),
        s.create_saved_search(ada.id, &y, t(3, 9)),
        s.create_saved_search(ada.id, &z, t(3, 9)),
    );
    let outcomes = [outcomes.0, outcomes.1, outcomes.2, outcomes.3];
    let created =
        outcomes.iter().filter(|o| matches!(o, Ok(SavedSearchInsert::Created(_)))).count();
    let refused =
        outcomes.iter().filter(|o| matches!(o, Ok(SavedSearchInsert::LimitReached))).count();
    assert_eq!((created, refused), (2, 2), "{outcomes:?}");
    assert_eq!(s.list_saved_searches(ada.id).await.unwrap().len(), 50);
    let more = s.create_saved_search(ada.id, &new("one more", ""), t(4, 9)).await.unwrap();
    assert_eq!(more, SavedSearchInsert::LimitReached);
    // The cap is per owner; a deleted search frees its place.
    create(s, bob.id, "bob's", "").await;
    let first = s.list_saved_searches(ada.id).await.unwrap()[0].id;
    assert!(s.delete_saved_search(ada.id, first).await.unwrap());
    create(s, ada.id, "one more", "").await;
}

pub async fn sharing_gives_a_stable_public_slug_until_unshared(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let search = create(s, ada.id, "Rust", "skills=rust").await;
    assert_eq!(s.shared_search("slug-one").await.unwrap(), None);
    let share = SavedSearchPatch { share: Some(Some("slug-one")), ..Default::default() };
    let shared = s.update_saved_search(ada.id, search.id, &share, t(3, 9)).await.unwrap().unwrap();
    assert_eq!(shared.public_slug.as_deref(), Some("slug-one"));
    let board = s.shared_search("slug-one").await.unwrap().unwrap();
    assert_eq!((board.name.as_str(), board.query.as_str()), ("Rust", "skills=rust"));
    // Sharing again keeps the address.
    let again = SavedSearchPatch { share: Some(Some("slug-two")), ..Default::default() };
    let kept = s.update_saved_search(ada.id, search.id, &again, t(4, 9)).await.unwrap().unwrap();
    assert_eq!(kept.public_slug.as_deref(), Some("slug-one"));
    // A slug another search holds is a conflict naming it.
    let other = create(s, ada.id, "Go", "skills=go").await;
    let taken = SavedSearchPatch { share: Some(Some("slug-one")), ..Default::default() };
    let err = s.update_saved_search(ada.id, other.id, &taken, t(4, 9)).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict { field: "public_slug" }), "{err:?}");
    // Unsharing takes the board down.
    let unshare = SavedSearchPatch { share: Some(None), ..Default::default() };
    let private =
        s.update_saved_search(ada.id, search.id, &unshare, t(5, 9)).await.unwrap().unwrap();
    assert_eq!(private.public_slug, None);
    assert_eq!(s.shared_search("slug-one").await.unwrap(), None);
}

pub async fn subscriptions_belong_to_their_search_and_go_with_it(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let search = create(s, ada.id, "Rust", "skills=rust").await;
    let email = s.create_subscription(ada.id, search.id, &EMAIL, t(3, 9)).await.unwrap().unwrap();
    assert_eq!(email.channel, Channel::Email);
    assert_eq!((email.destination.clone(), email.active), (None, true));
    assert_eq!(
        (email.start_at, email.created_at, email.last_digest_sent_at),
        (t(3, 9), t(3, 9), None)
    );
    assert_eq!((email.user_id, email.saved_search_id), (ada.id, search.id));
    let secret = "ab".repeat(32);
    let hook = NewSubscription {
        channel: Channel::Webhook,
        destination: Some("https://hooks.example.com/a"),
        secret: Some(secret.as_str()),
    };
    let webhook = s.create_subscription(ada.id, search.id, &hook, t(4, 9)).await.unwrap().unwrap();
    assert_eq!(webhook.destination.as_deref(), Some("https://hooks.example.com/a"));
    // The same channel and destination twice is a conflict; another URL is another one.
    let err = s.create_subscription(ada.id, search.id, &EMAIL, t(5, 9)).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict { field: "channel" }), "{err:?}");
    let err = s.create_subscription(ada.id, search.id, &hook, t(5, 9)).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict { field: "channel" }), "{err:?}");
    let hook_b = NewSubscription { destination: Some("https://hooks.example.com/b"), ..hook };
    let other = s.create_subscription(ada.id, search.id, &hook_b, t(5, 9)).await.unwrap().unwrap();

    let read = s.saved_search(ada.id, search.id).await.unwrap().unwrap();
    assert_eq!(read.subscriptions, vec![email.clone(), webhook.clone(), other.clone()]);
    assert_eq!(s.list_saved_searches(ada.id).await.unwrap()[0].subscriptions.len(), 3);
    assert!(s.delete_subscription(ada.id, other.id).await.unwrap());
    assert!(!s.delete_subscription(ada.id, other.id).await.unwrap());
    let none = s.create_subscription(ada.id, missing_search(), &EMAIL, t(5, 9)).await.unwrap();
    assert_eq!(none, None, "no such search");
    // Deleting the search deletes its subscriptions.
    assert!(s.delete_saved_search(ada.id, search.id).await.unwrap());
    assert!(!s.delete_subscription(ada.id, email.id).await.unwrap());
    assert!(!s.delete_subscription(ada.id, webhook.id).await.unwrap());
}

pub async fn another_owner_reaches_nothing(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let eve = user(s, "eve@example.com").await;
    let search = create(s, ada.id, "Rust", "skills=rust").await;
    let sub = s.create_subscription(ada.id, search.id, &EMAIL, t(3, 9)).await.unwrap().unwrap();
    assert_eq!(s.saved_search(eve.id, search.id).await.unwrap(), None);
    assert!(s.list_saved_searches(eve.id).await.unwrap().is_empty());
    let patch = SavedSearchPatch { name: Some("mine"), share: Some(Some("x")), query: Some("") };
    assert_eq!(s.update_saved_search(eve.id, search.id, &patch, t(4, 9)).await.unwrap(), None);
    assert!(!s.delete_saved_search(eve.id, search.id).await.unwrap());
    assert_eq!(s.create_subscription(eve.id, search.id, &EMAIL, t(4, 9)).await.unwrap(), None);
    assert!(!s.delete_subscription(eve.id, sub.id).await.unwrap());
    let kept = s.saved_search(ada.id, search.id).await.unwrap().unwrap();
    assert_eq!((kept.name.as_str(), kept.public_slug.clone()), ("Rust", None));
    assert_eq!(kept.subscriptions, vec![sub]);
    // Deleting the owner deletes everything.
    assert!(s.delete_user(ada.id).await.unwrap());
    assert!(!s.delete_subscription(ada.id, kept.subscriptions[0].id).await.unwrap());
    assert_eq!(s.saved_search(ada.id, search.id).await.unwrap(), None);
}

pub async fn settings_default_until_written_and_round_trip(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let bob = user(s, "bob@example.com").await;
    let defaults = s.notification_settings(ada.id).await.unwrap();
    assert_eq!(defaults, NotificationSettings::default());
    assert_eq!(
        (defaults.enabled, defaults.digest_frequency, defaults.digest_hour, defaults.quiet_hours),
        (true, DigestFrequency::Daily, 9, None)
    );
    let mine = NotificationSettings {
        enabled: false,
        digest_frequency: DigestFrequency::Weekly,
        digest_hour: 23,
        quiet_hours: Some((22, 6)),
        timezone: Some(Timezone::parse("Europe/Berlin").unwrap()),
        updated_at: None,
    };
    let stored = s.put_notification_settings(ada.id, &mine, t(3, 9)).await.unwrap();
    assert_eq!(stored, NotificationSettings { updated_at: Some(t(3, 9)), ..mine.clone() });
    assert_eq!(s.notification_settings(ada.id).await.unwrap(), stored);
    // A second write replaces every field, clearing the optional ones.
    let plain = NotificationSettings { digest_hour: 0, ..NotificationSettings::default() };
    let stored = s.put_notification_settings(ada.id, &plain, t(4, 9)).await.unwrap();
    assert_eq!(stored, NotificationSettings { updated_at: Some(t(4, 9)), ..plain });
    assert_eq!(s.notification_settings(bob.id).await.unwrap(), NotificationSettings::default());
}

fn job(n: u32) -> NotifiedJob {
    NotifiedJob {
        slug: format!("job-{n}"),
        title: format!("Job {n}"),
        company: "Acme".into(),
        location: "Berlin".into(),
        url: n.is_multiple_of(2).then(|| format!("https://jobs.example.com/{n}")),
    }
}

async fn notify(
    db: &TestDb,
    owner: UserId,
    day: u32,
    sub: Option<SubscriptionId>,
) -> NotificationId {
    let jobs = [job(1), job(2)];
    let n = TestNotification {
        kind: NotificationKind::Digest,
        title: "2 new jobs for Rust",
        body: "Job 1, Job 2",
        public_slug: None,
        subscription: sub,
        created_at: t(day, 9),
        jobs: &jobs,
        total: 12,
    };
    db.insert_notification(owner, &n).await
}

/// The history's reads, over rows recorded as the engine records them.
pub async fn the_history_reads_newest_first_with_its_counts_and_marks_read(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let eve = user(s, "eve@example.com").await;
    let search = create(s, ada.id, "Rust", "skills=rust").await;
    let sub = s.create_subscription(ada.id, search.id, &EMAIL, t(3, 9)).await.unwrap().unwrap();
    let old = notify(db, ada.id, 4, Some(sub.id)).await;
    let new = notify(db, ada.id, 6, None).await;
    let mid = notify(db, ada.id, 5, Some(sub.id)).await;
    notify(db, eve.id, 5, None).await;

    let page = s.notifications(ada.id, ListPage::default()).await.unwrap();
    assert_eq!((page.total, page.unread), (3, 3));
    let ids: Vec<_> = page.notifications.iter().map(|n| n.id).collect();
    assert_eq!(ids, [new, mid, old], "newest first");
    let first = &page.notifications[2];
    assert_eq!(first.kind, NotificationKind::Digest);
    assert_eq!(
        (first.title.as_str(), first.body.as_str(), first.total),
        ("2 new jobs for Rust", "Job 1, Job 2", 12)
    );
    assert_eq!((first.subscription_id, first.saved_search_id), (Some(sub.id), Some(search.id)));
    assert_eq!((first.created_at, first.read_at), (t(4, 9), None));
    assert_eq!(page.notifications[0].saved_search_id, None);
    let second = s.notifications(ada.id, ListPage::new(1, 1)).await.unwrap();
    assert_eq!(second.notifications.iter().map(|n| n.id).collect::<Vec<_>>(), [mid]);
    assert_eq!(second.total, 3);

    let one = s.notification(ada.id, old).await.unwrap().unwrap();
    assert_eq!(one.jobs, vec![job(1), job(2)]);
    assert_eq!(one.notification, *first);
    assert!(s.mark_notification_read(ada.id, old, t(7, 9)).await.unwrap());
    assert!(s.mark_notification_read(ada.id, old, t(8, 9)).await.unwrap(), "read already");
    let read = s.notification(ada.id, old).await.unwrap().unwrap();
    assert_eq!(read.notification.read_at, Some(t(7, 9)), "the first read is kept");
    let page = s.notifications(ada.id, ListPage::default()).await.unwrap();
    assert_eq!((page.total, page.unread), (3, 2));

    // Another user's notification is nobody's business.
    assert_eq!(s.notification(eve.id, old).await.unwrap(), None);
    assert!(!s.mark_notification_read(eve.id, new, t(7, 9)).await.unwrap());
    assert_eq!(s.notification(ada.id, new).await.unwrap().unwrap().notification.read_at, None);
    let missing = NotificationId::new(999_999).unwrap();
    assert!(!s.mark_notification_read(ada.id, missing, t(7, 9)).await.unwrap());
    // A deleted subscription leaves its digests, without the search.
    assert!(s.delete_saved_search(ada.id, search.id).await.unwrap());
    let orphan = s.notification(ada.id, mid).await.unwrap().unwrap().notification;
    assert_eq!((orphan.subscription_id, orphan.saved_search_id), (None, None));
}
