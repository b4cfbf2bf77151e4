import { act, fireEvent, render, screen } from '@testing-library/react';
import { AUTH_TOKEN_KEY } from '../../lib/api';
import { callsTo, mockFetch } from '../../lib/test-utils';
import { charCount, productInPath, ReviewPage } from './ReviewPage';

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

const bed = { id: 11, title: 'Oslo Bed', sub_title: 'King size', seo_url: 'oslo-bed', on_sale: true, image_url: 'uploads/icon/bed.webp', review: null };
const sofa = {
  id: 12,
  title: 'Rio Sofa',
  sub_title: '',
  seo_url: 'rio-sofa',
  on_sale: true,
  image_url: null,
  review: { id: 7, rating: 4, comment: 'Comfortable and firm.', state: 'awaiting_check', updated_at: '01 May 2026' },
};
const table = {
  ...bed,
  id: 13,
  title: 'Teak Table',
  seo_url: 'teak-table',
  review: { id: 8, rating: 5, comment: 'Beautiful wood grain.', state: 'published', updated_at: '02 May 2026' },
};

beforeEach(() => localStorage.setItem(AUTH_TOKEN_KEY, 'tok'));
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

const bodyOf = (fetch: ReturnType<typeof mockFetch>, path: string): unknown => {
  const body = callsTo(fetch, path)[0][1]?.body;
  return JSON.parse(typeof body === 'string' ? body : '') as unknown;
};

describe('review-page', () => {
  it('reads the product id of /product/review/{id} and counts characters as the origin does', () => {
    expect(productInPath('/product/review/42')).toBe(42);
    expect(productInPath('/product/review/42/')).toBe(42);
    expect(productInPath('/product/review/abc')).toBeNull();
    expect(productInPath('/review')).toBeNull();
    expect(charCount('  ঘর ভালো  ')).toBe(7);
  });

  it('asks a signed-out visitor to sign in and come back', () => {
    localStorage.clear();
    history.pushState(null, '', '/review');
    const fetch = mockFetch({});
    render(<ReviewPage path="/review" />);
    const link = screen.getByRole('link', { name: 'sign in' });
    expect(link.getAttribute('href')).toBe('/user/login?redirect=%2Freview');
    history.pushState(null, '', '/');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('lists delivered products with where each review stands', async () => {
    mockFetch({ '/api/user/reviewable': { body: { success: true, products: [bed, sofa, table] } } });
    render(<ReviewPage path="/review" />);
    expect(screen.getByText(/Loading/)).toBeTruthy();
    await flush();
    expect(screen.getByRole('link', { name: 'Oslo Bed' }).getAttribute('href')).toBe('/product/oslo-bed');
    expect(screen.getByText('Not reviewed')).toBeTruthy();
    expect(screen.getByText('Awaiting check')).toBeTruthy();
    expect(screen.getByText('Published')).toBeTruthy();
    expect(screen.getByRole('img', { name: '4 out of 5 stars' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Edit your review' })).toHaveLength(2);
  });

  it('says so when nothing was delivered yet, with a way to the shop', async () => {
    mockFetch({ '/api/user/reviewable': { body: { success: true, products: [] } } });
    render(<ReviewPage path="/review" />);
    await flush();
    expect(screen.getByText(/No delivered products to review yet/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse the shop' }).getAttribute('href')).toBe('/c/products');
  });

  it('shows a failed load with a retry', async () => {
    mockFetch({ '/api/user/reviewable': { status: 500, body: { success: false, message: 'Down for a moment.' } } });
    render(<ReviewPage path="/review" />);
    await flush();
    expect(screen.getByRole('alert').textContent).toContain('Down for a moment.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('checks stars and text, then sends a new review and says it awaits the check', async () => {
    let stored = false;
    const fetch = mockFetch({
      '/api/user/reviewable': () => ({
        body: {
          success: true,
          products: [
            stored ? { ...bed, review: { id: 9, rating: 5, comment: 'Sturdy and easy to build.', state: 'awaiting_check', updated_at: 'today' } } : bed,
          ],
        },
      }),
      '/api/user/review-store': () => {
        stored = true;
        return { body: { success: true, message: 'Thank you for your review. It will appear once the shop has checked it.' } };
      },
    });
    render(<ReviewPage path="/product/review/11" />);
    await flush();
    // /product/review/11 opens the form at once.
    const form = screen.getByRole('form', { name: 'Review of Oslo Bed' });
    const text = screen.getByLabelText('Your review');
    fireEvent.change(text, { target: { value: 'short' } });
    expect(screen.getByText(/5 \/ 2000 characters/)).toBeTruthy();
    fireEvent.submit(form);
    expect(screen.getByText('Choose 1 to 5 stars.')).toBeTruthy();
    expect(screen.getByText(/Write at least 10 characters/)).toBeTruthy();
    expect(callsTo(fetch, '/api/user/review-store')).toHaveLength(0);

    const radios = screen.getAllByRole('radio');
    expect(radios).toHaveLength(5);
    fireEvent.click(screen.getByRole('radio', { name: /5 stars/ }));
    expect(screen.queryByText('Choose 1 to 5 stars.')).toBeNull();
    fireEvent.change(text, { target: { value: '  Sturdy and easy to build.  ' } });
    expect(screen.queryByText(/Write at least 10 characters/)).toBeNull();
    fireEvent.submit(form);
    await flush();
    expect(bodyOf(fetch, '/api/user/review-store')).toEqual({ product_id: 11, rating: 5, comment: 'Sturdy and easy to build.' });
    expect(screen.getByRole('status').textContent).toContain('once the shop has checked it');
    expect(screen.getByText('Awaiting check')).toBeTruthy();
  });

  it('edits an existing review and shows the origin’s field errors', async () => {
    let answer = { status: 400, body: { success: false, message: 'Check the form.', errors: { comment: ['A review is 10 to 2000 characters.'] } } };
    const fetch = mockFetch({
      '/api/user/reviewable': { body: { success: true, products: [sofa] } },
      '/api/user/review-update': () => answer,
    });
    render(<ReviewPage path="/review" />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Edit your review' }));
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /4 stars/ }).checked).toBe(true);
    const text = screen.getByLabelText<HTMLTextAreaElement>('Your review');
    expect(text.value).toBe('Comfortable and firm.');
    fireEvent.change(text, { target: { value: 'Comfortable, a little firm at first.' } });
    fireEvent.submit(screen.getByRole('form'));
    await flush();
    expect(screen.getByText('A review is 10 to 2000 characters.')).toBeTruthy();
    answer = { status: 200, body: { success: true, message: 'Your review is changed.' } as never };
    fireEvent.submit(screen.getByRole('form'));
    await flush();
    expect(bodyOf(fetch, '/api/user/review-update')).toEqual({ id: 7, rating: 4, comment: 'Comfortable, a little firm at first.' });
    expect(screen.getByRole('status').textContent).toContain('Your review is changed.');
  });

  it('explains why a product in the path cannot be reviewed', async () => {
    mockFetch({ '/api/user/reviewable': { body: { success: true, products: [bed] } } });
    render(<ReviewPage path="/product/review/999" />);
    await flush();
    expect(screen.getByRole('alert').textContent).toContain('not among the products delivered to you');
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('treats an expired sign-in as signed out', async () => {
    mockFetch({ '/api/user/reviewable': { status: 401, body: { success: false, message: 'Unauthenticated.' } } });
    render(<ReviewPage path="/review" />);
    await flush();
    expect(screen.getByRole('link', { name: 'sign in' })).toBeTruthy();
  });
});
