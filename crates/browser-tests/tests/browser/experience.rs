//! The experience bank and the CV editor in a browser: add a job, bank an achievement in one's
//! own words (shown confirmed), see an achievement the assistant inferred shown unconfirmed,
//! confirm it with its button and see it become citable, merge two near-duplicates; start the
//! base CV, see its preview pages render, add a job, edit the summary, undo that revision and
//! download the PDF; paste a CV as text (refused text kept in the form) and see it become the
//! base CV and the bank.

use freehire_browser_tests::Scripts;

use crate::common::{LIMIT, served};
use crate::pages::shoot;
use crate::workspace::sign_up;

// scenario: Build the bank and confirm an inferred achievement in a browser
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bank_is_built_and_an_inferred_achievement_confirmed() {
    let (server, b) = served(Scripts::On).await;
    b.check("the_bank_is_built_and_an_inferred_achievement_confirmed", LIMIT, async {
        sign_up(&b, "ada@example.com").await;
        b.click("header a[href='/experience']").await.unwrap();
        b.wait_text("main h1", "Experience").await.unwrap();

        b.fill("#company", "Acme").await.unwrap();
        b.fill("#role", "Platform engineer").await.unwrap();
        b.fill("#start", "2021-03").await.unwrap();
        b.click("form[action='/experience/employments'] button[type=submit]").await.unwrap();
        b.wait_location("add the job", |l| l == "/experience?done=employment").await.unwrap();
        b.wait_text("main", "Platform engineer · Acme").await.unwrap();

        b.fill("#claim", "Led the migration to Kubernetes for 40 services").await.unwrap();
        b.click("form[action='/experience/atoms'] button[type=submit]").await.unwrap();
        b.wait_location("bank it", |l| l == "/experience?done=atom").await.unwrap();
        b.wait_text("main", "Confirmed · manual").await.unwrap();

        // The assistant's own reading is shown unconfirmed, with a Confirm button.
        server
            .bank_inferred("ada@example.com", "Led the migration of 40 services to Kubernetes")
            .await;
        b.visit("/experience").await.unwrap();
        b.wait_text("#unconfirmed-count", "1 unconfirmed").await.unwrap();
        b.wait_text("main", "Unconfirmed: the assistant's reading").await.unwrap();
        shoot(&b, "experience").await;
        b.click_text("Confirm").await.unwrap();
        b.wait_location("confirm it", |l| l == "/experience?done=confirmed").await.unwrap();
        b.wait_text("main", "Confirmed: a CV may now cite it.").await.unwrap();
        assert!(!b.text("main").await.unwrap().contains("Unconfirmed"), "now citable");

        // The two near-duplicates merge into one.
        b.wait_text("#dupes-heading", "These look alike").await.unwrap();
        b.click_text("Merge the first two").await.unwrap();
        b.wait_location("merge", |l| l == "/experience?done=merged").await.unwrap();
        assert_eq!(b.count("li.atom").await.unwrap(), 1);
    })
    .await;
}

// scenario: Write a CV in the editor, see its preview, undo an edit and download the PDF in a browser
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cv_is_written_previewed_undone_and_downloaded() {
    let (_server, b) = served(Scripts::On).await;
    b.check("a_cv_is_written_previewed_undone_and_downloaded", LIMIT, async {
        sign_up(&b, "grace@example.com").await;
        b.click("header a[href='/cvs']").await.unwrap();
        b.fill("#full_name", "Grace Hopper").await.unwrap();
        b.fill("#summary", "Compiler pioneer.").await.unwrap();
        b.click("form[action='/cvs'] button[type=submit]").await.unwrap();
        b.wait_text("main", "Your base CV is created.").await.unwrap();

        // The preview is the PDF's own pages, loaded as images.
        b.wait_for("img.cv-page").await.unwrap();
        let loaded = "const img = document.querySelector('img.cv-page'); \
                      return img.complete && img.naturalWidth > 0;";
        for _ in 0..50 {
            if b.script(loaded, vec![]).await.unwrap() == serde_json::json!(true) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(b.script(loaded, vec![]).await.unwrap(), serde_json::json!(true), "the preview page renders");

        b.fill("#company", "Remington Rand").await.unwrap();
        b.fill("#role", "Senior mathematician").await.unwrap();
        b.fill("#new-bullets", "Wrote the first compiler, A-0").await.unwrap();
        b.click("form[action$='/experience'] button[type=submit]").await.unwrap();
        b.wait_text("main", "Saved.").await.unwrap();
        b.wait_text("#bullets-0", "Wrote the first compiler, A-0").await.unwrap();

        b.fill("#summary", "Rear admiral and compiler pioneer.").await.unwrap();
        b.click("form[action$='/summary'] button[type=submit]").await.unwrap();
        b.wait_text("main", "Saved.").await.unwrap();
        shoot(&b, "cv-editor").await;
        // Undo the newest revision: the summary edit.
        b.click("#revisions li:first-child form button").await.unwrap();
        b.wait_text("main", "Undone.").await.unwrap();
        let summary = b.script("return document.querySelector('#summary').value;", vec![]).await.unwrap();
        assert_eq!(summary, serde_json::json!("Compiler pioneer."));

        // The download is a PDF.
        let kind = "const href = document.querySelector('#download-pdf').getAttribute('href'); \
                    const r = await fetch(href); const b = new Uint8Array(await r.arrayBuffer()); \
                    return r.headers.get('content-type') + ' ' + String.fromCharCode(...b.slice(0, 4));";
        let got = b.script(&format!("return (async () => {{ {kind} }})();"), vec![]).await.unwrap();
        assert_eq!(got, serde_json::json!("application/pdf %PDF"));
    })
    .await;
}

// scenario: Paste a CV and see it become the base CV and the bank in a browser
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pasted_cv_becomes_the_base_cv_and_the_bank() {
    let (_server, b) = served(Scripts::On).await;
    b.check("a_pasted_cv_becomes_the_base_cv_and_the_bank", LIMIT, async {
        sign_up(&b, "ada@example.com").await;
        b.click("header a[href='/cvs']").await.unwrap();

        // Text that holds no CV is refused with the reason, and the text is still there.
        b.fill("#cv-text", "Ada Lovelace\nI like computers.").await.unwrap();
        b.click("#import-cv button[type=submit]").await.unwrap();
        b.wait_text("#cv-text-error", "no CV could be read").await.unwrap();
        let kept =
            b.script("return document.querySelector('#cv-text').value;", vec![]).await.unwrap();
        assert_eq!(kept, "Ada Lovelace\nI like computers.");

        let pasted = "Ada Lovelace\nada@example.com | London, UK\n\nExperience\n\
            Senior Engineer - Acme Ltd   Mar 2021 - Present\n\
            - Led the migration of twelve services to Kubernetes\n\
            - Cut p99 latency of the ledger API from 900 ms to 120 ms\n\n\
            Analyst at Globex (2017 - 2020)\n\
            - Automated the weekly sales report\n\n\
            Skills\nRust, Go, PostgreSQL\n";
        b.fill("#cv-text", pasted).await.unwrap();
        b.click("#import-cv button[type=submit]").await.unwrap();
        b.wait_location("the imported CV", |l| {
            l.starts_with("/cvs/") && l.contains("done=imported")
        })
        .await
        .unwrap();
        b.wait_text("main", "Imported: 3 achievements added to your experience bank")
            .await
            .unwrap();
        b.wait_text("main", "Senior Engineer · Acme Ltd").await.unwrap();
        b.wait_text("main", "Analyst · Globex").await.unwrap();
        b.wait_for("img.cv-page").await.unwrap();

        b.visit("/experience").await.unwrap();
        b.wait_text("main", "Confirmed · cv_import").await.unwrap();
        assert_eq!(b.count("li.atom").await.unwrap(), 3);
        assert!(b.text("main").await.unwrap().contains("Automated the weekly sales report"));
    })
    .await;
}
