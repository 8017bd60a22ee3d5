//! What the command line's process tests share: running the binary with an environment.

use std::io::Write;
use std::process::{Command, Stdio};

/// `freehire ARGS` with `env` and `stdin`, without the caller's database or API settings:
/// (success, stdout, stderr).
pub fn freehire(env: &[(&str, &str)], args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_freehire"));
    cmd.args(args)
        .env_remove("DATABASE_URL")
        .env_remove("FREEHIRE_API_KEY")
        .env_remove("FREEHIRE_API_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
