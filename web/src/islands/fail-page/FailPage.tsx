// Payment failed (/fail?reason=…): why, in the shop's words, and the ways
// forward: try paying again, or choose another way to pay.
//
// The origin's returns send a code (`reason`: the Rust `FailReason` enum,
// `domain/payments/mod.rs`, reaching here through the generated API types);
// this page alone words each code. The address also carries `data` (the
// original shop's message) but it is never shown: anyone can write a link
// with any text in it, and a link must not put someone else's words ("call
// this number, share your PIN") on the shop's page. An unknown code shows
// no reason at all.
import type { ApiSchemas } from '../../lib/types';
import styles from './FailPage.module.css';

/** Why a payment did not go through, as the origin codes it. */
export type FailReason = ApiSchemas['FailReason'];

/** What each code means to the shopper (every code, checked by the type). */
export const REASONS: Readonly<Record<FailReason, string>> = {
  cancelled: 'You cancelled the payment.',
  declined: 'The payment was declined by your bank or wallet.',
  expired: 'The order waited too long for its payment and was cancelled. Any money taken for it is given back.',
  unavailable: 'The payment service could not be reached or could not confirm the payment yet. Please try again in a while or choose another way to pay.',
  failed: 'The payment could not be confirmed.',
};

/** The words for the `reason` in `search`; empty for none or an unknown code. */
export function reasonText(search: string): string {
  const code = new URLSearchParams(search).get('reason') ?? '';
  return Object.prototype.hasOwnProperty.call(REASONS, code) ? REASONS[code as FailReason] : '';
}

export function FailPage({ search = location.search }: { search?: string }) {
  const reason = reasonText(search);
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
