//! The MCP server's tools (issue 17, reference search-ingest §10.2): the assistant's own tool
//! catalogue offered to MCP clients under the MCP vocabulary, one implementation per tool.
//!
//! | caller | tools |
//! |---|---|
//! | anyone | `facets`, `search`, `job`, `company`, `market_fit` (read-only) |
//! | an API key of either scope | + `whoami`, `cv_list`, `cv_get`, `experience_search`, `experience_get`, `experience_employments`, `experience_add` |
//! | a `full` key | + `save`, `unsave`, `apply`, `stage`, `note`, `my_jobs` |
//!
//! `search` is `search_jobs`, `job` `get_job`, `company` `get_company`, `save`/`unsave`/`apply`
//! `save_job`/`unsave_job`/`apply_job` ([`renamed`]); `stage` and `note` are `track_job`'s two
//! halves. An application recorded here is the candidate's own (`EventSource::User`), as
//! through the HTTP routes. What the tools act on is the key's owner, never an argument, so
//! another user's job, application or CV is "not found". Arguments are decoded strictly
//! (unknown fields are refused by name) and a failure is the tool's `{"error": …}`, as the
//! model reads it. `experience_add` banks an achievement as the client's reading
//! (`agent_inferred`): with no transcript to quote, nothing an MCP client writes is citable in a
//! CV until the candidate confirms it on freehire. Editing CVs and confirming claims stay with
//! the assistant's sessions and the candidate's own pages.

use std::sync::Arc;

use freehire_domain::{ApiKeyScope, EventSource, UserId};
use freehire_tools::{CallContext, CallResult, NoArgs, Owner, Registry, Tool, renamed};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::{Services, ToolDeps, cv, discovery, experience, internal, tool, tracking};
use crate::assistant::ASSISTANT_RESULT_CAP;

/// Who calls: nobody in particular, or an API key's owner with its scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McpCaller {
    /// No key: the public tools only.
    Anonymous,
    /// A valid API key.
    Key {
        /// Its owner.
        user: UserId,
        /// Its scope.
        scope: ApiKeyScope,
    },
}

/// How a tool behaves, as MCP's annotations hint it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hints {
    /// It changes nothing.
    pub read_only: bool,
    /// It may remove or overwrite something (meaningful when not read-only).
    pub destructive: bool,
    /// Calling it again with the same arguments changes nothing more.
    pub idempotent: bool,
}

const READ: Hints = Hints { read_only: true, destructive: false, idempotent: true };
const ADD: Hints = Hints { read_only: false, destructive: false, idempotent: true };
const CHANGE: Hints = Hints { read_only: false, destructive: true, idempotent: true };
const APPEND: Hints = Hints { read_only: false, destructive: false, idempotent: false };

/// The hints of a tool by its MCP name (read-only unless listed).
fn hints(name: &str) -> Hints {
    match name {
        "save" | "apply" => ADD,
        "experience_add" => APPEND,
        "unsave" | "stage" => CHANGE,
        "note" => APPEND,
        _ => READ,
    }
}

/// One tool as the MCP server lists it.
#[derive(Debug, Clone)]
pub struct McpTool {
    /// Its name.
    pub name: String,
    /// What it does, for the client's model.
    pub description: String,
    /// The JSON Schema of its arguments (strict: `additionalProperties: false`).
    pub schema: Value,
    /// Its annotations.
    pub hints: Hints,
}

/// A caller's tools: what `tools/list` shows and `tools/call` runs.
pub struct McpTools {
    registry: Tools,
}

enum Tools {
    Public(Registry<()>),
    Signed(UserId, Registry<UserId>),
}

/// The MCP names of the public tools and the catalogue's tool behind each.
const PUBLIC: [(&str, &str); 5] = [
    ("facets", "facets"),
    ("search", "search_jobs"),
    ("job", "get_job"),
    ("company", "get_company"),
    ("market_fit", "market_fit"),
];

/// The public tools under their MCP names.
fn public<O: Owner>(s: &Arc<Services>) -> Vec<Arc<dyn Tool<O>>> {
    discovery::public_tools::<O>(s)
        .into_iter()
        .map(|t| {
            let name = PUBLIC.iter().find(|(_, inner)| *inner == t.name()).map_or("", |(n, _)| n);
            renamed(t, name)
        })
        .collect()
}

impl McpTools {
    /// The tools `caller` may use (see the module docs).
    pub fn for_caller(deps: &ToolDeps, caller: McpCaller) -> Self {
        let s = Arc::new(Services::with_source(deps, EventSource::User));
        let registry = match caller {
            McpCaller::Anonymous => Tools::Public(
                Registry::new(public::<()>(&s)).with_max_result_bytes(ASSISTANT_RESULT_CAP),
            ),
            McpCaller::Key { user, scope } => {
                let mut tools = public::<UserId>(&s);
                tools.push(whoami(&s, scope));
                if scope == ApiKeyScope::Full {
                    tools.extend(tracking_tools(&s));
                }
                if let Some(cvs) = &deps.cvs {
                    tools.extend(cv::read_tools(&s, cvs));
                }
                tools.extend(experience::read_tools(&s));
                tools.push(experience::mcp_add_tool(&s));
                let registry = Registry::new(tools).with_max_result_bytes(ASSISTANT_RESULT_CAP);
                Tools::Signed(user, registry)
            }
        };
        Self { registry }
    }

    /// The tools, in a fixed order.
    pub fn list(&self) -> Vec<McpTool> {
        let specs = match &self.registry {
            Tools::Public(r) => r.definitions(),
            Tools::Signed(_, r) => r.definitions(),
        };
        specs
            .into_iter()
            .map(|spec| McpTool {
                hints: hints(&spec.name),
                name: spec.name,
                description: spec.description,
                schema: spec.parameters,
            })
            .collect()
    }

    /// Whether a tool of that name is offered.
    pub fn has(&self, name: &str) -> bool {
        match &self.registry {
            Tools::Public(r) => r.names().contains(&name),
            Tools::Signed(_, r) => r.names().contains(&name),
        }
    }

    /// Runs one tool: never fails (see [`Registry::call`]); `cancel` stops it.
    pub async fn call(&self, name: &str, args: &str, cancel: CancellationToken) -> CallResult {
        let ctx = CallContext::new(cancel);
        match &self.registry {
            Tools::Public(r) => r.call(&ctx, &(), name, args).await,
            Tools::Signed(user, r) => r.call(&ctx, user, name, args).await,
        }
    }
}

/// `save`, `unsave`, `apply`, `stage`, `note`, `my_jobs`.
fn tracking_tools(s: &Arc<Services>) -> Vec<Arc<dyn Tool<UserId>>> {
    let names = [("save_job", "save"), ("unsave_job", "unsave"), ("apply_job", "apply")];
    let mut out = Vec::new();
    let mut my_jobs = None;
    for t in tracking::tools(s) {
        if let Some((_, to)) = names.iter().find(|(from, _)| *from == t.name()) {
            out.push(renamed(t, *to));
        } else if t.name() == "my_jobs" {
            my_jobs = Some(t);
        }
    }
    out.extend(tracking::stage_and_note(s));
    out.extend(my_jobs);
    out
}

/// `whoami`: the key's account (id, email, name, language) and the key's scope.
fn whoami(s: &Arc<Services>, scope: ApiKeyScope) -> Arc<dyn Tool<UserId>> {
    tool(
        s,
        "whoami",
        "The account this API key acts for (id, email, username, language) and the key's scope \
         (`full`: tracking, CVs and the bank; `cv`: CVs and the bank only).",
        move |s, owner, _: NoArgs| async move {
            let user = s.store.user_by_id(owner).await.map_err(|e| internal("whoami", e))?;
            let user = user.ok_or_else(|| "this API key's account no longer exists".to_owned())?;
            Ok::<_, String>(json!({
                "id": user.id.to_string(),
                "email": user.email.as_str(),
                "username": user.username.as_ref().map(|u| u.as_str()),
                "language": user.language.as_str(),
                "scope": scope.as_str(),
            }))
        },
    )
}
