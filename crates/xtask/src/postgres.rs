//! Bringing up PostgreSQL for tests and benches, idempotently, in this order:
//!
//! 1. `FREEHIRE_TEST_DATABASE_URL`, or `DATABASE_URL` when it names PostgreSQL;
//! 2. a server on 127.0.0.1:5432 that accepts `postgres` without a password;
//! 3. a throwaway cluster under `target/xtask-pg` (port 55432, trust auth, fsync off), made
//!    with the installed `initdb`/`pg_ctl` (as the `postgres` user when we are root) and
//!    reused by later runs;
//! 4. when root with apt: install Debian's `postgresql` package, then 3.
//!
//! `XTASK_PG=throwaway` skips step 2. Otherwise it fails, naming what is missing. It never lets a suite skip its PostgreSQL half.

use std::{
    net::{SocketAddr, TcpStream},
    path::{Path, PathBuf},
    process::Command,
    time::{Duration, Instant},
};

use crate::cmd;

const LOCAL_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";
const THROWAWAY_PORT: u16 = 55432;

/// A PostgreSQL URL the suite can use, bringing a server up if needed.
pub fn ensure() -> Result<String, String> {
    if let Ok(url) = std::env::var("FREEHIRE_TEST_DATABASE_URL") {
        return Ok(url);
    }
    if let Ok(url) = std::env::var("DATABASE_URL")
        && url.starts_with("postgres")
    {
        return Ok(url);
    }
    // XTASK_PG=throwaway skips the local server (to exercise the fallback on any machine).
    let forced = std::env::var("XTASK_PG").is_ok_and(|v| v == "throwaway");
    if !forced && port_open(5432) && accepts(LOCAL_URL) {
        return Ok(LOCAL_URL.to_owned());
    }
    if let Some(bin) = find_bin_dir() {
        return throwaway(&bin);
    }
    if is_root() && which("apt-get").is_some() {
        eprintln!("xtask: PostgreSQL not found; installing Debian's postgresql package");
        cmd::run(Command::new("apt-get").arg("update"))?;
        cmd::run(
            Command::new("apt-get")
                .args(["install", "-y", "--no-install-recommends", "postgresql"])
                .env("DEBIAN_FRONTEND", "noninteractive"),
        )?;
        if let Some(bin) = find_bin_dir() {
            return throwaway(&bin);
        }
    }
    Err("PostgreSQL is required for the test suite and none could be found or started: set \
         FREEHIRE_TEST_DATABASE_URL=postgres://…, run a server on 127.0.0.1:5432 that accepts the \
         `postgres` user, or install PostgreSQL (initdb and pg_ctl)"
        .to_owned())
}

fn port_open(port: u16) -> bool {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    TcpStream::connect_timeout(&addr, Duration::from_millis(500)).is_ok()
}

/// Whether the server takes our URL. Without psql we cannot tell; the suite will say.
fn accepts(url: &str) -> bool {
    match which("psql") {
        Some(psql) => cmd::quiet(Command::new(psql).args([url, "-tAc", "SELECT 1"])),
        None => true,
    }
}

pub(crate) fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(program)).find(|p| p.is_file())
}

pub(crate) fn is_root() -> bool {
    cmd::output(Command::new("id").arg("-u")).is_some_and(|uid| uid.trim() == "0")
}

/// The folder holding `initdb` and `pg_ctl`: Debian's newest version first, then PATH.
fn find_bin_dir() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let v: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            (bin.join("initdb").is_file() && bin.join("pg_ctl").is_file()).then_some((v, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    let initdb = which("initdb")?;
    let dir = initdb.parent()?.to_path_buf();
    dir.join("pg_ctl").is_file().then_some(dir)
}

fn throwaway(bin: &Path) -> Result<String, String> {
    let url = format!("postgres://postgres@127.0.0.1:{THROWAWAY_PORT}/postgres");
    if port_open(THROWAWAY_PORT) {
        return Ok(url);
    }
    let dir = cmd::workspace_root().join("target/xtask-pg");
    let data = dir.join("data");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let root = is_root();
    if root {
        // initdb refuses to run as root: the cluster belongs to the `postgres` user.
        cmd::run(Command::new("chown").args(["-R", "postgres:postgres"]).arg(&dir))
            .map_err(|e| format!("{e} (is there a `postgres` user?)"))?;
    }
    let as_owner = |program: &str| {
        let exe = bin.join(program);
        if root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(exe);
            c
        } else {
            Command::new(exe)
        }
    };
    if !data.join("PG_VERSION").is_file() {
        eprintln!("xtask: creating a throwaway PostgreSQL cluster in {}", data.display());
        cmd::run(as_owner("initdb").arg("-D").arg(&data).args([
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--no-sync",
        ]))?;
    }
    let options = format!(
        "-p {THROWAWAY_PORT} -c listen_addresses=127.0.0.1 -k {} -c fsync=off \
         -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
        dir.display()
    );
    cmd::run(
        as_owner("pg_ctl")
            .arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(dir.join("server.log"))
            .args(["-o", &options, "-w", "start"]),
    )?;
    let deadline = Instant::now() + Duration::from_secs(30);
    while !port_open(THROWAWAY_PORT) {
        if Instant::now() > deadline {
            return Err(format!(
                "the throwaway PostgreSQL did not come up; see {}",
                dir.join("server.log").display()
            ));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Ok(url)
}
