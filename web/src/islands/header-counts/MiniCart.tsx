// The hover mini-cart's panel (SPEC.md §2): items and product sets with
// quantity, price and a remove control, the total, Checkout Now and View
// Cart, or "Your cart is currently empty".
import { formatTaka } from '../../lib/money';
import { imageUrl } from '../../lib/image';
import styles from './HeaderCounts.module.css';
import { lineCode, setsOf, type CartLine, type CartSet, type CartViewResponse } from '../../lib/cart';

/** What to remove: one line, or a whole set. */
export type Removal = { line: CartLine } | { set: CartSet };

export function MiniCart({
  cart,
  error,
  busy,
  onRemove,
}: {
  cart: CartViewResponse['cart'] | undefined;
  error: string;
  busy: boolean;
  onRemove: (r: Removal) => void;
}) {
  const items = cart?.items ?? [];
  const sets = setsOf(cart);
  const loading = cart === undefined && !error;
  const line = (l: CartLine, i: number, removable: boolean) => (
    <li key={`${lineCode(l)}-${i}`} className={styles.line}>
      {l.info.image_url ? <img src={imageUrl(l.info.image_url, 100)} width="48" height="48" alt="" loading="lazy" /> : <span className={styles.noimg} />}
      <span className={styles.what}>
        {l.info.seo_url ? <a href={`/product/${l.info.seo_url}`}>{l.info.title}</a> : l.info.title}
        <small>
          {l.qty} × {formatTaka(l.purchaseprice)}
        </small>
      </span>
      {removable && (
        <button type="button" className={styles.remove} disabled={busy} aria-label={`Remove ${l.info.title}`} onClick={() => onRemove({ line: l })}>
          ×
        </button>
      )}
    </li>
  );
  return (
    <div className={styles.mini}>
      {loading && <p className={styles.note}>Loading your cart…</p>}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {cart !== undefined && !items.length && !sets.length && <p className={styles.note}>Your cart is currently empty</p>}
      {(items.length > 0 || sets.length > 0) && (
        <>
          <ul className={styles.lines}>{items.map((l, i) => line(l, i, true))}</ul>
          {sets.map((s, i) => (
            <div key={`set-${s.info.id ?? i}`} className={styles.set}>
              <div className={styles.sethead}>
                <span>{s.info.slug ? <a href={`/product-set/${s.info.slug}`}>{s.info.title}</a> : s.info.title}</span>
                <button
                  type="button"
                  className={styles.remove}
                  disabled={busy}
                  aria-label={`Remove the set ${s.info.title}`}
                  onClick={() => onRemove({ set: s })}
                >
                  ×
                </button>
              </div>
              <ul className={styles.lines}>{s.items.map((l, j) => line(l, j, false))}</ul>
            </div>
          ))}
          <p className={styles.total}>
            <span>Total</span> <strong>{formatTaka(cart?.totalprice ?? 0)}</strong>
          </p>
          <p className={styles.actions}>
            <a className="btn" href="/checkout">
              Checkout Now
            </a>
            <a className="btn alt" href="/cart">
              View Cart
            </a>
          </p>
        </>
      )}
    </div>
  );
}
