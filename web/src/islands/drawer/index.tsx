import { takeOver } from '../../lib/island';
import { AccountDrawer } from './AccountDrawer';
import { Drawer } from './Drawer';
import type { DrawerProps } from './types';

/**
 * The left drawer takes over the header's menu link (the drawer itself is the
 * generator's `nav#menu`); the account drawer (`account: true`) takes over
 * the links inside the generator's `nav#account`.
 */
export default function mount(el: HTMLElement, props: DrawerProps) {
  const navId = props.nav_id ?? (props.account ? 'account' : 'menu');
  const startOpen = location.hash === `#${navId}`;
  if (props.account) return takeOver(el, () => <AccountDrawer navId={navId} startOpen={startOpen} />);
  return takeOver(el, () => <Drawer navId={navId} startOpen={startOpen} />);
}
