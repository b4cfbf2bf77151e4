import { act, fireEvent, render, screen } from '@testing-library/react';
import { setAuthToken } from '../../lib/api';
import { navigate } from '../../lib/navigate';
import { mockFetch, sentJson } from '../../lib/test-utils';
import mount from './index';
import { ProductQuestions } from './ProductQuestions';

vi.mock('../../lib/navigate', () => ({ navigate: vi.fn(), loginUrl: () => '/user/login?redirect=%2Fproduct%2Foslo-bed' }));

const flush = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

beforeEach(() => {
  localStorage.clear();
  vi.mocked(navigate).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('product-questions', () => {
  it('keeps the sign-in line for guests', () => {
    render(<ProductQuestions productId={7} enableComment seoUrl="oslo-bed" signedIn={false} />);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/user/login');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('posts a question with seo_url and description, and thanks the shopper', async () => {
    const fetch = mockFetch({ '/api/product/question-store': { body: { success: true } } });
    render(<ProductQuestions productId={7} enableComment={false} seoUrl="oslo-bed" signedIn />);
    expect(screen.queryByRole('button', { name: 'Write a comment' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Ask a question' }));
    const box = screen.getByLabelText('Your question');
    expect(document.activeElement).toBe(box);
    fireEvent.click(screen.getByRole('button', { name: 'Send question' }));
    expect(screen.getByRole('alert').textContent).toBe('Please write your question first.');
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.change(box, { target: { value: '  Is it solid teak?  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send question' }));
    await flush();
    expect(sentJson(fetch.mock.calls[0][1])).toEqual({ seo_url: 'oslo-bed', product_id: 7, description: 'Is it solid teak?' });
    expect(screen.getByRole('status').textContent).toMatch(/once the shop has answered/);
    expect(screen.queryByLabelText('Your question')).toBeNull();
  });

  it('shows field errors from the API and sends an expired session to login', async () => {
    mockFetch({
      '/api/product/comment-store': {
        status: 400,
        body: { success: false, message: 'Invalid', errors: { comment: ['comment must be at most 1000 characters'] } },
      },
    });
    render(<ProductQuestions productId={7} enableComment seoUrl="oslo-bed" signedIn />);
    fireEvent.click(screen.getByRole('button', { name: 'Write a comment' }));
    fireEvent.change(screen.getByLabelText('Your comment'), { target: { value: 'Lovely' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send comment' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('comment must be at most 1000 characters');
    mockFetch({ '/api/product/comment-store': { status: 401, body: { message: 'Unauthenticated.' } } });
    fireEvent.click(screen.getByRole('button', { name: 'Send comment' }));
    await flush();
    expect(navigate).toHaveBeenCalledWith('/user/login?redirect=%2Fproduct%2Foslo-bed');
  });

  it('takes over only the sign-in line, keeping the questions the generator wrote', () => {
    setAuthToken('1|t');
    document.body.innerHTML =
      '<div data-island="product-questions"><h2>Questions</h2><ul><li><p><strong>Rina</strong>: Size?</p></li></ul><p><a href="/user/login">Sign in</a> to ask a question or comment.</p></div>';
    const el = document.querySelector<HTMLElement>('[data-island]')!;
    act(() => {
      mount(el, { product_id: 7, enable_comment: true });
    });
    expect(el.querySelector('ul')!.textContent).toBe('Rina: Size?');
    expect(screen.getByRole('button', { name: 'Ask a question' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Write a comment' })).toBeTruthy();
  });
});
