//! Linking a person's accounts on several platforms: `link` gives a one-time code (to its author
//! only), `link CODE` on another platform makes both accounts one player, `unlink` undoes it.

use super::{Bot, Ctx, Res, short, user};
use crate::bot::io::Response;
use crate::community::link::CODE_LIFETIME_SECS;
use crate::store::links;

impl Bot {
    pub(super) fn link(&self, cx: &Ctx<'_>, code: Option<String>) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let me = self.me(&conn, cx)?;
        let p = cx.p();
        let Some(code) = code else {
            let code = match links::create_code(&conn, &cx.scope().platform, &cx.inp.author.id, now)? {
                Ok(c) => c,
                Err(e) => return user(e.to_string()),
            };
            return Ok(self.private(
                cx,
                format!(
                    "Your link code is {code}. On your other platform say {p}link {code} within {} minutes; \
                     it works once. Keep it to yourself: whoever uses it joins their account to yours.",
                    CODE_LIFETIME_SECS / 60
                ),
            ));
        };
        let platform = cx.scope().platform.clone();
        match links::redeem(&conn, &code, &platform, &cx.inp.author.id, &short(&me.name), now)? {
            Ok(linked) => {
                let name = self.name_of(&conn, linked.player)?;
                Ok(self.private(
                    cx,
                    format!(
                        "Linked: this {platform} account and your other account are now one player, {name}, \
                         with all their games. {p}unlink undoes it."
                    ),
                ))
            }
            Err(e) => user(e.to_string()),
        }
    }

    pub(super) fn unlink(&self, cx: &Ctx<'_>) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let me = self.me(&conn, cx)?;
        match links::unlink(&conn, &cx.scope().platform, &cx.inp.author.id, &short(&me.name), now)? {
            Ok(_) => Ok(self.private(
                cx,
                format!(
                    "Unlinked: this {} account is a player of its own again; the shared history stays with your \
                     other accounts.",
                    cx.scope().platform
                ),
            )),
            Err(e) => user(e.to_string()),
        }
    }
}
