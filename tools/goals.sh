#!/usr/bin/env bash
# Every playing goal of the AI measured side by side in one run, with one build, one after another on the
# same machine: capabot's level 8 against the random and greedy movers in every variant, against
# Fairy-Stockfish at Skill Level 10 and at full strength (Skill Level 20) at equal time per move, the
# search speed from each start position, and how far past a fixed time per move searches return. Prints one Markdown table row per match (see `lab match`).
# BINARY is the laboratory binary (default or empty: tools/lab_bin.sh builds target/release/lab).
# Run tools/fsf/setup.sh first. Usage:
#   tools/goals.sh BINARY [SKILL10_GAMES [FULL_GAMES [MOVETIME [SWEEP_GAMES [SWEEP_MOVETIME [CONCURRENCY]]]]]] > goals.md
set -euo pipefail
bin=${1:-$("$(dirname "$0")/lab_bin.sh")}
skill10_games=${2:-20}
full_games=${3:-4}
mt=${4:-1000}
sweep_games=${5:-10}
sweep_mt=${6:-100}
conc=${7:-2}
here=$(cd "$(dirname "$0")" && pwd)
echo "# capabot goals run, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git -C "$here" rev-parse --short HEAD), $(nproc) cores"
echo
echo "| variant | A | B | time/move | games | +win =draw -loss | score | Elo | A avg depth | A nps | wall |"
echo "|---|---|---|---|---:|---|---:|---:|---:|---:|---:|"
"$here/sweep.sh" "$bin" "$sweep_games" "$sweep_mt" "$conc" 3
"$here/fsf_match.sh" "$bin" "$skill10_games" "$mt" 10 "chess capablanca caparandom atomic" "$conc" 31
"$here/fsf_match.sh" "$bin" "$full_games" "$mt" 20 "chess capablanca caparandom atomic" "$conc" 31
echo
echo '```'
"$bin" bench-ai --movetime "$mt"
echo
"$bin" bench-deadline --movetime 200 --searches 30
echo '```'
