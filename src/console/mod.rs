//! The console front end: a terminal chat where one person speaks as several users, run through the
//! same [`Host`] as the chat platforms. Lines are `name> message`; `/as NAME` switches the current
//! speaker, `/chat NAME` the chat, `/dm MESSAGE` (or `name> /dm MESSAGE`) says a message to the bot
//! in the speaker's direct chat, `/tick` runs the scheduler, `/quit` ends. A message that starts with
//! the bot's name (`capabot: games`, `@capabot games`) is addressed to it, as on Matrix and Discord.
//! Board pictures (`.png`) and game animations (`.gif`) are written to a folder and their paths
//! printed, with a compact text board.
//!
//! Each line is settled (its replies printed and the AI's answers played) before the next is read,
//! so a script's output is deterministic. Direct messages are printed with the person they are
//! for (`capabot → @bob:`): the console's one reader is every user, so nothing is secret here.

use crate::bot::{Drawing, Input, PictureFormat, Receipt, Reply, Scope, Target, UserRef, strip_address};
use crate::host::{DeliveryError, FrontEnd, Host};
use async_trait::async_trait;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Platform name of console users.
pub const PLATFORM: &str = "console";
/// The one community of the console's chats.
pub const COMMUNITY: &str = "console";

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

/// `@name` words of a message as mentions (console user ids are lower-case names), also as a
/// person option's value (`opponent:@bob`, `player=@bob`): the console has only the text to find
/// them in, where Discord and Matrix give mentions apart from it.
pub fn mentions_in(text: &str) -> Vec<UserRef> {
    text.split_whitespace()
        .filter_map(|w| w.strip_prefix('@').or_else(|| w.split_once([':', '=']).and_then(|(_, v)| v.strip_prefix('@'))))
        .map(|n| n.trim_end_matches([',', '.', ':', ';', '!', '?']))
        .filter(|n| !n.is_empty() && n.len() <= 32)
        .map(|n| UserRef { id: n.to_lowercase(), name: n.to_string() })
        .collect()
}

/// The console's output side: prints replies, writes board pictures.
pub struct ConsoleOutput {
    out: Mutex<Box<dyn Write + Send>>,
    opts: ConsoleOptions,
    pictures: Mutex<u64>,
    /// The chat lines are typed in now (`/chat NAME`): a reply for another chat is printed with
    /// that chat's name (`capabot [main]> `), as a tournament's announcement in its own chat is.
    current: Mutex<String>,
}

impl ConsoleOutput {
    pub fn new(out: Box<dyn Write + Send>, opts: ConsoleOptions) -> ConsoleOutput {
        ConsoleOutput { out: Mutex::new(out), opts, pictures: Mutex::new(0), current: Mutex::new(FIRST_CHAT.into()) }
    }

    /// Lines are typed in `chat` from now on.
    fn typing_in(&self, chat: &str) {
        if let Ok(mut current) = self.current.lock() {
            chat.clone_into(&mut current);
        }
    }

    /// `capabot> `, or for a shared chat other than the one typed in, `capabot [NAME]> `.
    fn sign(&self, chat: &str) -> String {
        match self.current.lock() {
            Ok(current) if *current != chat => format!("capabot [{chat}]> "),
            _ => "capabot> ".to_string(),
        }
    }

    /// Writes a line of the console's own (not a reply).
    pub fn note(&self, text: &str) -> io::Result<()> {
        let mut out = self.out.lock().map_err(|_| io::Error::other("console output poisoned"))?;
        writeln!(out, "{text}")?;
        out.flush()
    }

    fn prompt(&self, speaker: &str) -> io::Result<()> {
        if self.opts.prompt {
            let mut out = self.out.lock().map_err(|_| io::Error::other("console output poisoned"))?;
            write!(out, "{speaker}> ")?;
            out.flush()?;
        }
        Ok(())
    }

    fn print(&self, r: &Reply) -> io::Result<()> {
        let mut text = r.text.replace('\n', "\n          ");
        let direct = match &r.target {
            Target::Direct { user, .. } => Some(user.id.clone()),
            // An answer in someone's direct chat ([`direct_input`]'s) is theirs as a direct message is.
            Target::Chat(scope) if scope.direct => scope.chat.strip_prefix(DIRECT_CHAT).map(str::to_string),
            Target::Chat(_) => None,
        };
        if !r.notify.is_empty() && direct.is_none() {
            let names: Vec<String> = r.notify.iter().map(|u| format!("@{}", u.id)).collect();
            text = format!("{} {text}", names.join(" "));
        }
        let mut lines = vec![match direct {
            Some(to) => format!("capabot → @{to}: {text}"),
            None => {
                format!("{}{text}", r.target.chat().map_or_else(|| "capabot> ".to_string(), |s| self.sign(&s.chat)))
            }
        }];
        if let (Some((format, bytes)), Some(dir)) = (r.picture(), &self.opts.boards_dir) {
            let n = {
                let mut c = self.pictures.lock().map_err(|_| io::Error::other("counter poisoned"))?;
                *c += 1;
                *c
            };
            // Named by what it shows (a chart is no board).
            let (stem, label) = match (&r.drawing, format) {
                (_, PictureFormat::Gif) | (Some(Drawing::Game(_)), _) => ("game", "animation"),
                (Some(Drawing::Card(_)), _) => ("leaderboard", "leaderboard"),
                (Some(Drawing::Chart(_)), _) => ("chart", "rating chart"),
                (Some(Drawing::Course(_)), _) => ("course", "the game's course"),
                _ => ("board", "board"),
            };
            let path = dir.join(format!("{stem}-{}-{n:04}.{}", std::process::id(), format.extension()));
            match std::fs::create_dir_all(dir).and_then(|_| std::fs::write(&path, bytes)) {
                Ok(()) => lines.push(format!("          {label}: {}", path.display())),
                Err(e) => {
                    let said = crate::tl!(
                        r.lang,
                        "console-not-written",
                        path = path.display().to_string(),
                        error = e.to_string()
                    );
                    lines.push(format!("          {said}"));
                }
            }
        }
        if self.opts.text_boards
            && let Some(tb) = &r.text_board
        {
            lines.extend(tb.lines().map(|l| format!("          {l}")));
        }
        if let Some(url) = r.web_url() {
            lines.push(format!("          {}", crate::tl!(r.lang, "web-game-link", url = url)));
        }
        if !r.choices.is_empty() {
            let c: Vec<String> = r.choices.iter().map(|c| format!("[{}: {}]", c.label, c.typed)).collect();
            lines.push(format!("          {}", c.join(" ")));
        }
        let mut out = self.out.lock().map_err(|_| io::Error::other("console output poisoned"))?;
        for l in lines {
            writeln!(out, "{l}")?;
        }
        out.flush()
    }
}

#[async_trait]
impl FrontEnd for ConsoleOutput {
    fn platform(&self) -> &str {
        PLATFORM
    }

    fn has_direct_messages(&self) -> bool {
        true
    }

    async fn deliver(&self, reply: &Reply) -> Result<Receipt, DeliveryError> {
        // Author-only replies and direct messages are printed like the others (direct ones with
        // whom they are for): the console's one reader is every user.
        self.print(reply).map_err(|e| DeliveryError::Failed(format!("console output: {e}")))?;
        Ok(Receipt::default())
    }
}

/// The console's input side: the current speaker and chat.
struct Session {
    speaker: String,
    chat: String,
}

/// Runs the console on `host`: every line of `input` (read on its own thread), replies printed to
/// `output`, until the input ends, `/quit`, or shutdown begins.
pub async fn run(host: Arc<Host>, output: Arc<ConsoleOutput>, input: Box<dyn BufRead + Send>) -> io::Result<()> {
    host.register(output.clone());
    host.resume_ai_and_wait().await;
    host.tick().await;
    let (tx, mut rx) = tokio::sync::mpsc::channel::<io::Result<String>>(16);
    std::thread::spawn(move || {
        for line in input.lines() {
            if tx.blocking_send(line).is_err() {
                break;
            }
        }
    });
    let stop = host.stopping();
    let mut s = Session { speaker: "alice".into(), chat: FIRST_CHAT.into() };
    output.prompt(&s.speaker)?;
    loop {
        let line = tokio::select! {
            _ = stop.cancelled() => break,
            line = rx.recv() => match line {
                None => break,
                Some(Ok(l)) => l,
                Some(Err(e)) if e.kind() == io::ErrorKind::InvalidData => {
                    output.note(&crate::tl!(host.bot().config().lang, "console-not-utf8"))?;
                    continue;
                }
                Some(Err(e)) => return Err(e),
            },
        };
        if !line_to_host(&host, &output, &mut s, &line).await? {
            break;
        }
        output.prompt(&s.speaker)?;
    }
    Ok(())
}

/// Handles one line; `false` on `/quit`.
async fn line_to_host(host: &Arc<Host>, output: &ConsoleOutput, s: &mut Session, line: &str) -> io::Result<bool> {
    let trimmed = line.trim();
    if trimmed.starts_with("//") || trimmed.starts_with("# ") || trimmed == "#" {
        return Ok(true);
    }
    if let Some(cmd) = trimmed.strip_prefix('/') {
        let mut parts = cmd.split_whitespace();
        match (parts.next(), parts.next()) {
            (Some("as"), Some(name)) => {
                s.speaker = name.to_string();
                output.note(&format!("(speaking as {name})"))?;
            }
            (Some("chat"), Some(name)) => {
                s.chat = name.to_string();
                output.typing_in(name);
                output.note(&format!("(in chat {name})"))?;
            }
            (Some("tick"), None) => host.tick().await,
            (Some("dm"), Some(_)) => {
                let text = cmd.trim_start().strip_prefix("dm").unwrap_or("").trim();
                return Ok(host.handle(direct_input(&s.speaker, text)).await.is_ok());
            }
            (Some("quit" | "exit"), None) => return Ok(false),
            _ => output
                .note("(console commands: /as NAME, /chat NAME, /dm MESSAGE, /tick, /quit; or type NAME> MESSAGE)")?,
        }
        return Ok(true);
    }
    let speaker = s.speaker.clone();
    let Some((name, text)) = split_line(line, &speaker) else { return Ok(true) };
    // `NAME> /dm MESSAGE`: NAME's direct message (what `/as NAME` then `/dm MESSAGE` says).
    if let Some(text) = text.strip_prefix("/dm").filter(|t| t.starts_with(char::is_whitespace)) {
        return Ok(host.handle(direct_input(name, text.trim())).await.is_ok());
    }
    // Every console chat is in one community, so that ratings per community, ladders and
    // tournaments can be tried here too; the console's user is everyone, administrator included.
    let scope = Scope::chat(PLATFORM, s.chat.clone()).in_community(COMMUNITY);
    Ok(host.handle(console_input(scope, name, text)).await.is_ok())
}

/// The name people address the bot by in the console's chats (`capabot: games`, `@capabot games`),
/// as it signs its lines.
const BOT_NAME: &str = "capabot";

/// The chat lines are typed in until `/chat NAME`.
const FIRST_CHAT: &str = "main";

/// How a person's direct chat with the bot is named: this, then their lower-case name.
const DIRECT_CHAT: &str = "dm-";

/// `text` said by `name` in their direct chat with the bot.
fn direct_input(name: &str, text: &str) -> Input {
    let scope = Scope { direct: true, ..Scope::chat(PLATFORM, format!("{DIRECT_CHAT}{}", name.to_lowercase())) };
    console_input(scope, name, text)
}

/// A console line as an input from `name` (user ids are lower-case names; the console's user is
/// everyone, administrator included): addressed to the bot by its name, as on Matrix and Discord,
/// a command without the prefix whose mentions are those after the name.
fn console_input(scope: Scope, name: &str, text: &str) -> Input {
    let author = UserRef::new(name.to_lowercase(), name);
    let (input, said) = match strip_address(text, &[BOT_NAME]) {
        Some(rest) => (Input::addressed(scope, author, rest), rest),
        None => (Input::text(scope, author, text), text),
    };
    input.with_mentions(mentions_in(said)).as_admin(true)
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
        // A person option written with its key, as help lists it (before: "I could not tell who
        // you mentioned"); only the console reads mentions from text.
        for typed in ["!challenge opponent:@Bob chess", "!challenge gegner:@Bob", "!ladder remove player=@Bob"] {
            assert_eq!(mentions_in(typed), vec![UserRef { id: "bob".into(), name: "Bob".into() }], "{typed}");
        }
        assert_eq!(mentions_in("!challenge days:3 a@b chess"), vec![], "an @ inside a word is no mention");
    }
}
