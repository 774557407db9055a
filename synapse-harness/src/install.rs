//! Installing the pinned Synapse into a virtual environment once, under a file lock, so that
//! test binaries started at the same time neither race nor install twice.

use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::error::HarnessError;
use crate::process::wait_bounded;

/// The Synapse release installed from PyPI (it supports CPython 3.10 and later).
pub const SYNAPSE_VERSION: &str = "1.163.2";

/// The PostgreSQL driver Synapse uses (`psycopg2`), installed into the same environment when a
/// server is first started on PostgreSQL: the binary wheel, which needs no compiler or libpq.
pub const PSYCOPG2_VERSION: &str = "2.9.13";

/// How long creating the environment and installing Synapse may take, including waiting for
/// another process that is installing it.
const INSTALL_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// The file inside the environment that says which Synapse it holds; written last.
const MARKER: &str = "capabot-synapse-version";
/// The file inside the environment that says which `psycopg2` it holds; written last.
const DRIVER_MARKER: &str = "capabot-psycopg2-version";

/// The environment's Python, installing Synapse first if needed. Later calls in the same process
/// return at once.
///
/// The environment is at `$SYNAPSE_HARNESS_VENV` if set, else `synapse-venv` in the cargo target
/// directory (`$CARGO_TARGET_DIR`, or the nearest ancestor of the running executable that holds
/// cargo's `CACHEDIR.TAG`). The Python that creates it is `$SYNAPSE_HARNESS_PYTHON` or `python3`.
pub fn ensure_installed() -> Result<PathBuf, HarnessError> {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    if let Some(python) = PYTHON.get() {
        return Ok(python.clone());
    }
    let python = install_into(&venv_dir())?;
    Ok(PYTHON.get_or_init(|| python).clone())
}

/// Where the virtual environment lives (see [`ensure_installed`]).
pub fn venv_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("SYNAPSE_HARNESS_VENV") {
        return PathBuf::from(dir);
    }
    target_dir().unwrap_or_else(|| std::env::temp_dir().join("capabot-synapse")).join("synapse-venv")
}

/// Installs Synapse if needed, then `psycopg2` into its environment if needed (see
/// [`PSYCOPG2_VERSION`]), under the same lock. Later calls in the same process return at once.
pub fn ensure_postgres_driver() -> Result<PathBuf, HarnessError> {
    static DONE: OnceLock<PathBuf> = OnceLock::new();
    if let Some(python) = DONE.get() {
        return Ok(python.clone());
    }
    let python = ensure_installed()?;
    let venv = venv_dir();
    let wanted = format!("psycopg2-binary=={PSYCOPG2_VERSION}\n");
    let (lock_path, install_log) = lock_and_log_paths(&venv);
    let deadline = Instant::now() + INSTALL_TIMEOUT;
    let _lock = lock_exclusive(&lock_path, deadline)?;
    if !fs::read_to_string(venv.join(DRIVER_MARKER)).is_ok_and(|marker| marker == wanted) {
        let log = File::create(&install_log)
            .map_err(|e| HarnessError::new(format!("cannot create {}: {e}", install_log.display())))?;
        let pip = Pip { python: &python, venv: &venv, log: &log, log_path: &install_log, deadline };
        pip.install(&wanted, DRIVER_MARKER, "installing psycopg2 with pip")?;
    }
    Ok(DONE.get_or_init(|| python).clone())
}

/// The lock file and the install log beside the environment `venv`.
fn lock_and_log_paths(venv: &Path) -> (PathBuf, PathBuf) {
    let parent = venv.parent().unwrap_or(Path::new("."));
    let name = venv.file_name().map_or("synapse-venv".into(), |n| n.to_string_lossy());
    (parent.join(format!("{name}.lock")), parent.join(format!("{name}.install.log")))
}

fn target_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        let dir = PathBuf::from(dir);
        // A relative CARGO_TARGET_DIR is relative to where cargo ran, which a test cannot know.
        if dir.is_absolute() {
            return Some(dir);
        }
    }
    let exe = std::env::current_exe().ok()?;
    exe.ancestors().skip(1).find(|dir| dir.join("CACHEDIR.TAG").is_file()).map(Path::to_path_buf)
}

fn install_into(venv: &Path) -> Result<PathBuf, HarnessError> {
    let python = venv.join("bin").join("python");
    let wanted = format!("matrix-synapse=={SYNAPSE_VERSION}\n");
    let parent = venv.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent).map_err(|e| HarnessError::new(format!("cannot create {}: {e}", parent.display())))?;
    let (lock_path, install_log) = lock_and_log_paths(venv);
    let deadline = Instant::now() + INSTALL_TIMEOUT;
    let _lock = lock_exclusive(&lock_path, deadline)?;

    if fs::read_to_string(venv.join(MARKER)).is_ok_and(|marker| marker == wanted) {
        return Ok(python);
    }
    if venv.exists() {
        fs::remove_dir_all(venv)
            .map_err(|e| HarnessError::new(format!("cannot remove the stale {}: {e}", venv.display())))?;
    }
    let log = File::create(&install_log)
        .map_err(|e| HarnessError::new(format!("cannot create {}: {e}", install_log.display())))?;
    let system_python = std::env::var_os("SYNAPSE_HARNESS_PYTHON").unwrap_or_else(|| "python3".into());
    let mut make_venv = Command::new(&system_python);
    make_venv.arg("-m").arg("venv").arg(venv);
    run_logged(make_venv, &log, &install_log, deadline, "creating the virtual environment")?;
    let pip = Pip { python: &python, venv, log: &log, log_path: &install_log, deadline };
    pip.install(&wanted, MARKER, "installing Synapse with pip")?;
    Ok(python)
}

/// pip of the environment `venv`, its output appended to `log`.
struct Pip<'a> {
    python: &'a Path,
    venv: &'a Path,
    log: &'a File,
    log_path: &'a Path,
    deadline: Instant,
}

impl Pip<'_> {
    /// Installs `requirement` (a line, `name==version`), then writes it into the environment's
    /// `marker` file, last, so that a marker always names what is installed.
    fn install(&self, requirement: &str, marker: &str, what: &str) -> Result<(), HarnessError> {
        let mut pip = Command::new(self.python);
        pip.args(["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet"])
            .arg(requirement.trim());
        run_logged(pip, self.log, self.log_path, self.deadline, what)?;
        fs::write(self.venv.join(marker), requirement)
            .map_err(|e| HarnessError::new(format!("cannot write the marker in {}: {e}", self.venv.display())))
    }
}

/// Runs `command` with its output appended to `log`, failing past `deadline`.
fn run_logged(
    mut command: Command,
    log: &File,
    log_path: &Path,
    deadline: Instant,
    what: &str,
) -> Result<(), HarnessError> {
    let output = |log: &File| {
        log.try_clone()
            .map(Stdio::from)
            .map_err(|e| HarnessError::new(format!("cannot share {}: {e}", log_path.display())))
    };
    command.stdin(Stdio::null()).stdout(output(log)?).stderr(output(log)?);
    let mut child = command
        .spawn()
        .map_err(|e| HarnessError::new(format!("{what}: cannot run {:?}: {e}", command.get_program())))?;
    let timeout = deadline.saturating_duration_since(Instant::now());
    match wait_bounded(&mut child, timeout) {
        Ok(Some(status)) if status.success() => Ok(()),
        Ok(Some(status)) => Err(HarnessError::with_logs(format!("{what} failed ({status})"), &[log_path], 40)),
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            Err(HarnessError::with_logs(format!("{what} did not finish within {INSTALL_TIMEOUT:?}"), &[log_path], 40))
        }
        Err(e) => Err(HarnessError::new(format!("{what}: {e}"))),
    }
}

/// Takes an exclusive lock on `path`, waiting for it until `deadline`. The lock is released when
/// the returned file is dropped (or its process dies).
fn lock_exclusive(path: &Path, deadline: Instant) -> Result<File, HarnessError> {
    let file = OpenOptions::new()
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
                return Err(HarnessError::new(format!(
                    "another process held {} for longer than {INSTALL_TIMEOUT:?}",
                    path.display()
                )));
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
    fn a_second_lock_waits_for_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let first = lock_exclusive(&path, Instant::now()).unwrap();
        let refused = lock_exclusive(&path, Instant::now() + Duration::from_millis(300));
        assert!(refused.unwrap_err().reason().contains("held"));
        drop(first);
        lock_exclusive(&path, Instant::now()).unwrap();
    }
}
