# The whole stack on free loopback ports, for the load tests (loadtests/run)
# and the browser tests (web/e2e/run): a copy of a cached seeded database, the
# generated site, the origin and the edge. Sourced after scripts/lib.sh, not run.
#
#   stack_build PROFILE        builds origin, generator and edge (release|debug; STACK_BUILD=0
#                              skips it) and web/dist when absent; sets BIN
#   stack_data PRODUCTS SEED   the seeded database, cached per size, seed and the code that makes
#                              it (CACHE), copied into a new work directory (WORK, DB) with its
#                              flash sales moved to now
#   stack_ports [TLS]          free ports: ORIGIN, EDGE, ADMIN (and EDGE_TLS with a self-signed
#                              pair in $WORK/tls when TLS is 1); TOKEN, the purge token
#   stack_generate             generator build into $WORK/site for http://$EDGE
#   start_payments             the simulated payment gateways (payments-sim) on a free port; exports
#                              the shop's settings for them (the origin started after uses them)
#   start_origin, start_edge   start one server (pid in $WORK/NAME.pid), wait until it answers
#   start_watch                generator watch (keeps the site current, purges the edge)
#   stop NAME [SIGNAL]         stops origin|edge|watch and waits until it is gone
#   stack_cleanup              stops everything and removes WORK (unless KEEP=1)
#
# server_cpu (an array, e.g. `taskset -c 0`) prefixes the servers; EDGE_ARGS adds edge flags.

KEEP="${KEEP:-0}"

stack_build() {
  local profile="$1"
  if [ "${STACK_BUILD:-1}" = 1 ]; then
    step "building ($profile)"
    if [ "$profile" = release ]; then
      cargo build --quiet --release -p origin -p generator -p edge -p payments-sim
    else
      cargo build --quiet -p origin -p generator -p edge -p payments-sim
    fi
  fi
  BIN="${STACK_BIN:-$CARGO_TARGET_DIR/$profile}" # STACK_BIN: binaries from elsewhere
  if [ ! -f web/dist/.vite/manifest.json ]; then
    install_npm
    (cd web && npm run --silent build >/dev/null)
  fi
}

stack_data() {
  local products="$1" seed="$2" seed_hash
  seed_hash=$(cat migrations/sqlite/*.sql demo/src/*.rs demo/data/* | sha256sum | cut -c1-12)
  CACHE="$HOME/.cache/furniture-shop/loadtests/p$products-s$seed-$seed_hash"
  if [ ! -f "$CACHE/shop.db" ]; then
    step "seeding $products products into $CACHE"
    rm -rf "$CACHE.tmp" && mkdir -p "$CACHE.tmp"
    "$BIN/origin" migrate --database "sqlite:$CACHE.tmp/shop.db" >/dev/null
    date +%s >"$CACHE.tmp/seeded_at"
    "$BIN/origin" seed --database "sqlite:$CACHE.tmp/shop.db" --products "$products" --seed "$seed" \
      --storage "$CACHE.tmp/storage" >/dev/null
    python3 -c "import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)')" \
      "$CACHE.tmp/shop.db"
    rm -f "$CACHE.tmp"/shop.db-wal "$CACHE.tmp"/shop.db-shm
    rm -rf "$CACHE" && mv "$CACHE.tmp" "$CACHE"
  fi
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/furniture-stack.XXXXXX")"
  DB="$WORK/shop.db"
  cp "$CACHE/shop.db" "$DB"
  python3 "$ROOT/loadtests/tool.py" rebase "$DB" "$(cat "$CACHE/seeded_at")" "$(date +%s)"
}

stack_ports() {
  local ports
  mapfile -t ports < <(python3 "$ROOT/loadtests/tool.py" ports 4)
  ORIGIN="127.0.0.1:${ports[0]}"; EDGE="127.0.0.1:${ports[1]}"; ADMIN="127.0.0.1:${ports[2]}"
  EDGE_TLS=""
  if [ "${1:-0}" = 1 ]; then
    EDGE_TLS="127.0.0.1:${ports[3]}"
    mkdir -p "$WORK/tls"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
      -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
      -keyout "$WORK/tls/key.pem" -out "$WORK/tls/cert.pem" 2>/dev/null
  fi
  TOKEN="$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
}

stack_generate() {
  step "generating the site"
  local t0
  t0=$(date +%s%N)
  "$BIN/generator" build --quiet --database "sqlite:$DB" --out "$WORK/site" \
    --base-url "http://$EDGE" >"$WORK/generator.log" 2>&1 || { tail -20 "$WORK/generator.log" >&2; return 1; }
  echo "generated in $((($(date +%s%N) - t0) / 1000000)) ms"
}

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/${1:-0}/status" 2>/dev/null || echo 0; }

start_payments() {
  local port
  port=$(python3 "$ROOT/loadtests/tool.py" ports 1)
  "$BIN/payments-sim" "127.0.0.1:$port" --env-file "$WORK/payments.env" >>"$WORK/payments.log" 2>&1 &
  echo $! >"$WORK/payments.pid"
  disown
  for _ in $(seq 1 600); do [ -f "$WORK/payments.env" ] && break; sleep 0.1; done
  [ -f "$WORK/payments.env" ] || { tail -5 "$WORK/payments.log" >&2; return 1; }
  # shellcheck disable=SC1091 # written by payments-sim
  source "$WORK/payments.env"
}
start_origin() {
  SITE_URL="${SITE_URL:-http://$EDGE}" "${server_cpu[@]}" "$BIN/origin" serve --database "sqlite:$DB" --site "$WORK/site" \
    --storage "$CACHE/storage" --listen "$ORIGIN" >>"$WORK/origin.log" 2>&1 &
  echo $! >"$WORK/origin.pid"
  disown # no "Killed" notice when a fault kills it
  wait_for "http://$ORIGIN/api/health" || { tail -20 "$WORK/origin.log" >&2; return 1; }
}
start_edge() {
  local tls=()
  [ -n "${EDGE_TLS:-}" ] && tls=(--tls-listen "$EDGE_TLS" --tls-cert "$WORK/tls/cert.pem" --tls-key "$WORK/tls/key.pem")
  # shellcheck disable=SC2086 # EDGE_ARGS is a list of flags
  "${server_cpu[@]}" "$BIN/edge" --listen "$EDGE" --admin "$ADMIN" --origin "http://$ORIGIN" \
    --health-path /api/health --health-interval-ms 500 --purge-token "$TOKEN" --grace-period 1 \
    "${tls[@]}" ${EDGE_ARGS:-} >>"$WORK/edge.log" 2>&1 &
  echo $! >"$WORK/edge.pid"
  disown
  wait_for "http://$ADMIN/metrics" || { tail -20 "$WORK/edge.log" >&2; return 1; }
}
start_watch() {
  EDGE_PURGE_TOKEN="$TOKEN" "${server_cpu[@]}" "$BIN/generator" watch --quiet --database "sqlite:$DB" \
    --out "$WORK/site" --base-url "http://$EDGE" --edge-admin "http://$ADMIN" >"$WORK/watch.log" 2>&1 &
  echo $! >"$WORK/watch.pid"
  disown
  sleep 1
  if ! alive "$(pid_of watch)"; then
    echo "generator watch is not running: $(grep -m1 -i error "$WORK/watch.log" || tail -1 "$WORK/watch.log")"
    rm -f "$WORK/watch.pid"
  fi
}
stop() { # origin|edge|watch [signal, default TERM]: stops it and waits until it is gone
  local p
  p=$(pid_of "$1")
  [ -n "$p" ] || return 0
  kill "-${2:-TERM}" "$p" 2>/dev/null || true
  while alive "$p"; do sleep 0.05; done
  rm -f "$WORK/$1.pid"
}

stack_cleanup() {
  [ -n "${WORK:-}" ] || return 0
  local p
  for p in $(pid_of watch) $(pid_of edge) $(pid_of origin) $(pid_of payments); do
    kill -CONT "$p" 2>/dev/null || true
    kill "$p" 2>/dev/null || true
  done
  for p in $(pid_of edge) $(pid_of origin); do
    for _ in $(seq 1 100); do alive "$p" || break; sleep 0.05; done
    kill -KILL "$p" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  if [ "$KEEP" = 1 ]; then echo "work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
