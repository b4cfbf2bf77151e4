import { takeOver } from '../../lib/island';
import { ResetPasswordPage } from './ResetPasswordPage';
import type { ResetPasswordPageProps } from './types';

/** Fills the /user/reset_password shell. */
export default function mount(el: HTMLElement, _props: ResetPasswordPageProps) {
  return takeOver(el, () => <ResetPasswordPage />);
}
