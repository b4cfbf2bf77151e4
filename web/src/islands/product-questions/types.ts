import type { components } from '../../generated/islands';

/** Props of product-questions (as the generator writes them). */
export type ProductQuestionsProps = components['schemas']['ProductQuestionsProps'];
