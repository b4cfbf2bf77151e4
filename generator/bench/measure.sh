#!/usr/bin/env bash
# Measures the generator: page sizes per page type (raw/br/gz), build time and
# pages per second, and the brotli/gzip trade-off, for the default catalogue
# and for 100,000 products.
#
#   generator/bench/measure.sh [PRODUCTS...]     (default: 2000 100000)
#
# Uses `origin seed` (the demo catalogue) when the seeder works, else the test
# fixture grown with bench/scale.sql. Output: markdown on stdout.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/furniture-shop/target}"
cargo build --release -q -p generator -p origin
BIN="$CARGO_TARGET_DIR/release"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
for N in "${@:-2000 100000}"; do
  for n in $N; do
    DB="$WORK/shop-$n.db"
    if "$BIN/origin" seed --database "sqlite:$DB" --products "$n" >/dev/null 2>&1; then
      SOURCE="demo catalogue (origin seed)"
    else
      rm -f "$DB"*
      "$BIN/origin" migrate --database "sqlite:$DB" >/dev/null 2>&1 || true
      sqlite3 "$DB" < generator/tests/fixtures/shop.sql
      sed "s/:products/$n/" generator/bench/scale.sql | sqlite3 "$DB"
      SOURCE="test fixture grown by bench/scale.sql"
    fi
    echo "# $n products ($SOURCE), $(nproc) cores"
    /usr/bin/time -f "wall %e s, max RSS %M KB" "$BIN/generator" measure --quiet \
      --database "sqlite:$DB" --out "$WORK/site-$n" --scale 100000 2>&1 | grep -v '^path \|^key '
    echo
  done
done
