import { takeOver } from '../../lib/island';
import { ThankYouPage } from './ThankYouPage';
import type { ThankYouPageProps } from './types';

/** Fills the /thank-you shell. */
export default function mount(el: HTMLElement, _props: ThankYouPageProps) {
  return takeOver(el, () => <ThankYouPage />);
}
