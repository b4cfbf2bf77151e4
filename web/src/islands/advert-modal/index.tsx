import { takeOver } from '../../lib/island';
import { AdvertModal } from './AdvertModal';
import type { AdvertModalProps } from './types';

/** Opens the pre-load advert (the island element itself stays empty; the modal is portalled to the body). */
export default function mount(el: HTMLElement, props: AdvertModalProps) {
  return takeOver(el, () => <AdvertModal {...props} />);
}
