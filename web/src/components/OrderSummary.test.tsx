import { render, screen } from '@testing-library/react';
import { OrderSummary, amountDue } from './OrderSummary';

const head = {
  total_amount: 182000,
  coupon_code: 'EID10',
  coupon_discount: 2000,
  delivery_fee: 1500,
  grand_total: 181500,
  amount_paid: 0,
};
const lines = [{ name: 'Oslo Bed', seo_url: 'oslo-bed', product_code: 'B-4', qty: 2, local_purchase_price: 91000, total_purchase_price: 182000 }] as Parameters<
  typeof OrderSummary
>[0]['lines'];

const totals = () =>
  Object.fromEntries([...document.querySelectorAll('dl dt')].map((dt) => [dt.textContent, (dt.nextElementSibling as HTMLElement).textContent]));

describe('OrderSummary', () => {
  it("shows each line's price and quantity, and the order's money", () => {
    render(<OrderSummary head={head} lines={lines} />);
    const row = screen.getByRole('link', { name: 'Oslo Bed' }).closest('tr')!;
    expect([...row.querySelectorAll('td')].slice(1).map((td) => td.textContent)).toEqual(['৳91,000', '2', '৳1,82,000']);
    expect(totals()).toEqual({
      Subtotal: '৳1,82,000',
      'Coupon EID10': '−৳2,000',
      Delivery: '৳1,500',
      Total: '৳1,81,500',
      Paid: '৳0',
      'Due on delivery': '৳1,81,500',
    });
  });

  it('shows what a part payment left to pay, and nothing due once paid', () => {
    const { unmount } = render(<OrderSummary head={{ ...head, amount_paid: 50000 }} lines={lines} />);
    expect(totals()).toMatchObject({ Paid: '৳50,000', 'Due on delivery': '৳1,31,500' });
    unmount();
    render(<OrderSummary head={{ ...head, coupon_discount: 0, amount_paid: 181500 }} lines={lines} />);
    expect(totals()).toMatchObject({ Paid: '৳1,81,500', Due: '৳0' });
    expect(totals()['Coupon EID10']).toBeUndefined();
  });

  it('shows what was refunded, only when something was', () => {
    const { unmount } = render(<OrderSummary head={{ ...head, amount_paid: 181500, amount_refunded: 0 }} lines={lines} />);
    expect(totals().Refunded).toBeUndefined();
    unmount();
    render(<OrderSummary head={{ ...head, amount_paid: 181500, amount_refunded: 2500 }} lines={lines} />);
    expect(totals()).toMatchObject({ Paid: '৳1,81,500', Refunded: '−৳2,500', Due: '৳0' });
  });

  it('never owes less than nothing', () => {
    expect(amountDue({ grand_total: 100, amount_paid: 150 })).toBe(0);
  });
});
