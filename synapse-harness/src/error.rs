//! The harness's one error type: what went wrong, and the tail of whichever log explains it.

use std::fmt;
use std::path::Path;

/// Something the harness could not do; [`Display`](fmt::Display) prints the reason followed by
/// the last lines of the relevant log (Synapse's, or pip's during installation).
#[derive(Debug)]
pub struct HarnessError {
    what: String,
    log: Option<(String, String)>,
}

impl HarnessError {
    /// An error with no log to show.
    pub(crate) fn new(what: impl Into<String>) -> Self {
        HarnessError { what: what.into(), log: None }
    }

    /// An error followed by the last `lines` lines of each of `logs` that exists.
    pub(crate) fn with_logs(what: impl Into<String>, logs: &[impl AsRef<Path>], lines: usize) -> Self {
        let mut tails = String::new();
        let mut names = Vec::new();
        for log in logs {
            let log = log.as_ref();
            if let Some(tail) = tail_of_file(log, lines) {
                names.push(log.display().to_string());
                tails.push_str(&format!("==> {} <==\n{tail}\n", log.display()));
            }
        }
        let log = (!names.is_empty()).then(|| (names.join(", "), tails));
        HarnessError { what: what.into(), log }
    }

    /// The reason alone, without the log.
    pub fn reason(&self) -> &str {
        &self.what
    }
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.what)?;
        if let Some((names, tails)) = &self.log {
            write!(f, "\n--- last lines of {names} ---\n{tails}")?;
        }
        Ok(())
    }
}

impl std::error::Error for HarnessError {}

/// The last `lines` lines of a text file, or `None` when it cannot be read.
pub(crate) fn tail_of_file(path: &Path, lines: usize) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let all: Vec<&str> = text.lines().collect();
    let start = all.len().saturating_sub(lines);
    Some(all[start..].join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_appends_the_log_tail() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("x.log");
        std::fs::write(&log, "one\ntwo\nthree\n").unwrap();
        let missing = dir.path().join("missing.log");
        let error = HarnessError::with_logs("it broke", &[&log, &missing], 2);
        let text = error.to_string();
        assert!(text.starts_with("it broke\n--- last lines of "), "{text}");
        assert!(text.contains("two\nthree"), "{text}");
        assert!(!text.contains("one"), "{text}");
        assert!(!text.contains("missing.log"), "{text}");
        assert_eq!(HarnessError::new("plain").to_string(), "plain");
    }
}
