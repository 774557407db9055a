# Commands: each command's one-line summary (help and the slash command's description, at most
# 100 characters) as cmd-NAME, and its options' descriptions as opt-OPTION (shared) or
# cmd-NAME-OPTION.

cmd-challenge = Challenge someone (or anyone here, without @user) to a game
cmd-play = Play capabot's AI
cmd-accept = Accept a challenge
cmd-decline = Decline a challenge (or cancel your own)
cmd-move = Make a move; a bare move such as e4 works too when one game waits for you
cmd-board = Show the board
cmd-games = Your games and the challenges waiting for you
cmd-resign = Resign a game (before both sides have moved, this aborts it)
cmd-draw = Offer a draw, accept your opponent's offer, or decline it
cmd-takeback = Ask to take back your last move, agree to your opponent's request, or decline it
cmd-abort = Abort a game before both sides have moved (a game against capabot at any time)
cmd-fen = The position as FEN
cmd-pgn = The game as PGN
cmd-rematch = The same game again against the same opponent, colours swapped
cmd-gif = The whole game as an animated picture, one frame per move
cmd-analyse = A computer analysis of a finished game: its course, accuracy, mistakes and turning points
cmd-swap = Capablanca Relocation setup phase: swap your king or queen (Black chooses first)
cmd-noswap = Capablanca Relocation setup phase: keep your pieces where they are
cmd-moves = The legal moves in a game, or those of one piece
cmd-moves-square = A piece's square, to list its moves alone, e.g. g1
cmd-bomb = Secret-bomb chess: choose your bomb by direct message, or see your board with it marked
cmd-theme = Your own board theme for the pictures sent to you alone (contrast: for colour-blind readers)
cmd-variants = The variants capabot plays
cmd-rules = The rules of a variant
cmd-settings = This chat's defaults (with community: the whole community's)
cmd-notify = Reminders and "your move" notices in your direct messages, on or off
cmd-rating = A rating (yours or someone's) in this community, or global
cmd-leaderboard = The top 10 and your own place, as a picture
cmd-history = A chart of the rating over time
cmd-link = Link your accounts on two platforms: get a code here, then say link CODE on the other
cmd-unlink = Unlink this account from your accounts on other platforms
cmd-ladder = The community's rank ladders: standings, joining, challenges up the ladder, seasons
cmd-tournament = The community's tournaments: round robin or Swiss, registration, pairings and standings
cmd-help = The commands

opt-casual = Not rated
opt-challenge = Challenge number
opt-code = The code from your other platform (leave out to get one)
opt-color = Your colour
opt-community = Change the community's settings, which its chats inherit
opt-dm = Direct-message notices
opt-game = Game number (when you have several games here)
opt-gif = Post the game as an animated picture when it ends
opt-theme = Your board theme (contrast: for colour-blind readers; default: wood)
opt-global = Global ratings instead of this community's
opt-level = AI level, 1 (weakest) to 8
opt-move = Your move, e.g. e4, Nxf7#, Me1^e5
opt-name = The tournament's name (default: from the variant and system)
opt-opponent = Who to challenge (leave out for an open challenge)
opt-prefix = Command prefix, 1 to 3 symbols
opt-rated = Community rule: choice, always or never rated
opt-reach = How many places up a player may challenge (1 to 100, default 3)
opt-reason = Why the result is undone
opt-rounds = Swiss rounds (default: enough for a clear winner)
opt-setup = Setup number (random-setup variants)
opt-signup = Days of registration before it starts by itself (0: start by hand)
opt-square = The square of the piece that becomes your bomb (not the king), e.g. g1; leave out to see your board
opt-swap = K or Q and a file or piece, e.g. K b
opt-system = Round robin, double round robin or Swiss (default: round robin)
opt-thread = Open a thread for each game
opt-tournament = Which tournament (its number)
opt-wait = Days a challenge may wait for an answer (1 to 30, default 3)
cmd-challenge-variant = Which variant
cmd-challenge-days = Days per move (a reminder comes by direct message once 80% of them have passed)
cmd-play-variant = Which variant
cmd-play-days = Days per move (a reminder comes by direct message once 80% of them have passed)
cmd-draw-decline = Refuse your opponent's offer
cmd-pgn-analysed = With the computer analysis in it (evaluations, marks, better moves)
cmd-takeback-decline = Refuse your opponent's request
cmd-rules-variant = Which variant
cmd-settings-variant = Variant when a challenge names none (default: the community's, or the built-in one)
cmd-settings-days = Days per move when a challenge names none (default: the community's, or the built-in one)
cmd-settings-theme = The board theme of this chat's pictures (default: the community's, or wood)
cmd-settings-language = The chat's language: en, tr, de (default: the community's, or the built-in one)
cmd-rating-player = Whose rating (default: yours)
cmd-rating-variant = Which variant
cmd-leaderboard-variant = Which variant
cmd-history-player = Whose history (default: yours)
cmd-history-variant = Which variant
cmd-ladder-variant = Which ladder, by its variant (e.g. capatomic), where there are several
cmd-ladder-days = Days per move (default 3)
cmd-tournament-variant = Which variant
cmd-tournament-days = Days per move
opt-event = The number announced with the result, as in (ladder result 2)
opt-season = The number of a closed season
opt-round = Which round
choice-system-roundrobin = Round robin
choice-system-double = Double round robin
choice-system-swiss = Swiss
choice-theme-wood = Wood (cream and brown)
choice-theme-green = Green (cream and green)
choice-theme-contrast = High contrast (colour-blind friendly)
choice-theme-default = Default (as if none was chosen)
choice-language-en = English
choice-language-tr = Turkish (Türkçe)
choice-language-de = German (Deutsch)
choice-language-default = Default (as if none was chosen)
choice-thread-on = On: each new game in a thread of its own
choice-thread-off = Off: games are played in the channel itself
choice-thread-default = Default (as if none was chosen)
choice-gif-on = On: an animation of the whole game at its end
choice-gif-off = Off: no animation at the end
choice-gif-default = Default (as if none was chosen)
choice-web-on = On: the community and its games on the web
choice-web-off = Off: nothing of the community on the web
choice-web-default = Default (as if none was chosen)

# Subcommands (`sub-COMMAND-SUB`, at most 100 characters) and their own option descriptions
# (`sub-COMMAND-SUB-OPTION`, else `cmd-COMMAND-OPTION`, else `opt-OPTION`).
sub-ladder-standings = Every ladder of this community with its standings and open challenges
sub-ladder-join = Join a ladder (at the bottom)
sub-ladder-leave = Leave a ladder
sub-ladder-challenge = Challenge a player above you on the ladder
sub-ladder-challenge-player = Who to challenge
sub-ladder-accept = Accept the ladder challenge waiting for you
sub-ladder-decline = Decline the ladder challenge waiting for you (you lose your place to the challenger)
sub-ladder-season = The final standings of a closed season
sub-ladder-create = Administrators: create the ladder of a variant
sub-ladder-create-variant = The ladder's variant
sub-ladder-remove = Administrators: take a player off the ladder
sub-ladder-remove-player = Who to remove
sub-ladder-undo = Administrators: undo a result (or forfeit) by the number announced with it: (ladder result 2)
sub-ladder-season-close = Administrators: close the season (its standings are kept) and open the next
sub-tournament-standings = The tournaments here, or one tournament's players, standings and pairings
sub-tournament-round = The pairings and results of one round
sub-tournament-join = Register for a tournament
sub-tournament-leave = Unregister before the start (after it: see withdraw)
sub-tournament-create = Administrators: create a tournament
sub-tournament-start = Administrators: start a tournament before its registration ends
sub-tournament-cancel = Administrators: cancel a tournament before it starts
cmd-lang = The language capabot speaks to you: en (English), tr (Turkish), de (German); default: the chat's
opt-language = en, tr, de, or default
opt-command = A command to explain in full, e.g. analyse

# Slash command names (Discord shows the Turkish ones to Turkish-locale users; the commands stay
# the same underneath). Lower case, no spaces, at most 32 characters.
cmdname-challenge = challenge
cmdname-play = play
cmdname-accept = accept
cmdname-decline = decline
cmdname-move = move
cmdname-board = board
cmdname-games = games
cmdname-resign = resign
cmdname-draw = draw
cmdname-takeback = takeback
cmdname-abort = abort
cmdname-fen = fen
cmdname-pgn = pgn
cmdname-gif = gif
cmdname-rematch = rematch
cmdname-analyse = analyse
cmdname-swap = swap
cmdname-noswap = noswap
cmdname-moves = moves
cmdname-bomb = bomb
cmdname-theme = theme
cmdname-variants = variants
cmdname-rules = rules
cmdname-settings = settings
cmdname-notify = notify
cmdname-lang = lang
cmdname-rating = rating
cmdname-leaderboard = leaderboard
cmdname-history = history
cmdname-link = link
cmdname-unlink = unlink
cmdname-ladder = ladder
cmdname-tournament = tournament
cmdname-help = help
subname-ladder-standings = standings
subname-ladder-join = join
subname-ladder-leave = leave
subname-ladder-challenge = challenge
subname-ladder-accept = accept
subname-ladder-decline = decline
subname-ladder-season = season
subname-ladder-create = create
subname-ladder-remove = remove
subname-ladder-undo = undo
subname-ladder-season-close = season-close
subname-tournament-standings = standings
subname-tournament-round = round
subname-tournament-join = join
subname-tournament-leave = leave
subname-tournament-create = create
subname-tournament-start = start
subname-tournament-cancel = cancel

# Slash command option names.
optname-casual = casual
optname-challenge = challenge
optname-code = code
optname-color = color
optname-community = community
optname-days = days
optname-decline = decline
optname-analysed = analysed
optname-dm = dm
optname-event = event
optname-game = game
optname-gif = gif
optname-theme = theme
optname-global = global
optname-language = language
optname-command = command
optname-level = level
optname-move = move
optname-name = name
optname-opponent = opponent
optname-player = player
optname-prefix = prefix
optname-rated = rated
optname-reach = reach
optname-reason = reason
optname-round = round
optname-rounds = rounds
optname-season = season
optname-setup = setup
optname-signup = signup
optname-square = square
optname-swap = swap
optname-system = system
optname-thread = thread
optname-tournament = tournament
optname-variant = variant
optname-wait = wait

# Slash command choices.
choice-days = { $count ->
        [one] { $count } day
       *[other] { $count } days
    }
choice-no-clock = none (no clock)
choice-default = Default (as if none was chosen)

# The Discord front end's own words.
discord-restarting = capabot is restarting; try again in a minute.
discord-busy = Discord is busy: my answer is queued and will be posted in this channel shortly.
discord-busy-here = Discord is busy: my answer is queued and will come with the next command used in this chat.
discord-posted-in = Posted in { $channel }.
discord-done = Done.
discord-missing-permissions = I cannot show games here: I am missing { $permissions } in this channel.
discord-pictures-left-out = (No board picture here: I am missing { $permissions } in this channel.)
# Discord's permissions, as Discord names them to people.
perm-view-channel = view channel
perm-send-messages = send messages
perm-embed-links = embed links
perm-attach-files = attach files
perm-read-message-history = read message history
perm-create-public-threads = create public threads
perm-send-messages-in-threads = send messages in threads
discord-button-stale = That button is out of date.
discord-not-your-game = This is not your game.
discord-confirm-resign = Resign game #{ $id }?
discord-confirm = Are you sure?
discord-yes = Yes
discord-view = View
embed-title = Game #{ $id } · { $variant }
embed-white = White
embed-black = Black
embed-move = Move
embed-to-move = To move
embed-deadline = Deadline
embed-result = Result

# The Matrix front end's own words and the host's.
matrix-type-one = Type one of: { $choices }
matrix-react-key = { $key } { $label } (or type { $typed })
matrix-type-choice = { $label }: type { $typed }
matrix-react = React { $choices }
matrix-board = the board
matrix-greeting = Hello! I am capabot: chess variants in chat (Capatomic, Capablanca, atomic, chess). Say { $p }help for the commands, or address me by name: capabot: help. Türkçe için: { $p }lang tr. Auf Deutsch: { $p }lang de.
host-busy = I am very busy right now: try again in a minute.
host-slow-down = Slow down, please: I am ignoring your messages here for a minute. Your games are safe.

# The console's own words.
console-not-written = (could not write { $path }: { $error })
console-not-utf8 = (skipped a line that is not UTF-8)
cmd-web = The address of this community's web page
opt-web = Community rule: show the games, ladders and tournaments on the web (on or off)
cmdname-web = web
optname-web = web
sub-tournament-crosstable = The crosstable: every player's result against every other
sub-tournament-withdraw = Withdraw from a running tournament: your games left are lost
subname-tournament-crosstable = crosstable
subname-tournament-withdraw = withdraw

# The words for yes and no, read as a yes/no option's value (casual:yes) in any language.
word-yes = yes
word-no = no
parse-yes-no = { $option } is yes or no, not '{ $given }'

# The words of option values (color:white, gif:off, theme:wood), read in any language as the
# English ones (renk:beyaz, gif:aus) and shown in the reader's own: one word each.
optvalue-white = white
optvalue-black = black
optvalue-random = random
optvalue-on = on
optvalue-off = off
optvalue-default = default
optvalue-none = none
optvalue-wood = wood
optvalue-green = green
optvalue-contrast = contrast
optvalue-choice = choice
optvalue-always = always
optvalue-never = never
optvalue-roundrobin = roundrobin
optvalue-double = double
optvalue-swiss = swiss
# Read too, never shown: other words people type for on and off.
optvalue-on-also = enabled
optvalue-off-also = disabled
