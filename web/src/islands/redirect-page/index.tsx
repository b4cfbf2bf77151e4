import { takeOver } from '../../lib/island';
import { RedirectPage } from './RedirectPage';
import type { RedirectPageProps } from './types';

/** Fills the /redirect-from-ssl and /nagad-thank-you shells. */
export default function mount(el: HTMLElement, _props: RedirectPageProps) {
  return takeOver(el, () => <RedirectPage />);
}
