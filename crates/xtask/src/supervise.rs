//! Running a background and a foreground server together, as `cargo xtask run` does with the
//! worker and the API.
//!
//! SIGINT and SIGTERM sent to xtask are forwarded to both servers (the same signal), so a
//! `kill <xtask>` stops them instead of leaving them as orphans; Ctrl-C in a terminal reaches
//! the whole process group anyway and a second copy of the signal is harmless (each server
//! shuts down on the first). The run ends when the foreground server exits, for whatever
//! reason: the background one is then sent SIGTERM and waited for. xtask itself exits only
//! after both are reaped. Signals are polled every [`POLL`] (std has no wait with timeout).
//!
//! The listener is installed before either server starts, so no signal can kill xtask while
//! a server runs. Signals go out through the `kill` command: the workspace forbids `unsafe`.

use std::process::{Child, Command, ExitStatus};
use std::time::Duration;

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// How often the children and pending signals are checked.
const POLL: Duration = Duration::from_millis(50);

/// Starts `background` then `foreground`, forwards SIGINT/SIGTERM to both until `foreground`
/// exits, then stops `background`. Returns the foreground's exit status.
pub fn run(background: &mut Command, foreground: &mut Command) -> Result<ExitStatus, String> {
    let mut signals =
        Signals::new([SIGINT, SIGTERM]).map_err(|e| format!("cannot listen for signals: {e}"))?;
    let mut background = Server::start(background)?;
    let mut foreground = match Server::start(foreground) {
        Ok(server) => server,
        Err(e) => {
            background.stop();
            return Err(e);
        }
    };
    let status = loop {
        for signal in signals.pending() {
            let name = if signal == SIGINT { "INT" } else { "TERM" };
            eprintln!("xtask: SIG{name}: stopping both servers");
            background.signal(name);
            foreground.signal(name);
        }
        background.reap();
        if let Some(status) = foreground.reap() {
            break status;
        }
        std::thread::sleep(POLL);
    };
    background.stop();
    Ok(status)
}

/// A started child and, once reaped, its exit status.
struct Server {
    name: String,
    child: Child,
    status: Option<ExitStatus>,
}

impl Server {
    fn start(command: &mut Command) -> Result<Self, String> {
        let name = command.get_program().to_string_lossy().into_owned();
        let child = command.spawn().map_err(|e| format!("cannot start {name}: {e}"))?;
        eprintln!("xtask: started {name} (pid {})", child.id());
        Ok(Self { name, child, status: None })
    }

    /// The exit status, once the child has exited (it is then reaped).
    fn reap(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            match self.child.try_wait() {
                Ok(status) => self.status = status,
                Err(e) => eprintln!("xtask: cannot check {}: {e}", self.name),
            }
        }
        self.status
    }

    /// Sends `SIG<name>` unless the child is already reaped (its pid may be reused).
    fn signal(&mut self, name: &str) {
        if self.reap().is_none() {
            let pid = self.child.id().to_string();
            if !crate::cmd::quiet(Command::new("kill").args(["-s", name, &pid])) {
                eprintln!("xtask: cannot send SIG{name} to {} (pid {pid})", self.name);
            }
        }
    }

    /// Sends SIGTERM if still running and waits for the exit.
    fn stop(&mut self) {
        self.signal("TERM");
        if self.status.is_none()
            && let Err(e) = self.child.wait()
        {
            eprintln!("xtask: cannot wait for {}: {e}", self.name);
        }
    }
}
