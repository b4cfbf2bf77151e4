import { takeOver } from '../../lib/island';
import { LoadingBar } from './LoadingBar';
import type { LoadingBarProps } from './types';

/** Mounts the loading bar (`<div data-island="loading-bar" data-when="load"></div>`). */
export default function mount(el: HTMLElement, props: LoadingBarProps) {
  return takeOver(el, () => <LoadingBar {...props} />);
}
