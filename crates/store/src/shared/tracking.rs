//! [`TrackingRepo`](crate::TrackingRepo) bodies both backends run unchanged, over the statements
//! of [`sql::tracking`]. The adapters pass their pool (on SQLite, the writer pool for writes),
//! their transaction (`BEGIN IMMEDIATE` on SQLite) and the job row's lock (`FOR UPDATE` on
//! PostgreSQL).
//!
//! A mutation is one transaction: lock the job row, read the user's marks and application,
//! change them in Rust, write back what changed with its ledger rows, counter bumps and
//! reminder changes, read the result back and commit. Because the job row is held, concurrent
//! requests of one user on one job take turns, and each sees what the one before committed:
//! `applied_count` and `view_count` move at most once per user (the marks row remembers it).

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use freehire_domain::{
    ApplicationId, EventKind, EventSource, Job, JobId, PublicSlug, Stage, UserId,
};
use sqlx::{
    Database, Encode, Executor, FromRow, IntoArguments, Pool, Transaction, Type, types::Json,
};

use super::{RowsAffected, Shared};
use crate::{
    Result,
    bind::Stamp,
    rows::{
        JobRecord, count,
        tracking::{ApplicationRecord, CardRecord, EventRecord, ExportRecord, MarksRecord},
    },
    sql::tracking as sql,
    tracking::{
        Application, ApplyOptions, CardList, ExportRow, ImportRow, Imported, Marks, SlugSet,
        Snapshot, StageCounts, Track, TrackChange, TrackedDetail, TrackingFilter,
    },
};

/// How long after a save its reminder is due (reference §15.5), before rounding up to the
/// digest hour.
pub(crate) const REMINDER_DELAY_DAYS: i64 = 3;

/// The digest hour when the user set none (reference §15.5: 09:00).
pub(crate) const DEFAULT_DIGEST_HOUR: u32 = 9;

/// The first instant at or after `saved_at` + 3 days that is `hour`:00 in `tz` (a local hour
/// skipped by a clock change counts from the hour after it).
pub(crate) fn reminder_at(saved_at: DateTime<Utc>, hour: u32, tz: chrono_tz::Tz) -> DateTime<Utc> {
    let due = saved_at + Duration::days(REMINDER_DELAY_DAYS);
    let mut day = due.with_timezone(&tz).date_naive();
    for _ in 0..3 {
        if let Some(at) = local_hour(day, hour, tz).filter(|at| *at >= due) {
            return at;
        }
        day = day.succ_opt().unwrap_or(day);
    }
    due
}

fn local_hour(day: NaiveDate, hour: u32, tz: chrono_tz::Tz) -> Option<DateTime<Utc>> {
    let local = day.and_hms_opt(hour.min(23), 0, 0)?;
    tz.from_local_datetime(&local)
        .earliest()
        .or_else(|| tz.from_local_datetime(&(local + Duration::hours(1))).earliest())
        .map(|at| at.with_timezone(&Utc))
}

/// The posting's facts kept on an application when the user applies.
fn snapshot(job: &Job) -> Snapshot {
    let p = &job.posting;
    let f = &p.facets;
    let facts = serde_json::json!({
        "title": p.title,
        "company": p.company,
        "location": p.location,
        "remote": p.remote,
        "work_mode": f.work_mode.map(|v| v.as_str()),
        "countries": f.countries.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
        "seniority": f.seniority.map(|v| v.as_str()),
        "category": f.category.map(|v| v.as_str()),
        "employment_type": f.employment_type.map(|v| v.as_str()),
        "skills": f.skills,
        "salary": p.salary.as_ref().map(|s| serde_json::json!({
            "min": s.min, "max": s.max, "currency": s.currency, "period": s.period.as_str(),
        })),
        "posted_at": p.posted_at,
    });
    Snapshot {
        url: Some(p.url.clone()),
        location: Some(p.location.clone()),
        description: Some(p.description.clone()),
        facts: Some(facts),
    }
}

/// A job-addressed mutation.
#[derive(Debug, Clone, Copy)]
pub(crate) enum JobOp<'a> {
    View,
    Save(bool),
    Dismiss(bool),
    Apply(&'a ApplyOptions),
    Update(&'a TrackChange),
    ClearStage,
    Clear,
    FollowedUp,
}

/// An application-addressed mutation.
#[derive(Debug, Clone, Copy)]
pub(crate) enum AppOp<'a> {
    Update(&'a TrackChange),
    ClearStage,
}

/// The user's marks on a job as read in the transaction, and whether they changed.
struct MarksState {
    marks: Marks,
    counted: bool,
    dirty: bool,
}

impl<DB> Shared<DB>
where
    DB: Database,
    DB::QueryResult: RowsAffected,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> bool: Encode<'q, DB> + Type<DB>,
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    for<'q> Option<Stamp>: Encode<'q, DB>,
    for<'q> Option<Json<serde_json::Value>>: Encode<'q, DB>,
    Json<serde_json::Value>: Type<DB>,
    (i64,): for<'r> FromRow<'r, DB::Row>,
    (String,): for<'r> FromRow<'r, DB::Row>,
    (Option<String>,): for<'r> FromRow<'r, DB::Row>,
    (String, i64): for<'r> FromRow<'r, DB::Row>,
    (Option<i64>, Option<String>): for<'r> FromRow<'r, DB::Row>,
    JobRecord: for<'r> FromRow<'r, DB::Row>,
    MarksRecord: for<'r> FromRow<'r, DB::Row>,
    ApplicationRecord: for<'r> FromRow<'r, DB::Row>,
    CardRecord: for<'r> FromRow<'r, DB::Row>,
    EventRecord: for<'r> FromRow<'r, DB::Row>,
    ExportRecord: for<'r> FromRow<'r, DB::Row>,
{
    // ---- pieces of a mutation (all on the transaction's connection) ----

    async fn locked_job(
        conn: &mut DB::Connection,
        statement: &'static str,
        key: Result<&str, i64>,
    ) -> Result<Option<Job>> {
        let query = sqlx::query_as::<_, JobRecord>(statement);
        let query = match key {
            Ok(slug) => query.bind(slug),
            Err(id) => query.bind(id),
        };
        query.fetch_optional(&mut *conn).await?.map(JobRecord::into_job).transpose()
    }

    async fn marks_state(
        conn: &mut DB::Connection,
        owner: UserId,
        job: JobId,
    ) -> Result<MarksState> {
        let row: Option<MarksRecord> = sqlx::query_as(sql::MARKS_OF)
            .bind(owner.get())
            .bind(job.get())
            .fetch_optional(&mut *conn)
            .await?;
        let (marks, counted) = row.map(MarksRecord::into_marks).unwrap_or_default();
        Ok(MarksState { marks, counted, dirty: false })
    }

    async fn put_marks(
        conn: &mut DB::Connection,
        owner: UserId,
        job: JobId,
        state: &MarksState,
        now: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query(sql::PUT_MARKS)
            .bind(owner.get())
            .bind(job.get())
            .bind(Stamp::opt(state.marks.viewed_at))
            .bind(Stamp::opt(state.marks.saved_at))
            .bind(Stamp::opt(state.marks.dismissed_at))
            .bind(Stamp(now))
            .bind(state.counted)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    async fn application_where(
        conn: &mut DB::Connection,
        statement: &'static str,
        owner: UserId,
        key: i64,
    ) -> Result<Option<Application>> {
        let row: Option<ApplicationRecord> = sqlx::query_as(statement)
            .bind(owner.get())
            .bind(key)
            .fetch_optional(&mut *conn)
            .await?;
        row.map(ApplicationRecord::into_application).transpose()
    }

    /// Creates an empty application for `job` (no stage, no applied date).
    async fn new_application(
        conn: &mut DB::Connection,
        owner: UserId,
        job: &Job,
        now: DateTime<Utc>,
    ) -> Result<Application> {
        let p = &job.posting;
        let (id,): (i64,) = sqlx::query_as(sql::INSERT_APPLICATION)
            .bind(owner.get())
            .bind(Some(job.id.get()))
            .bind(job.company_slug.as_str())
            .bind(p.company.as_str())
            .bind(p.title.as_str())
            .bind(Some(job.public_slug.as_str()))
            .bind(None::<Stamp>)
            .bind(None::<&str>)
            .bind("")
            .bind(Stamp(now))
            .fetch_one(&mut *conn)
            .await?;
        Self::application_where(conn, sql::APPLICATION_BY_ID, owner, id).await?.ok_or_else(|| {
            crate::StoreError::corrupt("id", "the inserted application is not there")
        })
    }

    async fn put_application(
        conn: &mut DB::Connection,
        owner: UserId,
        app: &Application,
    ) -> Result<()> {
        sqlx::query(sql::PUT_APPLICATION)
            .bind(Stamp::opt(app.applied_at))
            .bind(app.stage.map(|s| s.as_str()))
            .bind(app.notes.as_str())
            .bind(Stamp::opt(app.followed_up_at))
            .bind(Stamp(app.updated_at))
            .bind(app.snapshot.url.as_deref())
            .bind(app.snapshot.location.as_deref())
            .bind(app.snapshot.description.as_deref())
            .bind(app.snapshot.facts.clone().map(Json))
            .bind(app.cv_id)
            .bind(app.id.get())
            .bind(owner.get())
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// An event recorded through `source` (the user's own, an import's, the assistant's).
    #[allow(clippy::too_many_arguments)]
    async fn event(
        conn: &mut DB::Connection,
        source: EventSource,
        owner: UserId,
        application: Option<ApplicationId>,
        job: Option<JobId>,
        company_slug: &str,
        kind: EventKind,
        signal: Option<&str>,
        occurred_at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query(sql::INSERT_EVENT)
            .bind(owner.get())
            .bind(application.map(|a| a.get()))
            .bind(job.map(|j| j.get()))
            .bind(company_slug)
            .bind(kind.as_str())
            .bind(signal)
            .bind(Stamp(occurred_at))
            .bind(Stamp(now))
            .bind(source.as_str())
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// An event of `job` (and of `app`, when there is one).
    async fn job_event(
        conn: &mut DB::Connection,
        owner: UserId,
        job: &Job,
        app: Option<&Application>,
        kind: EventKind,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let slug = job.company_slug.as_str();
        Self::event(
            conn,
            EventSource::User,
            owner,
            app.map(|a| a.id),
            Some(job.id),
            slug,
            kind,
            None,
            now,
            now,
        )
        .await
    }

    async fn cancel_pending_reminder(
        conn: &mut DB::Connection,
        owner: UserId,
        job: JobId,
    ) -> Result<()> {
        sqlx::query(sql::CANCEL_REMINDER)
            .bind(owner.get())
            .bind(job.get())
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    async fn create_reminder(
        conn: &mut DB::Connection,
        owner: UserId,
        job: JobId,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let clock: Option<(Option<i64>, Option<String>)> = sqlx::query_as(sql::REMINDER_CLOCK)
            .bind(owner.get())
            .fetch_optional(&mut *conn)
            .await?;
        let (hour, zone) = clock.unwrap_or_default();
        let hour = hour
            .and_then(|h| u32::try_from(h).ok())
            .filter(|h| *h < 24)
            .unwrap_or(DEFAULT_DIGEST_HOUR);
        let tz = zone.and_then(|z| z.parse::<chrono_tz::Tz>().ok()).unwrap_or(chrono_tz::UTC);
        sqlx::query(sql::INSERT_REMINDER)
            .bind(owner.get())
            .bind(job.get())
            .bind(Stamp(reminder_at(now, hour, tz)))
            .bind(Stamp(now))
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Marks `app` applied at `at`: the date, stage `applied` unless it is further, the
    /// posting's snapshot, the `applied` event, the user counted once, the reminder cancelled.
    async fn mark_applied(
        conn: &mut DB::Connection,
        owner: UserId,
        job: Option<&Job>,
        app: &mut Application,
        marks: Option<&mut MarksState>,
        source: EventSource,
        (at, now): (DateTime<Utc>, DateTime<Utc>),
    ) -> Result<()> {
        app.applied_at = Some(at);
        if app.stage.is_none_or(|s| s.rank() < Stage::Applied.rank()) {
            app.stage = Some(Stage::Applied);
        }
        if let Some(job) = job {
            app.snapshot = snapshot(job);
            if let Some(marks) = marks
                && !marks.counted
            {
                sqlx::query(sql::COUNT_APPLIED).bind(job.id.get()).execute(&mut *conn).await?;
                marks.counted = true;
                marks.dirty = true;
            }
            Self::cancel_pending_reminder(conn, owner, job.id).await?;
        }
        let date = at.date_naive().to_string();
        let job_id = job.map(|j| j.id).or(app.job_id);
        Self::event(
            conn,
            source,
            owner,
            Some(app.id),
            job_id,
            &app.company_slug,
            EventKind::Applied,
            Some(&date),
            at,
            now,
        )
        .await?;
        app.updated_at = now;
        Ok(())
    }

    /// Applies a stage and notes change to `app`, with its events.
    async fn change_application(
        conn: &mut DB::Connection,
        owner: UserId,
        job: Option<&Job>,
        app: &mut Application,
        marks: Option<&mut MarksState>,
        change: &TrackChange,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let job_id = job.map(|j| j.id).or(app.job_id);
        if let Some(stage) = change.stage {
            if stage.is_applied() && app.applied_at.is_none() {
                Self::mark_applied(conn, owner, job, app, marks, EventSource::User, (now, now))
                    .await?;
            }
            if app.stage != Some(stage) {
                app.stage = Some(stage);
                let slug = app.company_slug.clone();
                let (id, kind) = (Some(app.id), EventKind::StageSet);
                let signal = Some(stage.as_str());
                Self::event(
                    conn,
                    EventSource::User,
                    owner,
                    id,
                    job_id,
                    &slug,
                    kind,
                    signal,
                    now,
                    now,
                )
                .await?;
                app.updated_at = now;
            }
        }
        if let Some(notes) = &change.notes
            && app.notes != *notes
        {
            app.notes.clone_from(notes);
            let slug = app.company_slug.clone();
            let signal = Some(notes.as_str());
            let (id, kind) = (Some(app.id), EventKind::Note);
            Self::event(conn, EventSource::User, owner, id, job_id, &slug, kind, signal, now, now)
                .await?;
            app.updated_at = now;
        }
        Ok(())
    }

    /// Clears the stage and the applied date of `app`, with a `stage_cleared` event.
    async fn clear_stage_of(
        conn: &mut DB::Connection,
        owner: UserId,
        app: &mut Application,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        if app.stage.is_none() && app.applied_at.is_none() {
            return Ok(false);
        }
        app.stage = None;
        app.applied_at = None;
        app.updated_at = now;
        let slug = app.company_slug.clone();
        let kind = EventKind::StageCleared;
        Self::event(
            conn,
            EventSource::User,
            owner,
            Some(app.id),
            app.job_id,
            &slug,
            kind,
            None,
            now,
            now,
        )
        .await?;
        Ok(true)
    }

    async fn read_track(conn: &mut DB::Connection, owner: UserId, job: &Job) -> Result<Track> {
        let marks = Self::marks_state(conn, owner, job.id).await?.marks;
        let application =
            Self::application_where(conn, sql::APPLICATION_OF_JOB, owner, job.id.get()).await?;
        Ok(Track { job_slug: job.public_slug.as_str().to_owned(), marks, application })
    }

    // ---- the operations ----

    /// One job-addressed mutation in the caller's transaction; `job_for` is the dialect's
    /// `sql::tracking::job_for!`.
    pub async fn mutate_job(
        mut tx: Transaction<'_, DB>,
        job_for: &'static str,
        owner: UserId,
        slug: &PublicSlug,
        op: JobOp<'_>,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>> {
        let conn = &mut *tx;
        let Some(job) = Self::locked_job(conn, job_for, Ok(slug.as_str())).await? else {
            tx.rollback().await?;
            return Ok(None);
        };
        let mut marks = Self::marks_state(conn, owner, job.id).await?;
        let mut app =
            Self::application_where(conn, sql::APPLICATION_OF_JOB, owner, job.id.get()).await?;
        let mut app_dirty = false;
        match op {
            JobOp::View => {
                if marks.marks.viewed_at.is_none() {
                    sqlx::query(sql::COUNT_VIEWED).bind(job.id.get()).execute(&mut *conn).await?;
                    Self::job_event(conn, owner, &job, app.as_ref(), EventKind::Viewed, now)
                        .await?;
                }
                marks.marks.viewed_at = Some(now);
                marks.dirty = true;
            }
            JobOp::Save(saved) => {
                if saved && marks.marks.saved_at.is_none() {
                    marks.marks.saved_at = Some(now);
                    marks.dirty = true;
                    Self::job_event(conn, owner, &job, app.as_ref(), EventKind::Saved, now).await?;
                    if app.as_ref().is_none_or(|a| a.applied_at.is_none()) {
                        Self::create_reminder(conn, owner, job.id, now).await?;
                    }
                } else if !saved && marks.marks.saved_at.is_some() {
                    marks.marks.saved_at = None;
                    marks.dirty = true;
                    let kind = EventKind::Unsaved;
                    Self::job_event(conn, owner, &job, app.as_ref(), kind, now).await?;
                    Self::cancel_pending_reminder(conn, owner, job.id).await?;
                }
            }
            JobOp::Dismiss(dismissed) => {
                if dismissed && marks.marks.dismissed_at.is_none() {
                    marks.marks.dismissed_at = Some(now);
                    marks.dirty = true;
                    let kind = EventKind::Dismissed;
                    Self::job_event(conn, owner, &job, app.as_ref(), kind, now).await?;
                    Self::cancel_pending_reminder(conn, owner, job.id).await?;
                } else if !dismissed && marks.marks.dismissed_at.is_some() {
                    marks.marks.dismissed_at = None;
                    marks.dirty = true;
                    let kind = EventKind::Undismissed;
                    Self::job_event(conn, owner, &job, app.as_ref(), kind, now).await?;
                }
            }
            JobOp::Apply(apply) => {
                let mut current = match app.take() {
                    Some(a) => a,
                    None => Self::new_application(conn, owner, &job, now).await?,
                };
                match current.applied_at {
                    None => {
                        Self::mark_applied(
                            conn,
                            owner,
                            Some(&job),
                            &mut current,
                            Some(&mut marks),
                            apply.source,
                            (apply.applied_at, now),
                        )
                        .await?;
                    }
                    Some(at)
                        if apply.explicit_date
                            && at.date_naive() != apply.applied_at.date_naive() =>
                    {
                        current.applied_at = Some(apply.applied_at);
                        current.updated_at = now;
                        sqlx::query(sql::REDATE_APPLIED)
                            .bind(Stamp(apply.applied_at))
                            .bind(apply.applied_at.date_naive().to_string().as_str())
                            .bind(current.id.get())
                            .bind(owner.get())
                            .execute(&mut *conn)
                            .await?;
                    }
                    Some(_) => {}
                }
                if apply.cv_id.is_some() && apply.cv_id != current.cv_id {
                    current.cv_id = apply.cv_id;
                    current.updated_at = now;
                }
                app = Some(current);
                app_dirty = true;
            }
            JobOp::Update(change) => {
                let mut current = match app.take() {
                    Some(a) => a,
                    None => Self::new_application(conn, owner, &job, now).await?,
                };
                Self::change_application(
                    conn,
                    owner,
                    Some(&job),
                    &mut current,
                    Some(&mut marks),
                    change,
                    now,
                )
                .await?;
                app = Some(current);
                app_dirty = true;
            }
            JobOp::ClearStage => {
                if let Some(current) = app.as_mut() {
                    app_dirty = Self::clear_stage_of(conn, owner, current, now).await?;
                }
            }
            JobOp::Clear => {
                let mut cleared = false;
                if marks.marks.saved_at.take().is_some() {
                    Self::cancel_pending_reminder(conn, owner, job.id).await?;
                    marks.dirty = true;
                    cleared = true;
                }
                if let Some(current) = app.take() {
                    sqlx::query(sql::DELETE_APPLICATION)
                        .bind(current.id.get())
                        .bind(owner.get())
                        .execute(&mut *conn)
                        .await?;
                    cleared = true;
                }
                if cleared {
                    let kind = EventKind::TrackCleared;
                    Self::job_event(conn, owner, &job, None, kind, now).await?;
                }
            }
            JobOp::FollowedUp => {
                if let Some(current) = app.as_mut() {
                    current.followed_up_at = Some(now);
                    current.updated_at = now;
                    let kind = EventKind::FollowedUp;
                    Self::job_event(conn, owner, &job, Some(current), kind, now).await?;
                    app_dirty = true;
                }
            }
        }
        if app_dirty && let Some(current) = &app {
            Self::put_application(conn, owner, current).await?;
        }
        if marks.dirty {
            Self::put_marks(conn, owner, job.id, &marks, now).await?;
        }
        let track = Self::read_track(conn, owner, &job).await?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(Some(track))
    }

    /// One application-addressed mutation in the caller's transaction; `job_by_id_for` is the
    /// dialect's `sql::tracking::job_by_id_for!` (the posting, while it exists, is locked first).
    pub async fn mutate_application(
        mut tx: Transaction<'_, DB>,
        job_by_id_for: &'static str,
        owner: UserId,
        id: ApplicationId,
        op: AppOp<'_>,
        now: DateTime<Utc>,
    ) -> Result<Option<Application>> {
        let conn = &mut *tx;
        let Some(first) =
            Self::application_where(conn, sql::APPLICATION_BY_ID, owner, id.get()).await?
        else {
            tx.rollback().await?;
            return Ok(None);
        };
        let job = match first.job_id {
            Some(job) => Self::locked_job(conn, job_by_id_for, Err(job.get())).await?,
            None => None,
        };
        // Read again under the job's lock: a concurrent change of this application is seen.
        let Some(mut app) =
            Self::application_where(conn, sql::APPLICATION_BY_ID, owner, id.get()).await?
        else {
            tx.rollback().await?;
            return Ok(None);
        };
        let mut marks = match &job {
            Some(job) => Some(Self::marks_state(conn, owner, job.id).await?),
            None => None,
        };
        let dirty = match op {
            AppOp::Update(change) => {
                Self::change_application(
                    conn,
                    owner,
                    job.as_ref(),
                    &mut app,
                    marks.as_mut(),
                    change,
                    now,
                )
                .await?;
                true
            }
            AppOp::ClearStage => Self::clear_stage_of(conn, owner, &mut app, now).await?,
        };
        if dirty {
            Self::put_application(conn, owner, &app).await?;
        }
        if let (Some(job), Some(marks)) = (&job, &marks)
            && marks.dirty
        {
            Self::put_marks(conn, owner, job.id, marks, now).await?;
        }
        let app = Self::application_where(conn, sql::APPLICATION_BY_ID, owner, id.get()).await?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(app)
    }

    pub async fn delete_application(
        pool: &Pool<DB>,
        owner: UserId,
        id: ApplicationId,
    ) -> Result<bool> {
        let done = sqlx::query(sql::DELETE_APPLICATION)
            .bind(id.get())
            .bind(owner.get())
            .execute(pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    pub async fn track_of(
        pool: &Pool<DB>,
        owner: UserId,
        slug: &PublicSlug,
    ) -> Result<Option<Track>> {
        let mut conn = pool.acquire().await?;
        let conn = &mut *conn;
        let Some(job) =
            Self::locked_job(conn, crate::sql::jobs::BY_SLUG, Ok(slug.as_str())).await?
        else {
            return Ok(None);
        };
        Ok(Some(Self::read_track(conn, owner, &job).await?))
    }

    pub async fn tracking_list(
        pool: &Pool<DB>,
        owner: UserId,
        filter: TrackingFilter,
        limit: u32,
        offset: u64,
    ) -> Result<CardList> {
        // The page and the count on two connections at once (both are reads).
        let page = sqlx::query_as::<_, CardRecord>(sql::CARDS_PAGE)
            .bind(owner.get())
            .bind(filter.as_str())
            .bind(i64::from(limit))
            .bind(i64::try_from(offset).unwrap_or(i64::MAX))
            .fetch_all(pool);
        let total = sqlx::query_as::<_, (i64,)>(sql::CARDS_COUNT)
            .bind(owner.get())
            .bind(filter.as_str())
            .fetch_one(pool);
        let (rows, (total,)) = tokio::try_join!(page, total)?;
        let cards = rows.into_iter().map(CardRecord::into_card).collect::<Result<_>>()?;
        Ok(CardList { cards, total: count(total) })
    }

    pub async fn tracking_slugs(
        pool: &Pool<DB>,
        owner: UserId,
        set: SlugSet,
    ) -> Result<Vec<String>> {
        let statement = match set {
            SlugSet::Viewed => sql::VIEWED_SLUGS,
            SlugSet::Saved => sql::SAVED_SLUGS,
            SlugSet::Dismissed => sql::DISMISSED_SLUGS,
        };
        let rows: Vec<(String,)> =
            sqlx::query_as(statement).bind(owner.get()).fetch_all(pool).await?;
        Ok(rows.into_iter().map(|(s,)| s).collect())
    }

    pub async fn stage_counts(pool: &Pool<DB>, owner: UserId) -> Result<StageCounts> {
        let rows: Vec<(String, i64)> =
            sqlx::query_as(sql::STAGE_COUNTS).bind(owner.get()).fetch_all(pool).await?;
        let counts = rows
            .into_iter()
            .map(|(stage, n)| {
                Stage::parse(&stage)
                    .map(|s| (s, count(n)))
                    .map_err(|e| crate::StoreError::corrupt("stage", e))
            })
            .collect::<Result<_>>()?;
        Ok(StageCounts { counts })
    }

    pub async fn tracking_detail(
        pool: &Pool<DB>,
        owner: UserId,
        slug: &str,
    ) -> Result<Option<TrackedDetail>> {
        let row: Option<CardRecord> = sqlx::query_as(sql::CARD_OF_SLUG)
            .bind(owner.get())
            .bind(slug)
            .fetch_optional(pool)
            .await?;
        let Some(card) = row.map(CardRecord::into_card).transpose()? else {
            return Ok(None);
        };
        let live: Option<(String,)> =
            sqlx::query_as(sql::DESCRIPTION_OF).bind(slug).fetch_optional(pool).await?;
        let description = match (live, card.application_id) {
            (Some((d,)), _) => Some(d),
            (None, Some(id)) => {
                let kept: Option<(Option<String>,)> = sqlx::query_as(sql::SNAPSHOT_DESCRIPTION)
                    .bind(id.get())
                    .bind(owner.get())
                    .fetch_optional(pool)
                    .await?;
                kept.and_then(|(d,)| d)
            }
            (None, None) => None,
        };
        let events: Vec<EventRecord> = sqlx::query_as(sql::EVENTS_OF)
            .bind(owner.get())
            .bind(card.application_id.map(|a| a.get()))
            .bind(slug)
            .fetch_all(pool)
            .await?;
        let events = events.into_iter().map(EventRecord::into_event).collect::<Result<_>>()?;
        Ok(Some(TrackedDetail { card, description, events }))
    }

    pub async fn export_applications(pool: &Pool<DB>, owner: UserId) -> Result<Vec<ExportRow>> {
        let rows: Vec<ExportRecord> =
            sqlx::query_as(sql::EXPORT).bind(owner.get()).fetch_all(pool).await?;
        rows.into_iter().map(ExportRecord::into_row).collect()
    }

    /// Imports one row in the caller's transaction (see the port's docs).
    pub async fn import_row(
        mut tx: Transaction<'_, DB>,
        job_for: &'static str,
        owner: UserId,
        row: &ImportRow<'_>,
        now: DateTime<Utc>,
    ) -> Result<Imported> {
        let conn = &mut *tx;
        let job = match row.job_slug.map(PublicSlug::parse) {
            Some(Ok(slug)) => Self::locked_job(conn, job_for, Ok(slug.as_str())).await?,
            _ => None,
        };
        let mut app = match &job {
            Some(job) => {
                Self::application_where(conn, sql::APPLICATION_OF_JOB, owner, job.id.get()).await?
            }
            None => None,
        };
        if app.is_none() {
            let found: Option<ApplicationRecord> = sqlx::query_as(sql::APPLICATION_BY_ROLE)
                .bind(owner.get())
                .bind(row.company_slug)
                .bind(row.role_title)
                .fetch_optional(&mut *conn)
                .await?;
            app = found.map(ApplicationRecord::into_application).transpose()?;
        }
        let mut outcome = Imported::default();
        let app = match app {
            Some(app) => app,
            None => {
                let (id,): (i64,) = sqlx::query_as(sql::INSERT_APPLICATION)
                    .bind(owner.get())
                    .bind(job.as_ref().map(|j| j.id.get()))
                    .bind(row.company_slug)
                    .bind(row.company)
                    .bind(row.role_title)
                    .bind(row.job_slug)
                    .bind(Stamp::opt(row.applied_at))
                    .bind(row.stage.map(|s| s.as_str()))
                    .bind(row.notes)
                    .bind(Stamp(now))
                    .fetch_one(&mut *conn)
                    .await?;
                outcome.application_created = true;
                let mut app = Self::application_where(conn, sql::APPLICATION_BY_ID, owner, id)
                    .await?
                    .ok_or_else(|| crate::StoreError::corrupt("id", "the imported application"))?;
                if let Some(job) = &job
                    && app.applied_at.is_some()
                {
                    app.snapshot = snapshot(job);
                    Self::put_application(conn, owner, &app).await?;
                }
                app
            }
        };
        if let Some(event) = &row.event {
            let (same,): (i64,) = sqlx::query_as(sql::SAME_EVENT)
                .bind(app.id.get())
                .bind(event.kind.as_str())
                .bind(event.signal.unwrap_or(""))
                .bind(Stamp(event.occurred_at))
                .bind(app.job_id.map(|j| j.get()))
                .bind(owner.get())
                .fetch_one(&mut *conn)
                .await?;
            if same == 0 {
                let done = sqlx::query(sql::INSERT_IMPORTED_EVENT)
                    .bind(owner.get())
                    .bind(app.id.get())
                    .bind(app.job_id.map(|j| j.get()))
                    .bind(app.company_slug.as_str())
                    .bind(event.kind.as_str())
                    .bind(event.signal)
                    .bind(Stamp(event.occurred_at))
                    .bind(Stamp(now))
                    .bind(event.source_ref)
                    .execute(&mut *conn)
                    .await?;
                outcome.event_created = done.rows_affected() > 0;
            }
        }
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(outcome)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn a_reminder_is_due_three_days_on_rounded_up_to_the_digest_hour() {
        // 08:00 UTC + 3 days, before 09:00: the same day at nine.
        let utc = chrono_tz::UTC;
        assert_eq!(reminder_at(at("2026-11-02T08:00:00Z"), 9, utc), at("2026-11-05T09:00:00Z"));
        // After nine: the next day.
        assert_eq!(reminder_at(at("2026-11-02T09:30:00Z"), 9, utc), at("2026-11-06T09:00:00Z"));
        // Exactly nine stays.
        assert_eq!(reminder_at(at("2026-11-02T09:00:00Z"), 9, utc), at("2026-11-05T09:00:00Z"));
        // In the user's zone: 07:00 in Berlin (UTC+1 in November) is 06:00 UTC.
        let berlin: chrono_tz::Tz = "Europe/Berlin".parse().unwrap();
        assert_eq!(reminder_at(at("2026-11-02T05:00:00Z"), 7, berlin), at("2026-11-05T06:00:00Z"));
        // Across the spring change (Berlin 2026-03-29: 02:00 → 03:00), 02:00 is 03:00 local.
        assert_eq!(reminder_at(at("2026-03-26T00:30:00Z"), 2, berlin), at("2026-03-29T01:00:00Z"));
    }
}
