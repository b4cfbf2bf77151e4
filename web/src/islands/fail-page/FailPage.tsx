// Payment failed (/fail?data=…): why, when the shop's own return said so, and
// the ways forward: try paying again, or choose another way to pay.
//
// `data` comes in the address, so anyone can write a link with any text in
// it. Only the reasons the shop's returns send are shown (the origin's
// `surfaces/api/payment.rs` and `domain/payments`: a gateway's LABEL in three
// templates, and four fixed sentences); any other text is left out, so a
// link cannot put someone else's words ("call this number, share your PIN")
// on the shop's page.
import styles from './FailPage.module.css';

/** The gateways' names as the origin's messages write them (`Gateway::LABEL`). */
const GATEWAYS = ['bKash', 'Nagad', 'The card payment service'];

/** Every reason the shop's own returns put in `data`. */
export const KNOWN_REASONS: ReadonlySet<string> = new Set([
  'The payment did not go through.',
  'The payment could not be confirmed.',
  'This payment method is not available.',
  'bKash is not available. Please choose another way to pay.',
  ...GATEWAYS.flatMap((g) => [
    `${g} could not be reached. Please try again in a while or choose another way to pay.`,
    `${g} did not accept this payment. Please choose another way to pay.`,
    `${g} could not confirm the payment yet. It is checked again when the gateway notifies us.`,
  ]),
]);

export function FailPage({ search = location.search }: { search?: string }) {
  const data = new URLSearchParams(search).get('data');
  const reason = data && KNOWN_REASONS.has(data) ? data : '';
  return (
    <div className={styles.page} role="alert">
      <p>Your payment did not go through. The products are still in your cart: you can try again or choose another way to pay.</p>
      {reason && <p className={styles.reason}>{reason}</p>}
      <p>
        <a className="btn" href="/payment">
          Try again
        </a>{' '}
        <a className="btn alt" href="/cart">
          Back to your cart
        </a>
      </p>
    </div>
  );
}
