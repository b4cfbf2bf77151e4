import { takeOver } from '../../lib/island';
import { HeaderCounts } from './HeaderCounts';
import type { HeaderCountsProps } from './types';

/** Takes over the header's icon links (`.icons`), keeping their markup and classes. */
export default function mount(el: HTMLElement, props: HeaderCountsProps) {
  return takeOver(el, () => <HeaderCounts {...props} />);
}
