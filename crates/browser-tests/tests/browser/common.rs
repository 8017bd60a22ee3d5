//! What every page test shares: a served catalogue with a browser on it, and reading the
//! search page's total.

use std::time::Duration;

use freehire_browser_tests::{Browser, Scripts, Tools};

use crate::server::Server;

/// The longest one test may take (its waits are bounded by far less).
pub const LIMIT: Duration = Duration::from_secs(60);

/// A fresh server and a browser pointed at it.
pub async fn served(scripts: Scripts) -> (Server, Browser) {
    let tools = Tools::from_env().unwrap_or_else(|e| panic!("{e}"));
    let server = Server::start().await;
    let browser = Browser::launch(&tools, &server.base, scripts).await.unwrap();
    (server, browser)
}

/// The total the search page shows now.
pub async fn total(b: &Browser) -> usize {
    let text = b.text("#total").await.unwrap();
    text.trim().parse().unwrap_or_else(|_| panic!("a total, not {text:?}"))
}

/// Waits until the search page shows `expected` jobs.
pub async fn wait_total(b: &Browser, expected: usize) {
    let shown = b
        .wait_until(&format!("the total to be {expected}"), || async {
            let text = match b.client().find(fantoccini::Locator::Css("#total")).await {
                Ok(el) => el.text().await.unwrap_or_default(),
                Err(_) => return Ok(None),
            };
            Ok((text.trim() == expected.to_string()).then_some(()))
        })
        .await;
    if let Err(e) = shown {
        let now = b.text("#total").await.unwrap_or_default();
        panic!("{e} (it shows {now:?})");
    }
}

/// Whether the page's own scripts ran (htmx defines `window.htmx`).
pub async fn htmx_loaded(b: &Browser) -> bool {
    let kind = b.script("return typeof window.htmx", vec![]).await.unwrap();
    kind == "object"
}

/// Marks the current document, to tell later whether it was replaced by a full load.
pub async fn mark_document(b: &Browser) {
    b.script("window.__freehireMark = 'kept'", vec![]).await.unwrap();
}

/// Whether the document marked by [`mark_document`] is still the one shown.
pub async fn same_document(b: &Browser) -> bool {
    b.script("return window.__freehireMark === 'kept'", vec![]).await.unwrap() == true
}
