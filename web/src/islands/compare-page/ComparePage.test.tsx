import { act, fireEvent, render, screen } from '@testing-library/react';
import { calledUrl, mockFetch } from '../../lib/test-utils';
import { ComparePage } from './ComparePage';

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

const product = (id: number, attr: { field_label: string; value: string }[] = []) => ({
  id,
  title: `Bed ${id}`,
  seo_url: `bed-${id}`,
  price_now: 10000 * id,
  short_description: '<p>Solid <b>teak</b></p>',
  attr,
});

afterEach(() => vi.unstubAllGlobals());

describe('compare-page', () => {
  it('shows up to 5 products side by side with a row per attribute', async () => {
    mockFetch({
      '/api/common/compare': {
        body: {
          products: [
            product(1, [{ field_label: 'Colour', value: 'Teak' }]),
            product(1),
            product(2, [{ field_label: 'Size', value: 'King' }]),
            product(3),
            product(4),
            product(5),
            product(6),
          ],
        },
      },
    });
    render(<ComparePage />);
    await flush();
    const cols = screen.getAllByRole('columnheader');
    expect(cols.map((c) => c.querySelector('a')!.textContent)).toEqual(['Bed 1', 'Bed 2', 'Bed 3', 'Bed 4', 'Bed 5']);
    const colour = screen.getByRole('rowheader', { name: 'Colour' }).parentElement!;
    expect(Array.from(colour.querySelectorAll('td')).map((td) => td.textContent)).toEqual(['Teak', '–', '–', '–', '–']);
    expect(screen.getByRole('rowheader', { name: 'Price' }).parentElement!.textContent).toContain('৳20,000');
    expect(screen.getByRole('rowheader', { name: 'Description' }).parentElement!.textContent).toContain('Solid teak');
  });

  it('removes a product and adds one to the cart', async () => {
    const fetch = mockFetch({
      '/api/common/compare': { body: { products: [product(1), product(2)] } },
      '/api/common/remove-compare': { body: { success: true } },
      '/api/cart/add-to-cart': { body: { success: true } },
    });
    render(<ComparePage />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Bed 1 from compare' }));
    await flush();
    expect(calledUrl(fetch, 1).searchParams.get('pid')).toBe('1');
    expect(screen.getAllByRole('columnheader')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Add Bed 2 to cart' }));
    await flush();
    expect(calledUrl(fetch, 2).searchParams.get('main_pid')).toBe('2');
    expect(screen.getByText('Added to your cart: Bed 2.')).toBeTruthy();
  });

  it('says when there is nothing to compare', async () => {
    mockFetch({ '/api/common/compare': { body: { success: true, products: [] } } });
    render(<ComparePage />);
    await flush();
    expect(screen.getByText(/Nothing to compare yet/)).toBeTruthy();
  });
});
