//! Inputs and outputs of the repository operations.

use freehire_domain::{Job, JobId, Provider};

/// A job's identity at its source: the unique key `(source, external_id)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JobKey {
    /// The source.
    pub source: Provider,
    /// The id at the source (namespaced `<board>:<id>` for board-keyed providers).
    pub external_id: String,
}

/// What an upsert did to one posting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpsertOutcome {
    /// A new row.
    Inserted,
    /// An existing row whose content hash differed; its content was rewritten.
    Changed,
    /// An existing row with the same content hash; only `last_seen_at` moved (and it reopened).
    Unchanged,
}

/// The result for one posting of a batch upsert, in input order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Upserted {
    /// The row.
    pub id: JobId,
    /// What happened to it.
    pub outcome: UpsertOutcome,
    /// Whether the row was closed before this sighting (and is now open again).
    pub reopened: bool,
}

/// One item of a refresh-unchanged batch: the key plus the content hash the caller computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenPosting {
    /// The job.
    pub key: JobKey,
    /// The content hash of the posting as just fetched.
    pub content_hash: String,
}

/// What a refresh did to one item, in input order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refreshed {
    /// Stored with the same hash and open: `last_seen_at` bumped.
    Touched(JobId),
    /// Stored with the same hash but closed: bumped and reopened.
    Reopened(JobId),
    /// Not stored, or stored with another hash: the caller must upsert it.
    Missed,
}

/// A page request for lists. Limits are clamped by [`ListPage::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListPage {
    limit: u32,
    offset: u64,
}

impl ListPage {
    /// The default page size.
    pub const DEFAULT_LIMIT: u32 = 20;
    /// The largest page size.
    pub const MAX_LIMIT: u32 = 100;
    /// The largest offset (the int32 range, as the reference clamps it).
    pub const MAX_OFFSET: u64 = i32::MAX as u64;

    /// A page of `limit` rows (clamped to 1..=100) starting at `offset` (clamped to the
    /// int32 range).
    pub fn new(limit: u32, offset: u64) -> Self {
        Self { limit: limit.clamp(1, Self::MAX_LIMIT), offset: offset.min(Self::MAX_OFFSET) }
    }

    /// Rows per page.
    pub fn limit(self) -> u32 {
        self.limit
    }

    /// Rows skipped.
    pub fn offset(self) -> u64 {
        self.offset
    }

    /// The offset as SQL binds it (both backends take a signed 64-bit `OFFSET`).
    pub(crate) fn offset_i64(self) -> i64 {
        i64::try_from(self.offset()).unwrap_or(i64::MAX)
    }
}

impl Default for ListPage {
    fn default() -> Self {
        Self::new(Self::DEFAULT_LIMIT, 0)
    }
}

/// One page of jobs with the total of the whole list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobList {
    /// The rows of this page.
    pub jobs: Vec<Job>,
    /// Rows in the whole list.
    pub total: u64,
}

/// The most entries one sitemap page holds ([`SitemapPage`]; the protocol allows 50,000).
pub const SITEMAP_PAGE_SIZE: u32 = 10_000;

/// One page of a sitemap: the entries and how many the whole sitemap holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SitemapPage {
    /// The page's entries, in the sitemap's order.
    pub entries: Vec<SitemapEntry>,
    /// Entries in the whole sitemap.
    pub total: u64,
}

/// One sitemap entry: a public slug (a job's or a company's) and when it last changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapEntry {
    /// The job's public slug or the company's slug.
    pub slug: String,
    /// Its last change (a company: its jobs' latest).
    pub last_modified: chrono::DateTime<chrono::Utc>,
}

/// The floors a term must reach to be suggested (reference search-ingest §5.12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SuggestFloors {
    /// Jobs a title must carry (`SUGGEST_TITLE_FLOOR`, 25).
    pub title: u32,
    /// Jobs a company must have (`SUGGEST_COMPANY_FLOOR`, 5).
    pub company: u32,
}

impl SuggestFloors {
    /// The most terms of one kind read.
    pub const CAP: u32 = 20_000;
}

impl Default for SuggestFloors {
    /// The reference's floors: 25 jobs for a title, 5 for a company.
    fn default() -> Self {
        Self { title: 25, company: 5 }
    }
}

/// What suggestions complete over: the open, non-duplicate jobs' titles and companies above
/// their floors, and every skill and category, each with its jobs, most first (at most
/// [`SuggestFloors::CAP`] of each).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SuggestionTerms {
    /// Titles, exactly as posted.
    pub titles: Vec<TermCount>,
    /// Companies.
    pub companies: Vec<CompanyTerm>,
    /// Skill slugs.
    pub skills: Vec<TermCount>,
    /// Category values.
    pub categories: Vec<TermCount>,
}

/// A term and the open jobs carrying it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermCount {
    /// The term.
    pub text: String,
    /// Open, non-duplicate jobs carrying it.
    pub jobs: u64,
}

/// A company and its open jobs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompanyTerm {
    /// Its slug.
    pub slug: String,
    /// A name its jobs carry.
    pub name: String,
    /// Open, non-duplicate jobs.
    pub jobs: u64,
}

/// Filter for listing boards.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardFilter {
    /// Only this provider.
    pub provider: Option<Provider>,
    /// Only these statuses (empty = all).
    pub statuses: Vec<freehire_domain::BoardStatus>,
}

/// Result of adding a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddedBoard {
    /// The board as stored (the existing one when it was a duplicate).
    pub board: freehire_domain::Board,
    /// False when an existing pending/active board with the same identity was found.
    pub created: bool,
}

/// Which backend a store talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Embedded SQLite.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// A job already stored for a board (open or closed), as the ingest pipeline reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenJob {
    /// The namespaced external id (`<board>:<native id>`).
    pub external_id: String,
    /// The stored tri-state tech flag.
    pub is_tech: Option<bool>,
    /// The stored source hash (see `JobPosting::source_hash`).
    pub source_hash: String,
    /// Stored without a description and younger than the hydration window: its detail should
    /// be fetched again rather than taken as seen.
    pub needs_detail: bool,
}

/// Which open jobs of a source an unseen close may touch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnseenScope {
    /// The source.
    pub source: Provider,
    /// External-id prefixes (`<board>:`) of the boards in scope. Empty = nothing.
    pub board_prefixes: Vec<String>,
    /// Close only jobs last seen strictly before this instant.
    pub last_seen_before: chrono::DateTime<chrono::Utc>,
}

/// The two search outboxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutboxKind {
    /// `search_outbox`: (re)index these jobs.
    Index,
    /// `search_delete_outbox`: remove these jobs from the index.
    Delete,
}

impl OutboxKind {
    /// The other outbox.
    pub const fn other(self) -> Self {
        match self {
            Self::Index => Self::Delete,
            Self::Delete => Self::Index,
        }
    }
}

/// How a drain claims outbox rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimOptions {
    /// Rows per claim (the reference drains in waves of 500).
    pub limit: u32,
    /// A claim whose last renewal is older than this is abandoned and may be claimed again
    /// (default 60 s: a drain renews its wave every third of it, so a killed worker's rows
    /// are searchable again about a minute later).
    pub lease: chrono::Duration,
    /// Rows that failed this many times are left for an operator.
    pub max_attempts: u32,
}

impl Default for ClaimOptions {
    fn default() -> Self {
        Self { limit: 500, lease: chrono::Duration::seconds(60), max_attempts: 10 }
    }
}

/// One claimed outbox row. Acknowledging it deletes it only if nobody re-enqueued the job
/// since the claim (the claim instant is the row's version).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxItem {
    /// The outbox row.
    pub id: i64,
    /// The job to index or remove.
    pub job_id: JobId,
    /// Claims so far, this one included.
    pub attempts: u32,
    /// The claim instant.
    pub claimed_at: chrono::DateTime<chrono::Utc>,
}

/// How often a live provider run renews its claim (and a drain holder its writer lease).
pub const CLAIM_HEARTBEAT: chrono::Duration = chrono::Duration::seconds(30);

/// Who holds a provider claim, as the refusal of a second claim reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimHolder {
    /// The holder's worker id.
    pub worker: String,
    /// When it claimed the provider.
    pub since: chrono::DateTime<chrono::Utc>,
    /// Its last heartbeat (the claim instant before the first one).
    pub heartbeat: chrono::DateTime<chrono::Utc>,
}

/// The scheduler's defaults for providers without an `ingest_schedule` row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScheduleDefaults {
    /// Time between runs (default 1 h).
    pub cadence: chrono::Duration,
    /// A claim whose last heartbeat is older than this is dead and may be taken over
    /// (default 90 s: three missed heartbeats of [`CLAIM_HEARTBEAT`]). Every worker sharing a
    /// database must use the same value.
    pub timeout: chrono::Duration,
    /// The providers that run at [`ScheduleDefaults::slow_cadence`] instead (the reference's
    /// twelve slow providers, set by the application; none by default).
    pub slow: &'static [&'static str],
    /// Time between runs of a slow provider (default 3 h).
    pub slow_cadence: chrono::Duration,
    /// Runs held at once across every worker sharing the database (the fleet cap, default
    /// 10): a worker claims nothing new while this many live claims stand.
    pub fleet_cap: usize,
}

impl Default for ScheduleDefaults {
    fn default() -> Self {
        Self {
            cadence: chrono::Duration::hours(1),
            timeout: CLAIM_HEARTBEAT * 3,
            slow: &[],
            slow_cadence: chrono::Duration::hours(3),
            fleet_cap: 10,
        }
    }
}

/// A per-provider override of the schedule (`ingest_schedule`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleOverride {
    /// Time between runs; `None` = the default.
    pub cadence: Option<chrono::Duration>,
    /// Run timeout; `None` = the default.
    pub timeout: Option<chrono::Duration>,
    /// Why the provider is disabled; `None` = enabled.
    pub disabled_reason: Option<String>,
}

/// How a provider run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunStatus {
    /// Finished.
    Ok,
    /// Stopped early by a shutdown; the next claim runs it again.
    Interrupted,
    /// Failed as a whole.
    Failed(String),
}

/// New derived values of a stored job (a re-derivation after a dictionary change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DerivedUpdate {
    /// The job.
    pub id: JobId,
    /// Its facets as the current dictionaries derive them.
    pub facets: freehire_domain::Facets,
    /// Its role fingerprint as the current rules compute it.
    pub role_fingerprint: String,
    /// The content hash of the posting with these facets.
    pub content_hash: String,
}

/// Everything one crawled board writes, in one transaction: its postings (upserted, with
/// their search rows), the stored jobs it only saw, its health, its activation, and the close
/// of what its complete listing no longer names.
#[derive(Debug, Clone, Copy)]
pub struct BoardWrite<'a> {
    /// The board.
    pub board: &'a freehire_domain::BoardKey,
    /// Postings to upsert.
    pub postings: &'a [freehire_domain::JobPosting],
    /// The source hash to store for each posting, in `postings` order, when the caller hashed
    /// the posting as the source stated it (before sanitising its description); empty to store
    /// each posting's own [`freehire_domain::JobPosting::source_hash`].
    pub source_hashes: &'a [String],
    /// Each posting's [`freehire_domain::JobPosting::content_hash`], in `postings` order, when
    /// the caller computed it already (off the async threads: hashing a description is the
    /// write's largest CPU cost); empty to compute it here.
    pub content_hashes: &'a [String],
    /// Stored jobs to mark seen (unchanged, listed without detail, unreadable).
    pub touch: &'a [JobKey],
    /// Postings the listing named (for board health).
    pub named: u64,
    /// Flip a pending board to active.
    pub activate: bool,
    /// Close the board's open jobs last seen before this instant (`board_unseen`).
    pub close_unseen_before: Option<chrono::DateTime<chrono::Utc>>,
    /// When all of it happened.
    pub at: chrono::DateTime<chrono::Utc>,
}

/// What a [`BoardWrite`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardWritten {
    /// Per posting, in input order.
    pub upserted: Vec<Upserted>,
    /// Per touched key, in input order.
    pub touched: Vec<Refreshed>,
    /// Jobs closed as no longer listed.
    pub closed: Vec<JobId>,
    /// The board's health after the success.
    pub health: freehire_domain::BoardHealth,
}

/// Which companies a company list shows (reference §5.4): OR within a facet, AND across
/// facets; an empty facet is no filter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompanyFilter {
    /// Name or slug search: companies whose slug contains the slugified text
    /// (`"Acme Labs"` matches `acme-labs` and `big-acme-labs-group`). Blank = every company.
    pub q: Option<String>,
    /// Companies with open jobs in any of these regions.
    pub regions: Vec<freehire_domain::Region>,
    /// Companies with open jobs in any of these countries.
    pub countries: Vec<freehire_domain::CountryCode>,
    /// Companies with open jobs in any of these work modes.
    pub work_modes: Vec<freehire_domain::WorkMode>,
    /// Companies whose jobs come from any of these providers.
    pub sources: Vec<Provider>,
    /// Companies with any of these skills among their [`Company::TOP_SKILLS`] top skills
    /// (canonical skill names).
    pub skills: Vec<String>,
}

impl CompanyFilter {
    /// The slug fragment to look for, if any (`q` slugified; blank after folding = none).
    pub fn needle(&self) -> Option<String> {
        let folded = freehire_domain::slugify(self.q.as_deref()?);
        (!folded.is_empty()).then_some(folded)
    }
}

/// What one refresh of stale companies did (the companies table, migration 0025).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompanyRefresh {
    /// Companies recomputed and written, as they now stand.
    pub refreshed: Vec<Company>,
    /// Companies left without an open job, deleted from the table.
    pub removed: Vec<freehire_domain::CompanySlug>,
}

impl CompanyRefresh {
    /// Whether the refresh found nothing stale.
    pub fn is_empty(&self) -> bool {
        self.refreshed.is_empty() && self.removed.is_empty()
    }
}

/// A batch of the companies index outbox (see
/// [`CompanyRepo::company_index_pending`](crate::CompanyRepo::company_index_pending)).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompanyIndexBatch {
    /// The marks read (to acknowledge once written).
    pub marks: Vec<i64>,
    /// The marked companies the table holds, to write.
    pub companies: Vec<Company>,
    /// The marked companies the table no longer holds, to remove.
    pub removed: Vec<freehire_domain::CompanySlug>,
}

impl CompanyIndexBatch {
    /// Whether the outbox was empty.
    pub fn is_empty(&self) -> bool {
        self.marks.is_empty()
    }
}

/// One merged company slug: jobs whose company slugifies to `alias` are stored under
/// `canonical`, and the alias's page answers 301.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompanyAlias {
    /// The slug merged away.
    pub alias: freehire_domain::CompanySlug,
    /// The slug it lives under now.
    pub canonical: freehire_domain::CompanySlug,
    /// The folded company key both share (`company_key`), empty when they share none.
    pub folded_key: String,
    /// Why they were merged.
    pub reason: freehire_domain::AliasReason,
    /// When.
    pub created_at: chrono::DateTime<chrono::Utc>,
}

/// What a merge moved.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CompanyMerge {
    /// Jobs (open or closed) moved from the alias to the canonical slug.
    pub jobs_moved: u64,
    /// Earlier aliases of the merged slug re-pointed at the canonical one.
    pub aliases_repointed: u64,
}

/// A company as the catalogue shows it: derived from its open, non-duplicate jobs and kept in
/// the companies table (migration 0025); a company without an open job does not exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Company {
    /// Its key (the slug of the name its jobs carry).
    pub slug: freehire_domain::CompanySlug,
    /// Display name: the name most of its open jobs carry (ties: the newest job's).
    pub name: String,
    /// Open, non-duplicate jobs.
    pub job_count: u64,
    /// The newest effective posted date among them (see `Job::effective_posted_at`).
    pub latest_posted_at: chrono::DateTime<chrono::Utc>,
    /// Regions of its jobs, most jobs first (ties by value).
    pub regions: Vec<freehire_domain::Region>,
    /// Countries of its jobs, most jobs first.
    pub countries: Vec<freehire_domain::CountryCode>,
    /// Work modes of its jobs, most jobs first.
    pub work_modes: Vec<freehire_domain::WorkMode>,
    /// The most frequent skills of its jobs (at most [`Company::TOP_SKILLS`]), most jobs first.
    pub top_skills: Vec<String>,
    /// Where its jobs come from (ATS providers), most jobs first.
    pub sources: Vec<Provider>,
}

impl Company {
    /// How many skills [`Company::top_skills`] keeps.
    pub const TOP_SKILLS: usize = 10;
}

/// One page of companies with the number of companies in the whole list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompanyList {
    /// The companies of this page.
    pub companies: Vec<Company>,
    /// Companies in the whole (filtered) list.
    pub total: u64,
}
