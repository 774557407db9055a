//! Child-process helpers: bounded waits and POSIX signals.

use std::io;
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

/// Waits for `child` to exit for at most `timeout`; `Ok(None)` when it is still running.
pub(crate) fn wait_bounded(child: &mut Child, timeout: Duration) -> io::Result<Option<ExitStatus>> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if Instant::now() >= deadline {
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `signal` to `child`, which must not have been reaped yet.
pub(crate) fn signal(child: &Child, signal: libc::c_int) -> io::Result<()> {
    let pid = libc::pid_t::try_from(child.id()).map_err(io::Error::other)?;
    // SAFETY: kill(2) only reads its two integer arguments; the pid belongs to our unreaped child.
    if unsafe { libc::kill(pid, signal) } == 0 { Ok(()) } else { Err(io::Error::last_os_error()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    #[test]
    fn a_bounded_wait_gives_up_and_a_signal_ends_the_child() {
        let mut child = Command::new("sleep").arg("30").spawn().unwrap();
        assert!(wait_bounded(&mut child, Duration::from_millis(50)).unwrap().is_none());
        signal(&child, libc::SIGTERM).unwrap();
        let status = wait_bounded(&mut child, Duration::from_secs(5)).unwrap().unwrap();
        assert!(!status.success());
    }
}
