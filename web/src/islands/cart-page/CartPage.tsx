// The cart page (/cart, issue 4): the visitor's items and product sets with
// quantity (1–99: a quantity below 1 is refused beside its box, with a way
// to remove the line, and one above 99 is lowered to 99 with a word), price
// and remove; a coupon; the delivery charge for the
// district chosen; the totals; and "Proceed to checkout", which records the
// cart and coupon for checkout (`cart/checkout-address`) before going on.
// Every answer is shown, errors included. Changes made elsewhere (the
// header's mini-cart) reload it through `cart:changed`.
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { ApiError, apiGet, apiPost } from '../../lib/api';
import { discountOf, fetchCart, lineCode, removeLine, removeSet, setQuantity, setsOf, type Cart, type CartLine } from '../../lib/cart';
import { on } from '../../lib/events';
import { imageUrl } from '../../lib/image';
import { formatTaka } from '../../lib/money';
import { navigate } from '../../lib/navigate';
import styles from './CartPage.module.css';
import type { CouponApplyResponse, DeliveryChargeResponse, DistrictsResponse } from './types';

export const MAX_QTY = 99;
/**
 * Where the chosen district and the applied coupon are kept for checkout. The district chosen
 * on this device comes first; without one (another browser, storage cleared, a gateway that
 * brought the shopper back to another address of the shop) the cart's own, saved with the
 * delivery address, is taken.
 */
export const DISTRICT_KEY = 'checkout-district';
export const COUPON_KEY = 'checkout-coupon';

const message = (e: unknown, fallback: string) => (e instanceof ApiError ? e.message : fallback);
const stored = (key: string) => {
  try {
    return localStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
};
const store = (key: string, value: string) => {
  try {
    if (value) localStorage.setItem(key, value);
    else localStorage.removeItem(key);
  } catch {
    // No storage: checkout asks again.
  }
};

/** Why a typed quantity was not taken as it is: below 1 (the line stays; removing it is offered) or above 99. */
export const TOO_FEW = 'Quantity must be at least 1.';
export const TOO_MANY = `You can buy at most ${MAX_QTY} at a time. For more, please contact us.`;

function Quantity({
  line,
  busy,
  note,
  onSet,
  onNote,
  onRemove,
}: {
  line: CartLine;
  busy: boolean;
  /** The word beside the box about the last quantity typed, if any. */
  note: string;
  onSet: (qty: number) => void;
  onNote: (text: string) => void;
  onRemove: () => void;
}) {
  const noteId = useId();
  const [text, setText] = useState(String(line.qty));
  // The box shows the cart's quantity again once a change is answered, a
  // refused one included (the message says why).
  useEffect(() => {
    if (!busy) setText(String(line.qty));
  }, [busy, line.qty]);
  const commit = (value: number) => {
    const typed = Math.round(value);
    if (!(typed >= 1)) {
      // 0, −1 or nothing: the line keeps its quantity, and the shopper is told why.
      setText(String(line.qty));
      onNote(TOO_FEW);
      return;
    }
    const qty = Math.min(MAX_QTY, typed);
    setText(String(qty));
    if (qty !== line.qty) onSet(qty);
    if (typed > MAX_QTY) onNote(TOO_MANY);
  };
  return (
    <>
      <span className={styles.qty}>
        <button type="button" aria-label={`One less ${line.info.title}`} disabled={busy || line.qty <= 1} onClick={() => commit(line.qty - 1)}>
          −
        </button>
        <input
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_QTY}
          aria-label={`Quantity of ${line.info.title}`}
          aria-describedby={note ? noteId : undefined}
          value={text}
          disabled={busy}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => commit(Number(text))}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit(Number(text));
          }}
        />
        <button type="button" aria-label={`One more ${line.info.title}`} disabled={busy || line.qty >= MAX_QTY} onClick={() => commit(line.qty + 1)}>
          +
        </button>
      </span>
      {note && (
        <p id={noteId} className={styles.error} role="alert">
          {note}
          {note === TOO_FEW && (
            <>
              {' '}
              <button type="button" className={styles.textbtn} disabled={busy} onClick={onRemove}>
                Remove {line.info.title} from the cart
              </button>
            </>
          )}
        </p>
      )}
    </>
  );
}

function Product({ line }: { line: CartLine }) {
  return (
    <span className={styles.product}>
      {line.info.image_url ? <img src={imageUrl(line.info.image_url, 200)} width="64" height="64" alt="" loading="lazy" /> : <span className={styles.noimg} />}
      <span>
        {line.info.seo_url ? <a href={`/product/${line.info.seo_url}`}>{line.info.title}</a> : line.info.title}
        {(line.item?.sub_title || line.info.sub_title) && <small>{line.item?.sub_title || line.info.sub_title}</small>}
        {line.item?.variation_info?.variations && <small>{line.item.variation_info.variations}</small>}
      </span>
    </span>
  );
}

export function CartPage() {
  const id = useId();
  const [cart, setCart] = useState<Cart | null | undefined>(undefined);
  const [loadError, setLoadError] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [coupon, setCoupon] = useState(() => stored(COUPON_KEY));
  const [couponNote, setCouponNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [districts, setDistricts] = useState<string[]>([]);
  const [district, setDistrict] = useState(() => stored(DISTRICT_KEY));
  const [delivery, setDelivery] = useState<number | null>(null);
  const [deliveryNote, setDeliveryNote] = useState('');
  /** The word beside one line's quantity box (its key and the text). */
  const [qtyNote, setQtyNote] = useState<{ key: string; text: string } | null>(null);

  const load = useCallback(() => {
    fetchCart()
      .then((r) => {
        setCart(r.cart ?? null);
        setLoadError('');
        const saved = r.district || r.address?.district;
        if (saved) setDistrict((chosen) => chosen || saved);
      })
      .catch((e: unknown) => setLoadError(message(e, 'Your cart could not be loaded.')));
  }, []);

  useEffect(() => {
    load();
    return on('cart:changed', load);
  }, [load]);

  useEffect(() => {
    apiGet<DistrictsResponse>('/api/common/districts', undefined, { quiet: true })
      .then((r) => setDistricts([...new Set((r.districts ?? []).map((d) => d.district))].sort()))
      .catch(() => setDistricts([]));
  }, []);

  const total = Number(cart?.totalprice) || 0;
  useEffect(() => {
    if (!district || !total) {
      setDelivery(null);
      return;
    }
    let live = true;
    apiGet<DeliveryChargeResponse>('/api/cart/get-delivery-charge', { district }, { quiet: true })
      .then((r) => {
        if (!live) return;
        setDelivery(Number(r.deliverycharge) || 0);
        setDeliveryNote('');
      })
      .catch(() => {
        if (!live) return;
        setDelivery(null);
        setDeliveryNote('The delivery charge is shown at checkout.');
      });
    return () => {
      live = false;
    };
  }, [district, total]);

  const act = async (key: string, work: () => Promise<void>, fallback: string) => {
    setBusy(key);
    setError('');
    setQtyNote(null);
    try {
      await work();
    } catch (e) {
      setError(message(e, fallback));
    } finally {
      setBusy(null);
    }
  };

  const applyCoupon = async (e: FormEvent) => {
    e.preventDefault();
    const code = coupon.trim();
    if (!code) {
      setCouponNote({ ok: false, text: 'Please enter a coupon code.' });
      return;
    }
    setBusy('coupon');
    setError('');
    setQtyNote(null);
    try {
      const r = await apiPost<CouponApplyResponse>('/api/cart/coupon-apply', { coupon: code });
      store(COUPON_KEY, code);
      setCouponNote({ ok: true, text: r.message || 'Coupon applied successfully' });
      load();
    } catch (err) {
      store(COUPON_KEY, '');
      setCouponNote({ ok: false, text: message(err, 'The coupon could not be applied.') });
    } finally {
      setBusy(null);
    }
  };

  const checkout = () =>
    act(
      'checkout',
      async () => {
        await apiGet('/api/cart/checkout-address', { coupon: stored(COUPON_KEY) || 'false' });
        navigate('/checkout');
      },
      'Checkout could not start. Please try again.',
    );

  if (cart === undefined) {
    return loadError ? (
      <div>
        <p className={styles.error} role="alert">
          {loadError}
        </p>
        <button type="button" className="btn" onClick={load}>
          Try again
        </button>
      </div>
    ) : (
      <p className="muted">Loading your cart…</p>
    );
  }

  const items = cart?.items ?? [];
  const sets = setsOf(cart);
  if (!items.length && !sets.length) {
    return (
      <div className={styles.empty}>
        <p>Your cart is currently empty</p>
        <a className="btn" href="/c/products">
          Continue shopping
        </a>
      </div>
    );
  }

  const discount = discountOf(cart);
  const grand = total - discount + (delivery ?? 0);
  return (
    <div className={styles.page}>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {items.length > 0 && (
        <table className={styles.table}>
          <caption className="sr-only">Items in your cart</caption>
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Price</th>
              <th scope="col">Quantity</th>
              <th scope="col">Total</th>
              <th scope="col">
                <span className="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((l, i) => {
              const key = `${lineCode(l)}-${i}`;
              return (
                <tr key={key}>
                  <td>
                    <Product line={l} />
                  </td>
                  <td data-label="Price">{formatTaka(l.purchaseprice)}</td>
                  <td data-label="Quantity">
                    <Quantity
                      line={l}
                      busy={busy !== null}
                      note={qtyNote?.key === key ? qtyNote.text : ''}
                      onSet={(qty) => void act(key, () => setQuantity(l, qty), 'The quantity could not be changed.')}
                      onNote={(text) => setQtyNote({ key, text })}
                      onRemove={() => void act(key, () => removeLine(l), 'That item could not be removed.')}
                    />
                  </td>
                  <td data-label="Total">{formatTaka(l.purchaseprice * l.qty)}</td>
                  <td>
                    <button
                      type="button"
                      className={styles.remove}
                      disabled={busy !== null}
                      aria-label={`Remove ${l.info.title}`}
                      onClick={() => void act(key, () => removeLine(l), 'That item could not be removed.')}
                    >
                      ×
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {sets.map((s, i) => (
        <section key={`set-${s.info.id ?? i}`} className={styles.set} aria-labelledby={`${id}-set${i}`}>
          <h2 id={`${id}-set${i}`}>{s.info.slug ? <a href={`/product-set/${s.info.slug}`}>{s.info.title}</a> : s.info.title}</h2>
          {s.info.fabric_title && <p className={styles.fabric}>Fabric: {s.info.fabric_title}</p>}
          <ul>
            {s.items.map((l, j) => (
              <li key={`${lineCode(l)}-${j}`}>
                <Product line={l} />
                <span>
                  {l.qty} × {formatTaka(l.purchaseprice)}
                </span>
              </li>
            ))}
          </ul>
          <p className={styles.settotal}>
            Set total <strong>{formatTaka(s.items.reduce((sum, l) => sum + l.qty * l.purchaseprice, 0))}</strong>{' '}
            <button
              type="button"
              className={styles.textbtn}
              disabled={busy !== null}
              onClick={() => void act(`set-${i}`, () => removeSet(s), 'The set could not be removed.')}
            >
              Remove the set
            </button>
          </p>
        </section>
      ))}
      <div className={styles.side}>
        <form className={styles.coupon} onSubmit={(e) => void applyCoupon(e)} noValidate>
          <label htmlFor={`${id}-coupon`}>Coupon code</label>
          <span>
            <input
              id={`${id}-coupon`}
              value={coupon}
              autoComplete="off"
              aria-describedby={couponNote ? `${id}-cn` : undefined}
              onChange={(e) => setCoupon(e.target.value)}
            />
            <button className="btn alt" disabled={busy !== null}>
              Apply
            </button>
          </span>
          {couponNote && (
            <p id={`${id}-cn`} className={couponNote.ok ? styles.ok : styles.error} role={couponNote.ok ? 'status' : 'alert'}>
              {couponNote.text}
            </p>
          )}
        </form>
        <label className={styles.district}>
          Deliver to (district)
          <select
            value={district}
            onChange={(e) => {
              setDistrict(e.target.value);
              store(DISTRICT_KEY, e.target.value);
              setError('');
              setQtyNote(null);
            }}
          >
            <option value="">Choose a district</option>
            {districts.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        {deliveryNote && <p className="muted">{deliveryNote}</p>}
        <dl className={styles.totals}>
          <dt>Subtotal</dt>
          <dd>{formatTaka(total)}</dd>
          {discount > 0 && (
            <>
              <dt>Discount</dt>
              <dd>−{formatTaka(discount)}</dd>
            </>
          )}
          <dt>Delivery</dt>
          <dd>{delivery === null ? 'Choose a district' : formatTaka(delivery)}</dd>
          <dt className={styles.grand}>Total</dt>
          <dd className={styles.grand}>{formatTaka(grand)}</dd>
        </dl>
        <button type="button" className="btn" disabled={busy !== null} onClick={() => void checkout()}>
          Proceed to checkout
        </button>
      </div>
    </div>
  );
}
