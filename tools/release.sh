#!/usr/bin/env bash
# The shipped binary: the whole product built with the release profile, then split in three files
# in target/release/dist/:
#   capabot        the program without debug information or symbol table (about 72 MB), naming
#                  capabot.debug in its `.gnu_debuglink` section;
#   capabot.debug  its line tables and symbols (objcopy --only-keep-debug);
#   capabot.dwp    the rest of capabot's own debug information (the release profile's split DWARF).
# Installed side by side (as deploy/capabot.service does), a backtrace names function, file and line as
# before; the program alone still runs and names file and line in a panic's message.
# Arguments go to cargo (`tools/release.sh --no-default-features`).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --locked "$@"
dist=target/release/dist
rm -rf "$dist"
mkdir -p "$dist"
cp target/release/capabot "$dist/capabot"
if [ -f target/release/capabot.dwp ]; then
    cp target/release/capabot.dwp "$dist/capabot.dwp"
fi
cd "$dist"
objcopy --only-keep-debug capabot capabot.debug
objcopy --strip-all --add-gnu-debuglink=capabot.debug capabot
ls -l
