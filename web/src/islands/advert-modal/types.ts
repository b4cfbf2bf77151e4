import type { components } from '../../generated/islands';

/** Props of advert-modal: widget 5 (the pre-load advert), written only when it is active. */
export type AdvertModalProps = components['schemas']['AdvertModalProps'];
