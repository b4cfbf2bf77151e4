// Order details (/order?order_random=…&order_key=…), where the account's
// orders list and the order mails lead: the order's status, how it is paid,
// where it goes, its lines and money (what is paid and what is due), and a
// link to track it. The link's key is the secret; no sign-in is needed.
import { OrderSummary } from '../../components/OrderSummary';
import { paymentName, statusName, trackingLink, useOrderDetails } from '../../lib/order';
import styles from './OrderPage.module.css';

/** A place from its parts, each name once: Khulna district is in Khulna division, and an address may end with its district. */
export function placeOf(parts: (string | null | undefined)[]): string {
  const shown: string[] = [];
  for (const part of parts) {
    const p = part?.trim().toLowerCase();
    if (p && !shown.some((s) => s.toLowerCase() === p || s.toLowerCase().endsWith(`, ${p}`))) shown.push(part!.trim());
  }
  return shown.join(', ');
}

export function OrderPage({ search = location.search }: { search?: string }) {
  const { orderId, order, error } = useOrderDetails(search);

  if (error)
    return (
      <p role="alert" className={styles.error}>
        {error} You can <a href="/page/track-order">track an order</a> with its number and your phone, or see your orders in{' '}
        <a href="/user/orders">your account</a>.
      </p>
    );
  if (!order) return <p className="muted">Loading your order…</p>;
  const m = order.order_masters;
  const place = placeOf([m.address, m.thana, m.district, m.division]);
  return (
    <div className={styles.page}>
      <h2 className={styles.title}>Order {orderId}</h2>
      <dl className={styles.facts}>
        <dt>Status</dt>
        <dd>{statusName(m.order_status)}</dd>
        <dt>Payment</dt>
        <dd>
          {paymentName(m.payment_method)}
          {m.payment_term_status ? ` (${statusName(m.payment_term_status)})` : ''}
        </dd>
        <dt>Ordered on</dt>
        <dd>{m.order_date || '–'}</dd>
        {m.delivery_date && (
          <>
            <dt>Delivery by</dt>
            <dd>{m.delivery_date}</dd>
          </>
        )}
        <dt>Deliver to</dt>
        <dd>
          {m.customer_name}
          {m.phone ? ` · ${m.phone}` : ''}
          {place && (
            <>
              <br />
              {place}
            </>
          )}
        </dd>
        {m.trans_id && (
          <>
            <dt>Transaction</dt>
            <dd>{m.trans_id}</dd>
          </>
        )}
      </dl>
      <OrderSummary head={m} lines={order.order_details} />
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
