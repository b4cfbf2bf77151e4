// A product set's buttons (issue 15): the set's items with their stock as
// the page was generated, checked again against the API (the page may be
// stale) before the add is offered; a set one of whose items cannot be
// supplied in the set's quantity says which and offers no add. Where the set
// comes in fabrics, the shopper chooses one (a radio group) and it goes with
// the add (`fabric_id`).
import { useEffect, useId, useRef, useState } from 'react';
import * as analytics from '../../lib/analytics';
import { ApiError, apiGet } from '../../lib/api';
import { emit } from '../../lib/events';
import { formatTaka } from '../../lib/money';
import { imageUrl } from '../../lib/image';
import { FeedbackLine, useActions } from './actions';
import styles from './BuyButtons.module.css';
import type { AddSetResponse, SetBuyProps, SetFabricsResponse, SetProductsResponse } from './types';

/** A product of the set (the page's props and the API name it alike). */
interface Item {
  id: number;
  title: string;
  seo_url: string;
  qty: number;
  price_now: number;
  stock_status: string;
  product_set_qty: number;
  disable_buy: boolean;
  product_code?: string;
}

/** How an item stands for the set: its label, and whether the set can have it. */
export function stockOf(i: Item): { label: string; ok: boolean } {
  if (i.disable_buy) return { label: 'Not sold online', ok: false };
  if (i.stock_status === 'pre_booking') return { label: 'Pre-booking', ok: true };
  if (i.qty <= 0) return { label: 'Out of stock', ok: false };
  if (i.qty < i.product_set_qty) return { label: 'Too few in stock', ok: false };
  return { label: 'In stock', ok: true };
}

type Check = 'checking' | 'done' | 'failed';

export function SetButtons(p: SetBuyProps) {
  const id = useId();
  const { busy, feedback, setFeedback, run } = useActions();
  const [items, setItems] = useState<Item[]>(p.items);
  const [fabrics, setFabrics] = useState(p.fabrics);
  const [check, setCheck] = useState<Check>('checking');
  const [fabric, setFabric] = useState<number | null>(null);
  const [fabricError, setFabricError] = useState(false);
  const firstFabric = useRef<HTMLInputElement>(null);

  const recheck = async () => {
    setCheck('checking');
    try {
      const [set, fab] = await Promise.all([
        apiGet<SetProductsResponse>('/api/product/product-set-products', { slug: p.slug }, { quiet: true }),
        apiGet<SetFabricsResponse>('/api/product/product-set-fabrics', { slug: p.slug }, { quiet: true }),
      ]);
      setItems(set.products);
      setFabrics(fab.fabrics.map((f) => ({ id: f.id, title: f.title, image_url: f.image_url ?? null })));
      setFabric((chosen) => (fab.fabrics.some((f) => f.id === chosen) ? chosen : null));
      setCheck('done');
    } catch {
      setCheck('failed');
    }
  };
  useEffect(() => {
    void recheck();
    // Once, when the island takes over; later checks follow a failed add.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const blocked = items.filter((i) => !stockOf(i).ok);
  const canAdd = check !== 'checking' && items.length > 0 && blocked.length === 0;
  const chosen = fabrics.find((f) => f.id === fabric);

  const addSet = () => {
    if (fabrics.length && !chosen) {
      setFabricError(true);
      setFeedback(null);
      firstFabric.current?.focus();
      return;
    }
    void run('cart', async () => {
      try {
        const r = await apiGet<AddSetResponse>('/api/cart/add-to-cart', { pset_id: p.set_id, ...(chosen ? { fabric_id: chosen.id } : {}) });
        analytics.addToCart(
          items.map((x) => ({ item_id: x.product_code || String(x.id), item_name: x.title, price: x.price_now, quantity: x.product_set_qty })),
        );
        emit('cart:changed', { count: r.total_qty });
        return {
          ok: true,
          text: chosen ? `The set is in your cart, in ${chosen.title}.` : 'The set is in your cart.',
          link: { href: '/cart', label: 'View cart' },
        };
      } catch (e) {
        // The stock or the fabrics changed since the check: show them as they are now.
        if (e instanceof ApiError && (e.status === 409 || e.status === 400)) void recheck();
        throw e;
      }
    });
  };

  const stateId = `${id}-state`;
  const fabricErrorId = `${id}-fabric-error`;
  return (
    <div className={styles.wrap}>
      <h2>In this set</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Price</th>
            <th scope="col">Stock</th>
          </tr>
        </thead>
        <tbody>
          {items.map((i) => {
            const s = stockOf(i);
            return (
              <tr key={i.id}>
                <td>
                  <a href={`/product/${i.seo_url}`}>{i.title}</a>
                  <br />
                  <span className="muted">× {i.product_set_qty} in the set</span>
                </td>
                <td>{formatTaka(i.price_now)}</td>
                <td>{s.ok ? s.label : <strong className="fe">{s.label}</strong>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {fabrics.length > 0 && (
        <fieldset className={styles.fabrics} aria-describedby={fabricError && !chosen ? fabricErrorId : undefined}>
          <legend>Choose a fabric</legend>
          {fabrics.map((f, k) => (
            <label key={f.id} className={styles.fabric}>
              <input
                ref={k === 0 ? firstFabric : undefined}
                type="radio"
                name="fabric_id"
                value={f.id}
                checked={fabric === f.id}
                onChange={() => {
                  setFabric(f.id);
                  setFabricError(false);
                }}
              />
              {f.image_url ? <img src={imageUrl(f.image_url, 80)} width="40" height="40" alt="" /> : null}
              <span>{f.title}</span>
            </label>
          ))}
          {fabricError && !chosen && (
            <p id={fabricErrorId} className="fe" role="alert">
              Choose a fabric first.
            </p>
          )}
        </fieldset>
      )}
      <p id={stateId} className={check === 'checking' ? 'muted' : blocked.length ? 'al' : 'nt'} aria-live="polite">
        {check === 'checking'
          ? 'Checking stock…'
          : blocked.length
            ? `Out of stock: ${blocked.map((i) => i.title).join(', ')}`
            : check === 'failed'
              ? 'Stock could not be checked just now; the cart checks it when you add.'
              : `In stock: all ${items.length} items of the set.`}
      </p>
      <p>
        <button
          type="button"
          className="btn"
          disabled={!canAdd || busy !== null}
          aria-busy={busy === 'cart' || check === 'checking'}
          aria-describedby={canAdd ? undefined : stateId}
          onClick={addSet}
        >
          Add the set to cart
        </button>{' '}
        <a className="btn alt" href="/cart">
          View cart
        </a>
      </p>
      <FeedbackLine feedback={feedback} />
    </div>
  );
}
