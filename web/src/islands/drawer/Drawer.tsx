// The left drawer and side menu (SPEC.md §2, §4, §9). The generator writes
// the drawer as `<nav id="menu" class="dr">` (all its links, opened by the
// `#menu` link through CSS :target without JavaScript) and this island as the
// menu link. With JavaScript the link opens the drawer in place: the page is
// flagged modal-open, focus moves in and stays in (the closed drawer is
// inert, so Tab never reaches its hidden links), Escape, the × link or the
// backdrop close it. Nested lists become accordions (one open per level);
// on screens of 576 px and wider an open sub-category shows as a second
// column and the drawer grows from 30rem to 50rem. The Recently viewed strip
// is fetched the first time the drawer opens.
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { flagBody } from '../../components/Modal';
import { apiGet } from '../../lib/api';
import { emit } from '../../lib/events';
import { imageUrl } from '../../lib/image';
import styles from './Drawer.module.css';
import type { RecentViewsResponse } from './types';

/** The mobile breakpoint (SPEC.md §9). */
export const WIDE = '(min-width: 576px)';
const FOCUSABLE = 'a[href],button:not([disabled])';

/** Turns each `li` holding a nested list into an accordion; answers the undo. */
function accordions(nav: HTMLElement, onChange: () => void): () => void {
  const added: HTMLButtonElement[] = [];
  nav.querySelectorAll<HTMLLIElement>('li').forEach((li) => {
    const sub = li.querySelector(':scope > ul');
    const link = li.querySelector(':scope > a');
    if (!sub || !link) return;
    li.dataset.acc = 'closed';
    const b = document.createElement('button');
    b.type = 'button';
    b.className = styles.acc;
    b.textContent = '+';
    b.setAttribute('aria-expanded', 'false');
    b.setAttribute('aria-label', `Show ${link.textContent?.trim() ?? 'more'}`);
    b.addEventListener('click', () => {
      const opening = li.dataset.acc !== 'open';
      // One open per level.
      li.parentElement?.querySelectorAll<HTMLLIElement>(':scope > li[data-acc=open]').forEach((o) => {
        o.dataset.acc = 'closed';
        const ob = o.querySelector(':scope > button');
        ob?.setAttribute('aria-expanded', 'false');
        if (ob) ob.textContent = '+';
      });
      li.dataset.acc = opening ? 'open' : 'closed';
      b.setAttribute('aria-expanded', String(opening));
      b.textContent = opening ? '−' : '+';
      onChange();
    });
    li.prepend(b);
    added.push(b);
  });
  return () => {
    added.forEach((b) => {
      delete (b.parentElement as HTMLElement).dataset.acc;
      b.remove();
    });
  };
}

/**
 * While `open`: the drawer `navId` is shown, the page flagged modal-open,
 * focus moved in and kept there (Tab and Shift+Tab wrap, closed sub-menus
 * skipped), Escape closes it; on closing focus goes back to `opener`.
 * `onOpen` (stable: a useCallback) runs on each opening.
 */
export function useDrawerOpen(
  navId: string,
  open: boolean,
  setOpen: (open: boolean) => void,
  opener: { current: HTMLElement | null },
  onOpen?: () => void,
): void {
  useEffect(() => {
    const n = document.getElementById(navId);
    if (!n || !open) return;
    n.toggleAttribute('data-open', true);
    n.removeAttribute('inert');
    flagBody(1);
    emit('modal:open', { id: navId });
    // Focus goes back to what opened the drawer on closing.
    const back = opener.current;
    n.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    onOpen?.();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
      if (e.key !== 'Tab') return;
      const all = Array.from(n.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.closest('li[data-acc=closed] > ul'));
      if (!all.length) return;
      const first = all[0];
      const last = all[all.length - 1];
      if (e.shiftKey && (document.activeElement === first || !n.contains(document.activeElement))) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (document.activeElement === last || !n.contains(document.activeElement))) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      n.removeAttribute('data-open');
      n.setAttribute('inert', '');
      flagBody(-1);
      emit('modal:close', { id: navId });
      // Without JavaScript the drawer opened by :target; leave no #id behind.
      if (location.hash === `#${navId}`) history.replaceState(null, '', location.pathname + location.search);
      back?.focus();
    };
  }, [open, navId, setOpen, opener, onOpen]);
}

export function Drawer({ navId = 'menu', startOpen = false }: { navId?: string; startOpen?: boolean }) {
  const [open, setOpen] = useState(startOpen);
  const [recent, setRecent] = useState<RecentViewsResponse['products'] | null>(null);
  const [rvHost, setRvHost] = useState<HTMLElement | null>(null);
  const button = useRef<HTMLAnchorElement>(null);
  const asked = useRef(false);

  // Accordions, the 50rem flag and the × link, once.
  useEffect(() => {
    const n = document.getElementById(navId);
    if (!n) return;
    n.classList.add(styles.nav);
    n.setAttribute('inert', '');
    const wide = window.matchMedia?.(WIDE);
    const width = () => {
      const subOpen = !!n.querySelector(':scope > ul > li[data-acc=open]');
      n.toggleAttribute('data-sub', subOpen && !!wide?.matches);
    };
    const undo = accordions(n, width);
    wide?.addEventListener?.('change', width);
    const x = n.querySelector<HTMLAnchorElement>('a.x');
    const close = (e: Event) => {
      e.preventDefault();
      setOpen(false);
    };
    x?.addEventListener('click', close);
    setRvHost(n.querySelector<HTMLElement>('[data-recently-viewed]'));
    return () => {
      undo();
      wide?.removeEventListener?.('change', width);
      x?.removeEventListener('click', close);
      n.classList.remove(styles.nav);
      n.removeAttribute('inert');
    };
  }, [navId]);

  // Opening: flag the page, move focus in and keep it there; closing: give it back.
  const fetchRecent = useCallback(() => {
    if (asked.current) return;
    asked.current = true;
    apiGet<RecentViewsResponse>('/api/product/recent-views-product', undefined, { quiet: true })
      .then((r) => setRecent(r.products ?? []))
      .catch(() => setRecent([]));
  }, []);
  useDrawerOpen(navId, open, setOpen, button, fetchRecent);

  const strip =
    rvHost && recent && recent.length > 0
      ? createPortal(
          <>
            <h2>Recently viewed</h2>
            <ul className={styles.rv}>
              {recent.map((p) => (
                <li key={p.seo_url}>
                  <a href={`/product/${p.seo_url}`} title={p.title}>
                    {p.image_url ? <img src={imageUrl(p.image_url, 200)} width="88" height="88" alt={p.title ?? ''} loading="lazy" /> : p.title}
                  </a>
                </li>
              ))}
            </ul>
          </>,
          rvHost,
        )
      : null;
  useEffect(() => {
    rvHost?.toggleAttribute('hidden', !(recent && recent.length));
  }, [rvHost, recent]);

  return (
    <>
      <a
        ref={button}
        href={`#${navId}`}
        role="button"
        aria-label="Menu"
        aria-expanded={open}
        aria-controls={navId}
        onClick={(e) => {
          e.preventDefault();
          setOpen((o) => !o);
        }}
      >
        <svg className="ic" aria-hidden="true">
          <use href="#i-menu" />
        </svg>
      </a>
      {open && createPortal(<div className={styles.backdrop} onClick={() => setOpen(false)} />, document.body)}
      {strip}
    </>
  );
}
