// The account area's views (SPEC.md §1, §3): profile and newsletter,
// orders, reviews, the address book and the password. Each loads its own
// data and shows every answer, errors included.
import { orderLink, paymentName, statusName } from '../../lib/order';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Field, SelectField, fieldErrors } from '../../components/Field';
import forms from '../../components/forms.module.css';
import { ApiError, apiGet, apiPost } from '../../lib/api';
import { formatTaka } from '../../lib/money';
import { PASSWORD_HINT, checkConfirmation, checkNewPassword } from '../../lib/password';
import { checkEmail, checkEmergencyPhone, checkPhone, normalisePhone, only } from '../../lib/validate';
import styles from './AccountPage.module.css';
import type {
  Address,
  AddressesResponse,
  ChangePasswordResponse,
  DistrictsResponse,
  OrdersResponse,
  ReviewsResponse,
  UserResponse,
  UserUpdateResponse,
} from './types';

type Note = { ok: boolean; text: string } | null;
const message = (e: unknown, fallback: string) => (e instanceof ApiError ? e.message : fallback);

function NoteLine({ note }: { note: Note }) {
  return (
    <>
      <div role="status">{note?.ok && <p className={forms.ok}>{note.text}</p>}</div>
      {note && !note.ok && (
        <p className={forms.error} role="alert">
          {note.text}
        </p>
      )}
    </>
  );
}

/** Loads `path` once; answers the data, an error, and a reload. */
function useLoad<T>(path: string): [T | undefined, string, () => void] {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState('');
  const load = useCallback(() => {
    apiGet<T>(path)
      .then((r) => {
        setData(r);
        setError('');
      })
      .catch((e: unknown) => setError(message(e, 'This could not be loaded.')));
  }, [path]);
  useEffect(load, [load]);
  return [data, error, load];
}

/**
 * The profile. `user-update` sets every field to what is sent (one left out is cleared), so
 * the form sends them all: the emergency number, which checkout asks for and fills from here,
 * and the home district and postcode, which it does not show, as they were saved.
 */
export function Profile() {
  const [r, loadError, reload] = useLoad<UserResponse>('/api/auth/user');
  const [v, setV] = useState<Record<'name' | 'email' | 'phone' | 'emergency_phone' | 'birthday' | 'gender', string>>({
    name: '',
    email: '',
    phone: '',
    emergency_phone: '',
    birthday: '',
    gender: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<Note>(null);
  const [news, setNews] = useState<Note>(null);
  // A new e-mail or mobile can take the account over (a reset link, a sign-in by mobile): the API asks for the password.
  const [password, setPassword] = useState('');
  const saved = r?.user;
  const sensitive = !!saved && (v.email.trim().toLowerCase() !== (saved.email ?? '').toLowerCase() || normalisePhone(v.phone) !== (saved.phone ?? ''));
  useEffect(() => {
    const u = r?.user;
    if (u)
      setV({
        name: u.name ?? '',
        email: u.email ?? '',
        phone: u.phone ?? '',
        emergency_phone: u.emergency_phone || u.emergency_mobile || '',
        birthday: u.birthday ?? '',
        gender: u.gender ?? '',
      });
  }, [r]);
  const set = (k: keyof typeof v) => (value: string) => setV((o) => ({ ...o, [k]: value }));
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const found = only({
      name: v.name.trim() ? '' : 'Enter your name.',
      email: checkEmail(v.email),
      phone: v.phone ? checkPhone(v.phone) : '',
      emergency_phone: v.emergency_phone.trim() ? checkEmergencyPhone(v.emergency_phone, v.phone) : '',
      old_password: sensitive && !password ? 'Enter your current password to change your email or mobile number.' : '',
    });
    setErrors(found);
    setNote(null);
    if (Object.keys(found).length) return;
    try {
      const res = await apiPost<UserUpdateResponse>('/api/user/user-update', {
        ...v,
        name: v.name.trim(),
        email: v.email.trim(),
        phone: normalisePhone(v.phone),
        emergency_phone: normalisePhone(v.emergency_phone.trim()),
        district: saved?.district ?? '',
        postcode: saved?.postcode ?? '',
        ...(sensitive ? { old_password: password } : {}),
      });
      setPassword('');
      reload();
      setNote({ ok: true, text: res.message || 'Your details are saved.' });
    } catch (err) {
      setErrors(err instanceof ApiError ? fieldErrors(err.errors) : {});
      setNote({ ok: false, text: message(err, 'Your details could not be saved.') });
    }
  };
  const subscribe = async () => {
    try {
      await apiPost('/api/user/subscribe', { email: v.email.trim() });
      setNews({ ok: true, text: 'You are subscribed to our newsletter.' });
    } catch (err) {
      setNews({ ok: false, text: message(err, 'The subscription failed. Please try again.') });
    }
  };
  if (loadError)
    return (
      <p className={forms.error} role="alert">
        {loadError}
      </p>
    );
  if (!r) return <p className="muted">Loading your profile…</p>;
  return (
    <>
      <form className={forms.form} onSubmit={(e) => void save(e)} noValidate>
        <NoteLine note={note} />
        <Field label="Full name" name="name" autoComplete="name" value={v.name} error={errors.name} onChange={set('name')} />
        <Field label="Email" name="email" type="email" autoComplete="email" value={v.email} error={errors.email} onChange={set('email')} />
        <Field label="Mobile number" name="phone" type="tel" inputMode="tel" autoComplete="tel" value={v.phone} error={errors.phone} onChange={set('phone')} />
        <Field
          label="Emergency mobile number"
          name="emergency_phone"
          type="tel"
          inputMode="tel"
          hint="Another number we can call about a delivery; checkout fills it in from here."
          value={v.emergency_phone}
          error={errors.emergency_phone}
          onChange={set('emergency_phone')}
        />
        {sensitive && (
          <Field
            label="Current password"
            name="old_password"
            type="password"
            autoComplete="current-password"
            hint="Needed to change your email or mobile number."
            value={password}
            error={errors.old_password}
            onChange={setPassword}
          />
        )}
        <Field label="Birthday" name="birthday" type="date" value={v.birthday} error={errors.birthday} onChange={set('birthday')} />
        <div className={styles.field}>
          <label htmlFor="account-gender">Gender</label>
          <select id="account-gender" value={v.gender} onChange={(e) => set('gender')(e.target.value)}>
            <option value="">Prefer not to say</option>
            <option value="female">Female</option>
            <option value="male">Male</option>
            <option value="other">Other</option>
          </select>
        </div>
        <button className="btn">Save my details</button>
      </form>
      <section className={styles.news} aria-labelledby="account-news">
        <h2 id="account-news">Newsletter</h2>
        <p>Offers and new arrivals by email, at most once a week.</p>
        <button type="button" className="btn alt" onClick={() => void subscribe()}>
          Subscribe {v.email ? `as ${v.email}` : ''}
        </button>
        <NoteLine note={news} />
      </section>
    </>
  );
}

export function Orders() {
  const [r, error] = useLoad<OrdersResponse>('/api/user/orders');
  if (error)
    return (
      <p className={forms.error} role="alert">
        {error}
      </p>
    );
  if (!r) return <p className="muted">Loading your orders…</p>;
  const orders = r.orders ?? [];
  if (!orders.length)
    return (
      <p>
        You have no orders yet. <a href="/c/products">Start shopping</a>
      </p>
    );
  return (
    <ul className={styles.orders}>
      {orders.map((o) => (
        <li key={o.id}>
          <details>
            <summary>
              <span>Order {o.order_random ?? o.id}</span>
              <span>{o.order_date}</span>
              <span>{statusName(o.od_status)}</span>
              <strong>{formatTaka(Number(o.grand_total) || 0)}</strong>
            </summary>
            <ul>
              {(o.products ?? []).map((p, i) => (
                <li key={i}>
                  {p.product?.seo_url ? <a href={`/product/${p.product.seo_url}`}>{p.product.title}</a> : (p.product?.title ?? p.product_code)} — {p.qty} ×{' '}
                  {formatTaka(Number(p.local_purchase_price) || 0)}
                </li>
              ))}
            </ul>
            <p>
              Payment: {paymentName(o.payment_method ?? undefined)}
              {o.payment_term_status ? ` (${o.payment_term_status})` : ''}{' '}
              {o.order_random && o.order_key && <a href={orderLink(String(o.order_random), o.order_key)}>Order details</a>}
            </p>
          </details>
        </li>
      ))}
    </ul>
  );
}

export function Reviews() {
  const [r, error] = useLoad<ReviewsResponse>('/api/user/reviews');
  if (error)
    return (
      <p className={forms.error} role="alert">
        {error}
      </p>
    );
  if (!r) return <p className="muted">Loading your reviews…</p>;
  const list = r.reviews && !Array.isArray(r.reviews) ? Object.entries(r.reviews) : [];
  if (!list.length) return <p>You have not written a review yet.</p>;
  return (
    <ul className={styles.reviews}>
      {list.map(([id, rv]) => {
        const product = rv.product && !Array.isArray(rv.product) ? rv.product : undefined;
        return (
          <li key={id}>
            <p>
              {product?.seo_url ? <a href={`/product/${product.seo_url}`}>{product.title}</a> : (product?.title ?? 'A product')}{' '}
              <span aria-label={`${rv.rating ?? 0} of 5 stars`}>{'★'.repeat(Number(rv.rating) || 0)}</span>
            </p>
            <p>{rv.comment}</p>
            <p className="muted">
              {rv.created_at}
              {rv.is_active ? '' : ' · waiting for approval'}
              {product?.id ? (
                <>
                  {' · '}
                  <a href={`/product/review/${product.id}`}>Edit review</a>
                </>
              ) : null}
            </p>
          </li>
        );
      })}
    </ul>
  );
}

/** A new address: the form asks for all but the thana. */
const EMPTY: Omit<Address, 'id' | 'thana'> = { name: '', address: '', region: '', district: '', phone: '' };

export function AddressBook() {
  const [r, error, reload] = useLoad<AddressesResponse>('/api/user/address-list');
  // The 64 districts, each with its division: the shopper picks the district.
  const [places] = useLoad<DistrictsResponse>('/api/common/districts');
  const districts = (places?.districts ?? []).map((d) => d.district).sort();
  const divisionOf = (district: string) => places?.districts.find((d) => d.district === district)?.division ?? '';
  const [editing, setEditing] = useState<Partial<Address> | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<Note>(null);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    const a = { ...EMPTY, ...editing };
    const found = only({
      name: a.name.trim() ? '' : 'Enter a name.',
      address: a.address.trim() ? '' : 'Enter the address.',
      district: a.district.trim() ? '' : 'Choose the district.',
      phone: checkPhone(a.phone),
    });
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      const params = {
        name: a.name.trim(),
        address: a.address.trim(),
        region: divisionOf(a.district) || (a.region ?? '').trim(),
        district: a.district.trim(),
        phone: normalisePhone(a.phone),
      };
      if (editing.id) await apiGet('/api/user/address-update', { ...params, id: editing.id });
      else await apiGet('/api/user/address-store', params);
      setEditing(null);
      setNote({ ok: true, text: 'The address is saved.' });
      reload();
    } catch (err) {
      setErrors(err instanceof ApiError ? fieldErrors(err.errors) : {});
      setNote({ ok: false, text: message(err, 'The address could not be saved.') });
    }
  };
  const makeDefault = async (a: Address, type: 'shipping' | 'billing') => {
    try {
      await apiGet('/api/user/set-default-address', { type, id: a.id });
      setNote({ ok: true, text: `This is now your ${type} address.` });
    } catch (err) {
      setNote({ ok: false, text: message(err, 'That could not be changed.') });
    }
  };
  if (error)
    return (
      <p className={forms.error} role="alert">
        {error}
      </p>
    );
  if (!r) return <p className="muted">Loading your addresses…</p>;
  // `[]` is how the server writes no addresses (an empty PHP array).
  const list = Array.isArray(r.addresses) ? [] : Object.values(r.addresses);
  const set = (k: keyof Address) => (value: string) => setEditing((o) => ({ ...o, [k]: value }));
  return (
    <div className={styles.book}>
      <NoteLine note={note} />
      {list.length === 0 && <p>No saved addresses yet.</p>}
      <ul>
        {list.map((a) => (
          <li key={a.id}>
            <p>
              <strong>{a.name}</strong>, {a.phone}
              <br />
              {a.address}, {a.district}
              {a.region ? `, ${a.region}` : ''}
            </p>
            <p className={forms.links}>
              <button type="button" className={styles.textbtn} onClick={() => setEditing(a)}>
                Edit
              </button>
              <button type="button" className={styles.textbtn} onClick={() => void makeDefault(a, 'shipping')}>
                Use for delivery
              </button>
              <button type="button" className={styles.textbtn} onClick={() => void makeDefault(a, 'billing')}>
                Use for billing
              </button>
            </p>
          </li>
        ))}
      </ul>
      {editing ? (
        <form className={forms.form} onSubmit={(e) => void save(e)} noValidate aria-label={editing.id ? 'Edit the address' : 'New address'}>
          <Field label="Name" name="name" value={editing.name ?? ''} error={errors.name} onChange={set('name')} />
          <Field label="Mobile number" name="phone" type="tel" inputMode="tel" value={editing.phone ?? ''} error={errors.phone} onChange={set('phone')} />
          <Field label="Address" name="address" value={editing.address ?? ''} error={errors.address} onChange={set('address')} />
          <SelectField
            label="District"
            name="district"
            value={editing.district ?? ''}
            options={districts}
            placeholder="Choose a district"
            hint={divisionOf(editing.district ?? '') ? `${divisionOf(editing.district ?? '')} division` : undefined}
            error={errors.district || errors.region}
            onChange={set('district')}
          />
          <p className={forms.row}>
            <button className="btn">Save the address</button>
            <button type="button" className="btn alt" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </p>
        </form>
      ) : (
        <button
          type="button"
          className="btn"
          onClick={() => {
            setErrors({});
            setEditing({});
          }}
        >
          Add an address
        </button>
      )}
    </div>
  );
}

export function ChangePassword() {
  const [v, setV] = useState({ old_password: '', password: '', password_confirmation: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<Note>(null);
  const set = (k: keyof typeof v) => (value: string) => setV((o) => ({ ...o, [k]: value }));
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const found = only({
      old_password: v.old_password ? '' : 'Enter your current password.',
      password: checkNewPassword(v.password),
      password_confirmation: checkConfirmation(v.password, v.password_confirmation),
    });
    setErrors(found);
    setNote(null);
    if (Object.keys(found).length) return;
    try {
      const r = await apiPost<ChangePasswordResponse>('/api/user/change-password', v);
      setV({ old_password: '', password: '', password_confirmation: '' });
      setNote({ ok: true, text: r.message || 'Your password is changed.' });
    } catch (err) {
      setErrors(err instanceof ApiError ? fieldErrors(err.errors) : {});
      setNote({ ok: false, text: message(err, 'The password could not be changed.') });
    }
  };
  return (
    <form className={forms.form} onSubmit={(e) => void save(e)} noValidate>
      <NoteLine note={note} />
      <Field
        label="Current password"
        name="old_password"
        type="password"
        autoComplete="current-password"
        value={v.old_password}
        error={errors.old_password}
        onChange={set('old_password')}
      />
      <Field
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_HINT}
        value={v.password}
        error={errors.password}
        onChange={set('password')}
      />
      <Field
        label="Confirm new password"
        name="password_confirmation"
        type="password"
        autoComplete="new-password"
        value={v.password_confirmation}
        error={errors.password_confirmation}
        onChange={set('password_confirmation')}
      />
      <button className="btn">Change password</button>
    </form>
  );
}
