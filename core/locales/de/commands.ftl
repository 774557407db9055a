# Befehle: die einzeilige Zusammenfassung jedes Befehls (Hilfe und Beschreibung des Slash-Befehls, höchstens
# 100 Zeichen) als cmd-NAME, und die Beschreibungen seiner Optionen als opt-OPTION (gemeinsam) oder
# cmd-NAME-OPTION.

cmd-challenge = Fordere jemanden (oder ohne @Person alle hier) zu einer Partie heraus
cmd-play = Spiel gegen capabots KI
cmd-accept = Nimm eine Herausforderung an
cmd-decline = Lehne eine Herausforderung ab (oder zieh deine eigene zurück)
cmd-move = Mach einen Zug; ein bloßer Zug wie e4 geht auch, wenn genau eine Partie auf dich wartet
cmd-board = Zeig das Brett
cmd-games = Deine Partien und die Herausforderungen, die auf dich warten
cmd-resign = Gib eine Partie auf (solange nicht beide Seiten gezogen haben, wird sie stattdessen abgebrochen)
cmd-draw = Biete Remis an, nimm das Angebot deines Gegners an oder lehne es ab
cmd-takeback = Bitte um Zurücknahme deines letzten Zugs, stimm der Bitte deines Gegners zu oder lehne sie ab
cmd-abort = Brich eine Partie ab, bevor beide Seiten gezogen haben (gegen capabot jederzeit)
cmd-fen = Die Stellung als FEN
cmd-pgn = Die Partie als PGN
cmd-rematch = Noch eine Partie gegen denselben Gegner, gleiche Bedingungen, Farben getauscht
cmd-gif = Die ganze Partie als animiertes Bild, ein Einzelbild pro Zug
cmd-analyse = Computeranalyse einer beendeten Partie: Verlauf, Genauigkeit, Fehler und Wendepunkte
cmd-swap = Capablanca Relocation, Aufstellungsphase: König oder Dame tauschen (Schwarz wählt zuerst)
cmd-noswap = Capablanca Relocation, Aufstellungsphase: Figuren stehen lassen, wo sie sind
cmd-moves = Die legalen Züge einer Partie oder die einer Figur
cmd-moves-square = Das Feld einer Figur, um nur ihre Züge aufzulisten, z. B. g1
cmd-bomb = Schach mit geheimer Bombe: Bombe per Direktnachricht wählen oder Brett mit markierter Bombe ansehen
cmd-theme = Dein eigenes Brettdesign für die Bilder, die nur du siehst (contrast: für Farbenblinde)
cmd-variants = Die Varianten, die capabot spielt
cmd-rules = Die Regeln einer Variante
cmd-settings = Die Standardeinstellungen dieses Chats (oder mit community die der ganzen Community)
cmd-notify = Erinnerungen und „du bist am Zug“-Hinweise per Direktnachricht, an oder aus
cmd-rating = Eine Wertung (deine oder die eines anderen) in dieser Community oder global
cmd-leaderboard = Die Top 10 und dein eigener Platz, als Bild
cmd-history = Ein Diagramm der Wertung im Zeitverlauf
cmd-link = Verknüpfe Konten auf zwei Plattformen: Hol hier einen Code, schreib dann link CODE auf der anderen
cmd-unlink = Trenne dieses Konto von deinen Konten auf anderen Plattformen
cmd-ladder = Die Ranglisten-Leitern der Community: Stand, Beitritt, Herausforderungen nach oben, Saisons
cmd-tournament = Die Turniere der Community: Rundenturnier oder Schweizer System, Anmeldung, Paarungen, Tabelle
cmd-help = Die Befehle

opt-casual = Ungewertet
opt-challenge = Nummer der Herausforderung
opt-code = Der Code von deiner anderen Plattform (weglassen, um einen zu bekommen)
opt-color = Deine Farbe
opt-community = Die Einstellungen der Community ändern, die ihre Chats übernehmen
opt-dm = Benachrichtigungen per Direktnachricht
opt-game = Partienummer (wenn du hier mehrere Partien hast)
opt-gif = Die Partie am Ende als animiertes Bild posten
opt-theme = Dein Brettdesign (contrast: für Farbenblinde; default: Holz)
opt-global = Globale Wertungen statt der Wertungen dieser Community
opt-level = KI-Stufe, 1 (schwächste) bis 8
opt-move = Dein Zug, z. B. e4, Nxf7#, Me1^e5
opt-name = Der Name des Turniers (Standard: aus Variante und System)
opt-opponent = Wen du herausforderst (weglassen für eine offene Herausforderung)
opt-prefix = Befehlspräfix, 1 bis 3 Zeichen
opt-rated = Community-Regel: gewertet nach Wahl (choice), immer (always) oder nie (never)
opt-reach = Wie viele Plätze nach oben ein Spieler herausfordern darf (1 bis 100, Standard 3)
opt-reason = Warum das Ergebnis zurückgenommen wird
opt-rounds = Runden im Schweizer System (Standard: genug für einen klaren Sieger)
opt-setup = Aufstellungsnummer (Varianten mit zufälliger Aufstellung)
opt-signup = Tage Anmeldefrist, bevor das Turnier von selbst beginnt (0: Start von Hand)
opt-square = Das Feld der Figur, die deine Bombe wird (nicht der König), z. B. g1; weglassen zeigt dein Brett
opt-swap = K oder Q und eine Linie oder Figur, z. B. K b
opt-system = Rundenturnier, doppeltes Rundenturnier oder Schweizer System (Standard: Rundenturnier)
opt-thread = Für jede Partie einen Thread öffnen
opt-tournament = Welches Turnier (seine Nummer)
opt-wait = Tage, die eine Herausforderung auf eine Antwort warten darf (1 bis 30, Standard 3)
cmd-challenge-variant = Welche Variante
cmd-challenge-days = Tage pro Zug (nach 80 % der Zeit kommt eine Erinnerung per Direktnachricht)
cmd-play-variant = Welche Variante
cmd-play-days = Tage pro Zug (nach 80 % der Zeit kommt eine Erinnerung per Direktnachricht)
cmd-draw-decline = Das Angebot deines Gegners ablehnen
cmd-pgn-analysed = Mit der Computeranalyse darin (Bewertungen, Markierungen, bessere Züge)
cmd-takeback-decline = Die Bitte deines Gegners ablehnen
cmd-rules-variant = Welche Variante
cmd-settings-variant = Variante, wenn eine Herausforderung keine nennt (default: wie in der Community, sonst Grundwert)
cmd-settings-days = Tage pro Zug, wenn eine Herausforderung keine nennt (default: wie in der Community, sonst Grundwert)
cmd-settings-theme = Das Brettdesign der Bilder dieses Chats (default: wie in der Community, sonst Holz)
cmd-settings-language = Die Sprache des Chats: en, tr, de (default: wie in der Community, sonst Grundwert)
cmd-rating-player = Wessen Wertung (Standard: deine)
cmd-rating-variant = Welche Variante
cmd-leaderboard-variant = Welche Variante
cmd-history-player = Wessen Verlauf (Standard: deiner)
cmd-history-variant = Welche Variante
cmd-ladder-variant = Welche Leiter (nach Variante, z. B. capatomic), falls es mehrere gibt
cmd-ladder-days = Tage pro Zug (Standard 3)
cmd-tournament-variant = Welche Variante
cmd-tournament-days = Tage pro Zug
opt-event = Die Nummer, die mit dem Ergebnis angekündigt wurde, wie in (Leiter-Ergebnis 2)
opt-season = Die Nummer einer abgeschlossenen Saison
opt-round = Welche Runde
choice-system-roundrobin = Rundenturnier
choice-system-double = Doppeltes Rundenturnier
choice-system-swiss = Schweizer System
choice-theme-wood = Holz (Creme und Braun)
choice-theme-green = Grün (Creme und Grün)
choice-theme-contrast = Hoher Kontrast (für Farbenblinde)
choice-theme-default = Standard (als wäre nichts gewählt)
choice-language-en = Englisch (English)
choice-language-tr = Türkisch (Türkçe)
choice-language-de = Deutsch
choice-language-default = Standard (als wäre nichts gewählt)
choice-thread-on = An: jede neue Partie in einem eigenen Thread
choice-thread-off = Aus: Partien im Kanal selbst
choice-thread-default = Standard (als wäre nichts gewählt)
choice-gif-on = An: am Ende eine Animation der ganzen Partie
choice-gif-off = Aus: keine Animation am Ende
choice-gif-default = Standard (als wäre nichts gewählt)
choice-web-on = An: die Community und ihre Partien im Web
choice-web-off = Aus: nichts von der Community im Web
choice-web-default = Standard (als wäre nichts gewählt)

# Unterbefehle (`sub-BEFEHL-UNTER`, höchstens 100 Zeichen) und die Beschreibungen ihrer eigenen Optionen
# (`sub-BEFEHL-UNTER-OPTION`, sonst `cmd-BEFEHL-OPTION`, sonst `opt-OPTION`).
sub-ladder-standings = Alle Leitern dieser Community mit ihrem Stand und offenen Herausforderungen
sub-ladder-join = Einer Leiter beitreten (ganz unten)
sub-ladder-leave = Eine Leiter verlassen
sub-ladder-challenge = Einen Spieler über dir auf der Leiter herausfordern
sub-ladder-challenge-player = Wen du herausforderst
sub-ladder-accept = Die Leiter-Herausforderung annehmen, die auf dich wartet
sub-ladder-decline = Die wartende Leiter-Herausforderung ablehnen (dein Platz geht an den Herausforderer)
sub-ladder-season = Der Endstand einer abgeschlossenen Saison
sub-ladder-create = Administratoren: die Leiter einer Variante erstellen
sub-ladder-create-variant = Die Variante der Leiter
sub-ladder-remove = Administratoren: einen Spieler von der Leiter nehmen
sub-ladder-remove-player = Wen du entfernst
sub-ladder-undo = Administratoren: ein Ergebnis (oder Forfait) über seine Nummer zurücknehmen: (Leiter-Ergebnis 2)
sub-ladder-season-close = Administratoren: die Saison abschließen (ihr Stand bleibt erhalten), die nächste eröffnen
sub-tournament-standings = Die Turniere hier oder Spieler, Tabelle und Paarungen eines Turniers
sub-tournament-round = Die Paarungen und Ergebnisse einer Runde
sub-tournament-join = Für ein Turnier anmelden
sub-tournament-leave = Vor dem Beginn abmelden (danach: siehe zurückziehen)
sub-tournament-create = Administratoren: ein Turnier erstellen
sub-tournament-start = Administratoren: ein Turnier vor Ende der Anmeldung starten
sub-tournament-cancel = Administratoren: ein Turnier absagen, bevor es beginnt
cmd-lang = Deine Sprache mit capabot: en (Englisch), tr (Türkisch) oder de (Deutsch); default folgt dem Chat
opt-language = en, tr, de oder default
opt-command = Ein Befehl, der ausführlich erklärt wird, z. B. analyse

# Namen der Slash-Befehle (Discord zeigt die deutschen Namen Nutzern mit deutscher Spracheinstellung; die
# Befehle dahinter bleiben dieselben). Kleinbuchstaben, keine Leerzeichen, höchstens 32 Zeichen.
cmdname-challenge = herausfordern
cmdname-play = spielen
cmdname-accept = annehmen
cmdname-decline = ablehnen
cmdname-move = zug
cmdname-board = brett
cmdname-games = partien
cmdname-resign = aufgeben
cmdname-draw = remis
cmdname-takeback = zurücknahme
cmdname-abort = abbrechen
cmdname-fen = fen
cmdname-pgn = pgn
cmdname-gif = gif
cmdname-rematch = revanche
cmdname-analyse = analyse
cmdname-swap = tauschen
cmdname-noswap = nicht-tauschen
cmdname-moves = züge
cmdname-bomb = bombe
cmdname-theme = design
cmdname-variants = varianten
cmdname-rules = regeln
cmdname-settings = einstellungen
cmdname-notify = benachrichtigungen
cmdname-lang = sprache
cmdname-rating = wertung
cmdname-leaderboard = bestenliste
cmdname-history = verlauf
cmdname-link = verknüpfen
cmdname-unlink = trennen
cmdname-ladder = leiter
cmdname-tournament = turnier
cmdname-help = hilfe
subname-ladder-standings = stand
subname-ladder-join = beitreten
subname-ladder-leave = verlassen
subname-ladder-challenge = herausfordern
subname-ladder-accept = annehmen
subname-ladder-decline = ablehnen
subname-ladder-season = saison
subname-ladder-create = erstellen
subname-ladder-remove = entfernen
subname-ladder-undo = rückgängig
subname-ladder-season-close = saison-abschließen
subname-tournament-standings = tabelle
subname-tournament-round = runde
subname-tournament-join = anmelden
subname-tournament-leave = abmelden
subname-tournament-create = erstellen
subname-tournament-start = starten
subname-tournament-cancel = absagen

# Namen der Optionen der Slash-Befehle.
optname-casual = ungewertet
optname-challenge = herausforderung
optname-code = code
optname-color = farbe
optname-community = community
optname-days = tage
optname-decline = ablehnen
optname-analysed = analysiert
optname-dm = direktnachricht
optname-event = ereignis
optname-game = partie
optname-gif = gif
optname-theme = design
optname-global = global
optname-language = sprache
optname-command = befehl
optname-level = stufe
optname-move = zug
optname-name = name
optname-opponent = gegner
optname-player = spieler
optname-prefix = präfix
optname-rated = gewertet
optname-reach = reichweite
optname-reason = grund
optname-round = runde
optname-rounds = runden
optname-season = saison
optname-setup = aufstellung
optname-signup = anmeldung
optname-square = feld
optname-swap = tausch
optname-system = system
optname-thread = thread
optname-tournament = turnier
optname-variant = variante
optname-wait = wartezeit

# Auswahlwerte der Slash-Befehle.
choice-days = { $count ->
        [one] { $count } Tag
       *[other] { $count } Tage
    }
choice-no-clock = none (keine Bedenkzeit)
choice-default = Standard (als wäre nichts gewählt)

# Die eigenen Worte der Discord-Anbindung.
discord-restarting = capabot startet neu; versuch es in einer Minute noch einmal.
discord-busy = Discord ist ausgelastet: Meine Antwort steht in der Warteschlange und erscheint gleich in diesem Kanal.
discord-busy-here = Discord ist ausgelastet: Meine Antwort steht in der Warteschlange und erscheint mit dem nächsten Befehl, der in diesem Chat verwendet wird.
discord-posted-in = Gepostet in { $channel }.
discord-done = Erledigt.
discord-missing-permissions = Ich kann hier keine Partien zeigen: Mir fehlen in diesem Kanal Berechtigungen: { $permissions }.
discord-pictures-left-out = (Hier kein Brettbild, denn mir fehlen in diesem Kanal Berechtigungen: { $permissions }.)
# Discords Berechtigungen, so wie Discord sie Menschen gegenüber nennt.
perm-view-channel = Kanäle ansehen
perm-send-messages = Nachrichten senden
perm-embed-links = Links einbetten
perm-attach-files = Dateien anhängen
perm-read-message-history = Nachrichtenverlauf anzeigen
perm-create-public-threads = Öffentliche Threads erstellen
perm-send-messages-in-threads = Nachrichten in Threads senden
discord-button-stale = Dieser Button ist veraltet.
discord-not-your-game = Das ist nicht deine Partie.
discord-confirm-resign = Partie #{ $id } aufgeben?
discord-confirm = Bist du sicher?
discord-yes = Ja
discord-view = Ansehen
embed-title = Partie #{ $id } · { $variant }
embed-white = Weiß
embed-black = Schwarz
embed-move = Zug
embed-to-move = Am Zug
embed-deadline = Frist
embed-result = Ergebnis

# Die eigenen Worte der Matrix-Anbindung und des Hosts.
matrix-type-one = Schreib eins davon: { $choices }
matrix-react-key = { $key } { $label } (oder schreib { $typed })
matrix-type-choice = { $label }: schreib { $typed }
matrix-react = Reagiere mit { $choices }
matrix-board = das Brett
matrix-greeting = Hallo! Ich bin capabot: Schachvarianten im Chat (Capatomic, Capablanca, Atomschach, Schach). Schreib { $p }help für die Befehle oder sprich mich mit Namen an: capabot: help. For English: { $p }lang en. Türkçe için: { $p }lang tr.
host-busy = Ich bin gerade sehr beschäftigt: Versuch es in einer Minute noch einmal.
host-slow-down = Bitte langsamer: Ich ignoriere deine Nachrichten hier eine Minute lang. Deinen Partien passiert nichts.

# Die eigenen Worte der Konsole.
console-not-written = ({ $path } konnte nicht geschrieben werden: { $error })
console-not-utf8 = (eine Zeile übersprungen, die kein UTF-8 ist)
cmd-web = Die Adresse der Webseite dieser Community
opt-web = Community-Regel: Partien, Leitern und Turniere im Web zeigen (on oder off)
cmdname-web = web
optname-web = web
sub-tournament-crosstable = Die Kreuztabelle: das Ergebnis jedes Spielers gegen jeden anderen
sub-tournament-withdraw = Aus einem laufenden Turnier zurückziehen: offene Partien sind verloren
subname-tournament-crosstable = kreuztabelle
subname-tournament-withdraw = zurückziehen

# Die Wörter für ja und nein, als Wert einer Ja/Nein-Option gelesen (ungewertet:ja), in jeder Sprache.
word-yes = ja
word-no = nein
parse-yes-no = { $option } ist ja oder nein, nicht '{ $given }'

# Die Wörter der Optionswerte (farbe:weiß, gif:aus, design:holz): in jeder Sprache wie die
# englischen gelesen, in der des Lesers gezeigt; je ein Wort.
optvalue-white = weiß
optvalue-black = schwarz
optvalue-random = zufällig
optvalue-on = an
optvalue-off = aus
optvalue-default = standard
optvalue-none = keine
optvalue-wood = holz
optvalue-green = grün
optvalue-contrast = kontrast
optvalue-choice = wahl
optvalue-always = immer
optvalue-never = nie
optvalue-roundrobin = rundenturnier
optvalue-double = doppelrunde
optvalue-swiss = schweizer-system
# Auch gelesen, nie gezeigt: andere Wörter, die man für an und aus schreibt.
optvalue-on-also = ein
optvalue-off-also = deaktiviert
