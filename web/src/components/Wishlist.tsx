// The signed-in shopper's wishlist, for the /wishlist page and the account's
// wishlist view: saved products with Add to cart and Remove; a guest is asked
// to sign in (the wishlist belongs to an account). Every answer is shown,
// errors included.
import { useCallback, useEffect, useState } from 'react';
import { ApiError, apiGet } from '../lib/api';
import { addProduct } from '../lib/cart';
import { emit } from '../lib/events';
import { imageUrl } from '../lib/image';
import { formatTaka } from '../lib/money';
import type { ListedProduct, ProductListResponse } from '../lib/types';
import styles from './Wishlist.module.css';

/** `GET /api/user/wishlist` (ORIGINAL-API.md §9). */
export type { ProductListResponse as WishlistResponse } from '../lib/types';

type Product = ListedProduct;
const message = (e: unknown, fallback: string) => (e instanceof ApiError ? e.message : fallback);

export function Wishlist() {
  const [products, setProducts] = useState<Product[] | undefined>(undefined);
  const [guest, setGuest] = useState(false);
  const [loadError, setLoadError] = useState('');
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    apiGet<ProductListResponse>('/api/user/wishlist')
      .then((r) => {
        // The original kept duplicates; show each product once.
        const seen = new Set<number>();
        setProducts(r.products.filter((p) => !seen.has(p.id) && seen.add(p.id)));
        setLoadError('');
      })
      .catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 401) setGuest(true);
        else setLoadError(message(e, 'Your wishlist could not be loaded.'));
      });
  }, []);
  useEffect(load, [load]);

  const run = async (work: () => Promise<string>, fallback: string) => {
    setBusy(true);
    setNote(null);
    try {
      setNote({ ok: true, text: await work() });
    } catch (e) {
      setNote({ ok: false, text: message(e, fallback) });
    } finally {
      setBusy(false);
    }
  };

  if (guest) {
    return (
      <p>
        Please <a href="/user/login">sign in</a> to see your wishlist.
      </p>
    );
  }
  if (loadError) {
    return (
      <p className={styles.error} role="alert">
        {loadError}
      </p>
    );
  }
  if (!products) return <p className="muted">Loading your wishlist…</p>;
  return (
    <div>
      <div aria-live="polite">{note?.ok && <p className={styles.ok}>{note.text}</p>}</div>
      {note && !note.ok && (
        <p className={styles.error} role="alert">
          {note.text}
        </p>
      )}
      {products.length === 0 ? (
        <p>
          Your wishlist is empty. <a href="/c/products">Browse products</a>
        </p>
      ) : (
        <ul className={styles.list}>
          {products.map((p) => (
            <li key={p.id}>
              {p.image_url ? <img src={imageUrl(p.image_url, 200)} width="80" height="80" alt="" loading="lazy" /> : <span className={styles.noimg} />}
              <span className={styles.what}>
                <a href={`/product/${p.seo_url}`}>{p.title}</a>
                {p.sub_title && <small>{p.sub_title}</small>}
                {p.product_price_now !== undefined && <span className="pr">{formatTaka(p.product_price_now)}</span>}
              </span>
              <span className={styles.actions}>
                <button
                  type="button"
                  className="btn"
                  disabled={busy}
                  onClick={() =>
                    void run(
                      async () => (await addProduct({ id: p.id, title: p.title, price: p.product_price_now }), `Added to your cart: ${p.title}.`),
                      'Could not add it to your cart.',
                    )
                  }
                >
                  Add to cart
                </button>
                <button
                  type="button"
                  className="btn alt"
                  disabled={busy}
                  aria-label={`Remove ${p.title} from the wishlist`}
                  onClick={() =>
                    void run(async () => {
                      await apiGet('/api/user/remove-wishlist', { pid: p.id });
                      setProducts((list) => list?.filter((x) => x.id !== p.id));
                      emit('wishlist:changed', {});
                      return `Removed ${p.title} from your wishlist.`;
                    }, 'Could not remove it.')
                  }
                >
                  Remove
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
