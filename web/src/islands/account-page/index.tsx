import { takeOver } from '../../lib/island';
import { AccountPage } from './AccountPage';
import type { AccountPageProps } from './types';

/** Fills the /user/<view> shells. */
export default function mount(el: HTMLElement, _props: AccountPageProps) {
  return takeOver(el, () => <AccountPage />);
}
