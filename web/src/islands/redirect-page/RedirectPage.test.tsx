import { render } from '@testing-library/react';
import { navigate } from '../../lib/navigate';
import { nextPage, RedirectPage } from './RedirectPage';

vi.mock('../../lib/navigate', () => ({ navigate: vi.fn() }));

describe('redirect-page', () => {
  it('forwards a paid order to the thank-you page, anything else to /fail', () => {
    expect(nextPage('?order_random=R1&order_key=k&from=ssl')).toBe('/thank-you?order_random=R1&order_key=k');
    expect(nextPage('?data=Cancelled')).toBe('/fail?data=Cancelled');
    expect(nextPage('')).toBe('/fail');
    render(<RedirectPage search="?order_random=R1&order_key=k" />);
    expect(navigate).toHaveBeenCalledWith('/thank-you?order_random=R1&order_key=k');
  });
});
