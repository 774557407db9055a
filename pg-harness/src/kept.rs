//! The server process, watched by a thread of its own. The thread starts it and waits for it; the
//! kernel sends the server SIGINT (PostgreSQL's fast shutdown) when that thread ends, which happens
//! only once the server has exited or when the whole test binary dies — so a test binary that
//! crashes or is killed leaves no server behind.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitStatus};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A running child process and the thread that waits for it.
pub(crate) struct Kept {
    pid: libc::pid_t,
    exit: Arc<Mutex<Option<ExitStatus>>>,
    watcher: Option<JoinHandle<()>>,
}

impl Kept {
    /// Starts `command` from a new thread that then waits for it.
    pub(crate) fn spawn(mut command: Command) -> io::Result<Kept> {
        // SAFETY: the closure runs in the child between fork and exec and only calls prctl(2),
        // which is async-signal-safe. It runs after the change of user, which would clear it.
        unsafe {
            command.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGINT as libc::c_ulong) == 0 {
                    Ok(())
                } else {
                    Err(io::Error::last_os_error())
                }
            });
        }
        let exit = Arc::new(Mutex::new(None));
        let (started, started_here) = mpsc::channel();
        let exit_there = Arc::clone(&exit);
        let watcher = std::thread::Builder::new().name("pg-harness-server".into()).spawn(move || {
            let mut child = match command.spawn() {
                Ok(child) => child,
                Err(e) => {
                    let _ = started.send(Err(e));
                    return;
                }
            };
            let _ = started.send(Ok(child.id()));
            if let Ok(status) = child.wait() {
                *exit_there.lock().unwrap_or_else(|e| e.into_inner()) = Some(status);
            }
        })?;
        let id = started_here.recv().map_err(|_| io::Error::other("the watcher thread ended early"))??;
        let pid = libc::pid_t::try_from(id).map_err(io::Error::other)?;
        Ok(Kept { pid, exit, watcher: Some(watcher) })
    }

    pub(crate) fn pid(&self) -> u32 {
        self.pid.unsigned_abs()
    }

    /// How the process ended, once it has.
    pub(crate) fn exit_status(&self) -> Option<ExitStatus> {
        *self.exit.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks the process to stop with `signal`, waits up to `grace`, then kills it; returns once
    /// it has been reaped.
    pub(crate) fn stop(&mut self, signal: libc::c_int, grace: Duration) {
        let Some(watcher) = self.watcher.take() else { return };
        if self.exit_status().is_none() {
            self.send(signal);
        }
        let deadline = Instant::now() + grace;
        while !watcher.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        if !watcher.is_finished() {
            self.send(libc::SIGKILL);
        }
        let _ = watcher.join();
    }

    fn send(&self, signal: libc::c_int) {
        // The watcher has not reaped the process while its status is unset, so the pid is still
        // ours (a zombie at worst).
        if self.exit_status().is_none() {
            // SAFETY: kill(2) only reads its two integer arguments.
            unsafe { libc::kill(self.pid, signal) };
        }
    }
}

impl Drop for Kept {
    fn drop(&mut self) {
        self.stop(libc::SIGINT, Duration::from_secs(10));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_process_is_stopped_and_reaped() {
        let mut kept = Kept::spawn({
            let mut sleep = Command::new("sleep");
            sleep.arg("30");
            sleep
        })
        .unwrap();
        assert!(kept.exit_status().is_none());
        let pid = kept.pid();
        kept.stop(libc::SIGTERM, Duration::from_secs(5));
        // SAFETY: signal 0 only asks whether the pid exists.
        let alive = unsafe { libc::kill(pid as libc::pid_t, 0) } == 0;
        assert!(!alive, "pid {pid} still exists");
    }

    #[test]
    fn a_program_that_cannot_start_is_an_error() {
        assert!(Kept::spawn(Command::new("/nonexistent/program")).is_err());
    }
}
