//! [`SavedSearchRepo`](crate::SavedSearchRepo) bodies both backends run unchanged, over the
//! statements of [`sql::saved_searches`]. The adapters pass their pool (on SQLite, the writer
//! pool for writes), the capped insert's transaction (`BEGIN IMMEDIATE` on SQLite) and the
//! owner row's lock (`FOR UPDATE` on PostgreSQL).
//!
//! The capped insert is one transaction: lock the owner's account row, count their saved
//! searches, insert unless the cap is reached, commit. Two concurrent inserts of one owner
//! take turns on the lock, so the second counts the first: the cap holds under a race, and
//! a name taken by the first is the second's unique violation, reported as
//! [`StoreError::Conflict`] naming `name`.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use freehire_domain::{NotificationId, SavedSearchId, SubscriptionId, UserId};
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Transaction, Type};

use super::{RowsAffected, Shared};
use crate::{
    ListPage, NewSavedSearch, NewSubscription, NotificationJobs, NotificationPage,
    NotificationSettings, Result, SavedSearch, SavedSearchInsert, SavedSearchPatch, SharedSearch,
    StoreError, Subscription,
    bind::Stamp,
    rows::{
        count,
        saved_searches::{
            NotificationJobsRecord, NotificationRecord, SavedSearchRecord, SettingsRecord,
            SubscriptionRecord,
        },
    },
    sql::saved_searches as sql,
};

/// A unique violation on `saved_searches` as [`StoreError::Conflict`]: on the public slug
/// when the violated index is that one, else on the name; any other error as it is.
fn taken(e: sqlx::Error) -> StoreError {
    match &e {
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            let on_slug = db.constraint().is_some_and(|c| c.contains("public_slug"))
                || db.message().contains("public_slug");
            StoreError::Conflict { field: if on_slug { "public_slug" } else { "name" } }
        }
        _ => e.into(),
    }
}

/// The subscriptions of `rows`, grouped by saved search id.
fn grouped(rows: Vec<SubscriptionRecord>) -> Result<HashMap<i64, Vec<Subscription>>> {
    let mut by_search: HashMap<i64, Vec<Subscription>> = HashMap::new();
    for row in rows {
        let key = row.raw_saved_search_id();
        by_search.entry(key).or_default().push(row.into_subscription()?);
    }
    Ok(by_search)
}

impl<DB> Shared<DB>
where
    DB: Database,
    DB::QueryResult: RowsAffected,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    for<'q> i32: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i32>: Encode<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> bool: Encode<'q, DB> + Type<DB>,
    for<'q> Option<bool>: Encode<'q, DB> + Type<DB>,
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    (i64,): for<'r> FromRow<'r, DB::Row>,
    (i64, i64): for<'r> FromRow<'r, DB::Row>,
    (String, String): for<'r> FromRow<'r, DB::Row>,
    SavedSearchRecord: for<'r> FromRow<'r, DB::Row>,
    SubscriptionRecord: for<'r> FromRow<'r, DB::Row>,
    SettingsRecord: for<'r> FromRow<'r, DB::Row>,
    NotificationRecord: for<'r> FromRow<'r, DB::Row>,
    NotificationJobsRecord: for<'r> FromRow<'r, DB::Row>,
{
    // ---- saved searches ----

    /// Inserts in the caller's transaction (see the module docs); `owner_lock` is the
    /// dialect's `sql::saved_searches::owner_lock!`.
    pub async fn insert_saved_search(
        mut tx: Transaction<'_, DB>,
        owner_lock: &'static str,
        owner: UserId,
        new: &NewSavedSearch<'_>,
        at: DateTime<Utc>,
    ) -> Result<SavedSearchInsert> {
        let _owner: Option<(i64,)> =
            sqlx::query_as(owner_lock).bind(owner.get()).fetch_optional(&mut *tx).await?;
        let (held,): (i64,) =
            sqlx::query_as(sql::COUNT_OF).bind(owner.get()).fetch_one(&mut *tx).await?;
        if count(held) >= u64::from(new.max_per_user) {
            tx.rollback().await?;
            return Ok(SavedSearchInsert::LimitReached);
        }
        let row: SavedSearchRecord = sqlx::query_as(sql::INSERT)
            .bind(owner.get())
            .bind(new.name)
            .bind(new.query)
            .bind(Stamp(at))
            .fetch_one(&mut *tx)
            .await
            .map_err(taken)?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(SavedSearchInsert::Created(row.into_saved_search(Vec::new())?))
    }

    pub async fn list_saved_searches(pool: &Pool<DB>, owner: UserId) -> Result<Vec<SavedSearch>> {
        let rows: Vec<SavedSearchRecord> =
            sqlx::query_as(sql::LIST_OF).bind(owner.get()).fetch_all(pool).await?;
        let subs: Vec<SubscriptionRecord> =
            sqlx::query_as(sql::SUBSCRIPTIONS_OF).bind(owner.get()).fetch_all(pool).await?;
        let mut by_search = grouped(subs)?;
        rows.into_iter()
            .map(|row| {
                let subs = by_search.remove(&row.raw_id()).unwrap_or_default();
                row.into_saved_search(subs)
            })
            .collect()
    }

    /// The subscriptions of one of the owner's saved searches.
    async fn subscriptions_of(
        pool: &Pool<DB>,
        owner: UserId,
        id: i64,
    ) -> Result<Vec<Subscription>> {
        let rows: Vec<SubscriptionRecord> = sqlx::query_as(sql::SUBSCRIPTIONS_OF_SEARCH)
            .bind(id)
            .bind(owner.get())
            .fetch_all(pool)
            .await?;
        rows.into_iter().map(SubscriptionRecord::into_subscription).collect()
    }

    /// `row` with its subscriptions read from `reader`.
    async fn with_subscriptions(
        reader: &Pool<DB>,
        owner: UserId,
        row: Option<SavedSearchRecord>,
    ) -> Result<Option<SavedSearch>> {
        let Some(row) = row else { return Ok(None) };
        let subs = Self::subscriptions_of(reader, owner, row.raw_id()).await?;
        row.into_saved_search(subs).map(Some)
    }

    pub async fn saved_search(
        pool: &Pool<DB>,
        owner: UserId,
        id: SavedSearchId,
    ) -> Result<Option<SavedSearch>> {
        let row: Option<SavedSearchRecord> = sqlx::query_as(sql::ONE_OF)
            .bind(id.get())
            .bind(owner.get())
            .fetch_optional(pool)
            .await?;
        Self::with_subscriptions(pool, owner, row).await
    }

    pub async fn shared_search(pool: &Pool<DB>, slug: &str) -> Result<Option<SharedSearch>> {
        let row: Option<(String, String)> =
            sqlx::query_as(sql::SHARED).bind(slug).fetch_optional(pool).await?;
        Ok(row.map(|(name, query)| SharedSearch { name, query }))
    }

    /// Applies the patch on `writer` in one statement, then reads the subscriptions on
    /// `reader`.
    pub async fn update_saved_search(
        writer: &Pool<DB>,
        reader: &Pool<DB>,
        owner: UserId,
        id: SavedSearchId,
        patch: &SavedSearchPatch<'_>,
        at: DateTime<Utc>,
    ) -> Result<Option<SavedSearch>> {
        let share = patch.share.map(|s| s.is_some());
        let slug = patch.share.flatten();
        let row: Option<SavedSearchRecord> = sqlx::query_as(sql::UPDATE)
            .bind(patch.name)
            .bind(patch.query)
            .bind(share)
            .bind(slug)
            .bind(Stamp(at))
            .bind(id.get())
            .bind(owner.get())
            .fetch_optional(writer)
            .await
            .map_err(taken)?;
        Self::with_subscriptions(reader, owner, row).await
    }

    pub async fn delete_saved_search(
        pool: &Pool<DB>,
        owner: UserId,
        id: SavedSearchId,
    ) -> Result<bool> {
        let done = sqlx::query(sql::DELETE).bind(id.get()).bind(owner.get()).execute(pool).await?;
        Ok(done.rows_affected() > 0)
    }

    // ---- subscriptions ----

    /// `None` when the saved search is not the owner's; a channel and destination the search
    /// already has is [`StoreError::Conflict`] naming `channel`.
    pub async fn create_subscription(
        pool: &Pool<DB>,
        owner: UserId,
        search: SavedSearchId,
        new: &NewSubscription<'_>,
        at: DateTime<Utc>,
    ) -> Result<Option<Subscription>> {
        let row: Option<SubscriptionRecord> = sqlx::query_as(sql::INSERT_SUBSCRIPTION)
            .bind(owner.get())
            .bind(search.get())
            .bind(new.channel.as_str())
            .bind(new.destination)
            .bind(new.secret)
            .bind(Stamp(at))
            .fetch_optional(pool)
            .await
            .map_err(|e| match &e {
                sqlx::Error::Database(db) if db.is_unique_violation() => {
                    StoreError::Conflict { field: "channel" }
                }
                _ => e.into(),
            })?;
        row.map(SubscriptionRecord::into_subscription).transpose()
    }

    pub async fn delete_subscription(
        pool: &Pool<DB>,
        owner: UserId,
        id: SubscriptionId,
    ) -> Result<bool> {
        let done = sqlx::query(sql::DELETE_SUBSCRIPTION)
            .bind(id.get())
            .bind(owner.get())
            .execute(pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    // ---- settings ----

    pub async fn notification_settings(
        pool: &Pool<DB>,
        owner: UserId,
    ) -> Result<NotificationSettings> {
        let row: Option<SettingsRecord> =
            sqlx::query_as(sql::SETTINGS_OF).bind(owner.get()).fetch_optional(pool).await?;
        row.map_or_else(|| Ok(NotificationSettings::default()), SettingsRecord::into_settings)
    }

    pub async fn put_notification_settings(
        pool: &Pool<DB>,
        owner: UserId,
        settings: &NotificationSettings,
        at: DateTime<Utc>,
    ) -> Result<NotificationSettings> {
        let (start, end) = match settings.quiet_hours {
            Some((start, end)) => (Some(i32::from(start)), Some(i32::from(end))),
            None => (None, None),
        };
        let row: SettingsRecord = sqlx::query_as(sql::PUT_SETTINGS)
            .bind(owner.get())
            .bind(settings.enabled)
            .bind(settings.digest_frequency.as_str())
            .bind(i32::from(settings.digest_hour))
            .bind(start)
            .bind(end)
            .bind(settings.timezone.as_ref().map(|t| t.as_str()))
            .bind(Stamp(at))
            .fetch_one(pool)
            .await?;
        row.into_settings()
    }

    // ---- the history ----

    pub async fn notifications(
        pool: &Pool<DB>,
        owner: UserId,
        page: ListPage,
    ) -> Result<NotificationPage> {
        let rows: Vec<NotificationRecord> = sqlx::query_as(sql::NOTIFICATIONS_PAGE)
            .bind(owner.get())
            .bind(i64::from(page.limit()))
            .bind(page.offset_i64())
            .fetch_all(pool)
            .await?;
        let (total, unread): (i64, i64) =
            sqlx::query_as(sql::NOTIFICATION_COUNTS).bind(owner.get()).fetch_one(pool).await?;
        let notifications =
            rows.into_iter().map(NotificationRecord::into_notification).collect::<Result<_>>()?;
        Ok(NotificationPage { notifications, total: count(total), unread: count(unread) })
    }

    pub async fn notification(
        pool: &Pool<DB>,
        owner: UserId,
        id: NotificationId,
    ) -> Result<Option<NotificationJobs>> {
        let row: Option<NotificationJobsRecord> = sqlx::query_as(sql::NOTIFICATION)
            .bind(id.get())
            .bind(owner.get())
            .fetch_optional(pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let (notification, jobs) = row.into_parts()?;
        Ok(Some(NotificationJobs { notification, jobs }))
    }

    /// Stamps the first read on `writer`; whether the owner has the notification (read now or
    /// before), checked on `reader` when the stamp wrote nothing.
    pub async fn mark_notification_read(
        writer: &Pool<DB>,
        reader: &Pool<DB>,
        owner: UserId,
        id: NotificationId,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query(sql::MARK_READ)
            .bind(Stamp(at))
            .bind(id.get())
            .bind(owner.get())
            .execute(writer)
            .await?;
        if done.rows_affected() > 0 {
            return Ok(true);
        }
        let (n,): (i64,) = sqlx::query_as(sql::HAS_NOTIFICATION)
            .bind(id.get())
            .bind(owner.get())
            .fetch_one(reader)
            .await?;
        Ok(n > 0)
    }
}
