import { takeOver } from '../../lib/island';
import { ForgotPasswordPage } from './ForgotPasswordPage';
import type { ForgotPasswordPageProps } from './types';

/** Fills the /user/forgot_password shell. */
export default function mount(el: HTMLElement, _props: ForgotPasswordPageProps) {
  return takeOver(el, () => <ForgotPasswordPage />);
}
