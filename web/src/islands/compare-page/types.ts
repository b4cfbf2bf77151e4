import type { components } from '../../generated/islands';

/** Props of compare-page: none. */
export type ComparePageProps = components['schemas']['ComparePageProps'];

/** `GET /api/common/compare`. */
export type { ListedAttribute as CompareAttr, ProductListResponse as CompareResponse } from '../../lib/types';
