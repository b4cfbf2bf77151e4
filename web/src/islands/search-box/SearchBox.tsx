// The header search box (SPEC.md §2, §4, §9): the fallback's GET form, plus a
// suggestion panel that opens on focus with up to 8 category terms (→
// /c/{url}) and products (title and sub_title → their url), asked for 500 ms
// after typing stops. One × control, in the field while it holds text,
// clears it and closes the panel (the browser's own clear button of a search
// field is hidden, so there are never two); a click or focus outside, or
// Escape, closes the panel and keeps the text; arrow keys move through the
// suggestions. When no product has every word, the API relaxes the query
// and the panel says which words its products match ("Showing results for
// …"). Submitting goes to /c/products?keyword=…&time=<timestamp>; on that
// results page the box holds the words searched for, to edit.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { ApiError, apiGet } from '../../lib/api';
import { navigate } from '../../lib/navigate';
import styles from './SearchBox.module.css';
import type { SearchResponse } from './types';

/** At most this many category terms in the panel (SPEC.md §9). */
export const MAX_TERMS = 8;
export const DEBOUNCE_MS = 500;

interface Suggestion {
  href: string;
  title: string;
  sub?: string;
}

/** A product's link: the API's url (an absolute path), or a slug under /product/. */
function productHref(url: string): string {
  return url.startsWith('/') || /^https?:/.test(url) ? url : `/product/${url}`;
}

/** The words of the search a listing page shows (`/c/…?keyword=`), for the box to hold. */
export function searchedFor(loc: Pick<Location, 'pathname' | 'search'> = location): string {
  return loc.pathname.startsWith('/c/') ? (new URLSearchParams(loc.search).get('keyword') ?? '').trim() : '';
}

/** Where submitting `keyword` goes. */
export function searchUrl(keyword: string, now = Date.now()): string {
  const q = keyword.trim();
  return q ? `/c/products?keyword=${encodeURIComponent(q)}&time=${now}` : '/c/products';
}

export function SearchBox({
  initial = '',
  shown = '',
  focused = false,
  debounceMs = DEBOUNCE_MS,
}: {
  initial?: string;
  /** The search the page already shows: the box holds it, and asks no suggestions for it until it changes. */
  shown?: string;
  focused?: boolean;
  debounceMs?: number;
}) {
  const id = useId();
  const [keyword, setKeyword] = useState(initial);
  const [open, setOpen] = useState(focused);
  const [data, setData] = useState<{ terms: Suggestion[]; products: Suggestion[]; for: string; relaxed?: string } | null>(null);
  const [error, setError] = useState('');
  const [active, setActive] = useState(-1);
  const wrap = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const quietFocus = useRef(false);

  const q = keyword.trim();
  const asked = q !== shown;
  useEffect(() => {
    if (!q) {
      setData(null);
      setError('');
      return;
    }
    if (!asked) return;
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      apiGet<SearchResponse>('/api/common/main-search-product', { keyword: q }, { signal: ctl.signal, quiet: true })
        .then((r) => {
          setData({
            for: q,
            terms: (r.terms ?? []).slice(0, MAX_TERMS).map((t) => ({ href: `/c/${t.url}`, title: t.name })),
            products: (r.search ?? []).map((p) => ({ href: productHref(p.url), title: p.title, sub: p.sub_title ?? undefined })),
            relaxed: r.relaxed ? (r.relaxed_query ?? undefined) : undefined,
          });
          setError('');
          setActive(-1);
        })
        .catch((e: unknown) => {
          if (e instanceof ApiError) setError(e.message);
        });
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [q, asked, debounceMs]);

  // A click (or tap) outside closes the panel.
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const items = data ? [...data.terms, ...data.products] : [];
  const optionId = (i: number) => `${id}-o${i}`;
  const showPanel = open && q !== '' && (data !== null || error !== '');

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  /** The one × control: empties the field, closes the panel, and leaves the cursor in the field. */
  const clear = () => {
    setKeyword('');
    close();
    quietFocus.current = true;
    input.current?.focus();
    quietFocus.current = false;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        close();
      }
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!items.length) return;
      e.preventDefault();
      setOpen(true);
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (a < 0 && step < 0 ? items.length - 1 : (a + step + items.length) % items.length));
    } else if (e.key === 'Enter' && showPanel && active >= 0 && items[active]) {
      e.preventDefault();
      navigate(items[active].href);
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    navigate(searchUrl(keyword));
  };

  const option = (s: Suggestion, i: number) => (
    <li key={`${s.href}-${i}`} role="presentation">
      <a id={optionId(i)} role="option" aria-selected={i === active} className={i === active ? styles.active : undefined} href={s.href} tabIndex={-1}>
        <span>{s.title}</span>
        {s.sub && <small className={styles.sub}>{s.sub}</small>}
      </a>
    </li>
  );

  return (
    <div
      ref={wrap}
      className={styles.wrap}
      onBlur={(e) => {
        if (!wrap.current?.contains(e.relatedTarget)) close();
      }}
    >
      <form action="/c/products" method="get" role="search" onSubmit={onSubmit}>
        <span className={styles.field}>
          <input
            ref={input}
            type="search"
            className={styles.input}
            name="keyword"
            placeholder="Search furniture"
            aria-label="Search products"
            autoComplete="off"
            role="combobox"
            aria-expanded={showPanel}
            aria-controls={`${id}-panel`}
            aria-autocomplete="list"
            aria-activedescendant={showPanel && active >= 0 ? optionId(active) : undefined}
            value={keyword}
            onChange={(e) => {
              setKeyword(e.target.value);
              setOpen(true);
            }}
            onFocus={() => {
              if (!quietFocus.current) setOpen(true);
            }}
            onKeyDown={onKeyDown}
          />
          {keyword !== '' && (
            <button type="button" className={styles.clear} aria-label="Clear search" onClick={clear}>
              ×
            </button>
          )}
        </span>
        <button>Search</button>
      </form>
      <div id={`${id}-panel`} className={styles.panel} hidden={!showPanel}>
        {error && <p className={styles.note}>{error}</p>}
        {data && !items.length && <p className={styles.note}>Nothing found for “{data.for}”.</p>}
        {data?.relaxed && data.products.length > 0 && (
          <p className={styles.note} role="status">
            No product has every word. Showing results for “{data.relaxed}”.
          </p>
        )}
        <ul role="listbox" aria-label="Suggestions">
          {data?.terms.length ? (
            <li role="presentation" className={styles.head}>
              Categories
            </li>
          ) : null}
          {data?.terms.map((s, i) => option(s, i))}
          {data?.products.length ? (
            <li role="presentation" className={styles.head}>
              Products
            </li>
          ) : null}
          {data?.products.map((s, i) => option(s, i + data.terms.length))}
        </ul>
      </div>
    </div>
  );
}
