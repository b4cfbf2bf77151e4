import { takeOver } from '../../lib/island';
import { SearchBox } from './SearchBox';
import type { SearchBoxProps } from './types';

/** Takes over the header's search form, keeping what was typed and the focus. */
export default function mount(el: HTMLElement, props: SearchBoxProps) {
  return takeOver(el, (adopted) => (
    <SearchBox initial={adopted.values.keyword ?? props.keyword ?? ''} focused={adopted.focus?.key === 'keyword'} debounceMs={props.debounce_ms} />
  ));
}
