# Scenario hooks for loadtests/run, sourced by it. prepare_NAME runs before
# the site is generated and the stack starts (it may change the database and
# add K6_ENV entries); ready_NAME once the stack answers, before the warm-up;
# during_NAME in the background beside k6, and may write what it measured as
# JSON to $WORK/fault.json.

# flash: a sale on 20 products, written while the shop runs (as staff would),
# starting mid-hold: 40 s after it is written (smoke 15 s), about 30 s into
# k6's run (ramp 10 s + 20 s; the warm-up and k6's start take some seconds). generator watch (the pages) and
# the origin (its API answers) stage what the boundary changes at the edge
# STAGE_LEAD_SECONDS before it: 15 s here (300 in production), so that the
# staging renders run under the full load, where k6 measures them (its
# window=staging tag), not in the warm-up. STAGE_LEAD_SECONDS=0: nothing
# staged, every edge answer that changes is fetched again after the boundary.
ready_flash() {
  local lead=$((SMOKE == 1 ? 15 : 40))
  "${TOOL[@]}" flash-setup "$DB" $(($(date +%s) + lead)) "$WORK/flash.json"
}
prepare_flash() {
  export STAGE_LEAD_SECONDS="${STAGE_LEAD_SECONDS:-15}" EDGE_ADMIN_URL="http://$ADMIN" EDGE_PURGE_TOKEN="$TOKEN"
  K6_ENV+=("FLASH_FILE=$WORK/flash.json" "STAGE_LEAD_SECONDS=$STAGE_LEAD_SECONDS")
}
# Origin requests per second through the spike: the boundary and the purge show.
during_flash() {
  local starts_at
  starts_at=$(python3 -c "import json; print(json.load(open('$WORK/flash.json'))['starts_at'])")
  "${TOOL[@]}" sample "http://$ADMIN/metrics" "$RUN_STARTED_AT" $((SMOKE == 1 ? 26 : 72)) "$WORK/fault.json" \
    --extra "{\"sale_starts_at_s\": $((starts_at - RUN_STARTED_AT)), \"purge_at_s\": $((starts_at - RUN_STARTED_AT + (SMOKE == 1 ? 5 : 15)))}"
}

# checkout: ten products with 20 units each, so that half the shoppers compete
# for 200 units and the shop sells out under load.
prepare_checkout() {
  "${TOOL[@]}" hot-stock "$DB" 10 20 "$WORK/hot.json"
  K6_ENV+=("HOT_FILE=$WORK/hot.json")
}

# Sleeps until SECONDS after the run started (RUN_STARTED_AT).
at() { sleep "$(python3 -c "import time,sys; print(max(0, $RUN_STARTED_AT + $1 - time.time()))")"; }
now_ms() { date +%s%3N; }
# Milliseconds until an uncacheable API call through the edge answers 200.
until_api_ok() {
  local t0 i
  t0=$(now_ms)
  for ((i = 0; i < 600; i++)); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' -H "SELF-TOKEN: lt-probe-00000000000000000000000000000000" \
      "http://$EDGE/api/common/main-search-product?keyword=probe$RANDOM$i")" = 200 ] && break
    sleep 0.1
  done
  echo $(($(now_ms) - t0))
}

fault_window() { # FAULT_AT FAULT_FOR (full) / (smoke)
  if [ "$SMOKE" = 1 ]; then FAULT_AT=$3 FAULT_FOR=$4; else FAULT_AT=$1 FAULT_FOR=$2; fi
  K6_ENV+=("FAULT_AT=$FAULT_AT" "FAULT_FOR=$FAULT_FOR")
}

# origin-down: SIGKILL at 20 s, back 60 s later (smoke: 8 s, for 12 s).
prepare_origin_down() {
  fault_window 20 60 8 12
  prepare_checkout
}
during_origin_down() {
  at "$FAULT_AT"
  stop origin KILL
  echo "origin killed at $(date +%T)"
  at $((FAULT_AT + FAULT_FOR))
  local t0
  t0=$(now_ms)
  start_origin
  local up=$(($(now_ms) - t0)) ok
  ok=$(until_api_ok)
  echo "origin started again at $(date +%T): listening after ${up} ms, API through the edge 200 after ${ok} ms more"
  printf '{"origin_down_s": %d, "origin_start_ms": %d, "api_ok_after_start_ms": %d}\n' "$FAULT_FOR" "$up" "$ok" >"$WORK/fault.json"
}

# edge-restart: SIGTERM at 20 s (smoke 8 s), started again as soon as it has
# exited. The window k6 calls "during" is the 4 s after the signal.
prepare_edge_restart() { fault_window 20 4 8 4; }
during_edge_restart() {
  at "$FAULT_AT"
  local t0 t1 t2
  t0=$(now_ms)
  stop edge TERM
  t1=$(now_ms)
  start_edge
  wait_for "http://$EDGE/api/health"
  t2=$(now_ms)
  echo "edge stopped in $((t1 - t0)) ms, answering again $((t2 - t1)) ms later"
  printf '{"edge_stop_ms": %d, "edge_refusing_ms": %d}\n' $((t1 - t0)) $((t2 - t1)) >"$WORK/fault.json"
}

# slow-origin: SIGSTOP at 20 s for 20 s (smoke 8 s for 8 s), the edge's origin
# timeout at 3 s.
prepare_slow_origin() {
  fault_window 20 20 8 8
  EDGE_ARGS="--origin-timeout 3"
  K6_ENV+=("EDGE_ORIGIN_TIMEOUT=3")
}
during_slow_origin() {
  at "$FAULT_AT"
  kill -STOP "$(pid_of origin)"
  echo "origin stopped (SIGSTOP) at $(date +%T)"
  at $((FAULT_AT + FAULT_FOR))
  kill -CONT "$(pid_of origin)"
  local ok
  ok=$(until_api_ok)
  echo "origin continued (SIGCONT) at $(date +%T); API through the edge 200 after ${ok} ms"
  printf '{"origin_stopped_s": %d, "api_ok_after_continue_ms": %d}\n' "$FAULT_FOR" "$ok" >"$WORK/fault.json"
}

# write-contention: the checkout's hot products, and an admin tool holding
# 30 ms write transactions every 20 ms for the whole run (on PostgreSQL, where
# writes lock rows, its transactions lock the hot products' rows and others).
prepare_write_contention() {
  if [ "$SMOKE" = 1 ]; then FAULT_FOR=20; else FAULT_FOR=60; fi
  K6_ENV+=("FAULT_FOR=$FAULT_FOR")
  prepare_checkout
}
during_write_contention() {
  "${TOOL[@]}" contend "$DB" "$FAULT_FOR" --hold-ms 30 --gap-ms 20 --hot "$WORK/hot.json"
}

# soak: RSS of both servers every 30 s (smoke: 5 s), to show growth.
during_soak() {
  local every=$((SMOKE == 1 ? 5 : 30)) total=$((SMOKE == 1 ? 30 : 600)) o=() e=() t
  for ((t = 0; t <= total; t += every)); do
    o+=($(( $(rss_kb "$(pid_of origin)") / 1024 )))
    e+=($(( $(rss_kb "$(pid_of edge)") / 1024 )))
    sleep "$every"
  done
  local IFS=,
  printf '{"rss_every_s": %d, "origin_rss_mb": [%s], "edge_rss_mb": [%s]}\n' "$every" "${o[*]}" "${e[*]}" >"$WORK/fault.json"
}
prepare_soak() { prepare_checkout; }

# smoke: the flash sale and the hot products together.
prepare_smoke() {
  prepare_flash
  prepare_checkout
}
ready_smoke() { ready_flash; }
