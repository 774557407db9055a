//! Languages: every sentence a person reads comes from the message catalogues in Project Fluent
//! format (`locales/en/*.ftl`, `locales/tr/*.ftl`, `locales/de/*.ftl`), embedded in the binary, looked up by id with
//! named arguments. Plural and number forms are Fluent's (`{ $count -> [one] … *[other] … }`).
//!
//! The core renders a reply when it makes it, in its reader's language: the chat's for what the
//! chat sees, the person's own for what only they see. The language in force while a piece of
//! work runs is set with [`with_lang`] and read by [`t!`]; an explicit one goes to [`tl!`]. Errors
//! for the author travel as [`Msg`]s (id and arguments) and are rendered in the author's language
//! when answered. A message missing in Turkish or German, or one that fails to format there, falls back to
//! English; a missing argument panics in the crate's own tests (and is caught by the catalogue
//! tests), never in the product.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::cell::Cell;
use std::sync::LazyLock;

/// A language capabot speaks (stored and sent as its code, `en`, `tr` or `de`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Tr,
    De,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Tr, Lang::De];

    /// The language code (`en`, `tr`, `de`), as stored and as typed in `lang tr`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Tr => "tr",
            Lang::De => "de",
        }
    }

    /// A language from a code or a platform's locale (`tr`, `tr-TR`, `de-AT`, `en-US`, `en_GB`, `EN`);
    /// `None` for a language capabot does not speak.
    pub fn parse(s: &str) -> Option<Lang> {
        let base = s.trim().split(['-', '_']).next().unwrap_or("").to_lowercase();
        // A locale's tag (Discord's `en-US`, Matrix's `tr`), or a language's name as people write it.
        match base.as_str() {
            "en" | "english" | "ingilizce" | "i̇ngilizce" | "englisch" => Some(Lang::En),
            "tr" | "turkish" | "türkçe" | "turkce" | "türkisch" | "tuerkisch" => Some(Lang::Tr),
            "de" | "german" | "deutsch" | "almanca" => Some(Lang::De),
            _ => None,
        }
    }

    fn index(self) -> usize {
        match self {
            Lang::En => 0,
            Lang::Tr => 1,
            Lang::De => 2,
        }
    }
}

/// The catalogue files, by name, for each language in [`Lang::ALL`] order.
macro_rules! catalogues {
    ($($name:literal),* $(,)?) => {
        /// Each catalogue file: its name and its text per language (English, Turkish, German).
        pub const CATALOGUES: &[(&str, [&str; 3])] = &[
            $(($name, [
                include_str!(concat!("../locales/en/", $name, ".ftl")),
                include_str!(concat!("../locales/tr/", $name, ".ftl")),
                include_str!(concat!("../locales/de/", $name, ".ftl")),
            ]),)*
        ];
    };
}
catalogues!("core", "commands", "games", "help", "community", "web");

static BUNDLES: LazyLock<Vec<FluentBundle<FluentResource>>> = LazyLock::new(|| {
    Lang::ALL
        .iter()
        .map(|lang| {
            let id: unic_langid::LanguageIdentifier = lang.code().parse().unwrap_or_default();
            let mut bundle = FluentBundle::new_concurrent(vec![id]);
            // Unicode isolation marks around arguments show as junk in chat clients.
            bundle.set_use_isolating(false);
            for (name, texts) in CATALOGUES {
                let text = texts[lang.index()].to_string();
                let resource = FluentResource::try_new(text).unwrap_or_else(|(res, errors)| {
                    tracing::error!(catalogue = name, lang = lang.code(), "catalogue syntax errors: {errors:?}");
                    res
                });
                if let Err(errors) = bundle.add_resource(resource) {
                    tracing::error!(catalogue = name, lang = lang.code(), "catalogue conflicts: {errors:?}");
                }
            }
            bundle
        })
        .collect()
});

/// An argument of a message: a text, a number (Fluent picks plural forms by it), or another message
/// rendered in the same language.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Arg {
    Str(String),
    Num(i64),
    Msg(Box<Msg>),
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Str(s.to_string())
    }
}
impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Str(s)
    }
}
impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg::Str(s.clone())
    }
}
impl From<Msg> for Arg {
    fn from(m: Msg) -> Arg {
        Arg::Msg(Box::new(m))
    }
}
macro_rules! num_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Num(i64::from(n))
            }
        }
    )*};
}
num_arg!(i32, u32, u8, u16);

impl From<i64> for Arg {
    fn from(n: i64) -> Arg {
        Arg::Num(n)
    }
}

/// Counts that may not fit an `i64` (never in practice) are shown as the largest that does.
macro_rules! wide_num_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Num(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
wide_num_arg!(usize, u64);

/// A message by id with its arguments, to be rendered later in its reader's language (an error for
/// the author). A message with the empty id is a text as is (from code not yet given an id).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Msg {
    pub id: String,
    pub args: Vec<(String, Arg)>,
}

impl Msg {
    /// A message by id.
    pub fn new(id: &str, args: Vec<(&str, Arg)>) -> Msg {
        Msg { id: id.to_string(), args: args.into_iter().map(|(k, v)| (k.to_string(), v)).collect() }
    }

    /// A text as is, the same in every language (a name, a position).
    pub fn raw(text: impl Into<String>) -> Msg {
        Msg { id: String::new(), args: vec![(String::new(), Arg::Str(text.into()))] }
    }

    /// The message in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        if self.id.is_empty() {
            return match self.args.first() {
                Some((_, Arg::Str(s))) => s.clone(),
                _ => String::new(),
            };
        }
        let args: Vec<(&str, Arg)> = self.args.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        tr(lang, &self.id, &args)
    }
}

impl From<String> for Msg {
    fn from(s: String) -> Msg {
        Msg::raw(s)
    }
}

impl std::fmt::Display for Msg {
    /// In English (logs).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

thread_local! {
    static CURRENT: Cell<Lang> = const { Cell::new(Lang::En) };
}

/// A count written with its thousands grouped as `lang` writes them: 60,000 in English, 60.000 in
/// Turkish and German (for counts people read as amounts; ratings and years are written plain).
pub fn grouped(lang: Lang, n: u64) -> String {
    let sep = match lang {
        Lang::En => ',',
        Lang::Tr | Lang::De => '.',
    };
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(d);
    }
    out
}

/// The language in force on this thread ([`with_lang`]; English outside).
pub fn current() -> Lang {
    CURRENT.with(Cell::get)
}

/// Runs `work` with `lang` in force on this thread (what [`t!`] renders in), then restores the
/// language before it, also when `work` panics.
pub fn with_lang<R>(lang: Lang, work: impl FnOnce() -> R) -> R {
    let _scope = scoped(lang);
    work()
}

/// Puts `lang` in force on this thread until the returned guard is dropped (for a loop body that
/// `continue`s or returns early); the language before it comes back then.
pub fn scoped(lang: Lang) -> LangScope {
    LangScope(CURRENT.with(|c| c.replace(lang)))
}

/// The guard of [`scoped`]: restores the language that was in force before.
#[must_use = "the language is in force only while the guard lives"]
pub struct LangScope(Lang);

impl Drop for LangScope {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.0));
    }
}

/// Message `id` in `lang` with `args`. A message missing in `lang`, or one whose formatting fails
/// there, is given in English; one missing in English too comes back as its id (and panics in the
/// crate's tests).
pub fn tr(lang: Lang, id: &str, args: &[(&str, Arg)]) -> String {
    match format(lang, id, args) {
        Ok(s) => s,
        Err(e) => {
            if cfg!(test) {
                panic!("message {id} in {}: {e}", lang.code());
            }
            tracing::warn!(id, lang = lang.code(), "message falls back to English: {e}");
            if lang == Lang::En {
                return id.to_string();
            }
            format(Lang::En, id, args).unwrap_or_else(|_| id.to_string())
        }
    }
}

/// Message `id` in the language in force ([`current`]).
pub fn t(id: &str, args: &[(&str, Arg)]) -> String {
    tr(current(), id, args)
}

fn format(lang: Lang, id: &str, args: &[(&str, Arg)]) -> Result<String, String> {
    let bundle = &BUNDLES[lang.index()];
    let msg = bundle.get_message(id).ok_or("no such message")?;
    let pattern = msg.value().ok_or("message without a value")?;
    let mut fargs = FluentArgs::new();
    for (k, v) in args {
        let value: FluentValue = match v {
            Arg::Str(s) => s.clone().into(),
            // Fluent's numbers are `f64`s: past 2^53 an integer would be written rounded, as a float
            // (9223372036854776000); it is written as the integer it is (no plural form picks it).
            Arg::Num(n) if n.unsigned_abs() > 1 << 53 => n.to_string().into(),
            Arg::Num(n) => (*n).into(),
            Arg::Msg(m) => m.render(lang).into(),
        };
        fargs.set(*k, value);
    }
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&fargs), &mut errors);
    if errors.is_empty() { Ok(text.into_owned()) } else { Err(format!("{errors:?}")) }
}

/// Whether `lang`'s catalogue has message `id`.
pub fn has(lang: Lang, id: &str) -> bool {
    BUNDLES[lang.index()].has_message(id)
}

/// Message `id` in the language in force: `t!("game-over", name = winner, count = n)`.
#[macro_export]
macro_rules! t {
    ($id:literal $(, $k:ident = $v:expr)* $(,)?) => {
        $crate::i18n::t($id, &[$((stringify!($k), $crate::i18n::Arg::from($v))),*])
    };
}

/// Message `id` in an explicit language: `tl!(lang, "lang-set", lang = name)`.
#[macro_export]
macro_rules! tl {
    ($lang:expr, $id:literal $(, $k:ident = $v:expr)* $(,)?) => {
        $crate::i18n::tr($lang, $id, &[$((stringify!($k), $crate::i18n::Arg::from($v))),*])
    };
}

/// A [`Msg`] to render later: `msg!("no-game", id = 12)`.
#[macro_export]
macro_rules! msg {
    ($id:literal $(, $k:ident = $v:expr)* $(,)?) => {
        $crate::i18n::Msg::new($id, vec![$((stringify!($k), $crate::i18n::Arg::from($v))),*])
    };
}

#[cfg(test)]
mod tests;
