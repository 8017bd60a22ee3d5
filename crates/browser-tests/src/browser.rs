//! A Chromium session over WebDriver with the helpers the suite's tests are written in.
//! Every wait is bounded by [`WAIT`] (or a deadline the caller gives) and polls; none sleeps
//! a fixed time.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::time::Duration;

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use futures::FutureExt;
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::driver::Driver;
use crate::{BrowserError, Result, Tools, shots};

/// The longest any helper waits for the page.
pub const WAIT: Duration = Duration::from_secs(10);
/// How often a wait looks again.
const POLL: Duration = Duration::from_millis(40);
/// The window a session starts with (CSS pixels).
const WINDOW: (u32, u32) = (1280, 900);

/// The flags every session starts Chromium with: headless, and nothing that would reach for
/// the network (the machine has none) or a profile other than the fresh one.
const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
];

/// Whether pages may run JavaScript.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scripts {
    On,
    /// Disabled through the content-settings preference, as a user or policy would.
    Off,
}

/// One browser: a chromedriver, a Chromium session on a fresh profile, the server's base URL.
#[derive(Debug)]
pub struct Browser {
    client: Client,
    base: String,
    scripts: Scripts,
    // Dropped after the client: the profile directory, then the processes.
    _profile: tempfile::TempDir,
    _driver: Driver,
}

impl Browser {
    /// Starts chromedriver and a session on a fresh profile, visiting pages under `base`
    /// (`http://127.0.0.1:PORT`).
    pub async fn launch(tools: &Tools, base: &str, scripts: Scripts) -> Result<Self> {
        let profile = tempfile::tempdir()
            .map_err(|source| BrowserError::Io { what: "profile directory".into(), source })?;
        let driver = Driver::start(tools).await?;
        let mut args: Vec<String> = FLAGS.iter().map(|f| (*f).to_owned()).collect();
        args.push(format!("--user-data-dir={}", profile.path().display()));
        args.push(format!("--window-size={},{}", WINDOW.0, WINDOW.1));
        let mut prefs = serde_json::Map::new();
        if scripts == Scripts::Off {
            prefs.insert("profile.managed_default_content_settings.javascript".into(), json!(2));
        }
        let options = json!({
            "binary": tools.chromium,
            "args": args,
            "prefs": prefs,
        });
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), json!("chrome"));
        caps.insert("goog:chromeOptions".into(), options);
        let mut builder = ClientBuilder::rustls()
            .map_err(|source| BrowserError::Io { what: "rustls roots".into(), source })?;
        let client = builder.capabilities(caps).connect(&driver.url).await?;
        Ok(Self {
            client,
            base: base.trim_end_matches('/').to_owned(),
            scripts,
            _profile: profile,
            _driver: driver,
        })
    }

    /// The underlying WebDriver client, for what the helpers do not cover.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Whether this browser runs scripts.
    pub fn scripts(&self) -> Scripts {
        self.scripts
    }

    /// The absolute URL of `path` on the server.
    pub fn url_of(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Loads `path` (`/jobs?q=rust`) and waits for the load to finish.
    pub async fn visit(&self, path: &str) -> Result<()> {
        Ok(self.client.goto(&self.url_of(path)).await?)
    }

    /// The current URL.
    pub async fn url(&self) -> Result<url::Url> {
        Ok(self.client.current_url().await?)
    }

    /// The current URL's path and query (`/jobs?skills=rust`).
    pub async fn location(&self) -> Result<String> {
        let url = self.url().await?;
        Ok(match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_owned(),
        })
    }

    /// Waits for an element matching `css` and returns it.
    pub async fn wait_for(&self, css: &str) -> Result<Element> {
        self.wait_until(&format!("an element matching {css}"), || async {
            Ok(self.client.find(Locator::Css(css)).await.ok())
        })
        .await
    }

    /// Waits until no element matches `css`.
    pub async fn wait_gone(&self, css: &str) -> Result<()> {
        self.wait_until(&format!("no element matching {css}"), || async {
            Ok(self.client.find_all(Locator::Css(css)).await?.is_empty().then_some(()))
        })
        .await
    }

    /// Waits until the element matching `css` has a text containing `needle`; returns the text.
    pub async fn wait_text(&self, css: &str, needle: &str) -> Result<String> {
        self.wait_until(&format!("{css} to contain {needle:?}"), || async {
            let Ok(element) = self.client.find(Locator::Css(css)).await else { return Ok(None) };
            let text = element.text().await.unwrap_or_default();
            Ok(text.contains(needle).then_some(text))
        })
        .await
    }

    /// Waits until the current URL's path and query satisfy `accept`; returns them.
    pub async fn wait_location(&self, what: &str, accept: impl Fn(&str) -> bool) -> Result<String> {
        self.wait_until(&format!("the URL to {what}"), || async {
            let at = self.location().await?;
            Ok(accept(&at).then_some(at))
        })
        .await
    }

    /// Polls `probe` until it gives a value, for at most [`WAIT`].
    pub async fn wait_until<T, F, Fut>(&self, what: &str, mut probe: F) -> Result<T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<Option<T>>>,
    {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(value) = probe().await? {
                return Ok(value);
            }
            if Instant::now() >= deadline {
                return Err(BrowserError::Timeout { what: what.to_owned(), after: WAIT });
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// The text of the first element matching `css` (waiting for it).
    pub async fn text(&self, css: &str) -> Result<String> {
        Ok(self.wait_for(css).await?.text().await?)
    }

    /// How many elements match `css` now.
    pub async fn count(&self, css: &str) -> Result<usize> {
        Ok(self.client.find_all(Locator::Css(css)).await?.len())
    }

    /// Clicks the element matching `css` (waiting for it).
    pub async fn click(&self, css: &str) -> Result<()> {
        Ok(self.wait_for(css).await?.click().await?)
    }

    /// Clicks the link or button whose visible text is exactly `text`.
    pub async fn click_text(&self, text: &str) -> Result<()> {
        let xpath =
            format!("//*[self::a or self::button][normalize-space(.)={}]", xpath_literal(text));
        let element = self
            .wait_until(&format!("a link or button {text:?}"), || async {
                Ok(self.client.find(Locator::XPath(&xpath)).await.ok())
            })
            .await?;
        Ok(element.click().await?)
    }

    /// Replaces the value of the field matching `css` with `value` by typing it.
    pub async fn fill(&self, css: &str, value: &str) -> Result<()> {
        let field = self.wait_for(css).await?;
        field.clear().await?;
        Ok(field.send_keys(value).await?)
    }

    /// Runs `script` in the page (a function body; `arguments` holds `args`).
    pub async fn script(&self, script: &str, args: Vec<Value>) -> Result<Value> {
        Ok(self.client.execute(script, args).await?)
    }

    /// Sends one Chrome DevTools Protocol command through chromedriver; returns its result.
    pub async fn cdp(&self, command: &'static str, params: Value) -> Result<Value> {
        shots::cdp(&self.client, command, params).await
    }

    /// A PNG of the whole page (beyond the viewport) at the current width.
    pub async fn full_page_png(&self) -> Result<Vec<u8>> {
        shots::full_page(&self.client).await
    }

    /// Writes the current page at each width to `target/screenshots/pages/<page>-<width>.png`
    /// (full height); returns the files.
    pub async fn page_shots(&self, page: &str, widths: &[u32]) -> Result<Vec<std::path::PathBuf>> {
        shots::at_widths(&self.client, page, widths).await
    }

    /// Runs a test's `body` for at most `limit`. When it panics or runs out of time, the
    /// page as it was is saved to `target/screenshots/<name>.png` (and `<name>.html`) and the
    /// failure goes on; the session is closed either way.
    pub async fn check(&self, name: &str, limit: Duration, body: impl Future<Output = ()>) {
        let outcome = tokio::time::timeout(limit, AssertUnwindSafe(body).catch_unwind()).await;
        let failed = !matches!(outcome, Ok(Ok(())));
        if failed {
            match shots::save_failure(&self.client, name).await {
                Ok(png) => eprintln!("browser: the page at the failure: {}", png.display()),
                Err(e) => eprintln!("browser: no failure screenshot for {name}: {e}"),
            }
        }
        let _ = self.client.clone().close().await;
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(_) => panic!("{name} did not finish within {limit:?}"),
        }
    }
}

/// `text` as an XPath string literal (XPath 1 has no escapes: quotes are concatenated).
fn xpath_literal(text: &str) -> String {
    if !text.contains('\'') {
        return format!("'{text}'");
    }
    if !text.contains('"') {
        return format!("\"{text}\"");
    }
    let parts: Vec<String> = text.split('\'').map(|p| format!("'{p}'")).collect();
    format!("concat({})", parts.join(", \"'\", "))
}

#[cfg(test)]
mod tests {
    use super::xpath_literal;

    #[test]
    fn xpath_literals_quote_any_text() {
        assert_eq!(xpath_literal("Sign in"), "'Sign in'");
        assert_eq!(xpath_literal("Don't"), "\"Don't\"");
        assert_eq!(xpath_literal("a'b\"c"), "concat('a', \"'\", 'b\"c')");
    }
}
