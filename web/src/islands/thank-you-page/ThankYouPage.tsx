// Thank you (/thank-you?order_random=…&order_key=…): the placed order
// (`cart/order-details`, with the key as `secret_key`), its products and
// totals, how it will be paid, and a link to track it. The GA4 `purchase`
// event goes out once per order, even if the page is reloaded.
import { OrderSummary } from '../../components/OrderSummary';
import * as analytics from '../../lib/analytics';
import { paymentName, trackingLink, useOrderDetails } from '../../lib/order';
import styles from './ThankYouPage.module.css';
import type { OrderDetailsResponse } from './types';

/** Sends `purchase` unless this tab already sent it for the order. */
export function trackPurchase(orderId: string, r: OrderDetailsResponse): void {
  const key = `purchase-sent-${orderId}`;
  try {
    if (sessionStorage.getItem(key)) return;
    sessionStorage.setItem(key, '1');
  } catch {
    // Without storage a reload may count twice; better than never.
  }
  const m = r.order_masters ?? {};
  analytics.purchase({
    transaction_id: orderId,
    value: Number(m.grand_total) || 0,
    shipping: Number(m.delivery_fee) || 0,
    ...(m.coupon_code ? { coupon: m.coupon_code } : {}),
    items: (r.order_details ?? []).map((d) => ({
      item_id: d.product_code ?? '',
      item_name: d.name ?? '',
      price: Number(d.local_purchase_price) || 0,
      quantity: Number(d.qty) || 1,
    })),
  });
}

export function ThankYouPage({ search = location.search }: { search?: string }) {
  const { orderId, order: r, error } = useOrderDetails(search, trackPurchase);

  if (error)
    return (
      <p role="alert" className={styles.error}>
        {error} You can <a href="/page/track-order">track an order</a> with its number and your phone.
      </p>
    );
  if (!r) return <p className="muted">Loading your order…</p>;
  const m = r.order_masters;
  return (
    <div className={styles.page}>
      <p className={styles.lead}>
        Thank you{m.customer_name ? `, ${m.customer_name}` : ''}! Your order <strong>{orderId}</strong> is placed.
      </p>
      <dl className={styles.facts}>
        <dt>Payment</dt>
        <dd>
          {paymentName(m.payment_method)}
          {m.payment_term_status ? ` (${m.payment_term_status})` : ''}
        </dd>
        {m.order_date && (
          <>
            <dt>Date</dt>
            <dd>{m.order_date}</dd>
          </>
        )}
        {m.address && (
          <>
            <dt>Delivery to</dt>
            <dd>
              {m.address}
              {m.district ? `, ${m.district}` : ''}
            </dd>
          </>
        )}
      </dl>
      <OrderSummary head={m} lines={r.order_details} />
      <p>
        <a className="btn" href={trackingLink(orderId, m.phone)}>
          Track this order
        </a>{' '}
        <a className="btn alt" href="/c/products">
          Continue shopping
        </a>
      </p>
    </div>
  );
}
