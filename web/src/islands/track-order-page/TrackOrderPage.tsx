// Track an order (/page/track-order): the order number and the phone it was
// placed with (both needed, as the API asks), then the order's status,
// payment status and date, each line with its price, the delivery charge,
// the total, what is paid and what is due. A link with both (the thank-you
// page's "Track this order") looks the order up at once.
import { useEffect, useState, type FormEvent } from 'react';
import { Field } from '../../components/Field';
import { OrderSummary } from '../../components/OrderSummary';
import forms from '../../components/forms.module.css';
import { ApiError, apiGet } from '../../lib/api';
import { paymentName, statusName } from '../../lib/order';
import { checkPhone, normalisePhone, only } from '../../lib/validate';
import styles from './TrackOrderPage.module.css';
import type { TrackOrderResponse } from './types';

type Master = Exclude<TrackOrderResponse['order_masters'], unknown[] | undefined>;

export function TrackOrderPage({ search = location.search }: { search?: string }) {
  const q = new URLSearchParams(search);
  const [id, setId] = useState(q.get('id') ?? '');
  const [phone, setPhone] = useState(q.get('phone') ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [found, setFound] = useState<{ master: Master; details: NonNullable<TrackOrderResponse['order_details']> } | null>(null);
  const [busy, setBusy] = useState(false);

  const lookup = async () => {
    const problems = only({ id: id.trim() ? '' : 'Enter your order number.', phone: checkPhone(phone) });
    setErrors(problems);
    setError('');
    setFound(null);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      const r = await apiGet<TrackOrderResponse>('/api/cart/track-order', { id: id.trim(), phone: normalisePhone(phone) });
      const master = r.order_masters;
      if (!master || Array.isArray(master)) throw new ApiError(404, '');
      setFound({ master, details: r.order_details ?? [] });
    } catch (err) {
      setError(
        err instanceof ApiError && (err.status === 404 || err.status === 200 || !err.message)
          ? 'No order matches that number and phone. Please check both.'
          : err instanceof ApiError
            ? err.message
            : 'The order could not be looked up. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void lookup();
  };
  // Only on arrival, with the link's own order number and phone.
  useEffect(() => {
    if (q.get('id') && q.get('phone')) void lookup();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className={styles.page}>
      <form className={forms.form} onSubmit={submit} noValidate>
        <Field label="Order number" name="id" required value={id} error={errors.id} onChange={setId} />
        <Field
          label="Mobile number used for the order"
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          required
          value={phone}
          error={errors.phone}
          onChange={setPhone}
        />
        <button className="btn" disabled={busy}>
          Track order
        </button>
      </form>
      {error && (
        <p className={forms.error} role="alert">
          {error}
        </p>
      )}
      {found && (
        <section aria-live="polite" className={styles.result}>
          <h2>Order {found.master.order_random ?? id}</h2>
          <dl>
            <dt>Status</dt>
            <dd>{statusName(found.master.order_status)}</dd>
            <dt>Payment</dt>
            <dd>
              {statusName(found.master.payment_term_status)}, {paymentName(found.master.payment_method)}
            </dd>
            <dt>Ordered on</dt>
            <dd>{found.master.order_date ?? '–'}</dd>
            {found.master.customer_name && (
              <>
                <dt>Name</dt>
                <dd>{found.master.customer_name}</dd>
              </>
            )}
          </dl>
          <OrderSummary head={found.master} lines={found.details} />
        </section>
      )}
    </div>
  );
}
