//! One screenshot per page at the narrowest phone width the layout supports, a common phone's
//! and a desktop's (360, 390 and 1280 px, the whole page) under `target/screenshots/pages/` for
//! the README, each checked to be exactly as wide as the screen: no page overflows sideways.

use freehire_browser_tests::{Browser, Scripts};

use crate::common::{LIMIT, served};

/// The widths every page is shot at.
pub const WIDTHS: [u32; 3] = [360, 390, 1280];

/// Shoots the current page as `name` at [`WIDTHS`], checking each image's width.
pub async fn shoot(b: &Browser, name: &str) {
    for (file, width) in b.page_shots(name, &WIDTHS).await.unwrap().iter().zip(WIDTHS) {
        let png = std::fs::read(file).unwrap();
        let (w, h) = png_size(&png);
        assert_eq!(w, width, "{name} overflows the {width} px screen: {}", file.display());
        assert!(h > 0);
    }
}

/// Width and height from a PNG's header.
pub fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

// scenario: Every page fits 360, 390 and 1280 px
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_is_shot_at_a_phone_and_a_desktop_width() {
    let (_server, b) = served(Scripts::On).await;
    b.check("every_page_is_shot_at_a_phone_and_a_desktop_width", LIMIT, async {
        b.visit("/jobs").await.unwrap();
        b.wait_for("#total").await.unwrap();
        shoot(&b, "search").await;

        let job = b.wait_for(".cards .card h3 a").await.unwrap();
        let href = job.attr("href").await.unwrap().unwrap();
        b.visit(&href).await.unwrap();
        b.wait_for("article.job h1").await.unwrap();
        shoot(&b, "job").await;

        b.visit("/companies").await.unwrap();
        let company = b.wait_for("main a[href^='/companies/']").await.unwrap();
        let href = company.attr("href").await.unwrap().unwrap();
        shoot(&b, "companies").await;
        b.visit(&href).await.unwrap();
        b.wait_for("main h1").await.unwrap();
        shoot(&b, "company").await;

        b.visit("/find").await.unwrap();
        b.wait_for("#find-form").await.unwrap();
        shoot(&b, "find").await;

        b.visit("/status").await.unwrap();
        b.wait_for("#verdict").await.unwrap();
        shoot(&b, "status").await;

        b.visit("/market?skills=python,+rust,+kubernetes&work_mode=remote").await.unwrap();
        b.wait_for("#coverage").await.unwrap();
        shoot(&b, "market").await;

        b.visit("/no-such-page").await.unwrap();
        b.wait_for("main h1").await.unwrap();
        shoot(&b, "not-found").await;
    })
    .await;
}
