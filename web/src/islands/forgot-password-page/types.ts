import type { components } from '../../generated/islands';

/** Props of forgot-password-page: none. */
export type ForgotPasswordPageProps = components['schemas']['ForgotPasswordPageProps'];

export type { MessageResponse } from '../../lib/types';
