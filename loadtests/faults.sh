# Scenario hooks for loadtests/run, sourced by it. prepare_NAME runs before
# the site is generated and the stack starts (it may change the database and
# add K6_ENV entries); during_NAME runs in the background beside k6 and may
# write what it measured as JSON to $WORK/fault.json.

# flash: a sale on 20 products starting mid-hold (ramp 10 s + 20 s; smoke 5 + 8 s),
# counted from now plus the time to generate, start and warm (about 5 s).
prepare_flash() {
  local lead=$((SMOKE == 1 ? 18 : 35))
  "${TOOL[@]}" flash-setup "$DB" $(($(date +%s) + lead)) "$WORK/flash.json"
  K6_ENV+=("FLASH_FILE=$WORK/flash.json")
}
