//! Screenshots: whole pages through the DevTools protocol (`Page.captureScreenshot` beyond
//! the viewport, sized by `Page.getLayoutMetrics`), at a width set by
//! `Emulation.setDeviceMetricsOverride`, written under the build's `target/screenshots/`.

use std::path::{Path, PathBuf};

use data_encoding::BASE64;
use fantoccini::Client;
use fantoccini::wd::WebDriverCompatibleCommand;
use serde_json::{Value, json};

use crate::{BrowserError, Result};

/// The height of the emulated screen while a page is shot at a width (the capture itself
/// covers the whole page).
const SCREEN_HEIGHT: u32 = 900;
/// Widths up to this one are shot as a phone (touch, mobile viewport).
const MOBILE_MAX: u32 = 600;

/// chromedriver's `POST /session/{id}/goog/cdp/execute`.
#[derive(Debug)]
struct Cdp {
    command: &'static str,
    params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!("session/{}/goog/cdp/execute", session_id.unwrap_or_default()))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "cmd": self.command, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Sends one DevTools command; returns its result object.
pub(crate) async fn cdp(client: &Client, command: &'static str, params: Value) -> Result<Value> {
    Ok(client.issue_cmd(Cdp { command, params }).await?)
}

/// The build's target directory: the one holding the running test binary
/// (`target/debug/deps/…`), so `CARGO_TARGET_DIR` is honoured.
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().ok();
    let from_exe = exe.as_deref().and_then(|e| e.ancestors().nth(3)).map(Path::to_path_buf);
    from_exe.unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"))
}

/// `target/screenshots`.
pub fn screenshot_dir() -> PathBuf {
    target_dir().join("screenshots")
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    let io = |source| BrowserError::Io { what: format!("writing {}", path.display()), source };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    std::fs::write(path, bytes).map_err(io)
}

/// The whole page as a PNG, at the current viewport width.
pub(crate) async fn full_page(client: &Client) -> Result<Vec<u8>> {
    let metrics = cdp(client, "Page.getLayoutMetrics", json!({})).await?;
    let size = &metrics["cssContentSize"];
    let (Some(width), Some(height)) = (size["width"].as_f64(), size["height"].as_f64()) else {
        return Err(BrowserError::Protocol(format!("layout metrics without a size: {metrics}")));
    };
    let shot = cdp(
        client,
        "Page.captureScreenshot",
        json!({
            "format": "png",
            "captureBeyondViewport": true,
            "clip": { "x": 0, "y": 0, "width": width.ceil(), "height": height.ceil(), "scale": 1 },
        }),
    )
    .await?;
    let data = shot["data"]
        .as_str()
        .ok_or_else(|| BrowserError::Protocol("a screenshot answer without data".to_owned()))?;
    BASE64
        .decode(data.as_bytes())
        .map_err(|e| BrowserError::Protocol(format!("a screenshot that is not base64: {e}")))
}

/// Shoots the current page at each width into `screenshots/pages/<page>-<width>.png`.
pub(crate) async fn at_widths(client: &Client, page: &str, widths: &[u32]) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for &width in widths {
        cdp(
            client,
            "Emulation.setDeviceMetricsOverride",
            json!({
                "width": width,
                "height": SCREEN_HEIGHT,
                "deviceScaleFactor": 1,
                "mobile": width <= MOBILE_MAX,
            }),
        )
        .await?;
        let png = full_page(client).await;
        cdp(client, "Emulation.clearDeviceMetricsOverride", json!({})).await?;
        let path = screenshot_dir().join("pages").join(format!("{page}-{width}.png"));
        write(&path, &png?)?;
        written.push(path);
    }
    Ok(written)
}

/// Saves the page as it is to `screenshots/<name>.png` and its source to `<name>.html`.
pub(crate) async fn save_failure(client: &Client, name: &str) -> Result<PathBuf> {
    let dir = screenshot_dir();
    if let Ok(source) = client.source().await {
        write(&dir.join(format!("{name}.html")), source.as_bytes())?;
    }
    let png = match full_page(client).await {
        Ok(png) => png,
        // A page the protocol cannot measure still has a viewport.
        Err(_) => client.screenshot().await?,
    };
    let path = dir.join(format!("{name}.png"));
    write(&path, &png)?;
    Ok(path)
}
