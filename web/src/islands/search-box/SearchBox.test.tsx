import { act, fireEvent, render, screen } from '@testing-library/react';
import { navigate } from '../../lib/navigate';
import { calledUrl, mockFetch } from '../../lib/test-utils';
import { SearchBox, searchedFor, searchUrl } from './SearchBox';

vi.mock('../../lib/navigate', () => ({ navigate: vi.fn() }));

const terms = Array.from({ length: 10 }, (_, i) => ({ name: `Beds ${i}`, url: `beds-${i}` }));
const answer = {
  search: [
    { title: 'Oslo Bed', sub_title: 'King size, teak', url: '/product/oslo-bed' },
    { title: 'Rio Bed', sub_title: null, url: 'rio-bed' },
  ],
  terms,
};

const input = () => screen.getByRole<HTMLInputElement>('combobox', { name: 'Search products' });
/** Lets timers run and pending fetches settle. */
const wait = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

beforeEach(() => {
  vi.useFakeTimers();
  vi.mocked(navigate).mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function typed(text: string) {
  const fetch = mockFetch({ '/api/common/main-search-product': { body: answer } });
  render(<SearchBox />);
  fireEvent.focus(input());
  fireEvent.change(input(), { target: { value: text } });
  await wait(500);
  return fetch;
}

describe('search-box', () => {
  it('asks for suggestions once, 500 ms after typing stops (the debounce)', async () => {
    const fetch = mockFetch({ '/api/common/main-search-product': { body: answer } });
    render(<SearchBox />);
    fireEvent.focus(input());
    for (const text of ['b', 'be', 'bed']) {
      fireEvent.change(input(), { target: { value: text } });
      await wait(300);
    }
    expect(fetch).not.toHaveBeenCalled();
    await wait(199);
    expect(fetch).not.toHaveBeenCalled();
    await wait(1);
    expect(fetch).toHaveBeenCalledOnce();
    expect(calledUrl(fetch).pathname).toBe('/api/common/main-search-product');
    expect(calledUrl(fetch).searchParams.get('keyword')).toBe('bed');
  });

  it('shows at most 8 terms linking to /c/{url} and products as title and sub_title', async () => {
    await typed('bed');
    expect(input().getAttribute('aria-expanded')).toBe('true');
    const options = screen.getAllByRole('option');
    expect(options).toHaveLength(8 + 2);
    expect(options[0].getAttribute('href')).toBe('/c/beds-0');
    expect(options[7].getAttribute('href')).toBe('/c/beds-7');
    expect(screen.queryByText('Beds 8')).toBeNull();
    expect(options[8].getAttribute('href')).toBe('/product/oslo-bed');
    expect(options[8].textContent).toBe('Oslo BedKing size, teak');
    expect(options[9].getAttribute('href')).toBe('/product/rio-bed');
  });

  it('has one × control, which clears the field and closes the panel', async () => {
    expect(screen.queryByRole('button', { name: 'Clear search' })).toBeNull();
    await typed('bed');
    const panel = () => screen.getByRole('listbox', { hidden: true }).parentElement!;
    expect(panel().hidden).toBe(false);
    // One control drawn as ×, none inside the panel.
    expect(screen.getAllByRole('button').filter((b) => b.textContent?.includes('×'))).toHaveLength(1);
    expect(panel().querySelector('button')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(input().value).toBe('');
    expect(panel().hidden).toBe(true);
    expect(input().getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(input());
    expect(screen.queryByRole('button', { name: 'Clear search' })).toBeNull();
  });

  it('closes on Escape and a click outside, keeping the text, and opens again on focus', async () => {
    await typed('bed');
    const panel = () => screen.getByRole('listbox', { hidden: true }).parentElement!;
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(panel().hidden).toBe(true);
    expect(input().value).toBe('bed');

    fireEvent.focus(input());
    expect(panel().hidden).toBe(false);
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(panel().hidden).toBe(true);

    fireEvent.focus(input());
    expect(panel().hidden).toBe(false);
    fireEvent.pointerDown(document.body);
    expect(panel().hidden).toBe(true);
    expect(input().getAttribute('aria-expanded')).toBe('false');
  });

  it('moves through the suggestions with the arrow keys and opens one with Enter', async () => {
    await typed('bed');
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    const options = screen.getAllByRole('option');
    expect(input().getAttribute('aria-activedescendant')).toBe(options[0].id);
    expect(options[0].getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input(), { key: 'ArrowUp' });
    expect(input().getAttribute('aria-activedescendant')).toBe(options[9].id);
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    expect(input().getAttribute('aria-activedescendant')).toBe(options[1].id);
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(navigate).toHaveBeenCalledWith('/c/beds-1');
  });

  it('submits to /c/products with the keyword and a timestamp', async () => {
    await typed('  dining & table ');
    vi.setSystemTime(1_700_000_000_000);
    fireEvent.submit(input().form!);
    expect(navigate).toHaveBeenCalledWith('/c/products?keyword=dining%20%26%20table&time=1700000000000');
    expect(searchUrl('')).toBe('/c/products');
  });

  it('holds the words a results page shows, and asks nothing for them until they change', async () => {
    expect(searchedFor({ pathname: '/c/products', search: '?keyword=%E0%A6%96%E0%A6%BE%E0%A6%9F&time=1' })).toBe('খাট');
    expect(searchedFor({ pathname: '/product/oslo-bed', search: '?keyword=khat' })).toBe('');
    const fetch = mockFetch({ '/api/common/main-search-product': { body: answer } });
    render(<SearchBox initial="khat" shown="khat" />);
    expect(input().value).toBe('khat');
    await wait(600);
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.change(input(), { target: { value: 'khat teak' } });
    await wait(500);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(calledUrl(fetch).searchParams.get('keyword')).toBe('khat teak');
  });

  it('says when nothing matched and shows API errors', async () => {
    mockFetch({ '/api/common/main-search-product': { body: { search: [], terms: [] } } });
    const { unmount } = render(<SearchBox />);
    fireEvent.change(input(), { target: { value: 'zzz' } });
    await wait(500);
    expect(screen.getByText('Nothing found for “zzz”.')).toBeTruthy();
    unmount();
    mockFetch({ '/api/common/main-search-product': { status: 503, body: { success: false, message: 'Search is busy, try again' } } });
    render(<SearchBox />);
    fireEvent.change(input(), { target: { value: 'bed' } });
    await wait(500);
    expect(screen.getByText('Search is busy, try again')).toBeTruthy();
  });

  it('says which words a relaxed answer matched, and nothing of the kind otherwise', async () => {
    await typed('bed');
    expect(screen.queryByText(/Showing results for/)).toBeNull();
    const relaxed = { ...answer, terms: [], relaxed: true, relaxed_query: 'sofa' };
    mockFetch({ '/api/common/main-search-product': { body: relaxed } });
    fireEvent.change(input(), { target: { value: 'sofa qqxxzz' } });
    await wait(500);
    expect(screen.getByRole('status').textContent).toBe('No product has every word. Showing results for “sofa”.');
    expect(screen.getAllByRole('option')).toHaveLength(2);
  });

  it('starts from the typed text and focus adopted from the fallback', async () => {
    const fetch = mockFetch({ '/api/common/main-search-product': { body: answer } });
    render(<SearchBox initial="sofa" focused />);
    expect(input().value).toBe('sofa');
    await wait(500);
    expect(calledUrl(fetch).searchParams.get('keyword')).toBe('sofa');
    expect(input().getAttribute('aria-expanded')).toBe('true');
  });
});
