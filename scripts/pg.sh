# PostgreSQL for the tests and local runs: Debian's PostgreSQL 15 and
# throw-away servers on loopback. Sourced (alone or after scripts/lib.sh), not
# run; it sets no shell options and does not change directory.
#
#   pg_install             installs Debian's `postgresql` when PG_BIN/pg_ctl is
#                          missing (apt-get, with sudo when not root); sets PG_BIN
#   pg_start DATADIR PORT  a server on 127.0.0.1:PORT only, its data in DATADIR
#                          (initdb'd first when DATADIR is absent or empty; a
#                          server already running there is restarted), waits
#                          until it accepts connections and prints its URL,
#                          postgres://postgres@127.0.0.1:PORT/postgres (also in
#                          PG_URL unless called in $(...))
#   pg_stop DATADIR        stops it (fast shutdown); quiet when nothing runs
#   pg_createdb PORT NAME  creates database NAME, dropping (WITH FORCE) an
#                          existing one; prints its URL
#
# The servers are for tests: trust authentication for the unix socket and
# 127.0.0.1 (nothing else is accepted), user `postgres`, UTF8 with the C locale
# (byte-order text comparison, like SQLite's default), the unix socket inside
# DATADIR, the server log in DATADIR/log, max_connections 200.
# PG_FAST=1 (the default) also turns off fsync, synchronous_commit and
# full_page_writes: a crash of the machine may lose or corrupt the data, which
# a throw-away database can afford; PG_FAST=0 keeps PostgreSQL's defaults.
# PG_START_TIMEOUT (seconds, default 60) bounds the wait for the server.
#
# initdb and postgres refuse to run as root: as root they run as the `postgres`
# system user (runuser), which owns DATADIR and must be able to reach it, i.e.
# every directory above DATADIR must be searchable by others (o+x). That holds
# for the clone's var/ (/work/main/var/pg, say) and for /tmp, but not for a
# `mktemp -d` directory (mode 700): chmod o+x it first. pg_start says so
# instead of changing permissions. The unix socket's path (DATADIR plus
# /.s.PGSQL.PORT) must stay under about 100 bytes.

PG_VERSION_WANTED=15
PG_BIN="${PG_BIN:-/usr/lib/postgresql/$PG_VERSION_WANTED/bin}"
PG_FAST="${PG_FAST:-1}"
PG_START_TIMEOUT="${PG_START_TIMEOUT:-60}"

declare -F step >/dev/null || step() { printf '\n==> %s\n' "$*"; }

pg_install() {
  PG_BIN="/usr/lib/postgresql/$PG_VERSION_WANTED/bin"
  if [ ! -x "$PG_BIN/pg_ctl" ]; then
    step "installing Debian's postgresql (PostgreSQL $PG_VERSION_WANTED)" >&2
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends postgresql >&2
  fi
  if [ ! -x "$PG_BIN/pg_ctl" ]; then
    echo "pg_install: $PG_BIN/pg_ctl is still missing (is Debian's postgresql version $PG_VERSION_WANTED?)" >&2
    return 1
  fi
}

# Runs a PostgreSQL server program: as the postgres user when root, from /
# (the caller's directory may be closed to that user).
_pg_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    (cd / && "$@")
  fi
}

# DATADIR as an absolute path (it may not exist yet).
_pg_abs() {
  case "$1" in
    /*) printf '%s\n' "${1%/}" ;;
    *) printf '%s/%s\n' "$(pwd)" "${1%/}" ;;
  esac
}

# 0 when a server runs on DATADIR (pg_ctl status: 0 running, 3 not, 4 no data
# directory).
_pg_running() {
  [ -f "$1/postmaster.pid" ] && _pg_as_owner "$PG_BIN/pg_ctl" status -D "$1" >/dev/null 2>&1
}

pg_start() {
  if [ $# -ne 2 ]; then
    echo "usage: pg_start DATADIR PORT" >&2
    return 2
  fi
  local dir port="$2" parent out
  dir="$(_pg_abs "$1")"
  [ -x "$PG_BIN/pg_ctl" ] || pg_install || return 1

  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || { echo "pg_start: no postgres system user" >&2; return 1; }
    parent="$(dirname "$dir")"
    mkdir -p "$parent" || return 1
    if ! runuser -u postgres -- test -x "$parent"; then
      echo "pg_start: the postgres user cannot reach $parent; make every directory above" \
        "$dir searchable by others (chmod o+x) or use a place under /tmp" >&2
      return 1
    fi
  fi

  if _pg_running "$dir"; then
    pg_stop "$dir" || return 1
  fi
  local ready=0
  "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -t 2 || ready=$?
  if [ "$ready" -le 1 ]; then # 0 accepting, 1 rejecting: a server is there
    echo "pg_start: another server already listens on 127.0.0.1:$port" >&2
    return 1
  fi

  if [ ! -f "$dir/PG_VERSION" ]; then
    if [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
      echo "pg_start: $dir is neither empty nor a PostgreSQL data directory" >&2
      return 1
    fi
    mkdir -p "$dir" || return 1
    chmod 700 "$dir"
    [ "$(id -u)" -ne 0 ] || chown postgres: "$dir" || return 1
    if ! out="$(_pg_as_owner "$PG_BIN/initdb" -D "$dir" -U postgres --auth=trust --no-sync \
      --encoding=UTF8 --locale=C 2>&1)"; then
      printf '%s\n' "$out" >&2
      echo "pg_start: initdb failed" >&2
      return 1
    fi
    # Trust, and only for the unix socket and 127.0.0.1 (initdb's file also
    # lets in ::1 and replication connections).
    _pg_as_owner sh -c 'cat > "$1/pg_hba.conf"' sh "$dir" <<'EOF' || return 1
# pg_hba.conf written by scripts/pg.sh: a throw-away test server.
# TYPE  DATABASE  USER  ADDRESS        METHOD
local   all       all                  trust
host    all       all   127.0.0.1/32   trust
EOF
    _pg_as_owner sh -c 'echo "include_if_exists = '"'"'pg_sh.conf'"'"'" >> "$1/postgresql.conf"' sh "$dir" \
      || return 1
  fi

  # This start's settings, in a file that postgresql.conf includes (rewritten
  # each time: the port may differ from the last start).
  {
    echo "# written by scripts/pg.sh at each pg_start"
    echo "listen_addresses = '127.0.0.1'"
    echo "port = $port"
    echo "unix_socket_directories = '$dir'"
    echo "max_connections = 200"
    if [ "$PG_FAST" = 1 ]; then
      echo "# PG_FAST=1: for tests only, a machine crash may corrupt the data"
      echo "fsync = off"
      echo "synchronous_commit = off"
      echo "full_page_writes = off"
    fi
  } | _pg_as_owner sh -c 'cat > "$1/pg_sh.conf"' sh "$dir" || return 1

  if ! _pg_as_owner "$PG_BIN/pg_ctl" start -D "$dir" -l "$dir/log" -W -s >/dev/null; then
    echo "pg_start: pg_ctl start failed; $dir/log:" >&2
    tail -n 20 "$dir/log" >&2 2>/dev/null
    return 1
  fi
  # pg_ctl -W returns at once; the postmaster writes its pid file shortly.
  local waited=0
  until "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -t 1; do
    if [ "$waited" -ge 2 ] && ! _pg_running "$dir"; then
      echo "pg_start: the server on $dir stopped; $dir/log:" >&2
      tail -n 20 "$dir/log" >&2
      return 1
    fi
    if [ "$waited" -ge "$PG_START_TIMEOUT" ]; then
      echo "pg_start: no answer on 127.0.0.1:$port after ${PG_START_TIMEOUT}s; $dir/log:" >&2
      tail -n 20 "$dir/log" >&2
      return 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
  PG_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "$PG_URL"
}

pg_stop() {
  if [ $# -ne 1 ]; then
    echo "usage: pg_stop DATADIR" >&2
    return 2
  fi
  local dir
  dir="$(_pg_abs "$1")"
  _pg_running "$dir" || return 0
  _pg_as_owner "$PG_BIN/pg_ctl" stop -D "$dir" -m fast -w -s >/dev/null
}

pg_createdb() {
  if [ $# -ne 2 ]; then
    echo "usage: pg_createdb PORT NAME" >&2
    return 2
  fi
  local port="$1" name="$2"
  "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -v db="$name" \
    -h 127.0.0.1 -p "$port" -U postgres -d postgres >/dev/null <<'SQL' || return 1
SET client_min_messages = warning;
DROP DATABASE IF EXISTS :"db" WITH (FORCE);
CREATE DATABASE :"db";
SQL
  echo "postgres://postgres@127.0.0.1:$port/$name"
}
