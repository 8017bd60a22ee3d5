//! # freehire-store
//!
//! Storage behind repository traits, with two complete adapters:
//!
//! - [`SqliteStore`]: the embedded default, a SQLite file under the data dir in WAL mode;
//! - [`PgStore`]: production PostgreSQL.
//!
//! Callers use the traits ([`JobRepo`], [`CompanyRepo`], [`BoardRepo`], [`BoardHealthRepo`],
//! [`AccountRepo`], …, bundled as
//! [`Store`]) through an `Arc<dyn Store>` from [`connect`], and never know which backend is
//! behind them. One conformance suite (`tests/it`) runs every behaviour against both over real
//! connections.
//!
//! Both schemas live in `migrations/{sqlite,postgres}` at the workspace root and are embedded
//! in the binary; [`Store::migrate`] applies pending ones.
//!
//! Invariants kept here:
//! - jobs are keyed by `(source, external_id)`; an upsert reports inserted / changed /
//!   unchanged by `content_hash`, never replaces a stored description with an empty one, never
//!   changes a row's `public_slug` or `created_at`, and reopens a closed row it sees again;
//! - closing is soft (`closed_at` + `closed_reason`), rows are never deleted here;
//! - batch writes are one transaction: a batch with one invalid posting writes nothing;
//! - every write that changes what search should show enqueues the job in `search_outbox`
//!   (inserted, changed, reopened, un-duplicated) or `search_delete_outbox` (closed, marked
//!   duplicate) in the same transaction.
//!
//! Accounts ([`AccountRepo`]) live in `users`, `user_email_codes` and `api_keys`: an address is
//! unique in its lower-cased form (a taken one is [`StoreError::Conflict`]), secrets come in
//! only as hashes and a password hash goes out only in [`Credentials`], every row an account
//! owns goes with it when it is deleted, owner-scoped methods never reach another account's
//! rows, and a one-time code is judged and consumed (or its wrong attempt counted) in one
//! transaction that holds its row, comparing hashes in constant time.
//!
//! Saved searches ([`SavedSearchRepo`], migration 0009) live in `saved_searches`,
//! `subscriptions`, `notification_settings` and the reads of `user_notifications`: a name is
//! unique per owner compared case-insensitively (a taken one is [`StoreError::Conflict`]), the
//! per-owner cap is counted and kept in the insert's transaction holding the owner's row, a
//! webhook secret goes in but never comes back out, and settings read as the defaults until
//! written.
//! Tracking ([`TrackingRepo`], model types in [`tracking`]) lives in `user_jobs`,
//! `applications`, `application_events` and `job_reminders`: every mutation appends its ledger
//! rows in the same transaction under the job's row lock, `applied_count` and `view_count` move
//! once per user, and an application outlives its posting (`job_id` nulled, company, role and
//! the snapshot of the posting kept).
//!
//! Assistant sessions and transcripts ([`AssistantRepo`], migration 0010, the shapes and the
//! runner's [`Transcripts`] beside [`AssistantSession`]) live in `assistant_sessions` and
//! `assistant_messages`: owner-scoped like every user's data, a message's `seq` computed by
//! its insert (a collision is [`StoreError::Conflict`] on `seq`), content kept as JSON text.
//! [`TurnLeaseRepo`] keeps one running turn per session across API processes in
//! `assistant_turn_leases`.
//!
//! The experience bank ([`ExperienceRepo`], migration 0013, see [`experience`]) lives in
//! `experience_employments`, `experience_atoms` and `users.experience_require_context`: one
//! atom per owner and claim key, raised in place from `agent_inferred` to a publishable
//! provenance and never lowered, merges gated on both rows' `updated_at`.
//!
//! Plans ([`PlanRepo`], migration 0011) live in `usage_daily` and `usage_ledger`, the
//! per-user gateway key ([`LlmKeyRepo`]) in `users.llm_key` / `llm_key_id`; see [`plans`].
//!
//! Screening answers ([`ScreeningRepo`], migration 0016) live in `users.screening_answers`, one
//! JSON object changed by a merge patch in one statement.
//!
//! Cover letters ([`CoverLetterRepo`], migration 0017, see [`letters`]) live in `cover_letters`,
//! one per user and vacancy, replaced in place when drafted again.
//!
//! The lifecycle beyond a crawl ([`LifecycleRepo`], migration 0022): liveness reads of postings
//! no live board watches (`job_liveness`), and the prune of long-closed jobs (`pruned_jobs`).
//!
//! Operators' figures ([`StatsRepo`], migration 0020): the fleet per provider, the catalogue's
//! counts, and the daily rollups the worker writes to `job_daily_stats` and `site_status_daily`.
//!
//! Rate-limit cells ([`RateCellRepo`], migration 0018, see [`rates`]) live in `rate_cells`
//! (UNLOGGED on PostgreSQL): one GCRA cell per bucket and subject, counted or refused in one
//! upsert, so every API process on one database counts a caller together.
//!
//! CV documents ([`CvRepo`], migrations 0014–0015, types in [`cvs`]) live in `cvs` (one base CV per
//! user, one tailored copy per user and job) and `cv_revisions` (at most 100 per CV): content
//! changes only through `freehire-cv`'s plans, committed in one transaction holding the CV's
//! row.

#[macro_use]
mod sql;

mod accounts;
mod assistant;
mod bind;
mod companies;
pub mod rates;
mod stats;
// CV documents (issue 16).
pub mod cvs;
mod error;
pub mod experience;
mod ghost;
mod group;
mod health;
pub mod letters;
mod lifecycle;
mod model;
mod notify;
mod plan;
pub mod plans;
mod ports;
mod postgres;
mod rows;
mod saved_searches;
mod shared;
mod sqlite;
#[cfg(feature = "testing")]
pub mod testing;
pub mod tracking;
mod url;

use std::sync::Arc;

pub use accounts::{
    CodeOutcome, Credentials, KeyHolder, NewApiKey, NewEmailCode, NewUser, ProfilePatch, Redeem,
    Sessions, UserList,
};
pub use assistant::{AssistantSession, NewSession, RAIL_PRESETS, SESSION_PRESETS, Transcripts};
// CV documents (issue 16).
pub use cvs::{CommitOutcome, Cv, CvEdit, CvEvidence, CvKind, CvRevision, RevisionId};
pub use error::{Result, StoreError};
pub use experience::{AtomWrite, MergeOutcome, fill_blanks};
pub use ghost::{ApplicantClock, GhostInputs};
pub use letters::StoredLetter;
pub use lifecycle::{LivenessCandidate, LivenessRead, PrunedJob, RoleHistory};
pub use model::{
    AddedBoard, Backend, BoardFilter, BoardWrite, BoardWritten, CLAIM_HEARTBEAT, ClaimHolder,
    ClaimOptions, Company, CompanyAlias, CompanyFilter, CompanyIndexBatch, CompanyList,
    CompanyMerge, CompanyRefresh, CompanyTerm, DerivedUpdate, JobKey, JobList, ListPage,
    OutboxItem, OutboxKind, Refreshed, RunStatus, SITEMAP_PAGE_SIZE, ScheduleDefaults,
    ScheduleOverride, SeenJob, SeenPosting, SitemapEntry, SitemapPage, SuggestFloors,
    SuggestionTerms, TermCount, UnseenScope, UpsertOutcome, Upserted,
};
pub use notify::{
    DeliveryId, DeliveryOutcome, DeliveryRecord, Digest, DigestCandidate, DigestClaim,
    DigestSettings, DigestTitle, DueDelivery, DueReminder, NewDelivery, NewNotification, NewNudge,
    NotificationRecord, NudgeCandidate, NudgeKind, ReminderId, Subscriber,
};
pub use plans::StoredKey;
pub use ports::CoverLetterRepo;
pub use ports::{
    AccountRepo, AssistantRepo, BoardHealthRepo, BoardRepo, CompanyRepo, ExperienceRepo, GhostRepo,
    HeldLease, IngestRepo, JobRepo, LifecycleRepo, LlmKeyRepo, NotifyRepo, OutboxRepo, PlanRepo,
    RateCellRepo, SavedSearchRepo, ScheduleRepo, ScreeningRepo, StatsRepo, Store, TrackingRepo,
    TurnLeaseRepo,
};
pub use stats::{
    CatalogCounts, ClassCount, DailyStats, DayVerdict, FailingBoard, FailingBoards, FleetStatus,
    OutboxDepth, ProviderStatus,
};
// CV documents (issue 16).
pub use ports::CvRepo;
pub use postgres::{
    DEFAULT_COORDINATION_POOL_SIZE, DEFAULT_POOL_SIZE, DEFAULT_TRANSCRIPT_POOL_SIZE, PgStore,
    PoolSizes,
};
pub use saved_searches::{
    DEFAULT_DIGEST_HOUR, NewSavedSearch, NewSubscription, Notification, NotificationJobs,
    NotificationPage, NotificationSettings, NotifiedJob, SavedSearch, SavedSearchInsert,
    SavedSearchPatch, SharedSearch, Subscription,
};
pub use sqlite::SqliteStore;
pub use tracking::{
    Application, ApplyOptions, Card, CardList, ExportRow, ImportEvent, ImportRow, Imported, Marks,
    SlugSet, Snapshot, StageCounts, Track, TrackChange, TrackedDetail, TrackedEvent,
    TrackingFilter,
};
pub use url::{DEFAULT_DATABASE_URL, DatabaseUrl, PostgresUrl, SqliteLocation};

/// The health check's statement: one cheap read of the catalogue table, so a database that
/// answers but lost (or never had) its schema is not healthy.
pub(crate) const CATALOGUE_PROBE: &str = "SELECT 1 FROM jobs LIMIT 1";

/// Opens the store a URL names (creating a SQLite file and its folder if missing), a
/// PostgreSQL one with the default [`PoolSizes`]. Does not migrate: call [`Store::migrate`].
pub async fn connect(url: &DatabaseUrl) -> Result<Arc<dyn Store>> {
    connect_sized(url, PoolSizes::default()).await
}

/// [`connect`] with a PostgreSQL store's pools of at most `sizes` connections (SQLite's
/// pools are its own: one writer and a few readers).
pub async fn connect_sized(url: &DatabaseUrl, sizes: PoolSizes) -> Result<Arc<dyn Store>> {
    Ok(match url {
        DatabaseUrl::Sqlite(location) => Arc::new(SqliteStore::connect(location).await?),
        DatabaseUrl::Postgres(url) => Arc::new(PgStore::connect_sized(url.expose(), sizes).await?),
    })
}
