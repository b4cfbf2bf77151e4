// Payment failed (/fail?data=…): the gateway's reason when it sent one, and
// the ways forward: try paying again, or choose cash on delivery.
import styles from './FailPage.module.css';

export function FailPage({ search = location.search }: { search?: string }) {
  const reason = new URLSearchParams(search).get('data');
  return (
    <div className={styles.page} role="alert">
      <p>Your payment did not go through. Your order is kept: you can try again or choose another way to pay.</p>
      {reason && <p className={styles.reason}>The payment service said: {reason}</p>}
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
