//! Settings: a chat's or a community's defaults (prefix, variant, days, thread per game, the game's
//! animation when it ends), and a person's direct-message notices.

use super::{Bot, Ctx, Res, user, variant_named};
use crate::bot::command::SettingsArgs;
use crate::bot::io::Response;
use crate::store::players;
use crate::store::settings::{self, Settings};

fn days_text(d: Option<u32>) -> String {
    d.map_or("none".into(), |d| d.to_string())
}

impl Bot {
    pub(super) fn settings(&self, cx: &Ctx<'_>, args: SettingsArgs) -> Res<Response> {
        let scope = cx.scope();
        let p = cx.p();
        let conn = self.conn()?;
        if args.rated.is_some() && !args.community {
            return user(format!("rated: is a community rule: {p}settings community rated:choice|always|never."));
        }
        if args.community && scope.community.is_none() {
            return user("This chat belongs to no community; leave out 'community' to change this chat's settings.");
        }
        let changing = SettingsArgs { community: false, ..args.clone() } != SettingsArgs::default();
        if !changing {
            let e = &cx.settings;
            let whose = if args.community { "This community's defaults" } else { "Settings here" };
            let rule = match &scope.community {
                Some(c) => format!(", rated games: {}", settings::rated_games(&conn, &scope.platform, c)?.as_str()),
                None => String::new(),
            };
            let e = if args.community {
                let c = settings::community(&conn, &scope.platform, scope.community.as_deref().unwrap_or(""))?;
                self.resolve(&c)
            } else {
                e.clone()
            };
            return Ok(cx.say(format!(
                "{whose}: prefix {}, variant {}, days {}, thread per game {}, animation at the end {}{rule}. Change with {p}settings prefix:? variant:chess days:3 thread:on gif:on{}.",
                e.prefix,
                e.default_variant,
                days_text(e.default_days),
                if e.thread_per_game { "on" } else { "off" },
                if e.gif_at_end { "on" } else { "off" },
                if scope.community.is_some() { format!(" ({p}settings community ... for the whole community)") } else { String::new() },
            )));
        }
        if scope.community.is_some() && !cx.inp.author_is_admin {
            return user("Only the community's administrators may change settings here.");
        }
        let mut s = if args.community {
            settings::community(&conn, &scope.platform, scope.community.as_deref().unwrap_or(""))?
        } else {
            settings::chat(&conn, &scope.platform, &scope.chat)?
        };
        if let Some(v) = &args.variant {
            s.default_variant = Some(variant_named(v)?.name.to_string());
        }
        if let Some(prefix) = args.prefix {
            s.prefix = Some(prefix);
        }
        if let Some(d) = args.days {
            s.default_days = Some(d);
        }
        if let Some(t) = args.thread {
            s.thread_per_game = Some(t);
        }
        if let Some(g) = args.gif {
            s.gif_at_end = Some(g);
        }
        let saved: Settings = s;
        if args.community {
            if let Some(rule) = args.rated {
                settings::set_rated_games(&conn, &scope.platform, scope.community.as_deref().unwrap_or(""), rule)?;
            }
            settings::set_community(&conn, &scope.platform, scope.community.as_deref().unwrap_or(""), &saved)?;
            Ok(cx.say("Community settings saved; chats that set nothing of their own follow them."))
        } else {
            settings::set_chat(&conn, &scope.platform, scope.community.as_deref(), &scope.chat, &saved)?;
            Ok(cx.say("Settings saved."))
        }
    }

    pub(super) fn notify_setting(&self, cx: &Ctx<'_>, on: Option<bool>) -> Res<Response> {
        let conn = self.conn()?;
        let me = self.me(&conn, cx)?;
        match on {
            None => {
                let now = players::dm_notices(&conn, me.id)?;
                Ok(self.private(
                    cx,
                    format!(
                        "Direct-message notices (reminders, \"your move\") are {} for you; {}notify {} turns them {}.",
                        if now { "on" } else { "off" },
                        cx.p(),
                        if now { "off" } else { "on" },
                        if now { "off" } else { "on" }
                    ),
                ))
            }
            Some(v) => {
                players::set_dm_notices(&conn, me.id, v)?;
                Ok(self.private(
                    cx,
                    if v {
                        "Direct-message notices on: reminders and \"your move\" notices come to your direct messages."
                    } else {
                        "Direct-message notices off: reminders come to the game's chat."
                    },
                ))
            }
        }
    }
}
