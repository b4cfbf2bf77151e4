import type { components } from '../../generated/islands';

/** Props of track-order-page: none (`?id=&phone=` fill the form). */
export type TrackOrderPageProps = components['schemas']['TrackOrderPageProps'];

export type { TrackOrderResponse } from '../../lib/types';
