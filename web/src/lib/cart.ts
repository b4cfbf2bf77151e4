// The cart as the API answers it (SPEC.md §3, ORIGINAL-API.md §2) and the
// calls that change it, shared by the header's mini-cart and the cart page.
// Every change tells the other islands (`cart:changed`) and analytics.
import * as analytics from './analytics';
import { apiGet, apiPost } from './api';
import { emit } from './events';
import type { AddProductResponse, Cart, CartLine, CartResponse, CartSet } from './types';

export type { AddProductResponse, Cart, CartLine, CartSet, CartResponse as CartViewResponse } from './types';

/** A line's code: the variation's product code when there is one, else the product's. */
export const lineCode = (l: CartLine): string => l.item.productcode || l.info.code;

/** The sets of a cart as a list. */
export function setsOf(cart: Cart | null | undefined): CartSet[] {
  const p = cart?.psets;
  // `[]` is how the server writes no sets (an empty PHP array).
  if (!p || Array.isArray(p)) return [];
  return Object.values(p);
}

/** A line as an analytics item. */
export const lineItem = (l: CartLine): analytics.AnalyticsItem => ({
  item_id: lineCode(l) || String(l.info.id),
  item_name: l.info.title,
  price: l.purchaseprice,
  quantity: l.qty,
});

/** The discount of a cart in taka: a percentage of the total or a fixed amount. */
export function discountOf(cart: Cart | null | undefined): number {
  const d = Number(cart?.discount) || 0;
  if (!d) return 0;
  const total = Number(cart?.totalprice) || 0;
  return Math.round(/percent/i.test(cart?.discount_type ?? '') ? (total * d) / 100 : d);
}

/** Fetches the cart. */
export function fetchCart(): Promise<CartResponse> {
  return apiGet<CartResponse>('/api/cart/view');
}

/** Removes one line (`pid` + `pcode`). */
export async function removeLine(line: CartLine): Promise<void> {
  await apiGet('/api/cart/remove-cart-item', { pid: line.info.id, pcode: lineCode(line) });
  analytics.removeFromCart([lineItem(line)]);
  emit('cart:changed', {});
}

/** Removes a whole set (`pid_codes` = "pid:code,pid:code"). */
export async function removeSet(set: CartSet): Promise<void> {
  await apiGet('/api/cart/remove-cart-item', { pid_codes: set.items.map((l) => `${l.info.id}:${lineCode(l)}`).join(',') });
  analytics.removeFromCart(set.items.map(lineItem));
  emit('cart:changed', {});
}

/** Sets a line's quantity (`POST /api/cart/update` with items keyed by line code); analytics for the difference. */
export async function setQuantity(line: CartLine, qty: number): Promise<void> {
  const code = lineCode(line);
  await apiPost('/api/cart/update', { items: { [code]: { id: line.info.id, code, qty } } });
  const diff = qty - line.qty;
  if (diff > 0) analytics.addToCart([{ ...lineItem(line), quantity: diff }]);
  if (diff < 0) analytics.removeFromCart([{ ...lineItem(line), quantity: -diff }]);
  emit('cart:changed', {});
}

/**
 * Adds one product (`main_pid`, `qty`, `variation_id`), then tells analytics
 * and the other islands (with the new count, so the header needs no call).
 */
export async function addProduct(
  p: { id: number; title: string; price?: number; code?: string; category?: string; variation_id?: number | null },
  qty = 1,
): Promise<AddProductResponse> {
  const r = await apiGet<AddProductResponse>('/api/cart/add-to-cart', { main_pid: p.id, qty, variation_id: p.variation_id ?? undefined });
  analytics.addToCart([
    {
      item_id: r.product_code || p.code || String(p.id),
      item_name: r.title || p.title,
      price: r.purchaseprice ?? p.price,
      quantity: qty,
      ...(r.cat_name || p.category ? { item_category: r.cat_name || p.category } : {}),
    },
  ]);
  emit('cart:changed', { count: r.total_qty });
  return r;
}

/** What the shopper reads after adding a product: its title as the server named it. */
export const addedMessage = (p: { title: string; pre_booking?: boolean }, r: AddProductResponse): string =>
  `${p.pre_booking ? 'Pre-booked' : 'Added to your cart'}: ${r.title || p.title}.`;

/** The header's cart link as a screen reader names it: `count` is pieces (three of one sofa are 3 items). */
export const cartLabel = (count: number): string => `Cart, ${count} ${count === 1 ? 'item' : 'items'}`;
