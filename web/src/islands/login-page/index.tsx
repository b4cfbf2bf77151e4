import { takeOver } from '../../lib/island';
import { LoginPage } from './LoginPage';
import type { LoginPageProps } from './types';

/** Fills the /user/login shell. */
export default function mount(el: HTMLElement, _props: LoginPageProps) {
  return takeOver(el, () => <LoginPage />);
}
