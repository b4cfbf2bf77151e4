import { takeOver } from '../../lib/island';
import { ComparePage } from './ComparePage';
import type { ComparePageProps } from './types';

/** Fills the /compare shell. */
export default function mount(el: HTMLElement, _props: ComparePageProps) {
  return takeOver(el, () => <ComparePage />);
}
