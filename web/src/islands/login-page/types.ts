import type { components } from '../../generated/islands';
import type { ApiSchemas } from '../../lib/types';

/** Props of login-page: none (a `?redirect=/path` query names where to go after). */
export type LoginPageProps = components['schemas']['LoginPageProps'];

/** `POST /api/auth/login`. */
export type { SignedInResponse as LoginResponse } from '../../lib/types';

/** `GET /api/auth/social`: the social sign-in providers the shop offers. */
export type ProvidersResponse = ApiSchemas['ProvidersResponse'];
/** `POST /api/auth/social/link`: the ticket of a `#social_link` callback and the account's password. */
export type LinkBody = ApiSchemas['LinkBody'];
