#!/usr/bin/env bash
# Installs Fairy-Stockfish (npm package fairy-stockfish-nnue.wasm) for tools/fsf/uci.js.
set -euo pipefail
cd "$(dirname "$0")"
npm install --no-audit --no-fund
