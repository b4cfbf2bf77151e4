import { takeOver } from '../../lib/island';
import { Drawer } from './Drawer';
import type { DrawerProps } from './types';

/** Takes over the header's menu link; the drawer itself is the generator's `nav#menu`. */
export default function mount(el: HTMLElement, props: DrawerProps) {
  const navId = props.nav_id ?? 'menu';
  return takeOver(el, () => <Drawer navId={navId} startOpen={location.hash === `#${navId}`} />);
}
