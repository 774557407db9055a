//! Settings: a chat's or a community's defaults (prefix, variant, days, thread per game, the game's
//! animation when it ends, language), and a person's direct-message notices and language.

use super::{Bot, Ctx, Res, user, variant_named, variant_title};
use crate::bot::command::{Change, SettingsArgs, THEMES, forgets, value_name, values_listed};
use crate::bot::io::Response;
use crate::i18n::{Lang, with_lang};
use crate::render::Theme;
use crate::store::players;
use crate::store::settings::{self, Settings};
use crate::{msg, t};

fn days_text(d: Option<u32>) -> String {
    d.map_or_else(|| t!("settings-days-none"), |d| d.to_string())
}

/// A `days:` change as typed (`days:none` for no clock).
fn days_typed(d: &Change<Option<u32>>) -> Change<String> {
    d.clone().map(|d| d.map_or_else(|| "none".to_string(), |d| d.to_string()))
}

/// A switch's change as typed (`on`, `off`).
fn switch_typed(c: &Change<bool>) -> Change<String> {
    c.clone().map(|on| if on { "on" } else { "off" }.to_string())
}

fn on_off(on: bool) -> String {
    if on { t!("settings-on") } else { t!("settings-off") }
}

impl Bot {
    pub(super) fn settings(&self, cx: &Ctx<'_>, args: SettingsArgs) -> Res<Response> {
        let scope = cx.scope();
        let p = cx.p();
        let conn = self.conn()?;
        if args.rated.is_some() && !args.community {
            return user(msg!("settings-rated-community", p = p));
        }
        if args.web.is_some() && !args.community {
            return user(msg!("settings-web-community", p = p));
        }
        if args.community && scope.community.is_none() {
            return user(msg!("settings-no-community"));
        }
        let changing = SettingsArgs { community: false, ..args.clone() } != SettingsArgs::default();
        if !changing {
            let e = &cx.settings;
            let rule = match &scope.community {
                Some(c) => {
                    t!(
                        "settings-rated-rule",
                        rule = value_name(settings::rated_games(&conn, &scope.platform, c)?.as_str())
                    ) + t!("settings-web-rule", web = on_off(settings::web(&conn, &scope.platform, c)?)).as_str()
                }
                None => String::new(),
            };
            let e = if args.community {
                let c = settings::community(&conn, &scope.platform, scope.community.as_deref().unwrap_or(""))?;
                self.resolve(&c)
            } else {
                e.clone()
            };
            let community =
                if scope.community.is_some() { t!("settings-community-hint", p = p) } else { String::new() };
            // The variant by its name in the reader's language (`Schach`), as every other message
            // names it; `variant:` still takes its short name too.
            return Ok(cx.say(t!(
                "settings-show",
                whose = if args.community { "community" } else { "chat" },
                prefix = e.prefix.as_str(),
                variant = variant_title(&e.default_variant),
                days = days_text(e.default_days),
                thread = on_off(e.thread_per_game),
                gif = on_off(e.gif_at_end),
                theme = value_name(e.theme.name()),
                rule = rule,
                lang = msg!("lang-name", code = e.lang.code()),
                p = p,
                community = community,
            )));
        }
        if scope.community.is_some() && !cx.inp.author_is_admin {
            return user(msg!("settings-admins-only"));
        }
        let mut s = if args.community {
            settings::community(&conn, &scope.platform, scope.community.as_deref().unwrap_or(""))?
        } else {
            settings::chat(&conn, &scope.platform, &scope.chat)?
        };
        // What was set, as it is typed (`variant:chess`, `theme:default`; in Turkish `tema:varsayılan`),
        // for the confirmation: each option's name and its value, written in the reader's language.
        let mut what: Vec<(&str, String)> = Vec::new();
        let typed = |option: &'static str, c: &Change<String>| match c {
            Change::Set(v) => (option, v.clone()),
            Change::Default => (option, "default".to_string()),
        };
        if let Some(v) = &args.variant {
            let named = match v {
                Change::Set(v) => Change::Set(variant_named(v)?.name.to_string()),
                Change::Default => Change::Default,
            };
            what.push(typed("variant", &named));
            s.default_variant = named.own();
        }
        if let Some(prefix) = &args.prefix {
            what.push(typed("prefix", prefix));
            s.prefix = prefix.clone().own();
        }
        if let Some(d) = &args.days {
            what.push(typed("days", &days_typed(d)));
            s.default_days = d.clone().own();
        }
        if let Some(t) = &args.thread {
            what.push(typed("thread", &switch_typed(t)));
            s.thread_per_game = t.clone().own();
        }
        if let Some(g) = &args.gif {
            what.push(typed("gif", &switch_typed(g)));
            s.gif_at_end = g.clone().own();
        }
        if let Some(theme) = &args.theme {
            what.push(typed("theme", theme));
            s.theme = theme.clone().own();
        }
        if let Some(l) = &args.lang {
            what.push(typed("language", l));
            s.lang = l.clone().own();
        }
        let saved: Settings = s;
        let community = scope.community.as_deref().unwrap_or("");
        if args.community {
            // A community's rules have no level above them: `default` is the built-in rule.
            if let Some(rule) = &args.rated {
                settings::set_rated_games(&conn, &scope.platform, community, rule.clone().own().unwrap_or_default())?;
                what.push(typed("rated", &rule.clone().map(|r| r.as_str().to_string())));
            }
            if let Some(on) = &args.web {
                settings::set_web(&conn, &scope.platform, community, on.clone().own().unwrap_or(false))?;
                what.push(typed("web", &switch_typed(on)));
            }
            settings::set_community(&conn, &scope.platform, community, &saved)?;
        } else {
            settings::set_chat(&conn, &scope.platform, scope.community.as_deref(), &scope.chat, &saved)?;
        }
        // A new prefix of this chat's (or of the community's, where the chat has none of its own)
        // is said with how commands are typed now.
        let own_prefix =
            if args.community { settings::chat(&conn, &scope.platform, &scope.chat)?.prefix.is_none() } else { true };
        let what = |lang: Lang| {
            let written = what.iter().map(|(option, value)| {
                // English keeps the words typed (`lang:`, not `language:`).
                let name = match (lang, *option) {
                    (Lang::En, "language") => "lang".to_string(),
                    _ => crate::i18n::tr(lang, &format!("optname-{option}"), &[]),
                };
                format!("{name}:{}", value_name(value).render(lang))
            });
            written.collect::<Vec<_>>().join(" ")
        };
        let whose = if args.community { "community" } else { "chat" };
        // The confirmation is read in the chat's new language (after `lang:default`, the one it
        // follows again: its community's, its platform's, or the configuration's).
        let lang = match &args.lang {
            Some(Change::Set(l)) => Lang::parse(l).unwrap_or(cx.lang()),
            Some(Change::Default) => {
                let e = self.effective_settings(scope)?;
                let locale = cx.inp.chat_locale.as_deref().and_then(Lang::parse).filter(|_| !e.lang_chosen);
                if scope.direct { cx.author_lang } else { locale.unwrap_or(e.lang) }
            }
            None => cx.lang(),
        };
        // After `prefix:default`, the prefix the chat follows again.
        let prefix = match &args.prefix {
            Some(Change::Set(p)) => Some(p.clone()),
            Some(Change::Default) => Some(self.effective_settings(scope)?.prefix),
            None => None,
        };
        Ok(with_lang(lang, || {
            let prefix_now = match prefix {
                Some(prefix) if own_prefix && !cx.slash() => t!("settings-prefix-now", prefix = prefix),
                _ => String::new(),
            };
            cx.say(t!("settings-saved", whose = whose, what = what(lang), prefix_now = prefix_now))
        }))
    }

    pub(super) fn notify_setting(&self, cx: &Ctx<'_>, on: Option<bool>) -> Res<Response> {
        let conn = self.conn()?;
        let text = match on {
            None => {
                // Only read: someone capabot does not know yet has the default (on), and asking
                // writes nothing down.
                let now = match players::find(&conn, &cx.scope().platform, &cx.inp.author.id)? {
                    Some(me) => players::dm_notices(&conn, me.id)?,
                    None => true,
                };
                msg!("notify-show", state = if now { "on" } else { "off" }, p = cx.p())
            }
            Some(v) => {
                let me = self.me(&conn, cx)?;
                players::set_dm_notices(&conn, me.id, v)?;
                if v { msg!("notify-on") } else { msg!("notify-off") }
            }
        };
        Ok(self.private(cx, text))
    }

    /// `theme [wood|green|contrast|default]`: the board theme of the pictures only this person
    /// reads (their direct messages; said in their direct chat with capabot, that chat's too, where
    /// their games against capabot are played); a shared chat's pictures follow the chat's
    /// (`settings theme:`). Asking and a theme capabot does not know write nothing down.
    pub(super) fn theme_setting(&self, cx: &Ctx<'_>, choice: Option<String>) -> Res<Response> {
        let conn = self.conn()?;
        let p = cx.p();
        let Some(choice) = choice else {
            let own = match players::find(&conn, &cx.scope().platform, &cx.inp.author.id)? {
                Some(me) => players::theme(&conn, me.id)?,
                None => None,
            };
            let text = match own.as_deref().and_then(Theme::by_name) {
                Some(t) => msg!("theme-show-own", theme = value_name(t.name()), p = p),
                None => msg!("theme-show-default", p = p),
            };
            return Ok(self.private(cx, text));
        };
        let theme = if forgets(&choice) {
            None
        } else {
            match Theme::by_name(&choice) {
                Some(t) => Some(t.name()),
                None => {
                    return user(msg!("parse-theme", given = choice, themes = values_listed(THEMES)));
                }
            }
        };
        let me = self.me(&conn, cx)?;
        players::set_theme(&conn, me.id, theme)?;
        let scope = cx.scope();
        if scope.direct {
            let mut own = settings::chat(&conn, &scope.platform, &scope.chat)?;
            own.theme = theme.map(str::to_string);
            settings::set_chat(&conn, &scope.platform, None, &scope.chat, &own)?;
        }
        Ok(self.private(
            cx,
            match theme {
                Some(t) => msg!("theme-set", theme = value_name(t), p = p),
                None => msg!("theme-cleared"),
            },
        ))
    }

    /// `lang [en|tr|de|default]`: the language capabot speaks to this person (what only they read,
    /// their direct messages); `default` goes back to the chat's (or their client's) language.
    /// Asking (no choice) and a language capabot does not speak write nothing down.
    pub(super) fn lang_setting(&self, cx: &Ctx<'_>, choice: Option<String>) -> Res<Response> {
        let conn = self.conn()?;
        let Some(choice) = choice else {
            let own = match players::find(&conn, &cx.scope().platform, &cx.inp.author.id)? {
                Some(me) => players::lang(&conn, me.id)?.as_deref().and_then(Lang::parse),
                None => None,
            };
            let text = match own {
                Some(l) => msg!("lang-show-own", lang = msg!("lang-name", code = l.code()), p = cx.p()),
                None => msg!("lang-show-default", lang = msg!("lang-name", code = cx.author_lang.code()), p = cx.p()),
            };
            return Ok(self.private(cx, text));
        };
        if forgets(&choice) {
            let me = self.me(&conn, cx)?;
            players::set_lang(&conn, me.id, None)?;
            return Ok(self.private_in(cx, cx.lang(), msg!("lang-cleared")));
        }
        let Some(lang) = Lang::parse(&choice) else { return user(msg!("lang-unknown", given = choice)) };
        let me = self.me(&conn, cx)?;
        players::set_lang(&conn, me.id, Some(lang.code()))?;
        Ok(self.private_in(cx, lang, msg!("lang-set")))
    }
}
