// The right drawer (SPEC.md §2 "Drawers", §4, §9): the account's links. The
// generator writes it as `<nav id="account" class="dr dr-r">` holding this
// island, whose fallback lists Sign in, Create account, My orders, Track an
// order and Wishlist; the header's profile icon links to `#account`, so
// without JavaScript the drawer opens through CSS :target. With JavaScript
// every link to `#account` opens it in place, as the left drawer opens:
// the page is flagged modal-open, focus moves in and stays in, Escape, the ×
// link or a click outside close it, and focus goes back to the icon. A
// signed-in shopper sees their name, My profile, My orders, Wishlist,
// Reviews and Sign out; a guest sees Sign in and Create account.
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { apiGet, authToken, signOut } from '../../lib/api';
import { loginUrl } from '../../lib/navigate';
import { useDrawerOpen } from './Drawer';
import styles from './Drawer.module.css';
import type { AccountUserResponse } from './types';

/** The signed-in shopper's links: path, label. */
export const ACCOUNT_LINKS: [string, string][] = [
  ['/user/profile', 'My profile'],
  ['/user/orders', 'My orders'],
  ['/wishlist', 'Wishlist'],
  ['/user/reviews', 'Reviews'],
];

export function AccountDrawer({ navId = 'account', startOpen = false }: { navId?: string; startOpen?: boolean }) {
  const [open, setOpen] = useState(startOpen);
  const [signedIn, setSignedIn] = useState(() => !!authToken());
  const [name, setName] = useState('');
  const opener = useRef<HTMLElement | null>(null);
  const asked = useRef(false);

  // Links to #account open the drawer in place; the × link closes it.
  useEffect(() => {
    const n = document.getElementById(navId);
    if (!n) return;
    n.classList.add(styles.nav);
    n.setAttribute('inert', '');
    const onClick = (e: MouseEvent) => {
      const link = (e.target as Element | null)?.closest?.(`a[href="#${navId}"]`);
      if (!link || n.contains(link)) return;
      e.preventDefault();
      opener.current = link as HTMLElement;
      setOpen(true);
    };
    const x = n.querySelector<HTMLAnchorElement>('a.x');
    const close = (e: Event) => {
      e.preventDefault();
      setOpen(false);
    };
    document.addEventListener('click', onClick);
    x?.addEventListener('click', close);
    return () => {
      document.removeEventListener('click', onClick);
      x?.removeEventListener('click', close);
      n.classList.remove(styles.nav);
      n.removeAttribute('inert');
    };
  }, [navId]);

  // Each opening reads the session afresh (sign-in may have happened in another tab).
  const onOpen = useCallback(() => {
    const token = !!authToken();
    setSignedIn(token);
    if (!token || asked.current) return;
    asked.current = true;
    apiGet<AccountUserResponse>('/api/auth/user', undefined, { quiet: true })
      .then((r) => setName(r.user?.name ?? ''))
      .catch(() => {
        asked.current = false;
        // A token the server refused is gone (the api wrapper forgot it).
        setSignedIn(!!authToken());
      });
  }, []);
  useDrawerOpen(navId, open, setOpen, opener, onOpen);

  return (
    <>
      {signedIn ? (
        <>
          <h2 className={styles.hello}>{name ? `Hello, ${name}` : 'My account'}</h2>
          <ul>
            {ACCOUNT_LINKS.map(([href, label]) => (
              <li key={href}>
                <a href={href}>{label}</a>
              </li>
            ))}
            <li>
              <button type="button" className={styles.link} onClick={() => void signOut()}>
                Sign out
              </button>
            </li>
          </ul>
        </>
      ) : (
        <>
          <h2 className={styles.hello}>My account</h2>
          <p className={styles.why}>Sign in to see your orders, wishlist and reviews.</p>
          <ul className={styles.pair}>
            <li>
              <a className="btn" href={loginUrl()}>
                Sign in
              </a>
            </li>
            <li>
              <a className="btn alt" href="/user/registration">
                Create account
              </a>
            </li>
          </ul>
          <h2>Orders</h2>
          <ul>
            <li>
              <a href="/page/track-order">Track an order</a>
            </li>
            <li>
              <a href="/wishlist">Wishlist</a>
            </li>
          </ul>
        </>
      )}
      {open && createPortal(<div className={styles.backdrop} onClick={() => setOpen(false)} />, document.body)}
    </>
  );
}
