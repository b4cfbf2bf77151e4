// What the product and the set buttons share: one action at a time, and the
// line that tells the shopper how it went (errors as an alert).
import { useState } from 'react';
import { ApiError, errorText } from '../../lib/api';
import { loginUrl } from '../../lib/navigate';
import styles from './BuyButtons.module.css';

export type Action = 'cart' | 'wishlist' | 'compare';
export interface Feedback {
  ok: boolean;
  text: string;
  link?: { href: string; label: string };
}

/** What a guest (or a shopper whose sign-in ran out) is told on tapping Wishlist: why, and the way to sign in and come back here. */
export function signInForWishlist(): Feedback {
  return { ok: false, text: 'Sign in to keep a wishlist.', link: { href: loginUrl(), label: 'Sign in' } };
}

function problem(e: unknown): Feedback {
  return { ok: false, text: errorText(e) };
}

export function useActions() {
  const [busy, setBusy] = useState<Action | null>(null);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const run = async (action: Action, work: () => Promise<Feedback>) => {
    setBusy(action);
    setFeedback(null);
    try {
      setFeedback(await work());
    } catch (e) {
      if (e instanceof ApiError && e.status === 401 && action === 'wishlist') {
        setFeedback(signInForWishlist());
        return;
      }
      setFeedback(problem(e));
    } finally {
      setBusy(null);
    }
  };
  return { busy, feedback, setFeedback, run };
}

export function FeedbackLine({ feedback }: { feedback: Feedback | null }) {
  return (
    <>
      <div className={styles.ok} aria-live="polite">
        {feedback?.ok && (
          <p>
            {feedback.text} {feedback.link && <a href={feedback.link.href}>{feedback.link.label}</a>}
          </p>
        )}
      </div>
      {feedback && !feedback.ok && (
        <p className={styles.error} role="alert">
          {feedback.text}
          {feedback.link && (
            <>
              {' '}
              <a href={feedback.link.href}>{feedback.link.label}</a>
            </>
          )}
        </p>
      )}
    </>
  );
}
