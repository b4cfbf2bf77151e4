import { render, screen } from '@testing-library/react';
import { FailPage } from './FailPage';

describe('fail-page', () => {
  it("shows the gateway's reason and the ways forward", () => {
    render(<FailPage search="?data=Insufficient%20balance" />);
    expect(screen.getByText('The payment service said: Insufficient balance')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe('/payment');
  });
});
