# Partien: Züge, wer am Zug ist, Ergebnisse. Die Zugnotation bleibt in jeder Sprache bei den englischen
# Buchstaben (K König, Q Dame, R Turm, B Läufer, N Springer, A Erzbischof, C Kanzler, M Rakete).

game-move-error = Partie #{ $id }: { $error }
game-not-yours = Partie #{ $id } ist nicht deine: Du spielst darin nicht mit.
game-none = Es gibt keine Partie #{ $id }.
game-not-here = Partie #{ $id } ist nicht in diesem Chat.
game-fen = Partie #{ $id }: { $fen }
no-games-yet = Du hast noch keine Partien. { $direct ->
        [yes] Starte hier eine mit { $p }play; andere forderst du in einem Chat heraus, den du mit ihnen teilst.
       *[no] Starte eine mit { $p }challenge @jemand oder { $p }play.
    }
no-game-in-chat = Du hast keine Partie in diesem Chat. { $direct ->
        [yes] Starte hier eine mit { $p }play; andere forderst du in einem Chat heraus, den du mit ihnen teilst.
       *[no] Starte eine mit { $p }challenge @jemand oder { $p }play.
    }
no-game-here = Du hast hier keine Partie. { $direct ->
        [yes] Starte hier eine mit { $p }play; andere forderst du in einem Chat heraus, den du mit ihnen teilst.
       *[no] Starte eine mit { $p }challenge @jemand oder { $p }play.
    }
no-game-in-progress = Du hast hier keine laufende Partie. { $direct ->
        [yes] Starte hier eine mit { $p }play; andere forderst du in einem Chat heraus, den du mit ihnen teilst.
       *[no] Starte eine mit { $p }challenge @jemand oder { $p }play.
    }
comma-list = { $head }, { $tail }
comma-list-none = {""}
game-against = #{ $id } als { $color ->
        [white] Weiß
       *[black] Schwarz
    } gegen { $other }
games-which = Du hast hier { $count } Partien ({ $ids }); gib die Nummer an, z. B. { $example }.
position-changed = Partie #{ $id }: Die Stellung hat sich inzwischen geändert (ein anderer Zug war schneller). Sieh dir { $p }board an und versuch es noch einmal.
move-not-playing = Partie #{ $id } läuft zwischen { $white } und { $black }; nur sie ziehen darin.
bare-which-game = Mehrere deiner Partien hier warten auf deinen Zug ({ $games }), daher ist bei einem bloßen Zug unklar, welche gemeint ist: Nenne die Partie, etwa { $example }
not-your-turn-anywhere = Du bist in keiner deiner Partien hier am Zug.
your-turn-which = Du bist hier in { $count } Partien am Zug ({ $ids }); sag, in welcher: { $p }move { $first } { $text }.
game-in-setup = Partie #{ $id } ist noch in der Aufstellungsphase: Wähle einen Tausch mit { $p }swap oder { $p }noswap.
game-over-already = Partie #{ $id } ist vorbei ({ $result ->
        [none] beendet
       *[other] { $result }
    }); starte eine neue mit { $p }challenge.
game-aborted-already = Partie #{ $id } wurde abgebrochen.
not-your-turn = Du bist in Partie #{ $id } nicht am Zug: { $other } ({ $color }) ist am Zug.
move-not-legal = Partie #{ $id }: Dieser Zug ist hier nicht legal.
move-raced = Partie #{ $id }: Die Stellung hat sich geändert, bevor dein Zug ankam (ein anderer Zug war schneller). Sieh dir das Brett an und versuch es noch einmal.
move-played = Partie #{ $id }: { $label }, gespielt von { $name }.
blast-removes = Die Explosion auf { $square } entfernt { $pieces }.
blast-nothing = Die Explosion auf { $square } entfernt nichts.
blast-piece = { $piece } ({ $color })
blast-irradiated = { $square } ist für immer verstrahlt.
death-match-kingless = Beide Könige sind weg, und die Partie geht ohne sie weiter (kein Schach mehr): Wer keine Figuren und Bauern mehr hat, verliert; leert eine Explosion das Brett oder hat die Seite am Zug keinen legalen Zug, ist es Remis.
to-move = { $name } ({ $color }) ist am Zug.
check = Schach!
days-to-reply = { $count ->
        [one] { $count } Tag Zeit zum Antworten.
       *[other] { $count } Tage Zeit zum Antworten.
    }
your-move-notice = Du bist am Zug in Partie #{ $id } gegen { $name } ({ $variant }): { $label }. { $days ->
        [one] { $days } Tag Zeit zum Antworten.
       *[other] { $days } Tage Zeit zum Antworten.
    }
game-over-win = { $head }: { $result } — { $why ->
        [king-exploded] { $name } gewinnt: Der gegnerische König ist explodiert
        [no-material-left] { $name } gewinnt: Die andere Seite hat kein Material mehr
       *[other] { $name } gewinnt durch { $reason }
    }.
game-over-draw = { $head }: { $result } — Remis durch { $reason }.
ai-no-move = Partie #{ $id }: capabot hat keinen Zug gefunden (keine KI in diesem Build?). Du kannst die Partie mit { $p }abort abbrechen.

move-error-empty = kein Zug angegeben
move-error-too-long = das ist zu lang für einen Zug
move-error-syntax = '{ $input }' ist kein Zug, den ich lesen kann; versuch SAN mit englischen Buchstaben (N = Springer) wie { $san } oder Koordinaten wie { $coordinates }
move-error-illegal = { $input } ist nicht legal: { $reason }
move-error-illegal-hints = { $input } ist nicht legal: { $reason }; { $hints }
move-error-hint-list = { $first }; { $rest }

# Warum ein korrekt geschriebener Zug nicht legal ist. $role ist der Name einer Figur (piece-name), $owner
# und $turn sind white oder black, $choices listet die Umwandlungsfiguren auf (=Q, =R).
piece-name = { $role ->
        [pawn] Bauer
        [knight] Springer
        [bishop] Läufer
        [rook] Turm
        [queen] Dame
        [king] König
        [archbishop] Erzbischof
        [chancellor] Kanzler
        [missile] Rakete
       *[other] Figur
    }
refusal-no-bombs = in dieser Variante gibt es keine Bomben
refusal-detonation = dort ist jetzt keine Zündung möglich: Nenne das Feld deiner eigenen Bombe, und im Schach muss die Explosion deinen König verschonen und das Schach aufheben
refusal-no-missiles = in dieser Variante gibt es keinen Raketenabschuss
refusal-not-a-missile = die Figur auf { $from } ({ $role }) ist keine Rakete
refusal-no-missile-on = du hast keine Rakete auf { $from }
refusal-off-board = { $square } liegt nicht auf diesem Brett
refusal-unarmed = bisher wurde keine Figur außer Bauern geschlagen, also ist noch kein Abschuss von Raketen erlaubt
refusal-missile-attacked = deine Rakete auf { $from } wird angegriffen ({ $role } auf { $by }), und eine angegriffene Rakete darf nicht abgeschossen werden
refusal-shielded = { $square } liegt im Schild eines Königs: Kein Abschuss darf das Feld eines Königs oder ein Feld daneben treffen
refusal-launch-into-check = der Abschuss würde deinen König im Schach lassen
refusal-castle-missiles = diese Raketen können nicht mitkommen
refusal-list = { $first }; { $rest }
missile-hold-none = du hast auf { $missile } keine Rakete, die mitkommen könnte
missile-hold-moved = die Rakete auf { $missile } hat schon gezogen und kann deshalb nicht mitkommen
missile-hold-king-stays = der König bleibt auf seiner Linie, also kommt keine Rakete mit
missile-hold-blocked = die Rakete auf { $missile } kann nicht mitkommen: Eine Figur auf { $square } versperrt ihr den Weg
missile-hold-irradiated = die Rakete auf { $missile } kann nicht mitkommen: { $square } auf ihrem Weg ist verstrahlt
refusal-castle-in-check = aus dem Schach heraus darfst du nicht rochieren
refusal-castle-impossible = die Rochade zu dieser Seite ist jetzt nicht möglich (König oder Turm hat gezogen, Figuren stehen im Weg oder ein Feld wird angegriffen)
refusal-castle-irradiated = die Rochade zu dieser Seite ist nicht möglich: { $square } ist verstrahlt, und eine Rochade darf kein verstrahltes Feld überqueren oder darauf enden
refusal-promotion = sag, in welche Figur umgewandelt wird, zum Beispiel { $example }: { $choices }
refusal-promotion-coordinates = sag, in welche Figur umgewandelt wird, zum Beispiel { $example }
refusal-promotion-to = ein Bauer kann nicht in diese Figur umgewandelt werden ({ $role }): wähle { $choices }
refusal-no-such-role = die Figur { $role } gibt es in dieser Variante nicht
# In den nächsten beiden ist $role der englische Name der Figur (pawn, knight, …), dekliniert.
refusal-no-piece-of-role = du hast { $role ->
        [pawn] keinen Bauern
        [knight] keinen Springer
        [bishop] keinen Läufer
        [rook] keinen Turm
        [queen] keine Dame
        [king] keinen König
        [archbishop] keinen Erzbischof
        [chancellor] keinen Kanzler
        [missile] keine Rakete
       *[other] keine solche Figur
    }
refusal-irradiated = { $square } ist verstrahlt: Dort darf keine Figur stehen
refusal-irradiated-on-the-way = { $square } auf dem Weg nach { $to } ist verstrahlt: Keine Figur darf hindurchziehen
refusal-own-piece = auf { $square } steht deine eigene Figur
refusal-check-not-answered = du stehst im Schach, und dieser Zug ({ $role }) hebt es nicht auf
refusal-into-check = dieser Zug ({ $role }) würde deinen König im Schach lassen
refusal-explodes-own-king = dieser { $role }-Schlagzug würde deinen eigenen König in die Luft sprengen
refusal-cannot-reach = { $role ->
        [pawn] keiner deiner Bauern kann { $square } erreichen
        [knight] keiner deiner Springer kann { $square } erreichen
        [bishop] keiner deiner Läufer kann { $square } erreichen
        [rook] keiner deiner Türme kann { $square } erreichen
        [queen] keine deiner Damen kann { $square } erreichen
        [king] dein König kann { $square } nicht erreichen
        [archbishop] keiner deiner Erzbischöfe kann { $square } erreichen
        [chancellor] keiner deiner Kanzler kann { $square } erreichen
        [missile] keine deiner Raketen kann { $square } erreichen
       *[other] keine deiner Figuren kann { $square } erreichen
    }
refusal-not-from = von { $place } aus kann keine deiner Figuren ({ $role ->
       *[other] { piece-name }
    }) { $square } erreichen
place-file = der { $file }-Linie
place-rank = Reihe { $rank }
place-square = { $square }
refusal-no-piece-on = auf { $square } steht keine Figur
refusal-not-yours = die Figur auf { $square } ({ $role }) gehört { $owner ->
        [white] Weiß
       *[black] Schwarz
    }, und { $turn ->
        [white] Weiß
       *[black] Schwarz
    } ist am Zug
refusal-no-legal-move = deine Figur auf { $from } ({ $role }) hat keinen legalen Zug
refusal-cannot-go = deine Figur auf { $from } ({ $role }) kann nicht nach { $to } ziehen
refusal-and = { $first }, und { $rest }
hint-meant = meintest du { $moves }?
hint-moves = { $role }: { $moves }
hint-castling = Rochaden: { $moves }
hint-in-check = du stehst im Schach
hint-plain = { $moves }
hint-launches = Abschüsse: { $moves }
moves-mover = { $name } ({ $color })
moves-all = Partie #{ $id }: { $mover } ist am Zug und hat { $count ->
        [one] einen legalen Zug
       *[other] { $count } legale Züge
    }. { $list }.
moves-piece = Partie #{ $id }: { $piece } hat { $count ->
        [one] einen legalen Zug
       *[other] { $count } legale Züge
    }: { $list }.
moves-all-launches = Partie #{ $id }: { $mover } ist am Zug und hat { $count } legale Züge, alle sind Raketenstarts.
moves-none = Partie #{ $id }: { $mover } ist am Zug und hat keinen legalen Zug.
moves-piece-none = Partie #{ $id }: { $piece } hat keinen legalen Zug.
moves-launches-counted = Raketenstarts je Rakete: { $missiles } ({ $p }moves { $square } listet die einer Rakete auf).
moves-in-check = { $mover } steht im Schach.
moves-no-detonations = Bombenzündungen werden hier, wo andere mitlesen, nie aufgelistet ({ $p }bomb zeigt dir deine, und zwar nur dir).
moves-not-square = Partie #{ $id }: '{ $text }' ist kein Feld dieses Bretts; nenne eins wie g1.
moves-no-piece = Partie #{ $id }: Auf { $square } steht keine Figur.
moves-not-turn = Partie #{ $id }: { $piece } gehört { $owner }, und { $mover } ist am Zug.
moves-setup = Partie #{ $id } hat noch nicht begonnen: Ihre Züge lassen sich auflisten, sobald die Aufstellung fertig ist.
moves-over = Partie #{ $id } ist vorbei: Es gibt keine Züge mehr aufzulisten.
move-error-ambiguous = { $input } ist mehrdeutig: Meintest du { $candidates }?

reason-checkmate = Schachmatt
reason-king-exploded = Explosion des Königs
reason-resignation = Aufgabe
reason-time-forfeit = Zeitüberschreitung
reason-forfeit = kampflose Wertung
reason-no-material-left = kein Material mehr
reason-stalemate = Patt
reason-threefold-repetition = dreifache Stellungswiederholung
reason-fifty-move-rule = 50-Züge-Regel
reason-insufficient-material = ungenügendes Material
reason-agreement = Einigung
reason-time-out-but-no-mating-material = Zeitüberschreitung bei fehlendem Mattmaterial
reason-both-kings-exploded = Explosion beider Könige

# Bilder: die Beschreibung eines Bretts für Screenreader.
alt-board = Brett ({ $variant }), { $color } am Zug.{ $last } Weiß: { $white }. Schwarz: { $black }.
alt-last-move = { " " }Letzter Zug von { $from } nach { $to }.

# Herausforderungen und der Beginn einer Partie.
challenge-colors = { $color ->
        [white] { $name } spielt Weiß
        [black] { $name } spielt Schwarz
       *[random] Farben werden ausgelost
    }
clock-text = { $days ->
        [0] keine Bedenkzeit
        [one] { $days } Tag pro Zug
       *[other] { $days } Tage pro Zug
    }
clock-rated = { $clock }, gewertet
clock-casual = { $clock }, ungewertet
setup-suffix = , Aufstellung { $number }
level-suffix = , Stufe { $level }
setup-range = { $variant } hat die Aufstellungen 0 bis { $max }, nicht { $given }.
setup-one = { $variant } hat nur eine Startstellung; setup:N gilt nur für Varianten mit mehreren ({ $list }).
relocation-no-setup = Bei Capablanca Relocation entsteht die Aufstellung nach dem Annehmen durch Tauschen; lass setup:N weg.
challenge-mention = Eine Variante namens '{ $name }' kenne ich nicht. Um jemanden herauszufordern, erwähne die Person: @{ $name }. Varianten: { $names }
challenge-mention-near = Eine Variante namens '{ $name }' kenne ich nicht: Meintest du { $near }? Um jemanden herauszufordern, erwähne die Person: @{ $name }. Varianten: { $names }
rating-mention = Eine Variante namens '{ $name }' kenne ich nicht. Um nach jemandem zu fragen, erwähne die Person: @{ $name }. Varianten: { $names }
mention-unclear = Ich konnte nicht erkennen, wen du erwähnt hast; erwähne die Person so, dass der Chat ihren Namen verlinkt.
community-rated-only = Diese Community spielt nur gewertete Partien; lass casual weg.
community-casual-only = Diese Community spielt nur ungewertete Partien; lass rated weg.
level-only-ai = level:N ist für Partien gegen mich: { $p }play [Variante] level:N.
ai-games-mine = Du hast schon { $count } laufende Partien gegen mich, mehr spiele ich mit einer Person nicht gleichzeitig. Beende zuerst eine oder gib sie mit { $p }resign auf ({ $p }games listet sie auf).
ai-games-all = Ich spiele gerade { $count } Partien gleichzeitig, mehr schaffe ich im Moment nicht. Versuch es noch einmal, wenn einige vorbei sind.
challenge-self = Du kannst dich nicht selbst herausfordern.
challenge-answer-slash = der Button „Annehmen“ oder „Ablehnen“, oder /accept und /decline
challenge-anyone-slash = der Button „Annehmen“ oder /accept { $id }
challenge-answer-typed = { $p }accept oder { $p }decline
challenge-anyone-typed = { $p }accept #{ $id }
challenge-direct = Herausforderung #{ $id }: { $name } fordert { $other } zu einer Partie { $variant } heraus ({ $terms }{ $setup }, { $colors }). { $other }: { $answer } (läuft in { $hours } h ab).
challenge-open = Offene Herausforderung #{ $id }: { $name } möchte { $variant } spielen ({ $terms }{ $setup }, { $colors }). Alle hier: { $anyone } (läuft in { $hours } h ab).
button-accept = Annehmen
button-decline = Ablehnen
button-withdraw = Zurückziehen
accept-none = Hier gibt es keine Herausforderung, die du annehmen kannst.
accept-which = Mehrere Herausforderungen sind offen ({ $ids }); sag, welche, z. B. { $p }accept { $first }.
challenge-duplicate = Deine Herausforderung #{ $id } ({ $variant }) zu denselben Bedingungen wartet noch auf Antwort; { $p }decline #{ $id } zieht sie zurück.
challenge-closed = Herausforderung #{ $id } ist nicht mehr offen.
thread-title = Partie #{ $id }: { $white } gegen { $black } ({ $variant })
game-starts-relocation = Partie #{ $id } beginnt: { $white } (Weiß) gegen { $black } (Schwarz), { $variant }, { $clock }. Aufstellungsphase: { $black } (Schwarz) wählt zuerst: { $p }swap K b (König mit der Figur auf der b-Linie), { $p }swap Q h, ... oder { $p }noswap.
game-starts = Partie #{ $id } beginnt: { $white } (Weiß) gegen { $black } (Schwarz), { $variant }{ $setup }, { $clock }. { $mover } (Weiß) ist am Zug.
bombs-first = { $ai ->
        [yes] Zuerst wählst du deine geheime Bombe: Ich habe dir eine Direktnachricht geschickt (capabot hat seine schon gewählt).
       *[no] Zuerst wählt jeder Spieler eine geheime Bombe: Ich habe jedem von euch eine Direktnachricht geschickt.
    }
ai-thinking = Partie #{ $id }: capabot denkt nach…
decline-open = Herausforderung #{ $id } ist für alle hier offen: Ablehnen kann sie niemand, und nur { $name } kann sie zurückziehen; mit { $p }accept #{ $id } nimmst du sie an.
decline-none-for-you = Hier gibt es keine Herausforderung, die du ablehnen kannst.
decline-unknown = Hier gibt es keine offene Herausforderung #{ $id }, die du ablehnen oder zurückziehen kannst.
decline-none = Hier gibt es keine Herausforderung, die du ablehnen oder zurückziehen kannst.
decline-which = Mehrere Herausforderungen sind offen ({ $ids }); sag, welche, z. B. { $p }decline { $first }.
challenge-ended = Herausforderung #{ $id } wurde von { $name } { $status ->
        [declined] abgelehnt
       *[cancelled] zurückgezogen
    }.
challenge-none = Es gibt keine Herausforderung #{ $id }.
challenge-not-here = Herausforderung #{ $id } ist nicht in diesem Chat.
challenge-not-open = Herausforderung #{ $id } ist nicht mehr offen ({ $status ->
        [accepted] angenommen
        [declined] abgelehnt
        [cancelled] zurückgezogen
        [expired] abgelaufen
       *[other] { $status }
    }).
challenge-expired = Herausforderung #{ $id } ist abgelaufen.
challenge-own = Herausforderung #{ $id } ist deine eigene; { $p }decline #{ $id } zieht sie zurück.
challenge-for-other = Herausforderung #{ $id } ist für { $name }, nicht für dich.
challenge-none-open = Hier gibt es keine offene Herausforderung #{ $id }, die du annehmen kannst.

# Aufgeben, Angebote, Zurücknahmen, Abbrechen.
game-still-setup = Partie #{ $id } ist noch in der Aufstellungsphase.
game-already-over = Partie #{ $id } ist schon vorbei.
position-changed-short = Partie #{ $id }: Die Stellung hat sich inzwischen geändert; sieh dir { $p }board an und versuch es noch einmal.
position-changed-retry = Partie #{ $id }: Die Stellung hat sich inzwischen geändert; versuch es noch einmal.
# How a game's end begins: in a move's answer (the game named before it), or alone.
game-over-head = Partie beendet
game-over-head-numbered = Partie #{ $id } ist beendet
draw-already-offered = Partie #{ $id }: Du hast schon Remis angeboten; das Angebot gilt bis zum nächsten Zug.
draw-ai-declines = Partie #{ $id }: capabot lehnt das Remis ab und spielt weiter.
draw-offered = Partie #{ $id }: { $name } bietet Remis an. { $other }: { $p }draw zum Annehmen, { $p }draw decline zum Ablehnen; auch jeder Zug gilt als Ablehnung.
button-accept-draw = Remis annehmen
button-decline-draw = Remis ablehnen
takeback-already-asked = Partie #{ $id }: Du hast schon um eine Zurücknahme gebeten; die Antwort deines Gegners steht noch aus.
takeback-nothing = Partie #{ $id }: Es gibt keinen Zug zum Zurücknehmen.
takeback-asked = Partie #{ $id }: { $name } möchte den letzten eigenen Zug zurücknehmen. { $other }: { $p }takeback zum Zustimmen, { $p }takeback decline zum Ablehnen.
button-allow-takeback = Zurücknahme erlauben
button-decline-takeback = Zurücknahme ablehnen
button-analyse = Analysieren
takeback-nothing-yours = Partie #{ $id }: Es gibt keinen Zug von dir, den du zurücknehmen könntest.
takeback-done = Partie #{ $id }: { $count ->
        [one] { $count } Zug
       *[other] { $count } Züge
    } zurückgenommen. { $name } ({ $color }) ist am Zug.
offer-yours = Partie #{ $id }: { $what ->
        [draw] Das Remisangebot kommt von dir; dein Gegner kann es annehmen
       *[takeback] Die Bitte um Zurücknahme kommt von dir; dein Gegner kann ihr zustimmen
    } oder ablehnen.
offer-none = Partie #{ $id }: Es gibt { $what ->
        [draw] kein Remisangebot
       *[takeback] keine Bitte um Zurücknahme
    } zum Ablehnen.
offer-gone = Partie #{ $id }: { $what ->
        [draw] Das Remisangebot
       *[takeback] Die Bitte um Zurücknahme
    } steht nicht mehr aus.
offer-declined-wait = Partie #{ $id }: { $what ->
        [draw] Dein Remisangebot wurde
       *[takeback] Deine Bitte um Zurücknahme wurde
    } abgelehnt; nach dem nächsten Zug kannst du es erneut versuchen.
offer-declined = Partie #{ $id }: { $name } hat { $what ->
        [draw] das Remisangebot
       *[takeback] die Bitte um Zurücknahme
    } von { $other } abgelehnt; die Partie geht weiter.
abort-tournament = Partie #{ $id } ist eine Turnierpartie und kann nicht abgebrochen werden; nutze stattdessen { $p }resign oder { $p }draw.
abort-ladder = Partie #{ $id } ist eine Leiterpartie und kann nicht abgebrochen werden: Die Herausforderung wird ausgespielt; mit { $p }resign gibst du sie bei jedem Zug auf, oder { $p }draw.
abort-too-late = Partie #{ $id }: Beide Seiten haben gezogen, daher kann sie nicht mehr abgebrochen werden; nutze stattdessen { $p }resign oder { $p }draw.
game-aborted = Partie #{ $id } wurde von { $name } abgebrochen.
game-aborted-unplayed = Partie #{ $id } abgebrochen: { $name } hat aufgegeben, bevor beide Seiten gezogen hatten; die Partie endet daher ohne Ergebnis und ohne Wertungsänderung.
game-aborted-timeout = Partie #{ $id } abgebrochen: { $name } hat die Zeit überschritten, bevor beide Seiten gezogen hatten; die Partie endet daher ohne Ergebnis und ohne Wertungsänderung.

# Die Aufstellungsphase von Capablanca Relocation.
swap-no-setup = Partie #{ $id } ist nicht in einer Aufstellungsphase; getauscht wird nur bei Capablanca Relocation vor dem ersten Zug.
swap-unreadable = Den Tausch '{ $text }' kann ich nicht lesen. Schreib König (K) oder Dame (Q) und die Figur oder Linie, mit der getauscht werden soll: { $p }swap K b, { $p }swap Q h, { $p }swap KA oder { $p }noswap.
swap-rook = Die Türme bleiben beim Tausch stehen: Tausch deinen König oder deine Dame mit einem Springer, Erzbischof, Läufer oder Kanzler oder die beiden miteinander ({ $p }swap K b, { $p }swap Q h), oder behalte die Aufstellung mit { $p }noswap.
swap-own-file = { $who ->
        [queen] Deine Dame steht
       *[king] Dein König steht
    } schon auf der { $file }-Linie: Nenn die Linie der Figur, mit der getauscht werden soll ({ $p }swap K b, { $p }swap Q h), oder behalte die Aufstellung mit { $p }noswap.
swap-bishops = Ein Tausch { $who ->
        [queen] deiner Dame
       *[king] deines Königs
    } mit dem Läufer auf der { $file }-Linie würde beide Läufer auf gleichfarbige Felder stellen, was die Regeln verbieten: Wähl eine andere Figur oder { $p }noswap.
swap-which-knight = Du hast zwei Springer, auf der { $first }- und der { $second }-Linie: Nenn die Linie des Springers, den du meinst, z. B. { $example }.
swap-other-chooses = Partie #{ $id }: { $name } ({ $color }) wählt jetzt den Tausch.
swap-already = Partie #{ $id }: Dieser Tausch wurde schon gewählt.
swap-setup-over = Partie #{ $id }: Die Aufstellung ist schon beendet.
swap-white-chose = Partie #{ $id }: Weiß hat { $swap } gewählt; Aufstellung { $setup }. Die Partie beginnt: { $name } (Weiß) ist am Zug.
swap-black-chose = Partie #{ $id }: Schwarz hat { $swap } gewählt.
swap-black-chose-next = Partie #{ $id }: Schwarz hat { $swap } gewählt. { $name } (Weiß): { $p }swap K b, { $p }swap Q h, ... oder { $p }noswap.

# Der Zeitplaner: Zeit, Erinnerungen, Ablauf.
timeout = Partie #{ $id }: { $name } hat die Zeit überschritten. { $end }
reminder = Partie #{ $id }: Erinnerung: { $name } ({ $color }) ist am Zug, noch { $hours } h { $minutes } min.
reminder-setup = Partie #{ $id }: Erinnerung: { $name } ({ $color }) wählt die Aufstellung: { $p }swap K b, { $p }swap Q h, ... oder { $p }noswap, noch { $hours } h { $minutes } min; danach gilt: kein Tausch.
setup-clock = Zeit für die Wahl: { $hours } h { $minutes } min; wer bis dahin nicht wählt, tauscht nicht.
setup-timeout = Partie #{ $id }: { $name } ({ $color }) hat nicht rechtzeitig gewählt, also gilt für { $color }: kein Tausch.
challenge-expired-notice = { $open ->
        [yes] Deine offene Herausforderung #{ $id } ({ $variant }) ist unbeantwortet abgelaufen.
       *[no] Deine Herausforderung #{ $id } an { $name } ({ $variant }) ist unbeantwortet abgelaufen.
    }
swap-none = keinen Tausch

# Partien ansehen: das Brett, die Liste, Animationen.
variants-head = Varianten:
status-setup = Aufstellungsphase
status-to-move = { $name } ({ $color }) ist am Zug
status-finished = beendet { $result }
status-aborted = abgebrochen
status-in-progress = läuft
board-head = Partie #{ $id }: { $white } (Weiß) gegen { $black } (Schwarz), { $variant }; { $status }.
time-left = Verbleibende Zeit: { $hours } h { $minutes } min.
draw-pending = { $name } hat Remis angeboten.
takeback-pending = { $name } hat um eine Zurücknahme gebeten.
no-games = Du hast keine Partien. { $direct ->
        [yes] Starte hier eine mit { $p }play; andere forderst du in einem Chat heraus, den du mit ihnen teilst.
       *[no] Starte eine mit { $p }challenge @jemand oder { $p }play.
    }
games-time-left = , noch { $hours } h { $minutes } min
games-line = Partie #{ $id } { $variant } gegen { $other }, Zug { $number }, { $state ->
        [setup] Aufstellungsphase
        [bomb] wähle deine Bombe (in einer Direktnachricht an mich)
        [yours] du bist am Zug
       *[theirs] dein Gegner ist am Zug
    }{ $here ->
        [here] {""}
       *[elsewhere] { " " }(anderer Chat)
    }
suggest-game = #{ $id } { $variant } gegen { $other } — { $state ->
        [setup] Aufstellungsphase
        [bomb] wähle deine Bombe
        [yours] du bist am Zug
        [theirs] Gegner am Zug
        [aborted] abgebrochen
       *[finished] { $result }
    }
suggest-challenge = #{ $id } { $kind ->
        [to-you] von { $name }
        [open] von { $name } (offen für alle)
        [yours] deine an { $name }
       *[yours-open] deine (offen für alle)
    } — { $variant }
suggest-tournament = #{ $id } { $name } — { $system ->
        [roundrobin] Rundenturnier
        [double] doppeltes Rundenturnier
       *[swiss] Schweizer System, { $rounds } Runden
    }, { $variant }, { $status ->
        [registration] Anmeldung offen
        [running] läuft
       *[finished] beendet
    }
games-challenge-line = Herausforderung #{ $id } von { $name } ({ $variant }): { $p }accept #{ $id }
games-challenge-elsewhere-line = Herausforderung #{ $id } von { $name } ({ $variant }) in einem anderen Chat: Nimm sie dort an oder lehne sie ab
games-sent-line = { $open ->
        [yes] deine offene Herausforderung #{ $id } ({ $variant }) wartet auf jemanden hier
       *[no] deine Herausforderung #{ $id } an { $name } ({ $variant }) wartet auf Antwort
    }: { $p }decline #{ $id } zieht sie zurück
games-none = Keine laufenden Partien. { $direct ->
        [yes] Starte hier eine mit { $p }play; andere forderst du in einem Chat heraus, den du mit ihnen teilst.
       *[no] Starte eine mit { $p }challenge @jemand oder { $p }play.
    }
games-head = Deine Partien:
ai-name-level = capabot, Stufe { $level }
pictures-off = Bilder sind bei diesem Bot ausgeschaltet; { $p }pgn gibt die Partie als Text aus.
gif-in-setup = Partie #{ $id } ist noch in der Aufstellungsphase: Es gibt noch nichts zu animieren.
gif-no-moves = Partie #{ $id } hat noch keine Züge: Es gibt nichts zu animieren.
gif-too-long = Partie #{ $id }: Die Partie hat { $plies } Halbzüge; Animationen enden bei { $max }; { $p }pgn gibt sie als Text aus.
gif-caption = Partie #{ $id }, { $white } (Weiß) gegen { $black } (Schwarz), { $variant }: { $count ->
        [one] { $count } Zug
       *[other] { $count } Züge
    }, { $state }.
gif-alt = Animiertes Brett der Partie #{ $id }, { $variant }: { $white } (Weiß) gegen { $black } (Schwarz), ein Einzelbild pro Zug ab der Ausgangsstellung. Züge: { $moves }. Ergebnis: { $state }.

# Schach mit geheimer Bombe. $role ist der englische Name einer Figur (pawn, knight, bishop, rook, queen,
# king, archbishop, chancellor, missile oder piece).
piece-on = { $role ->
        [pawn] der Bauer
        [knight] der Springer
        [bishop] der Läufer
        [rook] der Turm
        [queen] die Dame
        [king] der König
        [archbishop] der Erzbischof
        [chancellor] der Kanzler
        [missile] die Rakete
       *[other] die Figur
    } auf { $square }
bomb-not-here = Nicht hier: Alle in diesem Chat können das lesen. Die Bombe wird in einer Direktnachricht an mich gewählt, einmal pro Partie: Schreib dort bomb, um deine zu sehen oder sie zu wählen, falls du es noch nicht getan hast. Diese Nachricht hat nichts gewählt und nichts geändert.
bomb-no-game = Du hast keine Partie mit geheimer Bombe.
bomb-sent-dm = Ich habe es dir per Direktnachricht geschickt.
bomb-not-yours = Partie #{ $id } ist keine deiner laufenden Partien mit geheimer Bombe.
bomb-no-game-in-progress = Du hast keine laufende Partie mit geheimer Bombe.
bomb-which = Du hast { $count } Partien mit geheimer Bombe ({ $ids }); gib die Nummer an, z. B. bomb { $first } g1.
game-not-in-progress = Partie #{ $id } läuft nicht.
bomb-already = Partie #{ $id }: Deine Bombe ist schon gewählt (zu Beginn { $piece }); das lässt sich nicht ändern.
bomb-not-square = '{ $text }' ist kein Feld: Nenne eins wie g1.
bomb-bad-square = Partie #{ $id }: Deine Bombe muss eine deiner eigenen Figuren außer dem König sein, so wie sie zu Beginn stehen; { $square } ist das nicht.
bomb-raced = Partie #{ $id }: Deine Bombe wurde inzwischen gewählt; schreib bomb, um sie zu sehen.
bomb-chosen = Partie #{ $id }: Deine Bombe ist { $piece }. Sie zieht mit ihrer Figur (die neue Figur eines umgewandelten Bauern behält sie). Wenn du am Zug bist, kannst du sie statt eines Zugs mit @ und ihrem Feld zünden (tippe @{ $square }, solange sie dort steht): Sie und alle Figuren neben ihr werden entfernt.
bomb-chosen-notice = Partie #{ $id }: { $name } ({ $color }) hat eine geheime Bombe gewählt.
bomb-both-set = Beide Bomben sind gesetzt.
bomb-to-move = { $name } ist am Zug.
bomb-prompt = Partie #{ $id } gegen { $other } (Schach mit geheimer Bombe, du spielst { $color }): Wähle deine geheime Bombe, eine deiner Figuren außer dem König. Niemand sonst erfährt, welche, bis sie explodiert oder die Partie endet. Drück den Button der Figur oder antworte hier mit bomb und ihrem Feld (bomb { $example }). Du kannst erst ziehen, wenn du gewählt hast.
bomb-where-now = deine Bombe war zu Beginn { $piece } und steht jetzt auf { $square }
bomb-gone = deine Bombe (zu Beginn { $piece }) ist weg
bomb-not-chosen = du hast deine Bombe noch nicht gewählt
bomb-own-board = Partie #{ $id }: { $state }.
bomb-own-board-alt = Dein Brett in Partie #{ $id }; { $state }.
bomb-missing = Partie #{ $id }: Wähle deine geheime Bombe vor deinem ersten Zug; ich habe dir die Auswahl per Direktnachricht geschickt.
bomb-random-own = Partie #{ $id }: Deine Zeit zum Wählen ist abgelaufen, also habe ich deine Bombe zufällig gewählt: { $piece }. Deine Zugzeit beginnt von vorn.
bomb-random-notice = Partie #{ $id }: { $name } ({ $color }) hat nicht rechtzeitig eine Bombe gewählt, also wurde eine zufällig gewählt. { $name } ist am Zug.
bomb-side-was = { $side ->
        [white] Die von Weiß
       *[black] Die von Schwarz
    } war { $piece }
bomb-side-never = { $side ->
        [white] Weiß
       *[black] Schwarz
    } hat nie eine gewählt
bombs-revealed = Die Bomben in der Ausgangsstellung: { $white }. { $black }.

# Warum ein Zug der KI verworfen wurde (geloggt, nicht angezeigt).
ai-game-vanished = Partie verschwunden
ai-game-moved-on = die Partie ist weitergegangen
game-paused = Partie #{ $id } ist pausiert: Ich kann nicht mehr in ihren Chat schreiben (er wurde gelöscht, oder ich wurde entfernt). Ihre Uhr ist angehalten. Jeder von euch kann mit `{ $p }move #{ $id } …` in einem anderen Chat, in dem ich bin, weiterspielen (nicht in einer Direktnachricht); die Uhr läuft wieder, sobald ihr beide dort gezogen habt.
game-paused-closed = Partie #{ $id } ist pausiert: Ich darf nicht mehr in ihren Chat schreiben (er wurde gesperrt, oder mir wurde das Schreiben dort untersagt). Ihre Uhr ist angehalten. Jeder von euch kann mit `{ $p }move #{ $id } …` in einem anderen Chat, in dem ich bin, weiterspielen (nicht in einer Direktnachricht); die Uhr läuft wieder, sobald ihr beide dort gezogen habt.
game-taken-up = Die Partie geht hier weiter; ihre Uhr läuft wieder, sobald auch { $name } hier gezogen hat.
game-paused-not-direct = Partie #{ $id } ist pausiert. Spiel dort weiter, wo dein Gegner mitlesen kann: `{ $p }move #{ $id } …` in einem Chat eines gemeinsamen Servers oder Space, nicht in einer Direktnachricht oder privaten Gruppe.

games-moved-here = { $count ->
        [one] Partie { $ids } geht hier weiter: Ihr Chat wurde durch diesen ersetzt.
       *[other] Die Partien { $ids } gehen hier weiter: Ihr Chat wurde durch diesen ersetzt.
    }

# Computeranalyse (`analyse`). Gewinnchancen und Genauigkeit sind ganze Prozentzahlen.
analysis-progress = Analysiere Partie #{ $id }: { $done } von { $total } Stellungen…
analysis-head = Analyse der Partie #{ $id }, { $white } (Weiß) gegen { $black } (Schwarz), { $variant }, { $result } ({ $nodes } Knoten pro Stellung).
analysis-again = (schon früher analysiert)
analysis-side = { $name } ({ $color }): Genauigkeit { $accuracy } %, { $inaccuracies ->
        [one] 1 Ungenauigkeit
       *[other] { $inaccuracies } Ungenauigkeiten
    }, { $mistakes ->
        [one] 1 Fehler
       *[other] { $mistakes } Fehler
    }, { $blunders ->
        [one] 1 grober Fehler
       *[other] { $blunders } grobe Fehler
    }.
analysis-side-no-moves = { $name } ({ $color }): keine Züge.
analysis-turning-points = Wendepunkte: { $moves }.
analysis-no-turning-points = Kein Zug hat seine Seite 5 Prozentpunkte Gewinnchance oder mehr gekostet: keine Wendepunkte.
analysis-pgn-hint = Die kommentierte Partie: { $p }pgn #{ $id } analysed
analysis-point = { $label } ({ $color }): Gewinnchance { $before } % → { $after } %; besser war { $better }.
analysis-point-alt = Das Brett vor { $label }: der gespielte Zug ({ $played }) als roter Pfeil, der bessere Zug ({ $better }) als grüner.
analysis-chart-alt = Diagramm der Gewinnchancen von Weiß in Partie #{ $id } nach jedem Zug, von { $start } % zu Beginn bis { $end } % am Ende; { $count ->
        [one] 1 Zug ist
       *[other] { $count } Züge sind
    } als Ungenauigkeit, Fehler oder grober Fehler markiert.
analysis-word-inaccuracy = Ungenauigkeit
analysis-word-mistake = Fehler
analysis-word-blunder = Grober Fehler
analysis-failed = Partie #{ $id } konnte nicht analysiert werden, tut mir leid. Bitte versuch es später noch einmal.
analysis-no-game = Du hast in diesem Chat keine Partie zum Analysieren; nenne eine mit ihrer Nummer, etwa { $p }analyse #12.
analysis-not-here = Partie #{ $id } wurde nicht in diesem Chat gespielt: Frag nach ihrer Analyse dort, wo sie gespielt wurde.
analysis-unfinished = Partie #{ $id } ist nicht beendet: Nur beendete Partien werden analysiert.
analysis-aborted = Partie #{ $id } wurde abgebrochen: Es gibt nichts zu analysieren.
analysis-no-moves = Partie #{ $id } hat keine Züge: Es gibt nichts zu analysieren.
analysis-too-long = Partie #{ $id } hat { $plies } Halbzüge; Analysen enden bei { $max }.
analysis-busy-you = Deine Analyse läuft noch: Warte sie ab, bevor du eine weitere anforderst.
analysis-busy-full = capabot ist schon mit { $count ->
        [one] einer anderen Analyse
       *[other] { $count } Analysen
    } beschäftigt; bitte versuch es in einer Minute noch einmal.
analysis-none-yet = Partie #{ $id } wurde noch nicht analysiert: Schreib zuerst { $p }analyse #{ $id }.

rematch-no-game = Du hast in diesem Chat keine beendete Partie, die du noch einmal spielen könntest; nenne eine mit ihrer Nummer, etwa { $p }rematch #12.
rematch-not-here = Partie #{ $id } wurde nicht in diesem Chat gespielt: Frag nach der Revanche dort, wo sie gespielt wurde.
rematch-not-player = Du hast Partie #{ $id } nicht gespielt: Nur ihre Spieler können eine Revanche verlangen.
rematch-unfinished = Partie #{ $id } läuft noch; eine Revanche kann folgen, sobald sie vorbei ist ({ $p }resign #{ $id } oder { $p }draw #{ $id } beenden sie früher).
rematch-already = Deine Herausforderung #{ $id } an { $name } wartet schon auf Antwort; { $p }decline #{ $id } zieht sie zurück.
challenge-in-direct = Nur du und ich lesen diesen Chat, also könnte niemand eine Herausforderung von hier annehmen: Fordere Leute in einem Chat heraus, den du mit ihnen teilst. Gegen mich geht { $p }play auch hier.
rematch-playing = Partie #{ $id }, die Revanche zu Partie #{ $game }, läuft bereits: Spiel zuerst diese Partie zu Ende ({ $p }board #{ $id }).
rematch-gone = { $name } kann hier nicht mehr herausgefordert werden.
rematch-of = Revanche zu Partie #{ $game }. { $text }
button-rematch = Revanche
game-end-next = Als Nächstes: { $p }analyse #{ $id } zeigt, wo die Partie kippte, { $p }rematch #{ $id } bietet eine Revanche an.
game-end-next-rematch = Als Nächstes: { $p }rematch #{ $id } bietet eine Revanche an.
