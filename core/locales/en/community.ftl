# Communities: linked accounts, ratings, ladders, tournaments.

link-malformed = That is not a link code: codes are 8 letters and digits, like ABCD-EFGH.
link-unknown = That link code is not known: check it, or ask for a new one on the platform you started from.
link-expired = That link code has expired (codes last 10 minutes); ask for a new one.
link-used = That link code has already been used; ask for a new one.
link-same-account = Type the code on your account on the other platform, not on the one that made it.
link-same-platform = Both accounts are on the same platform; a code links accounts on different platforms.
link-already = These accounts are already linked.
link-two-accounts = You already have an account on { $platform } linked; unlink it first to link another.
link-histories-meet = These accounts have played each other or share a ladder or tournament, so they cannot be merged.
link-not-linked = This account is not linked to any other.
link-unknown-account = This account has not used the bot yet.
link-code = Your link code is { $code }. On your other platform send me { $p }link { $code } in a direct message within { $minutes } minutes; it works once. Keep it to yourself: whoever uses it joins their account to yours.
link-not-here = Link codes are for a direct message with me, where nobody else reads them. Others here may have read this one, so it no longer works: make a new one with { $p }link on the platform you started from, and send it to me directly.
link-done = Linked: this { $platform } account and your other account are now one player, { $name }, with all their games. { $p }unlink undoes it.
unlink-done = Unlinked: this { $platform } account is a player of its own again; the shared history stays with your other accounts.

player-fallback = player { $id }
ratings-changed = Ratings: { $white }, { $black }.
ratings-no-move = Not rated: the game ended before both sides had moved.

# Ratings. $scope is community (this community's ratings) or global.
rating-record = { $count ->
        [one] { $count } game
       *[other] { $count } games
    }: +{ $wins } ={ $draws } −{ $losses }
rating-none = { $name } has no rated { $variant } games { $scope ->
        [community] in this community
       *[global] globally
    } yet.
# No variant asked, and none rated: in no variant at all.
rating-none-any = { $name } has no rated games { $scope ->
        [community] in this community
       *[global] anywhere
    } yet, in any variant.
rating-not-met = I have not met { $name } yet: they have played no game with me, so they have no rating.
rating-not-met-self = You have played no game with me yet, so you have no rating.
rating-line = { $name } — { $variant } { $scope ->
        [community] in this community
       *[global] globally
    }: { $rating } (±{ $deviation }), { $record }.
rating-global = Globally { $rating }.
rating-provisional = (? = provisional: too few games yet to be sure.)
leaderboard-empty = No rated { $variant } games { $scope ->
        [community] in this community
       *[global] globally
    } yet.
leaderboard-rated-variants = Rated games here are in { $list }: say { $example }.
leaderboard-head = { $variant } leaderboard { $scope ->
        [community] in this community
       *[global] globally
    }:
leaderboard-nobody = Nobody is established yet (fewer games than needed).
leaderboard-provisional-place = provisional
leaderboard-place = place { $place } of { $count }
leaderboard-place-many = place { $place } of more than { $count }
leaderboard-place-below = below place { $count }
leaderboard-you = You: { $name } { $rating } ({ $place }).
leaderboard-provisional = Provisional: { $names }.
leaderboard-title = { $variant } leaderboard
leaderboard-subtitle = { $scope ->
        [community] this community
       *[global] global
    }
leaderboard-alt = { $title }, { $subtitle }: { $count } ranked players.
leaderboard-alt-many = { $title }, { $subtitle }: more than { $count } ranked players.
history-none = { $whose ->
        [own] You have
       *[other] { $name } has
    } no rated { $variant } games { $scope ->
        [community] in this community
       *[global] globally
    } yet.
history-line = { $name }'s { $variant } rating { $scope ->
        [community] in this community
       *[global] globally
    }: { $first } → { $last } over { $count ->
        [one] { $count } rated game
       *[other] { $count } rated games
    }; highest { $high }.
history-alt = Chart: { $text }

# Ladders.
that-player = that player
ladder-not-on = You are not on this ladder; join it first.
ladder-player-not-on = { $name } is not on this ladder.
ladder-already-on = You are already on this ladder, in place { $place }.
ladder-not-above = You can only challenge players above you: { $name } is in place { $theirs }, you are in place { $yours }.
ladder-too-far = You may challenge at most { $max ->
        [one] { $max } place
       *[other] { $max } places
    } up: { $name } is { $distance } places above you.
ladder-you-have-open = You already have an open ladder challenge with { $name }; finish it before starting another.
ladder-they-have-open = { $name } already has an open ladder challenge; try again when it is over.
ladder-no-challenge = Nobody has challenged you on this ladder.
ladder-no-challenge-own = Nobody has challenged you on this ladder. Your challenge to { $name } waits for their answer; { $p }ladder withdraw takes it back.
ladder-nothing-to-withdraw = You have no pending ladder challenge to withdraw.
ladder-unknown-challenge = There is no ladder challenge number { $id } this season.
ladder-not-played = Ladder challenge { $id } is not being played, so no result can be recorded for it.
ladder-deadline-passed = The time to accept this challenge has passed: it counts as forfeited.
ladder-unknown-event = There is no ladder result { $id } this season; each result is announced with its number, like (ladder result 2).
ladder-already-undone = Ladder result { $id } has already been undone.
ladder-reason-required = Say why the result is undone; the reason is kept in the history.
ladder-corrupt = The stored ladder is inconsistent: { $detail }
n-days = { $count ->
        [one] { $count } day
       *[other] { $count } days
    }
n-places = { $count ->
        [one] { $count } place
       *[other] { $count } places
    }
ladder-no-community = Ladders belong to a community (a server or space); this chat is in none.
interaction-only-no-ladders = Ladders are not available here: I take part in this chat only through your commands, and a ladder's standings and challenges are posted without one. Add me to a server to play a ladder there.
interaction-only-no-tournaments = Tournaments are not available here: I take part in this chat only through your commands, and a tournament's rounds and pairings are posted without one. Add me to a server to hold a tournament there.
ladder-admins-only = Sorry, only the community's administrators may do that with a ladder.
ladder-none-yet = This community has no ladder yet; an administrator can make one with { $p }ladder create chess.
ladder-exists = This community already has a { $variant } ladder.
ladder-created = The { $variant } ladder is open: { $days } per move, challenges up to { $reach } up, { $wait } to accept. Join with { $p }ladder join.
ladder-joined = { $name } joins the { $ladder } ladder in place { $place }.
ladder-left = { $name } leaves the { $ladder } ladder.
ladder-left-forfeit = The open ladder challenge between { $name } and { $other } counts as lost by { $name }. { $effect }
ladder-left-withdrawn = The challenge of { $name } to { $other } is withdrawn.
ladder-remove-whom = Say whom to remove, e.g. { $p }ladder remove @bob.
ladder-removed = { $name } is removed from the { $ladder } ladder by an administrator.
ladder-undone = Ladder result { $event } of the { $ladder } ladder ({ $what }) is undone by an administrator (reason: { $reason }).
ladder-undone-what = { $challenger } against { $challenged }: { $result ->
        [challenger] a win for { $challenger }
        [challenged] a win for { $challenged }
        [challenger-forfeit] forfeited by { $challenged }
        [challenged-forfeit] forfeited by { $challenger }
       *[draw] a draw
    }
ladder-undone-game-stays = Game #{ $id } and its rating changes stay as they were; only the ladder forgets the result.
ladder-season-closed = Season { $number } of the { $ladder } ladder is closed and its final standings archived ({ $p }ladder season { $number }). Season { $next } opens with the same order; open ladder challenges are cancelled.
ladder-no-season = The { $ladder } ladder has no closed season { $number }; it is in season { $current }.
ladder-season-head = { $ladder } ladder, season { $number } (closed), final standings:
ladder-season-empty = Nobody stood on it.
ladder-no-such = This community has no { $variant } ladder.
ladder-which = This community has several ladders ({ $names }); add the variant.
ladder-standings-head = { $ladder } ladder, season { $season } ({ $days } per move, challenge up to { $reach } up, { $wait } to accept):
ladder-state-game = game #{ $id }
ladder-state-accepted = accepted
ladder-state-waiting = waiting for an answer
ladder-standings-challenge = { " " }— { $dir ->
        [challenges] challenges
       *[challenged] challenged by
    } { $name } ({ $state })
ladder-standings-empty = Nobody is on it yet: { $p }ladder join { $variant }.
ladder-challenge-whom = Say whom you challenge, e.g. { $p }ladder challenge @bob.
ladder-challenge = Ladder challenge #{ $id }: { $name } (place { $place }) challenges { $other } (place { $other_place }) on the { $variant } ladder. { $other }: { $p }accept #{ $id } or { $p }decline #{ $id } within { $wait }; declining or not answering counts as a win for { $name }.
ladder-withdrawn = { $name } withdraws their { $ladder } ladder challenge.
ladder-declined = { $name } declines the { $ladder } ladder challenge of { $other }, which counts as forfeited. { $effect }
ladder-accepted = { $name } accepts the { $ladder } ladder challenge of { $other }.
ladder-climbed = { $name } takes place { $place } from { $other }.
ladder-unchanged = The standings stay as they are.
ladder-note-draw = a draw changes nothing.
ladder-note-unchanged = the standings stay as they are.
ladder-note = Ladder: { $line }
ladder-result-tag = (ladder result { $event })
ladder-forfeit = Ladder: { $name } did not accept the { $ladder } ladder challenge of { $other } in time, which counts as forfeited. { $effect }

# Tournaments.
swiss-too-few = A Swiss tournament needs at least two players.
swiss-duplicate = A player is registered twice.
swiss-too-many-rounds = { $rounds } rounds is too many: with this many players there can be at most { $max }.
swiss-round-incomplete = Round { $round } is not over yet: the next round is paired when all its games are finished.
swiss-finished = All rounds have been played: the tournament is over.
swiss-unknown-player = A round names a player who is not in the tournament.
swiss-no-pairing = No pairing is possible without two players meeting a second time or the colours falling out of balance: the tournament has to end here.
tournament-unknown = There is no such tournament.
tournament-not-registering = Registration for this tournament has closed.
tournament-already-registered = You are already registered for this tournament.
tournament-not-registered = You are not registered for this tournament.
tournament-too-few = A tournament needs at least two players to start.
tournament-seeds-mismatch = The seed list must name every registered player once.
tournament-not-running = This tournament is not running.
tournament-nothing-to-pair = A round robin has all its rounds from the start.
tournament-unknown-board = Round { $round } has no board { $board }.
tournament-already-decided = The game on board { $board } of round { $round } already has a result.
n-players = { $count ->
        [one] { $count } player
       *[other] { $count } players
    }
system-roundrobin = round robin
system-double = double round robin
system-swiss = Swiss, { $rounds ->
        [one] { $rounds } round
       *[other] { $rounds } rounds
    }
system-swiss-auto = Swiss (rounds set by the number of players)
system-swiss-plain = Swiss
in-minutes = in { $count ->
        [one] { $count } minute
       *[other] { $count } minutes
    }
in-hours = in { $count ->
        [one] { $count } hour
       *[other] { $count } hours
    }
in-days-hours = in { $days ->
        [one] { $days } day
       *[other] { $days } days
    }{ $hours ->
        [0] {""}
        [one] { " " }{ $hours } hour
       *[other] { " " }{ $hours } hours
    }
result-playing = playing
tournament-no-community = Tournaments belong to a community (a server or space); this chat is in none.
tournament-admins-only = Sorry, only the community's administrators may create, start or cancel a tournament.
tournament-rounds-so-far = { $name } has { $count ->
        [one] { $count } round
       *[other] { $count } rounds
    } so far.
tournament-default-name = { $variant } { $kind ->
        [swiss] Swiss
       *[roundrobin] Round Robin
    }
tournament-start-by-hand = An administrator starts it with { $p }tournament #{ $id } start.
tournament-start-by-itself = Registration closes and the tournament starts by itself { $when } (an administrator may start it sooner with { $p }tournament #{ $id } start).
tournament-created = Tournament #{ $id }, { $name }: { $variant }, { $system }, { $days } per move. Join with { $p }tournament #{ $id } join. { $start }
button-join = Join
tournament-joined = { $name } joins { $tournament } (#{ $id }); { $players } registered.
tournament-leave-running = { $tournament } (#{ $id }) has begun: leaving it now is a withdrawal. Your unfinished games in it are lost and later rounds do not pair you. To withdraw, say { $p }tournament #{ $id } withdraw.
tournament-left = { $name } leaves { $tournament } (#{ $id }).
tournament-started = { $tournament } has started.
tournament-cannot-cancel = { $tournament } has started; a running tournament cannot be cancelled. It ends when its rounds are played. A player who wants to stop says { $p }tournament #{ $id } withdraw (their games left are lost by forfeit, and later rounds do not pair them).
tournament-begun = { $tournament } (#{ $id }) has begun: its registration has closed.
tournament-cannot-cancel-over = { $tournament } is over; there is nothing left to cancel.
tournament-cancelled = Tournament #{ $id } ({ $tournament }) is cancelled by an administrator.
tournament-no-such = This community has no tournament #{ $id }.
tournament-none = There is no tournament #{ $id }.
tournament-none-open = No tournament of this community is open for registration; { $p }tournament lists them.
tournament-none-yet = This community has no tournament yet; an administrator can make one with { $p }tournament create swiss capatomic.
tournament-which = There are several tournaments here ({ $names }); say which one, e.g. { $example }.
tournaments-head = Tournaments:
tournament-state-signup-until = registration, { $players } so far, starts { $when }
tournament-state-signup = registration, { $players } so far
tournament-state-running = running, { $players }
tournament-state-finished = finished
tournaments-details = Details: { $p }tournament #N.
tournament-head = Tournament #{ $id } { $name }: { $variant }, { $system }, { $days } per move.
tournament-registration-until = Registration is open; it starts { $when }.
tournament-registration-by-hand = Registration is open; an administrator starts it.
tournament-players-head = Players ({ $count }):
tournament-nobody-yet = Nobody yet: { $p }tournament #{ $id } join.
standings-head = { $kind ->
        [final] Final standings
       *[current] Standings
    }:
round-head = Round { $number } of { $total }:
round-game = { " " }(game #{ $id })
round-board = Board { $board }: { $white } – { $black }{ $game }: { $result }
round-bye = Bye: { $name } ({ $points } { $one ->
        [one] point
       *[other] points
    })
tournament-result = Tournament #{ $id } { $name }: the result stands on board { $board } of round { $round }
tournament-result-last = ; that was the last game, the final standings follow.
tournament-result-next = ; round { $round } is complete and round { $next } is paired.
tournament-not-started = Tournament #{ $id } { $name }: registration has closed with { $players }, so it did not start ({ $reason }). An administrator may start it once more have joined, or cancel it.
tournament-starts = Tournament #{ $id } { $name } starts with { $players }. Play your games here ({ $p }move #N ...); { $days } per move.
tournament-rounds-cut = It plays { $rounds ->
        [one] one round
       *[other] { $rounds } rounds
    }, not the { $asked } asked for: { $players } players can play no more without meeting twice.
tournament-round-paired = Tournament #{ $id } { $name }: round { $round } is paired.
tournament-bombs-first = Secret-bomb chess: before their first move in each game, each player chooses a secret bomb; I sent every player a direct message for each of their games.
tournament-setup-first = { $variant }: each game begins with its setup phase, Black choosing first, then White ({ $p }swap K b, { $p }swap Q h, ... or { $p }noswap), { $days } each; a side that does not choose in time keeps no swap.
tournament-over = Tournament #{ $id } { $name } is over. Final standings:
tournament-congratulations = Congratulations, { $name }!

# Words drawn on the rating pictures.
picture-player = PLAYER
picture-rating = RATING
picture-games = GAMES
picture-record = W / D / L
picture-no-established = No established ratings yet
picture-provisional-section = Provisional
picture-no-games = No rated games yet
picture-provisional = provisional
picture-month = { $month ->
        [jan] Jan
        [feb] Feb
        [mar] Mar
        [apr] Apr
        [may] May
        [jun] Jun
        [jul] Jul
        [aug] Aug
        [sep] Sep
        [oct] Oct
        [nov] Nov
       *[dec] Dec
    }
tournament-rounds-all = { $name } { $over ->
        [yes] had
       *[no] has
    } { $count ->
        [one] { $count } round
       *[other] { $count } rounds
    }: round 1{ $count ->
        [one] {""}
       *[other] { " " }to { $count }
    }.
tournament-already-withdrawn = You have withdrawn from this tournament already.
tournament-not-in = You are not a player of { $tournament } (#{ $id }).
tournament-over-leave = { $tournament } (#{ $id }) is over; there is nothing left to leave.
tournament-in-none = You are in no tournament of this community that is open or running.
button-tournament-withdraw = Withdraw
tournament-withdrew = { $name } withdraws from tournament #{ $id } { $tournament }.
tournament-withdrew-void = { $name } completed fewer than half of their games, so by FIDE's rule their results are not counted in the standings (the crosstable keeps them).
tournament-withdrew-counted = { $name } completed at least half of their games: their results stand, and their games left are lost by forfeit.
tournament-withdrew-swiss = { $name } keeps the points scored; later rounds do not pair them.
tournament-ended-early = ; no further round can be paired (the players left are too few or have all met), so round { $round } was the last: the final standings follow.
standings-withdrawn = withdrawn
standings-void = withdrawn, results not counted
crosstable-head = Tournament #{ $id } { $name }: crosstable (+ and − are games won and lost by forfeit, before both sides moved; · one still being played).
crosstable-not-started = { $name } (#{ $id }) has not started: there are no games to show yet.
crosstable-cut = The first { $shown } of { $count } players are shown.
crosstable-cut-web = The first { $shown } of { $count } players are shown; the whole table is on the community's page: { $url }
crosstable-points = Pts
crosstable-bye = Bye
