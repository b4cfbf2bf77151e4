import type { components } from '../../generated/islands';

/** Props of order-page: none; the query carries `order_random` and `order_key`. */
export type OrderPageProps = components['schemas']['OrderPageProps'];
