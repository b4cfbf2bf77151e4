// The loading bar (SPEC.md §4, §9): a thin bar pinned to the top of the
// window while the api wrapper has requests running. It shows only for
// requests still running after 200 ms (throttle), creeps across in 5000 ms,
// jumps to the end when they finish, and turns red when one fails. Fixed
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
    return () => {
      offs.forEach((off) => off());
      clearTimeout(timer.current);
    };
  }, [throttle_ms]);

  return <div className={styles.bar} data-state={state} aria-hidden="true" style={{ animationDuration: `${duration_ms}ms` }} />;
}
