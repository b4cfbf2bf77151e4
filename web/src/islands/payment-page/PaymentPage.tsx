// Payment (/payment): the payment method and the terms, the amount to pay,
// then "Place order". A pre-booking is paid in part now, online: the shopper
// chooses the advance between its minimum and the total (`set-paying-amount`)
// and sees what is left to pay on delivery; cash on delivery is not offered
// for it, nor for a cart holding a product that cannot be paid on delivery.
// Only the methods the origin says are configured (`get-payment-gateway`)
// are shown, and none is chosen before that answer: cash on delivery is
// chosen by default where the cart allows it, else the only method left;
// without the answer only cash on delivery (always on) is offered. While the
// shop has switched buying off the page says so and offers nothing. An empty
// cart sends the shopper back to the cart. Cash on delivery places the order at once
// (`cod-place-order`) and goes to the thank-you page; the online methods
// record the choice and hand over to their gateway, as the original did
// (SSLCommerz for cards, bKash, Nagad). The button is disabled while an order
// is placed, and the placement carries one idempotency key per visit, so a
// double tap or a retry cannot make two orders.
import { useEffect, useMemo, useState } from 'react';
import forms from '../../components/forms.module.css';
import { ApiError, apiGet, apiPost, replayKey, selfToken } from '../../lib/api';
import { discountOf, fetchCart, setsOf, type CartViewResponse } from '../../lib/cart';
import { emit } from '../../lib/events';
import { formatTaka } from '../../lib/money';
import { navigate } from '../../lib/navigate';
import styles from './PaymentPage.module.css';
import type { BkashCreateResponse, NagadPayResponse, PaymentGatewaysResponse, PaymentMethod, PlaceOrderResponse, SslcommerzPayResponse } from './types';

export const METHODS: { id: PaymentMethod; label: string; gateway: Exclude<keyof PaymentGatewaysResponse, 'buying_disabled'> }[] = [
  { id: 'cash_on_delivery', label: 'Cash on delivery', gateway: 'cash_on_delivery' },
  { id: 'debitcredit', label: 'Card or mobile banking (SSLCommerz)', gateway: 'debitcredit' },
  { id: 'bkash', label: 'bKash', gateway: 'bkash' },
  { id: 'nagad', label: 'Nagad', gateway: 'nagad' },
];

const KEY = 'order-idempotency-key';
/** One key per checkout visit, kept across reloads of this tab. */
export function idempotencyKey(): string {
  try {
    let k = sessionStorage.getItem(KEY);
    if (!k) {
      k = replayKey();
      sessionStorage.setItem(KEY, k);
    }
    return k;
  } catch {
    return `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  }
}

/**
 * What is wrong with the advance typed for a pre-booking (`min`…`max` whole taka, as
 * `set-paying-amount` takes it), in the shop's own writing of taka; empty when it may be paid.
 */
export function advanceError(typed: string, min: number, max: number): string {
  const paying = Number(typed);
  return typed.trim() && Number.isInteger(paying) && paying >= min && paying <= max ? '' : `Pay between ${formatTaka(min)} and ${formatTaka(max)} now.`;
}

/** What the page knows of the methods: not yet, the origin's answer, or that it could not be had. */
type Known = { state: 'loading' } | { state: 'known'; on: typeof METHODS; buyingDisabled: boolean } | { state: 'unknown' };

export function PaymentPage() {
  const [known, setKnown] = useState<Known>({ state: 'loading' });
  const [method, setMethod] = useState<PaymentMethod | ''>('');
  const [terms, setTerms] = useState(false);
  const [view, setView] = useState<CartViewResponse | undefined>(undefined);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [advance, setAdvance] = useState('');

  useEffect(() => {
    fetchCart()
      .then((v) => {
        if (!v.cart.items.length && !setsOf(v.cart).length) return navigate('/cart');
        setView(v);
        if (v.prebooking) setAdvance(String(v.paying_amount ?? v.prebooking_min_amount));
      })
      .catch((e: unknown) => setError(e instanceof ApiError ? e.message : 'Your cart could not be loaded.'));
    apiGet<PaymentGatewaysResponse>('/api/cart/get-payment-gateway', undefined, { quiet: true })
      .then((g) => setKnown({ state: 'known', on: METHODS.filter((m) => g[m.gateway].active), buyingDisabled: g.buying_disabled === true }))
      .catch(() => setKnown({ state: 'unknown' }));
  }, []);

  const buyingDisabled = known.state === 'known' && known.buyingDisabled;
  const offered = useMemo(() => {
    if (!view || buyingDisabled) return [];
    // Configured methods only (without the origin's answer, cash on delivery, which is always on);
    // cash on delivery is not for a pre-booking, nor for a cart that cannot be paid on delivery.
    const configured = known.state === 'known' ? known.on : known.state === 'unknown' ? METHODS.filter((m) => m.id === 'cash_on_delivery') : [];
    const codAllowed = !view.prebooking && view.cash_on_delivery;
    return configured.filter((m) => m.id !== 'cash_on_delivery' || codAllowed);
  }, [view, known, buyingDisabled]);
  useEffect(() => {
    if (!view || known.state === 'loading') return;
    if (method && offered.some((m) => m.id === method)) return;
    const preferred = offered.find((m) => m.id === 'cash_on_delivery') ?? (offered.length === 1 ? offered[0] : undefined);
    const next = preferred?.id ?? '';
    if (next !== method) setMethod(next);
  }, [view, known, offered, method]);

  const cart = view?.cart;
  const total = Number(cart?.totalprice) || 0;
  const discount = discountOf(cart);
  // The cart view states the charge; `pm` only once a method is stored.
  const fee = Number(view?.delivery_fee ?? view?.pm?.deliveryfee) || 0;
  const grand = Number(view?.grand_total) || Number(view?.pm?.grand_total) || total - discount + fee;
  // Checked as it is typed: an amount out of range is said at once and never sent.
  const advanceWrong = view?.prebooking ? advanceError(advance, view.prebooking_min_amount, grand) : '';
  const due = Math.max(0, grand - (Number(advance) || 0));

  const place = async () => {
    if (buyingDisabled || !offered.length) return;
    const found: Record<string, string> = {};
    if (!method) found.method = 'You must select a payment method';
    if (!terms) found.terms = 'You must agree with terms';
    const paying = Number(advance);
    setErrors(found);
    setError('');
    if (Object.keys(found).length || advanceWrong) {
      if (advanceWrong) document.getElementById('pay-advance')?.focus();
      return;
    }
    setBusy(true);
    const token = selfToken();
    try {
      await apiPost('/api/cart/store-payment-method', { self_token: token, terms_check: true, payment_method: method }, { idempotencyKey: replayKey() });
      if (view?.prebooking) await apiPost('/api/cart/set-paying-amount', { payingAmount: paying }, { idempotencyKey: replayKey() });
      if (method === 'cash_on_delivery') {
        const key = idempotencyKey();
        const r = await apiPost<PlaceOrderResponse>('/api/cod-place-order', { idempotency_key: key }, { idempotencyKey: key });
        if (!r.order_random) throw new ApiError(200, 'The order could not be placed. Please check your cart and address.');
        try {
          sessionStorage.removeItem(KEY);
        } catch {
          // Nothing to forget.
        }
        emit('cart:changed', {});
        navigate(`/thank-you?order_random=${encodeURIComponent(r.order_random)}&order_key=${encodeURIComponent(r.order_key)}`);
      } else if (method === 'nagad') {
        const r = await apiGet<NagadPayResponse>('/api/nagad/pay-via-ajax', { token });
        if (!r.url) throw new ApiError(200, 'Nagad could not be reached. Please try another method.');
        navigate(r.url);
      } else if (method === 'bkash') {
        // bKash's own page, where the shopper approves; it comes back to /api/bkash/callback.
        const r = await apiPost<BkashCreateResponse>('/api/bkash/create', { token });
        if (!r.success || !r.bkashURL) throw new ApiError(200, 'bKash could not be reached. Please try another method.');
        navigate(r.bkashURL);
      } else {
        const r = await apiPost<SslcommerzPayResponse>(`/sslcommerz/pay-via-ajax?self_token=${encodeURIComponent(token)}`, { device: 'website' });
        if (!/^success$/i.test(r.status) || !r.data) throw new ApiError(200, r.message || 'The card payment could not start. Please try another method.');
        navigate(r.data);
      }
    } catch (err) {
      if (err instanceof ApiError && 'payingAmount' in err.errors) {
        // The total changed since the page was loaded: the range beside the box follows it.
        setError('Please check the advance: the amount you can pay now has changed.');
        fetchCart()
          .then(setView)
          .catch(() => {});
      } else setError(err instanceof ApiError ? err.message : 'The order could not be placed. Please try again.');
      setBusy(false);
    }
  };

  return (
    <div className={styles.page}>
      {error && (
        <p className={forms.error} role="alert">
          {error}
        </p>
      )}
      {buyingDisabled && (
        <p className={forms.error} role="status">
          Buying is switched off for a short while. Please try again later.
        </p>
      )}
      {!buyingDisabled && view && known.state !== 'loading' && !offered.length && (
        <p className={forms.error} role="status">
          No way to pay is available for this cart right now. Please try again later or contact us.
        </p>
      )}
      <fieldset className={styles.methods} aria-describedby={errors.method ? 'pay-method-e' : undefined} aria-busy={known.state === 'loading'}>
        <legend>Payment method</legend>
        {known.state === 'loading' && <small className="muted">Loading the ways to pay…</small>}
        {offered.map((m) => (
          <label key={m.id} className={styles.method}>
            <input type="radio" name="payment_method" value={m.id} checked={method === m.id} onChange={() => setMethod(m.id)} /> {m.label}
          </label>
        ))}
        {errors.method && (
          <small id="pay-method-e" className={forms.error}>
            {errors.method}
          </small>
        )}
      </fieldset>
      <div>
        <label className={forms.row}>
          <input
            type="checkbox"
            checked={terms}
            aria-invalid={errors.terms ? true : undefined}
            aria-describedby={errors.terms ? 'pay-terms-e' : undefined}
            onChange={(e) => setTerms(e.target.checked)}
          />{' '}
          I agree to the <a href="/page/terms-and-conditions">terms and conditions</a>
        </label>
        {errors.terms && (
          <small id="pay-terms-e" className={forms.error}>
            {errors.terms}
          </small>
        )}
      </div>
      <dl className={styles.totals}>
        <dt>Subtotal</dt>
        <dd>{view ? formatTaka(total) : '…'}</dd>
        {discount > 0 && (
          <>
            <dt>Discount</dt>
            <dd>−{formatTaka(discount)}</dd>
          </>
        )}
        <dt>Delivery</dt>
        <dd>{view ? formatTaka(fee) : '…'}</dd>
        <dt className={styles.grand}>{view?.prebooking ? 'Total' : 'To pay'}</dt>
        <dd className={styles.grand}>{view ? formatTaka(grand) : '…'}</dd>
        {view?.prebooking && (
          <>
            <dt>Pay now</dt>
            <dd>{advanceWrong ? '—' : formatTaka(Number(advance))}</dd>
            <dt>Due on delivery</dt>
            <dd>{advanceWrong ? '—' : formatTaka(due)}</dd>
          </>
        )}
      </dl>
      {view?.prebooking && (
        <div className={styles.advance}>
          <label htmlFor="pay-advance">Advance to pay now (taka)</label>
          <input
            id="pay-advance"
            type="number"
            inputMode="numeric"
            min={view.prebooking_min_amount}
            max={grand}
            step={1}
            value={advance}
            aria-invalid={advanceWrong ? true : undefined}
            aria-describedby="pay-advance-hint"
            onChange={(e) => setAdvance(e.target.value)}
          />
          <small id="pay-advance-hint" className={advanceWrong ? forms.error : 'muted'} role={advanceWrong ? 'alert' : undefined}>
            {advanceWrong || `This is a pre-booking: pay at least ${formatTaka(view.prebooking_min_amount)} now, and the rest on delivery.`}
          </small>
        </div>
      )}
      <p className={forms.links}>
        <a href="/checkout">Change the delivery address</a>
      </p>
      <button type="button" className="btn" disabled={busy || buyingDisabled || !offered.length} aria-busy={busy} onClick={() => void place()}>
        {busy ? 'Placing your order…' : method && method !== 'cash_on_delivery' ? 'Pay now' : 'Place order'}
      </button>
    </div>
  );
}
