#!/usr/bin/env bash
# Records the engine's profile for profile-guided optimisation: engine/pgo/engine.profdata, which
# every optimised build of the engine then uses (tools/rustc-pgo). Run it after changing the engine's
# hot code (a function whose code changed is compiled without its counts until then, as if there were
# no profile; `CAPABOT_PGO=check cargo build --release` lists such functions), and commit the new
# profile with its change.
#
# It builds the laboratory with the engine's functions counted (target/pgo-generate, about 5 minutes
# cold), runs the engine's work in it — searches and analyses of games unlike the benchmarks' own, perft,
# chat lines read as moves, board pictures and animations, in every kind of variant — and merges the
# counts. LLVM's `llvm-profdata` of the toolchain's own version comes from rustup's `llvm-tools`.
set -euo pipefail
cd "$(dirname "$0")/.."

sysroot=$(rustc --print sysroot)
host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$sysroot/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
    rustup component add llvm-tools
fi

raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
CAPABOT_PGO="generate:$raw" CARGO_TARGET_DIR=target/pgo-generate \
    cargo build --release -p capabot-lab --no-default-features
lab=target/pgo-generate/release/lab

# Searches: games between two equal levels at fixed nodes (other openings than the benchmarks').
export LLVM_PROFILE_FILE="$raw/search/%m_%p.profraw"
for v in chess capablanca capatomic atomic stones; do
    "$lab" match --variant "$v" --games 2 --a level:6 --b level:6 --a-nodes 60000 --b-nodes 60000 \
        --seed 77 --max-plies 120
done
# Analyses (the benchmark's chess game is left out: its positions are the measure), and the rules'
# move generation.
"$lab" bench-analysis --runs 1 --games capablanca:40 capatomic:40 atomic:30
"$lab" bench --runs 1
# The notation and the pictures: boards of every variant, played positions, an animation. Their
# loops count far fewer runs than the search's, and they are weighted ten times lower still, so that
# they are optimised as code that runs, without moving what the profile calls the hottest code.
export LLVM_PROFILE_FILE="$raw/media/%m_%p.profraw"
"$lab" bench-chatter --runs 1 --lines 5000
"$lab" bench-render --runs 20
"$lab" bench-render --games 2 --plies 20
"$lab" bench-gif --runs 1 --plies 60

"$profdata" merge -o "$raw/search.profdata" "$raw"/search/*.profraw
"$profdata" merge -o "$raw/media.profdata" "$raw"/media/*.profraw
"$profdata" merge -o engine/pgo/engine.profdata \
    -weighted-input=10,"$raw/search.profdata" -weighted-input=1,"$raw/media.profdata"
ls -l engine/pgo/engine.profdata
