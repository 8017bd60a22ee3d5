//! The repository traits. Both adapters implement all of them; callers hold a
//! [`Store`] trait object and never know which backend is behind it.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{
    ApiKey, ApiKeyId, ApplicationId, Board, BoardHealth, BoardId, BoardKey, BoardStatus,
    ClosedReason, CodePurpose, CompanySlug, Email, FailureClass, Job, JobId, JobPosting, NewBoard,
    NotificationId, Provider, PublicSlug, Role, SavedSearchId, SubscriptionId, User, UserId,
};

use freehire_assistant::{Message, NewMessage, SessionId};
use freehire_domain::experience::{Atom, AtomDraft, Employment, EmploymentDraft, MergePlan};
// CV documents (issue 16).
use crate::SitemapPage;
use crate::letters::StoredLetter;
use crate::rates::{RateQuota, RateTake};
use freehire_cv::letter::{Band, Letter};
use freehire_cv::{Actor, CvState, EditConfig};
use freehire_domain::CvId;
use freehire_domain::plan::{Decision, Feature, PlanPolicy, Standing};
use freehire_domain::{AtomId, Author, EmploymentId, ScreeningAnswers, ScreeningPatch};

use crate::{
    AddedBoard,
    AtomWrite,
    Backend,
    BoardFilter,
    BoardWrite,
    BoardWritten,
    ClaimHolder,
    ClaimOptions,
    CodeOutcome,
    Company,
    CompanyAlias,
    CompanyFilter,
    CompanyIndexBatch,
    CompanyList,
    CompanyMerge,
    CompanyRefresh,
    Credentials,
    DerivedUpdate,
    FailingBoards,
    JobKey,
    JobList,
    KeyHolder,
    ListPage,
    MergeOutcome,
    NewApiKey,
    NewEmailCode,
    NewUser,
    OutboxItem,
    OutboxKind,
    ProfilePatch,
    Redeem,
    Refreshed,
    Result,
    RunStatus,
    ScheduleDefaults,
    ScheduleOverride,
    SeenJob,
    SeenPosting,
    Sessions,
    StoredKey,
    UnseenScope,
    Upserted,
    UserList,
    assistant::{AssistantSession, NewSession},
    // CV documents (issue 16).
    cvs::{CommitOutcome, Cv, CvEdit, CvEvidence, CvRevision, RevisionId},
    notify::{
        DeliveryId, DeliveryOutcome, DeliveryRecord, Digest, DigestCandidate, DigestClaim,
        DueDelivery, DueReminder, NewNotification, NewNudge, NotificationRecord, NudgeCandidate,
        ReminderId, Subscriber,
    },
    saved_searches::{
        NewSavedSearch, NewSubscription, NotificationJobs, NotificationPage, NotificationSettings,
        SavedSearch, SavedSearchInsert, SavedSearchPatch, SharedSearch, Subscription,
    },
    tracking::{
        Application, ApplyOptions, CardList, ExportRow, ImportRow, Imported, SlugSet, StageCounts,
        Track, TrackChange, TrackedDetail, TrackingFilter,
    },
};

/// Plans and quotas (reference §13.4): per-user, per-feature, per-UTC-day counters and the
/// ledger of charges by reference. See [`plans`](crate::plans) for the invariants.
#[async_trait]
pub trait PlanRepo: Send + Sync {
    /// Decides and, when allowed, charges one use of `feature` under `reference`, in one
    /// transaction holding the day's counter: a reference already charged (on any day) costs
    /// nothing; the tier is read from the account's `pro_until` / `ultra_until` (an account
    /// that does not exist is free). A refusal is `Ok` with `allowed == false` and nothing
    /// written.
    async fn consume(
        &self,
        user: UserId,
        feature: Feature,
        reference: &str,
        policy: &PlanPolicy,
        now: DateTime<Utc>,
    ) -> Result<Decision>;

    /// Voids `reference`'s standing charge (the ledger row is restamped `release` and kept)
    /// and takes it off the day it was counted on, never below 0. Whether a charge was
    /// voided: releasing twice, or a reference never charged, is a no-op.
    async fn release(
        &self,
        user: UserId,
        feature: Feature,
        reference: &str,
        now: DateTime<Utc>,
    ) -> Result<bool>;

    /// What `user` has of `feature` today.
    async fn standing(
        &self,
        user: UserId,
        feature: Feature,
        policy: &PlanPolicy,
        now: DateTime<Utc>,
    ) -> Result<Standing>;

    /// The standing of every reported feature ([`Feature::REPORTED`]), untouched ones
    /// included, in that order.
    async fn usage(
        &self,
        user: UserId,
        policy: &PlanPolicy,
        now: DateTime<Utc>,
    ) -> Result<Vec<Standing>>;

    /// The references of `user`'s standing charges of `feature` that start with `prefix`
    /// (a tailoring session's ceilings), in text order.
    async fn consumption_refs(
        &self,
        user: UserId,
        feature: Feature,
        prefix: &str,
    ) -> Result<Vec<String>>;
}

/// A user's gateway virtual key (reference §14.2), in `users.llm_key` / `llm_key_id`.
#[async_trait]
pub trait LlmKeyRepo: Send + Sync {
    /// The stored key; `None` when none is stored or the account does not exist.
    async fn llm_key(&self, user: UserId) -> Result<Option<StoredKey>>;

    /// Stores `key` only where no key is stored, and returns the key stored afterwards:
    /// `key` itself when this claim won, the winner's when another claim got there first,
    /// `None` when the account does not exist.
    async fn claim_llm_key(&self, user: UserId, key: &StoredKey) -> Result<Option<StoredKey>>;

    /// Clears the stored key only where its secret is `secret`; whether it did.
    async fn clear_llm_key(&self, user: UserId, secret: &str) -> Result<bool>;
}

/// The job catalogue.
#[async_trait]
pub trait JobRepo: Send + Sync {
    /// Inserts or updates postings keyed by `(source, external_id)`, in one transaction.
    ///
    /// - A new key is inserted with `created_at = updated_at = last_seen_at = seen_at`.
    /// - An existing key whose stored `content_hash` differs from the posting's is rewritten
    ///   (`Changed`), `updated_at` moves; its public slug and `created_at` never change.
    /// - An existing key with the same hash only moves `last_seen_at` (`Unchanged`).
    /// - Every sighting reopens a closed row.
    /// - A stored description is never replaced by an empty one.
    ///
    /// Every posting is validated first; one invalid posting rejects the whole batch and
    /// writes nothing. A key repeated in one batch is written once, from its last occurrence.
    async fn upsert_jobs(
        &self,
        postings: &[JobPosting],
        seen_at: DateTime<Utc>,
    ) -> Result<Vec<Upserted>>;

    /// For each item stored with exactly that content hash: bump `last_seen_at` to `seen_at`
    /// and reopen it if closed; nothing else changes. Items that miss must be upserted.
    async fn refresh_unchanged(
        &self,
        items: &[SeenPosting],
        seen_at: DateTime<Utc>,
    ) -> Result<Vec<Refreshed>>;

    /// Soft-closes the open jobs among `keys` with `reason` at `at`; returns the ids closed.
    async fn close_jobs(
        &self,
        keys: &[JobKey],
        reason: ClosedReason,
        at: DateTime<Utc>,
    ) -> Result<Vec<JobId>>;

    /// Marks `id` as a duplicate of `canonical` (or clears the mark with `None`). Returns
    /// false when no such job exists. A job cannot duplicate itself.
    async fn set_duplicate_of(&self, id: JobId, canonical: Option<JobId>) -> Result<bool>;

    /// The jobs with these ids (open or closed; unknown ids are skipped), by id.
    async fn jobs_by_ids(&self, ids: &[JobId]) -> Result<Vec<Job>>;

    /// The jobs at these public slugs (open or closed; unknown slugs are skipped), in one
    /// statement, by id.
    async fn jobs_by_slugs(&self, slugs: &[PublicSlug]) -> Result<Vec<Job>>;

    /// The open jobs marked as duplicates of any of `canonicals` (their role clusters, for the
    /// cluster geography of the canonical's search document), by id.
    async fn open_duplicates_of(&self, canonicals: &[JobId]) -> Result<Vec<Job>>;

    /// Every job (open or closed) with an id above `after`, by id, at most `limit` (1..=1000).
    async fn jobs_after(&self, after: Option<JobId>, limit: u32) -> Result<Vec<Job>>;

    /// Writes re-derived facets, role fingerprints and content hashes, moving `updated_at`;
    /// open, non-duplicate jobs among them are queued for re-indexing in the same transaction.
    /// Returns the rows written.
    async fn rewrite_derived(&self, updates: &[DerivedUpdate], at: DateTime<Utc>) -> Result<u64>;

    /// Open, non-duplicate jobs, newest `created_at` first (ties by id, newest first).
    async fn list_open_jobs(&self, page: ListPage) -> Result<JobList>;

    /// A job by its public slug, open or closed.
    async fn job_by_slug(&self, slug: &PublicSlug) -> Result<Option<Job>>;

    /// A job by its source key, open or closed.
    async fn job_by_key(&self, key: &JobKey) -> Result<Option<Job>>;

    /// The jobs (open or closed) whose posting URL is exactly one of `urls`, by id
    /// (`GET /jobs/find` passes the forms one address can take).
    async fn jobs_by_urls(&self, urls: &[String]) -> Result<Vec<Job>>;

    /// A page of the jobs sitemap: the open, non-duplicate jobs by id, `limit` (clamped to
    /// 1..=[`crate::SITEMAP_PAGE_SIZE`]) from `offset`, with their total.
    async fn sitemap_jobs(&self, offset: u64, limit: u32) -> Result<SitemapPage>;

    /// The terms `GET /suggest` completes over: titles and companies with at least `floors`
    /// open, non-duplicate jobs, every skill and category, each with its jobs, most first.
    async fn suggestion_terms(
        &self,
        floors: crate::SuggestFloors,
    ) -> Result<crate::SuggestionTerms>;
}

/// Companies, derived from the catalogue: the open, non-duplicate jobs grouped by company
/// slug (jobs without a company belong to none). `now` anchors the effective posted dates.
#[async_trait]
pub trait CompanyRepo: Send + Sync {
    /// Companies matching the filter, most open jobs first, then by slug.
    async fn list_companies(
        &self,
        filter: &CompanyFilter,
        page: ListPage,
        now: DateTime<Utc>,
    ) -> Result<CompanyList>;

    /// One company by slug; `None` when it has no open job.
    async fn company_by_slug(
        &self,
        slug: &CompanySlug,
        now: DateTime<Utc>,
    ) -> Result<Option<Company>>;

    /// A company's open, non-duplicate jobs, newest `created_at` first (ties by id, newest
    /// first), with their total.
    async fn company_jobs(&self, slug: &CompanySlug, page: ListPage) -> Result<JobList>;

    /// A page of the companies sitemap: companies by slug, `limit` (clamped to
    /// 1..=[`crate::SITEMAP_PAGE_SIZE`]) from `offset`, each with its jobs' latest change.
    async fn sitemap_companies(&self, offset: u64, limit: u32) -> Result<SitemapPage>;

    /// Recomputes up to `limit` stale marks' companies from their open, non-duplicate jobs
    /// (every job write marks its company stale by trigger) and writes the companies table:
    /// a company left without an open job is deleted. `now` anchors the effective posted
    /// dates. The reads above first refresh the marks committed before them (rounds until
    /// one is not full, so a read never chases a crawl that keeps writing); the drain calls this to keep the table (and
    /// what is built from it) in step without waiting for a reader.
    async fn refresh_companies(&self, limit: u32, now: DateTime<Utc>) -> Result<CompanyRefresh>;

    /// The oldest `limit` marks of the companies index outbox (migration 0027: every write of
    /// the companies table appends its slug, whichever path made it), with each marked
    /// company as the table holds it now, or listed as removed when the table no longer has
    /// it. The caller writes them to the search engine, then [`CompanyRepo::ack_company_index`]s
    /// exactly these marks.
    async fn company_index_pending(&self, limit: u32) -> Result<CompanyIndexBatch>;

    /// Deletes the companies index marks `ids` (a batch written to the search engine).
    async fn ack_company_index(&self, ids: &[i64]) -> Result<()>;

    /// Every company of the table, in no particular order (a rebuild of the companies index).
    async fn all_companies(&self) -> Result<Vec<Company>>;

    /// The slug a merged slug now lives under, if `slug` was merged away.
    async fn company_alias(&self, slug: &CompanySlug) -> Result<Option<CompanySlug>>;

    /// Every merged slug, by alias.
    async fn company_aliases(&self) -> Result<Vec<CompanyAlias>>;

    /// Merges `alias` into `canonical` in one transaction: records the alias (earlier aliases
    /// of `alias` follow it, and a merge the other way is undone), moves every job of `alias`
    /// to `canonical` and queues the moved jobs for re-indexing. Later writes of a job whose
    /// company slugifies to `alias` store `canonical`. A `canonical` merged away earlier is
    /// resolved through the registry first, unless it was merged into `alias` (then this is
    /// that merge reversed); merging a slug into itself is [`crate::StoreError::Invalid`].
    async fn merge_companies(
        &self,
        alias: &CompanySlug,
        canonical: &CompanySlug,
        reason: freehire_domain::AliasReason,
        at: DateTime<Utc>,
    ) -> Result<CompanyMerge>;
}

/// The board catalogue.
#[async_trait]
pub trait BoardRepo: Send + Sync {
    /// Adds a board unless a pending or active board with the same identity
    /// (`provider, lower(board), region`) exists, in which case that one is returned.
    async fn add_board(&self, board: &NewBoard, at: DateTime<Utc>) -> Result<AddedBoard>;

    /// Adds each board of `boards` that no pending or active board with the same identity
    /// holds (nor an earlier board of the batch), all in one transaction; returns the boards it
    /// created, by id. A bulk [`BoardRepo::add_board`] for catalogue seeds: one round trip per
    /// batch on PostgreSQL, one transaction of prepared inserts on SQLite.
    async fn add_boards(&self, boards: &[NewBoard], at: DateTime<Utc>) -> Result<Vec<Board>>;

    /// Boards matching the filter, by provider then board.
    async fn list_boards(&self, filter: &BoardFilter) -> Result<Vec<Board>>;

    /// The pending or active board with this identity.
    async fn board_by_key(&self, key: &BoardKey) -> Result<Option<Board>>;

    /// Sets a board's status (and the reason, for `rejected`). Returns false if no such board.
    async fn set_board_status(
        &self,
        id: BoardId,
        status: BoardStatus,
        reason: Option<&str>,
    ) -> Result<bool>;

    /// Flips a `pending` board with this identity to `active` after its first successful
    /// crawl. Returns whether it flipped.
    async fn activate_board(&self, key: &BoardKey, at: DateTime<Utc>) -> Result<bool>;
}

/// Runtime crawl health of boards.
#[async_trait]
pub trait BoardHealthRepo: Send + Sync {
    /// Records a successful crawl that named `ingested` postings: failures reset, cooldown
    /// cleared, `last_success_at`/`last_run_at` stamped, `last_yield_at` if `ingested > 0`.
    async fn record_board_success(
        &self,
        key: &BoardKey,
        ingested: u64,
        at: DateTime<Utc>,
    ) -> Result<BoardHealth>;

    /// Records a board-level failure of `class`: failures increment and the cooldown follows
    /// [`freehire_domain::cooldown_for`].
    async fn record_board_failure(
        &self,
        key: &BoardKey,
        class: FailureClass,
        error: &str,
        at: DateTime<Utc>,
    ) -> Result<BoardHealth>;

    /// The board's health row, if it was ever crawled.
    async fn board_health(&self, key: &BoardKey) -> Result<Option<BoardHealth>>;

    /// The health rows of `provider`'s boards that carry a cooldown (current or past): what a
    /// provider run reads once to skip cooling boards without a query per board.
    async fn cooldowns(&self, provider: &Provider) -> Result<Vec<BoardHealth>>;

    /// Every health row (of `provider`'s boards, when given), sorted by provider, board and
    /// region: what `boards list` joins to the boards (by [`BoardKey`] identity, the board
    /// folded to lowercase).
    async fn board_healths(&self, provider: Option<&Provider>) -> Result<Vec<BoardHealth>>;

    /// The live boards failing since their last success, at most `per_provider` of each
    /// provider (most consecutive failures first, then the latest error), with how many of each
    /// provider's failing boards fall in each [`FailureClass`].
    async fn failing_boards(&self, per_provider: u32) -> Result<FailingBoards>;
}

/// What the ingest pipeline needs beyond [`JobRepo`].
#[async_trait]
pub trait IngestRepo: Send + Sync {
    /// Every stored job of `source` whose external id starts with `board_prefix` (`<board>:`),
    /// open or closed, sorted by external id. Rows with an empty description created at or
    /// after `hydration_cutoff` are marked `needs_detail`, so their detail is fetched again.
    async fn board_seen_set(
        &self,
        source: &Provider,
        board_prefix: &str,
        hydration_cutoff: DateTime<Utc>,
    ) -> Result<Vec<SeenJob>>;

    /// Marks stored jobs as seen without comparing content: bumps `last_seen_at`, reopens
    /// (and re-enqueues for indexing) closed ones.
    async fn touch_jobs(&self, keys: &[JobKey], at: DateTime<Utc>) -> Result<Vec<Refreshed>>;

    /// Writes everything one crawled board changed in one transaction (see [`BoardWrite`]):
    /// all of it lands or none of it does.
    async fn write_board(&self, write: &BoardWrite<'_>) -> Result<BoardWritten>;

    /// Writes several boards' writes in one transaction (a group commit): written in one go,
    /// and when a board fails, rolled back and written again with a savepoint per board. Each
    /// board's write lands whole or not at all, exactly as
    /// [`write_board`](Self::write_board) would, and one board's failure (its inner error)
    /// leaves the others standing. The outer error is the group's: nothing of it landed.
    /// Results are in `writes` order.
    async fn write_boards(&self, writes: &[BoardWrite<'_>]) -> Result<Vec<Result<BoardWritten>>>;

    /// Soft-closes the open jobs in scope last seen before `scope.last_seen_before`, enqueueing
    /// each for removal from search in the same transaction. Returns the ids closed.
    async fn close_unseen(
        &self,
        scope: &UnseenScope,
        reason: ClosedReason,
        at: DateTime<Utc>,
    ) -> Result<Vec<JobId>>;
}

/// The search outboxes' claim/ack contract (the search drain is their one consumer).
///
/// Rows are claimed in waves; a claim older than the lease is abandoned and claimable again;
/// acknowledging deletes the row unless the job was re-enqueued after the claim; a failure
/// releases the row with its error. Several drains may run at once (`FOR UPDATE SKIP LOCKED`
/// on PostgreSQL, one writer at a time on SQLite).
#[async_trait]
pub trait OutboxRepo: Send + Sync {
    /// Claims up to `options.limit` rows, oldest first.
    async fn claim_outbox(
        &self,
        kind: OutboxKind,
        options: ClaimOptions,
        now: DateTime<Utc>,
    ) -> Result<Vec<OutboxItem>>;

    /// Deletes handled rows (those not re-enqueued since their claim).
    async fn ack_outbox(&self, kind: OutboxKind, items: &[OutboxItem]) -> Result<u64>;

    /// Releases a row that failed, recording the error.
    async fn fail_outbox(
        &self,
        kind: OutboxKind,
        item: &OutboxItem,
        error: &str,
        at: DateTime<Utc>,
    ) -> Result<()>;

    /// Renews the lease of a claimed wave to `now` (rows acknowledged, released or re-enqueued
    /// since are left alone); returns the rows renewed.
    async fn renew_outbox(
        &self,
        kind: OutboxKind,
        items: &[OutboxItem],
        now: DateTime<Utc>,
    ) -> Result<u64>;

    /// Takes or renews the embedded index's writer lease for `holder`: `true` when `holder`
    /// holds it now (it was free, its own, or its holder's last heartbeat is older than
    /// `expiry`). Exactly one process writes the embedded index: the one holding this lease.
    async fn hold_writer_lease(
        &self,
        holder: &str,
        expiry: chrono::Duration,
        now: DateTime<Utc>,
    ) -> Result<bool>;

    /// Gives the writer lease up if `holder` holds it (a clean shutdown), so another process
    /// takes the drain over at once.
    async fn release_writer_lease(&self, holder: &str) -> Result<()>;

    /// Rows waiting (claimed or not).
    async fn outbox_depth(&self, kind: OutboxKind) -> Result<u64>;

    /// Deletes the rows (claimed or not) queued before `before`: a full rebuild that read the
    /// catalogue after `before` has made them moot (`DeleteSearchOutboxCreatedBefore`,
    /// reference §5.11.3). A row re-queued at or after `before` stays. Returns the rows deleted.
    async fn purge_outbox_before(&self, kind: OutboxKind, before: DateTime<Utc>) -> Result<u64>;
}

/// The provider schedule: which provider runs next, claimed so several workers can share one
/// database.
#[async_trait]
pub trait ScheduleRepo: Send + Sync {
    /// The providers of pending or active boards, sorted.
    async fn provider_roster(&self) -> Result<Vec<Provider>>;

    /// Sets (or with the defaults, clears) a provider's schedule override.
    async fn set_provider_schedule(
        &self,
        provider: &Provider,
        schedule: &ScheduleOverride,
    ) -> Result<()>;

    /// Claims the most overdue enabled provider of the roster that nobody holds (or whose
    /// holder's last heartbeat is older than the claim expiry; a dead claim makes its
    /// provider due at once), moving its `next_due_at` to `now + cadence`
    /// at claim time (an outage owes one run, not many). `None` when nothing is due.
    async fn claim_due_provider(
        &self,
        worker: &str,
        defaults: ScheduleDefaults,
        now: DateTime<Utc>,
    ) -> Result<Option<Provider>>;

    /// Claims one named provider now (`--once`), due or not, unless another worker holds it.
    async fn claim_provider(
        &self,
        provider: &Provider,
        worker: &str,
        defaults: ScheduleDefaults,
        now: DateTime<Utc>,
    ) -> Result<bool>;

    /// Renews `worker`'s claim on `provider` to `now`; `false` when it no longer holds it
    /// (another worker took it over, so the run must stop writing).
    async fn renew_provider_claim(
        &self,
        provider: &Provider,
        worker: &str,
        now: DateTime<Utc>,
    ) -> Result<bool>;

    /// Who holds `provider`'s claim (live or dead), `None` when nobody does.
    async fn provider_claim(&self, provider: &Provider) -> Result<Option<ClaimHolder>>;

    /// Claims `provider` for `worker` even when another worker holds it (an operator's
    /// `--take-over`); returns the previous holder when its claim was still live.
    async fn take_over_provider(
        &self,
        provider: &Provider,
        worker: &str,
        defaults: ScheduleDefaults,
        now: DateTime<Utc>,
    ) -> Result<Option<ClaimHolder>>;

    /// Releases a claim held by `worker`, recording how the run ended.
    async fn finish_provider_run(
        &self,
        provider: &Provider,
        worker: &str,
        status: &RunStatus,
        at: DateTime<Utc>,
    ) -> Result<()>;
}

/// Accounts, their one-time codes and their API keys (reference §4.2).
///
/// Every method on a user's own data takes the owner's [`UserId`] and puts it in the `WHERE`
/// clause: another user's row is `None`/`false`, exactly like a row that does not exist.
/// Deleting an account deletes every row it owns (foreign keys `ON DELETE CASCADE`).
#[async_trait]
pub trait AccountRepo: Send + Sync {
    /// Creates an account; [`StoreError::Conflict`](crate::StoreError::Conflict) naming
    /// `email` when the address is taken.
    async fn create_user(&self, user: &NewUser<'_>, at: DateTime<Utc>) -> Result<User>;

    /// One account.
    async fn user_by_id(&self, id: UserId) -> Result<Option<User>>;

    /// An account and its password hash, by address.
    async fn credentials_by_email(&self, email: &Email) -> Result<Option<Credentials>>;

    /// An account and its password hash, by id.
    async fn credentials_by_id(&self, id: UserId) -> Result<Option<Credentials>>;

    /// A page of accounts, oldest first.
    async fn list_users(&self, page: ListPage) -> Result<UserList>;

    /// Sets the password hash; with [`Sessions::Revoke`] also bumps `token_version` in the same
    /// statement. `None` when there is no such account.
    async fn set_password_hash(
        &self,
        id: UserId,
        hash: &str,
        sessions: Sessions,
    ) -> Result<Option<User>>;

    /// Bumps `token_version` (revoking every session). `None` when there is no such account.
    async fn bump_token_version(&self, id: UserId) -> Result<Option<User>>;

    /// Sets the role. `None` when there is no such account.
    async fn set_role(&self, id: UserId, role: Role) -> Result<Option<User>>;

    /// Marks the address verified. `None` when there is no such account.
    async fn set_email_verified(&self, id: UserId) -> Result<Option<User>>;

    /// Applies a profile patch (an empty one reads the account). `None` when there is no
    /// such account.
    async fn update_profile(&self, id: UserId, patch: &ProfilePatch) -> Result<Option<User>>;

    /// Deletes the account and every row it owns; `false` when there was none.
    async fn delete_user(&self, id: UserId) -> Result<bool>;

    /// Stores a code, replacing the account's live code of the same purpose (attempts back to
    /// zero). `false` when there is no such account.
    async fn put_email_code(
        &self,
        owner: UserId,
        code: &NewEmailCode<'_>,
        at: DateTime<Utc>,
    ) -> Result<bool>;

    /// Checks `code_hash` against the live code of `purpose`, in one transaction: a right,
    /// live code is deleted and `redeem` applied; a wrong one counts an attempt and is deleted
    /// once `max_attempts` are spent; an expired or exhausted one is deleted.
    async fn redeem_email_code(
        &self,
        owner: UserId,
        purpose: CodePurpose,
        code_hash: &str,
        redeem: &Redeem,
        max_attempts: u32,
        now: DateTime<Utc>,
    ) -> Result<CodeOutcome>;

    /// Stores a minted key; [`StoreError::Conflict`](crate::StoreError::Conflict) naming
    /// `token` if the hash exists (a minting collision).
    async fn create_api_key(
        &self,
        owner: UserId,
        key: &NewApiKey<'_>,
        at: DateTime<Utc>,
    ) -> Result<ApiKey>;

    /// The owner's keys, newest first.
    async fn list_api_keys(&self, owner: UserId) -> Result<Vec<ApiKey>>;

    /// Deletes one of the owner's keys; `false` when the owner has no such key.
    async fn delete_api_key(&self, owner: UserId, id: ApiKeyId) -> Result<bool>;

    /// The key a token hash names, with its owner (expired keys included: the caller decides).
    async fn api_key_holder(&self, token_hash: &str) -> Result<Option<KeyHolder>>;

    /// Stamps `last_used_at = at` unless it was stamped less than `min_interval` before `at`;
    /// whether it wrote.
    async fn touch_api_key(
        &self,
        id: ApiKeyId,
        at: DateTime<Utc>,
        min_interval: chrono::Duration,
    ) -> Result<bool>;
}

/// The notification engines' storage (reference §8.1–§8.2, §7.4): the match cursor and
/// `subscription_matches`, digest claims, the `notification_deliveries` queue, firing
/// `job_reminders`, and `application_nudges`. Every claim is safe with several workers:
/// `FOR UPDATE SKIP LOCKED` and compare-and-set on PostgreSQL, the one writer transaction on
/// SQLite.
#[async_trait]
pub trait NotifyRepo: Send + Sync {
    /// Where engine cursor `name` stands (0 when it never moved).
    async fn engine_cursor(&self, name: &str) -> Result<i64>;

    /// The insert horizon: the highest job id such that no job with a lower id can still be
    /// committed later (`None` with no jobs). A cursor that only moves up to it never skips a
    /// job. On SQLite (one writer, ids allocated in commit order) it is the highest id; on
    /// PostgreSQL, where concurrent writers commit out of id order, it is read under the
    /// exclusive job-insert lock, which waits for every transaction inserting jobs to finish.
    async fn insert_horizon(&self) -> Result<Option<JobId>>;

    /// Every active subscription with its saved search's query, by id.
    async fn subscribers(&self) -> Result<Vec<Subscriber>>;

    /// In one transaction: moves cursor `name` from `from` to `to` (compare-and-set) and
    /// records `matches` (`(subscription, job)`, already recorded ones and ones whose
    /// subscription or job is gone skipped). `false`, writing nothing, when the cursor was not
    /// at `from` (another worker took the batch).
    async fn record_matches(
        &self,
        name: &str,
        from: i64,
        to: i64,
        matches: &[(SubscriptionId, JobId)],
        at: DateTime<Utc>,
    ) -> Result<bool>;

    /// Active subscriptions with unnotified matches, with their owners' settings, by id.
    async fn digest_candidates(&self) -> Result<Vec<DigestCandidate>>;

    /// In one transaction, under the subscription's row lock (skipped when another worker
    /// holds it): unless `last_digest_sent_at` moved from `claim.expected_last_sent`, takes
    /// the oldest `claim.cap` unnotified matches, records the digest notification first, queues
    /// its delivery (email to the account's address, or the webhook URL), marks the matches
    /// notified by it and stamps `last_digest_sent_at = now`. `None` when there was nothing to
    /// take or the claim lost.
    async fn take_digest(
        &self,
        claim: &DigestClaim<'_>,
        now: DateTime<Utc>,
    ) -> Result<Option<Digest>>;

    /// Leases up to `limit` pending deliveries due at `now` (unleased, or their lease ran out)
    /// to `worker` until `now + lease`, oldest due first, with what their message is made of.
    async fn claim_deliveries(
        &self,
        worker: &str,
        limit: u32,
        lease: chrono::Duration,
        now: DateTime<Utc>,
    ) -> Result<Vec<DueDelivery>>;

    /// Ends `worker`'s attempt at a delivery (counting it) and releases the lease; `false`
    /// when `worker` no longer held it.
    async fn finish_delivery(
        &self,
        id: DeliveryId,
        worker: &str,
        outcome: &DeliveryOutcome,
        now: DateTime<Utc>,
    ) -> Result<bool>;

    /// Leases up to `limit` pending reminders due at `now` to `worker` (a lease older than
    /// `lease` is dead), with what decides whether each still fires.
    async fn claim_reminders(
        &self,
        worker: &str,
        limit: u32,
        lease: chrono::Duration,
        now: DateTime<Utc>,
    ) -> Result<Vec<DueReminder>>;

    /// In one transaction: marks `worker`'s reminder fired and records its notification and
    /// deliveries. `None` when `worker` no longer held a pending reminder.
    async fn fire_reminder(
        &self,
        id: ReminderId,
        worker: &str,
        notification: &NewNotification,
        now: DateTime<Utc>,
    ) -> Result<Option<NotificationId>>;

    /// Cancels `worker`'s pending reminder (the job closed, the user applied or unsaved).
    async fn cancel_reminder(&self, id: ReminderId, worker: &str) -> Result<bool>;

    /// Applications on the silence clock, or with a `stage_set interview` event recorded at or
    /// after `since` that has no interview-prep nudge, with their nudged episodes, by id.
    async fn nudge_candidates(&self, since: DateTime<Utc>) -> Result<Vec<NudgeCandidate>>;

    /// In one transaction: records the nudge and its notification and deliveries, unless
    /// its episode was nudged already (`None`).
    async fn record_nudge(
        &self,
        nudge: &NewNudge,
        now: DateTime<Utc>,
    ) -> Result<Option<NotificationId>>;

    /// The owner's notifications, oldest first (the engines' view; the history routes page
    /// their own).
    async fn notifications_of(&self, owner: UserId) -> Result<Vec<NotificationRecord>>;

    /// The owner's deliveries, by id.
    async fn deliveries_of(&self, owner: UserId) -> Result<Vec<DeliveryRecord>>;
}

/// Saved searches, their subscriptions, notification settings and the notification history
/// as its owner reads it (reference §4.2, §8). Writing the history is the notify engine's.
///
/// Every method on a user's own data takes the owner's [`UserId`] and puts it in the `WHERE`
/// clause: another user's row is `None`/`false`, exactly like a row that does not exist.
#[async_trait]
pub trait SavedSearchRepo: Send + Sync {
    /// Creates a saved search unless the owner has `max_per_user` already (counted and
    /// inserted in one transaction holding the owner's row, so concurrent inserts cannot pass
    /// the cap); a name the owner already uses, compared case-insensitively, is
    /// [`StoreError::Conflict`](crate::StoreError::Conflict) naming `name`.
    async fn create_saved_search(
        &self,
        owner: UserId,
        new: &NewSavedSearch<'_>,
        at: DateTime<Utc>,
    ) -> Result<SavedSearchInsert>;

    /// The owner's saved searches with their subscriptions, oldest first.
    async fn list_saved_searches(&self, owner: UserId) -> Result<Vec<SavedSearch>>;

    /// One of the owner's saved searches with its subscriptions.
    async fn saved_search(&self, owner: UserId, id: SavedSearchId) -> Result<Option<SavedSearch>>;

    /// Applies a patch (moving `updated_at`); a taken name is
    /// [`StoreError::Conflict`](crate::StoreError::Conflict) naming `name`, a taken public
    /// slug naming `public_slug`. `None` when the owner has no such search.
    async fn update_saved_search(
        &self,
        owner: UserId,
        id: SavedSearchId,
        patch: &SavedSearchPatch<'_>,
        at: DateTime<Utc>,
    ) -> Result<Option<SavedSearch>>;

    /// Deletes one of the owner's saved searches and its subscriptions; `false` when the owner
    /// has no such search.
    async fn delete_saved_search(&self, owner: UserId, id: SavedSearchId) -> Result<bool>;

    /// The shared saved search with this public slug (whoever owns it).
    async fn shared_search(&self, slug: &str) -> Result<Option<SharedSearch>>;

    /// Subscribes one of the owner's saved searches on a channel, starting at `at`; `None`
    /// when the owner has no such search. The same channel and destination twice on one search
    /// is [`StoreError::Conflict`](crate::StoreError::Conflict) naming `channel`.
    async fn create_subscription(
        &self,
        owner: UserId,
        search: SavedSearchId,
        new: &NewSubscription<'_>,
        at: DateTime<Utc>,
    ) -> Result<Option<Subscription>>;

    /// Deletes one of the owner's subscriptions; `false` when the owner has no such one.
    async fn delete_subscription(&self, owner: UserId, id: SubscriptionId) -> Result<bool>;

    /// The owner's notification settings, the defaults when they never wrote any.
    async fn notification_settings(&self, owner: UserId) -> Result<NotificationSettings>;

    /// Writes the owner's notification settings (`updated_at` is `at`; the given
    /// `updated_at` is ignored) and returns them as stored.
    async fn put_notification_settings(
        &self,
        owner: UserId,
        settings: &NotificationSettings,
        at: DateTime<Utc>,
    ) -> Result<NotificationSettings>;

    /// A page of the owner's notification history, newest first, with the counts of all of it.
    async fn notifications(&self, owner: UserId, page: ListPage) -> Result<NotificationPage>;

    /// One of the owner's notifications with the jobs it lists.
    async fn notification(
        &self,
        owner: UserId,
        id: NotificationId,
    ) -> Result<Option<NotificationJobs>>;

    /// Marks one of the owner's notifications read at `at` (a read one keeps its first
    /// `read_at`); `false` when the owner has no such notification.
    async fn mark_notification_read(
        &self,
        owner: UserId,
        id: NotificationId,
        at: DateTime<Utc>,
    ) -> Result<bool>;
}

/// Application tracking (reference §4.2 "Tracking tables", §7): a user's marks on jobs, their
/// applications and the append-only event ledger.
///
/// Every method takes the owner and never reaches another user's rows (another user's
/// application id is `None`, like one that does not exist). A slug that names no job is
/// `None`. Every mutation appends its `application_events` rows in the same transaction, and
/// runs under the job's row lock (`FOR UPDATE` on PostgreSQL; SQLite's write transaction holds
/// the database), so `jobs.applied_count` and `jobs.view_count` move once per user however many
/// requests race. A pending saved-job reminder is created by a save (at save + 3 days, rounded
/// up to the user's digest hour in their time zone) and cancelled by an unsave, a dismiss or
/// an application.
#[async_trait]
pub trait TrackingRepo: Send + Sync {
    /// Records a view (the first one counts in `view_count` and appends a `viewed` event).
    async fn track_view(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>>;

    /// Saves (`true`) or unsaves (`false`) the job; a no-op when it already is.
    async fn track_save(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        saved: bool,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>>;

    /// Dismisses (`true`) or undismisses (`false`) the job; a no-op when it already is.
    async fn track_dismiss(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        dismissed: bool,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>>;

    /// Applies: creates or updates the application (applied date, stage `applied` unless it
    /// is further, the posting's snapshot) and counts the user in `applied_count` once ever.
    async fn track_apply(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        apply: &ApplyOptions,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>>;

    /// Sets the stage and/or the notes, creating the application if there is none (a stage
    /// past `preparing` also applies, as [`TrackingRepo::track_apply`] at `now`).
    async fn track_update(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        change: &TrackChange,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>>;

    /// Clears the stage and the applied date; the save and the notes stay.
    async fn track_clear_stage(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>>;

    /// Clears the save, the application (applied date, stage, notes); the view stays.
    async fn track_clear(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>>;

    /// Records a follow-up on the job's application (`followed_up_at` and a `followed_up`
    /// event). `Ok(None)` when the slug names no job; a job without an application gives a
    /// [`Track`] whose `application` is `None` (nothing written).
    async fn track_followed_up(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>>;

    /// [`TrackingRepo::track_update`] by the application's id (works after a prune).
    async fn update_application(
        &self,
        owner: UserId,
        id: ApplicationId,
        change: &TrackChange,
        now: DateTime<Utc>,
    ) -> Result<Option<Application>>;

    /// [`TrackingRepo::track_clear_stage`] by the application's id.
    async fn clear_application_stage(
        &self,
        owner: UserId,
        id: ApplicationId,
        now: DateTime<Utc>,
    ) -> Result<Option<Application>>;

    /// Deletes the application and its events; `false` when the owner has none of that id.
    async fn delete_application(&self, owner: UserId, id: ApplicationId) -> Result<bool>;

    /// The job's tracking state; `None` when the slug names no job.
    async fn track_of(&self, owner: UserId, slug: &PublicSlug) -> Result<Option<Track>>;

    /// `limit` of the owner's cards under `filter` from `offset`, most recently changed first,
    /// and the total.
    async fn tracking_list(
        &self,
        owner: UserId,
        filter: TrackingFilter,
        limit: u32,
        offset: u64,
    ) -> Result<CardList>;

    /// The slugs of the owner's viewed, saved or dismissed jobs, sorted.
    async fn tracking_slugs(&self, owner: UserId, set: SlugSet) -> Result<Vec<String>>;

    /// How many of the owner's applications are at each stage.
    async fn stage_counts(&self, owner: UserId) -> Result<StageCounts>;

    /// The full view of a tracked job: by the job's slug, else (after a prune) by the slug the
    /// application kept. `None` when the owner tracks nothing there.
    async fn tracking_detail(&self, owner: UserId, slug: &str) -> Result<Option<TrackedDetail>>;

    /// Every application of the owner with its events, by application id, events oldest first.
    async fn export_applications(&self, owner: UserId) -> Result<Vec<ExportRow>>;

    /// Imports one row in one transaction: finds the application (by the job of `job_slug`
    /// when it exists, else by company slug and role title) or creates it, then records the
    /// event unless one with the same import key, or the same kind, signal and time, is there.
    async fn import_application_row(
        &self,
        owner: UserId,
        row: &ImportRow<'_>,
        now: DateTime<Utc>,
    ) -> Result<Imported>;
}

/// The assistant's sessions and transcripts (reference §2.3, §16.1–§16.2).
///
/// Every method that takes an owner puts it in the `WHERE` clause: another user's session is
/// `None`/`false`/not written, exactly like one that does not exist. The turn runner reaches
/// the transcript through [`Transcripts`](crate::Transcripts), which maps these onto the
/// assistant crate's `TranscriptStore`.
#[async_trait]
pub trait AssistantRepo: Send + Sync {
    /// Creates a session with a random id, `created_at = updated_at = now`. A preset outside
    /// [`SESSION_PRESETS`](crate::SESSION_PRESETS) is refused by the database (an error,
    /// nothing written); an empty label is none.
    async fn create_session(
        &self,
        new: NewSession<'_>,
        now: DateTime<Utc>,
    ) -> Result<AssistantSession>;

    /// One of the owner's sessions.
    async fn assistant_session(
        &self,
        id: SessionId,
        owner: UserId,
    ) -> Result<Option<AssistantSession>>;

    /// The rail: the owner's sessions of presets chat, profile, interview and debrief (never
    /// tailor or browse), by `updated_at` then id, newest first.
    async fn chat_sessions(&self, owner: UserId) -> Result<Vec<AssistantSession>>;

    /// Deletes one of the owner's sessions with its messages; `false` when the owner has no
    /// such session.
    async fn delete_session(&self, id: SessionId, owner: UserId) -> Result<bool>;

    /// Sets the label of one of the owner's sessions while it has none (an empty label
    /// writes nothing); anyone else's session is left alone.
    async fn set_session_label(&self, id: SessionId, owner: UserId, label: &str) -> Result<()>;

    /// Sets `updated_at = now` on one of the owner's sessions; `false` when it is not theirs.
    async fn touch_session(&self, id: SessionId, owner: UserId, now: DateTime<Utc>)
    -> Result<bool>;

    /// [`set_session_label`](Self::set_session_label) and
    /// [`touch_session`](Self::touch_session) in one write (after a prompt is stored);
    /// `false` when the session is not the owner's.
    async fn label_and_touch_session(
        &self,
        id: SessionId,
        owner: UserId,
        label: &str,
        now: DateTime<Utc>,
    ) -> Result<bool>;

    /// How many `user` messages the session holds (the turns it had, for metering).
    async fn count_user_turns(&self, id: SessionId) -> Result<i64>;

    /// Inserts the next message of one of the owner's sessions, its `seq` computed by the
    /// insert (`coalesce(max(seq), 0) + 1`), and returns it as stored. `None` (nothing
    /// written) when the session is not the owner's;
    /// [`StoreError::Conflict`](crate::StoreError::Conflict) on `seq` when a concurrent
    /// writer took that number first.
    async fn insert_message(
        &self,
        id: SessionId,
        owner: UserId,
        msg: &NewMessage,
        now: DateTime<Utc>,
    ) -> Result<Option<Message>>;

    /// The messages of one of the owner's sessions, ascending by `seq`: all of them, or the
    /// newest `newest`. `None` when the session is not the owner's.
    async fn session_messages(
        &self,
        id: SessionId,
        owner: UserId,
        newest: Option<u32>,
    ) -> Result<Option<Vec<Message>>>;
}

/// Turn leases (issue 15, item 3): one running turn per session and at most one waiting,
/// shared by every API process on the database, and a cancel any process can send.
///
/// A session's row holds the running lease (`holder` until its expiry, and the `process`
/// that holds it), the one queue place (`waiter` until its expiry) and the cancel generation.
/// A holder or waiter is a random id its process made for one claim; a process is a random
/// id made once per coordinator (the app's turn locks), so one statement renews or reads
/// every lease a process holds. Leases run out unless renewed, so a killed process's are
/// taken over once they expire. A new holder never overtakes a live waiter: the lease is
/// taken only when the queue place is empty, expired or the taker's own (and taking it leaves
/// the queue). A cancel moves the generation; the holder and the waiter compare it with the
/// one they started with and stop when it moved. Times are the callers' (`now`, `until`),
/// who should read them off [`TurnLeaseRepo::lease_clock`].
#[async_trait]
pub trait TurnLeaseRepo: Send + Sync {
    /// The time leases are measured in: the database server's clock on PostgreSQL (so API
    /// processes on several machines need not agree on the time), this machine's on SQLite.
    async fn lease_clock(&self) -> Result<DateTime<Utc>>;

    /// Takes the running lease for `holder` of `process` until `until` when it is free,
    /// expired at `now` or already `holder`'s, and no other live waiter holds the queue
    /// place. The cancel generation at that moment; `None` when the session is busy.
    async fn acquire_turn_lease(
        &self,
        session: SessionId,
        holder: uuid::Uuid,
        process: uuid::Uuid,
        until: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Option<i64>>;

    /// Extends every lease `process` holds to `until`, in one statement; what it still holds
    /// (a lease missing from the answer expired and was taken over, or was released).
    async fn renew_turn_leases(
        &self,
        process: uuid::Uuid,
        until: DateTime<Utc>,
    ) -> Result<Vec<HeldLease>>;

    /// Every lease `process` holds, with its cancel generation, in one statement.
    async fn held_turn_leases(&self, process: uuid::Uuid) -> Result<Vec<HeldLease>>;

    /// Gives `holder`'s lease back; `false` when it did not hold it.
    async fn release_turn_lease(&self, session: SessionId, holder: uuid::Uuid) -> Result<bool>;

    /// Takes or extends the queue place for `waiter` until `until` when it is empty, expired
    /// at `now` or already `waiter`'s. The cancel generation; `None` when another waiter has
    /// it (or the session has no lease row: nothing ever ran).
    async fn queue_for_turn(
        &self,
        session: SessionId,
        waiter: uuid::Uuid,
        until: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Option<i64>>;

    /// Gives `waiter`'s queue place back; `false` when it did not have it.
    async fn leave_turn_queue(&self, session: SessionId, waiter: uuid::Uuid) -> Result<bool>;

    /// Moves the session's cancel generation (stopping its running turn and its waiter
    /// wherever they run); whether a live holder was there at `now`.
    async fn cancel_turn(&self, session: SessionId, now: DateTime<Utc>) -> Result<bool>;

    /// The session's cancel generation; `None` when it has no lease row.
    async fn turn_cancel_generation(&self, session: SessionId) -> Result<Option<i64>>;
}

/// One running lease of a process ([`TurnLeaseRepo::held_turn_leases`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeldLease {
    /// The session.
    pub session: SessionId,
    /// The claim holding it.
    pub holder: uuid::Uuid,
    /// The session's cancel generation.
    pub generation: i64,
}

/// The experience bank (reference assistant.md §12.3, migration 0013): the candidate's
/// employments and atoms. Every method takes the owner; another user's row is not found
/// (`None`, `false`, [`AtomWrite::NoSuchEmployment`], [`MergeOutcome::NotFound`]) and
/// nothing of it changes. See [`experience`](crate::experience).
#[async_trait]
pub trait ExperienceRepo: Send + Sync {
    /// The owner's employments in [`sort_employments`] order (applied in SQL and again in
    /// Rust): current first, then the newest start.
    ///
    /// [`sort_employments`]: freehire_domain::experience::sort_employments
    async fn list_employments(&self, owner: UserId) -> Result<Vec<Employment>>;

    /// One of the owner's employments.
    async fn get_employment(&self, owner: UserId, id: EmploymentId) -> Result<Option<Employment>>;

    /// The owner's oldest employment of this company and role, compared case-insensitively.
    async fn find_employment(
        &self,
        owner: UserId,
        company: &str,
        role: &str,
    ) -> Result<Option<Employment>>;

    /// Creates an employment; a draft that does not validate is
    /// [`StoreError::Invalid`](crate::StoreError::Invalid) and writes nothing.
    async fn create_employment(
        &self,
        owner: UserId,
        draft: &EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Employment>;

    /// Replaces every field of one of the owner's employments (validated as on create).
    async fn update_employment(
        &self,
        owner: UserId,
        id: EmploymentId,
        draft: &EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Option<Employment>>;

    /// The import's merge ([`fill_blanks`](crate::fill_blanks)): empty fields take the
    /// draft's, a missing period is taken whole, the stack becomes the sorted union;
    /// `current` is never touched. One transaction holding the row.
    async fn fill_employment_blanks(
        &self,
        owner: UserId,
        id: EmploymentId,
        draft: &EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Option<Employment>>;

    /// Deletes one of the owner's employments and its atoms; `false` when there is none.
    async fn delete_employment(&self, owner: UserId, id: EmploymentId) -> Result<bool>;

    /// The owner's atoms by employment (none last), then oldest first.
    async fn list_atoms(&self, owner: UserId) -> Result<Vec<Atom>>;

    /// Those of `ids` that are the owner's atoms (the evidence gate), in [`list_atoms`]
    /// order; others are left out.
    ///
    /// [`list_atoms`]: ExperienceRepo::list_atoms
    async fn get_atoms(&self, owner: UserId, ids: &[AtomId]) -> Result<Vec<Atom>>;

    /// Banks a claim with the provenance `author` gives (see [`AtomWrite`]); a draft that does
    /// not validate is [`StoreError::Invalid`](crate::StoreError::Invalid).
    async fn add_atom(
        &self,
        owner: UserId,
        draft: &AtomDraft,
        author: Author,
        now: DateTime<Utc>,
    ) -> Result<AtomWrite>;

    /// Replaces one of the owner's atoms and recomputes its claim key. A rewrite keeps the
    /// stored provenance (the statement leaves the column out); other authors write theirs.
    /// `None` when the atom, or the employment it moves to, is not the owner's; a claim key
    /// another of the owner's atoms has is [`StoreError::Conflict`](crate::StoreError::Conflict)
    /// naming `claim`.
    async fn update_atom(
        &self,
        owner: UserId,
        id: AtomId,
        draft: &AtomDraft,
        author: Author,
        now: DateTime<Utc>,
    ) -> Result<Option<Atom>>;

    /// Deletes one of the owner's atoms; `false` when there is none.
    async fn delete_atom(&self, owner: UserId, id: AtomId) -> Result<bool>;

    /// Applies a [`MergePlan`]: the keeper takes the plan's context, metrics, skills and
    /// provenance and the loser is deleted, only while both rows' `updated_at` still equal
    /// the plan's (else [`MergeOutcome::Conflict`], nothing changed).
    async fn merge_atoms(
        &self,
        owner: UserId,
        plan: &MergePlan,
        now: DateTime<Utc>,
    ) -> Result<MergeOutcome>;

    /// Whether the owner's interactive creates need a context (`false` for no such user).
    async fn experience_require_context(&self, owner: UserId) -> Result<bool>;

    /// Sets the flag; `false` when there is no such user.
    async fn set_experience_require_context(&self, owner: UserId, on: bool) -> Result<bool>;
}

// ---- CV documents (issue 16) ----

/// CV documents and their revision feeds (reference assistant.md §11.1–§11.2, §16.7; types in
/// [`cvs`](crate::cvs)).
///
/// Every method takes the owner and puts it in the `WHERE` clause: another user's CV is
/// `None`, exactly like one that does not exist. Content changes only through `freehire-cv`'s
/// plans: a commit is authorised (policy, evidence gate) before its transaction, then planned,
/// saved and filed in one transaction holding the CV's row (`FOR UPDATE` on PostgreSQL; SQLite's
/// `BEGIN IMMEDIATE` holds the database), so concurrent commits take turns and none is lost.
#[async_trait]
pub trait CvRepo: Send + Sync {
    /// The owner's base CV, created from `state` at `now` unless there is one (then that one,
    /// unchanged). `state` is what `freehire-cv` planned (an import) or an empty state.
    async fn create_base_cv(
        &self,
        owner: UserId,
        state: &CvState,
        now: DateTime<Utc>,
    ) -> Result<Cv>;

    /// The owner's base CV.
    async fn base_cv(&self, owner: UserId) -> Result<Option<Cv>>;

    /// One of the owner's CVs.
    async fn get_cv(&self, owner: UserId, id: CvId) -> Result<Option<Cv>>;

    /// The owner's CVs: the base CV first, then the tailored copies, most recently changed
    /// first.
    async fn list_cvs(&self, owner: UserId) -> Result<Vec<Cv>>;

    /// The copy of the owner's base CV tailored to `job`, created at `now` the first time
    /// (`true`) and returned as it is after that (`false`), also when two requests race. `None`
    /// when the owner has no base CV.
    async fn tailor_cv(
        &self,
        owner: UserId,
        job: JobId,
        now: DateTime<Utc>,
    ) -> Result<Option<(Cv, bool)>>;

    /// Commits `edit` to one of the owner's CVs through `cvedit` (policy and evidence gate
    /// with `evidence` first, then under the CV's row lock: apply all-or-nothing, sanitise,
    /// save, coalesce into or file the revision, trim the feed to
    /// [`FEED_LIMIT`](crate::cvs::FEED_LIMIT), bump `updated_at`). A refusal writes nothing; a
    /// change that changes nothing files nothing. `None` when the owner has no such CV.
    async fn commit_cv(
        &self,
        owner: UserId,
        id: CvId,
        edit: &CvEdit<'_>,
        evidence: CvEvidence<'_>,
        config: &EditConfig,
        now: DateTime<Utc>,
    ) -> Result<Option<CommitOutcome>>;

    /// The newest `limit` revisions of one of the owner's CVs (1..=100), newest first.
    async fn cv_revisions(
        &self,
        owner: UserId,
        id: CvId,
        limit: u32,
    ) -> Result<Option<Vec<CvRevision>>>;

    /// Undoes one revision by `actor`: its inverse applied as a new revision naming it, and
    /// it marked reverted. An undone revision, or one whose inverse no longer applies, is
    /// refused as [`EditError::CannotUndo`](freehire_cv::EditError::CannotUndo). `None` when
    /// the owner has no such CV or it has no such revision.
    async fn undo_cv(
        &self,
        owner: UserId,
        id: CvId,
        revision: RevisionId,
        actor: Actor,
        config: &EditConfig,
        now: DateTime<Utc>,
    ) -> Result<Option<CommitOutcome>>;

    /// Undoes every live revision of `batch` (an assistant turn, an autopilot run), newest
    /// first, in one transaction: all of them or, when one no longer applies, none. A batch
    /// with nothing left to undo changes nothing.
    async fn revert_batch(
        &self,
        owner: UserId,
        id: CvId,
        batch: &str,
        actor: Actor,
        config: &EditConfig,
        now: DateTime<Utc>,
    ) -> Result<Option<CommitOutcome>>;

    /// Names `session` (an assistant session's id) as the one tailoring the owner's tailored
    /// copy `id`. `false` when the owner has no such tailored copy.
    async fn set_cv_session(&self, owner: UserId, id: CvId, session: &str) -> Result<bool>;

    /// Replaces the tailor report of the owner's tailored copy `id`. `false` when the owner
    /// has no such tailored copy.
    async fn set_tailor_report(
        &self,
        owner: UserId,
        id: CvId,
        report: &freehire_cv::TailorReport,
    ) -> Result<bool>;

    /// Merges one entry into the tailor report of the owner's tailored copy `id`
    /// ([`TailorReport::merge`](freehire_cv::TailorReport::merge): the entry for the same
    /// requirement is replaced, else it is appended), holding the CV's row so concurrent merges
    /// lose nothing. `false` when the owner has no such tailored copy.
    async fn merge_tailor_entry(
        &self,
        owner: UserId,
        id: CvId,
        item: &freehire_cv::ReportItem,
    ) -> Result<bool>;

    /// One of the owner's CVs' state as the model may read it: the header's name, email, phone and
    /// links removed ([`without_contacts`](crate::cvs::without_contacts)).
    async fn cv_for_model(&self, owner: UserId, id: CvId) -> Result<Option<CvState>>;
}

/// The candidate's screening answers (reference assistant.md §10.5): one JSON object per
/// account in `users.screening_answers` (migration 0016), changed only by a merge patch applied
/// in one statement, so concurrent partial updates keep each other's fields.
#[async_trait]
pub trait ScreeningRepo: Send + Sync {
    /// The owner's answers (all `None` until they state one); `None` for an owner that does
    /// not exist.
    async fn screening_answers(&self, owner: UserId) -> Result<Option<ScreeningAnswers>>;

    /// Applies `patch` (absent fields untouched, cleared ones forgotten) and returns the
    /// answers after it; `None` for an owner that does not exist.
    async fn patch_screening_answers(
        &self,
        owner: UserId,
        patch: &ScreeningPatch,
    ) -> Result<Option<ScreeningAnswers>>;
}

/// Cover letters (reference assistant.md §10.6): at most one per owner and vacancy in
/// `cover_letters` (migration 0017). Every method is owner-scoped: another user's letter
/// reads exactly like a missing one.
#[async_trait]
pub trait CoverLetterRepo: Send + Sync {
    /// Stores `letter` as the owner's letter for `job`, replacing the one they had (its id and
    /// `created_at` kept).
    async fn save_cover_letter(
        &self,
        owner: UserId,
        job: JobId,
        band: Band,
        letter: &Letter,
        now: DateTime<Utc>,
    ) -> Result<StoredLetter>;

    /// One of the owner's letters.
    async fn cover_letter(&self, owner: UserId, id: i64) -> Result<Option<StoredLetter>>;

    /// The owner's letter for `job`.
    async fn cover_letter_for_job(&self, owner: UserId, job: JobId)
    -> Result<Option<StoredLetter>>;

    /// The owner's letters, newest first.
    async fn list_cover_letters(&self, owner: UserId) -> Result<Vec<StoredLetter>>;

    /// Deletes one of the owner's letters; whether there was one.
    async fn delete_cover_letter(&self, owner: UserId, id: i64) -> Result<bool>;
}

/// Rate-limit cells shared by every process on the database (reference search-ingest §6.3,
/// migration 0018): one GCRA cell per bucket and subject in `rate_cells`, so several API
/// processes count one caller together. See [`rates`](crate::rates).
#[async_trait]
pub trait RateCellRepo: Send + Sync {
    /// Counts one request against `subject`'s cell of `bucket`, or refuses it, in one
    /// atomic statement: concurrent takes from any process never count more than `quota`
    /// allows. Time is the database server's clock on PostgreSQL, this machine's on SQLite.
    async fn take_rate_cell(
        &self,
        bucket: &str,
        subject: &[u8],
        quota: RateQuota,
    ) -> Result<RateTake>;

    /// Deletes the cells whose bucket is full again (they read exactly like a new subject);
    /// how many.
    async fn sweep_rate_cells(&self) -> Result<u64>;
}

/// The lifecycle beyond a crawl (reference search-ingest §3.9, migration 0022): liveness reads
/// of postings no live board watches, and the prune of long-closed jobs.
#[async_trait]
pub trait LifecycleRepo: Send + Sync {
    /// Up to `limit` open postings with a page whose source has no live board, not read since
    /// `checked_before`: never read first, then the longest unread.
    async fn liveness_candidates(
        &self,
        checked_before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<crate::LivenessCandidate>>;

    /// Records one read of job `id`'s page (`reason` says what the probe saw); returns its
    /// consecutive expired reads. An expired read counts a strike only when the last strike
    /// was counted before `strike_after`: two workers reading one posting within that window
    /// make one strike, not two.
    async fn record_liveness(
        &self,
        id: JobId,
        read: crate::LivenessRead,
        reason: Option<&str>,
        at: DateTime<Utc>,
        strike_after: DateTime<Utc>,
    ) -> Result<u32>;

    /// Up to `limit` jobs closed before `closed_before` (none still waiting to leave the
    /// search index), oldest first. With `apply` they are archived in `pruned_jobs` under
    /// `rule` and deleted in one transaction; without, nothing changes (a dry run).
    async fn prune_closed(
        &self,
        closed_before: DateTime<Utc>,
        rule: &str,
        limit: u32,
        apply: bool,
        at: DateTime<Utc>,
    ) -> Result<Vec<crate::PrunedJob>>;

    /// For each job among `ids` with a role fingerprint, its role cluster's history (the
    /// reality signals' counts, reference §5.10): postings of `(company_slug,
    /// role_fingerprint)` ever seen and open now, itself included. Jobs without a fingerprint
    /// and unknown ids are absent.
    async fn role_history(&self, ids: &[JobId]) -> Result<Vec<crate::RoleHistory>>;
}

/// Ghost reports and the ghost signal's inputs (reference search-ingest §5.10; migration 0024).
#[async_trait]
pub trait GhostRepo: Send + Sync {
    /// Records `owner`'s report that job `job` is a ghost (they applied on `applied_on`); a
    /// retracted report revives.
    async fn report_ghost(
        &self,
        owner: UserId,
        job: JobId,
        applied_on: chrono::NaiveDate,
        at: DateTime<Utc>,
    ) -> Result<()>;

    /// Retracts `owner`'s live report on `job`; whether there was one.
    async fn retract_ghost(&self, owner: UserId, job: JobId, at: DateTime<Utc>) -> Result<bool>;

    /// The day of `owner`'s live report on `job`, if any.
    async fn my_ghost_report(&self, owner: UserId, job: JobId)
    -> Result<Option<chrono::NaiveDate>>;

    /// Job `job`'s applications with an applied date and its live reporters.
    async fn ghost_inputs(&self, job: JobId) -> Result<crate::GhostInputs>;
}

/// The operators' figures (reference search-ingest §6.4, §11.1; migration 0020): the ingest
/// fleet, the catalogue's scale and the daily rollups.
#[async_trait]
pub trait StatsRepo: Send + Sync {
    /// Each provider's live boards (healthy, failing, cooling at `now`, never crawled, the
    /// last success) and open jobs, and when a job was last added.
    async fn fleet_status(&self, now: DateTime<Utc>) -> Result<crate::FleetStatus>;

    /// The catalogue's counts, exact.
    async fn catalog_counts(&self) -> Result<crate::CatalogCounts>;

    /// The search outboxes' backlogs: upserts, then deletes.
    async fn outbox_backlog(&self) -> Result<(crate::OutboxDepth, crate::OutboxDepth)>;

    /// Writes `day`'s rollups (its jobs added and closed, the open catalogue, the fleet's
    /// verdict), replacing an earlier run's.
    async fn record_daily(
        &self,
        day: chrono::NaiveDate,
        fleet: &crate::DayVerdict,
        now: DateTime<Utc>,
    ) -> Result<()>;

    /// The rollups from `since` on, newest first.
    async fn daily_stats(&self, since: chrono::NaiveDate) -> Result<Vec<crate::DailyStats>>;
}

/// Everything the application needs from storage.
#[async_trait]
pub trait Store:
    JobRepo
    + CompanyRepo
    + BoardRepo
    + BoardHealthRepo
    + IngestRepo
    + OutboxRepo
    + ScheduleRepo
    + AccountRepo
    + NotifyRepo
    + SavedSearchRepo
    + TrackingRepo
    + AssistantRepo
    + TurnLeaseRepo
    + PlanRepo
    + LlmKeyRepo
    + ExperienceRepo
    // CV documents (issue 16).
    + CvRepo
    + ScreeningRepo
    + CoverLetterRepo
    + RateCellRepo
    + StatsRepo
    + LifecycleRepo
    + GhostRepo
{
    /// Which backend this is.
    fn backend(&self) -> Backend;

    /// An owned handle on the same pools, for work moved onto a task of its own (an ingest
    /// run crawls each board on one, so a run's boards use every core).
    fn handle(&self) -> std::sync::Arc<dyn Store>;

    /// Applies pending migrations.
    async fn migrate(&self) -> Result<()>;

    /// Checks the connection (for health endpoints).
    async fn ping(&self) -> Result<()>;

    /// Closes the pool, waiting for in-flight queries.
    async fn close(&self);
}
