# Games: moves, turns, results. Move notation stays in English letters in every language.

game-move-error = Game #{ $id }: { $error }
game-not-yours = Game #{ $id } is not yours: you are not playing in it.
game-none = There is no game #{ $id }.
game-not-here = Game #{ $id } is not in this chat.
game-fen = Game #{ $id }: { $fen }
no-games-yet = You have no games yet. { $direct ->
        [yes] Start one here with { $p }play; people are challenged in a chat you share with them.
       *[no] Start one with { $p }challenge @someone or { $p }play.
    }
no-game-in-chat = You have no game in this chat. { $direct ->
        [yes] Start one here with { $p }play; people are challenged in a chat you share with them.
       *[no] Start one with { $p }challenge @someone or { $p }play.
    }
no-game-here = You have no game here. { $direct ->
        [yes] Start one here with { $p }play; people are challenged in a chat you share with them.
       *[no] Start one with { $p }challenge @someone or { $p }play.
    }
no-game-in-progress = You have no game in progress here. { $direct ->
        [yes] Start one here with { $p }play; people are challenged in a chat you share with them.
       *[no] Start one with { $p }challenge @someone or { $p }play.
    }
comma-list = { $head }, { $tail }
comma-list-none = {""}
game-against = #{ $id } as { $color ->
        [white] white
       *[black] black
    } vs { $other }
games-which = You have { $count } games here ({ $ids }); add the number, e.g. { $example }.
position-changed = Game #{ $id }: the position changed meanwhile (another move came first). Look at { $p }board and try again.
move-not-playing = Game #{ $id } is between { $white } and { $black }; only they move in it.
bare-which-game = Several of your games here wait for your move ({ $games }), so a bare move does not say which: name the game, like { $example }
not-your-turn-anywhere = It is not your turn in any of your games here.
your-turn-which = It is your turn in { $count } games here ({ $ids }); say which: { $p }move { $first } { $text }.
game-in-setup = Game #{ $id } is still in its setup phase: choose a swap with { $p }swap or { $p }noswap.
game-over-already = Game #{ $id } is over ({ $result ->
        [none] finished
       *[other] { $result }
    }); start a new one with { $p }challenge.
game-aborted-already = Game #{ $id } was aborted.
not-your-turn = It is not your turn in game #{ $id }: { $other } ({ $color }) is to move.
move-not-legal = Game #{ $id }: that move is not legal here.
move-raced = Game #{ $id }: the position changed before your move landed (another move came first). Look at the board and try again.
move-played = Game #{ $id }: { $label } played by { $name }.
blast-removes = The blast on { $square } removes { $pieces }.
blast-nothing = The blast on { $square } removes nothing.
blast-piece = { $piece } ({ $color })
blast-irradiated = { $square } is irradiated for good.
death-match-kingless = Both kings are gone, and the game goes on without them (no more check): a side left with no pieces or pawns loses; a blast that empties the board, or no legal move for the side to move, is a draw.
to-move = { $name } ({ $color }) to move.
check = Check!
days-to-reply = { $count ->
        [one] { $count } day to reply.
       *[other] { $count } days to reply.
    }
your-move-notice = Your move in game #{ $id } against { $name } ({ $variant }): { $label }. { $days ->
        [one] { $days } day to reply.
       *[other] { $days } days to reply.
    }
game-over-win = { $head }: { $result } — { $why ->
        [king-exploded] { $name } wins by blowing up the king
        [no-material-left] { $name } wins: the other side has no material left
       *[other] { $name } wins by { $reason }
    }.
game-over-draw = { $head }: { $result } — draw by { $reason }.
ai-no-move = Game #{ $id }: capabot could not find a move (no AI in this build?). You can { $p }abort the game.

move-error-empty = no move given
move-error-too-long = that is too long to be a move
move-error-syntax = '{ $input }' is not a move I can read; try SAN like { $san } or coordinates like { $coordinates }
move-error-illegal = { $input } is not legal: { $reason }
move-error-illegal-hints = { $input } is not legal: { $reason }; { $hints }
move-error-hint-list = { $first }; { $rest }

# Why a well-formed move is not legal. $role is a piece's name (piece-name), $owner and $turn are
# white or black, $choices lists promotion pieces (=Q, =R).
piece-name = { $role ->
        [pawn] pawn
        [knight] knight
        [bishop] bishop
        [rook] rook
        [queen] queen
        [king] king
        [archbishop] archbishop
        [chancellor] chancellor
        [missile] missile
       *[other] piece
    }
refusal-no-bombs = there are no bombs in this variant
refusal-detonation = no detonation there now: name your own bomb's square, and in check the blast must leave your king alive and out of check
refusal-no-missiles = there are no missile launches in this variant
refusal-not-a-missile = the piece on { $from } is a { $role }, not a missile
refusal-no-missile-on = you have no missile on { $from }
refusal-off-board = { $square } is not on this board
refusal-unarmed = no piece other than a pawn has been captured yet, so missiles cannot launch
refusal-missile-attacked = your missile on { $from } is attacked by the { $role } on { $by }, and an attacked missile cannot launch
refusal-shielded = { $square } is shielded by a king: no launch may hit a king's square or a square next to it
refusal-launch-into-check = the launch would leave your king in check
refusal-castle-missiles = those missiles cannot come along
refusal-list = { $first }; { $rest }
missile-hold-none = you have no missile on { $missile } that could come along
missile-hold-moved = the missile on { $missile } has moved, so it cannot come along
missile-hold-king-stays = the king keeps its file, so no missile comes along
missile-hold-blocked = the missile on { $missile } cannot come along: a piece on { $square } blocks its path
missile-hold-irradiated = the missile on { $missile } cannot come along: { $square } on its path is irradiated
refusal-castle-in-check = you cannot castle out of check
refusal-castle-impossible = castling that way is not possible now (moved king or rook, pieces in the way, or an attacked square)
refusal-castle-irradiated = castling that way is not possible: { $square } is irradiated, and castling may not cross an irradiated square or end on one
refusal-promotion = say which piece to promote to, for example { $example }: { $choices }
refusal-promotion-coordinates = say which piece to promote to, for example { $example }
refusal-promotion-to = a pawn cannot promote to a { $role }: choose { $choices }
refusal-no-such-role = there is no { $role } in this variant
# In the next two, $role is the piece's English name (pawn, knight, …), which piece-name words: a
# language that declines the name selects its own form there.
refusal-no-piece-of-role = you have no { $role ->
       *[other] { piece-name }
    }
refusal-irradiated = { $square } is irradiated: no piece may stand there
refusal-irradiated-on-the-way = { $square } on the way to { $to } is irradiated: no piece may move through it
refusal-own-piece = your own piece stands on { $square }
refusal-check-not-answered = you are in check, and that { $role } move does not answer it
refusal-into-check = that { $role } move would leave your king in check
refusal-explodes-own-king = that { $role } capture would blow up your own king
refusal-cannot-reach = no { $role ->
       *[other] { piece-name }
    } of yours can reach { $square }
refusal-not-from = no { $role ->
       *[other] { piece-name }
    } of yours on { $place } can reach { $square }
place-file = the { $file }-file
place-rank = rank { $rank }
place-square = { $square }
refusal-no-piece-on = there is no piece on { $square }
refusal-not-yours = the { $role } on { $square } belongs to { $owner }, and it is { $turn }'s turn
refusal-no-legal-move = your { $role } on { $from } has no legal move
refusal-cannot-go = your { $role } on { $from } cannot go to { $to }
refusal-and = { $first }, and { $rest }
hint-meant = did you mean { $moves }?
hint-moves = { $role } moves: { $moves }
hint-castling = castling moves: { $moves }
hint-in-check = you are in check
hint-plain = { $moves }
hint-launches = launches: { $moves }
moves-mover = { $name } ({ $color })
moves-all = Game #{ $id }: { $mover } to move has { $count ->
        [one] one legal move
       *[other] { $count } legal moves
    }. { $list }.
moves-piece = Game #{ $id }: { $piece } has { $count ->
        [one] one legal move
       *[other] { $count } legal moves
    }: { $list }.
moves-all-launches = Game #{ $id }: { $mover } to move has { $count } legal moves, all of them launches.
moves-none = Game #{ $id }: { $mover } to move has no legal move.
moves-piece-none = Game #{ $id }: { $piece } has no legal move.
moves-launches-counted = Launches, by missile: { $missiles } ({ $p }moves { $square } lists one missile's).
moves-in-check = { $mover } is in check.
moves-no-detonations = A bomb's detonation is never listed here, where others read ({ $p }bomb shows yours to you alone).
moves-not-square = Game #{ $id }: '{ $text }' is not a square of this board; name one like g1.
moves-no-piece = Game #{ $id }: there is no piece on { $square }.
moves-not-turn = Game #{ $id }: { $piece } is { $owner }'s, and { $mover } is to move.
moves-setup = Game #{ $id } has not begun: its moves can be listed once its setup is done.
moves-over = Game #{ $id } is over: it has no moves left to list.
move-error-ambiguous = { $input } is ambiguous: did you mean { $candidates }?

reason-checkmate = checkmate
reason-king-exploded = king exploded
reason-resignation = resignation
reason-time-forfeit = time forfeit
reason-forfeit = forfeit
reason-no-material-left = no material left
reason-stalemate = stalemate
reason-threefold-repetition = threefold repetition
reason-fifty-move-rule = fifty-move rule
reason-insufficient-material = insufficient material
reason-agreement = agreement
reason-time-out-but-no-mating-material = time out, but no mating material
reason-both-kings-exploded = both kings exploded

# Pictures: the description of a board for screen readers.
alt-board = { $variant } board, { $color } to move.{ $last } White: { $white }. Black: { $black }.
alt-last-move = { " " }Last move { $from } to { $to }.

# Challenges and the start of a game.
challenge-colors = { $color ->
        [white] { $name } plays white
        [black] { $name } plays black
       *[random] colours drawn at random
    }
clock-text = { $days ->
        [0] no clock
        [one] { $days } day per move
       *[other] { $days } days per move
    }
clock-rated = { $clock }, rated
clock-casual = { $clock }, casual
setup-suffix = , setup { $number }
level-suffix = , level { $level }
setup-range = { $variant } has setups 0 to { $max }, not { $given }.
setup-one = { $variant } has one starting position; setup:N is for the variants with several ({ $list }).
relocation-no-setup = Capablanca Relocation chooses its setup with swaps after accepting; leave out setup:N.
challenge-mention = I don't know a variant named '{ $name }'. To challenge someone, mention them: @{ $name }. Variants: { $names }
challenge-mention-near = I don't know a variant named '{ $name }': did you mean { $near }? To challenge someone, mention them: @{ $name }. Variants: { $names }
rating-mention = I don't know a variant named '{ $name }'. To ask about someone, mention them: @{ $name }. Variants: { $names }
mention-unclear = I could not tell who you mentioned; mention them so the chat links their name.
community-rated-only = This community plays rated games only; leave out casual.
community-casual-only = This community plays casual games only; leave out rated.
level-only-ai = level:N is for games against me: { $p }play [variant] level:N.
ai-games-mine = You already have { $count } games against me going on, the most I play with one person at once. Finish or { $p }resign one first ({ $p }games lists them).
ai-games-all = I am playing { $count } games at once, all I can take right now. Try again when some are over.
challenge-self = You cannot challenge yourself.
challenge-answer-slash = the Accept or Decline button, or /accept and /decline
challenge-anyone-slash = the Accept button or /accept { $id }
challenge-answer-typed = { $p }accept or { $p }decline
challenge-anyone-typed = { $p }accept #{ $id }
challenge-direct = Challenge #{ $id }: { $name } challenges { $other } to { $variant } ({ $terms }{ $setup }, { $colors }). { $other }: { $answer } (expires in { $hours } h).
challenge-open = Open challenge #{ $id }: { $name } wants to play { $variant } ({ $terms }{ $setup }, { $colors }). Anyone here: { $anyone } (expires in { $hours } h).
button-accept = Accept
button-decline = Decline
button-withdraw = Withdraw
accept-none = There is no challenge here for you to accept.
accept-which = Several challenges are open ({ $ids }); say which, e.g. { $p }accept { $first }.
challenge-duplicate = Your challenge #{ $id } ({ $variant }) on the same terms is still waiting for an answer; { $p }decline #{ $id } withdraws it.
challenge-closed = Challenge #{ $id } is no longer open.
thread-title = Game #{ $id }: { $white } vs { $black } ({ $variant })
game-starts-relocation = Game #{ $id } starts: { $white } (white) vs { $black } (black), { $variant }, { $clock }. Setup phase: { $black } (black) chooses first: { $p }swap K b (king with the piece on file b), { $p }swap Q h, ... or { $p }noswap.
game-starts = Game #{ $id } starts: { $white } (white) vs { $black } (black), { $variant }{ $setup }, { $clock }. { $mover } (white) to move.
bombs-first = { $ai ->
        [yes] First you choose your secret bomb: I sent you a direct message (capabot has chosen its own).
       *[no] First each player chooses a secret bomb: I sent each of you a direct message.
    }
ai-thinking = Game #{ $id }: capabot is thinking…
decline-open = Challenge #{ $id } is open to anyone here: it cannot be declined, and only { $name } can withdraw it; { $p }accept #{ $id } takes it up.
decline-none-for-you = There is no challenge here for you to decline.
decline-unknown = There is no open challenge #{ $id } here for you to decline or cancel.
decline-none = There is no challenge here for you to decline or cancel.
decline-which = Several challenges are open ({ $ids }); say which, e.g. { $p }decline { $first }.
challenge-ended = Challenge #{ $id } { $status ->
        [declined] declined
       *[cancelled] cancelled
    } by { $name }.
challenge-none = There is no challenge #{ $id }.
challenge-not-here = Challenge #{ $id } is not in this chat.
challenge-not-open = Challenge #{ $id } is no longer open ({ $status }).
challenge-expired = Challenge #{ $id } has expired.
challenge-own = Challenge #{ $id } is your own; { $p }decline #{ $id } cancels it.
challenge-for-other = Challenge #{ $id } is for { $name }, not for you.
challenge-none-open = There is no open challenge #{ $id } here that you can accept.

# Resigning, offers, takebacks, aborting.
game-still-setup = Game #{ $id } is still in its setup phase.
game-already-over = Game #{ $id } is already over.
position-changed-short = Game #{ $id }: the position changed meanwhile; look at { $p }board and try again.
position-changed-retry = Game #{ $id }: the position changed meanwhile; try again.
# How a game's end begins: in a move's answer (the game named before it), or alone.
game-over-head = Game over
game-over-head-numbered = Game #{ $id } is over
draw-already-offered = Game #{ $id }: you already offered a draw; it stands until the next move.
draw-ai-declines = Game #{ $id }: capabot declines the draw and plays on.
draw-offered = Game #{ $id }: { $name } offers a draw. { $other }: { $p }draw to accept, { $p }draw decline to refuse; any move declines.
button-accept-draw = Accept draw
button-decline-draw = Decline draw
takeback-already-asked = Game #{ $id }: you already asked for a takeback; waiting for your opponent.
takeback-nothing = Game #{ $id }: there is no move to take back.
takeback-asked = Game #{ $id }: { $name } asks to take back their last move. { $other }: { $p }takeback to agree, { $p }takeback decline to refuse.
button-allow-takeback = Allow takeback
button-decline-takeback = Decline takeback
button-analyse = Analyse
takeback-nothing-yours = Game #{ $id }: there is no move of yours to take back.
takeback-done = Game #{ $id }: { $count ->
        [one] { $count } move
       *[other] { $count } moves
    } taken back. { $name } ({ $color }) to move.
offer-yours = Game #{ $id }: the { $what ->
        [draw] draw offer is yours; your opponent may accept
       *[takeback] takeback request is yours; your opponent may agree to
    } or decline it.
offer-none = Game #{ $id }: there is no { $what ->
        [draw] draw offer
       *[takeback] takeback request
    } to decline.
offer-gone = Game #{ $id }: the { $what ->
        [draw] draw offer
       *[takeback] takeback request
    } is no longer pending.
offer-declined-wait = Game #{ $id }: your { $what ->
        [draw] draw offer was
       *[takeback] takeback request was
    } declined; you can make it again after the next move.
offer-declined = Game #{ $id }: { $name } declined { $other }'s { $what ->
        [draw] draw offer
       *[takeback] takeback request
    }; the game goes on.
abort-tournament = Game #{ $id } is a tournament game, which cannot be aborted; { $p }resign or { $p }draw instead.
abort-ladder = Game #{ $id } is a ladder game, which cannot be aborted: the challenge is played out; { $p }resign concedes it at any move, or { $p }draw.
abort-too-late = Game #{ $id }: both sides have moved, so it can no longer be aborted; { $p }resign or { $p }draw instead.
game-aborted = Game #{ $id } aborted by { $name }.
game-aborted-unplayed = Game #{ $id } aborted: { $name } resigned before both sides had moved, so the game ends without a result and no rating changes.
game-aborted-timeout = Game #{ $id } aborted: { $name } ran out of time before both sides had moved, so the game ends without a result and no rating changes.

# Capablanca Relocation's setup phase.
swap-no-setup = Game #{ $id } is not in a setup phase; swaps are for Capablanca Relocation before the first move.
swap-unreadable = I can't read the swap '{ $text }'. Write the king or queen and the piece or file to swap with: { $p }swap K b, { $p }swap Q h, { $p }swap KA, or { $p }noswap.
swap-rook = The rooks never move in the swap: swap your king or queen with a knight, archbishop, bishop or chancellor, or the two with each other ({ $p }swap K b, { $p }swap Q h), or keep the array with { $p }noswap.
swap-own-file = Your { $who ->
        [queen] queen
       *[king] king
    } already stands on file { $file }: name the file of the piece to swap it with ({ $p }swap K b, { $p }swap Q h), or keep the array with { $p }noswap.
swap-bishops = Swapping your { $who ->
        [queen] queen
       *[king] king
    } with the bishop on { $file } would put both bishops on squares of one colour, which the rules forbid: choose another piece, or { $p }noswap.
swap-which-knight = You have two knights, on { $first } and { $second }: name the file of the one you mean, e.g. { $example }.
swap-other-chooses = Game #{ $id }: { $name } ({ $color }) chooses the swap now.
swap-already = Game #{ $id }: that swap was already chosen.
swap-setup-over = Game #{ $id }: the setup already ended.
swap-white-chose = Game #{ $id }: White chose { $swap }; setup { $setup }. The game begins: { $name } (white) to move.
swap-black-chose = Game #{ $id }: Black chose { $swap }.
swap-black-chose-next = Game #{ $id }: Black chose { $swap }. { $name } (white): { $p }swap K b, { $p }swap Q h, ... or { $p }noswap.

# The scheduler: time, reminders, expiry.
timeout = Game #{ $id }: { $name } ran out of time. { $end }
reminder = Game #{ $id }: reminder: { $name } ({ $color }) to move, { $hours }h { $minutes }m left.
reminder-setup = Game #{ $id }: reminder: { $name } ({ $color }) to choose the setup: { $p }swap K b, { $p }swap Q h, ... or { $p }noswap, { $hours }h { $minutes }m left; after that, no swap counts.
setup-clock = Time to choose: { $hours }h { $minutes }m; without a choice by then, no swap counts.
setup-timeout = Game #{ $id }: { $name } ({ $color }) did not choose in time, so no swap counts for { $color }.
challenge-expired-notice = { $open ->
        [yes] Your open { $variant } challenge #{ $id } expired unanswered.
       *[no] Your { $variant } challenge #{ $id } to { $name } expired unanswered.
    }
swap-none = no swap

# Looking at games: the board, the list, animations.
variants-head = Variants:
status-setup = setup phase
status-to-move = { $name } ({ $color }) to move
status-finished = finished { $result }
status-aborted = aborted
status-in-progress = in progress
board-head = Game #{ $id }: { $white } (white) vs { $black } (black), { $variant }; { $status }.
time-left = Time left: { $hours }h { $minutes }m.
draw-pending = Draw offered by { $name }.
takeback-pending = Takeback requested by { $name }.
no-games = You have no games. { $direct ->
        [yes] Start one here with { $p }play; people are challenged in a chat you share with them.
       *[no] Start one with { $p }challenge @someone or { $p }play.
    }
games-time-left = , { $hours }h { $minutes }m left
games-line = game #{ $id } { $variant } vs { $other }, move { $number }, { $state ->
        [setup] setup phase
        [bomb] choose your bomb (in a direct message to me)
        [yours] your turn
       *[theirs] their turn
    }{ $here ->
        [here] {""}
       *[elsewhere] { " " }(another chat)
    }
suggest-game = #{ $id } { $variant } vs { $other } — { $state ->
        [setup] setup phase
        [bomb] choose your bomb
        [yours] your move
        [theirs] their move
        [aborted] aborted
       *[finished] { $result }
    }
suggest-challenge = #{ $id } { $kind ->
        [to-you] from { $name }
        [open] from { $name } (open to anyone)
        [yours] yours to { $name }
       *[yours-open] yours (open to anyone)
    } — { $variant }
suggest-tournament = #{ $id } { $name } — { $system ->
        [roundrobin] round robin
        [double] double round robin
       *[swiss] Swiss, { $rounds } rounds
    }, { $variant }, { $status ->
        [registration] registration open
        [running] running
       *[finished] finished
    }
games-challenge-line = challenge #{ $id } from { $name } ({ $variant }): { $p }accept #{ $id }
games-challenge-elsewhere-line = challenge #{ $id } from { $name } ({ $variant }) in another chat: accept or decline it there
games-sent-line = { $open ->
        [yes] your open challenge #{ $id } ({ $variant }), waiting for anyone here
       *[no] your challenge #{ $id } to { $name } ({ $variant }), waiting for their answer
    }: { $p }decline #{ $id } withdraws it
games-none = No games in progress. { $direct ->
        [yes] Start one here with { $p }play; people are challenged in a chat you share with them.
       *[no] Start one with { $p }challenge @someone or { $p }play.
    }
games-head = Your games:
ai-name-level = capabot, level { $level }
pictures-off = Pictures are switched off on this bot; { $p }pgn gives the game as text.
gif-in-setup = Game #{ $id } is still in its setup phase: there is nothing to animate yet.
gif-no-moves = Game #{ $id } has no moves yet: there is nothing to animate.
gif-too-long = Game #{ $id }: the game has { $plies } plies; animations stop at { $max }; { $p }pgn gives it as text.
gif-caption = Game #{ $id }, { $white } (white) vs { $black } (black), { $variant }: { $count ->
        [one] { $count } move
       *[other] { $count } moves
    }, { $state }.
gif-alt = Animated board of game #{ $id }, { $variant }: { $white } (white) vs { $black } (black), one frame per move from the start. Moves: { $moves }. Result: { $state }.

# Secret-bomb chess. $role is a piece's English name (pawn, knight, bishop, rook, queen, king,
# archbishop, chancellor, missile, or piece).
piece-on = the { $role } on { $square }
bomb-not-here = Not here: everyone in this chat can read that. A bomb is chosen in a direct message to me, once per game: say bomb there to see yours, or to choose it if you have not yet. This message chose nothing and changed nothing.
bomb-no-game = You have no secret-bomb game.
bomb-sent-dm = I sent it to your direct messages.
bomb-not-yours = Game #{ $id } is not a secret-bomb game of yours in progress.
bomb-no-game-in-progress = You have no secret-bomb game in progress.
bomb-which = You have { $count } secret-bomb games ({ $ids }); add the number, e.g. bomb { $first } g1.
game-not-in-progress = Game #{ $id } is not in progress.
bomb-already = Game #{ $id }: your bomb is already chosen ({ $piece } at the start); it cannot change.
bomb-not-square = '{ $text }' is not a square: name one like g1.
bomb-bad-square = Game #{ $id }: your bomb must be one of your own pieces other than the king, as they stand at the start; { $square } is not.
bomb-raced = Game #{ $id }: your bomb was chosen meanwhile; say bomb to see it.
bomb-chosen = Game #{ $id }: your bomb is { $piece }. It moves with its piece (a promoted pawn's new piece keeps it). On your turn, instead of a move, detonate it with @ and its square (type @{ $square } while it is there): it and every piece next to it are removed.
bomb-chosen-notice = Game #{ $id }: { $name } ({ $color }) has chosen a secret bomb.
bomb-both-set = Both bombs are set.
bomb-to-move = { $name } to move.
bomb-prompt = Game #{ $id } against { $other } (secret-bomb chess, you play { $color }): choose your secret bomb, one of your pieces other than the king. Nobody else learns which until it explodes or the game ends. Press its button, or answer here with bomb and its square (bomb { $example }). You cannot move before you choose.
bomb-where-now = your bomb started as { $piece } and is on { $square } now
bomb-gone = your bomb ({ $piece } at the start) is gone
bomb-not-chosen = you have not chosen your bomb yet
bomb-own-board = Game #{ $id }: { $state }.
bomb-own-board-alt = Your board in game #{ $id }; { $state }.
bomb-missing = Game #{ $id }: choose your secret bomb before your first move; I sent you the choice in a direct message.
bomb-random-own = Game #{ $id }: your time to choose ran out, so I chose your bomb at random: { $piece }. Your move time starts again.
bomb-random-notice = Game #{ $id }: { $name } ({ $color }) did not choose a bomb in time, so one was chosen at random. { $name } to move.
# A side's bomb as a sentence of its own: bombs-revealed writes them one after the other.
bomb-side-was = { $side ->
        [white] White's
       *[black] Black's
    } was { $piece }
bomb-side-never = { $side ->
        [white] White
       *[black] Black
    } never chose one
bombs-revealed = The bombs, where they started: { $white }. { $black }.

# Why an AI move was dropped (logged, not shown).
ai-game-vanished = game vanished
ai-game-moved-on = the game moved on
game-paused = Game #{ $id } is paused: I can no longer post in its chat (it was deleted, or I was removed). Its clock is stopped. Either of you can go on with `{ $p }move #{ $id } …` in another chat where I am (not in a direct message); its clock starts again once you have both moved there.
game-paused-closed = Game #{ $id } is paused: I may no longer post in its chat (it was locked, or my permission to post there was taken away). Its clock is stopped. Either of you can go on with `{ $p }move #{ $id } …` in another chat where I am (not in a direct message); its clock starts again once you have both moved there.
game-taken-up = The game goes on here; its clock starts again once { $name } has moved here too.
game-paused-not-direct = Game #{ $id } is paused. Go on with it where your opponent can follow: `{ $p }move #{ $id } …` in a chat of a server or space you share, not in a direct message or a private group.

games-moved-here = { $count ->
        [one] Game { $ids } goes on here: its chat was replaced by this one.
       *[other] Games { $ids } go on here: their chat was replaced by this one.
    }

# Computer analysis (`analyse`). Winning chances and accuracy are whole percentages.
analysis-progress = Analysing game #{ $id }: { $done } of { $total } positions…
analysis-head = Analysis of game #{ $id }, { $white } (white) vs { $black } (black), { $variant }, { $result } ({ $nodes } nodes per position).
analysis-again = (analysed before)
analysis-side = { $name } ({ $color }): accuracy { $accuracy }%, { $inaccuracies ->
        [one] 1 inaccuracy
       *[other] { $inaccuracies } inaccuracies
    }, { $mistakes ->
        [one] 1 mistake
       *[other] { $mistakes } mistakes
    }, { $blunders ->
        [one] 1 blunder
       *[other] { $blunders } blunders
    }.
analysis-side-no-moves = { $name } ({ $color }): no moves.
analysis-turning-points = Turning points: { $moves }.
analysis-no-turning-points = No move cost its side 5 percentage points of winning chances or more: no turning points.
analysis-pgn-hint = The annotated game: { $p }pgn #{ $id } analysed
analysis-point = { $label } ({ $color }): winning chances { $before }% → { $after }%; better was { $better }.
analysis-point-alt = The board before { $label }: the move played ({ $played }) as a red arrow, the better move ({ $better }) as a green one.
analysis-chart-alt = Chart of White's winning chances in game #{ $id } after each move, from { $start }% at the start to { $end }% at the end, with { $count ->
        [one] 1 move
       *[other] { $count } moves
    } marked as inaccuracies, mistakes or blunders.
analysis-word-inaccuracy = inaccuracy
analysis-word-mistake = mistake
analysis-word-blunder = blunder
analysis-failed = Game #{ $id } could not be analysed; sorry. Please try again later.
analysis-no-game = You have no game in this chat to analyse; name one with its number, like { $p }analyse #12.
analysis-not-here = Game #{ $id } was not played in this chat: ask for its analysis where it was played.
analysis-unfinished = Game #{ $id } is not finished: only finished games are analysed.
analysis-aborted = Game #{ $id } was aborted: there is nothing to analyse.
analysis-no-moves = Game #{ $id } has no moves: there is nothing to analyse.
analysis-too-long = Game #{ $id } has { $plies } plies; analyses stop at { $max }.
analysis-busy-you = Your analysis is still running: wait for it before asking for another.
analysis-busy-full = capabot is busy with { $count ->
        [one] another analysis
       *[other] { $count } analyses
    } already; please try again in a minute.
analysis-none-yet = Game #{ $id } has not been analysed yet: { $p }analyse #{ $id } first.

rematch-no-game = You have no game over in this chat to play again; name one with its number, like { $p }rematch #12.
rematch-not-here = Game #{ $id } was not played in this chat: ask for the rematch where it was played.
rematch-not-player = You did not play game #{ $id }: only its players can ask for a rematch.
rematch-unfinished = Game #{ $id } is still being played; a rematch can follow once it is over ({ $p }resign #{ $id } or { $p }draw #{ $id } end it sooner).
rematch-already = Your challenge #{ $id } to { $name } is already waiting for an answer; { $p }decline #{ $id } withdraws it.
challenge-in-direct = Only you and I read this chat, so nobody could accept a challenge made here: challenge people in a chat you share with them. Against me, { $p }play works here too.
rematch-playing = Game #{ $id }, the return game of game #{ $game }, is under way: play it first ({ $p }board #{ $id }).
rematch-gone = { $name } can no longer be challenged here.
rematch-of = Rematch of game #{ $game }. { $text }
button-rematch = Rematch
game-end-next = Next: { $p }analyse #{ $id } shows where the game turned, { $p }rematch #{ $id } offers a return game.
game-end-next-rematch = Next: { $p }rematch #{ $id } offers a return game.
