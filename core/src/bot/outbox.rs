//! The core's side of the transactional outbox ([`crate::store::outbox`]): every input, AI move and
//! scheduler run is one unit of work whose replies are written to the outbox before it commits, so
//! a reply exists exactly when the change it announces does. Front ends then deliver the rows
//! through the host and report back here: sent (with the platform's message id, remembered for
//! slots and threads), to be retried, or failed for good — and a chat that is gone pauses its games
//! and tells their players where it can.

use super::{Bot, BotError, PictureFormat, Receipt, Reply, Response, Target};
use crate::store::{games, outbox, players};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Environment variable naming a crash point of the outbox, for crash tests (never set in
/// production): `after-commit:TEXT` aborts the process right after a unit of work whose replies
/// contain TEXT has committed, before anything is delivered.
const FAILPOINT_PREFIX: &str = "after-commit:";

/// A reply waiting in the outbox.
#[derive(Clone, Debug)]
pub struct Outgoing {
    pub id: i64,
    pub reply: Reply,
    /// Delivery attempts made before this one.
    pub attempts: u32,
    /// Not to be tried before this time (a retry-after or back-off).
    pub not_before: i64,
}

/// A row a host delivered and has not written down as sent yet ([`Bot::outbox_write_down`]): only
/// a delivery that has nothing else to remember ([`Bot::delivery_to_remember`]) and that shows once
/// if made again ([`Receipt::shows_once_if_repeated`]), since a crash before it is written down
/// makes it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivered {
    pub id: i64,
    /// The platform's id of the message, as [`Receipt::message_id`].
    pub message_id: Option<String>,
    /// When it was delivered (the bot's clock, seconds).
    pub at: i64,
}

/// How long a reply for a chat reached only through interactions waits before its drainer looks
/// again (an interaction there makes it due at once).
const HOLD_SECS: i64 = 7 * 24 * 3600;
/// The outbox's note on a row held for the next interaction.
const HELD: &str = "waits for an interaction in its chat"; // i18n: operator
/// How long a reply waits for an interaction in its chat before it is given up: a correspondence
/// game's players come back within days; after a month, what waited is stale.
pub const HELD_EXPIRY_SECS: i64 = 30 * 24 * 3600;
/// The outbox's note on a held reply given up.
const HELD_EXPIRED: &str = "no interaction in its chat for 30 days"; // i18n: operator

/// How a delivery ended for good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The chat (channel, thread, room) no longer exists or the bot is no longer in it.
    ChatGone,
    /// The bot may not post there (missing permission, locked thread).
    Forbidden,
    /// The person's direct messages are closed and the reply has no fallback chat.
    DirectClosed,
    /// The platform refused the message itself (a bug of ours: too long, malformed).
    Refused,
}

impl Failure {
    pub fn as_str(self) -> &'static str {
        match self {
            Failure::ChatGone => "chat-gone",
            Failure::Forbidden => "forbidden",
            Failure::DirectClosed => "direct-closed",
            Failure::Refused => "refused",
        }
    }
}

/// The stored form of a reply: the reply as JSON, its picture as a description inside it
/// ([`Reply::drawing`], drawn when delivered). Rows written before descriptions keep the picture's
/// bytes beside the JSON, and still deliver them.
/// Written from the reply borrowed (no copy on the move's path), read back owned.
#[derive(Serialize, Deserialize)]
struct Stored<'r> {
    v: u32,
    reply: Cow<'r, Reply>,
    /// The picture beside the row is the reply's animation (GIF), not its still picture.
    #[serde(default)]
    animated: bool,
    /// The reply's description for screen readers and its text board are left out: they are the
    /// ones its board's description gives ([`super::commands::board_texts`]), derived again when
    /// the row is read, as its picture is drawn again (about half of a move's row).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    board_texts: bool,
}

/// The bytes stored beside a reply: none when the reply describes its picture (the description
/// is in the JSON), else the picture it carries (a reply built with bytes and no description).
fn picture_beside(reply: &Reply) -> Option<&[u8]> {
    if reply.drawing.is_some() { None } else { reply.animation.as_deref().or(reply.png.as_deref()) }
}

/// The outbox key of a target: rows with one key go out in order.
pub fn chat_key(target: &Target) -> String {
    match target {
        Target::Chat(s) => match &s.thread {
            Some(t) => format!("c:{}/{}", s.chat, t),
            None => format!("c:{}", s.chat),
        },
        Target::Direct { user, .. } => format!("d:{}", user.id),
    }
}

/// The outbox key a reply is queued under: its chat's ([`chat_key`]), except for a whole game's
/// animation, which has a lane of its own beside its chat. Drawing one takes a quarter of a second
/// of a core for 300 plies, at the lowest priority, and far longer on a busy machine; in the
/// chat's own order every answer after it waited for it. The chat's other replies keep their
/// order among themselves, and the animations theirs.
pub fn lane_key(reply: &Reply) -> String {
    let key = chat_key(&reply.target);
    let animated =
        reply.animation.is_some() || reply.drawing.as_ref().is_some_and(|d| d.format() == PictureFormat::Gif);
    if animated { format!("{key}{ANIMATION_LANE}") } else { key }
}

/// What [`lane_key`] adds to a chat's key for its animations.
pub const ANIMATION_LANE: &str = "#animation";

fn encode(reply: &Reply) -> Result<String, BotError> {
    let animated = picture_beside(reply).is_some() && reply.animation.is_some();
    // Left out only where deriving them gives exactly these texts, so what is read back is what
    // was written.
    let board_texts = match (&reply.drawing, &reply.alt_text, &reply.text_board) {
        (Some(super::Drawing::Board(board)), Some(alt), Some(text)) => {
            super::commands::board_texts(board, reply.lang).is_some_and(|(a, t)| a == *alt && t == *text)
        }
        _ => false,
    };
    let reply = if board_texts {
        Cow::Owned(Reply { alt_text: None, text_board: None, ..reply.clone() })
    } else {
        Cow::Borrowed(reply)
    };
    serde_json::to_string(&Stored { v: 1, reply, animated, board_texts })
        .map_err(|e| BotError::Internal(format!("cannot encode a reply: {e}")))
}

/// `rows` decoded ([`decode`]), and apart the ids of those that cannot be read, with why.
fn decode_all(rows: Vec<outbox::Pending>) -> (Vec<Outgoing>, Vec<(i64, String)>) {
    let mut out = Vec::with_capacity(rows.len());
    let mut unreadable = Vec::new();
    for row in rows {
        let id = row.id;
        match decode(row) {
            Ok(o) => out.push(o),
            Err(e) => unreadable.push((id, e)),
        }
    }
    (out, unreadable)
}

fn decode(row: outbox::Pending) -> Result<Outgoing, String> {
    let stored: Stored = serde_json::from_str(&row.reply).map_err(|e| format!("outbox row {}: {e}", row.id))?; // i18n: operator
    let mut reply = stored.reply.into_owned();
    if stored.board_texts {
        let Some(super::Drawing::Board(board)) = &reply.drawing else {
            return Err(format!("outbox row {}: texts to derive without a board", row.id)); // i18n: operator
        };
        let (alt, text) = super::commands::board_texts(board, reply.lang)
            .ok_or_else(|| format!("outbox row {}: a board that cannot be read", row.id))?; // i18n: operator
        (reply.alt_text, reply.text_board) = (Some(alt), Some(text));
    }
    if stored.animated {
        reply.animation = row.picture;
    } else {
        reply.png = row.picture;
    }
    reply.outbox_id = Some(row.id);
    Ok(Outgoing { id: row.id, reply, attempts: row.attempts, not_before: row.next_attempt_at })
}

impl Bot {
    /// Runs `work` as one unit of work: its changes and its replies (written to the outbox) commit
    /// together. When the unit cannot be opened or committed, nothing of the work stays and the
    /// failure is logged and counted; the response is then empty (for the scheduler, the AI and the
    /// outbox's own bookkeeping, which nobody waits for; an input answers with [`Bot::try_unit`]).
    pub(in crate::bot) fn in_unit(&self, what: &'static str, work: impl Fn() -> Response) -> Response {
        self.try_unit(what, work).unwrap_or_default()
    }

    /// [`Bot::in_unit`], saying whether the unit committed. `work` may run more than once (see
    /// [`crate::store::Store::unit`]): only its last run's response is returned. Every reply for
    /// one person only is made to go to their direct messages before it is queued
    /// ([`Reply::keep_private`]), whatever the command that made it.
    pub(in crate::bot) fn try_unit(
        &self,
        what: &'static str,
        work: impl Fn() -> Response,
    ) -> Result<Response, crate::store::StoreError> {
        self.try_unit_or_undo(what, || Some(work())).map(Option::unwrap_or_default)
    }

    /// [`Bot::try_unit`] for `work` that may give up: when it answers `None` the unit is rolled
    /// back (nothing of it is saved, and that is no failure of the unit) and `Ok(None)` returned.
    pub(in crate::bot) fn try_unit_or_undo(
        &self,
        what: &'static str,
        work: impl Fn() -> Option<Response>,
    ) -> Result<Option<Response>, crate::store::StoreError> {
        let now = self.clock.now();
        let gave_up = std::cell::Cell::new(false);
        let done = self.store.unit(|| {
            gave_up.set(false);
            Bot::unit_tells_again();
            let Some(mut response) = work() else {
                gave_up.set(true);
                return Err(crate::store::StoreError::Refused("work given up".into())); // i18n: operator (never shown: see below)
            };
            let conn = self.store.conn()?;
            for r in &mut response.replies {
                r.keep_private();
                self.in_readers_theme(&conn, r)?;
            }
            let rows = response
                .replies
                .iter()
                .map(|r| {
                    let encoded = encode(r).map_err(|e| crate::store::StoreError::Corrupt(format!("{e:?}")))?;
                    Ok((r.target.platform(), lane_key(r), encoded, picture_beside(r)))
                })
                .collect::<crate::store::Result<Vec<_>>>()?;
            let queued = outbox::push_all(&conn, &rows, now)?;
            outbox::read_beside_after_commit(&conn, &queued.ids);
            drop(rows);
            for (r, id) in response.replies.iter_mut().zip(&queued.ids) {
                r.outbox_id = Some(*id);
            }
            response.waiting_beside = queued.beside;
            // Other processes sharing the database hear of it at commit, as the host's feed
            // does here (PostgreSQL; nothing on SQLite). Only where the deployment has web pages
            // (a public address): the notices are for their live pages, and PostgreSQL commits the
            // transactions that notify one at a time, a cost a bot without pages need not pay.
            let told = if self.config.web_url.is_some() { response.chats_told() } else { Vec::new() };
            for (platform, community, chat) in told {
                crate::store::changes::tell(&conn, self.store.origin(), platform, community, chat)?;
            }
            Ok(response)
        });
        self.unit_told(done.is_ok());
        let mut response = match done {
            Ok(r) => r,
            Err(_) if gave_up.get() => return Ok(None),
            Err(e) => {
                tracing::error!(unit = what, "unit of work not saved: {e}");
                metrics::counter!("capabot_units_not_saved_total", "unit" => what).increment(1);
                return Err(e);
            }
        };
        response.queued = !response.replies.is_empty();
        if response.waiting_beside.is_none() {
            // PostgreSQL: read with the commit.
            let ids: Vec<i64> = response.replies.iter().filter_map(|r| r.outbox_id).collect();
            response.waiting_beside = outbox::beside_read_after_commit(&ids);
        }
        if let Ok(v) = std::env::var(super::commands::FAILPOINT_ENV)
            && let Some(text) = v.strip_prefix(FAILPOINT_PREFIX)
            && response.replies.iter().any(|r| r.text.contains(text))
        {
            eprintln!("failpoint {v}: aborting");
            std::process::abort();
        }
        Ok(Some(response))
    }

    /// Draws a picture in the board theme of whoever reads it: a chat's (or its community's), or
    /// for one person's direct messages their own (`theme`): every picture queued, whatever the
    /// command or the scheduler's item that made it.
    pub(in crate::bot) fn in_readers_theme(
        &self,
        conn: &crate::store::Connection,
        r: &mut Reply,
    ) -> crate::store::Result<()> {
        let Some(drawing) = r.drawing.as_mut() else { return Ok(()) };
        let theme = match &r.target {
            Target::Chat(scope) => {
                crate::store::settings::effective(conn, &scope.platform, scope.community.as_deref(), &scope.chat)?.theme
            }
            Target::Direct { platform, user, .. } => match players::find(conn, platform, &user.id)? {
                Some(p) => players::theme(conn, p.id)?,
                None => None,
            },
        };
        drawing.set_theme(super::drawing::theme_named(theme.as_deref()));
        Ok(())
    }

    /// The rows of one chat waiting to be delivered, oldest first (at most `limit`). A row that
    /// cannot be read is marked failed (it would otherwise hold its chat back for ever).
    fn pending_rows(&self, platform: &str, key: &str, limit: usize) -> crate::store::Result<Vec<Outgoing>> {
        let conn = self.store.conn()?;
        let rows = outbox::pending_in(&conn, platform, key, limit)?;
        self.decoded(&conn, rows)
    }

    /// `rows` decoded; a row that cannot be read is marked failed, and left out.
    fn decoded(
        &self,
        conn: &crate::store::Connection,
        rows: Vec<outbox::Pending>,
    ) -> crate::store::Result<Vec<Outgoing>> {
        self.outbox_read.fetch_add(rows.len() as u64, std::sync::atomic::Ordering::Relaxed);
        let (out, unreadable) = decode_all(rows);
        self.mark_unreadable(conn, &unreadable)?;
        Ok(out)
    }

    /// Marks failed the rows [`decode_all`] could not read (ids and why).
    fn mark_unreadable(
        &self,
        conn: &crate::store::Connection,
        unreadable: &[(i64, String)],
    ) -> crate::store::Result<()> {
        for (id, e) in unreadable {
            tracing::error!("{e}");
            outbox::mark_failed(conn, *id, "unreadable", e, self.clock.now())?;
        }
        Ok(())
    }

    /// `rows` read for `owner`'s drain, decoded ([`Bot::decoded`]); when none of them can be read
    /// the lease is given up unless `when_empty` keeps it (the store gave it up when no row waited).
    fn drained(
        &self,
        conn: &crate::store::Connection,
        rows: Vec<outbox::Pending>,
        (platform, key, owner): (&str, &str, &str),
        when_empty: outbox::WhenEmpty,
    ) -> crate::store::Result<Vec<Outgoing>> {
        let read = !rows.is_empty();
        let out = self.decoded(conn, rows)?;
        if read && out.is_empty() && when_empty == outbox::WhenEmpty::GiveUp {
            outbox::release_chat(conn, platform, key, owner)?;
        }
        Ok(out)
    }

    /// The chat's waiting rows (as [`Bot::pending_rows`]); when none waits, `owner`'s lease on the
    /// chat is given up in the same unit of work (a process started after this one would otherwise
    /// wait for it to run out).
    fn rows_or_release(
        &self,
        platform: &str,
        key: &str,
        owner: &str,
        limit: usize,
    ) -> crate::store::Result<Vec<Outgoing>> {
        let rows = self.pending_rows(platform, key, limit)?;
        if rows.is_empty() {
            outbox::release_chat(&*self.store.conn()?, platform, key, owner)?;
        }
        Ok(rows)
    }

    /// The start of a chat's drain ([`outbox::take`]): takes or renews `owner`'s lease on
    /// delivering the chat and reads its first waiting rows (oldest first, at most `limit`); when
    /// none waits, the lease is given up. `None` while another process delivers the chat, or when
    /// the database cannot say. One statement on PostgreSQL ([`crate::store::Store::standalone`]).
    pub fn outbox_take(&self, platform: &str, key: &str, owner: &str, limit: usize) -> Option<Vec<Outgoing>> {
        let taken = self.store.standalone(|| {
            let conn = self.store.conn()?;
            match outbox::take(&conn, platform, key, owner, limit)? {
                Some(rows) => self.drained(&conn, rows, (platform, key, owner), outbox::WhenEmpty::GiveUp).map(Some),
                None => Ok(None),
            }
        });
        taken.unwrap_or_else(|e| {
            tracing::error!("cannot lease the outbox: {e:?}");
            None
        })
    }

    /// The chat's next waiting rows, for `owner` who holds its lease; when none waits, the lease is
    /// given up in the same unit of work (the drain is over). `None` when the database cannot say
    /// (the lease then runs out by itself).
    pub fn outbox_next_or_release(
        &self,
        platform: &str,
        key: &str,
        owner: &str,
        limit: usize,
    ) -> Option<Vec<Outgoing>> {
        let next = self.store.unit(|| self.rows_or_release(platform, key, owner, limit));
        next.map_err(|e| tracing::error!("cannot read the outbox: {e:?}")).ok()
    }

    /// The chat's waiting rows (oldest first, at most `limit`) for a drain whose process holds the
    /// chat's lease and kept it after its last look ([`outbox::WhenEmpty::Keep`]): a read, no unit
    /// of work and no lease written. A row that cannot be read is marked failed (in a unit of its
    /// own, [`Bot::decoded`]) and left out. `None` when the database cannot say.
    pub fn outbox_look(&self, platform: &str, key: &str, limit: usize) -> Option<Vec<Outgoing>> {
        let read = || -> crate::store::Result<_> {
            let conn = self.store.conn()?;
            outbox::pending_in(&conn, platform, key, limit)
        };
        let rows = read().map_err(|e| tracing::error!("cannot read the outbox: {e:?}")).ok()?;
        self.outbox_read.fetch_add(rows.len() as u64, std::sync::atomic::Ordering::Relaxed);
        let (out, unreadable) = decode_all(rows);
        if !unreadable.is_empty() {
            let marked = self.store.unit(|| self.mark_unreadable(&*self.store.conn()?, &unreadable));
            if let Err(e) = marked {
                tracing::error!("cannot mark an unreadable outbox row failed: {e:?}");
                return None;
            }
        }
        Some(out)
    }

    /// How many outbox rows were read back (and decoded) for delivery so far: the writer's drain
    /// delivers a unit's rows as the unit wrote them when it may (the host's `Written`), and
    /// tests count what it read.
    pub fn outbox_rows_read(&self) -> u64 {
        self.outbox_read.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Writes down, in one unit of work, the deliveries a host made and had not written yet
    /// ([`Delivered`]: each row marked sent), and gives up `owner`'s leases on the chats of
    /// `release` (platform and chat key: chats quiet for a while, whose deliveries are all written
    /// down by then). False when the database cannot say: nothing is written, and the leases run
    /// out by themselves.
    pub fn outbox_write_down(&self, delivered: &[Delivered], release: &[(String, String)], owner: &str) -> bool {
        let written = self.store.unit(|| {
            let conn = self.store.conn()?;
            let rows: Vec<_> = delivered.iter().map(|d| (d.id, d.message_id.as_deref(), d.at)).collect();
            outbox::mark_all_sent(&conn, &rows)?;
            outbox::release_chats(&conn, release, owner)
        });
        written.map_err(|e| tracing::error!("cannot write deliveries down: {e:?}")).is_ok()
    }

    /// Chats of these platforms with a row due now.
    pub fn outbox_due(&self, platforms: &[&str]) -> Vec<(String, String)> {
        let run = || -> Result<_, BotError> { Ok(outbox::due_chats(&*self.conn()?, platforms, self.clock.now())?) };
        run().unwrap_or_else(|e| {
            tracing::error!("cannot read the outbox: {e:?}");
            Vec::new()
        })
    }

    /// Seconds until the next row of these platforms is due (`None`: nothing waits).
    pub fn outbox_next_due_in(&self, platforms: &[&str]) -> Option<i64> {
        let conn = self.conn().ok()?;
        outbox::next_due(&conn, platforms).ok().flatten().map(|t| (t - self.clock.now()).max(0))
    }

    /// Takes or renews `owner`'s lease on delivering a chat (see [`outbox::lease_chat`]): false
    /// while another process delivers it, or when the database cannot say.
    pub fn outbox_lease(&self, platform: &str, key: &str, owner: &str) -> bool {
        let run = || -> Result<bool, BotError> { Ok(outbox::lease_chat(&*self.conn()?, platform, key, owner)?) };
        run().unwrap_or_else(|e| {
            tracing::error!("cannot lease the outbox: {e:?}");
            false
        })
    }

    /// Who holds the lease on delivering a chat (`None`: nobody, or the database cannot say).
    pub fn outbox_lease_holder(&self, platform: &str, key: &str) -> Option<String> {
        let run = || -> Result<_, BotError> { Ok(outbox::lease_holder(&*self.conn()?, platform, key)?) };
        run().unwrap_or_else(|e| {
            tracing::error!("cannot read the outbox's leases: {e:?}");
            None
        })
    }

    /// Gives the lease `gone` holds on a chat to `owner` ([`outbox::take_over`]): for a holder its
    /// caller knows is gone (a process of this machine that has ended). True when it did.
    pub fn outbox_take_over(&self, platform: &str, key: &str, gone: &str, owner: &str) -> bool {
        let run = || -> Result<bool, BotError> {
            Ok(self.store.unit(|| outbox::take_over(&*self.store.conn()?, platform, key, gone, owner))?)
        };
        run().unwrap_or_else(|e| {
            tracing::error!("cannot take the outbox's lease over: {e:?}");
            false
        })
    }

    /// Gives up `owner`'s lease on a chat.
    pub fn outbox_release(&self, platform: &str, key: &str, owner: &str) {
        let run = || -> Result<(), BotError> { Ok(outbox::release_chat(&*self.conn()?, platform, key, owner)?) };
        if let Err(e) = run() {
            tracing::error!("cannot release the outbox lease: {e:?}");
        }
    }

    /// Whether row `id` still waits.
    pub fn outbox_is_pending(&self, id: i64) -> bool {
        self.conn().ok().and_then(|c| outbox::is_pending(&c, id).ok()).unwrap_or(false)
    }

    /// Row `id` was delivered: marks it sent and remembers the message under the reply's slot and
    /// the thread opened for a game (so later replies replace that message and go to that thread),
    /// all in one transaction.
    pub fn outbox_sent(&self, id: i64, reply: &Reply, receipt: &Receipt) {
        let run = || -> Result<(), BotError> {
            let now = self.clock.now();
            self.store.unit(|| {
                let conn = self.store.conn()?;
                outbox::mark_sent(&conn, id, receipt.message_id.as_deref(), now)?;
                self.remember_delivery(&conn, reply, receipt)
            })?;
            Ok(())
        };
        if let Err(e) = run() {
            tracing::error!("could not record a delivery: {e:?}");
        }
    }

    /// [`Bot::outbox_sent`] for the last row a drain read, and [`Bot::outbox_next_or_release`] in the
    /// same unit of work: one write for both at the end of a batch (a move's answer is usually
    /// the only row of its chat). When no row waits any more, the lease is given up or kept as
    /// `when_empty` says. When the delivery leaves nothing else to remember (no message
    /// slot, no thread: a move's answer) it is one statement on PostgreSQL
    /// ([`outbox::sent_and_next`], [`crate::store::Store::standalone`]). `None` when the database
    /// cannot say (the lease then runs out by itself, and a delivery not recorded is made again, as
    /// after a crash).
    pub fn outbox_sent_and_next(
        &self,
        id: i64,
        reply: &Reply,
        receipt: &Receipt,
        lane: (&str, &str, &str),
        limit: usize,
        when_empty: outbox::WhenEmpty,
    ) -> Option<Vec<Outgoing>> {
        let now = self.clock.now();
        let remember = self.delivery_to_remember(reply, receipt);
        let work = || {
            let conn = self.store.conn()?;
            if remember {
                self.remember_delivery(&conn, reply, receipt)?;
            }
            let rows = outbox::sent_and_next(&conn, id, receipt.message_id.as_deref(), now, lane, limit, when_empty)?;
            self.drained(&conn, rows, lane, when_empty)
        };
        let next = if remember { self.store.unit(work) } else { self.store.standalone(work) };
        next.map_err(|e| tracing::error!("could not record a delivery: {e:?}")).ok()
    }

    /// Row `id` goes to a chat reached only through interactions and none is open there now: it
    /// waits for the next one ([`outbox::wake`], when an input comes from that chat), at most
    /// [`HELD_EXPIRY_SECS`] after it was written; then it is given up as expired, counted in
    /// `capabot_outbox_expired_total{reason="held"}`. A direct message that went to such a
    /// fallback chat (the person's direct messages closed) waits as a row of that chat. Never
    /// posted on its own. Returns whether the row left its chat's queue (moved to the fallback
    /// chat, or given up), so the chat's later rows may go on.
    pub fn outbox_hold(&self, id: i64, reply: &Reply) -> bool {
        let run = || -> Result<bool, BotError> {
            let now = self.clock.now();
            let left = self.store.unit(|| {
                let conn = self.store.conn()?;
                Ok(match &reply.target {
                    Target::Chat(_) => {
                        if outbox::expire_held(&conn, id, now - HELD_EXPIRY_SECS, HELD_EXPIRED, now)? {
                            metrics::counter!("capabot_outbox_expired_total", "platform" => reply.target.platform().to_string(), "reason" => "held")
                                .increment(1);
                            tracing::warn!(row = id, "a reply that waited {} days for an interaction expired", HELD_EXPIRY_SECS / 86_400);
                            return Ok(true);
                        }
                        outbox::retry_at(&conn, id, 1, now + HOLD_SECS, HELD)?;
                        false
                    }
                    Target::Direct { fallback: Some(chat), .. } => {
                        let mut moved = reply.clone();
                        moved.target = Target::Chat(chat.clone());
                        let encoded =
                            encode(&moved).map_err(|e| crate::store::StoreError::Corrupt(format!("{e:?}")))?;
                        let key = lane_key(&moved);
                        let row = outbox::push(&conn, &chat.platform, &key, &encoded, picture_beside(&moved), now)?;
                        outbox::retry_at(&conn, row, 1, now + HOLD_SECS, HELD)?;
                        outbox::mark_failed(&conn, id, Failure::DirectClosed.as_str(), HELD, now)?;
                        true
                    }
                    Target::Direct { fallback: None, .. } => {
                        outbox::mark_failed(&conn, id, Failure::DirectClosed.as_str(), HELD, now)?;
                        true
                    }
                })
            })?;
            Ok(left)
        };
        run().unwrap_or_else(|e| {
            tracing::error!("could not hold a reply for the next interaction: {e:?}");
            false
        })
    }

    /// Row `id` failed `tries` times for a passing reason: tried again in `after_secs`.
    pub fn outbox_retry(&self, id: i64, tries: u32, after_secs: i64, error: &str) {
        let run = || -> Result<(), BotError> {
            Ok(outbox::retry_at(&*self.conn()?, id, tries, self.clock.now() + after_secs.max(1), error)?)
        };
        if let Err(e) = run() {
            tracing::error!("could not record a failed delivery: {e:?}");
        }
    }

    /// Row `id` cannot be delivered. When its chat is gone or closed to the bot (deleted, the bot
    /// removed, a thread locked, the permission to post taken away), the games played there are
    /// paused (their clocks stopped) and their players told by direct message — once: a game
    /// paused already tells nobody again. Those notices are queued in the same unit of work.
    pub fn outbox_failed(&self, id: i64, reply: &Reply, failure: Failure, error: &str) -> Response {
        self.in_unit("delivery-failed", || {
            let run = || -> Result<Response, BotError> {
                let conn = self.conn()?;
                outbox::mark_failed(&conn, id, failure.as_str(), error, self.clock.now())?;
                drop(conn);
                // A direct message fails with "chat gone" only in its fallback chat.
                let scope = match &reply.target {
                    Target::Chat(scope) | Target::Direct { fallback: Some(scope), .. } => scope,
                    Target::Direct { fallback: None, .. } => return Ok(Response::default()),
                };
                let chat = scope.thread.as_deref().unwrap_or(&scope.chat);
                match failure {
                    Failure::ChatGone => self.pause_games(&scope.platform, Place::Chat(chat), Why::Gone),
                    Failure::Forbidden => self.pause_games(&scope.platform, Place::Chat(chat), Why::Closed),
                    Failure::DirectClosed | Failure::Refused => Ok(Response::default()),
                }
            };
            self.settled_or_logged(run)
        })
    }

    /// A front end learnt that the bot can no longer post in a chat (a Matrix room it was kicked
    /// from or left) or anywhere in a community (a Discord server it was removed from): its games
    /// there are paused and their players told by direct message, as for a failed delivery.
    pub fn chat_gone(&self, platform: &str, chat: &str) -> Response {
        self.in_unit("chat-gone", || {
            self.settled_or_logged(|| self.pause_games(platform, Place::Chat(chat), Why::Gone))
        })
    }

    /// A front end learnt that a chat was replaced by another of the same platform (a Matrix room
    /// upgraded: its tombstone names the new room, which the bot has joined): the old chat's open
    /// games, open challenges, ladders, tournaments and settings move to the new chat, and the new
    /// chat is told which games go on there. Moving again (the same news twice) changes nothing and
    /// says nothing.
    pub fn chat_moved(&self, platform: &str, old: &str, new: &str) -> Response {
        self.in_unit("chat-moved", || {
            self.settled_or_logged(|| {
                let conn = self.conn()?;
                let moved = games::move_chat(&conn, platform, old, new, self.clock.now())?;
                drop(conn);
                let mut out = Response::default();
                let Some(first) = moved.first() else { return Ok(out) };
                let mut scope = super::commands::game_scope(first);
                (scope.chat, scope.thread) = (new.to_string(), None);
                let ids: Vec<String> = moved.iter().map(|g| format!("#{}", g.id)).collect();
                let lang = self.lang_in(&scope);
                out.replies.push(crate::i18n::with_lang(lang, || {
                    let text = crate::t!("games-moved-here", count = moved.len(), ids = ids.join(", "));
                    Reply::new(Target::Chat(scope), text)
                }));
                Ok(out)
            })
        })
    }

    /// See [`Self::chat_gone`]: every game of a community.
    pub fn community_gone(&self, platform: &str, community: &str) -> Response {
        self.in_unit("community-gone", || {
            self.settled_or_logged(|| self.pause_games(platform, Place::Community(community), Why::Gone))
        })
    }

    fn settled_or_logged(&self, run: impl FnOnce() -> Result<Response, BotError>) -> Response {
        run().unwrap_or_else(|e| {
            tracing::error!("could not record a failed delivery: {e:?}");
            Response::default()
        })
    }

    /// Pauses the active games of a place the bot can no longer post in and tells their players.
    fn pause_games(&self, platform: &str, place: Place<'_>, why: Why) -> Result<Response, BotError> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let paused = match place {
            Place::Chat(chat) => games::pause_in_chat(&conn, platform, chat, now)?,
            Place::Community(community) => games::pause_in_community(&conn, platform, community, now)?,
        };
        let mut out = Response::default();
        for row in paused {
            for color in [crate::rules::Color::White, crate::rules::Color::Black] {
                let pid = row.player(color);
                if players::get(&conn, pid)?.is_some_and(|p| p.is_ai) {
                    continue;
                }
                let Some(account) = self.notify_of(&conn, platform, pid)?.into_iter().next() else { continue };
                // Their own language, else the paused game's chat's.
                let lang = self.player_lang(pid, self.lang_in(&super::commands::game_scope(&row)));
                let target = Target::Direct { platform: platform.to_string(), user: account, fallback: None };
                // Commands written as in another chat, where the game goes on (not with the prefix
                // of its own chat, which is no longer the bot's).
                let p = self.hint_elsewhere(&row, matches!(place, Place::Community(_)));
                let reply = crate::i18n::with_lang(lang, || {
                    let text = match why {
                        Why::Gone => crate::t!("game-paused", id = row.id, p = p.as_str()),
                        Why::Closed => crate::t!("game-paused-closed", id = row.id, p = p.as_str()),
                    };
                    Reply::new(target, text)
                });
                out.replies.push(reply);
            }
        }
        Ok(out)
    }
}

/// Where the bot can no longer post.
#[derive(Clone, Copy)]
enum Place<'a> {
    Chat(&'a str),
    Community(&'a str),
}

/// Why: the place is gone for the bot, or closed to its posts.
#[derive(Clone, Copy)]
enum Why {
    Gone,
    Closed,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{BoardDrawing, Drawing, Scope};
    use crate::i18n::Lang;
    use crate::render::Theme;
    use crate::rules::{Color, Position, variant};

    fn round_trip(reply: &Reply) -> (String, Reply) {
        let json = encode(reply).unwrap();
        let row = outbox::Pending {
            id: 1,
            platform: "test".into(),
            chat_key: "c:main".into(),
            reply: json.clone(),
            picture: None,
            attempts: 0,
            next_attempt_at: 0,
        };
        (json, Reply { outbox_id: None, ..decode(row).unwrap().reply })
    }

    /// A board reply after 1. e4 in `lang`, its texts as the core writes them, or `alt` instead.
    fn board_reply(lang: Lang, alt: Option<&str>) -> Reply {
        let mut pos = Position::start(&variant::CAPATOMIC);
        let first = pos.legal_moves()[0];
        pos = pos.play(first);
        let board = BoardDrawing::new(&pos, Some(first), Color::White, None, 640, Theme::default());
        let (derived_alt, text) = crate::bot::commands::board_texts(&board, lang).unwrap();
        let mut r = Reply::new(Target::Chat(Scope::chat("test", "main")), "a move");
        r.lang = lang;
        r.drawing = Some(Drawing::Board(board));
        r.alt_text = Some(alt.map_or(derived_alt, str::to_string));
        r.text_board = Some(text);
        r
    }

    #[test]
    fn a_boards_texts_are_left_out_of_its_row_and_derived_again_in_its_language() {
        for lang in [Lang::En, Lang::Tr] {
            let reply = board_reply(lang, None);
            let (json, back) = round_trip(&reply);
            assert!(json.contains("\"board_texts\":true") && !json.contains("alt_text"), "{json}");
            assert!(!json.contains("text_board") && !json.contains("null"), "{json}");
            assert_eq!(back, reply);
        }
        assert!(board_reply(Lang::Tr, None).alt_text.unwrap().contains("Son hamle"));
    }

    #[test]
    fn texts_other_than_the_boards_own_are_stored_as_they_are() {
        let reply = board_reply(Lang::En, Some("your own board, with your bomb"));
        let (json, back) = round_trip(&reply);
        assert!(json.contains("your own board, with your bomb") && !json.contains("board_texts"), "{json}");
        assert_eq!(back, reply);
        // A row of an older capabot, with its texts in it, reads as written.
        let old = json.replace("your own board, with your bomb", "written before");
        let row = outbox::Pending {
            id: 2,
            platform: "test".into(),
            chat_key: "c:main".into(),
            reply: old,
            picture: None,
            attempts: 0,
            next_attempt_at: 0,
        };
        assert_eq!(decode(row).unwrap().reply.alt_text.as_deref(), Some("written before"));
    }
}
