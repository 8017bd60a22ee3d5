//! Running commands, loudly.

use std::{
    path::PathBuf,
    process::{Command, Stdio},
};

/// The workspace root (this crate lives in `crates/xtask`).
pub fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.ancestors().nth(2).map(PathBuf::from).unwrap_or(manifest)
}

/// `cargo ARGS` in the workspace root, with the cargo that runs xtask.
pub fn cargo_command(args: &[&str]) -> Command {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut c = Command::new(cargo);
    c.args(args).current_dir(workspace_root());
    c
}

/// Runs `cargo ARGS`, failing on a non-zero exit.
pub fn cargo(args: &[&str]) -> Result<(), String> {
    run(&mut cargo_command(args))
}

/// Runs a command with inherited stdio, failing on a non-zero exit.
pub fn run(cmd: &mut Command) -> Result<(), String> {
    eprintln!("xtask: $ {}", describe(cmd));
    let status = cmd.status().map_err(|e| format!("cannot run {}: {e}", describe(cmd)))?;
    if status.success() { Ok(()) } else { Err(format!("{} failed ({status})", describe(cmd))) }
}

/// Runs a command quietly and returns whether it succeeded.
pub fn quiet(cmd: &mut Command) -> bool {
    cmd.stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// Runs a command and returns its stdout when it succeeded.
pub fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.stderr(Stdio::null()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}
