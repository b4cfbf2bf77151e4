import type { components } from '../../generated/islands';

/** Props of login-page: none (a `?redirect=/path` query names where to go after). */
export type LoginPageProps = components['schemas']['LoginPageProps'];

/** `POST /api/auth/login`. */
export type { SignedInResponse as LoginResponse } from '../../lib/types';
