# Der Kern: Fehler, Einstellungen, Sprachen. Argumente: $p ist, wie hier ein Befehl geschrieben wird (das
# Präfix des Chats, oder / wo nur Slash-Befehle capabot erreichen).

internal-error = Entschuldige, bei mir ist etwas schiefgelaufen (Fehler-ID { $id }).
not-saved = Das wurde nicht gespeichert, und nichts hat sich geändert: Ich konnte es gerade nicht festhalten. Bitte versuch es noch einmal.
input-too-long = Diese Nachricht ist zu lang ({ $count } Zeichen); Befehle sind kurz. Schreib { $p }help für die Liste.
parse-error = { $error }. Schreib { $p }help für die Befehle.
parse-error-command = { $error }. Wie der Befehl geht, zeigt dir { $p }help { $command }.
command-unknown = Den Befehl '{ $word }' kenne ich nicht. Schreib { $p }help für die Liste.
command-unknown-near = Den Befehl '{ $word }' kenne ich nicht. Meintest du { $p }{ $near }? Schreib { $p }help für die Liste.
direct-move-elsewhere = { $word } sieht aus wie ein Zug, aber deine Partien ({ $games }) werden in den Chats gespielt, in denen sie begonnen haben: Zieh dort.
direct-games-elsewhere = Deine Partien ({ $games }) werden in den Chats gespielt, in denen sie begonnen haben: Frag dort.
direct-move-command-elsewhere = Deine Partien ({ $games }) werden in den Chats gespielt, in denen sie begonnen haben: Mach deinen Zug dort.
direct-unknown = '{ $word }' kenne ich nicht. Hier ist jede Zeile für mich, Befehle brauchen also kein { $p }: help listet sie auf.
direct-unknown-near = '{ $word }' kenne ich nicht. Meintest du { $near }? Hier ist jede Zeile für mich, Befehle brauchen also kein { $p }: help listet sie auf.
variant-unknown = Die Variante '{ $name }' kenne ich nicht. Varianten: { $names }.
variant-unknown-near = Die Variante '{ $name }' kenne ich nicht. Meintest du { $near }? Varianten: { $names }.
no-setup = { $variant } hat keine Aufstellung { $number } (ihre Aufstellungen gehen von 0 bis { $max }), daher kann diese Partie nicht beginnen; fordere erneut heraus, mit einem anderen setup:N oder ohne.
or-list = { $head } oder { $tail }
color-white = Weiß
color-black = Schwarz
color-random = zufällig

settings-days-none = keine
settings-on = an
settings-off = aus
settings-rated-community = rated: ist eine Regel der Community: { $p }settings community rated:choice|always|never.
settings-no-community = Dieser Chat gehört zu keiner Community; lass 'community' weg, um die Einstellungen dieses Chats zu ändern.
settings-rated-rule = , gewertete Partien: { $rule }
settings-community-hint = { " " }({ $p }settings community ... für die ganze Community)
settings-show = { $whose ->
        [community] Die Standardeinstellungen dieser Community
       *[chat] Einstellungen hier
    }: Präfix { $prefix }, Variante { $variant }, Tage { $days }, Thread pro Partie { $thread }, Animation am Ende { $gif }, Brettdesign { $theme }{ $rule }, Sprache { $lang }. Ändern mit { $p }settings präfix:? variante:chess tage:3 thread:{ optvalue-on } gif:{ optvalue-on } design:{ optvalue-contrast } sprache:en{ $community }; :{ optvalue-default } hinter einer Einstellung (etwa design:{ optvalue-default }) stellt den Wert der Community oder den Grundwert wieder her.
settings-admins-only = Nur die Administratoren der Community dürfen hier Einstellungen ändern.
settings-saved = { $whose ->
        [community] Einstellungen der Community gespeichert ({ $what }); Chats ohne eigene Einstellungen folgen ihnen.
       *[chat] Einstellungen gespeichert: { $what }.
    }{ $prefix_now }
settings-prefix-now = { " " }Befehle beginnen hier jetzt mit { $prefix }, z. B. { $prefix }help.

notify-show = Benachrichtigungen per Direktnachricht (Erinnerungen, „du bist am Zug“) sind { $state ->
        [on] für dich an; { $p }notify off schaltet sie aus.
       *[off] für dich aus; { $p }notify on schaltet sie ein.
    }
notify-on = Benachrichtigungen per Direktnachricht an: Erinnerungen und „du bist am Zug“-Hinweise kommen in deine Direktnachrichten.
notify-off = Benachrichtigungen per Direktnachricht aus: Erinnerungen kommen in den Chat der Partie.

lang-usage = lang erwartet ein Wort: en, tr, de oder { optvalue-default }
lang-unknown = Ich spreche en (Englisch), tr (Türkisch) und de (Deutsch), nicht '{ $given }'.
parse-lang = Ich spreche en (Englisch), tr (Türkisch) und de (Deutsch), nicht '{ $given }'
# Eine Sprache mit ihrem Namen; $code ist en, tr oder de.
lang-name = { $code ->
        [tr] Türkisch
        [de] Deutsch
       *[en] Englisch
    }
lang-show-own = Ich spreche { $lang } mit dir (deine Wahl); mit { $p }lang { optvalue-default } gilt wieder die Sprache des Chats.
lang-show-default = Ich spreche { $lang } mit dir (die Sprache des Chats oder deiner App); mit { $p }lang de, { $p }lang en oder { $p }lang tr wählst du deine eigene.
lang-set = Ab jetzt spreche ich Deutsch mit dir: in Direktnachrichten und in Antworten, die nur du siehst. Was alle in einem Chat lesen, bleibt in der Sprache des Chats.
lang-cleared = Deine eigene Spracheinstellung ist zurückgesetzt: Ich spreche wieder die Sprache des Chats mit dir.
theme-show-own = Die Bilder, die nur du siehst, zeichne ich im Design { $theme } (deine Wahl); mit { $p }theme { optvalue-default } geht es zurück zu Holz ({ optvalue-wood }). Die Bilder eines gemeinsamen Chats folgen dessen eigenem Design ({ $p }settings theme:…).
theme-show-default = Die Bilder, die nur du siehst, zeichne ich in Holz ({ optvalue-wood }); mit { $p }theme { optvalue-contrast } (für Farbenblinde) oder { $p }theme { optvalue-green } wählst du dein eigenes Design. Die Bilder eines gemeinsamen Chats folgen dessen eigenem Design ({ $p }settings theme:…).
theme-set = Ab jetzt zeichne ich die Bilder, die nur du siehst, im Design { $theme }; die eines gemeinsamen Chats folgen dessen eigenem Design ({ $p }settings theme:…).
theme-cleared = Dein eigenes Brettdesign ist zurückgesetzt: Die Bilder, die nur du siehst, werden wieder in Holz gezeichnet.
theme-usage = theme erwartet ein Wort: { optvalue-wood }, { optvalue-green }, { optvalue-contrast } oder { optvalue-default }

# Falsch geschriebene Befehle. $given ist das, was geschrieben wurde.
parse-about-everyone = { $word } betrifft alle; lass '{ $given }' weg
parse-not-understood = '{ $given }' verstehe ich hier nicht
parse-only-game = { $word } erwartet höchstens eine Partienummer wie #12, nicht '{ $given }'
parse-only-challenge = { $word } erwartet höchstens eine Herausforderungsnummer wie #4, nicht '{ $given }'
parse-days = tage muss 1, 2, 3, 5, 7, 10, 14 oder { optvalue-none } sein, nicht '{ $given }'
parse-challenge-two-people = Eine Herausforderung gilt einer einzigen Person: erwähne eine oder, für eine offene Herausforderung, niemanden
parse-rated-casual = Sag entweder gewertet oder ungewertet, nicht beides ('{ $first }' und '{ $second }')
parse-option-twice = { $key } ist zweimal angegeben ('{ $first }' und '{ $second }'); gib es nur einmal an
parse-color = farbe muss { optvalue-white }, { optvalue-black } oder { optvalue-random } sein, nicht '{ $given }'
parse-level = stufe muss eine Zahl von 1 bis 8 sein, nicht '{ $given }'
parse-unknown-option = Unbekannte Option '{ $given }'; die Optionen von { $p }{ $word } sind { $options }
# A list of names, one more before the rest.
list-more = { $first }, { $rest }
action-word = { $name }{ $count ->
        [yes] { " " }N
       *[no] { "" }
    }
parse-switch = { $key } ist { optvalue-on }, { optvalue-off } oder { optvalue-default }, nicht '{ $given }'
parse-settings = settings erwartet [community] präfix:X, variante:NAME, tage:N, thread:{ optvalue-on }|{ optvalue-off }, gif:{ optvalue-on }|{ optvalue-off }, design:{ optvalue-wood }|{ optvalue-green }|{ optvalue-contrast }, gewertet:{ optvalue-choice }|{ optvalue-always }|{ optvalue-never }, web:{ optvalue-on }|{ optvalue-off }, sprache:en|tr|de, jede davon auch mit :{ optvalue-default } (zurück zum Wert der Community oder zum Grundwert)
parse-prefix = Ein Präfix besteht aus 1 bis 3 Zeichen wie ! oder ? und darf nicht mit einem Zeichen beginnen, das Chats selbst verwenden (@ # / < > : ` * _ ~ |)
parse-rated = gewertet ist { optvalue-choice } (die Spieler wählen), { optvalue-always } oder { optvalue-never }, nicht '{ $given }'
parse-unknown-setting = Unbekannte Einstellung '{ $given }'; die Einstellungen sind präfix, variante, tage, thread, gif, design, gewertet, web, sprache
parse-theme = Ein Brettdesign '{ $given }' kenne ich nicht; die Designs sind { $themes } ({ optvalue-contrast } ist für Farbenblinde), und { optvalue-default } kehrt zu dem zurück, das ohne Wahl gilt
parse-which-move = Gib den Zug an, z. B. { $p }move e4 oder { $p }move #12 Nf3
parse-game-decline = { $word } erwartet höchstens eine Partienummer wie #12 und 'accept' oder 'decline', nicht '{ $given }'
parse-pgn = { $word } erwartet höchstens eine Partienummer wie #12 und 'analysed', nicht '{ $given }'
parse-which-swap = Gib den Tausch an, z. B. { $p }swap K b (den König mit der Figur auf der b-Linie) oder { $p }noswap
parse-swap-number = Schreib #{ $number } für Partie { $number }, z. B. { $p }swap #{ $number } K b
parse-bomb = { $word } erwartet eine Partienummer wie #12 und ein Feld wie g1, nicht '{ $given }'
parse-moves = { $word } erwartet eine Partienummer wie #12 und höchstens ein Feld wie g1, nicht '{ $given }'
parse-help = help erwartet den Namen eines Befehls, z. B. { $p }help analyse
parse-notify = notify erwartet { optvalue-on } oder { optvalue-off }, nicht '{ $given }'
parse-no-args = Nach { $word } kommt nichts mehr, nicht '{ $given }'
parse-positive = { $key ->
        [event] Die Ereignisnummer
        [season] Die Saison
        [tournament] Die Turniernummer
       *[round] Die Runde
    } muss eine ganze Zahl ab 1 sein, nicht '{ $given }'
season-none = Es gibt keine Saison { $number }; Saisons werden ab 1 gezählt.
round-none = Es gibt keine Runde { $number }; Runden werden ab 1 gezählt.
parse-in-range = { $key ->
        [signup] anmeldung
        [reach] reichweite
        [wait] wartezeit
       *[rounds] runden
    } muss eine ganze Zahl von { $min } bis { $max } sein, nicht '{ $given }'
parse-ladder-variant = ladder erwartet hier einen Variantennamen, nicht '{ $given }'
parse-ladder-days = Eine Leiter braucht Tage pro Zug: 1, 2, 3, 5, 7, 10 oder 14
parse-ladder-create-key = ladder create erwartet tage:N, reichweite:N und wartezeit:N, nicht '{ $given }'
parse-ladder-create-variant = ladder create erwartet nur eine Variante, nicht zusätzlich '{ $given }'
parse-ladder-create-which = Gib die Variante an, z. B. { $p }ladder create chess days:3 reach:3 wait:3
parse-ladder-undo = Sag, welches Ergebnis (mit der Nummer aus seiner Ankündigung) rückgängig gemacht werden soll und warum, z. B. { $p }ladder undo 5 falsches Ergebnis
parse-ladder-season = Schreib { $p }ladder season close oder, um eine abgeschlossene Saison zu sehen, { $p }ladder season N
parse-ladder-action = Unbekannte Leiter-Aktion '{ $given }'; Aktionen: { $actions }
parse-tournament-two = Nenne ein Turnier, nicht zwei
parse-tournament-only-number = tournament { $action } erwartet nur die Nummer des Turniers, nicht '{ $given }'
parse-tournament-round = Gib die Runde an, z. B. { $p }tournament round 2
parse-tournament-number = Schreib #{ $number } für Turnier { $number }, z. B. { $p }tournament #{ $number } join (eine Zahl ohne # ist eine Runde: { $p }tournament round { $number })
parse-tournament-action = Unbekannte Turnier-Aktion '{ $given }'; Aktionen: { $actions }
parse-tournament-days = Ein Turnier braucht Tage pro Zug: 1, 2, 3, 5, 7, 10 oder 14
parse-signup = anmeldung ist die Zahl der Anmeldetage, 0 bis 30, nicht '{ $given }'
parse-tournament-create-key = tournament create erwartet runden:N, tage:N und anmeldung:N, nicht '{ $given }:'
parse-tournament-two-variants = '{ $first }' und '{ $second }' sind beide Varianten; ein Turnier wird in einer gespielt. Ein Name, der mit dem Namen einer Variante beginnt, braucht ein anderes Wort davor, z. B. Der { $second }-Pokal
parse-tournament-two-systems = '{ $first }' und '{ $second }' sind beide Turniersysteme; ein Turnier hat nur eines. Ein Name, der mit dem Wort eines Systems beginnt, braucht ein anderes Wort davor, z. B. Der { $second }-Pokal
parse-rounds-swiss = rounds:N gilt für das Schweizer System; ein Rundenturnier hat so viele Runden, wie es braucht
parse-tournament-system = Das Turniersystem ist Rundenturnier ({ optvalue-roundrobin }), doppeltes Rundenturnier ({ optvalue-double }) oder Schweizer System ({ optvalue-swiss }), nicht '{ $given }'
parse-unknown-command = Unbekannter Befehl '{ $name }'
parse-subcommand-needed = { $name } braucht eine seiner Aktionen: { $subcommands }
parse-option-needed = { $name } braucht die Option '{ $option }'
parse-option-person = Die Option '{ $option }' muss eine Person sein
parse-option-bool = Die Option '{ $option }' kann nur wahr oder falsch sein
parse-option-one-word = Die Option '{ $option }' ist ein einziges Wort, nicht '{ $given }'
parse-option-unknown = { $name } hat keine Option '{ $option }'
parse-option-type = Die Option '{ $option }' hat einen Typ, den ich nicht verarbeiten kann
settings-web-community = web: ist eine Regel der Community: { $p }settings community web:on|off.
settings-web-rule = , Webseiten { $web }
web-no-community = Webseiten gibt es nur für Communitys; dieser Chat gehört zu keiner.
web-not-served = capabot stellt hier keine Webseiten bereit (kein [web] public_url in seiner Konfiguration).
web-off = Diese Community ist nicht im Web. Ein Administrator kann das einschalten: { $p }settings community web:on.
web-address = Diese Community im Web: { $url }
web-game-link = Zuschauen: { $url }
# Der Name einer Variante, wie Chats ihn lesen, nach ihrem Kurznamen (getippt wird weiter der Kurzname).
variant-name = { $variant ->
        [chess] Schach
        [capablanca] Capablanca-Schach
        [caparandom] Capablanca-Zufallsschach
        [caparelocation] Capablanca-Umstellungsschach
        [stones] Stones-Schach
        [atomic] Atomschach
        [capatomic] Capatomic-Zufallsschach
        [atomic-nocheck] Atomschach ohne Schach
        [atomic-deathmatch] Todesmatch-Atomschach
        [atomic-pawnsafe] Atomschach mit sicheren Bauern
        [bomb] Schach mit geheimer Bombe
       *[other] { $variant }
    }
