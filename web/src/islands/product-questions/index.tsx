import { takeOver } from '../../lib/island';
import { ProductQuestions } from './ProductQuestions';
import type { ProductQuestionsProps } from './types';

/**
 * Takes over only the island's last line (`[data-talk-form]`, else its last
 * paragraph, the sign-in line), so the questions and comments the generator
 * wrote stay as they are.
 */
export default function mount(el: HTMLElement, props: ProductQuestionsProps) {
  const target = el.querySelector<HTMLElement>('[data-talk-form]') ?? el.querySelector<HTMLElement>(':scope > p:last-child') ?? el;
  const seoUrl = props.seo_url ?? decodeURIComponent(location.pathname.replace(/^\/product\//, '').replace(/\/$/, ''));
  return takeOver(target, () => <ProductQuestions productId={props.product_id} enableComment={!!props.enable_comment} seoUrl={seoUrl} />);
}
