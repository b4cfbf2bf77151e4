// Sign in (/user/login): email or mobile number (an account made with a
// mobile only, as the basic sign-up allows, signs in with it) and password,
// checked here first (clear
// messages by each field) and then by the API. The token is kept for the
// `Authorization` header; the server merges the guest's cart, wishlist and
// compare list (the call carries the SELF-TOKEN). Then to the home page
// (SPEC.md §6), or back to the same-site page named by `?redirect=` (or
// `?next=`), such as the product whose Wishlist button sent the guest here.
// Social sign-in (SocialSignIn.tsx) offers a "Continue with ..." link per
// provider and finishes here: the callback's one-time code is redeemed, and
// the token it gives is kept and followed the same way.
import { useEffect, useState, type FormEvent } from 'react';
import { Field, fieldErrors } from '../../components/Field';
import forms from '../../components/forms.module.css';
import { ApiError, apiPost, setAuthToken } from '../../lib/api';
import { emit } from '../../lib/events';
import { navigate } from '../../lib/navigate';
import { EMAIL, normalisePhone } from '../../lib/validate';
import {
  clearFragment,
  isSocialFragment,
  readSocialFragment,
  redeemSocialCode,
  SocialButtons,
  SocialLinkForm,
  type Redeemed,
  type SocialArrival,
} from './SocialSignIn';
import type { LoginResponse } from './types';

/**
 * Where to go after signing in: the same-site path `?redirect=` (or `?next=`) names, else home.
 * Only a path of this site is followed, never another site: `//evil.example`, `/\evil.example`
 * and `/<tab>/evil.example` (which browsers read as `//evil.example`), absolute URLs, `javascript:`
 * and the sign-in page itself all go home.
 */
export function afterLogin(search: string, origin = 'https://shop.invalid'): string {
  const q = new URLSearchParams(search);
  const to = q.get('redirect') || q.get('next') || '';
  // A path: one leading slash, then no second slash or backslash, and no control characters or spaces the URL parser would drop.
  const dropped = [...to].some((c) => c === '\\' || c <= ' ' || c === '\u007f');
  if (!/^\/(?![/\\])/.test(to) || dropped) return '/';
  let url: URL;
  try {
    url = new URL(to, origin);
  } catch {
    return '/';
  }
  if (url.origin !== origin || url.pathname.startsWith('/user/login')) return '/';
  return url.pathname + url.search + url.hash;
}

/** What the login field holds, as the API takes it: the email, or the mobile number in its stored form; `''` when it is neither. */
export function loginName(typed: string): string {
  const t = typed.trim();
  if (EMAIL.test(t)) return t;
  const phone = normalisePhone(t);
  return /^01\d{9}$/.test(phone) ? phone : '';
}

/** What every sign-in ends with: the token kept for the `Authorization` header, then to where `afterLogin` says. */
export function signedIn(token: string): void {
  setAuthToken(token);
  // The guest's cart and lists were merged into the account.
  emit('cart:changed', {});
  navigate(afterLogin(location.search, location.origin));
}

export function LoginPage() {
  // What a social sign-in's callback left in the fragment, read once; then what its code came to.
  const [social, setSocial] = useState<SocialArrival | Redeemed | null>(() => readSocialFragment(location.hash));
  useEffect(() => {
    // Out of the address bar first (also a token or ticket, which is never taken).
    if (isSocialFragment(location.hash)) clearFragment();
    if (social?.kind !== 'code') return;
    void redeemSocialCode(social.code).then((r) => (r.kind === 'token' ? signedIn(r.token) : setSocial(r)));
    // Only on arrival: the fragment is read once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    const login = loginName(email);
    if (!login) found.email = 'Enter your email address or mobile number, like name@example.com or 01712345678.';
    if (!password) found.password = 'Enter your password.';
    setErrors(found);
    setError('');
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const r = await apiPost<LoginResponse>('/api/auth/login', { email: login, password, device_name: 'web_browser' });
      if (!r.token) throw new ApiError(200, r.messages || 'Signing in failed. Please try again.');
      signedIn(r.token);
    } catch (err) {
      if (err instanceof ApiError) {
        setErrors(fieldErrors(err.errors));
        setError(err.status === 401 || err.status === 422 || err.status === 400 ? err.message || 'The email or password is not right.' : err.message);
      } else setError('Signing in failed. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  if (social?.kind === 'code' || social?.kind === 'token') return <p role="status">Signing you in…</p>;
  if (social?.kind === 'link')
    return <SocialLinkForm ticket={social.ticket} provider={social.provider} onSignedIn={signedIn} onCancel={() => setSocial(null)} />;

  return (
    <form className={forms.form} onSubmit={(e) => void submit(e)} noValidate>
      {social?.kind === 'error' && !error && (
        <p className={forms.error} role="alert">
          {social.message}
        </p>
      )}
      {error && (
        <p className={forms.error} role="alert">
          {error}
        </p>
      )}
      <Field label="Email or mobile number" name="email" type="text" autoComplete="username" required value={email} error={errors.email} onChange={setEmail} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        error={errors.password}
        onChange={setPassword}
      />
      <button className="btn" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
      <SocialButtons />
      <p className={forms.links}>
        <a href="/user/forgot_password">Forgot your password?</a>
        <a href="/user/registration">Create an account</a>
      </p>
    </form>
  );
}
