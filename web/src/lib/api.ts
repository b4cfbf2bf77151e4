// The one fetch wrapper every island uses (STYLE.md, front end). It sends the
// visitor's identity on every call (the SELF-TOKEN header from the
// `self_token` cookie, and `Authorization: Bearer` after login), turns the
// API's error body `{"success": false, "message", "errors"}` into a typed
// ApiError, remembers the server's clock from the `Date` header, and fires
// the loading-bar events (`loading:start` / `finish` / `fail`).

import { emit } from './events';
import { navigate } from './navigate';

/** The cookie that holds the guest's identity (ORIGINAL-API.md §0.1). */
export const SELF_TOKEN_COOKIE = 'self_token';
/** Where the Bearer token is kept after login. */
export const AUTH_TOKEN_KEY = 'auth_token';

/**
 * A failed call: the HTTP status (0 when the network failed), the message to show, field errors,
 * and for a 429 the seconds to wait (`Retry-After`), also said in the message.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: Record<string, string[]>;
  readonly retryAfter: number | null;
  constructor(status: number, message: string, errors: Record<string, string[]> = {}, retryAfter: number | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.retryAfter = retryAfter;
  }
}

/** A wait in words, as the origin says it: "30 seconds", "4 minutes", "2 hours". */
export function waitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  const [n, unit] = s < 60 ? [s, 'second'] : s < 3600 ? [Math.ceil(s / 60), 'minute'] : [Math.ceil(s / 3600), 'hour'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** `Retry-After` in seconds (a number or an HTTP date), or null. */
export function retryAfterSeconds(res: Response): number | null {
  const value = res.headers.get('Retry-After');
  if (!value) return null;
  const n = Number(value);
  if (Number.isFinite(n) && n >= 0) return n;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

export type Params = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** Query parameters; `null` and `undefined` are left out. */
  params?: Params;
  /** A JSON body (POST). */
  body?: unknown;
  signal?: AbortSignal;
  /** Background calls (suggestions, counts) do not move the loading bar. */
  quiet?: boolean;
  /**
   * Sent as `Idempotency-Key`: tells the edge that this POST may be replayed on
   * another origin when the first one dies mid-request. Give it only to calls
   * that are safe to repeat: the order placement (the origin keeps one order per
   * key) and calls that only overwrite the cart's fields ([`replayKey`]).
   */
  idempotencyKey?: string;
}

/** A fresh key for a POST that only overwrites state, so a replay changes nothing. */
export const replayKey = (): string => `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** Reads a cookie by name. */
export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

/** What the origin takes as a self token: the time and at least 22 random characters (`valid_self_token`). */
export const SELF_TOKEN_SHAPE = /^[A-Za-z0-9._-]{35,100}$/;

/** A new self token: the time (`Date.now()`) and 16 bytes of `crypto.getRandomValues` in base64url (22 characters, 128 bits). */
export function newSelfToken(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const random = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return String(Date.now()) + random;
}

function storeSelfToken(token: string): void {
  const secure = location.protocol === 'https:' ? ';secure' : '';
  document.cookie = `${SELF_TOKEN_COOKIE}=${encodeURIComponent(token)};path=/;max-age=31536000;samesite=lax${secure}`;
}

/**
 * A token an older client made (the time and `Math.random()`, 8 to 34 characters): the origin takes
 * it only while the guest cart made under it lives, and answers a 400 naming SELF-TOKEN after, when
 * `api` makes a new one. Kept until then, so that cart is not lost.
 */
const OLD_SELF_TOKEN_SHAPE = /^[A-Za-z0-9._-]{8,34}$/;

/**
 * The guest's self token: the `self_token` cookie, made from the time and a cryptographically random
 * string when absent (SPEC's shape) and kept for a year; an older client's cookie is kept while the
 * origin takes it.
 */
export function selfToken(): string {
  let token = readCookie(SELF_TOKEN_COOKIE);
  if (!token || !(SELF_TOKEN_SHAPE.test(token) || OLD_SELF_TOKEN_SHAPE.test(token))) {
    token = newSelfToken();
    storeSelfToken(token);
  }
  return token;
}

/** Drops the self token and makes a new one (after the origin refused the old one). */
export function renewSelfToken(): string {
  const token = newSelfToken();
  storeSelfToken(token);
  return token;
}

/** The signed-in shopper's Bearer token, if any. */
export function authToken(): string | null {
  try {
    return localStorage.getItem(AUTH_TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Stores (or, with `null`, forgets) the Bearer token after login or logout. */
export function setAuthToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(AUTH_TOKEN_KEY, token);
    else localStorage.removeItem(AUTH_TOKEN_KEY);
  } catch {
    // Private mode without storage: the shopper stays a guest.
  }
}

let clockOffset: number | null = null;

/** Server time minus this device's time in ms, from the last response's `Date` (and `Age`); null before any. */
export function serverClockOffset(): number | null {
  return clockOffset;
}

/** Records the server clock from a response's `Date` header (plus `Age` when a cache served it). */
export function noteServerDate(res: Response): number | null {
  const date = Date.parse(res.headers.get('Date') ?? '');
  if (Number.isNaN(date)) return null;
  const age = Number(res.headers.get('Age') ?? 0) || 0;
  clockOffset = date + age * 1000 - Date.now();
  return clockOffset;
}

const FALLBACK_MESSAGES: Record<number, string> = {
  0: 'No connection. Check your internet and try again.',
  401: 'Please sign in first.',
  403: 'You are not allowed to do that.',
  404: 'Not found.',
  429: 'Too many requests. Please wait a moment and try again.',
};

function messageFor(status: number): string {
  return FALLBACK_MESSAGES[status] ?? (status >= 500 ? 'Something went wrong on our side. Please try again.' : 'The request could not be completed.');
}

/** What to tell the shopper about a failed action: the API's message, or a plain retry hint. */
export const errorText = (e: unknown): string => (e instanceof ApiError ? e.message : 'Something went wrong. Please try again.');

/** Builds `path?query` on this origin, leaving out empty parameters. */
export function apiUrl(path: string, params?: Params): string {
  const url = path.startsWith('/') ? path : `/${path}`;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v !== null && v !== undefined) q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `${url}?${s}` : url;
}

/**
 * Calls the API on this origin and answers the parsed JSON. Throws ApiError
 * for an error status, for a 2xx body with `success: false` (the original API
 * answered errors that way), and for a network failure; an abort is rethrown as is.
 * A 400 that names SELF-TOKEN gets a new self token and the call once more.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await callApi<T>(path, options);
  } catch (err) {
    // The origin refused the self token (made by an older client): make a new one and ask once more.
    if (err instanceof ApiError && err.status === 400 && err.errors['SELF-TOKEN']) {
      renewSelfToken();
      return callApi<T>(path, options);
    }
    throw err;
  }
}

async function callApi<T>(path: string, options: RequestOptions): Promise<T> {
  const url = apiUrl(path, options.params);
  const headers: Record<string, string> = { Accept: 'application/json', 'SELF-TOKEN': selfToken() };
  const bearer = authToken();
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const loud = !options.quiet;
  if (loud) emit('loading:start', { url });
  let res: Response;
  try {
    res = await fetch(url, {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (err) {
    if (loud) emit('loading:finish', { url });
    if ((err as Error)?.name === 'AbortError') throw err;
    if (loud) emit('loading:fail', { url, status: 0 });
    throw new ApiError(0, messageFor(0));
  }
  noteServerDate(res);
  let data: unknown;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  const obj = (data && typeof data === 'object' ? data : {}) as { success?: unknown; message?: unknown; errors?: unknown };
  if (!res.ok || obj.success === false) {
    if (loud) {
      emit('loading:finish', { url });
      emit('loading:fail', { url, status: res.status });
    }
    if (res.status === 401 && bearer) setAuthToken(null);
    let message = typeof obj.message === 'string' && obj.message ? obj.message : messageFor(res.status);
    const errors = obj.errors && typeof obj.errors === 'object' ? (obj.errors as Record<string, string[]>) : {};
    const retryAfter = res.status === 429 ? retryAfterSeconds(res) : null;
    // The shopper is told how long to wait, whoever refused (the origin says it; the edge may not).
    if (retryAfter !== null && !/try again in/i.test(message)) message = `${message.replace(/\s*$/, '')} Please try again in ${waitText(retryAfter)}.`;
    throw new ApiError(res.status, message, errors, retryAfter);
  }
  if (loud) emit('loading:finish', { url });
  return data as T;
}

/** `GET path?params`. */
export function apiGet<T>(path: string, params?: Params, options: Omit<RequestOptions, 'params' | 'method'> = {}): Promise<T> {
  return api<T>(path, { ...options, params, method: 'GET' });
}

/** `POST path` with a JSON body. */
export function apiPost<T>(path: string, body: unknown, options: Omit<RequestOptions, 'body' | 'method'> = {}): Promise<T> {
  return api<T>(path, { ...options, body, method: 'POST' });
}

/** Signs the shopper out (on the server when it can be reached), forgets the token, and goes home. */
export async function signOut(): Promise<void> {
  try {
    await apiPost('/api/auth/logout', {});
  } catch {
    // Signing out must work even when the server cannot be reached.
  }
  setAuthToken(null);
  emit('cart:changed', {});
  navigate('/');
}
