import type { components } from '../../generated/islands';
import type { ApiSchemas } from '../../lib/types';

/** Props of login-page: none (a `?redirect=/path` query names where to go after). */
export type LoginPageProps = components['schemas']['LoginPageProps'];

/** `POST /api/auth/login`. */
export type { SignedInResponse as LoginResponse } from '../../lib/types';

/** `GET /api/auth/social`: the social sign-in providers the shop offers. */
export type ProvidersResponse = ApiSchemas['ProvidersResponse'];
/** `POST /api/auth/social/redeem`: the code of a `#social_code` callback. */
export type RedeemBody = ApiSchemas['RedeemBody'];
/** Its answer: signed in (as `POST /api/auth/login` answers), or `{link: {ticket, provider}}`. */
export type RedeemResponse = ApiSchemas['RedeemResponse'];
/** `POST /api/auth/social/link`: the ticket a redeemed code gave and the account's password. */
export type LinkBody = ApiSchemas['LinkBody'];
