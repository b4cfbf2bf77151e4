import type { components } from '../../generated/islands';

/** Props of fail-page: none; the query may carry `data` (the gateway's message). */
export type FailPageProps = components['schemas']['FailPageProps'];
