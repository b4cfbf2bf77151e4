#!/usr/bin/env bash
# Cache-hit throughput of our edge, nginx proxy_cache and Varnish, side by side, in one run.
#
# Same origin (nginx serving 1,000 static ~30 KB pages with the shop's cache headers), same
# load command (wrk, 64 connections, one thread). Each cache runs on CPU 0 with one worker;
# wrk runs on CPU 1. Two scenarios: one hot URL, and a random mix over the 1,000 pages
# (every page warmed first, so both measure hits). Besides requests/s and p99 it prints the
# server's CPU time per request (user + system, from /proc, every thread of the serving
# process): on a shared machine that figure moves much less than requests/s.
#
# Usage: edge/bench/run.sh [seconds per run, default 10]   (BENCH_ROUNDS=2: rounds per scenario)
# Needs: nginx, varnish, wrk, curl, taskset: installed from Debian when missing
# (`apt-get update` once, then `apt-get install -y` of the missing packages; as root or with
# sudo). Every run is bounded: wrk by its -d (plus a kill 15 s later), each warm-up and
# readiness request by curl's --max-time. The load average goes beside the table: on a shared
# machine the figures move with it.
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION="${1:-10}"
ROUNDS="${BENCH_ROUNDS:-2}"
case "$DURATION" in '' | *[!0-9]*) echo "usage: $0 [seconds per run]"; exit 2 ;; esac
CONNS="${BENCH_CONNECTIONS:-64}"
SERVER_CPU="${BENCH_SERVER_CPU:-0}"
CLIENT_CPU="${BENCH_CLIENT_CPU:-1}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/furniture-shop/target}"

# Missing tools come from Debian: the package that has each.
declare -A PACKAGE=([nginx]=nginx [varnishd]=varnish [wrk]=wrk [curl]=curl [taskset]=util-linux)
MISSING=()
for tool in nginx varnishd wrk curl taskset; do
  command -v "$tool" >/dev/null || MISSING+=("${PACKAGE[$tool]}")
done
if [ "${#MISSING[@]}" -gt 0 ]; then
  SUDO=()
  [ "$(id -u)" -eq 0 ] || SUDO=(sudo)
  echo "installing ${MISSING[*]} (apt-get)..."
  "${SUDO[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${MISSING[@]}" >/dev/null
  # Debian starts the packaged services on install; the benchmark runs its own instances.
  for service in nginx varnish; do
    if command -v systemctl >/dev/null && systemctl is-active --quiet "$service" 2>/dev/null; then
      "${SUDO[@]}" systemctl stop "$service" || true
    fi
  done
  for tool in nginx varnishd wrk curl taskset; do
    command -v "$tool" >/dev/null || { echo "still missing $tool after apt-get install"; exit 1; }
  done
fi
# The edge's production build (root Cargo.toml: the release profile with fat LTO).
cargo build -p edge --profile edge-release --quiet
EDGE_BIN="$CARGO_TARGET_DIR/edge-release/edge"

DIR="$(mktemp -d /tmp/edge-bench.XXXXXX)"
chmod 755 "$DIR" # nginx workers run as www-data
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -n "${BENCH_KEEP:-}" ] || rm -rf "$DIR"
}
trap cleanup EXIT

ORIGIN_PORT=18181 EDGE_PORT=18180 EDGE_ADMIN=19180 NGINX_PORT=18182 VARNISH_PORT=18183

# 1,000 pages of ~30 KB.
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

fill() { sed -e "s#@DIR@#$DIR#g" -e "s#@PORT@#$2#g" -e "s#@ORIGIN_PORT@#$ORIGIN_PORT#g" "edge/bench/$1"; }
fill nginx-origin.conf "$ORIGIN_PORT" > "$DIR/origin.conf"
fill nginx-cache.conf "$NGINX_PORT" > "$DIR/nginx.conf"
fill varnish.vcl "$VARNISH_PORT" > "$DIR/varnish.vcl"
mkdir -p "$DIR/nginx-cache"

taskset -c "$CLIENT_CPU" nginx -c "$DIR/origin.conf" -e "$DIR/origin-error.log" & PIDS+=($!)
taskset -c "$SERVER_CPU" "$EDGE_BIN" --listen "127.0.0.1:$EDGE_PORT" --admin "127.0.0.1:$EDGE_ADMIN" \
  --origin "http://127.0.0.1:$ORIGIN_PORT" --threads 1 --health-path /p/0.html >"$DIR/edge.log" 2>&1 & PIDS+=($!)
taskset -c "$SERVER_CPU" nginx -c "$DIR/nginx.conf" -e "$DIR/nginx-error.log" & PIDS+=($!)
NGINX_PID=$!
taskset -c "$SERVER_CPU" varnishd -F -n "$DIR/varnish" -a "127.0.0.1:$VARNISH_PORT" -f "$DIR/varnish.vcl" \
  -s malloc,512m -p http_gzip_support=off -p thread_pools=1 >"$DIR/varnish.log" 2>&1 & PIDS+=($!)

for port in $ORIGIN_PORT $EDGE_PORT $NGINX_PORT $VARNISH_PORT; do
  for _ in $(seq 100); do curl -sf --max-time 2 -o /dev/null "http://127.0.0.1:$port/p/0.html" && break; sleep 0.1; done
done

# The process that serves each port: the edge itself, nginx's worker, Varnish's child.
declare -A SERVER=([$EDGE_PORT]="${PIDS[1]}" \
  [$NGINX_PORT]="$(pgrep -P "$NGINX_PID" -f 'worker process' | head -1)" \
  [$VARNISH_PORT]="$(pgrep -P "${PIDS[3]}" | head -1)")
cpu_ticks() { # user + system clock ticks of every thread of a process
  cat /proc/"$1"/task/*/stat 2>/dev/null | awk '{t += $14 + $15} END {print t + 0}'
}
declare -A NAME=([$EDGE_PORT]="edge (Pingora)" [$NGINX_PORT]="nginx proxy_cache" [$VARNISH_PORT]="varnish")
echo "warming 1,000 pages in each cache..."
for port in $EDGE_PORT $NGINX_PORT $VARNISH_PORT; do
  for _ in 1 2; do
    seq 0 999 | xargs -P 8 -I{} curl -s --max-time 5 -o /dev/null "http://127.0.0.1:$port/p/{}.html" || true
  done
  printf '  %-18s X-Cache on a warmed page: %s\n' "${NAME[$port]}" \
    "$(curl -s -D - -o /dev/null "http://127.0.0.1:$port/p/7.html" | tr -d '\r' | awk -F': ' 'tolower($1)=="x-cache"{print $2}')"
done

run() { # port scenario
  local args=(-t1 -c"$CONNS" -d"${DURATION}s" --timeout 2s --latency)
  local bound=$((DURATION + 15))
  local out ticks0
  ticks0="$(cpu_ticks "${SERVER[$1]}")"
  if [ "$2" = hot ]; then
    out="$(timeout "$bound" taskset -c "$CLIENT_CPU" wrk "${args[@]}" "http://127.0.0.1:$1/p/42.html" || true)"
  else
    out="$(timeout "$bound" taskset -c "$CLIENT_CPU" wrk "${args[@]}" -s edge/bench/random.lua "http://127.0.0.1:$1" || true)"
  fi
  local rps p99 errors ticks1 requests cpu
  ticks1="$(cpu_ticks "${SERVER[$1]}")"
  requests="$(awk '/requests in/{print $1}' <<<"$out")"
  cpu="$(awk -v t="$((ticks1 - ticks0))" -v n="${requests:-0}" -v hz="$(getconf CLK_TCK)" \
    'BEGIN {if (n > 0) printf "%.1f", t * 1e6 / hz / n; else print "-"}')"
  rps="$(awk '/Requests\/sec/{print $2}' <<<"$out")"
  p99="$(awk '$1=="99%"{print $2}' <<<"$out")"
  errors="$(awk '/Non-2xx|Socket errors/{print}' <<<"$out" | tr '\n' ' ')"
  printf '| %-18s | %-9s | %12s | %8s | %9s | %s\n' "${NAME[$1]}" "$2" "$rps" "$p99" "$cpu" "$errors"
}

echo
echo "wrk -t1 -c$CONNS -d${DURATION}s, server on CPU $SERVER_CPU, wrk on CPU $CLIENT_CPU, ~30 KB pages"
echo "before: $(uptime)"
printf '| %-18s | %-9s | %12s | %8s | %9s |\n' "cache" "scenario" "requests/s" "p99" "CPU µs/req"
printf '|%s|%s|%s|%s|%s|\n' "--------------------" "-----------" "--------------" "----------" "-----------"
# Each scenario ROUNDS times, the servers' order rotated each round, so no
# server is always measured first (the first cell after warming tended to
# come out low, whichever server it was).
ORDER=($EDGE_PORT $NGINX_PORT $VARNISH_PORT)
for scenario in hot random; do
  for round in $(seq 0 $((ROUNDS - 1))); do
    for k in 0 1 2; do
      run "${ORDER[$(((k + round) % 3))]}" "$scenario"
    done
  done
done
echo "after:  $(uptime)"
echo
echo "edge hit ratio check:"
curl -s "http://127.0.0.1:$EDGE_ADMIN/metrics" | grep '^edge_requests_total' || true
