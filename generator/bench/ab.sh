#!/usr/bin/env bash
# Two generator binaries on the same database, turn about (old, new, then new,
# old, ...: a machine that slows down over the run weighs on both alike), for a
# before/after figure from one run on one machine (the load beside it):
#
#   generator/bench/ab.sh OLD_GENERATOR NEW_GENERATOR [PRODUCTS] [ROUNDS]   (100000, 2)
#
# The database is seeded once by the release `origin seed`; each build writes a
# fresh site folder (wall time and max RSS from /usr/bin/time).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OLD="$1"; NEW="$2"; N="${3:-100000}"; ROUNDS="${4:-2}"
ORIGIN="${ORIGIN_BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/furniture-shop/target}/release/origin}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
"$ORIGIN" seed --database "sqlite:$WORK/shop.db" --products "$N" >/dev/null
echo "# $N products, $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  order="old new"; [ $((round % 2)) = 0 ] && order="new old"
  for side in $order; do
    bin=$OLD; [ "$side" = new ] && bin=$NEW
    rm -rf "$WORK/site"
    /usr/bin/time -f "$side round $round: wall %e s, max RSS %M KB" \
      "$bin" build --quiet --database "sqlite:$WORK/shop.db" --out "$WORK/site" \
      --web-dist "$ROOT/web/dist" >/dev/null
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
