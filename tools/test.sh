#!/usr/bin/env bash
# Every test of the workspace, product and laboratory: the README's test command and `.ci/run`'s.
#
# It is `cargo test --profile ci --workspace --tests --no-fail-fast` run in two lanes. cargo runs one
# test binary after another, and the Discord binary spends most of its time waiting (on the fake
# Discord's rate limits, retries and time limits: about 225 s for 110 CPU-seconds) while a core sits
# idle; so, once the tests are built, it runs beside the others (the first lane: every other library
# and test target of the workspace, its output shown as it comes), and its output follows theirs.
# Both lanes select the same packages, features and profile as `--workspace --tests`, so the build
# is the same and is done once.
#
# `CAPABOT_TEST_LANES=1` runs the same targets in one lane, one binary after another.
# After the lanes have started running (their cargo has released the build directory's lock), the
# script touches `target/test-lanes/running`: `.ci/run` waits for it before it starts its lints.
set -uo pipefail
cd "$(dirname "$0")/.."

base=(cargo test --profile ci --workspace --no-fail-fast)
# The Discord binary's lane of its own.
side=discord

# The workspace's targets that `--tests` selects (those with `test = true`), as cargo options:
# `--lib` for the libraries, `--test NAME` / `--bin NAME` for the rest; the side lane's left out.
main_targets=$(cargo metadata --no-deps --format-version 1 | python3 -c '
import json, sys
side = sys.argv[1]
opts = set()
for package in json.load(sys.stdin)["packages"]:
    for target in package["targets"]:
        if not target.get("test"):
            continue
        kind, name = target["kind"][0], target["name"]
        if kind == "lib":
            opts.add("--lib")
        elif kind in ("test", "bin") and name != side:
            opts.add(f"--{kind} {name}")
        elif name != side:
            sys.exit(f"tools/test.sh: a {kind} target with tests ({name}): give it a lane")
print(" ".join(sorted(opts)))
' "$side") || exit 2
read -r -a main_targets <<<"$main_targets"

# Wall times, printed at the end: the build, and each lane from the build's end.
now() { date +%s; }
took() { printf '%d min %02d s' $(($1 / 60)) $(($1 % 60)); }
started=$(now)

# Build once, with the options of the README's command (so the lanes build nothing more).
"${base[@]}" --tests --no-run || exit $?
built=$(now)

lanes=target/test-lanes
rm -rf "$lanes"
mkdir -p "$lanes"

if [ "${CAPABOT_TEST_LANES:-2}" = 1 ]; then
    touch "$lanes/running"
    exec "${base[@]}" --tests
fi

(
    "${base[@]}" --test "$side" >"$lanes/$side.log" 2>&1
    status=$?
    now >"$lanes/$side.end"
    exit $status
) &
side_pid=$!
(
    set -o pipefail
    "${base[@]}" "${main_targets[@]}" 2>&1 | tee "$lanes/main.log"
    status=$?
    now >"$lanes/main.end"
    exit $status
) &
main_pid=$!

# Both lanes past the lock: each has printed the line of its first binary, or ended (bounded: 2
# minutes).
for _ in $(seq 240); do
    if ! kill -0 "$side_pid" 2>/dev/null || ! kill -0 "$main_pid" 2>/dev/null; then
        break
    fi
    if [ "$(grep -l "Running" "$lanes/$side.log" "$lanes/main.log" 2>/dev/null | wc -l)" = 2 ]; then
        break
    fi
    sleep 0.5
done
touch "$lanes/running"

main_status=0
wait "$main_pid" || main_status=$?
side_status=0
wait "$side_pid" || side_status=$?

echo
echo "--- the $side tests (run beside the others; $lanes/$side.log)"
cat "$lanes/$side.log"
echo
summary() { grep -h "^test result" "$@" | awk '{p += $4; f += $6} END {printf "%d passed, %d failed", p, f}'; }
echo "--- all lanes: $(summary "$lanes/main.log" "$lanes/$side.log")"
lane_took() { [ -e "$lanes/$1.end" ] && took $(($(cat "$lanes/$1.end") - built)) || echo "?"; }
echo "--- wall times: the build $(took $((built - started))); then the main lane $(lane_took main), the $side lane $(lane_took "$side")"
if [ "$main_status" -ne 0 ] || [ "$side_status" -ne 0 ]; then
    echo "tools/test.sh: tests failed (lanes: main exit $main_status, $side exit $side_status)" >&2
    exit 101
fi
