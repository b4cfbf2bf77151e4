// The flash-sale countdown (SPEC.md §2 "flash sales"): counts to the end of
// the schedule (or to its start), every second. The visitor's clock may be
// wrong by minutes, so it counts on the server's clock: the offset passed in
// props, or the one the api wrapper learnt from a `Date` header, or, failing
// both, one asked for with a HEAD request for this page.
import { useEffect, useState } from 'react';
import { noteServerDate, serverClockOffset } from '../../lib/api';
import type { FlashCountdownProps } from './types';

const pad = (n: number) => String(n).padStart(2, '0');

/** "2d 03:04:05" for a duration in seconds (days only when there are some). */
export function formatLeft(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const clock = `${pad(Math.floor((s % 86400) / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return d ? `${d}d ${clock}` : clock;
}

/** The line to show at server time `nowMs`. */
export function countdownText(props: FlashCountdownProps, nowMs: number): string {
  const now = nowMs / 1000;
  if (props.starts_at && now < props.starts_at) return `Starts in ${formatLeft(props.starts_at - now)}`;
  if (now < props.ends_at) return `Ends in ${formatLeft(props.ends_at - now)}`;
  return 'This flash sale has ended';
}

/** Asks this page's server for its time (HEAD, not cached), answering the offset or null. */
async function askServerClock(): Promise<number | null> {
  try {
    return noteServerDate(await fetch(location.href, { method: 'HEAD', cache: 'no-store' }));
  } catch {
    return null;
  }
}

export function FlashCountdown(props: FlashCountdownProps) {
  const [offset, setOffset] = useState<number>(() => props.offset_ms ?? serverClockOffset() ?? 0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (props.offset_ms !== undefined || serverClockOffset() !== null) return;
    let live = true;
    void askServerClock().then((o) => {
      if (live && o !== null) setOffset(o);
    });
    return () => {
      live = false;
    };
  }, [props.offset_ms]);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return <span role="timer">{countdownText(props, now + offset)}</span>;
}
