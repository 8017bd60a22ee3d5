//! [`SavedSearchRepo`] on PostgreSQL: `Shared`'s bodies; the capped insert runs in a
//! transaction that locks the owner's account row (`FOR UPDATE`), so concurrent inserts of
//! one owner take turns and the count holds. Reads and the insert transaction run once more
//! if they lost their connection before committing ([`retry_once_if_lost`]); the
//! single-statement writes do not.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{NotificationId, SavedSearchId, SubscriptionId, UserId};

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{
    ListPage, NewSavedSearch, NewSubscription, NotificationJobs, NotificationPage,
    NotificationSettings, Result, SavedSearch, SavedSearchInsert, SavedSearchPatch,
    SavedSearchRepo, SharedSearch, Subscription,
};

/// The owner's row, locked until the insert commits.
const OWNER_LOCK: &str = crate::sql::saved_searches::owner_lock!(" FOR UPDATE");

#[async_trait]
impl SavedSearchRepo for PgStore {
    async fn create_saved_search(
        &self,
        owner: UserId,
        new: &NewSavedSearch<'_>,
        at: DateTime<Utc>,
    ) -> Result<SavedSearchInsert> {
        retry_once_if_lost(|| async move {
            let tx = self.pool.begin().await?;
            Shared::insert_saved_search(tx, OWNER_LOCK, owner, new, at).await
        })
        .await
    }

    async fn list_saved_searches(&self, owner: UserId) -> Result<Vec<SavedSearch>> {
        retry_once_if_lost(|| Shared::list_saved_searches(&self.pool, owner)).await
    }

    async fn saved_search(&self, owner: UserId, id: SavedSearchId) -> Result<Option<SavedSearch>> {
        retry_once_if_lost(|| Shared::saved_search(&self.pool, owner, id)).await
    }

    async fn update_saved_search(
        &self,
        owner: UserId,
        id: SavedSearchId,
        patch: &SavedSearchPatch<'_>,
        at: DateTime<Utc>,
    ) -> Result<Option<SavedSearch>> {
        Shared::update_saved_search(&self.pool, &self.pool, owner, id, patch, at).await
    }

    async fn delete_saved_search(&self, owner: UserId, id: SavedSearchId) -> Result<bool> {
        Shared::delete_saved_search(&self.pool, owner, id).await
    }

    async fn shared_search(&self, slug: &str) -> Result<Option<SharedSearch>> {
        retry_once_if_lost(|| Shared::shared_search(&self.pool, slug)).await
    }

    async fn create_subscription(
        &self,
        owner: UserId,
        search: SavedSearchId,
        new: &NewSubscription<'_>,
        at: DateTime<Utc>,
    ) -> Result<Option<Subscription>> {
        Shared::create_subscription(&self.pool, owner, search, new, at).await
    }

    async fn delete_subscription(&self, owner: UserId, id: SubscriptionId) -> Result<bool> {
        Shared::delete_subscription(&self.pool, owner, id).await
    }

    async fn notification_settings(&self, owner: UserId) -> Result<NotificationSettings> {
        retry_once_if_lost(|| Shared::notification_settings(&self.pool, owner)).await
    }

    async fn put_notification_settings(
        &self,
        owner: UserId,
        settings: &NotificationSettings,
        at: DateTime<Utc>,
    ) -> Result<NotificationSettings> {
        Shared::put_notification_settings(&self.pool, owner, settings, at).await
    }

    async fn notifications(&self, owner: UserId, page: ListPage) -> Result<NotificationPage> {
        retry_once_if_lost(|| Shared::notifications(&self.pool, owner, page)).await
    }

    async fn notification(
        &self,
        owner: UserId,
        id: NotificationId,
    ) -> Result<Option<NotificationJobs>> {
        retry_once_if_lost(|| Shared::notification(&self.pool, owner, id)).await
    }

    async fn mark_notification_read(
        &self,
        owner: UserId,
        id: NotificationId,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        Shared::mark_notification_read(&self.pool, &self.pool, owner, id, at).await
    }
}
