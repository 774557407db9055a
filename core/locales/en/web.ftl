# The web pages (src/web): titles, headings, labels.
web-site = capabot
web-home-title = chess variants in your chat
web-home-text = capabot plays chess variants with the people of Discord servers and Matrix rooms: challenges, moves typed or clicked, a picture of the board after each, ratings, ladders and tournaments, and a computer analysis after the game. A community that chose to be on the web has a page here, and each of its games one, linked from the chat where they are played (say web there); nothing is listed here.
web-home-variants = The variants
web-game-title = { $white } vs { $black }, { $variant }
web-game-heading = { $white } vs { $black }
web-white = White
web-black = Black
web-rated = rated
web-casual = casual
web-moves = Moves
web-no-moves = No moves yet.
web-board-after = Board after { $move }
web-board-start = Board at the start
web-first = First
web-previous = Previous
web-next = Next
web-last = Latest
web-keys = Arrow keys step through the moves.
web-days-left = { $days ->
        [0] Less than a day left to move.
        [one] One day left to move.
       *[other] { $days } days left to move.
    }
web-downloads = Downloads
web-pgn = PGN
web-gif = Animation (GIF)
web-pgn-analysed = PGN with the analysis
web-analysis = Computer analysis
web-analysis-head = By capabot's engine, { $nodes } nodes per position.
web-analysis-ask = None yet: anyone in the chat where this game was played can ask for one there: { $command }. It shows here too once it is made.
web-analysis-marked = Inaccuracies (?!), mistakes (?) and blunders (??)
web-analysis-none-marked = Nobody made a mistake the engine saw.
web-live = Live: moves appear here as they are played.
web-community-title = Community { $id }
web-leaderboards = Leaderboards
web-leaderboard = { $variant }
web-place = Place
web-player = Player
web-rating = Rating
web-games = Games
web-provisional = Provisional
web-nobody = Nobody is established yet.
web-ladders = Ladders
web-ladder = { $variant } ladder, season { $season }
web-open-challenges = Open challenges
web-challenge = { $challenger } challenged { $challenged }{ $accepted ->
        [yes] { " " }(accepted)
       *[no] {""}
    }
web-seasons-closed = Seasons closed
web-season-closed = { $variant }, season { $season }
web-older-seasons = { $count ->
        [one] One older season is not shown.
       *[other] { $amount } older seasons are not shown.
    }
web-more-open-tournaments = { $count ->
        [one] One more tournament under way is not shown here; the chat lists them all (tournament).
       *[other] { $amount } more tournaments under way are not shown here; the chat lists them all (tournament).
    }
web-more-open-tournaments-many = More than { $count } other tournaments under way are not shown here; the chat lists them all (tournament).
web-older-tournaments = { $count ->
        [one] One older finished tournament is not shown.
       *[other] { $amount } older finished tournaments are not shown.
    }
web-older-tournaments-many = More than { $count } older finished tournaments are not shown.
web-tournaments = Tournaments
web-tournament = { $name } ({ $variant }, { $status ->
        [registration] registration open
        [running] running
       *[finished] finished
    })
web-standings = Standings
web-score = Score
web-crosstable = Crosstable
web-round = Round { $number }
web-result = Result
web-bye = Bye: { $name }
web-recent = Recent games
web-game = Game
web-opponent = Opponent
web-variant = Variant
web-state = State
web-none = Nothing yet.
web-ratings = Ratings
web-history = Rating history
web-history-alt = Rating history chart of { $name } in { $variant }.
web-not-found = Not found
web-not-found-text = There is nothing here, or it is not public.
web-bad-request = Bad request
web-bad-request-text = This address is not one capabot makes.
web-too-many = Too many requests
web-too-many-text = Slow down a little and try again.
web-failed = Something went wrong
web-failed-text = This page could not be made. Please try again later.
