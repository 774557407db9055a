//! The work behind capabot's command-line sub-commands (perft, setups, render...), kept out of `main`
//! so that it only parses arguments, wires configuration and prints: reading the names and positions a
//! user types, and perft. The laboratory (`lab/`: benchmarks, matches, tuning) reads its arguments
//! through the same functions. Everything here returns data or finished report lines; nothing prints.
//! Layer: next to the front ends, on top of [`crate::rules`], [`crate::notation`] and [`crate::render`].

pub mod perft;
pub mod serve;

use crate::notation::{self, fen};
use crate::render::Theme;
use crate::rules::{Move, Position, VARIANTS, Variant, setups};

/// Writes a sub-command's output to stdout. A reader that stops early (`lab match ... | head`) ends the
/// program quietly instead of a panic over the closed pipe; any other write error ends it with status 1.
pub fn emit(text: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(text).and_then(|_| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write the output: {e}");
            std::process::exit(1);
        }
        std::process::exit(0);
    }
}

/// `println!` through [`emit`], for the results of command-line sub-commands.
#[macro_export]
macro_rules! outln {
    () => { $crate::tools::emit(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::tools::emit(format_args!("{}\n", format_args!($($arg)*))) };
}

/// What is logged without `RUST_LOG`: warnings and errors, except two of matrix-sdk's that only
/// repeat what the bot handles itself. It logs every failed request as an error, and the front end
/// reports (and retries) them itself; and it tries to upload room keys to a server-side backup after
/// every sync whether or not one is set up, warning each time that it has no backup key — the bot
/// does not use that backup (its keys live in its own crypto store).
pub const DEFAULT_LOG: &str = "warn,matrix_sdk::http_client=off,matrix_sdk_crypto::backups=error";

/// Log lines to stderr, filtered by `RUST_LOG` (else [`DEFAULT_LOG`]); coloured only on a terminal.
/// With the Discord front end, serenity's gateway errors are also watched whatever the filter
/// ([`crate::discord::gateway::watch`]: a close that serenity only logs ends the process).
pub fn init_tracing() {
    use std::io::IsTerminal;
    use tracing_subscriber::Layer;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(DEFAULT_LOG));
    let printer = tracing_subscriber::fmt::layer()
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .with_filter(filter);
    let registry = tracing_subscriber::registry().with(printer);
    #[cfg(feature = "discord")]
    let registry = {
        use crate::discord::gateway;
        registry.with(gateway::watch().with_filter(gateway::watch_filter()))
    };
    let _ = registry.try_init();
}

/// A sub-command's exit status: success, or the error printed to stderr and status 2.
pub fn exit_code(result: Result<(), String>) -> std::process::ExitCode {
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

/// The variant called `name`, or a message listing the known ones.
pub fn variant(name: &str) -> Result<&'static Variant, String> {
    Variant::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
        format!("unknown variant '{name}'; known: {}", names.join(", "))
    })
}

/// The variants called `names`, or every variant when `names` is empty.
pub fn variants_or_all(names: &[String]) -> Result<Vec<&'static Variant>, String> {
    if names.is_empty() { Ok(VARIANTS.to_vec()) } else { names.iter().map(|n| variant(n)).collect() }
}

/// The board theme called `name`, or a message listing the known ones.
pub fn theme(name: &str) -> Result<Theme, String> {
    Theme::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
        format!("unknown theme '{name}'; known: {}", names.join(", "))
    })
}

/// Numbered setup `index` of `v`, or a message giving the valid range.
pub fn setup(v: &'static Variant, index: usize) -> Result<Position, String> {
    setups::position(v, index)
        .ok_or_else(|| format!("{} has setups 0…{}, not {index}", v.name, setups::count(v).saturating_sub(1)))
}

/// The position a sub-command works on: `fen` if given, else setup `setup`, else the start position;
/// then `moves` played from it. Returns the position and the last move played.
pub fn position(
    v: &'static Variant,
    fen_text: Option<&str>,
    setup_index: Option<usize>,
    moves: &[String],
) -> Result<(Position, Option<Move>), String> {
    let mut pos = match (fen_text, setup_index) {
        (Some(f), _) => fen::parse_position(v, f).map_err(|e| format!("bad FEN: {e}"))?,
        (None, Some(i)) => setup(v, i)?,
        (None, None) => Position::start(v),
    };
    let mut last = None;
    for m in moves {
        let mv = notation::parse_move(&pos, m).map_err(|e| e.to_string())?;
        pos = pos.play(mv);
        last = Some(mv);
    }
    Ok((pos, last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_plays_moves_and_reports_the_last() {
        let v = variant("chess").unwrap();
        let (pos, last) = position(v, None, None, &["e4".into(), "e5".into()]).unwrap();
        assert_eq!(fen::write(&pos), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert_eq!(last.map(|m| m.to.to_string()).as_deref(), Some("e5"));
        assert!(position(v, None, None, &["e5".into()]).unwrap_err().contains("not legal"));
    }

    #[test]
    fn bad_names_and_indices_are_explained() {
        assert!(variant("nope").unwrap_err().contains("capatomic"));
        assert!(theme("nope").unwrap_err().contains("wood"));
        let chess = variant("chess").unwrap();
        assert_eq!(setup(chess, 3).unwrap_err(), "chess has setups 0…0, not 3");
        assert!(position(chess, Some("bad"), None, &[]).unwrap_err().starts_with("bad FEN"));
        assert_eq!(variants_or_all(&[]).unwrap().len(), VARIANTS.len());
    }
}
