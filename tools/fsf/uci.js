// Fairy-Stockfish (npm package fairy-stockfish-nnue.wasm) as a plain stdin/stdout UCI engine, so that
// `capabot match --b "uci:node tools/fsf/uci.js"` can play against it. Run tools/fsf/setup.sh first.
"use strict";
const path = require("path");
const readline = require("readline");

// The package's loader tries to fetch the .wasm by URL when fetch exists; under Node read it from disk.
globalThis.fetch = undefined;
const Stockfish = require(path.join(__dirname, "node_modules", "fairy-stockfish-nnue.wasm", "stockfish.js"));

async function main() {
  const engine = await Stockfish();
  engine.addMessageListener((line) => process.stdout.write(line + "\n"));
  const input = readline.createInterface({ input: process.stdin });
  for await (const line of input) {
    const cmd = line.trim();
    if (cmd === "quit") {
      break;
    }
    if (cmd.length > 0) {
      engine.postMessage(cmd);
    }
  }
  engine.postMessage("quit");
  setTimeout(() => process.exit(0), 100);
}

main().catch((err) => {
  process.stderr.write(String(err) + "\n");
  process.exit(1);
});
