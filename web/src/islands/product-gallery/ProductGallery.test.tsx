import { act, fireEvent, render, screen } from '@testing-library/react';
import { calledUrl, mockFetch } from '../../lib/test-utils';
import mount from './index';
import { embedUrl, ProductGallery } from './ProductGallery';
import { SPEED_MS } from './Viewer360';

const images = ['storage/a.jpg', 'storage/b.jpg', 'storage/c.jpg'];
const frames = Array.from({ length: 36 }, (_, i) => `storage/360/${i + 1}.jpg`);

function gallery(extra: Partial<Parameters<typeof ProductGallery>[0]> = {}) {
  return render(<ProductGallery images={images} title="Oslo Bed" seoUrl="oslo-bed" size={[800, 600]} {...extra} />);
}

const mainImg = () => document.querySelector<HTMLImageElement>('div[style*="aspect-ratio"] > img')!;

/** Images "load" at once in these tests. */
class InstantImage {
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  set src(_: string) {
    queueMicrotask(() => this.onload?.());
  }
}

const flush = () =>
  act(async () => {
    for (let i = 0; i < 8; i++) await Promise.resolve();
    await vi.advanceTimersByTimeAsync(0);
  });

function touch(coarse: boolean) {
  vi.stubGlobal('matchMedia', (q: string) => ({ matches: q === '(pointer: coarse)' && coarse, addEventListener() {}, removeEventListener() {} }));
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('Image', InstantImage);
  touch(false);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('product-gallery', () => {
  it('shows the first image at the fallback size and chooses a thumbnail on hover or click', () => {
    gallery();
    expect(mainImg().getAttribute('src')).toBe('/storage/a.jpg?w=800');
    expect(mainImg().getAttribute('width')).toBe('800');
    expect(mainImg().getAttribute('height')).toBe('600');
    fireEvent.mouseEnter(screen.getByRole('button', { name: 'Show image 2' }));
    expect(mainImg().getAttribute('src')).toBe('/storage/b.jpg?w=800');
    fireEvent.click(screen.getByRole('button', { name: 'Show image 3' }));
    expect(mainImg().getAttribute('src')).toBe('/storage/c.jpg?w=800');
    expect(screen.getByRole('button', { name: 'Show image 3' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('zooms 3x where the mouse points, and a click locks the zoom (touch)', () => {
    gallery();
    const stage = mainImg().parentElement!;
    stage.getBoundingClientRect = () => ({ left: 0, top: 0, width: 400, height: 300, right: 400, bottom: 300, x: 0, y: 0, toJSON() {} });
    fireEvent.pointerMove(stage, { pointerType: 'mouse', clientX: 100, clientY: 150 });
    const zoom = stage.querySelector<HTMLElement>('[aria-hidden=true]')!;
    expect(zoom.style.backgroundSize).toBe('300%');
    expect(zoom.style.backgroundPosition).toBe('25% 50%');
    expect(zoom.style.backgroundImage).toContain('/storage/a.jpg?w=1600');
    fireEvent.pointerLeave(stage);
    expect(stage.querySelector('[aria-hidden=true]')).toBeNull();
    fireEvent.pointerMove(stage, { pointerType: 'touch', clientX: 10, clientY: 10 });
    expect(stage.querySelector('[aria-hidden=true]')).toBeNull();
    fireEvent.click(stage, { clientX: 400, clientY: 0 });
    expect(stage.querySelector<HTMLElement>('[aria-hidden=true]')!.style.backgroundPosition).toBe('100% 0%');
    fireEvent.click(stage);
    expect(stage.querySelector('[aria-hidden=true]')).toBeNull();
  });

  it('embeds the video only when chosen', () => {
    gallery({ video: 'https://www.youtube.com/watch?v=abcDEF12345' });
    expect(document.querySelector('iframe')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '▶ Watch the video' }));
    expect(document.querySelector('iframe')!.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/abcDEF12345?autoplay=1&rel=0');
    expect(embedUrl('https://youtu.be/xyz_987654')).toBe('https://www.youtube-nocookie.com/embed/xyz_987654?autoplay=1&rel=0');
    expect(embedUrl('/storage/video.mp4')).toBeNull();
  });

  it("shows a stored video's poster and loads the file only when tapped", () => {
    gallery({ video: '/storage/videos/360-sofa-grey-v7.webm', poster: 'storage/uploads/fullsize/360-sofa-grey-01-v7.jpg' });
    expect(document.querySelector('video')).toBeNull();
    const button = screen.getByRole('button', { name: '▶ Watch the video' });
    expect(button.querySelector('img')!.getAttribute('src')).toBe('/storage/uploads/fullsize/360-sofa-grey-01-v7.jpg?w=100');
    fireEvent.click(button);
    const video = document.querySelector('video')!;
    expect(video.getAttribute('src')).toBe('/storage/videos/360-sofa-grey-v7.webm');
    expect(video.getAttribute('poster')).toBe('/storage/uploads/fullsize/360-sofa-grey-01-v7.jpg?w=800');
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('loads the 36 frames only when the 360 view opens, autoplays at 80 ms a frame and stops on any action', async () => {
    const fetch = mockFetch({ '/api/product/360degreeImages': { body: { images: frames } } });
    gallery({ frames_360: 36 });
    await flush();
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: '360° view' }));
    await flush();
    expect(calledUrl(fetch).searchParams.get('seo_url')).toBe('oslo-bed');
    const viewer = screen.getByRole('slider');
    expect(viewer.querySelector('img')!.getAttribute('src')).toBe('/storage/360/1.jpg?w=800&q=35');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SPEED_MS * 3);
    });
    expect(viewer.getAttribute('aria-valuenow')).toBe('4');
    fireEvent.keyDown(viewer, { key: 'ArrowLeft' });
    expect(viewer.getAttribute('aria-valuenow')).toBe('3');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SPEED_MS * 5);
    });
    expect(viewer.getAttribute('aria-valuenow')).toBe('3');
  });

  it('turns by dragging, and does not autoplay on touch devices', async () => {
    touch(true);
    mockFetch({ '/api/product/360degreeImages': { body: { images: frames } } });
    gallery({ frames_360: 36 });
    fireEvent.click(screen.getByRole('button', { name: '360° view' }));
    await flush();
    const viewer = screen.getByRole('slider');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SPEED_MS * 5);
    });
    expect(viewer.getAttribute('aria-valuenow')).toBe('1');
    fireEvent.pointerDown(viewer, { clientX: 200 });
    fireEvent.pointerMove(viewer, { clientX: 200 - 150 / 4 });
    expect(viewer.getAttribute('aria-valuenow')).toBe('10');
    fireEvent.pointerUp(viewer);
  });

  it('magnifies a 360 frame in full, and not at the end of a drag (tester: a blurred 3x crop of the light frame)', async () => {
    touch(false);
    mockFetch({ '/api/product/360degreeImages': { body: { images: frames } } });
    gallery({ frames_360: 36 });
    fireEvent.click(screen.getByRole('button', { name: '360° view' }));
    await flush();
    const viewer = screen.getByRole('slider');
    const zoom = () => document.querySelector<HTMLElement>('[aria-hidden=true]');
    // A drag turns the view; the click that ends it opens nothing.
    fireEvent.pointerDown(viewer, { clientX: 200 });
    fireEvent.pointerMove(viewer, { clientX: 200 - 150 / 4 });
    fireEvent.pointerUp(viewer);
    fireEvent.click(viewer);
    expect(zoom()).toBeNull();
    // A click on its own magnifies the frame shown, at full width and quality.
    const at = viewer.getAttribute('aria-valuenow');
    fireEvent.click(viewer);
    expect(zoom()!.style.backgroundImage).toContain(`/storage/360/${at}.jpg?w=1600")`);
  });

  it('leaves a fallback without images alone (interior galleries)', () => {
    document.body.innerHTML = '<div data-island="product-gallery"><ul class="g"><li>room</li></ul></div>';
    const el = document.querySelector<HTMLElement>('[data-island]')!;
    expect(mount(el, {})).toBeNull();
    expect(el.innerHTML).toBe('<ul class="g"><li>room</li></ul>');
  });
});
