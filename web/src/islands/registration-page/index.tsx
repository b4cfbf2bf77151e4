import { takeOver } from '../../lib/island';
import { RegistrationPage } from './RegistrationPage';
import type { RegistrationPageProps } from './types';

/** Fills the /user/registration shell. */
export default function mount(el: HTMLElement, _props: RegistrationPageProps) {
  return takeOver(el, () => <RegistrationPage />);
}
