// The compare page (/compare): a table of up to 5 products side by side
// (image, name, price, description, then one row per attribute any of them
// has), each with Add to cart and Remove. The list belongs to the visitor's
// self token, so guests can compare too.
import { useCallback, useEffect, useState } from 'react';
import { ApiError, apiGet } from '../../lib/api';
import { addProduct } from '../../lib/cart';
import { emit } from '../../lib/events';
import { imageUrl } from '../../lib/image';
import { formatTaka } from '../../lib/money';
import styles from './ComparePage.module.css';
import type { CompareAttr, CompareResponse } from './types';

export const MAX_COMPARED = 5;
type Product = CompareResponse['products'][number];
const message = (e: unknown, fallback: string) => (e instanceof ApiError ? e.message : fallback);
const attrName = (a: CompareAttr) => a.field_label;

/** Short descriptions are staff-written HTML; the table shows their text (parsed inert: nothing loads or runs). */
function plain(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';
}

export function ComparePage() {
  const [products, setProducts] = useState<Product[] | undefined>(undefined);
  const [loadError, setLoadError] = useState('');
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    apiGet<CompareResponse>('/api/common/compare')
      .then((r) => {
        const list = r.products;
        const seen = new Set<number>();
        setProducts(list.filter((p) => !seen.has(p.id) && seen.add(p.id)).slice(0, MAX_COMPARED));
        setLoadError('');
      })
      .catch((e: unknown) => setLoadError(message(e, 'Your compare list could not be loaded.')));
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

  if (loadError)
    return (
      <p className={styles.error} role="alert">
        {loadError}
      </p>
    );
  if (!products) return <p className="muted">Loading your compare list…</p>;
  if (!products.length)
    return (
      <p>
        Nothing to compare yet. Choose Compare on a product to add it. <a href="/c/products">Browse products</a>
      </p>
    );

  const attrs = [...new Set(products.flatMap((p) => p.attr.map(attrName)).filter(Boolean))];
  const valueOf = (p: Product, name: string) =>
    p.attr
      .filter((a) => attrName(a) === name)
      .map((a) => a.value)
      .filter((v) => v !== '')
      .join(', ') || '–';

  return (
    <div>
      <div aria-live="polite">{note?.ok && <p className={styles.ok}>{note.text}</p>}</div>
      {note && !note.ok && (
        <p className={styles.error} role="alert">
          {note.text}
        </p>
      )}
      <div className={styles.scroll}>
        <table className={styles.table} style={{ minWidth: `calc(7rem + ${products.length} * 10rem)` }}>
          <caption className="sr-only">Products compared</caption>
          <thead>
            <tr>
              <td />
              {products.map((p) => (
                <th key={p.id} scope="col">
                  {p.image_url && <img src={imageUrl(p.image_url, 300)} width="150" height="150" alt="" loading="lazy" />}
                  <a href={`/product/${p.seo_url}`}>{p.title}</a>
                  {p.sub_title && <small>{p.sub_title}</small>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Price</th>
              {products.map((p) => (
                <td key={p.id} className="pr">
                  {p.price_now !== undefined ? formatTaka(p.price_now) : '–'}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">Description</th>
              {products.map((p) => (
                <td key={p.id}>{p.short_description ? plain(p.short_description) : '–'}</td>
              ))}
            </tr>
            {attrs.map((name) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                {products.map((p) => (
                  <td key={p.id}>{valueOf(p, name)}</td>
                ))}
              </tr>
            ))}
            <tr>
              <td />
              {products.map((p) => (
                <td key={p.id}>
                  {/* The grid is inside the cell: a td that is itself a grid leaves the table, and every cell's buttons stacked under the first product. */}
                  <div className={styles.actions}>
                    <button
                      type="button"
                      className="btn"
                      disabled={busy}
                      aria-label={`Add ${p.title} to cart`}
                      onClick={() =>
                        void run(
                          async () => (await addProduct({ id: p.id, title: p.title, price: p.price_now }), `Added to your cart: ${p.title}.`),
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
                      aria-label={`Remove ${p.title} from compare`}
                      onClick={() =>
                        void run(async () => {
                          await apiGet('/api/common/remove-compare', { pid: p.id });
                          setProducts((list) => list?.filter((x) => x.id !== p.id));
                          emit('compare:changed', {});
                          return `Removed ${p.title} from compare.`;
                        }, 'Could not remove it.')
                      }
                    >
                      Remove
                    </button>
                  </div>
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
    </div>
  );
}
