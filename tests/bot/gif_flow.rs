//! `gif` through the core: the animation reply (format, frames, alt text), what it says when there is
//! nothing to animate, and the `gif:on` setting on every way a game ends (a move, a resignation, a
//! timeout).

use capabot::bot::{
    Bot, BotConfig, FirstLegalMove, Input, ManualClock, PictureFormat, Reply, Response, Scope, UserRef,
};
use capabot::store::Store;
use std::sync::Arc;

const T0: i64 = 1_763_683_200;

struct T {
    _dir: tempfile::TempDir,
    clock: Arc<ManualClock>,
    bot: Bot,
}

fn bot(pictures: bool) -> T {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(T0));
    let store = Store::open(dir.path().join("c.db")).unwrap();
    let bot = Bot::new(store, clock.clone(), Arc::new(FirstLegalMove), BotConfig { pictures, ..BotConfig::default() });
    T { _dir: dir, clock, bot }
}

impl T {
    fn say(&self, who: &str, text: &str) -> Response {
        let mentions = text
            .split_whitespace()
            .filter_map(|w| w.strip_prefix('@'))
            .map(|n| UserRef::new(n.to_lowercase(), n))
            .collect();
        let inp = Input::text(Scope::chat("test", "main"), UserRef::new(who.to_lowercase(), who), text)
            .with_mentions(mentions)
            .as_admin(true);
        self.bot.handle(&inp)
    }
}

/// The replies whose picture, drawn as delivery draws it, is an animation.
fn animations(r: &Response) -> Vec<Reply> {
    r.replies
        .iter()
        .map(|r| r.clone().drawn())
        .filter(|r| r.picture().is_some_and(|(f, _)| f == PictureFormat::Gif))
        .collect()
}

fn frame_count(bytes: &[u8]) -> usize {
    let mut d = gif::DecodeOptions::new().read_info(bytes).unwrap();
    let mut n = 0;
    while d.next_frame_info().unwrap().is_some() {
        n += 1;
    }
    n
}

const FOOLS_MATE: [(&str, &str); 4] = [("alice", "f3"), ("bob", "e5"), ("alice", "g4"), ("bob", "Qh4#")];

#[test]
fn the_animation_reply_carries_the_game() {
    let t = bot(true);
    t.say("alice", "!challenge @bob chess color:white");
    t.say("bob", "!accept");
    assert!(t.say("alice", "!gif").text().contains("no moves yet"));
    for (who, m) in &FOOLS_MATE[..2] {
        t.say(who, m);
    }
    // A game in progress animates too, without a result.
    let r = t.say("bob", "!gif");
    let a = animations(&r);
    assert_eq!(a.len(), 1, "{}", r.text());
    let (format, bytes) = a[0].picture().unwrap();
    assert_eq!((format.mime(), format.file_name()), ("image/gif", "game.gif"));
    assert_eq!(frame_count(bytes), 3);
    assert!(a[0].png.is_none(), "a reply carries one picture");
    assert!(a[0].text.contains("in progress"), "{}", a[0].text);
    for (who, m) in &FOOLS_MATE[2..] {
        t.say(who, m);
    }
    let r = t.say("alice", "!gif #1");
    let a = &animations(&r)[0];
    assert_eq!(frame_count(a.picture().unwrap().1), 5);
    let alt = a.alt_text.as_deref().unwrap();
    assert!(alt.contains("alice (white) vs bob (black)") && alt.contains("1. f3 e5 2. g4 Qh4#"), "{alt}");
    assert!(alt.contains("0-1 · checkmate"), "{alt}");
}

#[test]
fn nothing_to_animate_and_pictures_off() {
    let t = bot(true);
    t.say("alice", "!challenge @bob caparelocation color:white");
    t.say("bob", "!accept");
    let out = t.say("alice", "!gif").text();
    assert!(out.contains("setup phase"), "{out}");
    let off = bot(false);
    off.say("alice", "!challenge @bob chess");
    off.say("bob", "!accept");
    let r = off.say("alice", "!gif");
    assert!(r.text().contains("Pictures are switched off") && animations(&r).is_empty(), "{}", r.text());
}

#[test]
fn gif_on_posts_the_animation_at_every_kind_of_end() {
    let t = bot(true);
    assert!(t.say("alice", "!settings gif:on").text().contains("saved"));
    // Checkmate by a move.
    t.say("alice", "!challenge @bob chess color:white");
    t.say("bob", "!accept");
    let mut last = Response::default();
    for (who, m) in &FOOLS_MATE {
        last = t.say(who, m);
    }
    let a = animations(&last);
    assert_eq!(a.len(), 1, "{}", last.text());
    assert_eq!(frame_count(a[0].picture().unwrap().1), 5);
    // A resignation.
    t.say("alice", "!challenge @bob chess color:white");
    t.say("bob", "!accept");
    t.say("alice", "e4");
    t.say("bob", "e5");
    let r = t.say("bob", "!resign");
    assert_eq!(animations(&r).len(), 1, "{}", r.text());
    // A timeout, from the scheduler.
    t.say("alice", "!challenge @bob chess color:white days:1");
    t.say("bob", "!accept");
    t.say("alice", "d4");
    t.say("bob", "d5");
    t.clock.advance(2 * 86_400);
    let r = t.bot.tick(&capabot::bot::Served::new("test", ["test"]));
    assert!(r.text().contains("ran out of time"), "{}", r.text());
    assert_eq!(animations(&r).len(), 1, "{}", r.text());
    // Off again: a move that ends a game brings none.
    t.say("alice", "!settings gif:off");
    t.say("alice", "!challenge @bob chess color:white");
    t.say("bob", "!accept");
    let mut last = Response::default();
    for (who, m) in &FOOLS_MATE {
        last = t.say(who, m);
    }
    assert!(last.text().contains("checkmate") && animations(&last).is_empty(), "{}", last.text());
}
