// An order's lines and money, the same on every page that shows an order
// (thank you, order details, tracking): each line's price and quantity, the
// subtotal, coupon, delivery charge and total, then what is paid, what was
// given back (a refund), and what is still due (on delivery, for cash on
// delivery and pre-bookings).
import { imageUrl } from '../lib/image';
import { formatTaka } from '../lib/money';
import type { OrderHead, OrderLine } from '../lib/types';
import styles from './OrderSummary.module.css';

const n = (v: unknown) => Number(v) || 0;

/** The money figures of an order's head (tracking sends these and no address). */
export type OrderMoney = Pick<OrderHead, 'total_amount' | 'coupon_code' | 'coupon_discount' | 'delivery_fee' | 'grand_total' | 'amount_paid'> &
  Partial<Pick<OrderHead, 'amount_refunded'>>;

/** What is left to pay: the total less what was paid, never below zero. */
export function amountDue(head: Pick<OrderMoney, 'grand_total' | 'amount_paid'>): number {
  return Math.max(0, n(head.grand_total) - n(head.amount_paid));
}

export function OrderSummary({ head, lines }: { head: OrderMoney; lines: OrderLine[] }) {
  const paid = n(head.amount_paid);
  const refunded = n(head.amount_refunded);
  const due = amountDue(head);
  return (
    <>
      <table className={styles.lines}>
        <caption className="sr-only">Products in this order</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Price</th>
            <th scope="col">Qty</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((d, i) => (
            <tr key={i}>
              <td className={styles.product}>
                {d.image_url && <img src={imageUrl(d.image_url, 100)} width="48" height="48" alt="" loading="lazy" />}
                <span>
                  {d.seo_url ? <a href={`/product/${d.seo_url}`}>{d.name}</a> : d.name}
                  {d.product_code && <small> {d.product_code}</small>}
                </span>
              </td>
              <td>{formatTaka(n(d.local_purchase_price))}</td>
              <td>{d.qty}</td>
              <td>{formatTaka(n(d.total_purchase_price) || n(d.local_purchase_price) * (n(d.qty) || 1))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className={styles.totals}>
        <dt>Subtotal</dt>
        <dd>{formatTaka(n(head.total_amount))}</dd>
        {n(head.coupon_discount) > 0 && (
          <>
            <dt>Coupon {head.coupon_code}</dt>
            <dd>−{formatTaka(n(head.coupon_discount))}</dd>
          </>
        )}
        <dt>Delivery</dt>
        <dd>{formatTaka(n(head.delivery_fee))}</dd>
        <dt className={styles.grand}>Total</dt>
        <dd className={styles.grand}>{formatTaka(n(head.grand_total))}</dd>
        <dt>Paid</dt>
        <dd>{formatTaka(paid)}</dd>
        {refunded > 0 && (
          <>
            <dt>Refunded</dt>
            <dd>−{formatTaka(refunded)}</dd>
          </>
        )}
        <dt className={styles.due}>{due > 0 ? 'Due on delivery' : 'Due'}</dt>
        <dd className={styles.due}>{formatTaka(due)}</dd>
      </dl>
    </>
  );
}
