//! Bringing up `pdftotext` (Debian's `poppler-utils`) for the renderer's ATS test,
//! idempotently: on PATH already, or, when root with apt, `apt-get install -y poppler-utils`.
//! Otherwise it fails, naming the package. The ATS test never skips: it fails without it.

use std::process::Command;

use crate::{cmd, postgres};

/// `pdftotext` is on PATH, installing Debian's `poppler-utils` when it is missing.
pub fn ensure() -> Result<(), String> {
    if postgres::which("pdftotext").is_some() {
        return Ok(());
    }
    if postgres::is_root() && postgres::which("apt-get").is_some() {
        eprintln!("xtask: pdftotext not found; installing Debian's poppler-utils package");
        cmd::run(Command::new("apt-get").arg("update"))?;
        cmd::run(
            Command::new("apt-get")
                .args(["install", "-y", "poppler-utils"])
                .env("DEBIAN_FRONTEND", "noninteractive"),
        )?;
        if postgres::which("pdftotext").is_some() {
            return Ok(());
        }
    }
    Err("pdftotext is required for the PDF text-layer (ATS) test and was not found on PATH: \
         install Debian's `poppler-utils` package (as root: `apt-get install -y poppler-utils`)"
        .to_owned())
}
