#!/usr/bin/env bash
# capabot (level 8 at MOVETIME ms) against the random and greedy movers in every variant.
# BINARY is the laboratory binary (default or empty: tools/lab_bin.sh builds target/release/lab).
# Usage: tools/sweep.sh BINARY GAMES MOVETIME [CONCURRENCY [SEED]] >> results.md
set -euo pipefail
bin=${1:-$("$(dirname "$0")/lab_bin.sh")}
games=${2:-10}
mt=${3:-100}
conc=${4:-1}
seed=${5:-1}
for v in chess capablanca caparandom caparelocation stones atomic capatomic; do
  for opp in random greedy; do
    "$bin" match --variant "$v" --games "$games" --movetime "$mt" --a level:8 --b "$opp" --random-plies 2 --max-plies 400 \
      --concurrency "$conc" --seed "$seed"
  done
done
