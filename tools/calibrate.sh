#!/usr/bin/env bash
# Level calibration: each level against the one below, alternating colours, random openings.
# Usage: tools/calibrate.sh BINARY GAMES "2:1 3:2 ..." [VARIANT] >> results.md
set -euo pipefail
bin=${1:-target/release/capabot}
games=${2:-100}
pairs=${3:-"2:1 3:2 4:3 5:4 6:5 7:6 8:7"}
variant=${4:-chess}
for pair in $pairs; do
  hi=${pair%:*}
  lo=${pair#*:}
  # Levels keep their own node/time limits; level 8 plays at 1 s per move here.
  "$bin" match --variant "$variant" --games "$games" --movetime 1000 --a "level:$hi" --b "level:$lo" \
    --random-plies 4 --seed "$hi$lo" --max-plies 240 --adjudicate
done
