# The core: errors, settings, languages. Arguments: $p is how a command is written here (the
# chat's prefix, or / where only slash commands reach capabot).

internal-error = Sorry, something went wrong on my side (error id { $id }).
not-saved = That was not saved and nothing changed: I could not write it down just now. Please try again.
input-too-long = That message is too long ({ $count } characters); commands are short. Say { $p }help for the list.
parse-error = { $error }. Say { $p }help for the commands.
parse-error-command = { $error }. Say { $p }help { $command } for how to write it.
command-unknown = I don't know the command '{ $word }'. Say { $p }help for the list.
command-unknown-near = I don't know the command '{ $word }'. Did you mean { $p }{ $near }? Say { $p }help for the list.
direct-move-elsewhere = { $word } reads as a move, but your games ({ $games }) are played in the chats where they started: make the move there.
direct-games-elsewhere = Your games ({ $games }) are played in the chats where they started: ask there.
direct-move-command-elsewhere = Your games ({ $games }) are played in the chats where they started: make your move there.
direct-unknown = I don't know '{ $word }'. Here every line is for me, so commands need no { $p }: help lists them.
direct-unknown-near = I don't know '{ $word }'. Did you mean { $near }? Here every line is for me, so commands need no { $p }: help lists them.
variant-unknown = I don't know the variant '{ $name }'. Variants: { $names }.
variant-unknown-near = I don't know the variant '{ $name }'. Did you mean { $near }? Variants: { $names }.
no-setup = { $variant } has no setup { $number } (its setups are 0 to { $max }), so this game cannot start; challenge again with another setup:N, or without one.
or-list = { $head } or { $tail }
color-white = white
color-black = black
color-random = random

settings-days-none = none
settings-on = on
settings-off = off
settings-rated-community = rated: is a community rule: { $p }settings community rated:choice|always|never.
settings-no-community = This chat belongs to no community; leave out 'community' to change this chat's settings.
settings-rated-rule = , rated games: { $rule }
settings-community-hint = { " " }({ $p }settings community ... for the whole community)
settings-show = { $whose ->
        [community] This community's defaults
       *[chat] Settings here
    }: prefix { $prefix }, variant { $variant }, days { $days }, thread per game { $thread }, animation at the end { $gif }, board theme { $theme }{ $rule }, language { $lang }. Change with { $p }settings prefix:? variant:chess days:3 thread:on gif:on theme:contrast lang:tr{ $community }; :default after a setting (as theme:default) takes it back to the community's value, or the built-in one.
settings-admins-only = Only the community's administrators may change settings here.
settings-saved = { $whose ->
        [community] Community settings saved ({ $what }); chats that set nothing of their own follow them.
       *[chat] Settings saved: { $what }.
    }{ $prefix_now }
settings-prefix-now = { " " }Commands here now start with { $prefix }, e.g. { $prefix }help.

notify-show = Direct-message notices (reminders, "your move") are { $state ->
        [on] on for you; { $p }notify off turns them off.
       *[off] off for you; { $p }notify on turns them on.
    }
notify-on = Direct-message notices on: reminders and "your move" notices come to your direct messages.
notify-off = Direct-message notices off: reminders come to the game's chat.

lang-usage = lang takes one word: en, tr, de or default
lang-unknown = I speak en (English), tr (Turkish) and de (German), not '{ $given }'.
parse-lang = I speak en (English), tr (Turkish) and de (German), not '{ $given }'
# A language by its name; $code is en, tr or de.
lang-name = { $code ->
        [tr] Turkish
        [de] German
       *[en] English
    }
lang-show-own = I speak { $lang } to you (your choice); { $p }lang default goes back to the chat's language.
lang-show-default = I speak { $lang } to you (the chat's or your app's language); { $p }lang tr, { $p }lang de or { $p }lang en chooses your own.
lang-set = From now on I speak English to you: in direct messages and in answers only you see. What everyone in a chat reads stays in the chat's language.
lang-cleared = Your own language is forgotten: I speak the chat's language to you again.
theme-show-own = I draw the pictures sent to you alone in { $theme } (your choice); { $p }theme default goes back to wood. A shared chat's pictures are drawn in its own theme ({ $p }settings theme:…).
theme-show-default = I draw the pictures sent to you alone in wood; { $p }theme contrast (for colour-blind readers) or { $p }theme green chooses your own. A shared chat's pictures are drawn in its own theme ({ $p }settings theme:…).
theme-set = From now on I draw the pictures sent to you alone in { $theme }; a shared chat's follow its own theme ({ $p }settings theme:…).
theme-cleared = Your own board theme is reset: the pictures sent to you alone are drawn in wood again.
theme-usage = theme takes one word: wood, green, contrast or default

# Commands typed wrongly. $given is what was typed.
parse-about-everyone = { $word } is about everyone; leave out '{ $given }'
parse-not-understood = I don't understand '{ $given }' here
parse-only-game = { $word } takes at most a game number like #12, not '{ $given }'
parse-only-challenge = { $word } takes at most a challenge number like #4, not '{ $given }'
parse-days = days must be one of 1, 2, 3, 5, 7, 10, 14 or none, not '{ $given }'
parse-challenge-two-people = A challenge is for one person: mention one, or nobody for an open challenge
parse-rated-casual = Say rated or casual once, not both '{ $first }' and '{ $second }'
parse-option-twice = { $key } is given twice ('{ $first }' and '{ $second }'); give it once
parse-color = color must be white, black or random, not '{ $given }'
parse-level = level must be 1 to 8, not '{ $given }'
parse-unknown-option = Unknown option '{ $given }'; the options of { $p }{ $word } are { $options }
# A list of names, one more before the rest.
list-more = { $first }, { $rest }
# An action in the list of a command's actions: its name in the reader's language, and N where it
# takes a number.
action-word = { $name }{ $count ->
        [yes] { " " }N
       *[no] { "" }
    }
parse-switch = { $key } is on, off or default, not '{ $given }'
parse-settings = settings takes [community] prefix:X, variant:NAME, days:N, thread:on|off, gif:on|off, theme:wood|green|contrast, rated:choice|always|never, web:on|off, lang:en|tr|de, and each of them :default (back to the community's value, or the built-in one)
parse-prefix = A prefix is 1 to 3 symbols such as ! or ?, and does not start with what chats use themselves (@ # / < > : ` * _ ~ |)
parse-rated = rated is choice, always or never, not '{ $given }'
parse-unknown-setting = Unknown setting '{ $given }'; settings are prefix, variant, days, thread, gif, theme, rated, web, lang
parse-theme = I know no board theme '{ $given }'; the themes are { $themes } (contrast is for colour-blind readers), and default goes back to the one you would have without a choice
parse-which-move = Say which move, e.g. { $p }move e4 or { $p }move #12 Nf3
parse-game-decline = { $word } takes at most a game number like #12 and 'accept' or 'decline', not '{ $given }'
parse-pgn = { $word } takes at most a game number like #12 and 'analysed', not '{ $given }'
parse-which-swap = Say which swap, e.g. { $p }swap K b (the king with the piece on file b) or { $p }noswap
parse-swap-number = Write #{ $number } for game { $number }, e.g. { $p }swap #{ $number } K b
parse-bomb = { $word } takes a game number like #12 and one square like g1, not '{ $given }'
parse-moves = { $word } takes a game number like #12 and at most one square like g1, not '{ $given }'
parse-help = help takes one command's name, e.g. { $p }help analyse
parse-notify = notify takes on or off, not '{ $given }'
parse-no-args = { $word } takes nothing after it, not '{ $given }'
parse-positive = { $key ->
        [event] The event number
        [season] The season
        [tournament] The tournament number
       *[round] The round
    } must be a whole number, 1 or more, not '{ $given }'
season-none = There is no season { $number }; seasons are numbered from 1.
round-none = There is no round { $number }; rounds are numbered from 1.
parse-in-range = { $key ->
        [signup] signup
        [reach] reach
        [wait] wait
       *[rounds] rounds
    } must be a whole number from { $min } to { $max }, not '{ $given }'
parse-ladder-variant = ladder takes one variant name here, not '{ $given }'
parse-ladder-days = A ladder needs days per move: 1, 2, 3, 5, 7, 10 or 14
parse-ladder-create-key = ladder create takes days:N, reach:N and wait:N, not '{ $given }'
parse-ladder-create-variant = ladder create takes one variant, not also '{ $given }'
parse-ladder-create-which = Say which variant, e.g. { $p }ladder create chess days:3 reach:3 wait:3
parse-ladder-undo = Say which result to undo, by the number announced with it, and why, e.g. { $p }ladder undo 5 wrong result
parse-ladder-season = Say { $p }ladder season close, or { $p }ladder season N to see a closed season
parse-ladder-action = Unknown ladder action '{ $given }'; actions: { $actions }
parse-tournament-two = Name one tournament, not two
parse-tournament-only-number = tournament { $action } takes only the tournament's number, not '{ $given }'
parse-tournament-round = Say which round, e.g. { $p }tournament round 2
parse-tournament-number = Write #{ $number } for tournament { $number }, e.g. { $p }tournament #{ $number } join (a number without # is a round: { $p }tournament round { $number })
parse-tournament-action = Unknown tournament action '{ $given }'; actions: { $actions }
parse-tournament-days = A tournament needs days per move: 1, 2, 3, 5, 7, 10 or 14
parse-signup = signup is the days of registration, 0 to 30, not '{ $given }'
parse-tournament-create-key = tournament create takes rounds:N, days:N and signup:N, not '{ $given }:'
parse-tournament-two-variants = '{ $first }' and '{ $second }' are both variants; a tournament is played in one. A name that begins with a variant's name needs another word before it, e.g. The { $second } Cup
parse-tournament-two-systems = '{ $first }' and '{ $second }' are both tournament systems; a tournament has one. A name that begins with a system's word needs another word before it, e.g. The { $second } Cup
parse-rounds-swiss = rounds:N is for a Swiss; a round robin has as many rounds as it needs
parse-tournament-system = Tournaments are round robin (roundrobin), double round robin (double) or Swiss (swiss), not '{ $given }'
parse-unknown-command = Unknown command '{ $name }'
parse-subcommand-needed = { $name } needs one of its actions: { $subcommands }
parse-option-needed = { $name } needs the option '{ $option }'
parse-option-person = The option '{ $option }' must be a person
parse-option-bool = The option '{ $option }' is true or false
parse-option-one-word = The option '{ $option }' is one word, not '{ $given }'
parse-option-unknown = { $name } has no option '{ $option }'
parse-option-type = The option '{ $option }' has a type I do not take
settings-web-community = web: is a community rule: { $p }settings community web:on|off.
settings-web-rule = , web pages { $web }
web-no-community = The web pages are a community's; this chat belongs to none.
web-not-served = capabot serves no web pages here (no [web] public_url in its configuration).
web-off = This community is not on the web. An administrator can turn it on: { $p }settings community web:on.
web-address = This community on the web: { $url }
web-game-link = Watch: { $url }
# A variant's name as chats read it, by its short name (what is typed stays the short name).
variant-name = { $variant ->
        [chess] Chess
        [capablanca] Capablanca Chess
        [caparandom] Capablanca Random Chess
        [caparelocation] Capablanca Relocation Chess
        [stones] Stone's Chess
        [atomic] Atomic Chess
        [capatomic] Capatomic Random Chess
        [atomic-nocheck] No-Check Atomic Chess
        [atomic-deathmatch] Death-Match Atomic Chess
        [atomic-pawnsafe] Pawn-Safe Atomic Chess
        [bomb] Secret-Bomb Chess
       *[other] { $variant }
    }
