#!/usr/bin/env bash
# Instructions per cache hit of an edge binary under callgrind: repeatable on a loaded machine,
# where requests/s are not. The same 1,000 ~30 KB pages and origin as run.sh; the edge is
# warmed (every page twice), callgrind's counters are zeroed, wrk sends the random mix (or one
# hot URL) for a fixed time, the counters are dumped, and the total is divided by the requests
# wrk saw answered. Instructions are user space only; `strace -c` counts the syscalls.
#
# Usage: edge/bench/callgrind.sh EDGE_BINARY [random|hot] [seconds, default 20]
#   (CG_OPTS="--cache-sim=yes" adds simulated cache misses)
# Prints: requests, instructions, instructions per request, the profile file; keep it with
# BENCH_KEEP=1 and read the functions with `callgrind_annotate`.
set -euo pipefail
BIN="$(realpath "$1")"
MODE="${2:-random}"
SECS="${3:-20}"
cd "$(dirname "$0")/../.."
for tool in valgrind callgrind_control nginx wrk curl; do
  command -v "$tool" >/dev/null || { echo "needs $tool"; exit 1; }
done
DIR="$(mktemp -d /tmp/edge-callgrind.XXXXXX)"
chmod 755 "$DIR"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -n "${BENCH_KEEP:-}" ] || rm -rf "$DIR"
}
trap cleanup EXIT
ORIGIN_PORT=28181 EDGE_PORT=28180 EDGE_ADMIN=29180
mkdir -p "$DIR/site/p"
python3 - "$DIR/site/p" <<'PY'
import random, sys
random.seed(1)
words = "sofa chair table bed wardrobe teak oak shelf desk lamp rug cushion drawer mirror".split()
for i in range(1000):
    body = " ".join(random.choice(words) for _ in range(5200))
    html = f"<!doctype html><html><head><title>Product {i}</title></head><body><h1>Product {i}</h1><p>{body}</p></body></html>\n"
    open(f"{sys.argv[1]}/{i}.html", "w").write(html[:30720] if len(html) > 30720 else html)
PY
sed -e "s#@DIR@#$DIR#g" -e "s#@PORT@#$ORIGIN_PORT#g" edge/bench/nginx-origin.conf >"$DIR/origin.conf"
# A fixed seed: every run asks for the same pages in the same order.
cat >"$DIR/random.lua" <<'LUA'
math.randomseed(12345)
request = function()
  return wrk.format("GET", "/p/" .. math.random(0, 999) .. ".html")
end
LUA
nginx -c "$DIR/origin.conf" -e "$DIR/origin-error.log" >/dev/null 2>&1 &
PIDS+=($!)
# shellcheck disable=SC2086
valgrind --tool=callgrind --compress-strings=no --compress-pos=no ${CG_OPTS:-} \
  --callgrind-out-file="$DIR/callgrind.out" "$BIN" --listen "127.0.0.1:$EDGE_PORT" \
  --admin "127.0.0.1:$EDGE_ADMIN" --origin "http://127.0.0.1:$ORIGIN_PORT" --threads 1 \
  --health-path /p/0.html >"$DIR/edge.log" 2>&1 &
VG=$!
PIDS+=($VG)
for _ in $(seq 300); do
  curl -sf --max-time 5 -o /dev/null "http://127.0.0.1:$EDGE_PORT/p/0.html" && break
  sleep 0.2
done
for _ in 1 2; do
  seq 0 999 | xargs -P 4 -I{} curl -s --max-time 20 -o /dev/null "http://127.0.0.1:$EDGE_PORT/p/{}.html" || true
done
echo "a warmed page: $(curl -s -D - -o /dev/null "http://127.0.0.1:$EDGE_PORT/p/7.html" | tr -d '\r' | grep -i '^cache-status')"
callgrind_control -z "$VG" >/dev/null 2>&1
if [ "$MODE" = hot ]; then
  wrk -t1 -c16 -d"${SECS}s" --timeout 10s "http://127.0.0.1:$EDGE_PORT/p/42.html" >"$DIR/wrk.txt"
else
  wrk -t1 -c16 -d"${SECS}s" --timeout 10s -s "$DIR/random.lua" "http://127.0.0.1:$EDGE_PORT" >"$DIR/wrk.txt"
fi
callgrind_control -d "$VG" >/dev/null 2>&1
sleep 1
PROFILE="$(ls "$DIR"/callgrind.out.* | head -1)"
N="$(awk '/requests in/{print $1}' "$DIR/wrk.txt")"
IR="$(awk '/^summary:/{print $2; exit}' "$PROFILE")"
echo "$MODE: $N requests, $IR instructions, $((IR / N)) per request ($PROFILE)"
