# Communitys: verknüpfte Konten, Wertungen, Leitern, Turniere.

link-malformed = Das ist kein Verknüpfungscode: Codes bestehen aus 8 Buchstaben und Ziffern, etwa ABCD-EFGH.
link-unknown = Diesen Verknüpfungscode kenne ich nicht: Prüf ihn oder fordere auf der Plattform, von der du kommst, einen neuen an.
link-expired = Dieser Verknüpfungscode ist abgelaufen (Codes gelten 10 Minuten); fordere einen neuen an.
link-used = Dieser Verknüpfungscode wurde schon benutzt; fordere einen neuen an.
link-same-account = Gib den Code mit deinem Konto auf der anderen Plattform ein, nicht mit dem, das ihn erzeugt hat.
link-same-platform = Beide Konten sind auf derselben Plattform; ein Code verknüpft Konten auf verschiedenen Plattformen.
link-already = Diese Konten sind schon verknüpft.
link-two-accounts = Du hast schon ein Konto auf { $platform } verknüpft; trenne es zuerst, um ein anderes zu verknüpfen.
link-histories-meet = Diese Konten haben gegeneinander gespielt oder teilen eine Leiter oder ein Turnier, daher können sie nicht zusammengeführt werden.
link-not-linked = Dieses Konto ist mit keinem anderen verknüpft.
link-unknown-account = Dieses Konto hat den Bot noch nicht benutzt.
link-code = Dein Verknüpfungscode ist { $code }. Schick mir auf deiner anderen Plattform innerhalb von { $minutes } Minuten { $p }link { $code } als Direktnachricht; er gilt nur ein einziges Mal. Behalte ihn für dich: Wer ihn benutzt, verbindet sein Konto mit deinem.
link-not-here = Verknüpfungscodes gehören in eine Direktnachricht an mich, wo niemand sonst mitliest. Diesen hier könnten andere gelesen haben, deshalb gilt er nicht mehr: Hol dir auf der Plattform, von der du kommst, mit { $p }link einen neuen und schick ihn mir direkt.
link-done = Verknüpft: Dieses { $platform }-Konto und dein anderes Konto sind jetzt ein Spieler, { $name }, mit all ihren Partien. { $p }unlink macht es rückgängig.
unlink-done = Getrennt: Dieses { $platform }-Konto ist wieder ein eigener Spieler; der gemeinsame Verlauf bleibt bei deinen anderen Konten.

player-fallback = Spieler { $id }
ratings-changed = Wertungen: { $white }, { $black }.
ratings-no-move = Nicht gewertet: Die Partie endete, bevor beide Seiten gezogen hatten.

# Wertungen. $scope ist community (die Wertungen dieser Community) oder global.
rating-record = { $count ->
        [one] { $count } Partie
       *[other] { $count } Partien
    }: +{ $wins } ={ $draws } −{ $losses }
rating-none = { $name } hat { $scope ->
        [community] in dieser Community
       *[global] global
    } noch keine gewerteten Partien in { $variant }.
rating-none-any = { $name } hat { $scope ->
        [community] in dieser Community
       *[global] bisher nirgends
    } noch keine gewerteten Partien, in keiner Variante.
rating-not-met = { $name } kenne ich noch nicht: Mit mir wurde noch keine Partie gespielt, also gibt es keine Wertung.
rating-not-met-self = Du hast noch keine Partie mit mir gespielt, also hast du keine Wertung.
rating-line = { $name } — { $variant } { $scope ->
        [community] in dieser Community
       *[global] global
    }: { $rating } (±{ $deviation }), { $record }.
rating-global = Global { $rating }.
rating-provisional = (? = vorläufig: noch zu wenige Partien für eine verlässliche Wertung.)
leaderboard-empty = Noch keine gewerteten Partien in { $variant } { $scope ->
        [community] in dieser Community
       *[global] global
    }.
leaderboard-rated-variants = Gewertete Partien gibt es hier in { $list }: Schreib { $example }.
leaderboard-head = Bestenliste { $variant } { $scope ->
        [community] in dieser Community
       *[global] global
    }:
leaderboard-nobody = Noch hat niemand eine feste Wertung (weniger Partien als nötig).
leaderboard-provisional-place = vorläufig
leaderboard-place = Platz { $place } von { $count }
leaderboard-place-many = Platz { $place } von mehr als { $count }
leaderboard-place-below = unter Platz { $count }
leaderboard-you = Du: { $name } { $rating } ({ $place }).
leaderboard-provisional = Vorläufig: { $names }.
leaderboard-title = Bestenliste { $variant }
leaderboard-subtitle = { $scope ->
        [community] diese Community
       *[global] global
    }
leaderboard-alt = { $title }, { $subtitle }: { $count } Spieler in der Wertung.
leaderboard-alt-many = { $title }, { $subtitle }: mehr als { $count } Spieler in der Wertung.
history-none = { $whose ->
        [own] Du hast
       *[other] { $name } hat
    } { $scope ->
        [community] in dieser Community
       *[global] überhaupt
    } noch keine gewerteten Partien in { $variant }.
history-line = Wertung von { $name } in { $variant } { $scope ->
        [community] in dieser Community
       *[global] global
    }: { $first } → { $last } über { $count ->
        [one] { $count } gewertete Partie
       *[other] { $count } gewertete Partien
    }; Höchstwert { $high }.
history-alt = Diagramm: { $text }

# Leitern.
that-player = dieser Spieler
ladder-not-on = Du bist nicht auf dieser Leiter; tritt ihr zuerst bei.
ladder-player-not-on = { $name } ist nicht auf dieser Leiter.
ladder-already-on = Du bist schon auf dieser Leiter, auf Platz { $place }.
ladder-not-above = Du kannst nur Spieler über dir herausfordern: { $name } ist auf Platz { $theirs }, du auf Platz { $yours }.
ladder-too-far = Du darfst höchstens { $max ->
        [one] { $max } Platz
       *[other] { $max } Plätze
    } nach oben herausfordern: { $name } steht { $distance } Plätze über dir.
ladder-you-have-open = Du hast schon eine offene Leiter-Herausforderung mit { $name }; bring sie zu Ende, bevor du eine neue beginnst.
ladder-they-have-open = { $name } hat schon eine offene Leiter-Herausforderung; versuch es noch einmal, wenn sie vorbei ist.
ladder-no-challenge = Niemand hat dich auf dieser Leiter herausgefordert.
ladder-no-challenge-own = Niemand hat dich auf dieser Leiter herausgefordert. Deine Herausforderung an { $name } wartet auf Antwort; mit { $p }ladder withdraw ziehst du sie zurück.
ladder-nothing-to-withdraw = Du hast keine offene Leiter-Herausforderung, die du zurückziehen könntest.
ladder-unknown-challenge = Es gibt in dieser Saison keine Leiter-Herausforderung Nummer { $id }.
ladder-not-played = Leiter-Herausforderung { $id } wird nicht gespielt, daher kann für sie kein Ergebnis eingetragen werden.
ladder-deadline-passed = Die Frist zum Annehmen dieser Herausforderung ist abgelaufen: Sie gilt als kampflos verloren.
ladder-unknown-event = Es gibt in dieser Saison kein Leiter-Ergebnis { $id }; jedes Ergebnis wird mit seiner Nummer angekündigt, etwa (Leiter-Ergebnis 2).
ladder-already-undone = Leiter-Ergebnis { $id } wurde schon rückgängig gemacht.
ladder-reason-required = Sag, warum das Ergebnis rückgängig gemacht wird; der Grund wird im Verlauf festgehalten.
ladder-corrupt = Die gespeicherte Leiter ist widersprüchlich: { $detail }
n-days = { $count ->
        [one] { $count } Tag
       *[other] { $count } Tage
    }
n-places = { $count ->
        [one] { $count } Platz
       *[other] { $count } Plätze
    }
ladder-no-community = Leitern gehören zu einer Community (einem Server oder Space); dieser Chat ist in keiner.
interaction-only-no-ladders = Leitern gibt es hier nicht: Ich nehme an diesem Chat nur über deine Befehle teil, und Stand und Herausforderungen einer Leiter werden ohne Befehl gepostet. Füg mich einem Server hinzu, um dort eine Leiter zu spielen.
interaction-only-no-tournaments = Turniere gibt es hier nicht: Ich nehme an diesem Chat nur über deine Befehle teil, und Runden und Paarungen eines Turniers werden ohne Befehl gepostet. Füg mich einem Server hinzu, um dort ein Turnier auszurichten.
ladder-admins-only = Tut mir leid, nur die Administratoren der Community dürfen das mit einer Leiter tun.
ladder-none-yet = Diese Community hat noch keine Leiter; ein Administrator kann eine mit { $p }ladder create chess anlegen.
ladder-exists = Diese Community hat schon eine Leiter für { $variant }.
ladder-created = Die Leiter für { $variant } ist eröffnet: { $days } pro Zug, Herausforderungen bis { $reach } nach oben, { $wait } zum Annehmen. Beitreten mit { $p }ladder join.
ladder-joined = { $name } tritt der Leiter für { $ladder } auf Platz { $place } bei.
ladder-left = { $name } verlässt die Leiter für { $ladder }.
ladder-left-forfeit = Die offene Leiter-Herausforderung zwischen { $name } und { $other } gilt als von { $name } verloren. { $effect }
ladder-left-withdrawn = Die Herausforderung von { $name } an { $other } ist zurückgezogen.
ladder-remove-whom = Sag, wen du entfernen willst, z. B. { $p }ladder remove @bob.
ladder-removed = { $name } wurde von einem Administrator von der Leiter für { $ladder } entfernt.
ladder-undone = Leiter-Ergebnis { $event } der Leiter für { $ladder } ({ $what }) wurde von einem Administrator rückgängig gemacht (Grund: { $reason }).
ladder-undone-what = { $challenger } gegen { $challenged }: { $result ->
        [challenger] Sieg für { $challenger }
        [challenged] Sieg für { $challenged }
        [challenger-forfeit] kampflos verloren von { $challenged }
        [challenged-forfeit] kampflos verloren von { $challenger }
       *[draw] remis
    }
ladder-undone-game-stays = Partie #{ $id } und ihre Wertungsänderungen bleiben, wie sie sind; nur die Leiter vergisst das Ergebnis.
ladder-season-closed = Saison { $number } der Leiter für { $ladder } ist abgeschlossen und ihr Endstand archiviert ({ $p }ladder season { $number }). Saison { $next } beginnt mit derselben Reihenfolge; offene Leiter-Herausforderungen wurden abgesagt.
ladder-no-season = Die Leiter für { $ladder } hat keine abgeschlossene Saison { $number }; zurzeit läuft Saison { $current }.
ladder-season-head = Leiter für { $ladder }, Saison { $number } (abgeschlossen), Endstand:
ladder-season-empty = Niemand stand darauf.
ladder-no-such = Diese Community hat keine Leiter für { $variant }.
ladder-which = Diese Community hat mehrere Leitern ({ $names }); gib die Variante an.
ladder-standings-head = Leiter für { $ladder }, Saison { $season } ({ $days } pro Zug, Herausforderungen bis { $reach } nach oben, { $wait } zum Annehmen):
ladder-state-game = Partie #{ $id }
ladder-state-accepted = angenommen
ladder-state-waiting = wartet auf Antwort
ladder-standings-challenge = { " " }— { $dir ->
        [challenges] Herausforderung an
       *[challenged] herausgefordert von
    } { $name } ({ $state })
ladder-standings-empty = Noch steht niemand darauf: { $p }ladder join { $variant }.
ladder-challenge-whom = Sag, wen du herausforderst, z. B. { $p }ladder challenge @bob.
ladder-challenge = Leiter-Herausforderung #{ $id }: { $name } (Platz { $place }) fordert { $other } (Platz { $other_place }) auf der Leiter für { $variant } heraus. { $other }: { $p }accept #{ $id } oder { $p }decline #{ $id }, Frist: { $wait }; Ablehnen oder keine Antwort zählt als Sieg für { $name }.
ladder-withdrawn = { $name } zieht die eigene Herausforderung auf der Leiter für { $ladder } zurück.
ladder-declined = { $name } lehnt die Herausforderung von { $other } auf der Leiter für { $ladder } ab; das gilt als kampflos verloren. { $effect }
ladder-accepted = { $name } nimmt die Herausforderung von { $other } auf der Leiter für { $ladder } an.
ladder-climbed = { $name } übernimmt Platz { $place } von { $other }.
ladder-unchanged = Der Stand bleibt, wie er ist.
ladder-note-draw = ein Remis ändert nichts.
ladder-note-unchanged = der Stand bleibt, wie er ist.
ladder-note = Leiter: { $line }
ladder-result-tag = (Leiter-Ergebnis { $event })
ladder-forfeit = Leiter: { $name } hat die Herausforderung von { $other } auf der Leiter für { $ladder } nicht rechtzeitig angenommen; das gilt als kampflos verloren. { $effect }

# Turniere.
swiss-too-few = Ein Turnier im Schweizer System braucht mindestens zwei Spieler.
swiss-duplicate = Ein Spieler ist doppelt angemeldet.
swiss-too-many-rounds = { $rounds } Runden sind zu viele: Mit so vielen Spielern kann es höchstens { $max } geben.
swiss-round-incomplete = Runde { $round } ist noch nicht vorbei: Die nächste Runde wird gepaart, wenn alle ihre Partien beendet sind.
swiss-finished = Alle Runden sind gespielt: Das Turnier ist vorbei.
swiss-unknown-player = Eine Runde nennt einen Spieler, der nicht im Turnier ist.
swiss-no-pairing = Ohne dass zwei Spieler ein zweites Mal aufeinandertreffen oder die Farben aus dem Gleichgewicht geraten, ist keine Paarung mehr möglich: Das Turnier muss hier enden.
tournament-unknown = Ein solches Turnier gibt es nicht.
tournament-not-registering = Die Anmeldung für dieses Turnier ist geschlossen.
tournament-already-registered = Du bist schon für dieses Turnier angemeldet.
tournament-not-registered = Du bist nicht für dieses Turnier angemeldet.
tournament-too-few = Ein Turnier braucht mindestens zwei Spieler, um zu beginnen.
tournament-seeds-mismatch = Die Setzliste muss jeden angemeldeten Spieler genau einmal nennen.
tournament-not-running = Dieses Turnier läuft nicht.
tournament-nothing-to-pair = Bei einem Rundenturnier stehen alle Runden von Anfang an fest.
tournament-unknown-board = Runde { $round } hat kein Brett { $board }.
tournament-already-decided = Die Partie an Brett { $board } in Runde { $round } hat schon ein Ergebnis.
n-players = { $count ->
        [one] { $count } Spieler
       *[other] { $count } Spieler
    }
system-roundrobin = Rundenturnier
system-double = doppeltes Rundenturnier
system-swiss = Schweizer System, { $rounds ->
        [one] { $rounds } Runde
       *[other] { $rounds } Runden
    }
system-swiss-auto = Schweizer System (Runden nach Zahl der Spieler)
system-swiss-plain = Schweizer System
in-minutes = in { $count ->
        [one] { $count } Minute
       *[other] { $count } Minuten
    }
in-hours = in { $count ->
        [one] { $count } Stunde
       *[other] { $count } Stunden
    }
in-days-hours = in { $days ->
        [one] { $days } Tag
       *[other] { $days } Tagen
    }{ $hours ->
        [0] {""}
        [one] { " " }und { $hours } Stunde
       *[other] { " " }und { $hours } Stunden
    }
result-playing = läuft
tournament-no-community = Turniere gehören zu einer Community (einem Server oder Space); dieser Chat ist in keiner.
tournament-admins-only = Tut mir leid, nur die Administratoren der Community dürfen ein Turnier erstellen, starten oder absagen.
tournament-rounds-so-far = { $name } hat bisher { $count ->
        [one] { $count } Runde
       *[other] { $count } Runden
    }.
tournament-default-name = { $kind ->
        [swiss] Schweizer Turnier
       *[roundrobin] Rundenturnier
    } in { $variant }
tournament-start-by-hand = Ein Administrator startet es mit { $p }tournament #{ $id } start.
tournament-start-by-itself = Die Anmeldung schließt, und das Turnier beginnt von selbst { $when } (ein Administrator kann es mit { $p }tournament #{ $id } start früher starten).
tournament-created = Turnier #{ $id }, { $name }: { $variant }, { $system }, { $days } pro Zug. Anmelden mit { $p }tournament #{ $id } join. { $start }
button-join = Teilnehmen
tournament-joined = { $name } meldet sich für { $tournament } (#{ $id }) an; { $players } angemeldet.
tournament-leave-running = { $tournament } (#{ $id }) hat begonnen: Wer jetzt geht, zieht sich zurück. Deine offenen Partien darin sind verloren, und spätere Runden paaren dich nicht mehr. Zum Rückzug schreib { $p }tournament #{ $id } withdraw.
tournament-left = { $name } verlässt { $tournament } (#{ $id }).
tournament-started = { $tournament } hat begonnen.
tournament-cannot-cancel = { $tournament } hat begonnen; ein laufendes Turnier kann nicht abgesagt werden. Es endet, wenn seine Runden gespielt sind. Wer aufhören will, schreibt { $p }tournament #{ $id } withdraw (die offenen Partien gehen kampflos verloren; in späteren Runden wird man nicht mehr ausgelost).
tournament-begun = { $tournament } (#{ $id }) hat begonnen: Die Anmeldung ist geschlossen.
tournament-cannot-cancel-over = { $tournament } ist vorbei; da gibt es nichts mehr abzusagen.
tournament-cancelled = Turnier #{ $id } ({ $tournament }) wurde von einem Administrator abgesagt.
tournament-no-such = Diese Community hat kein Turnier #{ $id }.
tournament-none = Es gibt kein Turnier #{ $id }.
tournament-none-open = Kein Turnier dieser Community ist zur Anmeldung offen; { $p }tournament listet sie auf.
tournament-none-yet = Diese Community hat noch kein Turnier; ein Administrator kann eins mit { $p }tournament create swiss capatomic anlegen.
tournament-which = Hier gibt es mehrere Turniere ({ $names }); sag, welches, z. B. { $example }.
tournaments-head = Turniere:
tournament-state-signup-until = Anmeldung, bisher { $players }, Start { $when }
tournament-state-signup = Anmeldung, bisher { $players }
tournament-state-running = läuft, { $players }
tournament-state-finished = beendet
tournaments-details = Details: { $p }tournament #N.
tournament-head = Turnier #{ $id } { $name }: { $variant }, { $system }, { $days } pro Zug.
tournament-registration-until = Die Anmeldung ist offen; das Turnier beginnt { $when }.
tournament-registration-by-hand = Die Anmeldung ist offen; gestartet wird das Turnier von einem Administrator.
tournament-players-head = Spieler ({ $count }):
tournament-nobody-yet = Noch niemand: { $p }tournament #{ $id } join.
standings-head = { $kind ->
        [final] Endstand
       *[current] Tabelle
    }:
round-head = Runde { $number } von { $total }:
round-game = { " " }(Partie #{ $id })
round-board = Brett { $board }: { $white } – { $black }{ $game }: { $result }
round-bye = Freilos: { $name } ({ $points } { $one ->
        [one] Punkt
       *[other] Punkte
    })
tournament-result = Turnier #{ $id } { $name }: Das Ergebnis an Brett { $board } in Runde { $round } steht fest
tournament-result-last = ; das war die letzte Partie, der Endstand folgt.
tournament-result-next = ; Runde { $round } ist abgeschlossen, und Runde { $next } ist gepaart.
tournament-not-started = Turnier #{ $id } { $name }: Die Anmeldung wurde geschlossen (angemeldet: { $players }), daher hat es nicht begonnen ({ $reason }). Ein Administrator kann es starten, sobald mehr Spieler dabei sind, oder es absagen.
tournament-starts = Turnier #{ $id } { $name } beginnt (angemeldet: { $players }). Spiel deine Partien hier ({ $p }move #N ...); { $days } pro Zug.
tournament-rounds-cut = Es werden { $rounds ->
        [one] eine Runde
       *[other] { $rounds } Runden
    } gespielt, nicht die gewünschten { $asked }: { $players } Spieler können nicht mehr spielen, ohne zweimal aufeinanderzutreffen.
tournament-round-paired = Turnier #{ $id } { $name }: Runde { $round } ist gepaart.
tournament-bombs-first = Schach mit geheimer Bombe: Vor dem ersten Zug jeder Partie wählt jeder Spieler eine geheime Bombe; ich habe jedem Spieler für jede seiner Partien eine Direktnachricht geschickt.
tournament-setup-first = { $variant }: Jede Partie beginnt mit ihrer Aufstellungsphase, zuerst wählt Schwarz, dann Weiß ({ $p }swap K b, { $p }swap Q h, ... oder { $p }noswap), je { $days }; wer nicht rechtzeitig wählt, tauscht nicht.
tournament-over = Turnier #{ $id } { $name } ist vorbei. Endstand:
tournament-congratulations = Glückwunsch, { $name }!

# Wörter auf den Wertungsbildern.
picture-player = SPIELER
picture-rating = WERTUNG
picture-games = PARTIEN
picture-record = S / R / N
picture-no-established = Noch keine festen Wertungen
picture-provisional-section = Vorläufig
picture-no-games = Noch keine gewerteten Partien
picture-provisional = vorläufig
picture-month = { $month ->
        [jan] Jan
        [feb] Feb
        [mar] Mär
        [apr] Apr
        [may] Mai
        [jun] Jun
        [jul] Jul
        [aug] Aug
        [sep] Sep
        [oct] Okt
        [nov] Nov
       *[dec] Dez
    }
tournament-rounds-all = { $name } { $over ->
        [yes] hatte
       *[no] hat
    } { $count ->
        [one] { $count } Runde
       *[other] { $count } Runden
    }: Runde 1{ $count ->
        [one] {""}
       *[other] { " " }bis { $count }
    }.
tournament-already-withdrawn = Du hast dich aus diesem Turnier bereits zurückgezogen.
tournament-not-in = Du spielst nicht in { $tournament } (#{ $id }).
tournament-over-leave = { $tournament } (#{ $id }) ist vorbei; da gibt es nichts mehr zu verlassen.
tournament-in-none = Du spielst in keinem Turnier dieser Community, das offen ist oder läuft.
button-tournament-withdraw = Zurückziehen
tournament-withdrew = { $name } zieht sich aus Turnier #{ $id } { $tournament } zurück.
tournament-withdrew-void = { $name } hat weniger als die Hälfte der Partien beendet; nach der FIDE-Regel zählen die Ergebnisse daher nicht für die Tabelle (die Kreuztabelle behält sie).
tournament-withdrew-counted = { $name } hat mindestens die Hälfte der Partien beendet: Die Ergebnisse bleiben, die übrigen Partien sind kampflos verloren.
tournament-withdrew-swiss = { $name } behält die erzielten Punkte; spätere Runden paaren { $name } nicht mehr.
tournament-ended-early = ; keine weitere Runde lässt sich paaren (die Verbliebenen sind zu wenige oder haben alle gegeneinander gespielt), also war Runde { $round } die letzte: Die Endtabelle folgt.
standings-withdrawn = zurückgezogen
standings-void = zurückgezogen, Ergebnisse zählen nicht
crosstable-head = Turnier #{ $id } { $name }: Kreuztabelle (+ und − sind kampflos gewonnene und verlorene Partien, entschieden, bevor beide Seiten gezogen hatten; · eine laufende).
crosstable-not-started = { $name } (#{ $id }) hat noch nicht begonnen: Es gibt noch keine Partien zu zeigen.
crosstable-cut = Gezeigt sind die ersten { $shown } von { $count } Spielern.
crosstable-cut-web = Gezeigt sind die ersten { $shown } von { $count } Spielern; die ganze Tabelle steht auf der Seite der Community: { $url }
crosstable-points = Pkt
crosstable-bye = Freilos
