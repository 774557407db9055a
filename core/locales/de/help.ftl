# Hilfe- und Regelseiten. $p ist, wie hier ein Befehl geschrieben wird.

help-head-slash = Befehle: Tippe / und wähle einen aus der Liste; dann werden dir seine Optionen zum Ausfüllen angezeigt. Hat eine meiner Antworten Buttons, bewirkt ein Klick dasselbe wie der Befehl:
help-head = Befehle (Präfix { $p }):
help-head-direct = Befehle (hier ist jede Zeile für mich, ein Präfix ist also nicht nötig):
help-example = , z. B. { $p }{ $example }
help-one-aliases = Andere Namen: { $aliases }
help-one-options = Optionen:
help-one-subcommands = Unterbefehle:
help-one-foot = { $p }help listet alle Befehle auf.
help-foot = Tage pro Zug: 1, 2, 3, 5, 7, 10, 14 oder none. Züge: { $moves }, Me1^e5 (ein Capatomic-Abschuss), O-O[e1,g1] (Rochade mit Raketen), @e4 oder boom e4 (Zündung einer geheimen Bombe). Züge schreibst du mit englischen Buchstaben, wie auf jedem Schachserver: K König, Q Dame, R Turm, B Läufer, N Springer, A Erzbischof (Läufer + Springer), C Kanzler (Turm + Springer), M Rakete; Bauern haben keinen Buchstaben (e4, exd5). { $p }variants, { $p }rules capatomic. Sprache: { $p }lang de (Deutsch), { $p }lang en (English) oder { $p }lang tr (Türkçe).

# Die Regelseite einer Variante: ihr Name, dann die Seite und die Figurenbuchstaben.
rules-page = { $variant }: { $page } Figurenbuchstaben (englisch): K König, Q Dame, R Turm, B Läufer, N Springer, A Erzbischof, C Kanzler, M Rakete; Bauern haben keinen.
rules-chess = Normales Schach (FIDE-Regeln): Schachmatt gewinnt; Patt, dreifache Stellungswiederholung, die 50-Züge-Regel und tote Stellungen sind Remis.
rules-capablanca = Schach auf einem 10×8-Brett mit zwei neuen Figuren: dem Erzbischof (A, Läufer + Springer) und dem Kanzler (C, Turm + Springer). Grundstellung RNABQKBCNR. Bei der Rochade kommt der König nach i1/c1 und der Turm nach h1/d1. Bauern werden in Q, C, A, R, B oder N umgewandelt.
rules-caparandom = Capablanca-Schach mit einer von 21.836 gemischten Grundreihen: Läufer auf verschiedenfarbigen Feldern, Dame und Erzbischof auf verschiedenfarbigen Feldern, König zwischen den Türmen, jeder Bauer gedeckt. Die Rochade endet auf den üblichen Feldern (König i1/c1, Turm h1/d1); schreib sie als O-O / O-O-O oder als Zug des Königs auf den Turm.
rules-caparelocation = Capablanca-Schach, bei dem vor dem 1. Zug erst Schwarz und dann Weiß den König oder die Dame mit einer anderen Figur außer einem Turm tauschen darf (die Läufer müssen auf verschiedenfarbigen Feldern bleiben): je 12 Möglichkeiten, 144 Stellungen. Der König behält sein Rochaderecht, wo immer er steht; die Rochade endet auf den üblichen Feldern (König i1/c1, Turm h1/d1).
rules-stones = Schach auf einem 10×8-Brett mit zwei Erzbischöfen (Läufer + Springer), Grundstellung RNABQKBANR. Der König zieht bei der Rochade drei Felder (nach i1 oder c1, der Turm nach h1 oder d1). Bauern werden in Q, A, R, B oder N umgewandelt.
rules-atomic = Schach, bei dem jedes Schlagen eine Explosion auslöst: Die geschlagene Figur, die schlagende Figur und alle Figuren außer Bauern auf den acht Feldern ringsum werden entfernt. Wer den gegnerischen König sprengt, gewinnt sofort; Könige können nicht schlagen; ein Zug, der den eigenen König sprengt, ist illegal; Könige, die sich berühren, können einander kein Schach geben.
rules-capatomic = Capablanca-Zufallsschach auf 10×10 mit zwei Raketen (M) pro Seite hinter dem König. Eine Rakete zieht wie ein König oder kann – sobald irgendeine Figur außer einem Bauern geschlagen wurde – auf jedes Feld außerhalb der Schilde der Könige (3×3 um jeden König) abgeschossen werden (geschrieben Me1^e5), solange keine gegnerische Figur die Rakete selbst angreift: Alles in der 3×3-Explosion wird entfernt außer auf geschützten Feldern, und das Zielfeld ist für immer verstrahlt (dort darf nichts stehen oder hindurchziehen; Springer springen darüber). Raketen, die noch nie gezogen haben, dürfen bei der Rochade mitkommen und behalten dabei ihren Platz neben dem König: O-O[e1,g1] nimmt beide mit, O-O[g1] eine. Bauern beginnen auf der 3. Reihe und werden auf der 9. Reihe in Q C A R B N oder M umgewandelt.
rules-atomic-nocheck = Atomschach ohne Schach (Regeln des Internet Chess Club): Jeder Zug ist erlaubt, der nicht den eigenen König sprengt; ein König darf also neben einen Angriff oder in ihn hineinziehen, und ein König, der angegriffen stehen bleibt, darf geschlagen werden, was ihn sprengt. Könige schlagen nie. Nur das Sprengen des gegnerischen Königs gewinnt; wer keinen legalen Zug hat, ist patt.
rules-atomic-deathmatch = Atomschach, in dem ein Schlagen, das beide Könige zugleich sprengt, legal ist: Die Partie geht dann ohne Könige (ohne Schach) weiter, bis eine Seite keine Figuren oder Bauern mehr hat, und diese Seite verliert; ein leeres Brett oder eine königlose Seite ohne legalen Zug ist Remis. Nur den eigenen König zu sprengen bleibt illegal.
rules-atomic-pawnsafe = Atomschach, in dem Bauern keine Explosionen auslösen: Schlägt ein Bauer (auch en passant und mit Umwandlung), ist das ein gewöhnliches Schlagen. Schlagzüge von Figuren lösen wie üblich eine Explosion aus, und diese zerstört jede Figur auf den acht Feldern ringsum, Bauern eingeschlossen. Schach wie im Atomschach.
rules-bomb = Schach, in dem jede Seite vor ihrem ersten Zug heimlich eine ihrer Figuren außer dem König (Bauern erlaubt) zur Bombe bestimmt. Statt zu ziehen, kannst du sie zünden (@e4 oder boom e4): Die Bombe und alle Figuren beider Farben auf den acht Feldern ringsum werden entfernt. Fällt dabei der gegnerische König, gewinnst du, fällt nur dein eigener, verlierst du, fallen beide, ist es Remis; im Schach muss eine Zündung deinen König am Leben und sicher lassen. Eine geschlagene Bombe ist weg; wird ein Bomben-Bauer umgewandelt, ist die neue Figur die Bombe.

# Wie jeder Befehl nach seinem Namen geschrieben wird (in der Hilfe): Die getippten Wörter bleiben,
# die Platzhalter (Variante, Partie, Zug …) werden übersetzt.
usage-challenge = [@Person] [Variante] [tage:N] [farbe:weiß|schwarz|zufällig] [aufstellung:N] [ungewertet]
usage-play = [Variante] [stufe:1-8] [tage:N] [farbe:weiß|schwarz|zufällig] [aufstellung:N]
usage-accept = [#Nr]
usage-decline = [#Nr]
usage-move = [#Partie] <Zug>
usage-board = [#Partie]
usage-resign = [#Partie]
usage-draw = [#Partie] [ablehnen]
usage-takeback = [#Partie] [ablehnen]
usage-abort = [#Partie]
usage-fen = [#Partie]
usage-pgn = [#Partie] [analysiert]
usage-analyse = [#Partie]
usage-gif = [#Partie]
usage-rematch = [#Partie]
usage-swap = [#Partie] <K|Q> <Linie oder Figur>
usage-noswap = [#Partie]
usage-moves = [#Partie] [Feld]
usage-bomb = [#Partie] [Feld]
usage-rules = [Variante]
usage-settings = [community] [präfix:?] [variante:NAME] [tage:N] [thread:an|aus] [gif:an|aus] [design:holz|grün|kontrast] [sprache:en|tr|de] [gewertet:wahl|immer|nie] [web:an|aus] (jede auch :standard)
usage-notify = [an|aus]
usage-lang = [en|tr|de|standard]
usage-theme = [holz|grün|kontrast|standard]
usage-rating = [@Person] [Variante|alle] [global]
usage-leaderboard = [Variante] [global]
usage-history = [@Person] [Variante] [global]
usage-link = [CODE]
usage-ladder = [stand|beitreten|verlassen|herausfordern @Person|annehmen|ablehnen|zurückziehen|erstellen|entfernen @Person|rückgängig N Grund|saison-abschließen|saison N] [Variante]
usage-tournament = [#N] [tabelle|runde N|kreuztabelle|anmelden|abmelden|zurückziehen|erstellen|starten|absagen] (erstellen: [rundenturnier|doppelrunde|schweizer-system] [Variante] [runden:N] [tage:N] [anmeldung:N] [Name])
usage-help = [Befehl]
