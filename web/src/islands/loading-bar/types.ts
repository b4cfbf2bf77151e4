import type { components } from '../../generated/islands';

/** Props of loading-bar (SPEC.md §9 defaults). */
export type LoadingBarProps = components['schemas']['LoadingBarProps'];
