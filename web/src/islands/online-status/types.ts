import type { components } from '../../generated/islands';

/** Props of the online-status island: none; `back_ms` only shortens the "back online" note in tests. */
export type OnlineStatusProps = components['schemas']['OnlineStatusProps'];
