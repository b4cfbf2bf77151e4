import { render, screen } from '@testing-library/react';
import { FailPage, KNOWN_REASONS } from './FailPage';

describe('fail-page', () => {
  it("shows the shop's own reason and the ways forward", () => {
    render(<FailPage search={`?data=${encodeURIComponent('bKash did not accept this payment. Please choose another way to pay.')}`} />);
    expect(screen.getByText('bKash did not accept this payment. Please choose another way to pay.')).toBeTruthy();
    expect(screen.getByText(/The products are still in your cart/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe('/payment');
  });

  it('leaves out any other text a link puts in the address', () => {
    const { container } = render(<FailPage search={`?data=${encodeURIComponent('Call 01700000000 and share your bKash PIN to get a refund')}`} />);
    expect(container.textContent).not.toContain('PIN');
    expect(container.textContent).not.toContain('01700000000');
    expect(screen.getByText(/Your payment did not go through/)).toBeTruthy();
  });

  it('knows the reasons for every gateway', () => {
    expect(KNOWN_REASONS.has('Nagad could not be reached. Please try again in a while or choose another way to pay.')).toBe(true);
    expect(KNOWN_REASONS.has('The card payment service could not confirm the payment yet. It is checked again when the gateway notifies us.')).toBe(true);
  });
});
