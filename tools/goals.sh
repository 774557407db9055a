#!/usr/bin/env bash
# Every playing goal of the AI measured side by side in one run, with one build, one after another on the
# same machine: capabot's level 8 against the random and greedy movers in every variant, against
# Fairy-Stockfish at Skill Level 10 and at full strength (Skill Level 20) at equal time per move, and the
# search speed from each start position. Prints one Markdown table row per match (see `capabot match`).
# Run tools/fsf/setup.sh first. Usage:
#   tools/goals.sh BINARY [SKILL10_GAMES [FULL_GAMES [MOVETIME [SWEEP_GAMES [SWEEP_MOVETIME [CONCURRENCY]]]]]] > goals.md
set -euo pipefail
bin=${1:-target/release/capabot}
skill10_games=${2:-20}
full_games=${3:-4}
mt=${4:-1000}
sweep_games=${5:-10}
sweep_mt=${6:-100}
conc=${7:-2}
here=$(cd "$(dirname "$0")" && pwd)
fsf="uci:node $here/fsf/uci.js"

echo "# capabot goals run, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git -C "$here" rev-parse --short HEAD), $(nproc) cores"
echo
echo "| variant | A | B | time/move | games | +win =draw -loss | score | Elo | A avg depth | A nps | wall |"
echo "|---|---|---|---|---:|---|---:|---:|---:|---:|---:|"
for v in chess capablanca caparandom caparelocation stones atomic capatomic; do
  for opp in random greedy; do
    "$bin" match --variant "$v" --games "$sweep_games" --movetime "$sweep_mt" --a level:8 --b "$opp" \
      --random-plies 2 --max-plies 400 --seed 3 --concurrency "$conc" | grep '^|'
  done
done
for skill in 10 20; do
  games=$skill10_games
  [ "$skill" = 20 ] && games=$full_games
  for v in chess capablanca caparandom atomic; do
    "$bin" match --variant "$v" --games "$games" --movetime "$mt" --a level:8 --b "$fsf@$skill" \
      --random-plies 2 --max-plies 300 --adjudicate --seed 31 --concurrency "$conc" | grep '^|'
  done
done
echo
echo '```'
"$bin" bench-ai --movetime "$mt"
echo '```'
