//! The CV tools of a tailoring session (reference §10.6): `cv_context`, `cv_get`, `cv_edit`,
//! `tailor_report`, `request_confirmation`, `job_match`, `check_evidence_fidelity` and
//! `cv_page_count`, bound to the session's CV copy, its vacancy and the turn's batch. The model
//! never names a CV: every tool works on the one the session is bound to, read and written
//! with the owner in the `WHERE` clause, so a copy that went (or another user's) is "no longer
//! available".
//!
//! - `cv_context`: the vacancy (description as Markdown, clipped) and its requirements
//!   ([`freehire_cv::requirements`]), each with how much the copy shows it and up to three
//!   atoms of the bank as evidence (`can_write_cv` says which the gate admits); the ones the
//!   copy does not fully show are split into `missing_have` (the bank holds evidence) and
//!   `missing_gap` (it holds none), plus the score of [`freehire_cv::job_match`] as
//!   `overall_score` and a `verdict`.
//! - `cv_get`: the copy without contacts.
//! - `cv_edit`: a batch of `{kind, path, value?, to?, evidence_id?}` ops (an array, or a JSON
//!   string holding one; unknown fields refused by name), ordered against the document the
//!   model read, committed by the agent through `cvedit` under the turn's batch (the evidence
//!   gate refuses the whole batch for one uncited claim); the receipt's `applied` counts the
//!   ops recorded. A `requirement` closed on the same call is merged into the tailor report.
//! - `tailor_report`: replaces the report (sanitised by [`TailorReport::from_items`]).
//! - `request_confirmation`: no side effect; the page renders it as Yes/No buttons, and Yes
//!   sends the claim as the candidate's own message (which `experience_add`'s `said` can then
//!   quote).
//! - `job_match`: the deterministic score of the copy as it is now.
//! - `check_evidence_fidelity`: the cited atom's claim, context and metrics, and, given the
//!   bullet written from it, the numbers in the bullet that the atom does not hold.
//! - `cv_page_count`: the real render's page count.
//!
//! `cover_letter_draft`, the last tool of the group, is in [`super::letter`].

use std::sync::{Arc, LazyLock};

use chrono::Datelike;
use freehire_assistant::SessionId;
use freehire_cv::fit::{CvText, Shown};
use freehire_cv::{
    Op, Path, ReportItem, ReportItemInput, RequirementStatus, TailorReport, order_against_original,
    requirements,
};
use freehire_domain::{AtomId, CvId, Job, JobId, UserId};
use freehire_search::DescriptionFormat;
use freehire_tools::{NoArgs, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::experience::IdArg;
use super::interview::TAILOR_DESCRIPTION_LIMIT;
use super::{Services, internal, tool};
use crate::assistant::service::tailor::analysis_of;
use crate::cvs::{CvError, Cvs};
use crate::describe;

/// Atoms of evidence shown per requirement.
pub const EVIDENCE_PER_REQUIREMENT: usize = 3;

/// The error when the session's CV copy is gone.
pub const CV_GONE: &str = "this tailoring session's CV is no longer available";
/// The error when the session's vacancy is gone.
pub const JOB_GONE: &str = "the vacancy of this tailoring session is no longer available";
/// The status `request_confirmation` returns.
pub const AWAITING: &str = "awaiting_candidate_response";

/// What the CV tools are bound to.
#[derive(Debug, Clone)]
pub struct CvBinding {
    /// The tailored copy.
    pub cv: CvId,
    /// Its vacancy.
    pub job: JobId,
    /// The turn's batch: every edit of the turn is filed under it (undone whole by a revert).
    pub batch: String,
    /// The session (for logs).
    pub session: SessionId,
}

pub(super) fn tools(s: &Arc<Services>, cvs: &Cvs, b: &CvBinding) -> Vec<Arc<dyn Tool<UserId>>> {
    let bound = Arc::new((cvs.clone(), b.clone()));
    let with = |bound: &Arc<(Cvs, CvBinding)>| Arc::clone(bound);
    let (b1, b2, b3, b4, b5, b7) =
        (with(&bound), with(&bound), with(&bound), with(&bound), with(&bound), with(&bound));
    vec![
        tool(
            s,
            "cv_context",
            "The vacancy this CV is being tailored to and each of its requirements: how much the \
             CV shows it, and the banked achievements that could evidence it (evidence ids to \
             cite in cv_edit; can_write_cv false means the candidate must confirm it first). \
             Call it first.",
            move |s, owner, _: NoArgs| {
                let b = Arc::clone(&b1);
                async move { cv_context(&s, owner, &b.0, &b.1).await }
            },
        ),
        tool(
            s,
            "cv_get",
            "The tailored CV as it is now (title, template_id, document), without contact \
             details. Addresses in cv_edit are 0-based indices into this document.",
            move |_s, owner, _: NoArgs| {
                let b = Arc::clone(&b2);
                async move { cv_get(owner, &b.0, &b.1).await }
            },
        ),
        tool(s, "cv_edit", CV_EDIT_DESCRIPTION.as_str(), move |s, owner, a: EditArgs| {
            let b = Arc::clone(&b3);
            async move { cv_edit(&s, owner, &b.0, &b.1, a).await }
        }),
        tool(
            s,
            "tailor_report",
            "Replaces the tailoring report: one entry per vacancy requirement, its text copied \
             verbatim from cv_context, with status closed_bank, closed_candidate, open or \
             not_reached and an optional one-sentence note.",
            move |s, owner, a: ReportArgs| {
                let b = Arc::clone(&b4);
                async move { tailor_report(&s, owner, &b.1, a).await }
            },
        ),
        tool(
            s,
            "request_confirmation",
            "Asks the candidate to confirm one claim the CV needs but the bank does not hold. \
             They see Yes/No buttons: Yes sends the claim back as their own message (quote it \
             in experience_add's said), No declines. Use it instead of asking in prose.",
            |_s, _owner, a: ConfirmArgs| async move { request_confirmation(a) },
        ),
        tool(
            s,
            "job_match",
            "A fresh, deterministic score of the CV as it is now against the vacancy, by \
             category (Requirements Coverage, Keyword Match, Job Title Match, Seniority Fit), \
             each item ok or warn. Not the fit analysis.",
            move |s, owner, _: NoArgs| {
                let b = Arc::clone(&b5);
                async move { job_match(&s, owner, &b.0, &b.1).await }
            },
        ),
        tool(
            s,
            "check_evidence_fidelity",
            "What a cited achievement really says (claim, context, metrics). Pass the bullet \
             you wrote from it to see which of its numbers the achievement does not hold; revise \
             any bullet that claims more scope, seniority or numbers than this.",
            |s, owner, a: FidelityArgs| async move { check_evidence_fidelity(&s, owner, a).await },
        ),
        tool(
            s,
            "cv_page_count",
            "Renders the CV as its PDF and says how many pages it has (keep it to one or two).",
            move |_s, owner, _: NoArgs| {
                let b = Arc::clone(&b7);
                async move { cv_page_count(owner, &b.0, &b.1).await }
            },
        ),
    ]
}

fn cv_failure(tool: &str, e: CvError) -> String {
    match e {
        CvError::NotFound(_) => CV_GONE.to_owned(),
        CvError::Edit(e) => e.to_string(),
        CvError::Render(e) => internal(tool, e),
        CvError::Store(e) => internal(tool, e),
    }
}

async fn job_of(s: &Services, tool: &str, id: JobId) -> Result<Job, String> {
    let jobs = s.store.jobs_by_ids(&[id]).await.map_err(|e| internal(tool, e))?;
    jobs.into_iter().next().ok_or_else(|| JOB_GONE.to_owned())
}

/// `text` cut to at most `chars` characters, marked when cut.
fn clip_chars(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

async fn cv_context(
    s: &Services,
    owner: UserId,
    cvs: &Cvs,
    b: &CvBinding,
) -> Result<Value, String> {
    let job = job_of(s, "cv_context", b.job).await?;
    let cv = cvs.get(owner, b.cv).await.map_err(|e| cv_failure("cv_context", e))?;
    let markdown = describe::render(&job.posting.description, DescriptionFormat::Markdown);
    let reqs = requirements(&markdown);
    let texts: Vec<&str> = reqs.iter().map(|r| r.text.as_str()).collect();
    let evidence = match s.experience.search_many(owner, &texts, EVIDENCE_PER_REQUIREMENT).await {
        Ok(found) => found,
        Err(e) => {
            // A bank error is logged and read as no evidence (§10.6).
            tracing::warn!(session = %b.session, error = %e, "cv_context: the bank could not be read");
            vec![Vec::new(); reqs.len()]
        }
    };
    let text = CvText::new(&cv.state.document);
    let (mut have, mut gap, mut shown) = (Vec::new(), Vec::new(), Vec::new());
    for (req, atoms) in reqs.iter().zip(evidence) {
        let status = text.coverage(&req.text);
        let entry = json!({
            "text": req.text,
            "priority": req.priority,
            "status": status,
            "evidence": atoms.iter().map(|a| {
                let mut e = json!({
                    "id": a.id.to_string(),
                    "claim": a.draft.claim,
                    "can_write_cv": a.publishable(),
                });
                if a.draft.context.trim().is_empty() { e["needs_context"] = json!(true); }
                if a.draft.metrics.is_empty() { e["needs_metrics"] = json!(true); }
                e
            }).collect::<Vec<_>>(),
        });
        match (status, atoms.is_empty()) {
            (Shown::Shown, _) => shown.push(entry),
            (_, false) => have.push(entry),
            (_, true) => gap.push(entry),
        }
    }
    let score = analysis_of(&cv.state.document, &job, s.now().year()).map(|m| m.score);
    let verdict = match score {
        Some(n) if n >= 75 => "strong",
        Some(n) if n >= 50 => "partial",
        Some(_) => "weak",
        None => "unknown",
    };
    Ok(json!({
        "job": {
            "title": job.posting.title,
            "company": job.posting.company,
            "public_slug": job.public_slug.as_str(),
            "description": clip_chars(&markdown, TAILOR_DESCRIPTION_LIMIT),
        },
        "verdict": verdict,
        "overall_score": score,
        "missing_have": have,
        "missing_gap": gap,
        "already_shown": shown,
    }))
}

async fn cv_get(owner: UserId, cvs: &Cvs, b: &CvBinding) -> Result<Value, String> {
    let state = cvs.for_model(owner, b.cv).await.map_err(|e| cv_failure("cv_get", e))?;
    Ok(json!({
        "title": state.title,
        "template_id": state.template_id,
        "document": state.document,
    }))
}

/// The kind of one `cv_edit` op.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EditKind {
    /// Replace the value at `path`.
    Set,
    /// Insert `value` at `path`'s index (the list's length appends).
    Insert,
    /// Remove the item at `path`.
    Remove,
    /// Move the item at `path` to index `to` of the same list.
    Move,
}

/// One `cv_edit` op.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditOp {
    /// `set`, `insert`, `remove` or `move`.
    pub kind: EditKind,
    /// Where, 0-based: `summary`, `experience[0].bullets[2]`, `projects[1].summary`,
    /// `skills[0].items[3]` (see the tool description for every shape).
    pub path: String,
    /// The new value for `set` and `insert` (a string for a bullet).
    #[serde(default)]
    pub value: Option<Value>,
    /// The target index of a `move`, in the same list.
    #[serde(default)]
    pub to: Option<i64>,
    /// The id of the banked achievement this text comes from (needed for every claim).
    #[serde(default)]
    pub evidence_id: Option<IdArg>,
}

fn ops_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let mut schema = g.subschema_for::<Vec<EditOp>>();
    schema.insert(
        "description".into(),
        json!("The batch, all or nothing; each op cites its own evidence_id."),
    );
    schema
}

/// `cv_edit` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditArgs {
    /// The ops (an array; a JSON string holding the array is read too).
    #[schemars(schema_with = "ops_schema")]
    pub ops: Value,
    /// One sentence on why (stored with the revision).
    #[serde(default)]
    pub note: Option<String>,
    /// The vacancy requirement these edits close, copied from cv_context.
    #[serde(default)]
    pub requirement: Option<String>,
    /// `closed_bank` or `closed_candidate`, with `requirement`.
    #[serde(default)]
    pub requirement_status: Option<String>,
}

static CV_EDIT_DESCRIPTION: LazyLock<String> = LazyLock::new(|| {
    format!(
        "Edits the tailored CV with a batch of ops, all or nothing: one op that fails (an \
         uncited claim, an achievement the candidate has not confirmed, a contact field) \
         applies none. Only the result's `applied` count proves an edit landed. Each op is \
         {{kind, path, value?, to?, evidence_id?}}; indices are 0-based against the document \
         cv_get showed. Addressable paths: {}.",
        freehire_cv::paths().join(", ")
    )
});

/// The ops of `raw`: an array, or a string holding exactly one array.
fn decode_ops(raw: Value) -> Result<Vec<EditOp>, String> {
    let list = match raw {
        Value::String(text) => {
            let mut stream = serde_json::Deserializer::from_str(&text).into_iter::<Value>();
            let first = stream
                .next()
                .ok_or_else(|| "ops is empty: give at least one op".to_owned())?
                .map_err(|e| format!("ops is not a JSON array: {e}"))?;
            if stream.next().is_some() {
                return Err("ops holds more than one batch".to_owned());
            }
            first
        }
        other => other,
    };
    let Value::Array(items) = list else {
        return Err("ops must be an array of {kind, path, value?, to?, evidence_id?}".to_owned());
    };
    if items.is_empty() {
        return Err("ops is empty: give at least one op".to_owned());
    }
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| serde_json::from_value(item).map_err(|e| format!("edit {i}: {e}")))
        .collect()
}

/// The move target: `path` with its last index replaced by `to`.
fn moved(path: &str, to: i64) -> Option<String> {
    let open = path.rfind('[')?;
    path.ends_with(']').then(|| format!("{}[{to}]", &path[..open]))
}

/// One model op as a `cvedit` op.
fn to_op(i: usize, op: EditOp) -> Result<Op, String> {
    let path = Path::parse(op.path.trim()).map_err(|e| format!("edit {i}: {e}"))?;
    let evidence = match &op.evidence_id {
        None => None,
        Some(raw) => {
            let raw = raw.raw();
            if raw.is_empty() {
                None
            } else {
                Some(raw.parse::<AtomId>().map_err(|_| {
                    format!(
                        "edit {i}: evidence_id must be an achievement id from experience_search or cv_context, not {raw:?}"
                    )
                })?)
            }
        }
    };
    let value =
        |kind: &str| op.value.clone().ok_or_else(|| format!("edit {i}: a {kind} needs a value"));
    Ok(match op.kind {
        EditKind::Set => Op::Set { path, value: value("set")?, evidence },
        EditKind::Insert => Op::Insert { path, value: value("insert")?, evidence },
        EditKind::Remove => Op::Remove { path, evidence },
        EditKind::Move => {
            let to = op.to.ok_or_else(|| format!("edit {i}: a move needs `to`"))?;
            let target = moved(op.path.trim(), to)
                .ok_or_else(|| format!("edit {i}: a move's path must end in a list index"))?;
            let to = Path::parse(&target).map_err(|e| format!("edit {i}: {e}"))?;
            Op::Move { from: path, to, evidence }
        }
    })
}

async fn cv_edit(
    s: &Services,
    owner: UserId,
    cvs: &Cvs,
    b: &CvBinding,
    a: EditArgs,
) -> Result<Value, String> {
    let requirement = a.requirement.as_deref().map(str::trim).filter(|r| !r.is_empty());
    let status = match (requirement, a.requirement_status.as_deref().map(str::trim)) {
        (None, _) => None,
        (Some(_), Some(raw)) => match RequirementStatus::parse(raw) {
            Some(st) if st.is_closed() => Some(st),
            _ => None,
        }
        .map(Some)
        .ok_or_else(status_error)?,
        (Some(_), None) => return Err(status_error()),
    };
    let ops = decode_ops(a.ops)?
        .into_iter()
        .enumerate()
        .map(|(i, op)| to_op(i, op))
        .collect::<Result<Vec<_>, _>>()?;
    let ordered = order_against_original(&ops).map_err(|e| e.to_string())?;
    let note = a.note.as_deref().map(str::trim).filter(|n| !n.is_empty());
    let edited = match cvs.agent_edit(owner, b.cv, &ordered.ops, &b.batch, note, s.now()).await {
        Ok(edited) => edited,
        Err(CvError::Edit(e)) => return Err(ordered.renumber(e).to_string()),
        Err(e) => return Err(cv_failure("cv_edit", e)),
    };
    let applied: usize = edited.revisions.iter().map(|r| r.ops.len()).sum();
    if let (Some(requirement), Some(status), true) = (requirement, status, applied > 0) {
        let input = ReportItemInput {
            requirement: requirement.to_owned(),
            status: status.as_str().to_owned(),
            note: note.map(str::to_owned),
        };
        match ReportItem::from_input(0, &input) {
            Ok(item) => {
                if let Err(e) = s.store.merge_tailor_entry(owner, b.cv, &item).await {
                    tracing::warn!(session = %b.session, error = %e, "cv_edit: the report entry was not saved");
                }
            }
            Err(e) => {
                tracing::warn!(session = %b.session, error = %e, "cv_edit: report entry refused")
            }
        }
    }
    Ok(json!({
        "updated_at": s.now(),
        "applied": applied,
        "recorded_as": edited.revisions.last().map(|r| r.title.clone()),
    }))
}

fn status_error() -> String {
    "requirement_status must be \"closed_bank\" or \"closed_candidate\" when requirement is set"
        .to_owned()
}

/// `tailor_report` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportArgs {
    /// Every requirement, in the vacancy's order.
    pub items: Vec<ReportItemInput>,
}

async fn tailor_report(
    s: &Services,
    owner: UserId,
    b: &CvBinding,
    a: ReportArgs,
) -> Result<Value, String> {
    let report = TailorReport::from_items(&a.items).map_err(|e| e.to_string())?;
    let saved = s
        .store
        .set_tailor_report(owner, b.cv, &report)
        .await
        .map_err(|e| internal("tailor_report", e))?;
    if !saved {
        return Err(CV_GONE.to_owned());
    }
    Ok(json!({ "saved": report.items.len() }))
}

/// `request_confirmation` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfirmArgs {
    /// The claim, in the first person, exactly as the candidate would say it ("I led a team
    /// of five engineers"). Yes sends these words back as their message.
    pub claim: String,
    /// The question shown above the buttons.
    pub question: String,
}

fn request_confirmation(a: ConfirmArgs) -> Result<Value, String> {
    if a.claim.trim().is_empty() {
        return Err("claim is required: the exact sentence the candidate would confirm".to_owned());
    }
    if a.question.trim().is_empty() {
        return Err("question is required: what to ask the candidate".to_owned());
    }
    Ok(json!({ "status": AWAITING }))
}

async fn job_match(s: &Services, owner: UserId, cvs: &Cvs, b: &CvBinding) -> Result<Value, String> {
    let job = match job_of(s, "job_match", b.job).await {
        Ok(job) => job,
        Err(_) => {
            return Ok(
                json!({"available": false, "reason": "could not compute a score right now"}),
            );
        }
    };
    let cv = match cvs.get(owner, b.cv).await {
        Ok(cv) => cv,
        Err(CvError::NotFound(_)) => return Err(CV_GONE.to_owned()),
        Err(e) => {
            tracing::warn!(session = %b.session, error = %e, "job_match failed");
            return Ok(
                json!({"available": false, "reason": "could not compute a score right now"}),
            );
        }
    };
    match analysis_of(&cv.state.document, &job, s.now().year()) {
        Some(score) => Ok(json!({ "available": true, "score": score })),
        None => Ok(json!({
            "available": false,
            "reason": "nothing about this vacancy could be matched automatically",
        })),
    }
}

/// `check_evidence_fidelity` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FidelityArgs {
    /// The achievement id the bullet cites.
    pub evidence_id: IdArg,
    /// The bullet written from it, to compare its numbers.
    #[serde(default)]
    pub bullet: Option<String>,
}

/// The numbers of a text (`40%`, `2M`, `5`), normalised for comparison.
fn numbers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let flush = |current: &mut String, out: &mut Vec<String>| {
        let n = current.trim_end_matches(['.', ',']).replace(',', "");
        if !n.is_empty() && !out.contains(&n) {
            out.push(n);
        }
        current.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() || (!current.is_empty() && (c == '.' || c == ',')) {
            current.push(c);
        } else if !current.is_empty() {
            flush(&mut current, &mut out);
        }
    }
    if !current.is_empty() {
        flush(&mut current, &mut out);
    }
    out
}

async fn check_evidence_fidelity(
    s: &Services,
    owner: UserId,
    a: FidelityArgs,
) -> Result<Value, String> {
    let raw = a.evidence_id.raw();
    let id: AtomId = raw.parse().map_err(|_| {
        "evidence_id must be an achievement id from experience_search or cv_context".to_owned()
    })?;
    let atoms = s
        .experience
        .atoms_by_id(owner, &[id])
        .await
        .map_err(|e| internal("check_evidence_fidelity", e))?;
    let Some(atom) = atoms.into_iter().next() else {
        return Err(format!(
            "no banked achievement with id {raw} — check the evidence_id you cited"
        ));
    };
    let mut out = json!({
        "claim": atom.draft.claim,
        "context": atom.draft.context,
        "metrics": atom.draft.metrics,
        "can_write_cv": atom.publishable(),
    });
    if let Some(bullet) = a.bullet.as_deref().filter(|b| !b.trim().is_empty()) {
        let held: Vec<String> = numbers(&format!(
            "{} {} {}",
            atom.draft.claim,
            atom.draft.context,
            atom.draft.metrics.join(" ")
        ));
        let unsupported: Vec<String> =
            numbers(bullet).into_iter().filter(|n| !held.contains(n)).collect();
        out["unsupported_numbers"] = json!(unsupported);
        out["verdict"] = json!(if unsupported.is_empty() {
            "no number beyond the evidence"
        } else {
            "the bullet states numbers the evidence does not hold: revise it"
        });
    }
    Ok(out)
}

async fn cv_page_count(owner: UserId, cvs: &Cvs, b: &CvBinding) -> Result<Value, String> {
    match cvs.page_count(owner, b.cv).await {
        Ok(pages) => Ok(json!({ "available": true, "pages": pages })),
        Err(CvError::NotFound(_)) => Err(CV_GONE.to_owned()),
        Err(e) => {
            tracing::warn!(session = %b.session, error = %e, "cv_page_count: the render failed");
            Ok(json!({ "available": false, "reason": "the CV could not be rendered right now" }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ops_come_as_an_array_or_one_string() {
        let op = json!({"kind": "set", "path": "summary", "value": "x", "evidence_id": "3"});
        assert_eq!(decode_ops(json!([op.clone()])).unwrap().len(), 1);
        let text = serde_json::to_string(&json!([op])).unwrap();
        assert_eq!(decode_ops(Value::String(text.clone())).unwrap().len(), 1);
        let two = format!("{text} {text}");
        assert_eq!(decode_ops(Value::String(two)).unwrap_err(), "ops holds more than one batch");
        let e =
            decode_ops(json!([{"kind": "set", "path": "summary", "skill": "rust"}])).unwrap_err();
        assert!(e.contains("skill"), "{e}");
    }

    #[test]
    fn a_move_targets_the_same_list() {
        assert_eq!(
            moved("experience[0].bullets[3]", 0).as_deref(),
            Some("experience[0].bullets[0]")
        );
        assert_eq!(moved("summary", 1), None);
        let op = to_op(
            0,
            EditOp {
                kind: EditKind::Move,
                path: "experience[0].bullets[2]".into(),
                value: None,
                to: Some(0),
                evidence_id: None,
            },
        )
        .unwrap();
        assert!(matches!(op, Op::Move { .. }));
    }

    #[test]
    fn a_bad_evidence_id_names_where_ids_come_from() {
        let e = to_op(
            1,
            EditOp {
                kind: EditKind::Set,
                path: "summary".into(),
                value: Some(json!("x")),
                to: None,
                evidence_id: Some(IdArg::Text("not-an-id".into())),
            },
        )
        .unwrap_err();
        assert!(e.starts_with("edit 1: evidence_id must be an achievement id"), "{e}");
    }

    #[test]
    fn numbers_are_compared_as_written() {
        assert_eq!(numbers("Cut costs 40% across 3 teams, 1,200 users."), ["40", "3", "1200"]);
        assert!(numbers("no digits").is_empty());
    }

    #[test]
    fn a_confirmation_needs_a_claim() {
        let empty = ConfirmArgs { claim: "  ".into(), question: "Did you?".into() };
        assert!(request_confirmation(empty).unwrap_err().starts_with("claim is required"));
        let ok = ConfirmArgs { claim: "I led a team".into(), question: "Did you?".into() };
        assert_eq!(request_confirmation(ok).unwrap()["status"], AWAITING);
    }
}

/// `cv_get` arguments when no CV is bound (the MCP server): which of the caller's CVs.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct CvIdArgs {
    /// The CV's id, from `cv_list`.
    pub id: IdArg,
}

/// The CV tools of a caller with no tailoring session (the MCP server): `cv_list`, the
/// caller's CVs, and `cv_get`, one of them by id as the tailoring `cv_get` reads it (without
/// contact details). Another user's CV reads as a missing one.
pub(crate) fn read_tools(s: &Arc<Services>, cvs: &Cvs) -> Vec<Arc<dyn Tool<UserId>>> {
    let (list, get) = (cvs.clone(), cvs.clone());
    vec![
        tool(
            s,
            "cv_list",
            "The candidate's CVs, newest change first: {cvs: [{id, kind (base or tailored), \
             title, template_id, job (the vacancy's public_slug of a tailored copy), \
             updated_at}]}.",
            move |s, owner, _: NoArgs| {
                let cvs = list.clone();
                async move { cv_list(&s, owner, &cvs).await }
            },
        ),
        tool(
            s,
            "cv_get",
            "One of the candidate's CVs by its id from cv_list: title, template_id and the \
             document, without contact details.",
            move |_s, owner, a: CvIdArgs| {
                let cvs = get.clone();
                async move {
                    let raw = a.id.raw();
                    let unknown = || format!("no CV with id {raw:?}: use an id from cv_list");
                    let id: CvId = raw.parse().map_err(|_| unknown())?;
                    let state = match cvs.for_model(owner, id).await {
                        Err(CvError::NotFound(_)) => return Err(unknown()),
                        other => other.map_err(|e| cv_failure("cv_get", e))?,
                    };
                    Ok::<_, String>(json!({
                        "id": id.to_string(),
                        "title": state.title,
                        "template_id": state.template_id,
                        "document": state.document,
                    }))
                }
            },
        ),
    ]
}

async fn cv_list(s: &Services, owner: UserId, cvs: &Cvs) -> Result<Value, String> {
    let mut all = cvs.list(owner).await.map_err(|e| cv_failure("cv_list", e))?;
    all.sort_by_key(|cv| std::cmp::Reverse(cv.updated_at));
    let job_ids: Vec<JobId> = all.iter().filter_map(|cv| cv.job_id).collect();
    let jobs = s.store.jobs_by_ids(&job_ids).await.map_err(|e| internal("cv_list", e))?;
    let slug_of =
        |id: JobId| jobs.iter().find(|j| j.id == id).map(|j| j.public_slug.as_str().to_owned());
    let listed: Vec<Value> = all
        .iter()
        .map(|cv| {
            json!({
                "id": cv.id.to_string(),
                "kind": cv.kind.as_str(),
                "title": cv.state.title,
                "template_id": cv.state.template_id,
                "job": cv.job_id.and_then(slug_of),
                "updated_at": cv.updated_at,
            })
        })
        .collect();
    Ok(json!({ "cvs": listed }))
}
