// Write a review (/review, /review_workable_copy, /product/review/{id}):
// the products of the shopper's delivered orders, each with where its review
// stands, and a form (1-5 stars as a radio group, 10-2000 characters of text)
// to write one or edit it. A new or edited review waits for the shop's check.
// /product/review/{id} opens the form for that product.
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import forms from '../../components/forms.module.css';
import { ApiError, apiGet, apiPost, authToken } from '../../lib/api';
import { imageUrl } from '../../lib/image';
import { loginUrl } from '../../lib/navigate';
import { only } from '../../lib/validate';
import styles from './ReviewPage.module.css';
import type { MessageResponse, Reviewable, ReviewableResponse } from './types';

/** The origin's rule for a review's text, in characters (trimmed). */
export const MIN_CHARS = 10;
export const MAX_CHARS = 2000;
const STAR_WORDS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'];

/** The product id of `/product/review/{id}`, if the path names one. */
export function productInPath(path: string): number | null {
  const m = /^\/product\/review\/(\d{1,15})\/?$/.exec(path);
  const id = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Characters as the origin counts them (Unicode scalar values), trimmed. */
export const charCount = (text: string) => [...text.trim()].length;

/** The text's error, if any: `{comment: message}`. */
function checkText(text: string): Record<string, string> {
  const count = charCount(text);
  if (count < MIN_CHARS) return { comment: `Write at least ${MIN_CHARS} characters (${count} so far).` };
  if (count > MAX_CHARS) return { comment: `Keep it to ${MAX_CHARS} characters: ${count - MAX_CHARS} too many.` };
  return {};
}

function stateOf(p: Reviewable): { label: string; className: string } {
  if (!p.review) return { label: 'Not reviewed', className: styles.todo };
  return p.review.state === 'published' ? { label: 'Published', className: styles.published } : { label: 'Awaiting check', className: styles.waiting };
}

function Stars({ rating }: { rating: number }) {
  return (
    <span className={styles.stars} role="img" aria-label={`${rating} out of 5 stars`}>
      {'★'.repeat(rating)}
      <span className={styles.off}>{'★'.repeat(5 - rating)}</span>
    </span>
  );
}

export function ReviewPage({ path = location.pathname }: { path?: string }) {
  const wanted = productInPath(path);
  const signedIn = !!authToken();
  const [products, setProducts] = useState<Reviewable[] | null>(null);
  const [error, setError] = useState('');
  const [signedOut, setSignedOut] = useState(!signedIn);
  const [open, setOpen] = useState<number | null>(wanted);
  const [done, setDone] = useState('');

  const load = useCallback(() => {
    setError('');
    apiGet<ReviewableResponse>('/api/user/reviewable')
      .then((r) => setProducts(r.products))
      .catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 401) setSignedOut(true);
        else setError(e instanceof ApiError ? e.message : 'Your products could not be loaded.');
      });
  }, []);
  useEffect(() => {
    if (signedIn) load();
  }, [signedIn, load]);

  if (signedOut)
    return (
      <p className={styles.note}>
        Please <a href={loginUrl()}>sign in</a> to review the products delivered to you. New here? <a href="/user/registration">Create an account</a>.
      </p>
    );
  if (error)
    return (
      <div className={styles.page}>
        <p className={forms.error} role="alert">
          {error}
        </p>
        <p>
          <button type="button" className="btn alt" onClick={load}>
            Try again
          </button>
        </p>
      </div>
    );
  if (!products) return <p className="muted">Loading the products you can review…</p>;

  const saved = (message: string) => {
    setDone(message);
    setOpen(null);
    load();
  };
  const target = wanted === null ? undefined : products.find((p) => p.id === wanted);
  return (
    <div className={styles.page}>
      <div role="status">{done && <p className={forms.ok}>{done}</p>}</div>
      {wanted !== null && !target && (
        <p className={styles.notice} role="alert">
          Product #{wanted} is not among the products delivered to you, so it cannot be reviewed here. You can review a product once an order with it has been
          delivered.
        </p>
      )}
      {products.length === 0 ? (
        <p className={styles.empty}>
          No delivered products to review yet. <a href="/c/products">Browse the shop</a>
        </p>
      ) : (
        <>
          <p className="muted">Products from your delivered orders. A new or edited review appears on the product's page once the shop has checked it.</p>
          <ul className={styles.list}>
            {products.map((p) => {
              const state = stateOf(p);
              const isOpen = open === p.id;
              return (
                <li key={p.id} className={styles.item}>
                  <div className={styles.head}>
                    {p.image_url ? (
                      <img src={imageUrl(p.image_url, 96)} width="64" height="64" alt="" loading="lazy" className={styles.thumb} />
                    ) : (
                      <span className={styles.thumb} aria-hidden="true" />
                    )}
                    <div className={styles.info}>
                      <h2 className={styles.title}>{p.on_sale ? <a href={`/product/${p.seo_url}`}>{p.title}</a> : p.title}</h2>
                      {p.sub_title && <p className="muted">{p.sub_title}</p>}
                      <p>
                        <span className={`${styles.badge} ${state.className}`}>{state.label}</span>
                        {p.review && (
                          <>
                            {' '}
                            <Stars rating={p.review.rating} />
                          </>
                        )}
                      </p>
                    </div>
                  </div>
                  {p.review && !isOpen && (
                    <p className={styles.text}>
                      {p.review.comment}
                      <span className="muted"> · {p.review.updated_at}</span>
                    </p>
                  )}
                  {isOpen ? (
                    <ReviewForm product={p} onCancel={() => setOpen(null)} onSaved={saved} />
                  ) : (
                    <button
                      type="button"
                      className={p.review ? 'btn alt' : 'btn'}
                      onClick={() => {
                        setDone('');
                        setOpen(p.id);
                      }}
                    >
                      {p.review ? 'Edit your review' : 'Write a review'}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}

/** Stars and text for `product`: a new review, or an edit of the shopper's. */
export function ReviewForm({ product, onCancel, onSaved }: { product: Reviewable; onCancel: () => void; onSaved: (message: string) => void }) {
  const id = useId();
  const [rating, setRating] = useState(product.review?.rating ?? 0);
  const [text, setText] = useState(product.review?.comment ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  const count = charCount(text);

  const check = (): Record<string, string> => {
    const out: Record<string, string> = only(checkText(text));
    if (rating < 1 || rating > 5) out.rating = 'Choose 1 to 5 stars.';
    return out;
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = check();
    setErrors(found);
    setFailure('');
    if (Object.keys(found).length) {
      form.current?.querySelector<HTMLElement>(found.rating ? 'input[type=radio]' : 'textarea')?.focus();
      return;
    }
    setBusy(true);
    const comment = text.trim();
    const call = product.review
      ? apiPost<MessageResponse>('/api/user/review-update', { id: product.review.id, rating, comment })
      : apiPost<MessageResponse>('/api/user/review-store', { product_id: product.id, rating, comment });
    call
      .then((r) => onSaved(r.message))
      .catch((err: unknown) => {
        if (err instanceof ApiError) {
          const fields: Record<string, string> = {};
          for (const [k, v] of Object.entries(err.errors)) fields[k] = Array.isArray(v) ? (v[0] ?? '') : String(v);
          setErrors(fields);
          setFailure(Object.keys(fields).length ? '' : err.message);
        } else setFailure('Your review could not be sent. Please try again.');
      })
      .finally(() => setBusy(false));
  };

  const countId = `${id}-count`;
  const textError = errors.comment;
  return (
    <form ref={form} className={styles.form} onSubmit={submit} noValidate aria-label={`Review of ${product.title}`}>
      <fieldset className={styles.rating} aria-describedby={errors.rating ? `${id}-re` : undefined}>
        <legend>Your rating</legend>
        <div className={styles.starRow}>
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} className={`${styles.star} ${n <= rating ? styles.on : ''}`} title={`${n} – ${STAR_WORDS[n]}`}>
              <input
                type="radio"
                name={`${id}-rating`}
                value={n}
                checked={rating === n}
                onChange={() => {
                  setRating(n);
                  setErrors(({ rating: _, ...rest }) => rest);
                }}
                aria-invalid={errors.rating ? true : undefined}
              />
              <span aria-hidden="true">★</span>
              <span className={styles.sr}>
                {n} star{n > 1 ? 's' : ''} ({STAR_WORDS[n]})
              </span>
            </label>
          ))}
          <span className={styles.word} aria-hidden="true">
            {rating ? STAR_WORDS[rating] : 'Choose'}
          </span>
        </div>
        {errors.rating && (
          <small id={`${id}-re`} className={styles.error}>
            {errors.rating}
          </small>
        )}
      </fieldset>
      <div className={styles.field}>
        <label htmlFor={`${id}-text`}>Your review</label>
        <textarea
          id={`${id}-text`}
          name="comment"
          rows={5}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            // Once shown, the text's error follows what is typed.
            if (errors.comment) setErrors(({ comment: _, ...rest }) => ({ ...rest, ...only(checkText(e.target.value)) }));
          }}
          aria-invalid={textError ? true : undefined}
          aria-describedby={[countId, textError ? `${id}-te` : ''].filter(Boolean).join(' ')}
          placeholder="How is it to use? Quality, comfort, delivery…"
        />
        <small id={countId} className={count > MAX_CHARS ? styles.error : 'muted'}>
          {count} / {MAX_CHARS} characters{count < MIN_CHARS ? ` (at least ${MIN_CHARS})` : ''}
        </small>
        {textError && (
          <small id={`${id}-te`} className={styles.error}>
            {textError}
          </small>
        )}
      </div>
      {failure && (
        <p className={forms.error} role="alert">
          {failure}
        </p>
      )}
      <div className={forms.row}>
        <button type="submit" className="btn" disabled={busy}>
          {busy ? 'Sending…' : product.review ? 'Save changes' : 'Send review'}
        </button>
        <button type="button" className="btn alt" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
