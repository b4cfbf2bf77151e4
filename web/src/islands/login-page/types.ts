import type { components } from '../../generated/islands';

/** Props of login-page: none (a `?redirect=/path` query names where to go after). */
export type LoginPageProps = components['schemas']['LoginPageProps'];

/** `POST /api/auth/login`: a token and the user (SPEC.md §7); the original also sent `messages`. */
export interface LoginResponse {
  token?: string | null;
  user?: { name?: string; email?: string };
  messages?: string;
  success?: boolean;
}
