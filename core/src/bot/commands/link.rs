//! Linking a person's accounts on several platforms: `link` gives a one-time code (to its author
//! only), `link CODE` on another platform makes both accounts one player, `unlink` undoes it.

use super::{Bot, Ctx, Res, short, user};
use crate::bot::io::Response;
use crate::community::link::CODE_LIFETIME_SECS;
use crate::msg;
use crate::store::links;

impl Bot {
    pub(super) fn link(&self, cx: &Ctx<'_>, code: Option<String>) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let p = cx.p();
        if let Some(code) = &code
            && !cx.inp.is_private()
        {
            // Others read the code here: it is spent (an unknown code changes nothing), and its
            // author is told so. Not a user error, whose unit would be rolled back with the spending.
            links::burn(&conn, code, now)?;
            return Ok(self.private(cx, msg!("link-not-here", p = p)));
        }
        let me = self.me(&conn, cx)?;
        let Some(code) = code else {
            let code = match links::create_code(&conn, &cx.scope().platform, &cx.inp.author.id, now)? {
                Ok(c) => c,
                Err(e) => return user(e.msg()),
            };
            // Whoever reads the code can redeem it: for the author's eyes only.
            return Ok(
                self.secret(cx, msg!("link-code", code = code.to_string(), p = p, minutes = CODE_LIFETIME_SECS / 60))
            );
        };
        let platform = cx.scope().platform.clone();
        match links::redeem(&conn, &code, &platform, &cx.inp.author.id, &short(&me.name), now)? {
            Ok(linked) => {
                let name = self.name_of(&conn, linked.player)?;
                Ok(self.private(cx, msg!("link-done", platform = platform, name = name, p = p)))
            }
            Err(e) => user(e.msg()),
        }
    }

    pub(super) fn unlink(&self, cx: &Ctx<'_>) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let me = self.me(&conn, cx)?;
        match links::unlink(&conn, &cx.scope().platform, &cx.inp.author.id, &short(&me.name), now)? {
            Ok(_) => Ok(self.private(cx, msg!("unlink-done", platform = cx.scope().platform.as_str()))),
            Err(e) => user(e.msg()),
        }
    }
}
