// The loading bar (SPEC.md §4, §9): a thin bar pinned to the top of the
// window while the api wrapper has requests running, or while the next page
// loads after a click on a link of this site or a form's submission (a
// route load: every page is its own document, so the bar runs until this one
// goes away, or comes back from the back-forward cache). It shows only for
// work still running after 200 ms (throttle), creeps across in 5000 ms,
// jumps to the end when the requests finish, and turns amber when one fails.
// Fixed position: it never moves the page.
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
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const later = (ms: number, f: () => void) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(f, ms);
    };
    const hide = () => {
      shown.current = false;
      failed.current = false;
      setState('idle');
    };
    const settle = () => {
      if (pending.current > 0) return;
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
    const leaving = () => {
      failed.current = false;
      later(throttle_ms, () => {
        shown.current = true;
        setState('running');
      });
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!a || (a.target && a.target !== '_self') || a.hasAttribute('download')) return;
      const to = new URL(a.href, location.href);
      if (to.origin !== location.origin) return;
      // A link within this page (#menu, #account) loads nothing.
      if (to.pathname === location.pathname && to.search === location.search && to.hash) return;
      leaving();
    };
    const onSubmit = (e: SubmitEvent) => {
      if (!e.defaultPrevented) leaving();
    };
    // Back from the back-forward cache: nothing is loading any more.
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted && pending.current === 0) hide();
    };
    // Listened to after every other handler ran (bubbling to window), so a
    // link or form an island handles itself (preventDefault) starts nothing.
    window.addEventListener('click', onClick);
    window.addEventListener('submit', onSubmit);
    window.addEventListener('pageshow', onShow);
    return () => {
      offs.forEach((off) => off());
      window.removeEventListener('click', onClick);
      window.removeEventListener('submit', onSubmit);
      window.removeEventListener('pageshow', onShow);
      clearTimeout(timer.current);
    };
  }, [throttle_ms]);

  return <div className={styles.bar} data-state={state} aria-hidden="true" style={{ animationDuration: `${duration_ms}ms` }} />;
}
