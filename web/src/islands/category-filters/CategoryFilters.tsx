// Category filters, sort and pagination (issues 4 and 15). The generator
// writes the filters as plain links (`?filterby_<attr>=<value>`, only values
// the listing's products have, each with its count), a price range as a GET
// form (`price_min`, `price_max`) and the first page of cards with page
// links; this island turns the filters into toggles, checks the price range
// (whole taka, min not above max) before applying it, adds a sort select,
// and from then on keeps the state in the URL (pushState, and Back works),
// asks `GET /api/category/products` for the cards and `GET
// /api/category/filters` for the counts under the chosen filters (a value
// that would leave nothing is not offered), and redraws the grid and the
// page links in place (the `#listing` element, or the grid and page links
// that follow the island). A `view_item_list` event goes out for every list
// shown.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import * as analytics from '../../lib/analytics';
import { ApiError, apiGet } from '../../lib/api';
import { imageUrl, srcset } from '../../lib/image';
import { formatTaka } from '../../lib/money';
import { chosen, href, priceProblem, SORTS, toggle, withParam, withPrice } from './query';
import styles from './CategoryFilters.module.css';
import type { FilterGroup, FiltersResponse, ListedProduct, ProductsResponse } from './types';

/** The filter groups of a `category/filters` answer; values chosen in `q` but leaving nothing stay (count 0) so they can be taken back. */
function groupsOf(r: FiltersResponse, q: URLSearchParams, before: FilterGroup[]): FilterGroup[] {
  const groups: FilterGroup[] = r.filters_att.map((a) => ({
    label: a.field_label,
    param: `filterby_${a.field_name}`,
    values: a.values.map((v) => ({ slug: v.slug, label: v.value, count: v.count })),
  }));
  for (const old of before) {
    for (const slug of chosen(q, old.param)) {
      let g = groups.find((x) => x.param === old.param);
      if (!g) {
        g = { ...old, values: [] };
        groups.push(g);
      }
      if (!g.values.some((v) => v.slug === slug)) g.values.push({ slug, label: old.values.find((v) => v.slug === slug)?.label ?? slug, count: 0 });
    }
  }
  return groups;
}

const CARD_WIDTHS = [200, 300, 400, 600];

function Card({ p }: { p: ListedProduct }) {
  const img = p.first_image?.full_size_directory;
  const before = p.local_selling_price && p.local_selling_price > p.product_price_now ? p.local_selling_price : 0;
  return (
    <li className="card">
      <a href={`/product/${p.seo_url}`}>
        {img && (
          <img
            src={imageUrl(img, 400)}
            srcSet={srcset(img, CARD_WIDTHS)}
            sizes="(min-width:576px) 25vw, 50vw"
            width="400"
            height="400"
            alt={p.title}
            loading="lazy"
            decoding="async"
          />
        )}
        <h3>{p.title}</h3>
      </a>
      <p>{p.sub_title}</p>
      <p className="pr">
        {formatTaka(p.product_price_now)}
        {before > 0 && <s>{formatTaka(before)}</s>}
      </p>
      {p.local_discount ? <span className="off">-{p.local_discount}%</span> : null}
    </li>
  );
}

function Pages({ path, q, page, last, go }: { path: string; q: URLSearchParams; page: number; last: number; go: (q: URLSearchParams) => void }) {
  if (last <= 1) return null;
  const link = (n: number, label?: string, rel?: string) => {
    const next = withParam(q, 'page', String(n));
    return (
      <a
        key={`${label ?? n}`}
        href={href(path, next)}
        rel={rel}
        onClick={(e) => {
          e.preventDefault();
          go(next);
        }}
      >
        {label ?? n}
      </a>
    );
  };
  const items = [];
  if (page > 1) items.push(link(page - 1, '‹ Previous', 'prev'));
  for (let n = Math.max(1, page - 3); n <= Math.min(last, page + 3); n++) {
    items.push(
      n === page ? (
        <span key={n} aria-current="page">
          {n}
        </span>
      ) : (
        link(n)
      ),
    );
  }
  if (page < last) items.push(link(page + 1, 'Next ›', 'next'));
  return (
    <nav className="pages" aria-label="Pages">
      {items}
    </nav>
  );
}

interface Props {
  seoUrl: string;
  groups: FilterGroup[];
  /** The listing's lowest and highest price, taka (the price filter's placeholders). */
  priceLow: number | null;
  priceHigh: number | null;
  listing: HTMLElement | null;
}

export function CategoryFilters({ seoUrl, groups: initial, priceLow, priceHigh, listing }: Props) {
  const id = useId();
  const path = `/c/${seoUrl}`;
  const [q, setQ] = useState(() => new URLSearchParams(location.search));
  const [groups, setGroups] = useState(initial);
  const [bounds, setBounds] = useState<{ min: number; max: number } | null>(priceLow !== null && priceHigh !== null ? { min: priceLow, max: priceHigh } : null);
  const [minText, setMinText] = useState(() => q.get('price_min') ?? '');
  const [maxText, setMaxText] = useState(() => q.get('price_max') ?? '');
  const [priceError, setPriceError] = useState<{ field: 'price_min' | 'price_max'; text: string } | null>(null);
  const filtersAbort = useRef<AbortController | null>(null);
  const [result, setResult] = useState<ProductsResponse['products'] | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);

  const load = useCallback(
    (query: URLSearchParams) => {
      abort.current?.abort();
      const ctl = (abort.current = new AbortController());
      setBusy(true);
      const params: Record<string, string> = { seo_url: seoUrl };
      query.forEach((v, k) => {
        if (k !== 'seo_url') params[k] = v;
      });
      apiGet<ProductsResponse>('/api/category/products', params, { signal: ctl.signal })
        .then((r) => {
          setResult(r.products);
          setError('');
          analytics.viewItemList(
            seoUrl,
            r.products.data.map((p) => ({ item_id: p.product_code || String(p.id), item_name: p.title, price: p.product_price_now })),
          );
        })
        .catch((e: unknown) => {
          if (e instanceof ApiError) setError(e.message);
        })
        .finally(() => {
          if (abort.current === ctl) setBusy(false);
        });
    },
    [seoUrl],
  );

  // The counts under the chosen filters (the sort and page change nothing).
  const loadFilters = useCallback(
    (query: URLSearchParams) => {
      filtersAbort.current?.abort();
      const ctl = (filtersAbort.current = new AbortController());
      const params: Record<string, string> = { seo_url: seoUrl };
      query.forEach((v, k) => {
        if (k.startsWith('filterby_') || k === 'price_min' || k === 'price_max' || k === 'keyword') params[k] = v;
      });
      apiGet<FiltersResponse>('/api/category/filters', params, { signal: ctl.signal, quiet: true })
        .then((r) => {
          setGroups((before) => groupsOf(r, query, before));
          setBounds(r.price ?? null);
        })
        .catch(() => {
          // The counts shown stay; the products call reports problems.
        });
    },
    [seoUrl],
  );

  const go = (next: URLSearchParams) => {
    history.pushState(null, '', href(path, next));
    setQ(next);
    load(next);
    loadFilters(next);
  };

  useEffect(() => {
    const onPop = () => {
      const now = new URLSearchParams(location.search);
      setQ(now);
      setMinText(now.get('price_min') ?? '');
      setMaxText(now.get('price_max') ?? '');
      load(now);
      loadFilters(now);
    };
    window.addEventListener('popstate', onPop);
    return () => {
      window.removeEventListener('popstate', onPop);
      abort.current?.abort();
      filtersAbort.current?.abort();
    };
  }, [load, loadFilters]);

  const applyPrice = () => {
    const problem = priceProblem(minText, maxText);
    setPriceError(problem);
    if (!problem) go(withPrice(q, minText, maxText));
  };

  // The generator's first page gives way to the island's once it has one.
  useEffect(() => {
    if (result) listing?.querySelectorAll(':scope > [data-static]').forEach((n) => n.remove());
  }, [result, listing]);

  const page = result?.current_page ?? (Number(q.get('page')) || 1);
  const active = groups.reduce((n, g) => n + chosen(q, g.param).length, 0) + (q.get('price_min') ? 1 : 0) + (q.get('price_max') ? 1 : 0);
  const grid =
    listing && result
      ? createPortal(
          <div aria-busy={busy}>
            <p className={styles.count} role="status">
              {result.total} {result.total === 1 ? 'product' : 'products'}
            </p>
            {result.data.length ? (
              <ul className="g">
                {result.data.map((p) => (
                  <Card key={p.id} p={p} />
                ))}
              </ul>
            ) : (
              <p>Nothing Founds</p>
            )}
            <Pages path={path} q={q} page={page} last={result.last_page} go={go} />
          </div>,
          listing,
        )
      : null;

  return (
    <div className={styles.wrap}>
      {/* Everything sits inside the closed <details>, as in the fallback, so taking over moves nothing. */}
      <details>
        <summary>Filters{active ? ` (${active})` : ''}</summary>
        <label className={styles.sort}>
          Sort by{' '}
          <select value={q.get('sort_by') ?? ''} onChange={(e) => go(withParam(q, 'sort_by', e.target.value))}>
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>

        {bounds && (
          <form
            className={styles.price}
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              applyPrice();
            }}
          >
            <fieldset className={styles.group}>
              <legend>Price (৳)</legend>
              <label>
                Min{' '}
                <input
                  name="price_min"
                  inputMode="numeric"
                  placeholder={String(bounds.min)}
                  value={minText}
                  aria-invalid={priceError?.field === 'price_min' || undefined}
                  aria-describedby={priceError ? `${id}-price` : undefined}
                  onChange={(e) => setMinText(e.target.value)}
                />
              </label>{' '}
              <label>
                Max{' '}
                <input
                  name="price_max"
                  inputMode="numeric"
                  placeholder={String(bounds.max)}
                  value={maxText}
                  aria-invalid={priceError?.field === 'price_max' || undefined}
                  aria-describedby={priceError ? `${id}-price` : undefined}
                  onChange={(e) => setMaxText(e.target.value)}
                />
              </label>{' '}
              <button type="submit" className={styles.apply}>
                Apply price
              </button>
              {priceError && (
                <p id={`${id}-price`} className={styles.error} role="alert">
                  {priceError.text}
                </p>
              )}
            </fieldset>
          </form>
        )}

        {groups.map((g) => (
          <fieldset key={g.param} className={styles.group}>
            <legend>{g.label}</legend>
            <ul className="chips">
              {g.values.map((v) => {
                const on = chosen(q, g.param).includes(v.slug);
                return (
                  <li key={v.slug}>
                    <a
                      href={href(path, toggle(q, g.param, v.slug))}
                      rel="nofollow"
                      role="button"
                      aria-pressed={on}
                      aria-current={on || undefined}
                      onClick={(e) => {
                        e.preventDefault();
                        go(toggle(q, g.param, v.slug));
                      }}
                    >
                      {v.label} <span className={styles.n}>({v.count})</span>
                    </a>
                  </li>
                );
              })}
            </ul>
          </fieldset>
        ))}
        {active > 0 && (
          <button
            type="button"
            className={styles.clear}
            onClick={() => {
              const next = new URLSearchParams(q);
              groups.forEach((g) => next.delete(g.param));
              next.delete('price_min');
              next.delete('price_max');
              next.delete('page');
              setMinText('');
              setMaxText('');
              setPriceError(null);
              go(next);
            }}
          >
            Clear filters
          </button>
        )}
      </details>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {grid}
    </div>
  );
}
