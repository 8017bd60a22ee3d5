//! Screening-answer statements ([`ScreeningRepo`](crate::ScreeningRepo)): `users.screening_answers`,
//! a JSON object changed only by a merge patch applied in the statement itself. The dialects
//! differ in the merge: PostgreSQL concatenates `jsonb` and strips the `null`s the patch
//! clears; SQLite's `json_patch` is RFC 7396 already.

/// `$1` owner: the stored object, no row for an owner that does not exist.
pub(crate) const ANSWERS: &str = "SELECT screening_answers FROM users WHERE id = $1";

/// `$1` owner, `$2` the merge patch: the object after it.
pub(crate) const PATCH_POSTGRES: &str = "UPDATE users \
     SET screening_answers = jsonb_strip_nulls(screening_answers || $2) \
     WHERE id = $1 RETURNING screening_answers";

/// The same on SQLite.
pub(crate) const PATCH_SQLITE: &str = "UPDATE users \
     SET screening_answers = json_patch(screening_answers, $2) \
     WHERE id = $1 RETURNING screening_answers";
