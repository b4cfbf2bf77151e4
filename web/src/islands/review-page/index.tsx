import { takeOver } from '../../lib/island';
import { ReviewPage } from './ReviewPage';
import type { ReviewPageProps } from './types';

/** Fills the /review, /review_workable_copy and /product/review/{id} shells. */
export default function mount(el: HTMLElement, _props: ReviewPageProps) {
  return takeOver(el, () => <ReviewPage />);
}
