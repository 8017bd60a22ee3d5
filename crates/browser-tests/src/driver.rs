//! One chromedriver process on a port it picks itself (`--port=0`, read back from the line
//! it prints), in a process group of its own so that the Chromium it launches dies with it:
//! dropping the [`Driver`] kills the whole group.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::{BrowserError, Result, Tools};

/// How long chromedriver may take to listen.
const START: Duration = Duration::from_secs(20);
/// What chromedriver prints once it listens, before the port.
const READY: &str = "started successfully on port ";

/// A running chromedriver.
#[derive(Debug)]
pub struct Driver {
    child: Child,
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
}

impl Driver {
    /// Starts chromedriver and waits (bounded) until it listens.
    pub async fn start(tools: &Tools) -> Result<Self> {
        let mut child = Command::new(&tools.chromedriver)
            .args(["--port=0", "--log-level=WARNING"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| BrowserError::Spawn { path: tools.chromedriver.clone(), source })?;
        let stdout = child.stdout.take().ok_or_else(|| {
            BrowserError::Protocol("chromedriver's standard output is not readable".to_owned())
        })?;
        let mut lines = BufReader::new(stdout).lines();
        let port = tokio::time::timeout(START, async {
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(port) = line
                    .split_once(READY)
                    .and_then(|(_, rest)| rest.trim_end_matches('.').trim().parse::<u16>().ok())
                {
                    return Some(port);
                }
            }
            None
        })
        .await;
        let Ok(Some(port)) = port else { return Err(BrowserError::DriverPort(START)) };
        // Keep draining its output so a chatty driver never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Ok(Self { child, url: format!("http://127.0.0.1:{port}/") })
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The group holds the driver and every browser process it started.
        if let Some(pid) = self.child.id() {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", "--", &format!("-{pid}")])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
    }
}
