import type { components } from '../../generated/islands';

/** Props of the search-box island (all optional: the generator writes none today). */
export type SearchBoxProps = components['schemas']['SearchBoxProps'];

export type { SearchResponse } from '../../lib/types';
