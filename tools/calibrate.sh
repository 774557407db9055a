#!/usr/bin/env bash
# Level calibration: each level against the one below, alternating colours, random openings, adjudication.
# BINARY is the laboratory binary (default or empty: tools/lab_bin.sh builds target/release/lab).
# Usage: tools/calibrate.sh BINARY GAMES "2:1 3:2 ..." [VARIANT] [MOVETIME] [CONCURRENCY] >> results.md
# With MOVETIME at or above a level's time cap the level keeps its own limits (levels 1-7 stop on depth or
# nodes); below it, the level plays at MOVETIME per move (used for level 8).
set -euo pipefail
bin=${1:-$("$(dirname "$0")/lab_bin.sh")}
games=${2:-100}
pairs=${3:-"2:1 3:2 4:3 5:4 6:5 7:6 8:7"}
variant=${4:-chess}
mt=${5:-5000}
conc=${6:-1}
for pair in $pairs; do
  hi=${pair%:*}
  lo=${pair#*:}
  "$bin" match --variant "$variant" --games "$games" --movetime "$mt" --a "level:$hi" --b "level:$lo" \
    --random-plies 4 --seed "$hi$lo" --max-plies 240 --adjudicate --concurrency "$conc"
done
