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
    assert!(out.contains("Ayarlar kaydedildi: lang:tr."), "{out}");
    assert!(out.contains("Seninle tr konuşuyorum"), "{out}");
    assert!(out.contains("Oyun #1: 1. f3, oynayan alice. Sıra bob (siyah) oyuncusunda."), "{out}");
    // bob moves out of turn: told in Turkish, and the game is unchanged
    assert!(out.contains("Oyun #1: sıra sende değil; sıra alice adlı oyuncuda."), "{out}");
    // illegal moves (typed bare, then as a command): the reason and the legal alternatives in Turkish,
    // notation in English letters
    assert!(out.contains("Nf4 oynanamaz: f4 karesine gidebilecek at yok; at hamleleri: Na3, Nc3, Nh3"), "{out}");
    assert!(out.contains("e2e5 oynanamaz: e2 karesindeki piyon e5 karesine gidemez; piyon hamleleri: e3, e4"), "{out}");
    assert!(out.contains("Oyun bitti: 0-1 — bob, şah mat ile kazandı."), "{out}");
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
    assert!(out.contains("Bundan sonra seninle Türkçe konuşuyorum."), "{out}");
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
    assert!(out.contains("Einstellungen gespeichert: lang:de."), "{out}");
    assert!(out.contains("Partie #1: 1. f3, gespielt von alice. bob (Schwarz) ist am Zug."), "{out}");
    assert!(out.contains("Partie #1: Du bist nicht am Zug; alice ist am Zug."), "{out}");
    // The reason and the legal alternatives in German, the notation in English letters.
    assert!(
        out.contains(
            "Nf4 ist nicht legal: keine deiner Figuren vom Typ Springer kann f4 erreichen; Springer: Na3, Nc3, Nh3"
        ),
        "{out}"
    );
    assert!(out.contains("Partie beendet: 0-1 — bob gewinnt durch Schachmatt."), "{out}");
    assert!(out.contains("Befehle (Präfix !):") && out.contains("N Springer"), "{out}");
    assert!(out.contains("Normales Schach (FIDE-Regeln)"), "{out}");
    assert!(!out.contains("played by") && !out.contains("Game over") && !out.contains("is not legal"), "{out}");
    // Carol's own language: English in a German chat, then German again by its name.
    assert!(out.contains("There is no game #9."), "{out}");
    assert!(out.contains("Ab jetzt spreche ich Deutsch mit dir.") && out.contains("Es gibt keine Partie #9."), "{out}");
    assert!(out.contains("Ich spreche en (Englisch), tr (Türkisch) und de (Deutsch), nicht 'fr'."), "{out}");
}
