//! The job seeker's workspace in a browser: save a job from the search (htmx swaps its
//! buttons in place), open the tracking board, mark it applied, move it to `interview` with
//! the card's form, then drag it to the Offer column (the drag-and-drop enhancement posting the
//! same form), open its application page; save a search from the search page, subscribe to it
//! by email, let a matching job arrive and the notification engines run one pass, and find the
//! digest in the file mailer's folder and its page; report a job as a ghost job from its page
//! and take the report back. Every page is shot at 360, 390 and 1280 px.

use freehire_browser_tests::{Browser, Scripts};

use crate::common::{LIMIT, served};
use crate::pages::shoot;

const PASSWORD: &str = "correct horse battery";

/// Signs up on the form (signed up is signed in).
pub(crate) async fn sign_up(b: &Browser, email: &str) {
    b.visit("/signup").await.unwrap();
    b.fill("#email", email).await.unwrap();
    b.fill("#password", PASSWORD).await.unwrap();
    b.click("form[action='/signup'] button[type=submit]").await.unwrap();
    b.wait_for("header a[href='/tracking']").await.unwrap();
}

/// Drags the element `from` onto `to` with the HTML5 drag events a user's drag fires
/// (WebDriver's pointer actions do not start a native drag in headless Chromium).
async fn drag(b: &Browser, from: &str, to: &str) {
    let script = "const [from, to] = [document.querySelector(arguments[0]), document.querySelector(arguments[1])]; \
                  const data = new DataTransfer(); \
                  const fire = (el, type) => el.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: data})); \
                  fire(from, 'dragstart'); fire(to, 'dragenter'); fire(to, 'dragover'); fire(to, 'drop'); fire(from, 'dragend'); \
                  return from.getAttribute('draggable');";
    let draggable =
        b.script(script, vec![serde_json::json!(from), serde_json::json!(to)]).await.unwrap();
    assert_eq!(draggable, serde_json::json!("true"), "the board script made {from} draggable");
}

// scenario: Save a job, move it on the board and drag it in a browser
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_saved_job_is_applied_moved_and_dragged_on_the_board() {
    let (_server, b) = served(Scripts::On).await;
    b.check("a_saved_job_is_applied_moved_and_dragged_on_the_board", LIMIT, async {
        sign_up(&b, "ada@example.com").await;
        b.visit("/jobs?q=engineer").await.unwrap();
        let first = b.wait_for(".cards .card .actions").await.unwrap();
        let id = first.attr("id").await.unwrap().unwrap();
        let slug = id.trim_start_matches("actions-").to_owned();
        let title = b.text(".cards .card h3 a").await.unwrap();
        crate::common::mark_document(&b).await;
        b.click(&format!("#{id} button.save")).await.unwrap();
        b.wait_text(&format!("#{id}"), "Saved ✓").await.unwrap();
        assert!(crate::common::same_document(&b).await, "htmx swapped the buttons in place");
        shoot(&b, "search-signed-in").await;

        b.click("header a[href='/tracking']").await.unwrap();
        b.wait_text(&format!("#saved-{slug}"), &title).await.unwrap();
        b.click(&format!("#saved-{slug} form[action$='/apply'] button")).await.unwrap();
        b.wait_text("#column-applied", &title).await.unwrap();

        // Move it with the card's form, as without JavaScript.
        let select = b.wait_for("#column-applied .board-card select[name=stage]").await.unwrap();
        select.select_by_value("interview").await.unwrap();
        b.click("#column-applied .board-card form.move button").await.unwrap();
        b.wait_text("#column-interview", &title).await.unwrap();
        b.wait_location("say it moved", |l| l == "/tracking?done=moved").await.unwrap();
        assert!(!b.text("#column-applied").await.unwrap().contains(&title));
        shoot(&b, "tracking").await;

        // Drag it to the Offer column.
        drag(&b, "#column-interview .board-card", "#column-offer").await;
        b.wait_text("#column-offer", &title).await.unwrap();
        assert!(!b.text("#column-interview").await.unwrap().contains(&title));

        // Its application page, with the timeline.
        b.click("#column-offer .board-card h3 a").await.unwrap();
        b.wait_location("open the application", |l| l == format!("/tracking/{slug}"))
            .await
            .unwrap();
        b.wait_text(".timeline", "Stage set to Offer").await.unwrap();
        shoot(&b, "application").await;
        b.visit("/tracking/followups").await.unwrap();
        b.wait_for("main h1").await.unwrap();
        shoot(&b, "followups").await;
    })
    .await;
}

// scenario: Ghost reports and the signal
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ghost_job_is_reported_and_the_report_taken_back_on_its_page() {
    let (_server, b) = served(Scripts::On).await;
    b.check("a_ghost_job_is_reported_and_the_report_taken_back_on_its_page", LIMIT, async {
        sign_up(&b, "linus@example.com").await;
        b.visit("/jobs?q=engineer").await.unwrap();
        let link = b.wait_for(".cards .card h3 a").await.unwrap();
        let href = link.attr("href").await.unwrap().unwrap();
        b.visit(&href).await.unwrap();
        b.wait_for("#report-ghost").await.unwrap();
        // No day given: the day of the report (the form's default).
        b.click("#report-ghost").await.unwrap();
        b.wait_text(".ghost-report", "You reported this as a ghost job (you applied on")
            .await
            .unwrap();
        b.wait_location("back on the job", |l| l == href).await.unwrap();
        shoot(&b, "job-ghost-reported").await;
        b.click("#retract-ghost").await.unwrap();
        b.wait_for("#report-ghost").await.unwrap();
        assert!(!b.text("main").await.unwrap().contains("You reported this as a ghost job"));
    })
    .await;
}

// scenario: Save a search and subscribe to it in a browser
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_is_saved_and_subscribed_from_the_search_page() {
    let (server, b) = served(Scripts::On).await;
    b.check("a_search_is_saved_and_subscribed_from_the_search_page", LIMIT, async {
        sign_up(&b, "grace@example.com").await;
        b.visit("/jobs?q=engineer").await.unwrap();
        b.fill("#save-name", "Engineers").await.unwrap();
        b.click("form.save-search button[type=submit]").await.unwrap();
        b.wait_location("list the saved search", |l| l == "/saved-searches?done=created")
            .await
            .unwrap();
        b.wait_text("main .plain-list", "Engineers").await.unwrap();
        b.click_text("Subscribe by email").await.unwrap();
        b.wait_location("say it subscribed", |l| l == "/saved-searches?done=subscribed")
            .await
            .unwrap();
        b.wait_text("main .plain-list", "Emailed").await.unwrap();
        shoot(&b, "saved-searches").await;

        // A new job matching the search arrives; the engines run one pass (match, digest,
        // deliver).
        b.wait_for("form[action^='/saved-searches/subscriptions/']").await.unwrap();
        let title = "Digest Platform Engineer";
        server.add_job(title).await;
        let stats = server.notify_pass().await;
        assert_eq!(
            (stats.matches, stats.digests, stats.sent, stats.failed),
            (1, 1, 1, 0),
            "{stats:?}"
        );

        // The digest mail lists the job and links its page.
        let mails = server.mails("grace@example.com", "1 new job for Engineers");
        assert_eq!(mails.len(), 1, "one digest in {}", server.mail_dir().display());
        let text = &mails[0];
        assert!(text.contains(title), "{text}");
        let link = text
            .lines()
            .find_map(|l| l.strip_prefix("See it on freehire: "))
            .unwrap_or_else(|| panic!("a link in {text}"));
        let path = link.strip_prefix(server.base.as_str()).unwrap_or_else(|| panic!("{link}"));
        assert!(path.starts_with("/notifications/"), "{path}");

        // The history shows it unread; its page lists the job.
        b.visit("/notifications").await.unwrap();
        b.wait_text("main", "1 new job for Engineers").await.unwrap();
        shoot(&b, "notifications").await;
        b.visit(path).await.unwrap();
        b.wait_text("main", title).await.unwrap();
        shoot(&b, "notification").await;
        b.visit("/notifications/settings").await.unwrap();
        b.wait_for("#digest_frequency").await.unwrap();
        shoot(&b, "notification-settings").await;
    })
    .await;
}
