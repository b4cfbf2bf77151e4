import { takeOver } from '../../lib/island';
import { SearchBox, searchedFor } from './SearchBox';
import type { SearchBoxProps } from './types';

/**
 * Takes over the header's search form, keeping what was typed and the focus; on a results page
 * the box holds the words searched for.
 */
export default function mount(el: HTMLElement, props: SearchBoxProps) {
  const shown = searchedFor();
  return takeOver(el, (adopted) => (
    <SearchBox
      initial={adopted.values.keyword || props.keyword || shown}
      shown={shown}
      focused={adopted.focus?.key === 'keyword'}
      debounceMs={props.debounce_ms}
    />
  ));
}
