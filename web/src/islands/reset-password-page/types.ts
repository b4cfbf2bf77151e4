import type { components } from '../../generated/islands';

/** Props of reset-password-page: none; the link's query carries `token` and `email`. */
export type ResetPasswordPageProps = components['schemas']['ResetPasswordPageProps'];

export type { MessageResponse } from '../../lib/types';
