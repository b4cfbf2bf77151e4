// The online/offline indicator (SPEC.md §4: network online or offline is
// tracked): a note pinned to the bottom of the screen while offline, and a
// short "back online" note when the link returns. Fixed position, so it never
// moves the page.
import { useEffect, useState } from 'react';
import styles from './OnlineStatus.module.css';
import type { OnlineStatusProps } from './types';

type State = 'online' | 'offline' | 'back';

export function OnlineStatus({ back_ms = 4000 }: OnlineStatusProps) {
  const [state, setState] = useState<State>(() => (navigator.onLine ? 'online' : 'offline'));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const offline = () => {
      clearTimeout(timer);
      setState('offline');
    };
    const online = () => {
      setState('back');
      clearTimeout(timer);
      timer = setTimeout(() => setState('online'), back_ms);
    };
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, [back_ms]);
  return (
    <div role="status" className={styles.wrap}>
      {state === 'offline' && <p className={`${styles.note} ${styles.off}`}>You are offline. Pages you visited still open; the cart needs a connection.</p>}
      {state === 'back' && <p className={styles.note}>Back online.</p>}
    </div>
  );
}
