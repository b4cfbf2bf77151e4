// Checkout, the delivery address (/checkout): name, mobile and emergency
// mobile (11 digits, different), email (optional unless an account is made
// with it), district and address, checked here
// with a message beside each field, then sent as the original shop named
// them (`cart/checkout-delivery-address`); the delivery charge for the
// district and the order's totals beside. The form starts from what was
// saved for this cart (the cart view's `address`: back from /payment, or
// after a payment that failed), then a signed-in shopper's details and
// default shipping address fill what is still empty; nothing the shopper
// typed is overwritten. A guest may create an account with a password. Then
// on to /payment.
import { useEffect, useState, type FormEvent } from 'react';
import { Field, fieldErrors } from '../../components/Field';
import forms from '../../components/forms.module.css';
import { ApiError, apiGet, apiPost, authToken, replayKey, selfToken } from '../../lib/api';
import { discountOf, fetchCart, setsOf, type Cart } from '../../lib/cart';
import { formatTaka } from '../../lib/money';
import { navigate } from '../../lib/navigate';
import { checkEmail, checkEmergencyPhone, checkPhone, normalisePhone, only } from '../../lib/validate';
import styles from './CheckoutPage.module.css';
import type { DefaultAddressResponse, DeliveryChargeResponse, DistrictsResponse, UserResponse } from './types';

/** The district chosen on the cart page (see cart-page). */
const DISTRICT_KEY = 'checkout-district';

export interface AddressForm {
  name: string;
  mobile: string;
  emergency_mobile: string;
  email: string;
  district: string;
  address: string;
}

/**
 * What is wrong with the form, field by field (the server's rules: ORIGINAL-API.md §2). The
 * email is for the receipt and may be left out (many who pay on delivery have none), unless an
 * account is made with it (`withAccount`).
 */
export function checkAddress(f: AddressForm, withAccount = false): Record<string, string> {
  const name = f.name.trim();
  return only({
    name: !name ? 'Enter the name of the person receiving the order.' : name.length < 3 ? 'Enter at least 3 letters.' : '',
    mobile: checkPhone(f.mobile),
    emergency_mobile: checkEmergencyPhone(f.emergency_mobile, f.mobile),
    email: f.email.trim() || withAccount ? checkEmail(f.email) : '',
    district: f.district ? '' : 'Choose the district for delivery.',
    address: f.address.trim() ? '' : 'Enter the delivery address: house, road, area.',
  });
}

/** Who filled a field, the stronger first: the shopper (never overwritten), this cart's saved address or this device's district, the account. */
const TYPED = 3;
const CART = 2;
const ACCOUNT = 1;

interface FormState {
  f: AddressForm;
  /** Who filled each field (absent: nobody). */
  by: Partial<Record<keyof AddressForm, number>>;
}

/** `s` with the non-empty `values` of a source of strength `by`, in each field no stronger source filled. */
export function prefill(s: FormState, values: Partial<Record<keyof AddressForm, string | null | undefined>>, by: number): FormState {
  const f = { ...s.f };
  const from = { ...s.by };
  for (const [k, v] of Object.entries(values) as [keyof AddressForm, string | null | undefined][]) {
    if (!v || (from[k] ?? 0) >= by) continue;
    f[k] = v;
    from[k] = by;
  }
  return { f, by: from };
}

export function CheckoutPage() {
  const [form, setForm] = useState<FormState>(() =>
    prefill(
      { f: { name: '', mobile: '', emergency_mobile: '', email: '', district: '', address: '' }, by: {} },
      { district: localStorage.getItem(DISTRICT_KEY) },
      CART,
    ),
  );
  const f = form.f;
  const [districts, setDistricts] = useState<{ division?: string; district: string }[]>([]);
  const [cart, setCart] = useState<Cart | null | undefined>(undefined);
  const [delivery, setDelivery] = useState<number | null>(null);
  const [create, setCreate] = useState(false);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const signedIn = !!authToken();
  const set = (k: keyof AddressForm) => (v: string) => setForm((s) => ({ f: { ...s.f, [k]: v }, by: { ...s.by, [k]: TYPED } }));

  useEffect(() => {
    fetchCart()
      .then((r) => {
        setCart(r.cart ?? null);
        // What was saved for this cart (back from /payment, or after a payment that failed).
        setForm((s) => prefill(s, { ...r.address, district: r.address?.district || r.district }, CART));
      })
      .catch((e: unknown) => setError(e instanceof ApiError ? e.message : 'Your cart could not be loaded.'));
    apiGet<DistrictsResponse>('/api/common/districts', undefined, { quiet: true })
      .then((r) => setDistricts(r.districts ?? []))
      .catch(() => setDistricts([]));
    if (!signedIn) return;
    apiGet<UserResponse>('/api/auth/user', undefined, { quiet: true })
      .then(({ user }) =>
        setForm((s) =>
          prefill(s, { name: user.name, email: user.email, mobile: user.phone, emergency_mobile: user.emergency_phone || user.emergency_mobile }, ACCOUNT),
        ),
      )
      .catch(() => {});
    apiGet<DefaultAddressResponse>('/api/user/get-default-address', { type: 'shipping' }, { quiet: true })
      .then(({ address: a }) => {
        if (!a || Array.isArray(a)) return;
        setForm((s) => prefill(s, { name: a.name, mobile: a.phone, district: a.district, address: a.address }, ACCOUNT));
      })
      .catch(() => {});
  }, [signedIn]);

  const total = Number(cart?.totalprice) || 0;
  useEffect(() => {
    if (!f.district || !total) return;
    let live = true;
    apiGet<DeliveryChargeResponse>('/api/cart/get-delivery-charge', { district: f.district }, { quiet: true })
      .then((r) => live && setDelivery(Number(r.deliverycharge) || 0))
      .catch(() => live && setDelivery(null));
    return () => {
      live = false;
    };
  }, [f.district, total]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = checkAddress(f, create);
    if (create && password.length < 6) found.password = 'Use at least 6 characters, or untick “Create an account”.';
    setErrors(found);
    setError(Object.keys(found).length ? 'Please correct the fields marked below.' : '');
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const division = districts.find((d) => d.district === f.district)?.division ?? '';
      await apiPost(
        '/api/cart/checkout-delivery-address',
        {
          name: f.name.trim(),
          mobile: normalisePhone(f.mobile),
          emergency_mobile: normalisePhone(f.emergency_mobile),
          email: f.email.trim(),
          district: f.district,
          division,
          address: f.address.trim(),
          username: create ? f.email.trim() : '',
          password: create ? password : '',
          create,
          self_token: selfToken(),
        },
        { idempotencyKey: replayKey() },
      );
      try {
        localStorage.setItem(DISTRICT_KEY, f.district);
      } catch {
        // Not needed beyond this page.
      }
      navigate('/payment');
    } catch (err) {
      if (err instanceof ApiError) {
        setErrors(fieldErrors(err.errors));
        setError(err.message);
      } else setError('Your address could not be saved. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  if (cart !== undefined && !(cart?.items?.length || setsOf(cart).length)) {
    return (
      <p>
        Your cart is currently empty. <a href="/c/products">Continue shopping</a>
      </p>
    );
  }
  const discount = discountOf(cart);
  return (
    <div className={styles.page}>
      <form className={forms.form} onSubmit={(e) => void submit(e)} noValidate>
        {error && (
          <p className={forms.error} role="alert">
            {error}
          </p>
        )}
        <h2 className={styles.h}>Delivery address</h2>
        <Field label="Full name" name="name" autoComplete="name" required value={f.name} error={errors.name} onChange={set('name')} />
        <Field
          label="Mobile number"
          name="mobile"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          required
          hint="11 digits, like 01712345678"
          value={f.mobile}
          error={errors.mobile}
          onChange={set('mobile')}
        />
        <Field
          label="Emergency mobile number"
          name="emergency_mobile"
          type="tel"
          inputMode="tel"
          required
          hint="Another number we can call"
          value={f.emergency_mobile}
          error={errors.emergency_mobile}
          onChange={set('emergency_mobile')}
        />
        <Field
          label={create ? 'Email' : 'Email for the receipt (optional)'}
          name="email"
          type="email"
          autoComplete="email"
          required={create}
          value={f.email}
          error={errors.email}
          onChange={set('email')}
        />
        <div className={styles.field}>
          <label htmlFor="checkout-district">District</label>
          <select
            id="checkout-district"
            name="district"
            value={f.district}
            aria-invalid={errors.district ? true : undefined}
            aria-describedby={errors.district ? 'checkout-district-e' : undefined}
            onChange={(e) => set('district')(e.target.value)}
          >
            <option value="">Choose a district</option>
            {[...new Set([f.district, ...districts.map((d) => d.district)].filter(Boolean))].sort().map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
          {errors.district && (
            <small id="checkout-district-e" className={forms.error}>
              {errors.district}
            </small>
          )}
        </div>
        <div className={styles.field}>
          <label htmlFor="checkout-address">Address</label>
          <textarea
            id="checkout-address"
            name="address"
            rows={3}
            autoComplete="street-address"
            value={f.address}
            aria-invalid={errors.address ? true : undefined}
            aria-describedby={errors.address ? 'checkout-address-e' : undefined}
            onChange={(e) => set('address')(e.target.value)}
          />
          {errors.address && (
            <small id="checkout-address-e" className={forms.error}>
              {errors.address}
            </small>
          )}
        </div>
        {!signedIn && (
          <>
            <label className={forms.row}>
              <input type="checkbox" checked={create} onChange={(e) => setCreate(e.target.checked)} /> Create an account with this email
            </label>
            {create && (
              <Field
                label="Choose a password"
                name="password"
                type="password"
                autoComplete="new-password"
                value={password}
                error={errors.password}
                onChange={setPassword}
              />
            )}
          </>
        )}
        <button className="btn" disabled={busy}>
          {busy ? 'Saving…' : 'Continue to payment'}
        </button>
      </form>
      <aside className={styles.summary} aria-label="Order summary">
        <h2 className={styles.h}>Your order</h2>
        {cart === undefined ? (
          <p className="muted">Loading…</p>
        ) : (
          <>
            <ul>
              {(cart?.items ?? []).map((l, i) => (
                <li key={i}>
                  <span>
                    {l.info.title} × {l.qty}
                  </span>
                  <span>{formatTaka(l.purchaseprice * l.qty)}</span>
                </li>
              ))}
              {setsOf(cart).map((s, i) => (
                <li key={`s${i}`}>
                  <span>{s.info.title}</span>
                  <span>{formatTaka(s.items.reduce((t, l) => t + l.qty * l.purchaseprice, 0))}</span>
                </li>
              ))}
            </ul>
            <dl>
              <dt>Subtotal</dt>
              <dd>{formatTaka(total)}</dd>
              {discount > 0 && (
                <>
                  <dt>Discount</dt>
                  <dd>−{formatTaka(discount)}</dd>
                </>
              )}
              <dt>Delivery</dt>
              <dd>{delivery === null ? 'Choose a district' : formatTaka(delivery)}</dd>
              <dt className={styles.grand}>Total</dt>
              <dd className={styles.grand}>{formatTaka(total - discount + (delivery ?? 0))}</dd>
            </dl>
          </>
        )}
      </aside>
    </div>
  );
}
