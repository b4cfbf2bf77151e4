import type { components } from '../../generated/islands';

/** Props of contact-form: none. */
export type ContactFormProps = components['schemas']['ContactFormProps'];

export type { MessageResponse } from '../../lib/types';
