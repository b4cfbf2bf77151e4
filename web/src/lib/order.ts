// One placed order, as the thank-you and order-details pages read it: from
// the link's `order_random` and `order_key` (which `cart/order-details` takes
// as `secret_key`), with the shopper-facing names of payment methods.
import { useEffect, useState } from 'react';
import { ApiError, apiGet } from './api';
import type { OrderDetailsResponse } from './types';

const PAYMENT: Record<string, string> = {
  cash_on_delivery: 'Cash on delivery',
  debitcredit: 'Card or mobile banking',
  mobilebanking: 'Mobile banking',
  bkash: 'bKash',
  nagad: 'Nagad',
};

/** A status as shoppers read it: `on_the_way` → "On the way"; none → "–". */
export function statusName(s?: string | null): string {
  return s ? s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ') : '–';
}

/** A payment method as shoppers read it (`cash_on_delivery` → "Cash on delivery"). */
export function paymentName(method: string | undefined): string {
  return (method && PAYMENT[method]) ?? method ?? '–';
}

export const NOT_FOUND = 'We could not find this order. The link may be incomplete.';

/** What loading the order of a link gives: the order, an error, or neither yet. */
export type OrderLoad = { orderId: string; key: string; order?: OrderDetailsResponse; error: string };

/**
 * Loads the order named by `search` (`?order_random=…&order_key=…`); `onLoad`
 * runs once with the answer. A link without both parameters is an error at once.
 */
export function useOrderDetails(search: string, onLoad?: (orderId: string, r: OrderDetailsResponse) => void): OrderLoad {
  const q = new URLSearchParams(search);
  const orderId = q.get('order_random') ?? '';
  const key = q.get('order_key') ?? '';
  const [order, setOrder] = useState<OrderDetailsResponse | undefined>(undefined);
  const [error, setError] = useState('');

  useEffect(() => {
    if (!orderId || !key) return;
    apiGet<OrderDetailsResponse>('/api/cart/order-details', { order_random: orderId, secret_key: key })
      .then((res) => {
        if (!res.order_masters) throw new ApiError(404, '');
        setOrder(res);
        onLoad?.(orderId, res);
      })
      .catch((e: unknown) => setError(e instanceof ApiError && e.message && e.status !== 404 ? e.message : NOT_FOUND));
    // onLoad is a callback for the first answer only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orderId, key]);

  return { orderId, key, order, error: !orderId || !key ? 'This link is missing the order number.' : error };
}

/** The tracking page's link for an order, with the phone filled in when known. */
export function trackingLink(orderId: string, phone?: string): string {
  return `/page/track-order?id=${encodeURIComponent(orderId)}${phone ? `&phone=${encodeURIComponent(phone)}` : ''}`;
}

/** The order-details page's link (the account's orders list links here). */
export function orderLink(orderId: string, key: string): string {
  return `/order?order_random=${encodeURIComponent(orderId)}&order_key=${encodeURIComponent(key)}`;
}
