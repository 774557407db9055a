//! The console front end: a terminal chat where one person speaks as several users, processed by
//! the same core as the chat platforms. Lines are `name> message`; `/as NAME` switches the current
//! speaker, `/chat NAME` the chat, `/tick` runs the scheduler, `/quit` ends. Board pictures are
//! written to a folder and their paths printed, with a compact text board.

use crate::bot::{Bot, IncomingMessage, Reply, UserRef};
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

/// Platform name of console users.
pub const PLATFORM: &str = "console";

/// Console settings.
#[derive(Clone, Debug)]
pub struct ConsoleOptions {
    /// Where board pictures go (`None`: not written).
    pub boards_dir: Option<PathBuf>,
    /// Print the text board under replies that have one.
    pub text_boards: bool,
    /// Show a prompt (interactive use).
    pub prompt: bool,
}

impl Default for ConsoleOptions {
    fn default() -> Self {
        ConsoleOptions { boards_dir: Some(PathBuf::from("boards")), text_boards: true, prompt: false }
    }
}

/// A console session: the current speaker and chat, and a counter for picture files.
pub struct Console<'a> {
    bot: &'a Bot,
    opts: ConsoleOptions,
    speaker: String,
    chat: String,
    pictures: u64,
}

/// The message a console line stands for: `(speaker, text)`; `None` for an empty line.
pub fn split_line<'l>(line: &'l str, current: &'l str) -> Option<(&'l str, &'l str)> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.trim().is_empty() {
        return None;
    }
    if let Some((name, rest)) = line.split_once("> ") {
        let name = name.trim();
        if !name.is_empty() && name.len() <= 32 && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
            return Some((name, rest.trim()));
        }
    }
    Some((current, line.trim()))
}

/// `@name` words of a message as mentions (console user ids are lower-case names).
pub fn mentions_in(text: &str) -> Vec<UserRef> {
    text.split_whitespace()
        .filter_map(|w| w.strip_prefix('@'))
        .map(|n| n.trim_end_matches([',', '.', ':', ';', '!', '?']))
        .filter(|n| !n.is_empty() && n.len() <= 32)
        .map(|n| UserRef { id: n.to_lowercase(), name: n.to_string() })
        .collect()
}

impl<'a> Console<'a> {
    pub fn new(bot: &'a Bot, opts: ConsoleOptions) -> Console<'a> {
        Console { bot, opts, speaker: "alice".into(), chat: "main".into(), pictures: 0 }
    }

    /// Runs every line of `input`, writing the bot's replies to `out`.
    pub fn run(&mut self, input: impl BufRead, out: &mut impl Write) -> io::Result<()> {
        let jobs = self.bot.pending_ai_jobs();
        let replies = self.bot.run_ai_jobs_inline(jobs);
        self.print(out, &replies)?;
        let tick = self.bot.tick();
        self.print(out, &tick.replies)?;
        self.prompt(out)?;
        for line in input.lines() {
            let line = match line {
                Ok(l) => l,
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    writeln!(out, "(skipped a line that is not UTF-8)")?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            if !self.line(&line, out)? {
                break;
            }
            self.prompt(out)?;
        }
        Ok(())
    }

    fn prompt(&self, out: &mut impl Write) -> io::Result<()> {
        if self.opts.prompt {
            write!(out, "{}> ", self.speaker)?;
            out.flush()?;
        }
        Ok(())
    }

    /// Handles one line; returns `false` on `/quit`.
    pub fn line(&mut self, line: &str, out: &mut impl Write) -> io::Result<bool> {
        let trimmed = line.trim();
        if trimmed.starts_with("//") || trimmed.starts_with("# ") || trimmed == "#" {
            return Ok(true);
        }
        if let Some(cmd) = trimmed.strip_prefix('/') {
            let mut parts = cmd.split_whitespace();
            match (parts.next(), parts.next()) {
                (Some("as"), Some(name)) => {
                    self.speaker = name.to_string();
                    writeln!(out, "(speaking as {name})")?;
                }
                (Some("chat"), Some(name)) => {
                    self.chat = name.to_string();
                    writeln!(out, "(in chat {name})")?;
                }
                (Some("tick"), None) => {
                    let r = self.bot.tick();
                    self.print(out, &r.replies)?;
                }
                (Some("quit" | "exit"), None) => return Ok(false),
                _ => writeln!(out, "(console commands: /as NAME, /chat NAME, /tick, /quit; or type NAME> MESSAGE)")?,
            }
            return Ok(true);
        }
        let speaker = self.speaker.clone();
        let Some((name, text)) = split_line(line, &speaker) else { return Ok(true) };
        let msg = IncomingMessage {
            platform: PLATFORM.into(),
            chat_id: self.chat.clone(),
            author_id: name.to_lowercase(),
            author_name: name.to_string(),
            text: text.to_string(),
            mentions: mentions_in(text),
        };
        let r = self.bot.handle(&msg);
        self.print(out, &r.replies)?;
        // The console has no async runtime: AI moves are computed inline.
        let more = self.bot.run_ai_jobs_inline(r.ai_jobs);
        self.print(out, &more)?;
        Ok(true)
    }

    fn print(&mut self, out: &mut impl Write, replies: &[Reply]) -> io::Result<()> {
        for r in replies {
            let mut text = r.text.replace('\n', "\n          ");
            if !r.notify.is_empty() {
                let names: Vec<String> = r.notify.iter().map(|u| format!("@{}", u.id)).collect();
                text = format!("{} {text}", names.join(" "));
            }
            writeln!(out, "capabot> {text}")?;
            if let (Some(png), Some(dir)) = (&r.png, &self.opts.boards_dir) {
                self.pictures += 1;
                let stamp = std::process::id();
                let path = dir.join(format!("board-{stamp}-{:04}.png", self.pictures));
                match std::fs::create_dir_all(dir).and_then(|_| std::fs::write(&path, png)) {
                    Ok(()) => writeln!(out, "          board: {}", path.display())?,
                    Err(e) => writeln!(out, "          (could not write {}: {e})", path.display())?,
                }
            }
            if self.opts.text_boards
                && let Some(tb) = &r.text_board
            {
                for l in tb.lines() {
                    writeln!(out, "          {l}")?;
                }
            }
            if !r.choices.is_empty() {
                let c: Vec<String> = r.choices.iter().map(|c| format!("[{}: {}]", c.label, c.command)).collect();
                writeln!(out, "          {}", c.join(" "))?;
            }
        }
        out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_mentions() {
        assert_eq!(split_line("bob> !accept", "alice"), Some(("bob", "!accept")));
        assert_eq!(split_line("!board", "alice"), Some(("alice", "!board")));
        assert_eq!(split_line("   ", "alice"), None);
        assert_eq!(split_line("x y> z", "alice"), Some(("alice", "x y> z")));
        let m = mentions_in("!challenge @Bob, capatomic");
        assert_eq!(m, vec![UserRef { id: "bob".into(), name: "Bob".into() }]);
    }
}
