//! Role clusters on PostgreSQL: marking reposts at insert and releasing a closed canonical's
//! duplicates (the rules: the storage spec's "Role clusters"; the shared statement:
//! `mark_reposts_sql!`, written so that even a plan cached while `jobs` was empty reads it
//! through the primary key and the role's index).

use crate::{Result, bind::List};

/// Marks each of `ids` that has an older open, non-duplicate job of the same role as a
/// duplicate of the oldest one. Returns `(duplicate, canonical)` pairs.
pub(super) async fn mark_reposts(
    conn: &mut sqlx::PgConnection,
    ids: &[i64],
) -> Result<Vec<(i64, i64)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<(i64, i64)> = sqlx::query_as(mark_reposts_sql!("j.id = ANY($1)"))
        .bind(List(ids))
        .fetch_all(&mut *conn)
        .await?;
    Ok(rows)
}

/// Releases the open duplicates of the `closed` jobs and clusters them again (the oldest of a
/// role becomes its canonical). Returns the released ids.
pub(super) async fn release_duplicates(
    conn: &mut sqlx::PgConnection,
    closed: &[i64],
) -> Result<Vec<i64>> {
    if closed.is_empty() {
        return Ok(Vec::new());
    }
    let mut released: Vec<i64> = sqlx::query_scalar(
        "UPDATE jobs SET duplicate_of = NULL \
         WHERE duplicate_of = ANY($1) AND closed_at IS NULL \
         RETURNING id",
    )
    .bind(List(closed))
    .fetch_all(&mut *conn)
    .await?;
    released.sort_unstable();
    mark_reposts(conn, &released).await?;
    Ok(released)
}

/// Clusters the roles of the `reopened` jobs again from scratch: every open member is released
/// and marked anew, so a reopened job older than its role's canonical takes the role back.
/// Returns the ids to re-read into the index: the reopened jobs and their roles' open members.
pub(super) async fn recluster(conn: &mut sqlx::PgConnection, reopened: &[i64]) -> Result<Vec<i64>> {
    if reopened.is_empty() {
        return Ok(Vec::new());
    }
    let mut members: Vec<i64> = sqlx::query_scalar(
        "UPDATE jobs SET duplicate_of = NULL \
         WHERE closed_at IS NULL AND role_fingerprint <> '' \
           AND (company_slug, role_fingerprint) IN ( \
             SELECT company_slug, role_fingerprint FROM jobs \
             WHERE id = ANY($1) AND role_fingerprint <> '') \
         RETURNING id",
    )
    .bind(List(reopened))
    .fetch_all(&mut *conn)
    .await?;
    members.sort_unstable();
    mark_reposts(conn, &members).await?;
    Ok(crate::plan::union(reopened.to_vec(), members))
}
