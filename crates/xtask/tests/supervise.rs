//! `cargo xtask run`'s supervision: a SIGTERM or SIGINT sent to xtask alone (not its process
//! group) stops both servers, so none is left running as an orphan. Driven through
//! `xtask supervise` with two `sleep` processes standing in for the worker and the API.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether a process with this pid exists (`kill -0`).
fn alive(pid: u32) -> bool {
    Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn send(signal: &str, pid: u32) {
    let sent = Command::new("kill").args(["-s", signal, &pid.to_string()]).status();
    assert!(sent.is_ok_and(|s| s.success()), "kill -s {signal} {pid}");
}

/// Starts the supervision of two `sleep 300`, sends `signal` to xtask only, and checks that
/// xtask and both sleeps are gone within 10 s.
fn both_children_stop_on(signal: &str) {
    let mut xtask = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["supervise", "sleep", "300", "--", "sleep", "300"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("xtask starts");
    // "xtask: started sleep (pid N)", once per child. The reader drains stderr to the end, so
    // xtask's later lines never meet a closed pipe.
    let stderr = BufReader::new(xtask.stderr.take().expect("piped stderr"));
    let (pids, started) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let pid = line
                .strip_prefix("xtask: started sleep (pid ")
                .and_then(|rest| rest.strip_suffix(')').and_then(|pid| pid.parse::<u32>().ok()));
            if let Some(pid) = pid {
                let _ = pids.send(pid);
            }
        }
    });
    let children: Vec<u32> =
        (0..2).filter_map(|_| started.recv_timeout(Duration::from_secs(10)).ok()).collect();
    assert_eq!(children.len(), 2, "both children started: {children:?}");
    assert!(children.iter().all(|&pid| alive(pid)));

    send(signal, xtask.id());
    let deadline = Instant::now() + Duration::from_secs(10);
    while xtask.try_wait().expect("xtask status").is_none() {
        if Instant::now() > deadline {
            let _ = xtask.kill();
            for &pid in &children {
                send("KILL", pid);
            }
            panic!("xtask did not exit within 10 s of SIG{signal}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let orphans: Vec<u32> = children.iter().copied().filter(|&pid| alive(pid)).collect();
    for &pid in &orphans {
        send("KILL", pid);
    }
    assert!(orphans.is_empty(), "SIG{signal} left children running: {orphans:?}");
}

#[test]
fn sigterm_to_xtask_stops_both_servers() {
    both_children_stop_on("TERM");
}

#[test]
fn sigint_to_xtask_stops_both_servers() {
    both_children_stop_on("INT");
}
