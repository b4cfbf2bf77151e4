// "Add to cart" before React has arrived. On a 2G link React and the islands
// take seconds after the page; the shopper should not wait for them to buy.
// The product page's fallback holds a real Add to cart button for visitors
// with JavaScript (`data-buy`, shown once the page is flagged `js`). Until
// the buy-buttons island takes over, a click on it makes the island's own
// call (lib/cart's addProduct: the API call, analytics, cart:changed with
// the new count), shows the answer in the fallback and writes the count into
// the header's fallback badge. The island, once mounted, shows the outcome
// of the add it finds on its element (`early`); header-counts takes over the
// badge's count (`data-count`).
import { errorText } from '../lib/api';
import { addProduct, addedMessage, cartLabel, type AddProductResponse } from '../lib/cart';
import { parseProps } from '../loader/core';
import type { ProductBuyProps } from '../islands/buy-buttons/types';

/** A buy-buttons element, with the add its fallback started, if any. */
export interface BuyIsland extends HTMLElement {
  early?: Promise<AddProductResponse>;
}

/** The island's props on a product page, where the fallback's button is (a type only: nothing is imported). */
type Product = ProductBuyProps;

/** Writes `count` into the header's cart link while header-counts is still its fallback. */
function showCount(count: number | undefined): void {
  const link = document.querySelector<HTMLElement>('[data-island="header-counts"]:not([data-live]) a[href="/cart"]');
  const badge = link?.querySelector('b');
  if (!link || !badge || typeof count !== 'number') return;
  badge.textContent = String(count);
  link.setAttribute('aria-label', cartLabel(count));
  link.dataset.count = String(count);
}

/** Handles clicks on fallback Add to cart buttons under `root` until their island takes over. */
export function earlyBuy(root: Document | HTMLElement = document): void {
  root.addEventListener('click', (ev) => {
    const button = (ev.target as Element | null)?.closest?.<HTMLButtonElement>('button[data-buy]');
    const el = button?.closest<BuyIsland>('[data-island="buy-buttons"]');
    if (!button || !el || button.disabled) return;
    const status = el.querySelector<HTMLElement>('[data-buy-status]');
    const p = parseProps(el) as Product;
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    status?.replaceChildren();
    const add = (el.early = addProduct(p));
    add
      .then(
        (r) => {
          showCount(r.total_qty);
          const view = document.createElement('a');
          view.href = '/cart';
          view.textContent = 'View cart';
          status?.replaceChildren(addedMessage(p, r) + ' ', view);
        },
        (e: unknown) => {
          const alert = document.createElement('p');
          alert.setAttribute('role', 'alert');
          alert.textContent = errorText(e);
          status?.replaceChildren(alert);
        },
      )
      .finally(() => {
        button.disabled = false;
        button.removeAttribute('aria-busy');
      });
  });
}
