import type { components } from '../../generated/islands';

/** Props of thank-you-page: none; the query carries `order_random` and `order_key`. */
export type ThankYouPageProps = components['schemas']['ThankYouPageProps'];

export type { OrderDetailsResponse } from '../../lib/types';
