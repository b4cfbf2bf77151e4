import type { components } from '../../generated/islands';

/** Props of flash-countdown (times in Unix seconds, as the generator writes them). */
export type FlashCountdownProps = components['schemas']['FlashCountdownProps'];
