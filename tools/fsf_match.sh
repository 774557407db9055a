#!/usr/bin/env bash
# capabot level 8 against Fairy-Stockfish (tools/fsf, run tools/fsf/setup.sh first) at equal time per move.
# BINARY is the laboratory binary (default or empty: tools/lab_bin.sh builds target/release/lab).
# Usage: tools/fsf_match.sh BINARY GAMES MOVETIME SKILL "chess capablanca ..." [CONCURRENCY [SEED]] >> results.md
set -euo pipefail
bin=${1:-$("$(dirname "$0")/lab_bin.sh")}
games=${2:-4}
mt=${3:-1000}
skill=${4:-10}
variants=${5:-"chess capablanca caparandom atomic"}
conc=${6:-1}
seed=${7:-1}
here=$(cd "$(dirname "$0")" && pwd)
for v in $variants; do
  "$bin" match --variant "$v" --games "$games" --movetime "$mt" --a level:8 \
    --b "uci:node $here/fsf/uci.js@$skill" --random-plies 2 --max-plies 300 --adjudicate --concurrency "$conc" \
    --seed "$seed"
done
