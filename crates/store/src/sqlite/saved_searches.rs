//! [`SavedSearchRepo`] on SQLite: `Shared`'s bodies, reads on the reader pool, writes on the
//! one writer connection, and the capped insert in a `BEGIN IMMEDIATE` transaction (which
//! holds the database, so the owner's row needs no lock of its own).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{NotificationId, SavedSearchId, SubscriptionId, UserId};

use super::{Shared, SqliteStore};
use crate::{
    ListPage, NewSavedSearch, NewSubscription, NotificationJobs, NotificationPage,
    NotificationSettings, Result, SavedSearch, SavedSearchInsert, SavedSearchPatch,
    SavedSearchRepo, SharedSearch, Subscription,
};

/// The owner's row (no lock: the write transaction holds the database).
const OWNER_LOCK: &str = crate::sql::saved_searches::owner_lock!("");

#[async_trait]
impl SavedSearchRepo for SqliteStore {
    async fn create_saved_search(
        &self,
        owner: UserId,
        new: &NewSavedSearch<'_>,
        at: DateTime<Utc>,
    ) -> Result<SavedSearchInsert> {
        let tx = self.write().await?;
        Shared::insert_saved_search(tx, OWNER_LOCK, owner, new, at).await
    }

    async fn list_saved_searches(&self, owner: UserId) -> Result<Vec<SavedSearch>> {
        Shared::list_saved_searches(&self.pool, owner).await
    }

    async fn saved_search(&self, owner: UserId, id: SavedSearchId) -> Result<Option<SavedSearch>> {
        Shared::saved_search(&self.pool, owner, id).await
    }

    async fn update_saved_search(
        &self,
        owner: UserId,
        id: SavedSearchId,
        patch: &SavedSearchPatch<'_>,
        at: DateTime<Utc>,
    ) -> Result<Option<SavedSearch>> {
        Shared::update_saved_search(&self.writer, &self.pool, owner, id, patch, at).await
    }

    async fn delete_saved_search(&self, owner: UserId, id: SavedSearchId) -> Result<bool> {
        Shared::delete_saved_search(&self.writer, owner, id).await
    }

    async fn shared_search(&self, slug: &str) -> Result<Option<SharedSearch>> {
        Shared::shared_search(&self.pool, slug).await
    }

    async fn create_subscription(
        &self,
        owner: UserId,
        search: SavedSearchId,
        new: &NewSubscription<'_>,
        at: DateTime<Utc>,
    ) -> Result<Option<Subscription>> {
        Shared::create_subscription(&self.writer, owner, search, new, at).await
    }

    async fn delete_subscription(&self, owner: UserId, id: SubscriptionId) -> Result<bool> {
        Shared::delete_subscription(&self.writer, owner, id).await
    }

    async fn notification_settings(&self, owner: UserId) -> Result<NotificationSettings> {
        Shared::notification_settings(&self.pool, owner).await
    }

    async fn put_notification_settings(
        &self,
        owner: UserId,
        settings: &NotificationSettings,
        at: DateTime<Utc>,
    ) -> Result<NotificationSettings> {
        Shared::put_notification_settings(&self.writer, owner, settings, at).await
    }

    async fn notifications(&self, owner: UserId, page: ListPage) -> Result<NotificationPage> {
        Shared::notifications(&self.pool, owner, page).await
    }

    async fn notification(
        &self,
        owner: UserId,
        id: NotificationId,
    ) -> Result<Option<NotificationJobs>> {
        Shared::notification(&self.pool, owner, id).await
    }

    async fn mark_notification_read(
        &self,
        owner: UserId,
        id: NotificationId,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        Shared::mark_notification_read(&self.writer, &self.pool, owner, id, at).await
    }
}
