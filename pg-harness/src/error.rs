//! The harness's error: what failed, followed by the end of the log that explains it (pip's
//! output, `initdb`'s, or the server's own).

use std::fmt;
use std::path::Path;

/// Something the harness could not do. [`Display`](fmt::Display) shows the reason and then the
/// last lines of the relevant log, when there is one. No error carries the server's password.
#[derive(Debug, Clone)]
pub struct HarnessError {
    reason: String,
    log: Option<String>,
}

impl HarnessError {
    pub(crate) fn new(reason: impl Into<String>) -> Self {
        HarnessError { reason: reason.into(), log: None }
    }

    /// The reason, followed by the last `lines` lines of `log` if it can be read.
    pub(crate) fn with_log(reason: impl Into<String>, log: &Path, lines: usize) -> Self {
        let log = std::fs::read_to_string(log).ok().map(|text| {
            let kept: Vec<&str> = text.lines().rev().take(lines).collect();
            let tail: Vec<&str> = kept.into_iter().rev().collect();
            format!("--- last lines of {} ---\n{}", log.display(), tail.join("\n"))
        });
        HarnessError { reason: reason.into(), log }
    }

    /// The reason alone, without the log.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)?;
        if let Some(log) = &self.log {
            write!(f, "\n{log}")?;
        }
        Ok(())
    }
}

impl std::error::Error for HarnessError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_shows_the_end_of_its_log() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("x.log");
        std::fs::write(&log, "one\ntwo\nthree\n").unwrap();
        let error = HarnessError::with_log("initdb failed", &log, 2);
        let text = error.to_string();
        assert!(text.starts_with("initdb failed\n"), "{text}");
        assert!(text.ends_with("two\nthree"), "{text}");
        assert!(!text.contains("one"), "{text}");
        assert_eq!(error.reason(), "initdb failed");
    }
}
