//! Statements on `experience_employments`, `experience_atoms` and the users column
//! `experience_require_context`, shared by both dialects; only the atom id list (`= ANY` vs
//! `json_each`), the row lock of the fill (`FOR UPDATE`) and the upsert's "inserted" column
//! (`xmax = 0` on PostgreSQL) differ, through the macros below. Every statement has the owner
//! in its `WHERE` clause.

/// The columns every employment read selects (decoded by `EmploymentRecord`).
macro_rules! employment_columns {
    () => {
        "id, user_id, kind, company, role, location, is_current, summary, link, stack, \
         period_start_year, period_start_month, period_end_year, period_end_month, created_at, \
         updated_at"
    };
}
pub(crate) use employment_columns;

/// The columns every atom read selects (decoded by `AtomRecord`).
macro_rules! atom_columns {
    () => {
        "id, user_id, employment_id, claim, claim_key, context, metrics, skills, provenance, \
         source_ref, created_at, updated_at"
    };
}
pub(crate) use atom_columns;

/// The listing order of employments, as `sort_employments` (which runs again in Rust):
/// current first, then the start (an unknown month as January) newest first, missing starts
/// last, then the newest id.
macro_rules! employment_order {
    () => {
        " ORDER BY is_current DESC, period_start_year IS NULL, period_start_year DESC, \
         COALESCE(period_start_month, 1) DESC, id DESC"
    };
}

/// The listing order of atoms: by employment (none last), then oldest first.
macro_rules! atom_order {
    () => {
        " ORDER BY employment_id IS NULL, employment_id, created_at, id"
    };
}

pub(crate) const LIST_EMPLOYMENTS: &str = concat!(
    "SELECT ",
    employment_columns!(),
    " FROM experience_employments WHERE user_id = $1",
    employment_order!()
);

/// One employment of the owner; each adapter appends its lock (`FOR UPDATE` for the fill on
/// PostgreSQL, none on SQLite, whose `BEGIN IMMEDIATE` holds the database).
macro_rules! employment_of {
    ($lock:literal) => {
        concat!(
            "SELECT ",
            crate::sql::experience::employment_columns!(),
            " FROM experience_employments WHERE id = $1 AND user_id = $2",
            $lock
        )
    };
}
pub(crate) use employment_of;

pub(crate) const EMPLOYMENT: &str = employment_of!("");

/// `$1` owner, `$2` kind, `$3` company, `$4` role, `$5` location, `$6` current, `$7`
/// summary, `$8` link, `$9` stack, `$10`–`$13` the periods, `$14` now.
pub(crate) const CREATE_EMPLOYMENT: &str = concat!(
    "INSERT INTO experience_employments (user_id, kind, company, role, location, is_current, \
     summary, link, stack, period_start_year, period_start_month, period_end_year, \
     period_end_month, created_at, updated_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) RETURNING ",
    employment_columns!()
);

/// A full replacement, binds as [`CREATE_EMPLOYMENT`] then `$15` the id.
pub(crate) const UPDATE_EMPLOYMENT: &str = concat!(
    "UPDATE experience_employments SET kind = $2, company = $3, role = $4, location = $5, \
     is_current = $6, summary = $7, link = $8, stack = $9, period_start_year = $10, \
     period_start_month = $11, period_end_year = $12, period_end_month = $13, updated_at = $14 \
     WHERE id = $15 AND user_id = $1 RETURNING ",
    employment_columns!()
);

/// Its atoms go with it (ON DELETE CASCADE).
pub(crate) const DELETE_EMPLOYMENT: &str =
    "DELETE FROM experience_employments WHERE id = $1 AND user_id = $2";

/// Whether the owner has the employment.
pub(crate) const OWNS_EMPLOYMENT: &str =
    "SELECT count(*) FROM experience_employments WHERE id = $1 AND user_id = $2";

pub(crate) const LIST_ATOMS: &str =
    concat!("SELECT ", atom_columns!(), " FROM experience_atoms WHERE user_id = $1", atom_order!());

/// Some of the owner's atoms: `$2` the ids as the dialect's list (`$list` is its test).
macro_rules! atoms_among {
    ($list:literal) => {
        concat!(
            "SELECT ",
            crate::sql::experience::atom_columns!(),
            " FROM experience_atoms WHERE user_id = $1 AND ",
            $list,
            " ORDER BY employment_id IS NULL, employment_id, created_at, id"
        )
    };
}
pub(crate) use atoms_among;

/// `$1` owner, `$2` employment, `$3` claim, `$4` key, `$5` context, `$6` metrics, `$7`
/// skills, `$8` provenance, `$9` source, `$10` now. On the owner's key, only an
/// `agent_inferred` atom is raised, and only by a publishable write (its provenance, source
/// and context; nothing else); otherwise no row comes back. `$inserted` is the dialect's
/// "this row is new" column (`NULL` where it cannot tell).
macro_rules! upsert_atom {
    ($inserted:literal) => {
        concat!(
            "INSERT INTO experience_atoms (user_id, employment_id, claim, claim_key, context, \
             metrics, skills, provenance, source_ref, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) \
             ON CONFLICT (user_id, claim_key) DO UPDATE SET provenance = excluded.provenance, \
             source_ref = excluded.source_ref, context = excluded.context, \
             updated_at = excluded.updated_at \
             WHERE experience_atoms.provenance = 'agent_inferred' \
             AND excluded.provenance <> 'agent_inferred' RETURNING ",
            crate::sql::experience::atom_columns!(),
            ", ",
            $inserted,
            " AS inserted"
        )
    };
}
pub(crate) use upsert_atom;

/// The owner's atom of a claim key.
pub(crate) const ATOM_BY_KEY: &str =
    "SELECT id FROM experience_atoms WHERE user_id = $1 AND claim_key = $2";

/// The body of an atom update after its `SET` list's first items: `$1` owner, `$2`
/// employment (which must be the owner's), `$3` claim, `$4` key, `$5` context, `$6`
/// metrics, `$7` skills, `$8` source, `$9` now, `$10` the id.
macro_rules! update_atom {
    ($provenance:literal) => {
        concat!(
            "UPDATE experience_atoms SET ",
            $provenance,
            "employment_id = $2, claim = $3, claim_key = $4, context = $5, metrics = $6, \
             skills = $7, source_ref = $8, updated_at = $9 \
             WHERE id = $10 AND user_id = $1 AND ($2 IS NULL OR EXISTS (SELECT 1 FROM \
             experience_employments AS e WHERE e.id = $2 AND e.user_id = $1)) RETURNING ",
            atom_columns!()
        )
    };
}

/// A rewrite: the provenance column is left out, so it stays what it is (no read first).
pub(crate) const UPDATE_ATOM_KEEPING_PROVENANCE: &str = update_atom!("");

/// Every other author's update, `$11` the provenance.
pub(crate) const UPDATE_ATOM: &str = update_atom!("provenance = $11, ");

pub(crate) const DELETE_ATOM: &str = "DELETE FROM experience_atoms WHERE id = $1 AND user_id = $2";

/// How many of the two atoms `$2`, `$3` are the owner's.
pub(crate) const OWNED_PAIR: &str =
    "SELECT count(*) FROM experience_atoms WHERE user_id = $1 AND id IN ($2, $3)";

/// The keeper's merged fields, gated on its `updated_at` as read: `$1` owner, `$2` keeper,
/// `$3` its `updated_at` as read, `$4` context, `$5` metrics, `$6` skills, `$7`
/// provenance, `$8` now (SQLite's merge; PostgreSQL's is one statement, `MERGE_ATOMS` in
/// its adapter).
pub(crate) const MERGE_KEEPER: &str = concat!(
    "UPDATE experience_atoms SET context = $4, metrics = $5, skills = $6, provenance = $7, \
     updated_at = $8 WHERE id = $2 AND user_id = $1 AND updated_at = $3 RETURNING ",
    atom_columns!()
);

/// The loser, gated on its `updated_at` as read: `$1` owner, `$2` id, `$3` `updated_at`.
pub(crate) const MERGE_LOSER: &str =
    "DELETE FROM experience_atoms WHERE id = $2 AND user_id = $1 AND updated_at = $3";

pub(crate) const REQUIRE_CONTEXT: &str =
    "SELECT experience_require_context FROM users WHERE id = $1";

pub(crate) const SET_REQUIRE_CONTEXT: &str =
    "UPDATE users SET experience_require_context = $2 WHERE id = $1";
