#!/usr/bin/env bash
# Builds the laboratory binary `lab` (release profile) and prints its path, for the match and speed scripts
# here, which run `lab match`, `lab bench-ai` and `lab bench-deadline`. Usage: bin=$(tools/lab_bin.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo build --release --quiet -p capabot-lab --bin lab >&2
echo "$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)/lab"
