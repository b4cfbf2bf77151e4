// Fault windows: loadtests/run (faults.sh) breaks something FAULT_AT seconds
// after the run starts and mends it FAULT_FOR seconds later. Responses are
// classed by phase so that each phase gets its own checks; the seconds just
// after the fault (RECOVER) are left out of both.
import { SMOKE, runSeconds } from './common.js';

export const FAULT_AT = Number(__ENV.FAULT_AT || 20);
export const FAULT_FOR = Number(__ENV.FAULT_FOR || 60);
export const RECOVER = Number(__ENV.FAULT_RECOVER || 5);
/** Seconds the whole run lasts. */
export const TOTAL = Number(__ENV.FAULT_TOTAL || FAULT_AT + FAULT_FOR + (SMOKE ? 10 : 25));

/** 'before', 'during', 'recovering' or 'after'. */
export function phase() {
  const t = runSeconds();
  if (t < FAULT_AT) return 'before';
  if (t < FAULT_AT + 1) return 'recovering'; // the fault is being set up
  if (t < FAULT_AT + FAULT_FOR) return 'during';
  if (t < FAULT_AT + FAULT_FOR + RECOVER) return 'recovering';
  return 'after';
}

/** A clean API error: JSON `{"success": false, "message"}` with a 5xx status. */
export function cleanApiError(res) {
  if (res.status < 500) return false;
  try {
    const b = res.json();
    return b.success === false && typeof b.message === 'string' && b.message.length > 0;
  } catch (e) {
    return false;
  }
}
