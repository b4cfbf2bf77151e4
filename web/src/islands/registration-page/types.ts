import type { components } from '../../generated/islands';

/** Props of registration-page: none. */
export type RegistrationPageProps = components['schemas']['RegistrationPageProps'];

/** `POST /api/auth/register`: the original answered `{type, messages, token}`. */
export interface RegisterResponse {
  token?: string | null;
  type?: string;
  messages?: string | Record<string, string[]>;
}
