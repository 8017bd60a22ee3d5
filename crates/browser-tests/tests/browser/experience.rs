//! The experience bank in a browser: add a job, bank an achievement in one's own words (shown
//! confirmed), see an achievement the assistant inferred shown unconfirmed, confirm it with
//! its button and see it become citable, merge two near-duplicates. Shot at 360, 390 and
//! 1280 px.

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
