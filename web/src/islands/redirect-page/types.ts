import type { components } from '../../generated/islands';

/** Props of redirect-page (/redirect-from-ssl and /nagad-thank-you): none; the query carries the order. */
export type RedirectPageProps = components['schemas']['RedirectPageProps'];
