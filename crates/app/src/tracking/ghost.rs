//! Ghost reports (reference search-ingest §5.10, §6.4 `POST|DELETE /jobs/:slug/ghost-report`):
//! an applicant says a posting is a ghost job: they applied on a day and never heard back.

use chrono::{DateTime, NaiveDate, Utc};
use freehire_domain::{JobId, PublicSlug, UserId, check_applied_on};

use super::{Tracking, TrackingError, job_missing};

impl Tracking {
    /// Records `owner`'s ghost report on the job at `slug`: `applied_on` (default today) not
    /// in the future and at most a year ago. A closed job takes no report.
    pub async fn report_ghost(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        applied_on: Option<NaiveDate>,
        now: DateTime<Utc>,
    ) -> Result<NaiveDate, TrackingError> {
        let today = now.date_naive();
        let day = check_applied_on(applied_on.unwrap_or(today), today)?;
        let job = self.store.job_by_slug(slug).await?.ok_or_else(job_missing)?;
        if !job.is_open() {
            return Err(TrackingError::Invalid {
                field: "slug",
                message: format!(
                    "{} is closed: a closed job carries no ghost signal",
                    slug.as_str()
                ),
            });
        }
        self.store.report_ghost(owner, job.id, day, now).await?;
        Ok(day)
    }

    /// Retracts `owner`'s ghost report on the job at `slug`; whether there was one.
    pub async fn retract_ghost(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<bool, TrackingError> {
        let job = self.store.job_by_slug(slug).await?.ok_or_else(job_missing)?;
        Ok(self.store.retract_ghost(owner, job.id, now).await?)
    }

    /// The day of `owner`'s live ghost report on job `job` (the caller has read it), if any.
    pub async fn my_ghost_report(
        &self,
        owner: UserId,
        job: JobId,
    ) -> Result<Option<NaiveDate>, TrackingError> {
        Ok(self.store.my_ghost_report(owner, job).await?)
    }
}
