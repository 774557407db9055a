//! Running the harness's helper programs (python, pip, `initdb`, `useradd`) with their output in a
//! log file and a limit on how long they may take.

use std::fs::File;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::error::HarnessError;

/// How many lines of a helper's log an error shows.
pub(crate) const LOG_LINES: usize = 40;

/// Runs `command` to completion with its standard output and error appended to `log`. Fails when
/// it cannot start, exits unsuccessfully, or is still running after `timeout` (it is then killed).
pub(crate) fn run_logged(mut command: Command, log: &Path, timeout: Duration, what: &str) -> Result<(), HarnessError> {
    let open = || {
        File::options()
            .create(true)
            .append(true)
            .open(log)
            .map_err(|e| HarnessError::new(format!("{what}: cannot open {}: {e}", log.display())))
    };
    command.stdin(Stdio::null()).stdout(open()?).stderr(open()?);
    let mut child = command
        .spawn()
        .map_err(|e| HarnessError::new(format!("{what}: cannot run {:?}: {e}", command.get_program())))?;
    match wait_until(&mut child, Instant::now() + timeout) {
        Ok(Some(status)) if status.success() => Ok(()),
        Ok(Some(status)) => Err(HarnessError::with_log(format!("{what} failed ({status})"), log, LOG_LINES)),
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            Err(HarnessError::with_log(format!("{what} did not finish within {timeout:?}"), log, LOG_LINES))
        }
        Err(e) => Err(HarnessError::new(format!("{what}: waiting for it: {e}"))),
    }
}

/// Waits for `child` until `deadline`; `Ok(None)` when it is still running then.
pub(crate) fn wait_until(child: &mut Child, deadline: Instant) -> std::io::Result<Option<ExitStatus>> {
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if Instant::now() >= deadline {
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_helper_that_fails_or_hangs_is_reported_with_its_output() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("helper.log");
        let mut failing = Command::new("sh");
        failing.args(["-c", "echo no such thing >&2; exit 3"]);
        let error = run_logged(failing, &log, Duration::from_secs(30), "the helper").unwrap_err();
        assert!(error.reason().contains("failed"), "{error}");
        assert!(error.to_string().contains("no such thing"), "{error}");

        let mut hanging = Command::new("sleep");
        hanging.arg("30");
        let error = run_logged(hanging, &log, Duration::from_millis(100), "the sleeper").unwrap_err();
        assert!(error.reason().contains("did not finish"), "{error}");

        run_logged(Command::new("true"), &log, Duration::from_secs(30), "true").unwrap();
    }
}
