// The gateways' return pages (/redirect-from-ssl, /nagad-thank-you): they
// arrive with `order_random` and `order_key` and forward to the thank-you
// page (as the original's redirect-from-ssl did); without them, to /fail.
import { useEffect } from 'react';
import { navigate } from '../../lib/navigate';

/** Where a gateway's return goes next. */
export function nextPage(search: string): string {
  const q = new URLSearchParams(search);
  const id = q.get('order_random');
  const key = q.get('order_key');
  return id && key
    ? `/thank-you?order_random=${encodeURIComponent(id)}&order_key=${encodeURIComponent(key)}`
    : `/fail${q.get('data') ? `?data=${encodeURIComponent(q.get('data')!)}` : ''}`;
}

export function RedirectPage({ search = location.search }: { search?: string }) {
  const to = nextPage(search);
  useEffect(() => navigate(to), [to]);
  return (
    <p role="status">
      Checking your payment… If nothing happens, <a href={to}>continue here</a>.
    </p>
  );
}
