// The header's icons with their counts (SPEC.md §2): profile, compare,
// wishlist and cart (its pieces, the sum of the quantities: `cartQty`; three
// of one sofa are 3 items, not the 1 line `cartCount` counts), counted by
// `GET /api/cart/count-notification` and again
// whenever an island says the cart, wishlist or compare list changed (a cart
// change that carries the new count, as an add-to-cart answer does, is shown
// without asking: one round trip less on a slow link). Hovering
// or focusing the cart opens the mini-cart; it is fetched from `GET
// /api/cart/view` only when none is loaded or a change forced a refresh
// (SPEC.md §4). Removing a line sends `pid` + `pcode` (a set: `pid_codes`).
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, apiGet } from '../../lib/api';
import { cartLabel, fetchCart, removeLine, removeSet, type CartViewResponse } from '../../lib/cart';
import { on } from '../../lib/events';
import styles from './HeaderCounts.module.css';
import { Icon } from './icons';
import { MiniCart, type Removal } from './MiniCart';
import type { CountResponse, HeaderCountsProps } from './types';

/** How long the mini-cart stays after the pointer leaves, in ms. */
export const CLOSE_DELAY_MS = 250;

/** The counts shown: none until the first answer (the cart's may come first, from the page or an add). */
type Counts = Partial<Pick<CountResponse, 'compareCount' | 'wishCount' | 'cartQty'>>;

export function HeaderCounts({ profile_url = '/user/profile', cartCount: known }: HeaderCountsProps) {
  const [counts, setCounts] = useState<Counts>(known === undefined ? {} : { cartQty: known });
  const [open, setOpen] = useState(false);
  const [cart, setCart] = useState<CartViewResponse['cart'] | undefined>(undefined);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const stale = useRef(true);
  const loading = useRef(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const wrap = useRef<HTMLDivElement>(null);
  const quietFocus = useRef(false);
  // How many cart counts other islands have told: an answer to a count asked
  // before the latest one may predate that change, so its cart count is dropped.
  const told = useRef(0);

  const loadCounts = useCallback(() => {
    const before = told.current;
    apiGet<CountResponse>('/api/cart/count-notification', undefined, { quiet: true })
      .then(({ compareCount, wishCount, cartQty }) =>
        setCounts((now) => ({ compareCount, wishCount, cartQty: told.current === before ? cartQty : now.cartQty })),
      )
      .catch(() => {
        // Counts are a convenience: the links still work without them.
      });
  }, []);

  const loadCart = useCallback((force = false) => {
    if ((!stale.current && !force) || loading.current) return;
    loading.current = true;
    stale.current = false;
    fetchCart()
      .then((r) => {
        setCart(r.cart ?? null);
        setError('');
      })
      .catch((e: unknown) => {
        stale.current = true;
        setError(e instanceof ApiError ? e.message : 'Your cart could not be loaded.');
      })
      .finally(() => {
        loading.current = false;
      });
  }, []);

  useEffect(() => {
    loadCounts();
    const changed = () => loadCounts();
    const offs = [
      on('cart:changed', (detail) => {
        stale.current = true;
        const count = detail?.count;
        if (typeof count !== 'number') return loadCounts();
        told.current++;
        setCounts((now) => ({ ...now, cartQty: count }));
      }),
      on('wishlist:changed', changed),
      on('compare:changed', changed),
    ];
    return () => offs.forEach((off) => off());
  }, [loadCounts]);

  // An open mini-cart follows changes made elsewhere on the page.
  useEffect(() => {
    if (open) loadCart();
    return on('cart:changed', () => {
      if (open) loadCart(true);
    });
  }, [open, loadCart]);

  const show = () => {
    clearTimeout(closeTimer.current);
    setOpen(true);
  };
  const hideSoon = () => {
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setOpen(false), CLOSE_DELAY_MS);
  };
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const remove = async (r: Removal) => {
    setBusy(true);
    try {
      // Both fire cart:changed, which refreshes the counts and this mini-cart.
      await ('set' in r ? removeSet(r.set) : removeLine(r.line));
      setError('');
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'That item could not be removed.');
    } finally {
      setBusy(false);
    }
  };

  const badge = (n: number | undefined) => <b>{n ?? 0}</b>;
  const products = (n: number | undefined) => `${n ?? 0} ${n === 1 ? 'product' : 'products'}`;
  const cartCount = counts.cartQty ?? 0;
  return (
    <>
      <a href={profile_url} aria-label="My Profile">
        <Icon id="user" />
      </a>
      <a href="/compare" aria-label={`Compare, ${products(counts.compareCount)}`}>
        <Icon id="cmp" />
        {badge(counts.compareCount)}
      </a>
      <a href="/wishlist" aria-label={`Wishlist, ${products(counts.wishCount)}`}>
        <Icon id="heart" />
        {badge(counts.wishCount)}
      </a>
      <div
        ref={wrap}
        className={styles.cart}
        onMouseEnter={show}
        onMouseLeave={hideSoon}
        onFocus={() => {
          if (!quietFocus.current) show();
        }}
        onBlur={(e) => {
          if (!wrap.current?.contains(e.relatedTarget)) setOpen(false);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) {
            setOpen(false);
            quietFocus.current = true;
            wrap.current?.querySelector('a')?.focus();
            quietFocus.current = false;
          }
        }}
      >
        <a href="/cart" aria-label={cartLabel(cartCount)} aria-expanded={open} aria-controls="mini-cart">
          <Icon id="cart" />
          {badge(counts.cartQty)}
        </a>
        <div id="mini-cart" className={styles.panel} hidden={!open} role="region" aria-label="Your cart">
          {open && <MiniCart cart={cart} error={error} busy={busy} onRemove={(r) => void remove(r)} />}
        </div>
      </div>
    </>
  );
}
