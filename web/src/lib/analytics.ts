// GA4 e-commerce events on `window.dataLayer` (SPEC.md §7 notes): list
// views, cart adds and removals (affiliation 'Regal', shipping tier 'Ground',
// currency BDT), wishlist adds after the server confirmed them (the original
// meant to and never did), and purchases on the thank-you page. Each event
// first clears the previous `ecommerce` object, as Google's docs ask.

export const CURRENCY = 'BDT';
export const AFFILIATION = 'Regal';
export const SHIPPING_TIER = 'Ground';

/** One product in an event. */
export interface AnalyticsItem {
  item_id: string;
  item_name: string;
  price?: number;
  quantity?: number;
  item_category?: string;
  item_variant?: string;
  item_list_name?: string;
  index?: number;
}

type DataLayerEntry = Record<string, unknown>;

declare global {
  interface Window {
    dataLayer?: DataLayerEntry[];
  }
}

/** Pushes one event (creating the dataLayer when no tag manager has yet). */
export function track(event: string, ecommerce: Record<string, unknown>): void {
  const layer = (window.dataLayer ??= []);
  layer.push({ ecommerce: null });
  layer.push({ event, ecommerce });
}

function value(items: AnalyticsItem[]): number {
  return items.reduce((sum, i) => sum + (i.price ?? 0) * (i.quantity ?? 1), 0);
}

function shop(items: AnalyticsItem[]): AnalyticsItem[] {
  return items.map((i) => ({ affiliation: AFFILIATION, quantity: 1, ...i }));
}

/** A product list was shown (category, search, strip). */
export function viewItemList(listName: string, items: AnalyticsItem[]): void {
  track('view_item_list', {
    item_list_name: listName,
    items: items.map((i, index) => ({ affiliation: AFFILIATION, index, item_list_name: listName, ...i })),
  });
}

/** Products were added to the cart (after the server said yes). */
export function addToCart(items: AnalyticsItem[]): void {
  track('add_to_cart', { currency: CURRENCY, value: value(items), shipping_tier: SHIPPING_TIER, items: shop(items) });
}

/** Products were removed from the cart. */
export function removeFromCart(items: AnalyticsItem[]): void {
  track('remove_from_cart', { currency: CURRENCY, value: value(items), shipping_tier: SHIPPING_TIER, items: shop(items) });
}

/** A product was added to the wishlist (after the server said yes). */
export function addToWishlist(item: AnalyticsItem): void {
  const items = shop([{ ...item, quantity: 1 }]);
  track('add_to_wishlist', { currency: CURRENCY, value: value(items), items });
}

/** An order was placed (thank-you page). */
export function purchase(order: { transaction_id: string; value: number; shipping?: number; coupon?: string; items: AnalyticsItem[] }): void {
  track('purchase', {
    currency: CURRENCY,
    affiliation: AFFILIATION,
    shipping_tier: SHIPPING_TIER,
    ...order,
    items: shop(order.items),
  });
}
