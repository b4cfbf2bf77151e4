import { takeOver } from '../../lib/island';
import { OnlineStatus } from './OnlineStatus';
import type { OnlineStatusProps } from './types';

/** Mounts the online/offline indicator (`<div data-island="online-status" data-when="idle"></div>`). */
export default function mount(el: HTMLElement, props: OnlineStatusProps) {
  return takeOver(el, () => <OnlineStatus {...props} />);
}
