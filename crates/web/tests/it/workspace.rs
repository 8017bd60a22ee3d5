//! The job seeker's workspace with plain form posts (no JavaScript), on both backends: the
//! save / dismiss / apply buttons on the search page and the job page, the tracking board and
//! its "Move" form, the application page (notes, timeline, the follow-up draft), the follow-ups
//! page, saved searches (save from the search page, rename, subscribe, share, delete) with the
//! public shared board, and the notification pages. Signed out, each page redirects to the
//! sign-in page and back; a form without its CSRF token is refused; another user's
//! application or saved search is the 404 page.

use freehire_store::testing::TestDb;

use crate::server::{Browser, Page, Server, on_both_backends};

const PASSWORD: &str = "correct horse battery";

async fn signed_up<'a>(s: &'a Server, email: &str) -> Browser<'a> {
    let b = Browser::new(s);
    let page = b.submit("/signup", "/signup", &[("email", email), ("password", PASSWORD)]).await;
    assert_eq!(page.status, 303, "{}", page.body);
    b
}

/// The first `/jobs/{slug}` a page links to whose slug starts with `prefix`.
fn job_slug(page: &Page, prefix: &str) -> String {
    page.body
        .split("href=\"/jobs/")
        .skip(1)
        .map(|r| r[..r.find('"').unwrap()].to_owned())
        .find(|s| s.starts_with(prefix) && !s.contains('/') && !s.contains('?'))
        .unwrap_or_else(|| panic!("no job {prefix}… in {}", page.body))
}

/// The first number following `marker` in the page (an id in a form's action).
fn id_after(page: &Page, marker: &str) -> String {
    let at = page.body.find(marker).unwrap_or_else(|| panic!("no {marker} in {}", page.body));
    page.body[at + marker.len()..].chars().take_while(char::is_ascii_digit).collect()
}

/// The HTML of the board column `group`.
fn column<'p>(page: &'p Page, group: &str) -> &'p str {
    let start = page.body.find(&format!("id=\"column-{group}\"")).unwrap();
    let rest = &page.body[start..];
    &rest[..rest.find("</section>").unwrap()]
}

// scenario: Signed-out workspace pages go to the sign-in page and back
async fn signed_out_workspace_pages_redirect_to_sign_in(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    for path in [
        "/tracking",
        "/tracking/followups",
        "/tracking/acme-rust-engineer-abcdefgh",
        "/saved-searches",
        "/notifications",
        "/notifications/settings",
        "/notifications/1",
    ] {
        let page = b.get(path).await;
        assert_eq!(page.status, 303, "{path}");
        let next: String = url::form_urlencoded::byte_serialize(path.as_bytes()).collect();
        assert_eq!(page.location(), format!("/login?next={next}"), "{path}");
    }
    let login = b.get("/login?next=%2Ftracking").await;
    assert!(login.body.contains("name=\"next\" value=\"/tracking\""), "{}", login.body);
    // Another origin is never followed.
    let evil = b.get("/login?next=%2F%2Fevil.example").await;
    assert!(!evil.body.contains("evil.example"));
    let b2 = signed_up(&s, "ada@example.com").await;
    b2.submit("/account", "/logout", &[]).await;
    let token = b2.get("/login?next=%2Ftracking").await.csrf();
    let page = b2
        .post_raw(
            "/login",
            &[
                ("csrf", &token),
                ("email", "ada@example.com"),
                ("password", PASSWORD),
                ("next", "/tracking"),
            ],
        )
        .await;
    assert_eq!((page.status, page.location()), (303, "/tracking"));
    // A job page says how to get the buttons.
    let hits = Browser::new(&s).get("/jobs?q=rust").await;
    let slug = job_slug(&hits, "rust-engineer");
    let job = Browser::new(&s).get(&format!("/jobs/{slug}")).await;
    assert!(job.body.contains("to save, dismiss or track this job"));
    assert!(!job.body.contains("Mark applied"));
    s.db.teardown().await;
}

// scenario: Save from the search page and move on the board
async fn save_from_search_and_move_on_the_board(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = signed_up(&s, "ada@example.com").await;
    let search = b.get("/jobs?q=rust").await;
    let slug = job_slug(&search, "rust-engineer");
    assert!(search.body.contains(&format!("id=\"actions-{slug}\"")), "buttons on the hit");
    let saved =
        b.submit("/jobs?q=rust", &format!("/jobs/{slug}/save"), &[("next", "/jobs?q=rust")]).await;
    assert_eq!((saved.status, saved.location()), (303, "/jobs?q=rust"), "{}", saved.body);
    let search = b.get("/jobs?q=rust").await;
    assert!(search.body.contains("Saved ✓"), "the state is shown");
    // The board lists it as saved, not applied yet.
    let board = b.get("/tracking").await;
    assert_eq!(board.status, 200);
    assert!(board.body.contains(&format!("id=\"saved-{slug}\"")), "{}", board.body);
    for group in ["preparing", "applied", "interview", "offer", "closed"] {
        assert!(board.body.contains(&format!("id=\"column-{group}\"")), "{group}");
    }
    // Applying from the board puts it in the Applied column.
    let applied =
        b.submit("/tracking", &format!("/jobs/{slug}/apply"), &[("next", "/tracking")]).await;
    assert_eq!((applied.status, applied.location()), (303, "/tracking"), "{}", applied.body);
    let board = b.get("/tracking").await;
    assert!(column(&board, "applied").contains("Rust Engineer"), "{}", board.body);
    assert!(!board.body.contains(&format!("id=\"saved-{slug}\"")), "no longer only saved");
    // Move it to the interview stage with the card's form.
    let id = id_after(&board, "/tracking/applications/");
    let moved = b
        .submit(
            "/tracking",
            &format!("/tracking/applications/{id}/stage"),
            &[("next", "/tracking"), ("stage", "interview")],
        )
        .await;
    assert_eq!((moved.status, moved.location()), (303, "/tracking?done=moved"));
    let board = b.get("/tracking?done=moved").await;
    assert!(column(&board, "interview").contains("Rust Engineer"), "{}", board.body);
    assert!(!column(&board, "applied").contains("Rust Engineer"));
    assert!(board.body.contains("The stage is changed."));
    // An unknown stage is refused naming the field, and changes nothing.
    let bad = b
        .submit("/tracking", &format!("/tracking/applications/{id}/stage"), &[("stage", "hired")])
        .await;
    assert_eq!(bad.status, 422);
    assert!(bad.body.contains("stage: must be one of"), "{}", bad.body);
    // The job page shows the state too.
    let job = b.get(&format!("/jobs/{slug}")).await;
    assert!(job.body.contains("Applied · Interview"), "{}", job.body);
    // htmx gets the buttons block alone.
    let token = b.get("/jobs?q=rust").await.csrf();
    let other = job_slug(&b.get("/jobs?q=go").await, "go-engineer");
    let res = reqwest::Client::new()
        .post(format!("{}/jobs/{other}/dismiss", s.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("cookie", b.cookie_header_value())
        .header("hx-request", "true")
        .body(format!("csrf={token}&next=%2Fjobs%3Fq%3Dgo"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let fragment = res.text().await.unwrap();
    assert!(
        fragment
            .trim_start()
            .starts_with(&format!("<div class=\"actions\" id=\"actions-{other}\"")),
        "{fragment}"
    );
    assert!(fragment.contains("Dismissed · undo") && !fragment.contains("<main"));
    s.db.teardown().await;
}

// scenario: The application page: notes, timeline and the follow-up draft
async fn the_application_page_has_notes_a_timeline_and_the_draft(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = signed_up(&s, "ada@example.com").await;
    let slug = job_slug(&b.get("/jobs?q=rust").await, "rust-engineer");
    // Applied seven weeks before the pinned clock (2026-11-20): silent since day 21.
    let page = b
        .submit(
            "/jobs?q=rust",
            &format!("/jobs/{slug}/apply"),
            &[("next", &format!("/tracking/{slug}")), ("applied_on", "2026-10-01")],
        )
        .await;
    assert_eq!(page.status, 303, "{}", page.body);
    let app = b.get(&format!("/tracking/{slug}")).await;
    assert_eq!(app.status, 200, "{}", app.body);
    assert!(app.body.contains("Rust Engineer") && app.body.contains("Acme"));
    assert!(app.body.contains("days silent"), "{}", app.body);
    assert!(app.body.contains("id=\"draft-body\""), "the draft is shown when silent");
    assert!(app.body.contains("data-copy=\"#draft-body\""), "with its copy button");
    assert!(app.body.contains("class=\"timeline\"") && app.body.contains("Applied"));
    assert!(app.body.contains("Build <strong>fast</strong> services."), "the description");
    // The follow-ups page lists it with its draft.
    let followups = b.get("/tracking/followups").await;
    assert!(followups.body.contains(&format!("id=\"followup-{slug}\"")), "{}", followups.body);
    // Notes.
    let id = id_after(&app, "/tracking/applications/");
    let noted = b
        .submit(
            &format!("/tracking/{slug}"),
            &format!("/tracking/applications/{id}/notes"),
            &[("next", &format!("/tracking/{slug}")), ("notes", "Ask about <the> team")],
        )
        .await;
    assert_eq!(noted.location(), format!("/tracking/{slug}?done=notes"));
    let app = b.get(&format!("/tracking/{slug}")).await;
    assert!(app.body.contains("Ask about &#60;the&#62; team"), "escaped notes");
    // Mark followed up: the draft goes, the timeline says so.
    let done = b
        .submit(
            &format!("/tracking/{slug}"),
            &format!("/tracking/{slug}/followup"),
            &[("next", &format!("/tracking/{slug}"))],
        )
        .await;
    assert_eq!(done.location(), format!("/tracking/{slug}?done=followed-up"));
    // The follow-up is kept outside the silence clock (reference §7.3): still silent, the
    // draft stays, the timeline and the facts say when.
    let app = b.get(&format!("/tracking/{slug}")).await;
    assert!(app.body.contains("id=\"draft-body\""), "still silent");
    assert!(app.body.contains("Followed up"));
    assert!(app.body.contains("2026-11-20"), "the follow-up's date");
    // Stop tracking.
    let cleared =
        b.submit(&format!("/tracking/{slug}"), &format!("/tracking/{slug}/clear"), &[]).await;
    assert_eq!(cleared.location(), "/tracking?done=cleared");
    let board = b.get("/tracking").await;
    assert!(
        !board.body.contains("Rust Engineer"),
        "off the board and the saved list: {}",
        board.body
    );
    s.db.teardown().await;
}

// scenario: Workspace forms refuse a missing CSRF token and another user's records
async fn workspace_forms_check_csrf_and_ownership(db: TestDb) {
    let s = Server::indexed(db).await;
    let ada = signed_up(&s, "ada@example.com").await;
    let slug = job_slug(&ada.get("/jobs?q=rust").await, "rust-engineer");
    let refused = ada.post_raw(&format!("/jobs/{slug}/save"), &[("next", "/tracking")]).await;
    assert_eq!(refused.status, 403);
    assert!(!ada.get("/jobs?q=rust").await.body.contains("Saved ✓"), "nothing written");
    ada.submit("/tracking", &format!("/jobs/{slug}/apply"), &[]).await;
    let id = id_after(&ada.get("/tracking").await, "/tracking/applications/");
    ada.submit("/saved-searches", "/saved-searches", &[("name", "Rust"), ("query", "q=rust")])
        .await;
    let search_id = id_after(&ada.get("/saved-searches").await, "/saved-searches/");
    ada.submit(
        "/experience",
        "/experience/employments",
        &[("kind", "job"), ("company", "Acme"), ("role", "Engineer")],
    )
    .await;
    ada.submit("/experience", "/experience/atoms", &[("claim", "Led the migration to Kubernetes")])
        .await;
    let bank = ada.get("/experience").await;
    let employment_id = id_after(&bank, "/experience/employments/");
    let atom_id = id_after(&bank, "/experience/atoms/");
    let made =
        ada.submit("/cvs", "/cvs", &[("full_name", "Ada Lovelace"), ("summary", "Ships.")]).await;
    assert_eq!(made.status, 303, "{}", made.body);
    let cv_id = id_after(&ada.get("/cvs").await, "/cvs/");

    let eve = signed_up(&s, "eve@example.com").await;
    for (path, form) in [
        (format!("/tracking/applications/{id}/stage"), vec![("stage", "offer")]),
        (format!("/tracking/applications/{id}/notes"), vec![("notes", "mine now")]),
        (format!("/saved-searches/{search_id}/rename"), vec![("name", "Eve's")]),
        (format!("/saved-searches/{search_id}/subscribe"), vec![]),
        (format!("/saved-searches/{search_id}/delete"), vec![]),
        (format!("/experience/employments/{employment_id}/delete"), vec![]),
        (format!("/experience/atoms/{atom_id}/confirm"), vec![]),
        (format!("/experience/atoms/{atom_id}/delete"), vec![]),
        (format!("/cvs/{cv_id}/summary"), vec![("summary", "Eve's")]),
        (format!("/cvs/{cv_id}/revisions/1/undo"), vec![]),
    ] {
        let page = eve.submit("/tracking", &path, &form).await;
        assert_eq!(page.status, 404, "{path}: {}", page.body);
    }
    assert_eq!(eve.get(&format!("/tracking/{slug}")).await.status, 404, "untracked by eve");
    for path in
        [format!("/cvs/{cv_id}"), format!("/cvs/{cv_id}/pdf"), format!("/cvs/{cv_id}/preview/0")]
    {
        assert_eq!(eve.get(&path).await.status, 404, "{path}");
    }
    assert!(ada.get("/experience").await.body.contains("Led the migration to Kubernetes"));
    assert!(ada.get(&format!("/cvs/{cv_id}")).await.body.contains("Ships."));
    // Ada's records survive.
    let board = ada.get("/tracking").await;
    assert!(column(&board, "applied").contains("Rust Engineer"));
    assert!(ada.get("/saved-searches").await.body.contains(">Rust</a>"));
    s.db.teardown().await;
}

// scenario: Saved searches from the search page, subscribed, shared and deleted
async fn saved_searches_are_saved_subscribed_shared_and_deleted(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = signed_up(&s, "ada@example.com").await;
    let search = b.get("/jobs?q=rust&work_mode=remote").await;
    assert!(search.body.contains("Save this search"), "the form is on the search page");
    assert!(
        search.body.contains("name=\"query\" value=\"q=rust&#38;work_mode=remote\""),
        "{}",
        search.body
    );
    let saved = b
        .submit(
            "/jobs?q=rust",
            "/saved-searches",
            &[("name", "Remote Rust"), ("query", "q=rust&work_mode=remote")],
        )
        .await;
    assert_eq!(
        (saved.status, saved.location()),
        (303, "/saved-searches?done=created"),
        "{}",
        saved.body
    );
    let list = b.get("/saved-searches").await;
    assert!(list.body.contains(">Remote Rust</a>"));
    assert!(list.body.contains("href=\"/jobs?q=rust&#38;work_mode=remote\""));
    let id = id_after(&list, "/saved-searches/");
    // The same name again (case-insensitively) is refused next to the field, kept as typed.
    let again = b
        .submit("/saved-searches", "/saved-searches", &[("name", "remote rust"), ("query", "q=go")])
        .await;
    assert_eq!(again.status, 422);
    assert!(again.body.contains("id=\"name-error\""), "{}", again.body);
    assert!(again.body.contains("value=\"remote rust\""), "{}", again.body);
    let bad = b
        .submit(
            "/saved-searches",
            "/saved-searches",
            &[("name", "Bad"), ("query", "work_mode=office")],
        )
        .await;
    assert_eq!(bad.status, 422);
    assert!(bad.body.contains("id=\"query-error\""), "{}", bad.body);
    // Rename, subscribe, unsubscribe.
    let renamed = b
        .submit(
            "/saved-searches",
            &format!("/saved-searches/{id}/rename"),
            &[("name", "Rust, remote")],
        )
        .await;
    assert_eq!(renamed.location(), "/saved-searches?done=renamed");
    let subscribed = b
        .submit(
            "/saved-searches",
            &format!("/saved-searches/{id}/subscribe"),
            &[("channel", "email")],
        )
        .await;
    assert_eq!(subscribed.location(), "/saved-searches?done=subscribed", "{}", subscribed.body);
    let list = b.get("/saved-searches").await;
    assert!(list.body.contains(">Rust, remote</a>") && list.body.contains("Emailed"));
    let sub = id_after(&list, "/saved-searches/subscriptions/");
    let unsub = b
        .submit("/saved-searches", &format!("/saved-searches/subscriptions/{sub}/delete"), &[])
        .await;
    assert_eq!(unsub.location(), "/saved-searches?done=unsubscribed");
    assert!(b.get("/saved-searches").await.body.contains("Subscribe by email"));
    // Share: the public board shows its jobs to anyone.
    let shared = b
        .submit("/saved-searches", &format!("/saved-searches/{id}/share"), &[("shared", "true")])
        .await;
    assert_eq!(shared.location(), "/saved-searches?done=shared");
    let list = b.get("/saved-searches").await;
    let board = list
        .body
        .split("href=\"")
        .find_map(|r| {
            r.starts_with("/shared-boards/").then(|| r[..r.find('"').unwrap()].to_owned())
        })
        .unwrap();
    let public = Browser::new(&s).get(&board).await;
    assert_eq!(public.status, 200, "{}", public.body);
    assert!(public.body.contains("Rust, remote") && public.body.contains("Rust Engineer"));
    b.submit("/saved-searches", &format!("/saved-searches/{id}/share"), &[("shared", "false")])
        .await;
    assert_eq!(Browser::new(&s).get(&board).await.status, 404, "no longer shared");
    // Delete.
    let deleted = b.submit("/saved-searches", &format!("/saved-searches/{id}/delete"), &[]).await;
    assert_eq!(deleted.location(), "/saved-searches?done=deleted");
    assert!(!b.get("/saved-searches").await.body.contains("Rust, remote"));
    s.db.teardown().await;
}

// scenario: Notification settings and the empty history
async fn notification_settings_are_saved_and_checked(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = signed_up(&s, "ada@example.com").await;
    let history = b.get("/notifications").await;
    assert_eq!(history.status, 200);
    assert!(history.body.contains("0 in all, 0 unread"), "{}", history.body);
    assert_eq!(b.get("/notifications/999999").await.status, 404);
    let form = b.get("/notifications/settings").await;
    assert!(form.body.contains("<option value=\"daily\" selected>"), "{}", form.body);
    let saved = b
        .submit(
            "/notifications/settings",
            "/notifications/settings",
            &[
                ("enabled", "true"),
                ("digest_frequency", "weekly"),
                ("digest_hour", "7"),
                ("quiet_hours_start", "22"),
                ("quiet_hours_end", "6"),
                ("timezone", "Europe/Berlin"),
            ],
        )
        .await;
    assert_eq!(
        (saved.status, saved.location()),
        (303, "/notifications/settings?done=saved"),
        "{}",
        saved.body
    );
    let form = b.get("/notifications/settings?done=saved").await;
    assert!(form.body.contains("<option value=\"weekly\" selected>"));
    assert!(form.body.contains("<option value=\"7\" selected>07:00"));
    assert!(form.body.contains("value=\"Europe/Berlin\""));
    assert!(form.body.contains("are saved"));
    let bad = b
        .submit(
            "/notifications/settings",
            "/notifications/settings",
            &[("digest_frequency", "hourly"), ("digest_hour", "7")],
        )
        .await;
    assert_eq!(bad.status, 422);
    assert!(bad.body.contains("id=\"digest_frequency-error\""), "{}", bad.body);
    let zone = b
        .submit(
            "/notifications/settings",
            "/notifications/settings",
            &[("digest_frequency", "daily"), ("digest_hour", "7"), ("timezone", "Mars/Olympus")],
        )
        .await;
    assert_eq!(zone.status, 422);
    assert!(zone.body.contains("id=\"timezone-error\""), "{}", zone.body);
    s.db.teardown().await;
}

on_both_backends![
    signed_out_workspace_pages_redirect_to_sign_in,
    save_from_search_and_move_on_the_board,
    the_application_page_has_notes_a_timeline_and_the_draft,
    workspace_forms_check_csrf_and_ownership,
    saved_searches_are_saved_subscribed_shared_and_deleted,
    notification_settings_are_saved_and_checked,
];
