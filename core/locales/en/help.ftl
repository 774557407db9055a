# Help and rules pages. $p is how a command is written here.

help-head-slash = Commands: type / and pick one from the list; its options are then shown for you to fill in. Where an answer of mine has buttons, pressing one does the same as its command:
help-head = Commands (prefix { $p }):
help-head-direct = Commands (here every line is for me, so no prefix is needed):
help-example = , e.g. { $p }{ $example }
help-one-aliases = Also: { $aliases }
help-one-options = Options:
help-one-subcommands = Subcommands:
help-one-foot = { $p }help lists every command.
help-foot = Days per move: 1, 2, 3, 5, 7, 10, 14 or none. Moves: { $moves }, Me1^e5 (a Capatomic launch), O-O[e1,g1] (castling with missiles), @e4 or boom e4 (a secret bomb's detonation). { $p }variants, { $p }rules capatomic. Language: { $p }lang tr (Türkçe), { $p }lang de (Deutsch) or { $p }lang en.

# A variant's rules page: its name, then the page below.
rules-page = { $variant }: { $page }
rules-chess = Standard chess (FIDE rules): checkmate wins; stalemate, threefold repetition, the fifty-move rule and dead positions draw.
rules-capablanca = Chess on a 10×8 board with two new pieces: the archbishop (A, bishop + knight) and the chancellor (C, rook + knight). Array RNABQKBCNR. Castling puts the king on i1/c1 and the rook on h1/d1. Pawns promote to Q, C, A, R, B or N.
rules-caparandom = Capablanca chess from one of 21,836 shuffled back ranks: bishops on opposite colours, queen and archbishop on opposite colours, king between the rooks, every pawn defended. Castling ends on the usual squares (king i1/c1, rook h1/d1); type it as O-O / O-O-O or king onto rook.
rules-caparelocation = Capablanca chess where, before move 1, Black and then White may swap their king or queen with another non-rook piece (bishops must stay on opposite colours): 12 choices each, 144 positions. The king keeps its castling rights wherever it stands; castling ends on the usual squares (king i1/c1, rook h1/d1).
rules-stones = Chess on a 10×8 board with two archbishops (bishop + knight), array RNABQKBANR. The king slides three squares when castling (to i1 or c1, rook to h1 or d1). Pawns promote to Q, A, R, B or N.
rules-atomic = Chess where every capture explodes: the captured piece, the capturing piece and every piece except pawns on the eight squares around are removed. Blowing up the enemy king wins at once; kings cannot capture; a move that blows up your own king is illegal; kings that touch cannot give check to each other.
rules-capatomic = 10×10 Capablanca Random Chess with two missiles (M) per side behind the king. A missile steps like a king, or — once any non-pawn piece has been captured — may be launched at any square outside the kings' shields (3×3 around each king), written Me1^e5, as long as no enemy piece attacks the missile itself: everything in the 3×3 blast is removed except shielded squares, and the target square is irradiated for good (nothing may stand on or pass through it; knight leaps jump over). Missiles that have never moved may come along when castling, keeping their places beside the king: O-O[e1,g1] brings both, O-O[g1] one. Pawns start on rank 3 and promote on rank 9 to Q C A R B N or M.
rules-atomic-nocheck = Atomic chess without check (the Internet Chess Club's rules): any move is allowed that does not blow up your own king, so a king may walk next to or into attack, and a king left attacked may be captured, which explodes it. Kings never capture. Only exploding the enemy king wins; no legal move is stalemate.
rules-atomic-deathmatch = Atomic chess where a capture that blows up both kings at once is legal: the game then goes on without kings (no check) until one side has no pieces or pawns left, and that side loses; an empty board, or a kingless side with no legal move, is a draw. Blowing up only your own king stays illegal.
rules-atomic-pawnsafe = Atomic chess where pawns do not set off explosions: a capture by a pawn (en passant and promotion included) is an ordinary capture. Captures by pieces explode as usual, and the explosion destroys every piece on the eight squares around, pawns included. Check as in atomic.
rules-bomb = Chess where each side secretly names one of its pieces other than the king (pawns allowed) as its bomb before its first move. Instead of moving you may detonate it (@e4 or boom e4): the bomb and every piece on the eight squares around, of both colours, are removed. Removing the enemy king wins, only your own loses, both draws; in check a detonation must leave your king alive and safe. A captured bomb is gone; a promoted bomb pawn's new piece is the bomb.

# How each command is written after its name, in help: the words typed stay as they are typed;
# the placeholders (variant, game, move…) are the reader's.
usage-challenge = [@user] [variant] [days:N] [color:white|black|random] [setup:N] [casual]
usage-play = [variant] [level:1-8] [days:N] [color:C] [setup:N]
usage-accept = [#id]
usage-decline = [#id]
usage-move = [#game] <move>
usage-board = [#game]
usage-resign = [#game]
usage-draw = [#game] [decline]
usage-takeback = [#game] [decline]
usage-abort = [#game]
usage-fen = [#game]
usage-pgn = [#game] [analysed]
usage-analyse = [#game]
usage-gif = [#game]
usage-rematch = [#game]
usage-swap = [#game] <K|Q> <file or piece>
usage-noswap = [#game]
usage-moves = [#game] [square]
usage-bomb = [#game] [square]
usage-rules = [variant]
usage-settings = [community] [prefix:?] [variant:NAME] [days:N] [thread:on|off] [gif:on|off] [theme:wood|green|contrast] [lang:en|tr|de] [rated:choice|always|never] [web:on|off] (each also :default)
usage-notify = [on|off]
usage-lang = [en|tr|de|default]
usage-theme = [wood|green|contrast|default]
usage-rating = [@user] [variant|all] [global]
usage-leaderboard = [variant] [global]
usage-history = [@user] [variant] [global]
usage-link = [CODE]
usage-ladder = [standings|join|leave|challenge @user|accept|decline|withdraw|create|remove @user|undo N reason|season close|season N] [variant]
usage-tournament = [#N] [standings|round N|crosstable|join|leave|withdraw|create|start|cancel] (create: [roundrobin|double|swiss] [variant] [rounds:N] [days:N] [signup:N] [name])
usage-help = [command]
