#!/usr/bin/env bash
# The origin's memory under a bounded fuzz (issue 19): a seeded shop (2,000
# products, the load tests' cached copy), its generated site, the origin
# alone on loopback, then DURATION seconds of requests from CLIENTS threads
# (origin/bench/rss_fuzz.py): every GET route of the OpenAPI document with
# random and hostile parameters, keyword listings and suggestions with
# random words, listing pages with random filters and sorts, product
# answers, images at random widths, unknown paths. Prints the origin's RSS
# (VmRSS) every 10 s and at the end, with the requests sent per kind; at the
# end PSS too (a file page mapped several times counted once).
#
#   origin/bench/rss.sh [--debug] [DURATION=120] [PRODUCTS=2000] [CLIENTS=4]
#
# Uses the release binaries (--debug: the debug ones) of CARGO_TARGET_DIR,
# or STACK_BIN; STACK_BUILD=0 skips the build. KINDS=image,keyword sends only
# those kinds of request (to find what holds the memory). REWRITE=20 writes
# the site's manifest.json anew (same content, new time) every 20 s of the
# fuzz, as generator watch does after each change: the origin reads it again.
source "$(dirname "$0")/../../scripts/lib.sh"
source "$ROOT/scripts/stack.sh"
PROFILE=release
[ "${1:-}" = "--debug" ] && { PROFILE=debug; shift; }
DURATION="${1:-120}" PRODUCTS="${2:-2000}" CLIENTS="${3:-4}"
server_cpu=()
stack_build "$PROFILE"
stack_data "$PRODUCTS" 1
stack_ports 0
trap 'kill "$(cat "$WORK/origin.pid" 2>/dev/null)" 2>/dev/null; rm -rf "$WORK"' EXIT
stack_generate
start_origin
pid=$(cat "$WORK/origin.pid")
echo "origin pid $pid, RSS at start: $(($(rss_kb "$pid") / 1024)) MB"
python3 "$ROOT/origin/bench/rss_fuzz.py" "http://$ORIGIN" "$DURATION" "$CLIENTS" "$DB" &
fuzz=$!
peak=0
for ((t = 10; t <= DURATION + 10; t += 10)); do
  sleep 10
  rewrote=""
  if [ "${REWRITE:-0}" -gt 0 ] && [ $((t % REWRITE)) -lt 10 ] && [ "$t" -le "$DURATION" ]; then
    cp "$WORK/site/manifest.json" "$WORK/site/manifest.json.new"
    mv "$WORK/site/manifest.json.new" "$WORK/site/manifest.json"
    rewrote=" manifest rewritten"
  fi
  rss=$(rss_kb "$pid")
  [ "$rss" -gt "$peak" ] && peak=$rss
  echo "t=${t}s RSS $((rss / 1024)) MB ($(awk '/^RssAnon|^RssFile/ {printf "%s %d MB ", $1, $2 / 1024}' "/proc/$pid/status"))$rewrote"
  kill -0 "$fuzz" 2>/dev/null || break
done
wait "$fuzz"
sleep 5
echo "RSS after the fuzz: $(($(rss_kb "$pid") / 1024)) MB (peak $((peak / 1024)) MB;\
 $(awk '/^RssAnon|^RssFile/ {printf "%s %d MB ", $1, $2 / 1024}' "/proc/$pid/status");\
 $(awk '/^Pss:/ {printf "PSS %d MB", $2 / 1024}' "/proc/$pid/smaps_rollup"))"
