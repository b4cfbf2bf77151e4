import { takeOver } from '../../lib/island';
import { FailPage } from './FailPage';
import type { FailPageProps } from './types';

/** Fills the /fail shell. */
export default function mount(el: HTMLElement, _props: FailPageProps) {
  return takeOver(el, () => <FailPage />);
}
