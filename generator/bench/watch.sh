#!/usr/bin/env bash
# How long a price change takes to reach its product page through
# `generator watch` (a targeted rebuild), on a seeded catalogue.
#
#   generator/bench/watch.sh [PRODUCTS] [CHANGES]     (default: 100000 3)
#
# Seeds a fresh database, starts watch (its first, full build is timed too),
# changes the price of CHANGES products with SQL one after another and polls
# each page file until it shows the new price. Prints one line per change and
# watch's own "rebuilt" lines. Needs sqlite3.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
N="${1:-100000}"
CHANGES="${2:-3}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/furniture-shop/target}"
cargo build --release -q -p generator -p origin
BIN="$CARGO_TARGET_DIR/release"
WORK="$(mktemp -d)"
WATCH=""
cleanup() {
  [ -n "$WATCH" ] && kill "$WATCH" 2>/dev/null && wait "$WATCH" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
DB="$WORK/shop.db"
OUT="$WORK/site"
"$BIN/origin" seed --database "sqlite:$DB" --products "$N" --storage "$WORK/storage" >/dev/null
"$BIN/generator" watch --database "sqlite:$DB" --out "$OUT" --web-dist web/dist --quiet >"$WORK/watch.log" 2>&1 &
WATCH=$!
deadline=$((SECONDS + 600))
until grep -q 'rebuilt reason="start"' "$WORK/watch.log"; do
  [ $SECONDS -lt $deadline ] || { echo "watch did not finish its first build"; exit 1; }
  sleep 1
done
echo "# $N products, $(nproc) cores"
for id in $(sqlite3 "$DB" "SELECT id FROM product WHERE is_active = 1 AND id NOT IN (SELECT product_id FROM flash_item) ORDER BY random() LIMIT $CHANGES"); do
  slug=$(sqlite3 "$DB" "SELECT seo_url FROM product WHERE id = $id")
  before=$(sqlite3 "$DB" "SELECT price_before FROM product WHERE id = $id")
  price=$((before - 1 - RANDOM % 500))
  shown="৳$(python3 -c "print(f'{$price:,}')")"
  t0=$(date +%s.%N)
  sqlite3 "$DB" "UPDATE product SET price_now = $price WHERE id = $id"
  until grep -q "$shown" "$OUT/product/$slug/index.html" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || { echo "product $id: $shown never shown"; exit 1; }
    sleep 0.05
  done
  echo "product $id: $shown on its page after $(python3 -c "import time; print(f'{time.time() - $t0:.2f}')") s"
done
sleep 1
grep -o 'rebuilt .*' "$WORK/watch.log"
