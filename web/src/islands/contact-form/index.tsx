import { takeOver } from '../../lib/island';
import { ContactForm } from './ContactForm';
import type { ContactFormProps } from './types';

/** Takes over the contact page's plain form (a POST the API answers with a 303 back). */
export default function mount(el: HTMLElement, _props: ContactFormProps) {
  const fallback = el.querySelector('form');
  const phone = el.querySelector<HTMLAnchorElement>('#not-sent a[href^="tel:"]');
  const email = el.querySelector<HTMLAnchorElement>('#not-sent a[href^="mailto:"]');
  return takeOver(el, (adopted) => (
    <ContactForm
      initial={adopted.values}
      sent={fallback !== null && new URLSearchParams(location.search).get('sent') === '1'}
      phone={phone ? { href: phone.getAttribute('href') ?? '', text: phone.textContent ?? '' } : undefined}
      email={email ? { href: email.getAttribute('href') ?? '', text: email.textContent ?? '' } : undefined}
    />
  ));
}
