import type { components } from '../../generated/islands';

/** Props of registration-page: none. */
export type RegistrationPageProps = components['schemas']['RegistrationPageProps'];

/** `POST /api/auth/register`. */
export type { SignedInResponse as RegisterResponse } from '../../lib/types';
