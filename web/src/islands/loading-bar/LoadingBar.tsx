// The loading bar (SPEC.md §4, §9): a thin bar pinned to the top of the
// window while the api wrapper has requests running, or while the next page
// loads (a route load) after a tap on a link of this site, a form's
// submission or an island's `navigate`. Requests show it only when still
// running after 200 ms (throttle); a route load shows it at once, since the
// shopper asked for it and the next page's first bytes often come in less:
// every page is its own document, so it runs until this one goes away
// (pagehide) and never on a page back from the back-forward cache (pageshow),
// whatever requests end meanwhile. It creeps across in 5000 ms, jumps to the
// end when the requests finish, and turns amber when one fails. Fixed
// position: it never moves the page.
import { useEffect, useRef, useState } from 'react';
import { on } from '../../lib/events';
import styles from './LoadingBar.module.css';
import type { LoadingBarProps } from './types';

export const THROTTLE_MS = 200;
export const DURATION_MS = 5000;
/** How long the finished or failed bar stays before it hides. */
export const LINGER_MS = 400;
export const FAILED_LINGER_MS = 1500;

export type BarState = 'idle' | 'running' | 'done' | 'failed';

export function LoadingBar({ throttle_ms = THROTTLE_MS, duration_ms = DURATION_MS }: LoadingBarProps) {
  const [state, setState] = useState<BarState>('idle');
  const pending = useRef(0);
  const failed = useRef(false);
  const shown = useRef(false);
  /** A route load is under way: only the page going (or coming back) ends it. */
  const leaving = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const later = (ms: number, f: () => void) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(f, ms);
    };
    const hide = () => {
      clearTimeout(timer.current);
      leaving.current = shown.current = false;
      failed.current = false;
      setState('idle');
    };
    const settle = () => {
      if (pending.current > 0 || leaving.current) return;
      if (failed.current) {
        shown.current = true;
        setState('failed');
        later(FAILED_LINGER_MS, hide);
      } else if (shown.current) {
        setState('done');
        later(LINGER_MS, hide);
      } else {
        clearTimeout(timer.current);
      }
    };
    const offs = [
      on('loading:start', () => {
        pending.current += 1;
        if (pending.current === 1 && !shown.current) {
          failed.current = false;
          later(throttle_ms, () => {
            shown.current = true;
            setState('running');
          });
        } else if (shown.current) {
          clearTimeout(timer.current);
          setState('running');
        }
      }),
      on('loading:finish', () => {
        pending.current = Math.max(0, pending.current - 1);
        settle();
      }),
      on('loading:fail', () => {
        failed.current = true;
        settle();
      }),
    ];
    // A route load: the next page is on its way.
    const leave = () => {
      clearTimeout(timer.current);
      failed.current = false;
      leaving.current = shown.current = true;
      setState('running');
    };
    offs.push(on('loading:route', leave));
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!a || (a.target && a.target !== '_self') || a.hasAttribute('download')) return;
      const to = new URL(a.href, location.href);
      if (to.origin !== location.origin) return;
      // A link within this page (#menu, #account) loads nothing.
      if (to.pathname === location.pathname && to.search === location.search && to.hash) return;
      leave();
    };
    const onSubmit = (e: SubmitEvent) => {
      if (!e.defaultPrevented) leave();
    };
    // The page goes (into the back-forward cache too), or comes back from it: the route load is over.
    const onGone = () => {
      if (leaving.current) hide();
    };
    // Listened to after every other handler ran (bubbling to window), so a
    // link or form an island handles itself (preventDefault) starts nothing.
    window.addEventListener('click', onClick);
    window.addEventListener('submit', onSubmit);
    window.addEventListener('pagehide', onGone);
    window.addEventListener('pageshow', onGone);
    return () => {
      offs.forEach((off) => off());
      window.removeEventListener('click', onClick);
      window.removeEventListener('submit', onSubmit);
      window.removeEventListener('pagehide', onGone);
      window.removeEventListener('pageshow', onGone);
      clearTimeout(timer.current);
    };
  }, [throttle_ms]);

  return <div className={styles.bar} data-state={state} aria-hidden="true" style={{ animationDuration: `${duration_ms}ms` }} />;
}
