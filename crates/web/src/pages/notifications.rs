//! The notification pages: `/notifications` (the history, newest first, unread ones marked,
//! paged), `/notifications/{id}` (the jobs of one digest; opening it marks it read: the
//! digest's mail links here) and `/notifications/settings` (digest frequency, hour, quiet hours,
//! time zone; `POST` saves them). Each calls one
//! [`SavedSearches`](freehire_app::saved_searches::SavedSearches) method; a refused setting is
//! the form again (422) with the message next to its field. Signed out, the pages redirect to
//! the sign-in page; another user's notification is the 404 page.

use askama::Template;
use axum::{
    body::Bytes,
    extract::{Path, RawQuery, State},
    response::Response,
};
use freehire_app::saved_searches::{SavedSearchError, SettingsInput};
use freehire_domain::{DigestFrequency, NotificationId, User};
use freehire_store::{ListPage, NotificationSettings};

use super::forms::{Errors, Fields, see_other, sign_in_first};
use super::saved::JobLink;
use super::tracking::signed_in;
use crate::{WebError, WebState, error::render, layout::Ctx, layout::Layout};

/// Entries per page of the history.
pub const PAGE: u32 = 50;

/// One entry of the history.
pub struct Item {
    /// Its id.
    pub id: i64,
    /// Its title.
    pub title: String,
    /// Its text.
    pub body: String,
    /// What it is.
    pub kind: &'static str,
    /// When.
    pub created: String,
    /// Whether it is unread.
    pub unread: bool,
}

/// `/notifications`.
#[derive(Template)]
#[template(path = "notifications.html")]
pub struct HistoryPage {
    /// The layout.
    pub layout: Layout,
    /// This page's entries.
    pub items: Vec<Item>,
    /// Entries in all.
    pub total: u64,
    /// Unread in all.
    pub unread: u64,
    /// Newer entries.
    pub prev_href: Option<String>,
    /// Older entries.
    pub next_href: Option<String>,
}

fn kind_label(kind: freehire_domain::NotificationKind) -> &'static str {
    use freehire_domain::NotificationKind as K;
    match kind {
        K::Digest => "New jobs for a saved search",
        K::Reminder => "Reminder about a saved job",
        K::NudgeSilent => "An application went silent",
        K::NudgeInterview => "Interview preparation",
    }
}

/// `GET /notifications?offset=`.
pub async fn history(State(state): State<WebState>, ctx: Ctx, RawQuery(raw): RawQuery) -> Response {
    let user = signed_in!(ctx, "/notifications");
    let offset: u32 = url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .find(|(k, _)| k == "offset")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let page =
        match state.saved.notifications(user.id, ListPage::new(PAGE, u64::from(offset))).await {
            Ok(p) => p,
            Err(e) => return ctx.error(e),
        };
    let at = |o: u32| {
        if o == 0 { "/notifications".to_owned() } else { format!("/notifications?offset={o}") }
    };
    ctx.page(&HistoryPage {
        layout: ctx.layout("Notifications"),
        items: page
            .notifications
            .iter()
            .map(|n| Item {
                id: n.id.get(),
                title: n.title.clone(),
                body: n.body.clone(),
                kind: kind_label(n.kind),
                created: ctx.date(n.created_at),
                unread: n.read_at.is_none(),
            })
            .collect(),
        total: page.total,
        unread: page.unread,
        prev_href: (offset > 0).then(|| at(offset.saturating_sub(PAGE))),
        next_href: (u64::from(offset) + u64::from(PAGE) < page.total).then(|| at(offset + PAGE)),
    })
}

/// `/notifications/{id}`.
#[derive(Template)]
#[template(path = "notification.html")]
pub struct NotificationPage {
    /// The layout.
    pub layout: Layout,
    /// Its title.
    pub title: String,
    /// Its text.
    pub body: String,
    /// When.
    pub created: String,
    /// Jobs matched in all.
    pub total: u32,
    /// The jobs it lists.
    pub jobs: Vec<JobLink>,
}

/// `GET /notifications/{id}`: marks it read.
pub async fn show(State(state): State<WebState>, ctx: Ctx, Path(raw): Path<String>) -> Response {
    let user = signed_in!(ctx, format!("/notifications/{raw}"));
    let Ok(id) = raw.parse::<NotificationId>() else {
        return ctx.error(WebError::NotFound);
    };
    let found = match state.saved.notification_jobs(user.id, id, ctx.now).await {
        Ok(n) => n,
        Err(e) => return ctx.error(e),
    };
    let n = &found.notification;
    ctx.page(&NotificationPage {
        layout: ctx.layout(n.title.clone()),
        title: n.title.clone(),
        body: n.body.clone(),
        created: ctx.date(n.created_at),
        total: n.total,
        jobs: found
            .jobs
            .iter()
            .map(|j| JobLink {
                href: format!("/jobs/{}", j.slug),
                title: j.title.clone(),
                company: j.company.clone(),
                location: j.location.clone(),
            })
            .collect(),
    })
}

/// `/notifications/settings`.
#[derive(Template)]
#[template(path = "notification_settings.html")]
pub struct SettingsPage {
    /// The layout.
    pub layout: Layout,
    /// A message after a redirect.
    pub notice: Option<&'static str>,
    /// Messages by field.
    pub errors: Errors,
    /// Whether anything is sent.
    pub enabled: bool,
    /// The frequency's wire value.
    pub frequency: String,
    /// The choices: (wire value, label).
    pub frequencies: Vec<(&'static str, &'static str)>,
    /// The digest hour ("9").
    pub digest_hour: String,
    /// Quiet hours' start ("" for none).
    pub quiet_start: String,
    /// Quiet hours' end.
    pub quiet_end: String,
    /// The zone ("" for the account's).
    pub timezone: String,
}

fn frequency_label(f: DigestFrequency) -> &'static str {
    match f {
        DigestFrequency::Instant => "As soon as new jobs match",
        DigestFrequency::Daily => "Once a day",
        DigestFrequency::Weekly => "Once a week (Mondays)",
    }
}

fn settings_page(ctx: &Ctx, s: &NotificationSettings, errors: Errors) -> SettingsPage {
    SettingsPage {
        layout: ctx.layout("Notification settings"),
        notice: None,
        errors,
        enabled: s.enabled,
        frequency: s.digest_frequency.as_str().to_owned(),
        frequencies: DigestFrequency::ALL
            .iter()
            .map(|f| (f.as_str(), frequency_label(*f)))
            .collect(),
        digest_hour: s.digest_hour.to_string(),
        quiet_start: s.quiet_hours.map(|(a, _)| a.to_string()).unwrap_or_default(),
        quiet_end: s.quiet_hours.map(|(_, b)| b.to_string()).unwrap_or_default(),
        timezone: s.timezone.as_ref().map(|t| t.as_str().to_owned()).unwrap_or_default(),
    }
}

/// `GET /notifications/settings`.
pub async fn settings(
    State(state): State<WebState>,
    ctx: Ctx,
    RawQuery(raw): RawQuery,
) -> Response {
    let user = signed_in!(ctx, "/notifications/settings");
    match state.saved.settings(user.id).await {
        Ok(s) => {
            let saved = raw.as_deref() == Some("done=saved");
            let page = SettingsPage {
                notice: saved.then_some("Your notification settings are saved."),
                ..settings_page(&ctx, &s, Errors::none())
            };
            ctx.page(&page)
        }
        Err(e) => ctx.error(e),
    }
}

/// The form as typed, refused: the page again with the message next to `field`.
fn again(ctx: &Ctx, f: &Fields, field: &'static str, message: String) -> Response {
    let page = SettingsPage {
        enabled: f.get("enabled") == "true",
        frequency: f.get("digest_frequency").to_owned(),
        digest_hour: f.get("digest_hour").to_owned(),
        quiet_start: f.get("quiet_hours_start").to_owned(),
        quiet_end: f.get("quiet_hours_end").to_owned(),
        timezone: f.get("timezone").to_owned(),
        ..settings_page(ctx, &NotificationSettings::default(), Errors::one(field, message))
    };
    render(page.errors.status(), &page)
}

/// An hour field: empty is none; the service checks the range.
fn hour(f: &Fields, field: &'static str) -> Result<Option<i64>, (&'static str, String)> {
    match f.optional(field) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse::<i64>()
            .map(Some)
            .map_err(|_| (field, "must be an hour from 0 to 23".to_owned())),
    }
}

fn input(f: &Fields) -> Result<SettingsInput, (&'static str, String)> {
    let digest_hour =
        hour(f, "digest_hour")?.ok_or(("digest_hour", "choose an hour".to_owned()))?;
    Ok(SettingsInput {
        enabled: f.get("enabled") == "true",
        digest_frequency: f.get("digest_frequency").to_owned(),
        digest_hour,
        quiet_hours_start: hour(f, "quiet_hours_start")?,
        quiet_hours_end: hour(f, "quiet_hours_end")?,
        timezone: f.optional("timezone").map(str::to_owned),
    })
}

/// `POST /notifications/settings`.
pub async fn save_settings(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let user: User = signed_in!(ctx, "/notifications/settings");
    let f = Fields::parse(&body);
    let input = match input(&f) {
        Ok(i) => i,
        Err((field, message)) => return again(&ctx, &f, field, message),
    };
    match state.saved.put_settings(user.id, &input, ctx.now).await {
        Ok(_) => see_other("/notifications/settings?done=saved", &[]),
        Err(SavedSearchError::Invalid { field, message }) => again(&ctx, &f, field, message),
        Err(SavedSearchError::Domain(e)) => {
            let (field, message) = super::forms::domain_message(&e);
            again(&ctx, &f, field, message)
        }
        Err(e) => ctx.error(e),
    }
}
