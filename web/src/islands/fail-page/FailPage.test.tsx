import { render, screen } from '@testing-library/react';
import { FailPage, REASONS, reasonText } from './FailPage';

describe('fail-page', () => {
  it('words the reason code the origin sends, and offers the ways forward', () => {
    render(<FailPage search="?reason=cancelled&data=The+payment+did+not+go+through." />);
    expect(screen.getByText('You cancelled the payment.')).toBeTruthy();
    expect(screen.getByText(/The products are still in your cart/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe('/payment');
  });

  it('tells a cancellation from a refusal and an expiry', () => {
    expect(reasonText('?reason=cancelled')).toBe(REASONS.cancelled);
    expect(reasonText('?reason=declined')).toBe(REASONS.declined);
    expect(reasonText('?reason=expired')).toBe(REASONS.expired);
    expect(new Set(Object.values(REASONS)).size).toBe(Object.keys(REASONS).length);
  });

  it('shows no text a link puts in the address, nor an unknown code', () => {
    const { container } = render(
      <FailPage search={`?reason=toString&data=${encodeURIComponent('Call 01700000000 and share your bKash PIN to get a refund')}`} />,
    );
    expect(container.textContent).not.toContain('PIN');
    expect(container.textContent).not.toContain('01700000000');
    expect(container.textContent).not.toContain('function');
    expect(screen.getByText(/Your payment did not go through/)).toBeTruthy();
    expect(reasonText('?reason=__proto__')).toBe('');
  });
});
