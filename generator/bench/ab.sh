#!/usr/bin/env bash
# Two generator binaries on the same database, turn about (old, new, then new,
# old, ...: a machine that slows down over the run weighs on both alike), for a
# before/after figure from one run on one machine (the load beside it):
#
#   generator/bench/ab.sh OLD_GENERATOR NEW_GENERATOR [PRODUCTS] [ROUNDS]   (100000, 2)
#
# The database is seeded once by the release `origin seed` (or AB_DATABASE=FILE,
# an SQLite file seeded before, is used as it is); each build writes a fresh
# site folder (wall time, user and system CPU, max RSS from /usr/bin/time, the
# load average at its start, the build's own step summary with its database
# waits). On a shared machine compare the CPU seconds as
# well as the wall: other work moves the wall by a factor of two. Every build
# after the first finds the previous site's 200,000 inodes freshly deleted,
# which costs ext4 seconds of system time (docs/MEASURED.md).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OLD="$1"; NEW="$2"; N="${3:-100000}"; ROUNDS="${4:-2}"
ORIGIN="${ORIGIN_BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/furniture-shop/target}/release/origin}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
DB="${AB_DATABASE:-$WORK/shop.db}"
[ -n "${AB_DATABASE:-}" ] || "$ORIGIN" seed --database "sqlite:$DB" --products "$N" >/dev/null
echo "# $N products, $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  order="old new"; [ $((round % 2)) = 0 ] && order="new old"
  for side in $order; do
    bin=$OLD; [ "$side" = new ] && bin=$NEW
    rm -rf "$WORK/site"
    sync
    echo "$side round $round: load at start $(cut -d' ' -f1-3 /proc/loadavg)"
    /usr/bin/time -f "$side round $round: wall %e s, user %U s, sys %S s, max RSS %M KB" \
      "$bin" build --quiet --database "sqlite:$DB" --out "$WORK/site" \
      --web-dist "$ROOT/web/dist" 2>&1 >/dev/null | grep -v ' WARN '
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
