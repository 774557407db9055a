# Die Webseiten (src/web): Titel, Überschriften, Beschriftungen.
web-site = capabot
web-home-title = Schachvarianten in deinem Chat
web-home-text = capabot spielt Schachvarianten mit den Leuten auf Discord-Servern und in Matrix-Räumen: Herausforderungen, getippte oder geklickte Züge, nach jedem Zug ein Bild des Bretts, Wertungen, Leitern und Turniere und nach der Partie eine Computeranalyse. Eine Community, die sich fürs Web entschieden hat, hat hier eine Seite, und jede ihrer Partien ebenso, verlinkt aus dem Chat, in dem gespielt wird (schreib dort web); hier wird nichts aufgelistet.
web-home-variants = Die Varianten
web-game-title = { $white } gegen { $black }, { $variant }
web-game-heading = { $white } gegen { $black }
web-white = Weiß
web-black = Schwarz
web-rated = gewertet
web-casual = ungewertet
web-moves = Züge
web-no-moves = Noch keine Züge.
web-board-after = Brett nach { $move }
web-board-start = Brett zu Beginn
web-first = Erster
web-previous = Vorheriger
web-next = Nächster
web-last = Letzter
web-keys = Mit den Pfeiltasten gehst du durch die Züge.
web-days-left = { $days ->
        [0] Noch weniger als ein Tag Zeit für den Zug.
        [one] Noch ein Tag Zeit für den Zug.
       *[other] Noch { $days } Tage Zeit für den Zug.
    }
web-downloads = Downloads
web-pgn = PGN
web-gif = Animation (GIF)
web-pgn-analysed = PGN mit der Analyse
web-analysis = Computeranalyse
web-analysis-head = Von capabots Engine, { $nodes } Knoten pro Stellung.
web-analysis-ask = Noch keine: Jeder im Chat, in dem diese Partie gespielt wurde, kann dort eine anfordern: { $command }. Sobald sie fertig ist, erscheint sie auch hier.
web-analysis-marked = Ungenauigkeiten (?!), Fehler (?) und grobe Fehler (??)
web-analysis-none-marked = Niemand hat einen Fehler gemacht, den die Engine erkannt hat.
web-live = Live: Züge erscheinen hier, sobald sie gespielt werden.
web-community-title = Community { $id }
web-leaderboards = Bestenlisten
web-leaderboard = { $variant }
web-place = Platz
web-player = Spieler
web-rating = Wertung
web-games = Partien
web-provisional = Vorläufig
web-nobody = Noch hat niemand eine feste Wertung.
web-ladders = Leitern
web-ladder = Leiter { $variant }, Saison { $season }
web-open-challenges = Offene Herausforderungen
web-challenge = { $challenger } hat { $challenged } herausgefordert{ $accepted ->
        [yes] { " " }(angenommen)
       *[no] {""}
    }
web-seasons-closed = Abgeschlossene Saisons
web-season-closed = { $variant }, Saison { $season }
web-older-seasons = { $count ->
        [one] Eine ältere Saison wird nicht gezeigt.
       *[other] { $amount } ältere Saisons werden nicht gezeigt.
    }
web-more-open-tournaments = { $count ->
        [one] Ein weiteres nicht beendetes Turnier wird hier nicht gezeigt; der Chat listet alle auf (tournament).
       *[other] { $amount } weitere nicht beendete Turniere werden hier nicht gezeigt; der Chat listet alle auf (tournament).
    }
web-more-open-tournaments-many = Mehr als { $count } weitere nicht beendete Turniere werden hier nicht gezeigt; der Chat listet alle auf (tournament).
web-older-tournaments = { $count ->
        [one] Ein älteres beendetes Turnier wird nicht gezeigt.
       *[other] { $amount } ältere beendete Turniere werden nicht gezeigt.
    }
web-older-tournaments-many = Mehr als { $count } ältere beendete Turniere werden nicht gezeigt.
web-tournaments = Turniere
web-tournament = { $name } ({ $variant }, { $status ->
        [registration] Anmeldung offen
        [running] läuft
       *[finished] beendet
    })
web-standings = Tabelle
web-score = Punkte
web-crosstable = Kreuztabelle
web-round = Runde { $number }
web-result = Ergebnis
web-bye = Freilos: { $name }
web-recent = Letzte Partien
web-game = Partie
web-opponent = Gegner
web-variant = Variante
web-state = Status
web-none = Noch nichts.
web-ratings = Wertungen
web-history = Wertungsverlauf
web-history-alt = Diagramm des Wertungsverlaufs von { $name } in { $variant }.
web-not-found = Nicht gefunden
web-not-found-text = Hier gibt es nichts, oder es ist nicht öffentlich.
web-bad-request = Ungültige Anfrage
web-bad-request-text = Diese Adresse stammt nicht von capabot.
web-too-many = Zu viele Anfragen
web-too-many-text = Mach etwas langsamer und versuch es noch einmal.
web-failed = Etwas ist schiefgelaufen
web-failed-text = Diese Seite konnte nicht erstellt werden. Bitte versuch es später noch einmal.
