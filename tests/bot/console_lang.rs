//! A whole game in Turkish in the console binary: `lang tr` switches what a person reads, `settings
//! lang:tr` what the chat reads; move notation stays in English letters.

use crate::common::console_script as console;

#[test]
fn a_whole_game_in_turkish() {
    let dir = tempfile::tempdir().unwrap();
    let out = console(
        dir.path(),
        "alice> !settings lang:tr\nalice> !lang\nalice> !challenge @bob chess color:white\nbob> !accept\n\
         alice> f3\nbob> e5\nbob> e6\nalice> Nf4\nalice> !move e2e5\nalice> g4\nbob> Qh4#\nalice> !help\nalice> !rules chess\n",
    );
    assert!(out.contains("Ayarlar kaydedildi: dil:tr."), "{out}");
    assert!(out.contains("Seninle Türkçe konuşuyorum"), "{out}");
    assert!(out.contains("Oyun #1: 1. f3, oynayan alice. Sıra bob (siyah) oyuncusunda."), "{out}");
    // bob moves out of turn: told in Turkish, and the game is unchanged
    assert!(out.contains("#1 numaralı oyunda sıra sende değil: sıra alice (beyaz) oyuncusunda."), "{out}");
    // illegal moves (typed bare, then as a command): the reason and the legal alternatives in Turkish,
    // notation in English letters
    assert!(out.contains("Nf4 oynanamaz: f4 karesine gidebilecek atın yok; at hamleleri: Na3, Nc3, Nh3"), "{out}");
    assert!(out.contains("e2e5 oynanamaz: e2 karesindeki piyon e5 karesine gidemez; piyon hamleleri: e3, e4"), "{out}");
    assert!(out.contains("Oyun bitti: 0-1 — bob mat ederek kazandı."), "{out}");
    assert!(out.contains("Komutlar (önek !):") && out.contains("K şah (King), Q vezir (Queen)"), "{out}");
    assert!(out.contains("Standart satranç (FIDE kuralları)"), "{out}");
    assert!(!out.contains("played by") && !out.contains("Game over"), "{out}");
    assert!(!out.contains("is not legal") && !out.contains("knight") && !out.contains("moves:"), "{out}");
}

#[test]
fn a_persons_own_language_is_theirs_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = console(
        dir.path(),
        "bob> !lang tr\nalice> !challenge @bob chess color:white\nbob> !accept\nalice> e4\n\
         bob> !move #9 e5\nalice> !move #9 e5\nbob> !help\nalice> !help\nbob> !rules atomic\nbob> !lang default\n\
         bob> !move #9 e5\n",
    );
    assert!(out.contains("Bundan sonra seninle Türkçe konuşuyorum: özel mesajlarda"), "{out}");
    // the chat stays English; bob's own mistakes are told to him in Turkish, alice's in English
    assert!(out.contains("Game #1: 1. e4 played by alice."), "{out}");
    assert!(out.contains("#9 numaralı oyun yok."), "{out}");
    assert!(out.contains("There is no game #9."), "{out}");
    assert!(out.contains("Your own language is forgotten") || out.contains("Kendi dil seçimin silindi"), "{out}");
    assert_eq!(out.matches("There is no game #9.").count(), 2, "{out}");
    // What a person asks to read (help, a variant's rules) comes in their own language: bob's in
    // Turkish, alice's in the chat's English. (Before: bob's help in English.)
    assert_eq!(out.matches("Komutlar (önek !):").count(), 1, "{out}");
    assert_eq!(out.matches("Commands (prefix !):").count(), 1, "{out}");
    assert!(out.contains("Her alışın patladığı satranç") && !out.contains("every capture explodes"), "{out}");
}

/// German, the third language: the chat's setting, a game with its refusals and its end, the help
/// and a variant's rules; a person's own `lang deutsch`; and a language capabot does not speak
/// named with the three it does.
#[test]
fn a_whole_game_in_german() {
    let dir = tempfile::tempdir().unwrap();
    let out = console(
        dir.path(),
        "alice> !settings lang:de\nalice> !challenge @bob chess color:white\nbob> !accept\n\
         alice> f3\nbob> e5\nbob> e6\nalice> Nf4\nalice> g4\nbob> Qh4#\nalice> !help\nalice> !rules chess\n\
         carol> !lang english\ncarol> !move #9 e5\ncarol> !lang deutsch\ncarol> !move #9 e5\ncarol> !lang fr\n",
    );
    assert!(out.contains("Einstellungen gespeichert: sprache:de."), "{out}");
    assert!(out.contains("Partie #1: 1. f3, gespielt von alice. bob (Schwarz) ist am Zug."), "{out}");
    assert!(out.contains("Du bist in Partie #1 nicht am Zug: alice (Weiß) ist am Zug."), "{out}");
    // The reason and the legal alternatives in German, the notation in English letters.
    assert!(
        out.contains("Nf4 ist nicht legal: keiner deiner Springer kann f4 erreichen; Springer: Na3, Nc3, Nh3"),
        "{out}"
    );
    assert!(out.contains("Partie beendet: 0-1 — bob gewinnt durch Schachmatt."), "{out}");
    assert!(out.contains("Befehle (Präfix !):") && out.contains("N Springer"), "{out}");
    assert!(out.contains("Normales Schach (FIDE-Regeln)"), "{out}");
    assert!(!out.contains("played by") && !out.contains("Game over") && !out.contains("is not legal"), "{out}");
    // Carol's own language: English in a German chat, then German again by its name.
    assert!(out.contains("There is no game #9."), "{out}");
    assert!(
        out.contains("Ab jetzt spreche ich Deutsch mit dir: in Direktnachrichten")
            && out.contains("Es gibt keine Partie #9."),
        "{out}"
    );
    assert!(out.contains("Ich spreche en (Englisch), tr (Türkisch) und de (Deutsch), nicht 'fr'."), "{out}");
}

/// A secret-bomb game in a German chat, the bombs chosen in direct messages: the chat's notices
/// are German (the chat's), the answers in the direct chats are each player's own language, else
/// the game's chat's (bob's Turkish, alice's German), refusals too. (Before: the chat's notices
/// and every direct answer were written in the direct chat's language, English.)
#[test]
fn secret_bombs_chosen_in_direct_messages_speak_the_games_languages() {
    let dir = tempfile::tempdir().unwrap();
    let out = console(
        dir.path(),
        "alice> !settings lang:de\nbob> !lang tr\nalice> !challenge @bob bomb color:white\nbob> !accept\n\
         alice> /dm bomb e1\nalice> /dm bomb e2\nalice> /dm bomb d2\nalice> /dm board\nbob> /dm bomb e7\n\
         alice> e4\nbob> e5\nalice> !resign\n",
    );
    assert!(
        out.contains("capabot> Partie #1: alice (Weiß) hat eine geheime Bombe gewählt. alice ist am Zug."),
        "{out}"
    );
    assert!(
        out.contains("capabot> Partie #1: bob (Schwarz) hat eine geheime Bombe gewählt. Beide Bomben sind gesetzt."),
        "{out}"
    );
    assert!(out.contains("capabot → @alice: Partie #1: Deine Bombe muss eine deiner eigenen Figuren"), "{out}");
    assert!(out.contains("capabot → @alice: Partie #1: Deine Bombe ist der Bauer auf e2."), "{out}");
    assert!(out.contains("capabot → @alice: Partie #1: Deine Bombe ist schon gewählt"), "{out}");
    assert!(out.contains("capabot → @alice: Partie #1: deine Bombe war zu Beginn der Bauer auf e2"), "{out}");
    assert!(out.contains("capabot → @bob: Oyun #1: bomban e7 karesindeki piyon."), "{out}");
    // At the end each side's bomb is a sentence of its own (before: "…auf e2; Die von Schwarz war…").
    assert!(
        out.contains("Die Bomben in der Ausgangsstellung: Die von Weiß war der Bauer auf e2. Die von Schwarz war der Bauer auf e7."),
        "{out}"
    );
    for english in ["has chosen", "Both bombs", "your bomb", "Game #1"] {
        assert!(!out.contains(english), "{english}: {out}");
    }
}

/// A chat's language is forgotten with `lang:default`, as a person's is with `lang default` (before:
/// refused), in each language; `help settings` names `lang:`; `lang` names languages by their names
/// in the reader's language (before: by their codes); a German chat's `settings` suggests another
/// language than its own.
#[test]
fn a_chats_language_is_reset_and_languages_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = console(
        dir.path(),
        "alice> !settings lang:de\nalice> !lang\nalice> !settings\nalice> !settings lang:default\nalice> !lang\n\
         alice> !settings lang:tr\nalice> !lang\nalice> !settings lang:default\nalice> !help settings\n\
         bob> !lang tr\nbob> !lang\n",
    );
    assert!(out.contains("Ich spreche Deutsch mit dir (die Sprache des Chats oder deiner App)"), "{out}");
    assert!(
        out.contains("Sprache Deutsch. Ändern mit !settings") && out.contains("design:kontrast sprache:en ("),
        "{out}"
    );
    assert!(out.contains("Settings saved: lang:default."), "{out}");
    assert!(out.contains("I speak English to you (the chat's or your app's language)"), "{out}");
    assert!(out.contains("Seninle Türkçe konuşuyorum (sohbetin ya da uygulamanın dili)"), "{out}");
    assert!(out.contains("Seninle Türkçe konuşuyorum (senin seçimin)"), "{out}");
    assert_eq!(out.matches("Settings saved: lang:default.").count(), 2, "{out}");
    assert!(out.contains("[lang:en|tr|de]") && out.contains("(each also :default)"), "{out}");
    assert!(out.contains("language — The chat's language"), "{out}");
    assert!(!out.contains("parse-lang") && !out.contains("not 'default'"), "{out}");
}

/// In a direct chat the help lists the commands as typed there, without the prefix; in Turkish and
/// German the placeholders, the options' names and their values are the reader's words (before:
/// `[days:N] [color:white|black|random]` in every language).
#[test]
fn help_is_written_for_where_and_in_what_language_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = console(
        dir.path(),
        "alice> /dm help\nalice> /dm help move\nalice> !settings lang:de\nalice> !help\nalice> !lang tr\nalice> !help\n",
    );
    assert!(out.contains("Commands (here every line is for me, so no prefix is needed):"), "{out}");
    assert!(out.contains("\n          challenge [@user] [variant] [days:N]"), "{out}");
    assert!(out.contains("move [#game] <move> — Make a move") && out.contains("help lists every command."), "{out}");
    assert!(!out.contains("capabot → @alice: Commands (prefix !)"), "{out}");
    assert!(
        out.contains("!move [#Partie] <Zug> —") && out.contains("!swap [#Partie] <K|Q> <Linie oder Figur>"),
        "{out}"
    );
    assert!(out.contains("!challenge [@Person] [Variante] [tage:N] [farbe:weiß|schwarz|zufällig]"), "{out}");
    assert!(out.contains("!challenge [@kişi] [varyant] [gün:N] [renk:beyaz|siyah|rastgele]"), "{out}");
    assert!(out.contains("!move [#oyun] <hamle> —") && out.contains("!rules [varyant] —"), "{out}");
    assert!(!out.contains("ohne @user"), "{out}");
}

/// German slips: "keinen Tausch", how a command is written, a kind that cannot reach a square.
#[test]
fn german_reads_as_german() {
    let dir = tempfile::tempdir().unwrap();
    let out = console(
        dir.path(),
        "alice> !settings lang:de\nalice> !challenge @bob caparelocation color:white\nbob> !accept\n\
         bob> !noswap\nalice> !noswap\nalice> !ladder undo x y\n\
         alice> !challenge @bob chess color:white\nbob> !accept #2\nalice> !move #2 hxg8=Q\nalice> !move #2 Qd3\n",
    );
    assert!(out.contains("Partie #1: Schwarz hat keinen Tausch gewählt."), "{out}");
    assert!(out.contains("Partie #1: Weiß hat keinen Tausch gewählt;"), "{out}");
    assert!(out.contains("Wie der Befehl geht, zeigt dir !help ladder."), "{out}");
    assert!(out.contains("keiner deiner Bauern kann g8 erreichen"), "{out}");
    assert!(out.contains("keine deiner Damen kann d3 erreichen"), "{out}");
    assert!(!out.contains("vom Typ") && !out.contains("kein Tausch"), "{out}");
}

/// What the help shows is what is read, in a German chat: options by the names `help challenge`
/// lists (`tage`, `farbe`, `ungewertet`), and by the English ones; a game's or challenge's number
/// without `#` (`accept 1`, `move 1 e4`, `resign game 1`); an unknown option answered with the
/// command's own options in the chat's language; a swap's number told to be written with `#`.
/// (Before: "Unbekannte Option 'tage'; die Optionen sind days:N, …, level:N", and "accept takes at
/// most a challenge number like #4, not '1'".)
#[test]
fn options_by_the_helps_names_and_numbers_without_hash() {
    let dir = tempfile::tempdir().unwrap();
    let out = console(
        dir.path(),
        "alice> !settings lang:de\nalice> !help challenge\nalice> !challenge @bob chess tage:3 farbe:white ungewertet\n\
         bob> !accept 1\nalice> !move 1 e4\nbob> !board 1\nbob> !challenge @alice chess tempo:3\nalice> !draw 1\n\
         bob> !draw 1 ablehnen\nbob> !swap 1 K b\nbob> !resign game 1\nalice> !challenge @bob chess days:5 gün:5\n",
    );
    assert!(out.contains("            tage — Tage pro Zug (nach 80 % der Zeit kommt eine Erinnerung per Direktnachricht)\n            farbe — Deine Farbe"), "{out}");
    assert!(out.contains("(3 Tage pro Zug, ungewertet, alice spielt Weiß)"), "{out}");
    assert!(out.contains("Partie #1 beginnt: alice (Weiß) gegen bob (Schwarz)"), "{out}");
    assert!(out.contains("Partie #1: 1. e4, gespielt von alice."), "{out}");
    assert!(out.contains("Partie #1: alice (Weiß) gegen bob (Schwarz), Schach; bob (Schwarz) ist am Zug."), "{out}");
    assert!(
        out.contains(
            "Unbekannte Option 'tempo'; die Optionen von !challenge sind gegner, variante, tage, farbe, aufstellung, \
             ungewertet."
        ),
        "{out}"
    );
    assert!(out.contains("Partie #1: alice bietet Remis an."), "{out}");
    assert!(out.contains("bob hat das Remisangebot von alice abgelehnt"), "{out}");
    assert!(out.contains("Schreib #1 für Partie 1, z. B. !swap #1 K b."), "{out}");
    assert!(out.contains("Partie #1 abgebrochen: bob hat aufgegeben"), "{out}");
    // One option by two of its names is one option given twice: named as the reader's language
    // names it, each quoted as typed (before: 'days:5' and 'days:5').
    assert!(out.contains("tage ist zweimal angegeben ('days:5' und 'gün:5')"), "{out}");
    assert!(!out.contains("Herausforderung #2"), "{out}");
    assert!(!out.contains("Unbekannte Option 'tage'") && !out.contains("nicht '1'"), "{out}");
}

/// German and Turkish chats read the variants by their own names, in every message, `games`
/// included (before: "Leiter Chess", "#1 bomb gegen carol", "Secret-Bomb Chess" beside the DM's
/// "Schach mit geheimer Bombe"); and a German tournament starts "angemeldet: 3 Spieler" (before:
/// "beginnt mit 3 Spieler", the dative wanting "Spielern").
#[test]
fn variants_are_named_in_the_chats_language() {
    let dir = tempfile::tempdir().unwrap();
    let out = console(
        dir.path(),
        "alice> !settings lang:de\nalice> !tournament create roundrobin bomb signup:0\nbob> !tournament join\n\
         carol> !tournament join\nalice> !tournament join\nalice> !tournament start\nalice> !games\n\
         alice> !ladder create chess\n/chat tr\nalice> !settings lang:tr\nalice> !challenge @bob atomic\nbob> !games\n",
    );
    assert!(out.contains("beginnt (angemeldet: 3 Spieler)"), "{out}");
    assert!(out.contains("#1 Schach mit geheimer Bombe gegen carol"), "{out}");
    assert!(out.contains("Die Leiter für Schach ist eröffnet"), "{out}");
    assert!(out.contains("Atomik Satranç"), "{out}");
    assert!(!out.contains("Chess") && !out.contains("#1 bomb"), "{out}");
}

/// A refusal is its author's to read, in their language, all of it: the piece, its owner and the
/// side to move too (before: "Game #1: der Bauer auf e4 is Weiß's, and bob (Schwarz) is to move."
/// for alice, who reads English, in a German chat).
#[test]
fn a_refusal_is_one_language_through() {
    let dir = tempfile::tempdir().unwrap();
    let out = console(
        dir.path(),
        "alice> !settings lang:de\nalice> !lang en\nbob> !lang tr\nalice> !challenge @bob chess color:white\n\
         bob> !accept\nalice> e4\nalice> !moves e4\nbob> e5\nbob> !moves e5\n",
    );
    assert!(out.contains("Game #1: the pawn on e4 is white's, and bob (black) is to move."), "{out}");
    assert!(out.contains("Oyun #1: e5 karesindeki piyon siyah tarafın, sıra ise alice (beyaz) oyuncusunda."), "{out}");
    assert!(!out.contains("der Bauer auf") && !out.contains("Weiß's"), "{out}");
}

/// German and Turkish wording: one withdraws "aus" a tournament, Stone's Chess is "Stones-Schach",
/// a tournament's default name reads as German ("Schweizer Turnier in Stones-Schach"; before:
/// "Stones Schach Schweizer System"); Capatomic's rules name Capablanca Random Chess in the chat's
/// language (before: English in both); Atomic without check is no Atomic "without kings" in Turkish.
#[test]
fn german_and_turkish_wording() {
    let dir = tempfile::tempdir().unwrap();
    let out = console(
        dir.path(),
        "alice> !settings lang:de\nalice> !tournament create swiss stones signup:0\nbob> !tournament join\n\
         carol> !tournament join\nalice> !tournament join\nalice> !tournament start\ncarol> !tournament withdraw\n\
         carol> !tournament withdraw\nalice> !rules capatomic\n/chat tr\nalice> !settings lang:tr\nalice> !rules capatomic\n\
         alice> !variants\nalice> !swap\n",
    );
    assert!(out.contains("Turnier #1, Schweizer Turnier in Stones-Schach: Stones-Schach, Schweizer System"), "{out}");
    assert!(out.contains("carol zieht sich aus Turnier #1 Schweizer Turnier in Stones-Schach zurück."), "{out}");
    assert!(out.contains("Du hast dich aus diesem Turnier bereits zurückgezogen."), "{out}");
    assert!(out.contains("Capatomic-Zufallsschach: Capablanca-Zufallsschach auf 10×10 mit zwei Raketen"), "{out}");
    assert!(out.contains("bulunan, 10×10 tahtada Capablanca Rastgele Satrancı."), "{out}");
    assert!(out.contains("atomic-nocheck — Şah Çekmesiz Atomik Satranç"), "{out}");
    // A file is "sütun" in every Turkish message (before: "hat" here alone).
    assert!(out.contains("(şahı b sütunundaki taşla)"), "{out}");
    for wrong in ["Capablanca Random", "Stones Schach", "von Turnier", "von diesem Turnier", "Şahsız"] {
        assert!(!out.contains(wrong), "{wrong}: {out}");
    }
}

/// Option values, variants and subcommands by the words a Turkish chat reads (before: `renk:beyaz`,
/// `gif:kapalı`, `notify kapalı`, `satranç` and `çekil` were refused, and the settings showed
/// `tahta teması green`, `puanlı oyunlar: choice`).
#[test]
fn turkish_values_variants_and_subcommands_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = console(
        dir.path(),
        "alice> !settings dil:tr\nalice> !challenge @bob satranç renk:beyaz\nbob> !accept\nalice> e4\n\
         alice> !settings gif:kapalı tema:yeşil\nalice> !settings\nalice> !notify kapalı\n\
         alice> !notify özel-mesaj:acik\nalice> !challenge @bob chess renk:mor\nalice> !tournament çekil\n\
         alice> !rules atomik satranç\n",
    );
    // The challenger is white, as `renk:beyaz` asked, in a game of chess.
    assert!(out.contains("Satranç oynamak için meydan okuyor (süre yok, puanlı, alice beyaz oynar)"), "{out}");
    assert!(out.contains("Oyun #1: 1. e4, oynayan alice."), "{out}");
    assert!(out.contains("Ayarlar kaydedildi: gif:kapalı tema:yeşil."), "{out}");
    assert!(out.contains("bitişte hareketli resim kapalı, tahta teması yeşil, puanlı oyunlar: serbest"), "{out}");
    assert!(out.contains("Özel mesaj bildirimleri kapalı") && out.contains("Özel mesaj bildirimleri açık"), "{out}");
    assert!(out.contains("renk beyaz, siyah ya da rastgele olmalı, 'mor' değil"), "{out}");
    // `çekil` is `withdraw`: answered that there is no tournament to withdraw from, not refused.
    assert!(out.contains("Bu topluluğun açık ya da süren hiçbir turnuvasında oynamıyorsun."), "{out}");
    assert!(out.contains("Atomik Satranç: Her alışın patladığı satranç"), "{out}");
    assert!(!out.contains("bilmiyorum") && !out.contains("green") && !out.contains("choice"), "{out}");
}

/// The same in German: `schach`, `atomschach` and a full name as the announcements write them,
/// `farbe:weiss` without its ß, `design:holz`, `gif:aus`, `notify aus`, `zurückziehen`; a slip in a
/// variant's German name is answered with the variant meant.
#[test]
fn german_values_variants_and_subcommands_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = console(
        dir.path(),
        "alice> !settings sprache:de\nalice> !challenge @bob schach farbe:weiss\nbob> !accept\nalice> e4\n\
         alice> !settings variante:schach design:holz gif:aus\nalice> !settings\nalice> !rules atomschach\n\
         alice> !rules Schach mit geheimer Bombe\nalice> !rules schack\nalice> !play schach stufe:1 farbe:schwarz\n\
         alice> !notify aus\nalice> !tournament #3 zurückziehen\nalice> !settings gif:vielleicht\n",
    );
    assert!(
        out.contains("alice fordert bob zu einer Partie Schach heraus (keine Bedenkzeit, gewertet, alice spielt Weiß)"),
        "{out}"
    );
    assert!(out.contains("Partie #1: 1. e4, gespielt von alice."), "{out}");
    assert!(out.contains("Einstellungen gespeichert: variante:chess gif:aus design:holz."), "{out}");
    assert!(out.contains("Brettdesign holz, gewertete Partien: wahl"), "{out}");
    assert!(out.contains("Atomschach: Schach, bei dem jedes Schlagen eine Explosion auslöst"), "{out}");
    assert!(out.contains("Schach mit geheimer Bombe: Schach, in dem jede Seite"), "{out}");
    assert!(out.contains("Die Variante 'schack' kenne ich nicht. Meintest du chess?"), "{out}");
    assert!(out.contains("capabot, Stufe 1 (Weiß) gegen alice (Schwarz), Schach"), "{out}");
    assert!(out.contains("Benachrichtigungen per Direktnachricht aus"), "{out}");
    assert!(out.contains("Diese Community hat kein Turnier #3."), "{out}");
    assert!(out.contains("gif ist an, aus oder standard, nicht 'vielleicht'"), "{out}");
    assert!(!out.contains("Die Variante 'schach'") && !out.contains("Unbekannte"), "{out}");
}
