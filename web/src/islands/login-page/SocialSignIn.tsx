// Social sign-in on /user/login (SPEC.md §6): a "Continue with ..." link for
// each provider `GET /api/auth/social` lists (plain links to the origin's
// redirect, which sends the browser to the provider), and what the origin's
// callback brings back in the fragment of /user/login:
// - `#social_code=<code>`: a one-time code that `POST /api/auth/social/redeem`
//   turns into what the sign-in came to, only in the browser that came back
//   from the provider (the origin set an HttpOnly cookie beside the code,
//   which the call carries): signed in (a token, kept as a password sign-in's
//   is), or, when the provider vouches for the e-mail of an account not
//   linked to it yet, a ticket with which that account's password links it
//   (`POST /api/auth/social/link`) and signs in;
// - `#social_error=<reason>`: the sign-in did not happen, and why.
// A token or ticket in the address (`#social_token=`, `#social_link=`, as the
// origin once sent) is never taken: a link could carry someone else's and sign
// the shopper into their account (login CSRF). The fragment is read once and
// cleared from the address bar before the code is redeemed, so a reload
// neither reuses a code nor shows an old message.
import { useEffect, useState, type FormEvent } from 'react';
import { Field, fieldErrors } from '../../components/Field';
import forms from '../../components/forms.module.css';
import { ApiError, apiGet, apiPost, apiUrl } from '../../lib/api';
import type { LinkBody, LoginResponse, ProvidersResponse, RedeemBody, RedeemResponse } from './types';

/** The providers the web client knows, in the order their buttons show. */
export const PROVIDERS = { google: 'Google', facebook: 'Facebook' } as const;
export type ProviderName = keyof typeof PROVIDERS;

const isProvider = (name: string): name is ProviderName => Object.hasOwn(PROVIDERS, name);

/** What the social callback left in the fragment of /user/login: a code to redeem, or why the sign-in did not happen. */
export type SocialArrival = { kind: 'code'; code: string } | { kind: 'error'; message: string };

/** What redeeming the callback's code came to: signed in, a link waiting for the account's password, or why not. */
export type Redeemed = { kind: 'token'; token: string } | { kind: 'link'; ticket: string; provider: ProviderName } | { kind: 'error'; message: string };

/** The message shown when the origin's reason is not one it is known to send. */
export const GENERIC_SOCIAL_ERROR = 'Signing in with Google or Facebook did not work. Please try again, or sign in with your password.';

/**
 * The reasons the origin's callback gives (origin/src/surfaces/api/social.rs and
 * domain/social.rs), with `{p}` for the provider's name. Only these are shown as
 * they are: the fragment is in the address a link may carry, so any other text
 * (someone else's words on the shop's page) gives way to a generic message.
 */
const REASONS = [
  'Signing in with {p} was cancelled.',
  'That sign-in with {p} expired or was started elsewhere. Please try again.',
  '{p} did not confirm your sign-in. Please try again.',
  '{p} did not share an e-mail address with us. Please register with your e-mail or mobile number.',
  '{p} could not confirm that this e-mail address is yours, so we cannot open an account with it. Please register with your e-mail or mobile number; once you have, signing in with {p} links it with your password.',
  'This account is linked to another {p} account.',
  'This account is closed.',
];

/** The message to show for a `social_error` reason: the origin's own words when it is one of its reasons, else a generic one. */
export function socialErrorText(reason: string): string {
  const known = REASONS.some((r) => Object.values(PROVIDERS).some((p) => r.replaceAll('{p}', p) === reason));
  return known ? reason : GENERIC_SOCIAL_ERROR;
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Reads `#social_code=` or `#social_error=` from a location hash; null for any other hash (a token or ticket there is not taken). */
export function readSocialFragment(hash: string): SocialArrival | null {
  const fields = new Map<string, string>();
  for (const part of hash.replace(/^#/, '').split('&')) {
    const at = part.indexOf('=');
    if (at < 1) continue;
    const value = decode(part.slice(at + 1));
    if (value !== null) fields.set(part.slice(0, at), value);
  }
  const code = fields.get('social_code');
  const error = fields.get('social_error');
  // The origin's codes are 64 hexadecimal digits.
  if (code !== undefined) return /^[0-9a-f]{64}$/.test(code) ? { kind: 'code', code } : { kind: 'error', message: GENERIC_SOCIAL_ERROR };
  if (error !== undefined) return { kind: 'error', message: socialErrorText(error) };
  return null;
}

/** Whether a location hash is one the social callback wrote (or once wrote): cleared from the address bar on arrival. */
export const isSocialFragment = (hash: string): boolean => /^#social_/.test(hash);

/**
 * Redeems the callback's code (`POST /api/auth/social/redeem`; the HttpOnly cookie the origin set
 * beside the code goes along, as this origin's cookies do). Never throws: a refusal answers the
 * origin's reason (a used, expired or other browser's code; a closed account), a lost connection says so.
 */
export async function redeemSocialCode(code: string): Promise<Redeemed> {
  try {
    const body: RedeemBody = { code };
    const r = await apiPost<RedeemResponse>('/api/auth/social/redeem', body);
    if ('link' in r) {
      const { ticket, provider } = r.link;
      return ticket && isProvider(provider) ? { kind: 'link', ticket, provider } : { kind: 'error', message: GENERIC_SOCIAL_ERROR };
    }
    return r.token ? { kind: 'token', token: r.token } : { kind: 'error', message: GENERIC_SOCIAL_ERROR };
  } catch (err) {
    return { kind: 'error', message: err instanceof ApiError && err.message ? err.message : GENERIC_SOCIAL_ERROR };
  }
}

/** Removes the fragment from the address bar (keeping the path and `?redirect=`), without a navigation. */
export function clearFragment(): void {
  history.replaceState(history.state, '', location.pathname + location.search);
}

/** "Continue with Google" / "Continue with Facebook": links to the origin's redirect, for the providers it offers. */
export function SocialButtons() {
  const [providers, setProviders] = useState<ProviderName[]>([]);
  useEffect(() => {
    let live = true;
    apiGet<ProvidersResponse>('/api/auth/social', undefined, { quiet: true })
      .then((r) => {
        if (live) setProviders((Object.keys(PROVIDERS) as ProviderName[]).filter((p) => r.providers.includes(p)));
      })
      // Without the list, the password form is still there.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!providers.length) return null;
  return (
    <p className={forms.row}>
      {providers.map((p) => (
        <a key={p} className="btn" href={apiUrl(`/api/auth/social/${p}/redirect`)}>
          Continue with {PROVIDERS[p]}
        </a>
      ))}
    </p>
  );
}

export interface SocialLinkFormProps {
  ticket: string;
  provider: ProviderName;
  /** Called with the token once the account is linked and signed in. */
  onSignedIn: (token: string) => void;
  /** Back to the ordinary sign-in form. */
  onCancel: () => void;
}

/** The account's password, to link the provider to the account with the same e-mail and sign in. */
export function SocialLinkForm({ ticket, provider, onSignedIn, onCancel }: SocialLinkFormProps) {
  const label = PROVIDERS[provider];
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    if (!password) {
      setErrors({ password: 'Enter your password.' });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const body: LinkBody = { ticket, password };
      const r = await apiPost<LoginResponse>('/api/auth/social/link', body);
      if (!r.token) throw new ApiError(200, r.messages || 'Signing in failed. Please try again.');
      onSignedIn(r.token);
    } catch (err) {
      if (err instanceof ApiError) {
        const found = fieldErrors(err.errors);
        // The password's own message shows by its field; anything else (the ticket, a 409, a 429 with its wait) above the form.
        setErrors(found.password ? { password: found.password } : {});
        if (!found.password || err.status === 429) setError(found.ticket || err.message);
      } else setError('Signing in failed. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className={forms.form} onSubmit={(e) => void submit(e)} noValidate>
      <p>An account with this e-mail already exists. Enter its password to link {label} and sign in.</p>
      {error && (
        <p className={forms.error} role="alert">
          {error}
        </p>
      )}
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
        {busy ? 'Signing in…' : `Link ${label} and sign in`}
      </button>
      <p className={forms.links}>
        <a href="/user/forgot_password">Forgot your password?</a>
        <a
          href="/user/login"
          onClick={(e) => {
            e.preventDefault();
            onCancel();
          }}
        >
          Sign in another way
        </a>
      </p>
    </form>
  );
}
