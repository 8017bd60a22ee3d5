//! [`AssistantService`]: the assistant as an application service (reference §2, §8 without
//! the HTTP): sessions, their transcripts and streamed turns. The API's assistant routes and
//! the web page call it; it knows no HTTP types.
//!
//! # Sessions
//!
//! [`AssistantService::create`] takes the preset from a string: `chat` (also for `""`),
//! `profile`, `browse`, `interview` or `debrief`; `tailor` and anything else are refused
//! naming the allowed ones (a tailoring session is created from its CV). Interview and
//! debrief sessions need the public slug of a job the caller holds (saved or applied): the
//! session is bound to it and labelled `Interview: <title> · <company>` (or `Debrief: …`).
//! [`list`](AssistantService::list) is the rail, [`get`](AssistantService::get) a session
//! with its whole transcript, [`delete`](AssistantService::delete) removes it (and stops its
//! turn). Another user's session is [`ServiceError::NotFound`] everywhere, exactly like a
//! missing one.
//!
//! # Turns
//!
//! [`send`](AssistantService::send) (a message), [`retry`](AssistantService::retry) and
//! [`open`](AssistantService::open) (the interview and debrief opening briefs, §9.5) all
//! follow §8.6, in this order, every refusal before anything is streamed:
//!
//! 1. ownership (not found), then the model (none configured: [`ServiceError::Unavailable`]);
//! 2. the request's own rules: the trimmed text is required and at most
//!    [`AssistantConfig::max_prompt`] characters; a retry needs a last user message with
//!    text; an opening needs an interview or debrief session bound to a job that has no
//!    assistant message yet;
//! 3. the effective preset (`browse` is `chat`: freehire has no extension bearer yet), the
//!    registry and system prompt of [`compose_session`] in the account's language, and the
//!    model bound to the caller ([`AssistantModel::bind`]: a per-user gateway key may be
//!    minted here);
//! 4. the session's turn lock ([`TurnLocks`]): a third message is
//!    [`ServiceError::QueueFull`] (nothing was charged);
//! 5. metering ([`Plans::meter_turn`], [`Plans::meter_retry`] for a retry):
//!    [`ServiceError::Refused`] carries the 402 body and gives the claim back. The claim
//!    comes first (the reference meters first) so that a message queued behind a running
//!    turn counts that turn: two messages sent at once are two charges under
//!    `#turn-<n>` and `#turn-<n+1>`, never one reference twice (when the running turn's
//!    prompt was already stored the queued one's number skips one; it is still one charge);
//! 6. the turn is spawned on its own task with a fresh cancellation token ([`launch`]):
//!    queued behind a running turn it emits `queued` and waits up to
//!    [`AssistantConfig::queue_wait`]; the charge is released when it fails or the wait
//!    runs out. The caller gets [`TurnEvents`], which end with exactly one `result`;
//!    dropping them does not stop the turn, only [`cancel`](AssistantService::cancel) does.
//!
//! [`tailor`] holds the tailoring sessions: [`AssistantService::tailor`] (start or resume one
//! for a vacancy), [`AssistantService::autopilot`] and [`AssistantService::extend`].
//!
//! Every turn's [`TurnConfig`] carries the preset's spend tags ([`spend_tags`]) and the
//! step bounds of §6.2 ([`turn_bounds`]).

pub mod launch;
pub mod tailor;

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use freehire_assistant::{
    AssistantError, HistoryLimit, Message, Role, Runner, RunnerConfig, SessionId, StepLimit,
    TURN_QUEUE_WAIT, TranscriptStore, TurnConfig,
};
use freehire_domain::{JobId, PublicSlug, User, UserId};
use freehire_store::{AssistantSession, NewSession, Store, StoreError, Transcripts};
use tokio_util::sync::CancellationToken;

pub use launch::{EVENT_BUFFER, Launch, Release, Start, TurnEvents, TurnInput, launch};
pub use tailor::{NO_BASE_CV, NOT_EXTENDABLE, NOT_TAILORING, Tailored, Workspace};

use super::model::{AssistantModel, spend_tags};
use super::tools::{Binding, ToolDeps};
use super::turns::{Claim, TurnLockError, TurnLocks};
use super::{AUTOPILOT_MAX_STEPS, Preset, TAILOR_MAX_STEPS, compose_session, normalize_preset};
use crate::plans::{Metered, Plans, Refusal};
use crate::search_slot::SearchSlot;

/// The longest prompt by default, in characters (`ASSISTANT_MAX_PROMPT`).
pub const DEFAULT_MAX_PROMPT: usize = 8000;

/// The presets a session may be created with here.
pub const CREATABLE_PRESETS: [&str; 5] = ["chat", "profile", "browse", "interview", "debrief"];

/// The interview preset's opening brief (§9.5), stored as a user message.
pub const REHEARSAL_BRIEF: &str = "Let's rehearse this interview. Read the context and tell me what you see, then ask me which round to run.";
/// The debrief preset's opening brief (§9.5).
pub const DEBRIEF_BRIEF: &str =
    "I've just had this interview. Read the context, then ask me what I was asked.";
/// The autopilot brief (§9.5): a retry of it runs with [`AUTOPILOT_MAX_STEPS`].
pub const AUTOPILOT_BRIEF: &str = "Tailor this CV for the vacancy yourself, working from my experience bank. Go through every requirement without stopping to ask me, then tell me what is left. Matching the vacancy's spelling of a skill is handled outside this run — do not spend an edit renaming skills for wording; spend them on evidence and substance.";

/// The message of a retry with nothing to retry.
pub const NOTHING_TO_RETRY: &str = "nothing to retry — send a message first";
/// The message of an opening asked of a session without a brief.
pub const NOT_OPENABLE: &str = "this conversation does not open by itself";
/// The message of an opening asked of a session that has started.
pub const ALREADY_STARTED: &str = "this conversation has already started";

/// Why a service call did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The session (or the application an interview needs) is missing or someone else's.
    #[error("{0}")]
    NotFound(&'static str),
    /// A request value is wrong; `field` names it.
    #[error("{message}")]
    Invalid {
        /// The parameter at fault (`preset`, `job`, `text`).
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// No model is configured.
    #[error("the assistant is not available: set {}", super::model::MODEL_VARIABLES)]
    Unavailable,
    /// The allowance is spent: answer 402 with the refusal's body.
    #[error("{}", .0.message)]
    Refused(Refusal),
    /// A turn runs and another waits.
    #[error("this session already has a message waiting")]
    QueueFull,
    /// A retry with no message to retry.
    #[error("{NOTHING_TO_RETRY}")]
    NothingToRetry,
    /// An opening that does not apply.
    #[error("{0}")]
    NotOpenable(&'static str),
    /// The request does not apply to this session or account as it is (409).
    #[error("{0}")]
    Conflict(&'static str),
    /// A CV operation failed.
    #[error(transparent)]
    Cv(crate::cvs::CvError),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The transcript could not be read.
    #[error("the transcript could not be read")]
    Transcript(#[source] AssistantError),
    /// The turn lock state could not be read or written.
    #[error("the turn lock could not be taken")]
    Locks(#[source] TurnLockError),
}

const SESSION_NOT_FOUND: &str = "session not found";
const APPLICATION_NOT_FOUND: &str = "application not found";

/// The service's bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AssistantConfig {
    /// Model calls with tools per ordinary turn (`ASSISTANT_MAX_STEPS`, default 8).
    pub max_steps: StepLimit,
    /// Transcript messages replayed (default 60).
    pub history: HistoryLimit,
    /// The longest prompt, in characters (`ASSISTANT_MAX_PROMPT`, default 8000).
    pub max_prompt: usize,
    /// How long a queued message waits for the running turn (1 minute).
    pub queue_wait: Duration,
}

impl Default for AssistantConfig {
    fn default() -> Self {
        Self {
            max_steps: StepLimit::default(),
            history: HistoryLimit::default(),
            max_prompt: DEFAULT_MAX_PROMPT,
            queue_wait: TURN_QUEUE_WAIT,
        }
    }
}

impl AssistantConfig {
    /// The bounds of `ASSISTANT_MAX_STEPS` and `ASSISTANT_MAX_PROMPT` (a value that is not a
    /// number, or below 1, is the default; logged).
    pub fn from_env() -> Self {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// [`AssistantConfig::from_env`] over any lookup.
    pub fn from_lookup(var: impl Fn(&str) -> Option<String>) -> Self {
        let number = |name: &str| -> Option<i64> {
            let raw = var(name)?;
            let raw = raw.trim();
            if raw.is_empty() {
                return None;
            }
            match raw.parse::<i64>() {
                Ok(n) if n >= 1 => Some(n),
                _ => {
                    tracing::warn!(%name, value = %raw, "not a positive integer; the default is used");
                    None
                }
            }
        };
        let mut config = Self::default();
        if let Some(n) = number("ASSISTANT_MAX_STEPS") {
            config.max_steps = StepLimit::new(n);
        }
        if let Some(n) = number("ASSISTANT_MAX_PROMPT") {
            config.max_prompt = usize::try_from(n).unwrap_or(DEFAULT_MAX_PROMPT);
        }
        config
    }
}

/// A session as the routes show it: the stored row and its job's public slug.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionView {
    /// The stored session.
    pub session: AssistantSession,
    /// The public slug of its job, when it has one (internal ids never leave the server).
    pub job: Option<String>,
}

/// The step cap of a turn (§6.2 `turnBounds`): interactive tailor turns and their retries
/// 16, a retry of the autopilot brief 30, everything else the runner's own.
pub fn turn_bounds(preset: Preset, last_user_text: Option<&str>) -> Option<StepLimit> {
    if last_user_text == Some(AUTOPILOT_BRIEF) {
        return Some(AUTOPILOT_MAX_STEPS);
    }
    (preset == Preset::Tailor).then_some(TAILOR_MAX_STEPS)
}

/// The preset a turn runs as: `browse` is `chat` outside the browser extension (freehire has
/// no extension bearer yet, so always).
pub fn effective_preset(preset: Preset) -> Preset {
    if preset == Preset::Browse { Preset::Chat } else { preset }
}

/// The text of a stored user message (`{"text": …}`), or "".
fn user_text(message: &Message) -> Option<String> {
    (message.role == Role::User).then(|| {
        serde_json::from_str::<serde_json::Value>(&message.content)
            .ok()
            .and_then(|v| v["text"].as_str().map(str::to_owned))
            .unwrap_or_default()
    })
}

/// Freehire's assistant. Cheap to clone; clones share the turn locks.
#[derive(Clone)]
pub struct AssistantService {
    store: Arc<dyn Store>,
    search: SearchSlot,
    model: Option<AssistantModel>,
    plans: Plans,
    locks: TurnLocks,
    config: AssistantConfig,
    clock: fn() -> DateTime<Utc>,
    cvs: Option<crate::cvs::Cvs>,
}

impl std::fmt::Debug for AssistantService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AssistantService")
            .field("model", &self.model)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl AssistantService {
    /// The service over `store` and `search`, turning on `model` (none: turns are
    /// unavailable, sessions and transcripts still work), metered by `plans`, one turn per
    /// session by `locks`.
    pub fn new(
        store: Arc<dyn Store>,
        search: SearchSlot,
        model: Option<AssistantModel>,
        plans: Plans,
        locks: TurnLocks,
        clock: fn() -> DateTime<Utc>,
    ) -> Self {
        Self {
            store,
            search,
            model,
            plans,
            locks,
            config: AssistantConfig::default(),
            clock,
            cvs: None,
        }
    }

    /// The same service with the CV service its tailoring sessions' tools edit and render
    /// through (without one, tailor sessions get no CV tools).
    #[must_use]
    pub fn with_cvs(self, cvs: crate::cvs::Cvs) -> Self {
        Self { cvs: Some(cvs), ..self }
    }

    /// The cover-letter service over this service's store, model and plans (drafting is
    /// unavailable without a model).
    pub fn cover_letters(&self) -> crate::assistant::cover_letters::CoverLetters {
        crate::assistant::cover_letters::CoverLetters::new(
            self.store.clone(),
            self.model.clone(),
            self.plans.clone(),
            self.clock,
        )
    }

    /// The CV service, when one is attached.
    pub fn cvs(&self) -> Option<&crate::cvs::Cvs> {
        self.cvs.as_ref()
    }

    /// The same service with these bounds.
    #[must_use]
    pub fn with_config(self, config: AssistantConfig) -> Self {
        Self { config, ..self }
    }

    /// The same service turning on `model`.
    #[must_use]
    pub fn with_model(self, model: Option<AssistantModel>) -> Self {
        Self { model, ..self }
    }

    /// The same service metering with `plans`.
    #[must_use]
    pub fn with_plans(self, plans: Plans) -> Self {
        Self { plans, ..self }
    }

    /// The same service reading search through `search`.
    #[must_use]
    pub fn with_search(self, search: SearchSlot) -> Self {
        Self { search, ..self }
    }

    /// The same service with another clock.
    #[must_use]
    pub fn with_clock(self, clock: fn() -> DateTime<Utc>) -> Self {
        Self { clock, ..self }
    }

    /// True when a model is configured (turns can run).
    pub fn available(&self) -> bool {
        self.model.is_some()
    }

    /// The bounds in force.
    pub fn config(&self) -> &AssistantConfig {
        &self.config
    }

    /// The turn locks (shared by every clone).
    pub fn locks(&self) -> &TurnLocks {
        &self.locks
    }

    /// The metering.
    pub fn plans(&self) -> &Plans {
        &self.plans
    }

    fn transcripts(&self) -> Transcripts {
        Transcripts::new(self.store.clone(), self.clock)
    }

    async fn view(&self, session: AssistantSession) -> Result<SessionView, ServiceError> {
        self.views(vec![session]).await?.pop().ok_or(ServiceError::NotFound(SESSION_NOT_FOUND))
    }

    async fn views(
        &self,
        sessions: Vec<AssistantSession>,
    ) -> Result<Vec<SessionView>, ServiceError> {
        let ids: Vec<JobId> = sessions.iter().filter_map(|s| s.job_id).collect();
        let jobs = if ids.is_empty() { Vec::new() } else { self.store.jobs_by_ids(&ids).await? };
        Ok(sessions
            .into_iter()
            .map(|session| {
                let job = session.job_id.and_then(|id| {
                    jobs.iter().find(|j| j.id == id).map(|j| j.public_slug.as_str().to_owned())
                });
                SessionView { session, job }
            })
            .collect())
    }

    async fn owned(&self, owner: UserId, id: SessionId) -> Result<AssistantSession, ServiceError> {
        self.store
            .assistant_session(id, owner)
            .await?
            .ok_or(ServiceError::NotFound(SESSION_NOT_FOUND))
    }

    /// Creates a session of `preset` (see the module docs); `job` is the public slug an
    /// interview or debrief is about.
    pub async fn create(
        &self,
        owner: UserId,
        preset: &str,
        job: Option<&str>,
    ) -> Result<SessionView, ServiceError> {
        let name = preset.trim();
        let name = if name.is_empty() { "chat" } else { name };
        let preset = Preset::parse(name)
            .filter(|p| CREATABLE_PRESETS.contains(&p.as_str()))
            .ok_or_else(|| ServiceError::Invalid {
                field: "preset",
                message: format!(
                    "preset {name:?} cannot be created here; use one of [{}] — a tailoring session is created from its CV",
                    CREATABLE_PRESETS.join(" ")
                ),
            })?;
        let (job_id, label) = match preset {
            Preset::Interview | Preset::Debrief => {
                let (id, label) = self.held_job(owner, preset, job).await?;
                (Some(id), label)
            }
            _ => (None, None),
        };
        let new = NewSession {
            owner,
            preset: preset.as_str(),
            label: label.as_deref(),
            cv_id: None,
            job_id,
        };
        let session = self.store.create_session(new, (self.clock)()).await?;
        self.view(session).await
    }

    /// The job of an interview or debrief: the caller must hold it (saved or applied).
    async fn held_job(
        &self,
        owner: UserId,
        preset: Preset,
        job: Option<&str>,
    ) -> Result<(JobId, Option<String>), ServiceError> {
        let slug =
            job.map(str::trim).filter(|s| !s.is_empty()).ok_or_else(|| ServiceError::Invalid {
                field: "job",
                message: "this conversation needs the `job` slug of an application you hold"
                    .to_owned(),
            })?;
        let slug =
            PublicSlug::parse(slug).map_err(|_| ServiceError::NotFound(APPLICATION_NOT_FOUND))?;
        let track = self.store.track_of(owner, &slug).await?;
        let held = track.is_some_and(|t| t.application.is_some() || t.marks.saved_at.is_some());
        if !held {
            return Err(ServiceError::NotFound(APPLICATION_NOT_FOUND));
        }
        let job = self
            .store
            .job_by_slug(&slug)
            .await?
            .ok_or(ServiceError::NotFound(APPLICATION_NOT_FOUND))?;
        let title = job.posting.title.trim();
        let label = (!title.is_empty()).then(|| {
            let kind = if preset == Preset::Debrief { "Debrief" } else { "Interview" };
            let company = job.posting.company.trim();
            if company.is_empty() {
                format!("{kind}: {title}")
            } else {
                format!("{kind}: {title} · {company}")
            }
        });
        Ok((job.id, label))
    }

    /// The rail: the caller's chat, profile, interview and debrief sessions, most recent
    /// first.
    pub async fn list(&self, owner: UserId) -> Result<Vec<SessionView>, ServiceError> {
        let sessions = self.store.chat_sessions(owner).await?;
        self.views(sessions).await
    }

    /// One of the caller's sessions and its whole transcript.
    pub async fn get(
        &self,
        owner: UserId,
        id: SessionId,
    ) -> Result<(SessionView, Vec<Message>), ServiceError> {
        let session = self.owned(owner, id).await?;
        let messages = self.transcript(owner, id).await?;
        Ok((self.view(session).await?, messages))
    }

    /// Deletes one of the caller's sessions with its transcript, stopping its turn.
    pub async fn delete(&self, owner: UserId, id: SessionId) -> Result<(), ServiceError> {
        if !self.store.delete_session(id, owner).await? {
            return Err(ServiceError::NotFound(SESSION_NOT_FOUND));
        }
        if let Err(e) = self.locks.cancel(id).await {
            tracing::warn!(session = %id, error = %e, "stopping a deleted session's turn failed");
        }
        Ok(())
    }

    /// Stops the running turn of one of the caller's sessions and the queued one (on any
    /// API process sharing the locks). Nothing running is fine.
    pub async fn cancel(&self, owner: UserId, id: SessionId) -> Result<(), ServiceError> {
        self.owned(owner, id).await?;
        self.locks.cancel(id).await.map_err(ServiceError::Locks)?;
        Ok(())
    }

    /// A new message in one of the caller's sessions, streamed. `text` is `None` when the
    /// request body could not be read (refused after ownership and the model, §8.3).
    pub async fn send(
        &self,
        user: &User,
        id: SessionId,
        text: Option<&str>,
    ) -> Result<TurnEvents, ServiceError> {
        let session = self.owned(user.id, id).await?;
        let model = self.model.as_ref().ok_or(ServiceError::Unavailable)?;
        let text = text
            .ok_or_else(|| ServiceError::Invalid {
                field: "body",
                message: "invalid request body".into(),
            })?
            .trim();
        if text.is_empty() {
            return Err(ServiceError::Invalid {
                field: "text",
                message: "text is required".into(),
            });
        }
        if text.chars().count() > self.config.max_prompt {
            return Err(ServiceError::Invalid {
                field: "text",
                message: "message is too long".into(),
            });
        }
        self.start(user, session, model, TurnInput::Prompt(text.to_owned()), None).await
    }

    /// The turn again on the stored transcript (after an error), streamed.
    pub async fn retry(&self, user: &User, id: SessionId) -> Result<TurnEvents, ServiceError> {
        let session = self.owned(user.id, id).await?;
        let model = self.model.as_ref().ok_or(ServiceError::Unavailable)?;
        let messages = self.transcript(user.id, id).await?;
        let last = messages.iter().rev().find_map(user_text).unwrap_or_default();
        if last.trim().is_empty() {
            return Err(ServiceError::NothingToRetry);
        }
        self.start(user, session, model, TurnInput::Continue, Some(last)).await
    }

    /// The opening of an interview or debrief session (its brief as the first message),
    /// streamed.
    pub async fn open(&self, user: &User, id: SessionId) -> Result<TurnEvents, ServiceError> {
        let session = self.owned(user.id, id).await?;
        let model = self.model.as_ref().ok_or(ServiceError::Unavailable)?;
        let brief = match (normalize_preset(&session.preset), session.job_id) {
            (Preset::Interview, Some(_)) => REHEARSAL_BRIEF,
            (Preset::Debrief, Some(_)) => DEBRIEF_BRIEF,
            _ => return Err(ServiceError::NotOpenable(NOT_OPENABLE)),
        };
        let messages = self.transcript(user.id, id).await?;
        if messages.iter().any(|m| m.role == Role::Assistant) {
            return Err(ServiceError::NotOpenable(ALREADY_STARTED));
        }
        self.start(user, session, model, TurnInput::Prompt(brief.to_owned()), None).await
    }

    async fn transcript(&self, owner: UserId, id: SessionId) -> Result<Vec<Message>, ServiceError> {
        match self.transcripts().transcript(id, &owner).await {
            Ok(messages) => Ok(messages),
            Err(AssistantError::NotFound) => Err(ServiceError::NotFound(SESSION_NOT_FOUND)),
            Err(e) => Err(ServiceError::Transcript(e)),
        }
    }

    /// Steps 3–6 of the module docs.
    async fn start(
        &self,
        user: &User,
        session: AssistantSession,
        model: &AssistantModel,
        input: TurnInput,
        retried: Option<String>,
    ) -> Result<TurnEvents, ServiceError> {
        let preset = effective_preset(normalize_preset(&session.preset));
        let deps = ToolDeps {
            store: self.store.clone(),
            search: self.search.clone(),
            clock: self.clock,
            cvs: self.cvs.clone(),
            cover_letters: Some(crate::assistant::cover_letters::CoverLetters::new(
                self.store.clone(),
                Some(model.clone()),
                self.plans.clone(),
                self.clock,
            )),
        };
        let binding = Binding {
            session: session.id,
            preset,
            job_id: session.job_id,
            cv_id: session.cv_id,
            batch: uuid::Uuid::new_v4(),
        };
        let composed = compose_session(&deps, &binding, user.language.primary());
        let bound = model.bind(user.id).await;
        let cancel = CancellationToken::new();
        // The claim and the count the charge names its turn by are independent round trips:
        // sent together.
        let (claimed, counted) = tokio::join!(
            self.locks.claim(session.id, cancel.clone()),
            self.store.count_user_turns(session.id)
        );
        let start = match claimed {
            Ok(Claim::Run(guard)) => Start::Run(guard),
            Ok(Claim::Queued(queued)) => Start::Queued(queued, self.config.queue_wait),
            Err(TurnLockError::QueueFull) => return Err(ServiceError::QueueFull),
            Err(e) => return Err(ServiceError::Locks(e)),
        };
        // A refusal drops `start`, giving the claim back. Nothing awaits between the charge
        // and the launch, so a request dropped now cannot strand it.
        let behind = matches!(start, Start::Queued(..));
        let charge = self.meter(user.id, session.id, preset, &input, behind, counted).await?;
        let last_user = match &input {
            TurnInput::Prompt(text) => Some(text.clone()),
            TurnInput::Continue => retried,
        };
        let config = TurnConfig {
            max_steps: turn_bounds(preset, last_user.as_deref()).or(composed.max_steps),
            headers: spend_tags(preset),
        };
        let runner = Runner::new(
            bound,
            Arc::new(self.transcripts()),
            RunnerConfig {
                max_steps: self.config.max_steps,
                history_limit: self.config.history,
                ..RunnerConfig::default()
            },
        );
        let release = charge.map(|charge| {
            let plans = self.plans.clone();
            let owner = user.id;
            let release: Release =
                Box::new(move || Box::pin(async move { plans.release(owner, &charge).await }));
            release
        });
        Ok(launch(Launch {
            runner,
            session: session.id,
            owner: user.id,
            registry: composed.registry,
            system: composed.system,
            config,
            input,
            start,
            cancel,
            release,
            preset: preset.as_str(),
        }))
    }

    /// Metering before anything is streamed; the charge to release if the turn fails.
    /// `behind` says the turn waits for a running one, which counts as the turn before it
    /// (its prompt may not be stored yet), so two messages sent at once are charged as two
    /// turns under two references. `counted` is the session's user turns as read beside the
    /// claim.
    async fn meter(
        &self,
        owner: UserId,
        session: SessionId,
        preset: Preset,
        input: &TurnInput,
        behind: bool,
        counted: freehire_store::Result<i64>,
    ) -> Result<Option<crate::plans::Charge>, ServiceError> {
        let turns = match counted {
            Ok(n) => n + i64::from(behind && matches!(input, TurnInput::Prompt(_))),
            Err(e) => {
                // Fails open (§13.5): the turn runs uncharged.
                tracing::warn!(%session, error = %e, "counting the session's turns failed; the turn runs uncharged");
                return Ok(None);
            }
        };
        let metered = match input {
            TurnInput::Prompt(_) => self.plans.meter_turn(owner, session, preset, turns).await,
            TurnInput::Continue => self.plans.meter_retry(owner, session, preset, turns).await,
        };
        match metered {
            Metered::Allowed(charge) => Ok(charge),
            Metered::Refused(refusal) => Err(ServiceError::Refused(refusal)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_come_from_the_environment_with_defaults() {
        let config = AssistantConfig::from_lookup(|name| match name {
            "ASSISTANT_MAX_STEPS" => Some("12".into()),
            "ASSISTANT_MAX_PROMPT" => Some("0".into()),
            _ => None,
        });
        assert_eq!(config.max_steps, StepLimit::new(12));
        assert_eq!(config.max_prompt, DEFAULT_MAX_PROMPT, "below 1 is the default");
        let default = AssistantConfig::from_lookup(|_| Some("many".into()));
        assert_eq!(default, AssistantConfig::default(), "not a number is the default");
        assert_eq!(default.max_steps, StepLimit::new(8));
        assert_eq!(default.queue_wait, Duration::from_secs(60));
    }

    #[test]
    fn turn_bounds_follow_the_reference() {
        assert_eq!(turn_bounds(Preset::Tailor, Some("fix my CV")), Some(TAILOR_MAX_STEPS));
        assert_eq!(turn_bounds(Preset::Tailor, Some(AUTOPILOT_BRIEF)), Some(AUTOPILOT_MAX_STEPS));
        assert_eq!(turn_bounds(Preset::Chat, Some("hello")), None);
        assert_eq!(effective_preset(Preset::Browse), Preset::Chat);
        assert_eq!(effective_preset(Preset::Interview), Preset::Interview);
    }
}
