//! Employment and atom rows as read, decoded on both backends through the
//! [`bind`](crate::bind) types and parsed totally into the domain's
//! [`Employment`] and [`Atom`]: a stored value that no longer parses (a kind or provenance
//! outside its vocabulary, a month without its year, a year out of range) is
//! [`StoreError::Corrupt`] naming its column.

use freehire_domain::{
    AtomId, EmploymentId, EmploymentKind, Provenance, UserId,
    experience::{Atom, AtomDraft, Employment, EmploymentDraft, Period},
};

use crate::{
    Result, StoreError,
    bind::{Stamp, StoredList},
};

fn user_id(raw: i64) -> Result<UserId> {
    UserId::new(raw).map_err(|e| StoreError::corrupt("user_id", e))
}

/// A `{year, month?}` period from its two columns (`column` names the year's).
fn period(
    column: &'static str,
    year: Option<i32>,
    month: Option<i32>,
    field: &'static str,
) -> Result<Option<Period>> {
    let month =
        month.map(|m| u8::try_from(m).map_err(|e| StoreError::corrupt(column, e))).transpose()?;
    match (year, month) {
        (None, None) => Ok(None),
        (None, Some(_)) => Err(StoreError::corrupt(column, "a month without its year")),
        (Some(year), month) => {
            Period::new(year, month, field).map(Some).map_err(|e| StoreError::corrupt(column, e))
        }
    }
}

/// A period as its two columns.
pub(crate) fn period_columns(p: Option<Period>) -> (Option<i32>, Option<i32>) {
    (p.map(|p| p.year), p.and_then(|p| p.month).map(i32::from))
}

/// An `experience_employments` row (the columns of `employment_columns!`).
#[derive(sqlx::FromRow)]
pub(crate) struct EmploymentRecord {
    id: i64,
    user_id: i64,
    kind: String,
    company: String,
    role: String,
    location: String,
    is_current: bool,
    summary: String,
    link: String,
    stack: StoredList,
    period_start_year: Option<i32>,
    period_start_month: Option<i32>,
    period_end_year: Option<i32>,
    period_end_month: Option<i32>,
    created_at: Stamp,
    updated_at: Stamp,
}

impl EmploymentRecord {
    pub fn into_employment(self) -> Result<Employment> {
        Ok(Employment {
            id: EmploymentId::new(self.id).map_err(|e| StoreError::corrupt("id", e))?,
            user_id: user_id(self.user_id)?,
            draft: EmploymentDraft {
                kind: EmploymentKind::parse(&self.kind)
                    .map_err(|e| StoreError::corrupt("kind", e))?,
                company: self.company,
                role: self.role,
                location: self.location,
                start: period(
                    "period_start_year",
                    self.period_start_year,
                    self.period_start_month,
                    "start",
                )?,
                end: period("period_end_year", self.period_end_year, self.period_end_month, "end")?,
                current: self.is_current,
                summary: self.summary,
                link: self.link,
                stack: self.stack.parse("stack")?,
            },
            created_at: self.created_at.into(),
            updated_at: self.updated_at.into(),
        })
    }
}

/// An `experience_atoms` row (the columns of `atom_columns!`).
#[derive(sqlx::FromRow)]
pub(crate) struct AtomRecord {
    id: i64,
    user_id: i64,
    employment_id: Option<i64>,
    claim: String,
    claim_key: String,
    context: String,
    metrics: StoredList,
    skills: StoredList,
    provenance: String,
    source_ref: String,
    created_at: Stamp,
    updated_at: Stamp,
}

impl AtomRecord {
    pub fn into_atom(self) -> Result<Atom> {
        Ok(Atom {
            id: AtomId::new(self.id).map_err(|e| StoreError::corrupt("id", e))?,
            user_id: user_id(self.user_id)?,
            draft: AtomDraft {
                employment_id: self
                    .employment_id
                    .map(EmploymentId::new)
                    .transpose()
                    .map_err(|e| StoreError::corrupt("employment_id", e))?,
                claim: self.claim,
                context: self.context,
                metrics: self.metrics.parse("metrics")?,
                skills: self.skills.parse("skills")?,
                source_ref: self.source_ref,
            },
            claim_key: self.claim_key,
            provenance: Provenance::parse(&self.provenance)
                .map_err(|e| StoreError::corrupt("provenance", e))?,
            created_at: self.created_at.into(),
            updated_at: self.updated_at.into(),
        })
    }
}

/// An atom upsert's row: the atom, and whether the statement inserted it (`None` where the
/// dialect cannot tell: SQLite, which looks first in the same write transaction).
#[derive(sqlx::FromRow)]
pub(crate) struct UpsertedAtomRecord {
    #[sqlx(flatten)]
    pub atom: AtomRecord,
    pub inserted: Option<bool>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use chrono::Utc;

    use super::*;

    fn employment() -> EmploymentRecord {
        EmploymentRecord {
            id: 1,
            user_id: 2,
            kind: "project".into(),
            company: "Tool".into(),
            role: String::new(),
            location: String::new(),
            is_current: false,
            summary: String::new(),
            link: "https://x".into(),
            stack: StoredList::Json(r#"["rust"]"#.into()),
            period_start_year: Some(2020),
            period_start_month: Some(4),
            period_end_year: None,
            period_end_month: None,
            created_at: Stamp(Utc::now()),
            updated_at: Stamp(Utc::now()),
        }
    }

    #[test]
    fn stored_employments_parse_and_spoiled_ones_are_corrupt_naming_the_column() {
        let e = employment().into_employment().unwrap();
        assert_eq!(e.draft.start, Some(Period::new(2020, Some(4), "start").unwrap()));
        assert_eq!(period_columns(e.draft.start), (Some(2020), Some(4)));
        type Spoil = fn(&mut EmploymentRecord);
        let cases: [(&str, Spoil); 4] = [
            ("kind", |r| r.kind = "gig".into()),
            ("period_start_year", |r| r.period_start_month = Some(13)),
            ("period_end_year", |r| r.period_end_month = Some(1)),
            ("stack", |r| r.stack = StoredList::Json("[".into())),
        ];
        for (column, spoil) in cases {
            let mut r = employment();
            spoil(&mut r);
            let err = r.into_employment().unwrap_err();
            assert!(
                matches!(err, StoreError::Corrupt { column: c, .. } if c == column),
                "{column}: {err:?}"
            );
        }
    }
}
