//! The harness itself, on pages given inline (`data:` URLs): the JavaScript switch really
//! switches, full-page screenshots cover the whole page at the asked width, and a failing
//! test leaves its screenshot behind.

use std::time::Duration;

use freehire_browser_tests::{Browser, Scripts, Tools, screenshot_dir};

/// A page whose title says whether its script ran, taller than the window.
const PAGE: &str = "data:text/html,<meta name=viewport content='width=device-width'>\
                    <title>static</title><div style='height:3000px'>tall</div>\
                    <script>document.title='scripted'</script>";

fn tools() -> Tools {
    Tools::from_env().unwrap_or_else(|e| panic!("{e}"))
}

async fn title_with(scripts: Scripts) -> String {
    let b = Browser::launch(&tools(), "http://127.0.0.1:9", scripts).await.unwrap();
    b.client().goto(PAGE).await.unwrap();
    let title = b.client().title().await.unwrap();
    // WebDriver's own scripts run either way: the switch is about the page's.
    let probe = b.script("return typeof document.title", vec![]).await.unwrap();
    assert_eq!(probe, serde_json::json!("string"));
    b.check("harness_title", Duration::from_secs(10), async {}).await;
    title
}

#[tokio::test]
async fn the_script_switch_turns_page_scripts_off() {
    assert_eq!(title_with(Scripts::On).await, "scripted");
    assert_eq!(title_with(Scripts::Off).await, "static");
}

#[tokio::test]
async fn page_shots_cover_the_whole_page_at_each_width() {
    let b = Browser::launch(&tools(), "http://127.0.0.1:9", Scripts::On).await.unwrap();
    b.check("harness_page_shots", Duration::from_secs(30), async {
        b.client().goto(PAGE).await.unwrap();
        let files = b.page_shots("harness-selftest", &[390, 1280]).await.unwrap();
        for (file, width) in files.iter().zip([390, 1280]) {
            let (w, h) = png_size(&std::fs::read(file).unwrap());
            assert_eq!(w, width, "{}", file.display());
            assert!(h >= 3000, "the whole page, not the window: {h} px in {}", file.display());
            std::fs::remove_file(file).unwrap();
        }
    })
    .await;
}

#[tokio::test]
async fn a_failing_body_leaves_a_screenshot() {
    let b = Browser::launch(&tools(), "http://127.0.0.1:9", Scripts::On).await.unwrap();
    let name = "harness_failure_selftest";
    let png = screenshot_dir().join(format!("{name}.png"));
    let _ = std::fs::remove_file(&png);
    let failed = futures_catch(b.check(name, Duration::from_secs(20), async {
        b.client().goto(PAGE).await.unwrap();
        panic!("on purpose");
    }))
    .await;
    assert!(failed, "the panic goes on");
    let (w, _) = png_size(&std::fs::read(&png).unwrap());
    assert_eq!(w, 1280);
    std::fs::remove_file(&png).unwrap();
    let _ = std::fs::remove_file(png.with_extension("html"));
}

/// Whether `fut` panicked.
async fn futures_catch(fut: impl std::future::Future<Output = ()>) -> bool {
    use futures::FutureExt;
    std::panic::AssertUnwindSafe(fut).catch_unwind().await.is_err()
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}
