//! Experience-bank tools (reference assistant.md §10.4): `experience_search`,
//! `experience_get`, `experience_employments`, `experience_add`, `experience_update`,
//! `experience_merge`, `experience_set_require_context`, over
//! [`Experience`](crate::experience::Experience) as the `/me/experience` routes call it, for
//! the session's owner only.
//!
//! **Authorship** ([`author_for`]): an add (or an update that changes the claim, context or
//! metrics) is the candidate's own statement (`stated_in_chat`) only when `said` is a verbatim
//! quote of theirs in this session's transcript ([`user_said`], with the negation guard) and
//! that quote contains every content word and number of the recorded claim and metrics
//! ([`quote_backs`], beyond the reference). Anything else, a failed transcript read included,
//! is the assistant's reading (`agent_inferred`), which no CV may cite until the candidate
//! confirms it. The model cannot send a provenance: the arguments refuse unknown fields.
//!
//! Ids are the bank's numeric ids as strings or numbers; another user's id reads exactly like
//! a deleted one.

use std::sync::Arc;

use freehire_assistant::SessionId;
use freehire_assistant::message::user_text;
use freehire_domain::experience::{format_range, quote_backs};
use freehire_domain::{
    Atom, AtomDraft, AtomId, Author, Employment, EmploymentId, EmploymentKind, Utterance, user_said,
};
use freehire_tools::{NoArgs, Tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{Services, internal, tool};
use crate::experience::{AddMode, Added, AtomPatch, ExperienceError};

/// At most this many atoms per `experience_search`.
pub const SEARCH_LIMIT: usize = 8;
/// At most this many atoms per `experience_get`.
pub const READ_LIMIT: usize = 8;

/// What the model is told when an atom is recorded as its own reading.
pub const CONFIRM_NEXT: &str = "Recorded as your own reading, not the candidate's statement, \
    because no verbatim quote from their messages backed it. Ask them to confirm it before \
    writing it into a CV.";

pub(super) fn tools(
    s: &Arc<Services>,
    session: SessionId,
) -> Vec<Arc<dyn Tool<freehire_domain::UserId>>> {
    let mut tools = read_tools(s);
    tools.extend(write_tools(s, session));
    tools
}

/// The tools that only read the bank: `experience_search`, `experience_get`,
/// `experience_employments` (no session needed: the MCP server offers them too).
pub(crate) fn read_tools(s: &Arc<Services>) -> Vec<Arc<dyn Tool<freehire_domain::UserId>>> {
    vec![
        tool(
            s,
            "experience_search",
            "Finds the candidate's banked achievements by text and/or canonical skills (no ids). \
             Returns {evidence: [achievement…]}; an empty list is a real answer.",
            search,
        ),
        tool(
            s,
            "experience_get",
            "Reads achievements by id (at most 8 per call). Returns {achievements, unresolved?, \
             unread?}.",
            get,
        ),
        tool(
            s,
            "experience_employments",
            "The candidate's roles and projects, current first. Jobs carry `company`, projects \
             `name` and `link`.",
            employments,
        ),
    ]
}

/// The tools that write the bank, `add` and `update` bound to `session`'s transcript.
fn write_tools(
    s: &Arc<Services>,
    session: SessionId,
) -> Vec<Arc<dyn Tool<freehire_domain::UserId>>> {
    vec![
        tool(
            s,
            "experience_add",
            "Banks one achievement. Put the candidate's verbatim words in `said`: only a quote \
             they wrote, containing every word and number of the claim, makes it citable in a CV.",
            move |s, owner, a: AddArgs| add(s, owner, Some(session), a),
        ),
        tool(
            s,
            "experience_update",
            "Changes an achievement you have read. Absent fields stay; `metrics` and `skills` \
             replace the whole list. Changing the claim, context or metrics without a backing \
             `said` quote makes it the assistant's reading again.",
            move |s, owner, a: UpdateArgs| update(s, owner, session, a),
        ),
        tool(
            s,
            "experience_merge",
            "Merges two achievements of the same role into the richer one. Read and show both \
             first, and ask. Returns {kept, deleted_id}.",
            merge,
        ),
        tool(
            s,
            "experience_set_require_context",
            "Turns on or off the candidate's preference that every new achievement carry its \
             context. Only after they agree.",
            set_require_context,
        ),
    ]
}

/// The one shape of an achievement the model reads.
#[derive(Debug, Serialize)]
pub struct AtomEntry {
    pub id: String,
    pub claim: String,
    pub skills: Vec<String>,
    /// Whether the candidate stated it (a CV may cite it).
    pub confirmed: bool,
    /// The same: whether `cv_edit` may cite it.
    pub can_write_cv: bool,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub context: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<String>,
}

impl AtomEntry {
    /// The entry of `atom`, with its employment's role, place and period when it has one.
    pub fn new(atom: &Atom, employments: &[Employment]) -> Self {
        let employment =
            atom.draft.employment_id.and_then(|id| employments.iter().find(|e| e.id == id));
        let (mut role, mut company, mut name, mut period) = (None, None, None, None);
        if let Some(e) = employment {
            role = Some(e.draft.role.clone());
            match e.draft.kind {
                EmploymentKind::Job => company = Some(e.draft.company.clone()),
                EmploymentKind::Project => name = Some(e.draft.company.clone()),
            }
            period = format_range(e.draft.start, e.draft.end, e.draft.current);
        }
        Self {
            id: atom.id.to_string(),
            claim: atom.draft.claim.clone(),
            skills: atom.draft.skills.clone(),
            confirmed: atom.publishable(),
            can_write_cv: atom.publishable(),
            context: atom.draft.context.clone(),
            metrics: atom.draft.metrics.clone(),
            role,
            company,
            name,
            period,
        }
    }
}

/// What an add or update returns.
#[derive(Debug, Serialize)]
pub struct AddResult {
    pub id: String,
    pub claim: String,
    pub skills: Vec<String>,
    pub can_write_cv: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<&'static str>,
}

impl AddResult {
    fn new(atom: &Atom) -> Self {
        Self {
            id: atom.id.to_string(),
            claim: atom.draft.claim.clone(),
            skills: atom.draft.skills.clone(),
            can_write_cv: atom.publishable(),
            next: (!atom.publishable()).then_some(CONFIRM_NEXT),
        }
    }
}

/// An id as the model may send it: a string or a number.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum IdArg {
    Text(String),
    Number(i64),
}

impl IdArg {
    pub(crate) fn raw(&self) -> String {
        match self {
            IdArg::Text(s) => s.trim().to_owned(),
            IdArg::Number(n) => n.to_string(),
        }
    }
}

fn failure(tool: &str, e: ExperienceError) -> String {
    match e {
        ExperienceError::Store(e) => internal(tool, e),
        other => other.to_string(),
    }
}

/// `experience_search` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchArgs {
    /// Words to match against the claims and their context (not an id).
    pub query: Option<String>,
    /// Canonical skill slugs.
    pub skills: Option<Vec<String>>,
}

async fn search(
    s: Arc<Services>,
    owner: freehire_domain::UserId,
    a: SearchArgs,
) -> Result<Value, String> {
    let text = a.query.as_deref().map(str::trim).unwrap_or_default();
    let skills = a.skills.unwrap_or_default();
    if text.is_empty() && skills.iter().all(|x| x.trim().is_empty()) {
        return Err("give a query, a skill list, or both".to_owned());
    }
    let found = s.experience.search(owner, text, &skills, SEARCH_LIMIT).await;
    let found = found.map_err(|e| failure("experience_search", e))?;
    let employments =
        s.experience.employments(owner).await.map_err(|e| failure("experience_search", e))?;
    let evidence: Vec<AtomEntry> =
        found.iter().map(|(a, _)| AtomEntry::new(a, &employments)).collect();
    Ok(json!({ "evidence": evidence }))
}

/// `experience_get` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct GetArgs {
    /// Achievement ids, from the opening message, `get_profile`'s soft_duplicate_clusters or
    /// `experience_search`.
    #[schemars(length(min = 1))]
    pub ids: Vec<IdArg>,
}

async fn get(
    s: Arc<Services>,
    owner: freehire_domain::UserId,
    a: GetArgs,
) -> Result<Value, String> {
    let mut asked: Vec<String> = Vec::new();
    for raw in a.ids.iter().map(IdArg::raw).filter(|r| !r.is_empty()) {
        if !asked.contains(&raw) {
            asked.push(raw);
        }
    }
    if asked.is_empty() {
        return Err("give at least one achievement id, from the opening message, get_profile's \
                    soft_duplicate_clusters, or experience_search"
            .to_owned());
    }
    let unread: Vec<String> = asked.split_off(asked.len().min(READ_LIMIT));
    let parsed: Vec<(String, Option<AtomId>)> = asked
        .into_iter()
        .map(|r| {
            let id = r.parse().ok();
            (r, id)
        })
        .collect();
    let ids: Vec<AtomId> = parsed.iter().filter_map(|(_, id)| *id).collect();
    let atoms =
        s.experience.atoms_by_id(owner, &ids).await.map_err(|e| failure("experience_get", e))?;
    let employments =
        s.experience.employments(owner).await.map_err(|e| failure("experience_get", e))?;
    let mut achievements = Vec::new();
    let mut unresolved = Vec::new();
    for (raw, id) in parsed {
        match id.and_then(|id| atoms.iter().find(|a| a.id == id)) {
            Some(atom) => achievements.push(AtomEntry::new(atom, &employments)),
            None => unresolved.push(raw),
        }
    }
    let mut out = json!({ "achievements": achievements });
    if !unresolved.is_empty() {
        out["unresolved"] = json!(unresolved);
        out["unresolved_note"] = json!(
            "these may have been merged away or deleted: do not ask the candidate about them; use experience_search to find what they hold now"
        );
    }
    if !unread.is_empty() {
        out["unread"] = json!(unread);
        out["unread_note"] = json!(format!(
            "one call reads at most {READ_LIMIT}; call experience_get again with these"
        ));
    }
    Ok(out)
}

async fn employments(
    s: Arc<Services>,
    owner: freehire_domain::UserId,
    _: NoArgs,
) -> Result<Value, String> {
    let list =
        s.experience.employments(owner).await.map_err(|e| failure("experience_employments", e))?;
    let out: Vec<Value> = list.iter().map(employment_entry).collect();
    Ok(json!({ "employments": out }))
}

/// An employment as the model reads it: its id and the kind-aware fields.
pub fn employment_entry(e: &Employment) -> Value {
    let mut v = serde_json::to_value(&e.draft).unwrap_or(Value::Null);
    v["id"] = json!(e.id.to_string());
    if let Some(p) = format_range(e.draft.start, e.draft.end, e.draft.current) {
        v["period"] = json!(p);
    }
    v
}

/// Who wrote what `said` backs: the candidate when it is their verbatim, unnegated quote in
/// this session that contains the recorded claim and metrics; the assistant otherwise (a
/// transcript that cannot be read fails closed).
pub(crate) async fn author_for(
    s: &Services,
    owner: freehire_domain::UserId,
    session: SessionId,
    said: Option<&str>,
    claim: &str,
    metrics: &[String],
) -> Author {
    let Some(said) = said.map(str::trim).filter(|x| !x.is_empty()) else { return Author::Agent };
    let messages = match s.store.session_messages(session, owner, None).await {
        Ok(Some(m)) => m,
        Ok(None) => return Author::Agent,
        Err(e) => {
            tracing::warn!(error = %e, "experience: transcript read failed; recording as the assistant's reading");
            return Author::Agent;
        }
    };
    let texts: Vec<String> = messages.iter().filter_map(user_text).collect();
    if user_said(texts.iter().map(|t| Utterance::user(t)), said)
        && quote_backs(said, claim, metrics)
    {
        Author::Quoted
    } else {
        Author::Agent
    }
}

/// `experience_add` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddArgs {
    /// The achievement, one sentence.
    pub claim: String,
    /// What made it hard or what it changed.
    pub context: Option<String>,
    /// Its figures ("p99 20s → 1s").
    pub metrics: Option<Vec<String>>,
    /// Canonical skill slugs.
    pub skills: Option<Vec<String>>,
    /// The role it happened in, from `experience_employments`; leave out when none fits.
    pub employment_id: Option<IdArg>,
    /// The candidate's verbatim words that state it, copied from their message.
    pub said: Option<String>,
}

/// `experience_add` arguments over MCP: there is no transcript to quote.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct McpAddArgs {
    /// The achievement, one sentence.
    pub claim: String,
    /// What made it hard or what it changed.
    pub context: Option<String>,
    /// Its figures ("p99 20s → 1s").
    pub metrics: Option<Vec<String>>,
    /// Canonical skill slugs.
    pub skills: Option<Vec<String>>,
    /// The role it happened in, from `experience_employments`; leave out when none fits.
    pub employment_id: Option<IdArg>,
}

/// `experience_add` for the MCP server: the achievement is banked as the client's reading
/// (`agent_inferred`), which no CV may cite until the candidate confirms it on freehire.
pub(crate) fn mcp_add_tool(s: &Arc<Services>) -> Arc<dyn Tool<freehire_domain::UserId>> {
    tool(
        s,
        "experience_add",
        "Banks one achievement of the candidate's. It is recorded as your reading, not their \
         statement: no CV cites it until they confirm it on freehire's experience page \
         (/experience). Returns the achievement with `can_write_cv: false`.",
        |s, owner, a: McpAddArgs| {
            let a = AddArgs {
                claim: a.claim,
                context: a.context,
                metrics: a.metrics,
                skills: a.skills,
                employment_id: a.employment_id,
                said: None,
            };
            add(s, owner, None, a)
        },
    )
}

/// The employment an argument names, or the error listing the owner's roles.
async fn resolve_employment(
    s: &Services,
    owner: freehire_domain::UserId,
    raw: Option<&IdArg>,
) -> Result<Option<EmploymentId>, String> {
    let Some(raw) = raw.map(IdArg::raw).filter(|r| !r.is_empty()) else { return Ok(None) };
    let list = s.experience.employments(owner).await.map_err(|e| failure("experience_add", e))?;
    if let Ok(id) = raw.parse::<EmploymentId>()
        && list.iter().any(|e| e.id == id)
    {
        return Ok(Some(id));
    }
    if list.is_empty() {
        return Err(
            "this candidate has no roles on file yet, so employment_id must be left out — \
                    record the achievement without one"
                .to_owned(),
        );
    }
    let roles: Vec<String> = list
        .iter()
        .map(|e| format!("{} = {} {}", e.id, e.draft.company, e.draft.role).trim_end().to_owned())
        .collect();
    Err(format!(
        "employment_id must be one of this candidate's roles: {}. Leave it out if none of them \
         is where this happened.",
        roles.join("; ")
    ))
}

async fn add(
    s: Arc<Services>,
    owner: freehire_domain::UserId,
    session: Option<SessionId>,
    a: AddArgs,
) -> Result<Value, String> {
    let employment_id = resolve_employment(&s, owner, a.employment_id.as_ref()).await?;
    let draft = AtomDraft {
        employment_id,
        claim: a.claim,
        context: a.context.unwrap_or_default(),
        metrics: a.metrics.unwrap_or_default(),
        skills: a.skills.unwrap_or_default(),
        source_ref: session.map_or_else(|| "mcp".to_owned(), |s| format!("session:{s}")),
    };
    // Without a session there is no transcript to quote: an MCP client's addition is its own
    // reading until the candidate confirms it.
    let author = match session {
        Some(session) => {
            author_for(&s, owner, session, a.said.as_deref(), &draft.claim, &draft.metrics).await
        }
        None => Author::Agent,
    };
    let added =
        s.experience.add_atom(owner, draft.clone(), author, AddMode::Interactive, s.now()).await;
    match added.map_err(|e| failure("experience_add", e))? {
        Added::Inserted(atom) | Added::Upgraded(atom) => {
            serde_json::to_value(AddResult::new(&atom)).map_err(|e| internal("experience_add", e))
        }
        Added::AlreadyBanked(id) => {
            Ok(json!({ "already_banked": true, "id": id.to_string(), "claim": draft.claim }))
        }
    }
}

/// `experience_update` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateArgs {
    /// The achievement's id, from `experience_search` or `experience_get`.
    pub id: IdArg,
    /// A new claim.
    pub claim: Option<String>,
    /// A new context.
    pub context: Option<String>,
    /// The whole new list of metrics.
    pub metrics: Option<Vec<String>>,
    /// The whole new list of skills.
    pub skills: Option<Vec<String>>,
    /// A new role, from `experience_employments`.
    pub employment_id: Option<IdArg>,
    /// The candidate's verbatim words backing a changed claim, context or metrics.
    pub said: Option<String>,
}

async fn update(
    s: Arc<Services>,
    owner: freehire_domain::UserId,
    session: SessionId,
    a: UpdateArgs,
) -> Result<Value, String> {
    let id: AtomId =
        a.id.raw()
            .parse()
            .map_err(|_| "id must be an atom id from experience_search".to_owned())?;
    let current =
        s.experience.atom(owner, id).await.map_err(|e| failure("experience_update", e))?;
    let employment_id =
        match &a.employment_id {
            Some(raw) => Some(resolve_employment(&s, owner, Some(raw)).await.map_err(|_| {
                "employment_id must be an id from experience_employments".to_owned()
            })?),
            None => None,
        };
    let patch = AtomPatch {
        claim: a.claim,
        context: a.context,
        metrics: a.metrics,
        skills: a.skills,
        employment_id,
    };
    let author = if patch.changes_text() {
        let claim = patch.claim.as_deref().unwrap_or(&current.draft.claim);
        let metrics = patch.metrics.as_deref().unwrap_or(&current.draft.metrics);
        author_for(&s, owner, session, a.said.as_deref(), claim, metrics).await
    } else {
        Author::Rewrite
    };
    let atom = s.experience.update_atom(owner, id, patch, author, s.now()).await;
    let atom = atom.map_err(|e| failure("experience_update", e))?;
    serde_json::to_value(AddResult::new(&atom)).map_err(|e| internal("experience_update", e))
}

/// `experience_merge` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct MergeArgs {
    /// Exactly two achievement ids of the same role.
    #[schemars(length(min = 2, max = 2))]
    pub ids: Vec<IdArg>,
}

async fn merge(
    s: Arc<Services>,
    owner: freehire_domain::UserId,
    a: MergeArgs,
) -> Result<Value, String> {
    let [x, y] = a.ids.as_slice() else {
        return Err(format!("give exactly 2 achievement ids to merge, not {}", a.ids.len()));
    };
    let parse = |i: &IdArg| {
        let raw = i.raw();
        raw.parse::<AtomId>()
            .map_err(|_| format!("{raw:?} is not an achievement id from experience_search"))
    };
    let (x, y) = (parse(x)?, parse(y)?);
    let merged = s
        .experience
        .merge_atoms(owner, x, y, s.now())
        .await
        .map_err(|e| failure("experience_merge", e))?;
    Ok(json!({ "kept": AddResult::new(&merged.kept), "deleted_id": merged.deleted.to_string() }))
}

/// `experience_set_require_context` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct RequireContextArgs {
    /// On or off.
    pub enabled: bool,
}

async fn set_require_context(
    s: Arc<Services>,
    owner: freehire_domain::UserId,
    a: RequireContextArgs,
) -> Result<Value, String> {
    let on = s.experience.set_require_context(owner, a.enabled).await;
    let on = on.map_err(|e| failure("experience_set_require_context", e))?;
    Ok(json!({ "require_context": on }))
}
