// The 360-degree viewer (SPEC.md §4, §9): its frames (36, at JPEG quality 35)
// are asked for and loaded only when the shopper opens it; then it turns by
// itself (one frame per 80 ms) until any action of the shopper, and never on
// touch devices. Dragging turns it (150 px a whole turn); so do the arrow
// keys, since it is a slider. The magnifier is the gallery's zoom (3x), of
// the frame in full (`onFrame` names the frame's picture, not the light copy
// that turns), opened by a click that was not the end of a drag.
import { useEffect, useRef, useState } from 'react';
import { ApiError, apiGet } from '../../lib/api';
import { imageUrl } from '../../lib/image';
import styles from './ProductGallery.module.css';
import type { Images360Response } from './types';

export const SPEED_MS = 80;
export const DRAG_PX_PER_TURN = 150;
export const FRAME_QUALITY = 35;
const FRAME_WIDTH = 800;

/** Touch-first devices do not autoplay (SPEC.md §4). */
export const isTouch = () => window.matchMedia?.('(pointer: coarse)').matches ?? false;

type State = 'loading' | 'ready' | 'error';

export function Viewer360({ seoUrl, title, onFrame }: { seoUrl: string; title: string; onFrame?: (src: string) => void }) {
  const [paths, setPaths] = useState<string[]>([]);
  const [frames, setFrames] = useState<string[]>([]);
  const [loaded, setLoaded] = useState(0);
  const [state, setState] = useState<State>('loading');
  const [error, setError] = useState('');
  const [frame, setFrame] = useState(0);
  const [playing, setPlaying] = useState(() => !isTouch());
  const drag = useRef<{ x: number; frame: number; moved: boolean } | null>(null);
  const dragged = useRef(false);

  useEffect(() => {
    let live = true;
    apiGet<Images360Response>('/api/product/360degreeImages', { seo_url: seoUrl })
      .then((r) => {
        if (!live) return;
        const urls = (r.images ?? []).map((p) => imageUrl(p, FRAME_WIDTH, FRAME_QUALITY));
        setPaths(r.images ?? []);
        setFrames(urls);
        if (!urls.length) {
          setState('error');
          setError('No 360° view for this product.');
        }
        let count = 0;
        urls.forEach((u) => {
          const img = new Image();
          img.onload = img.onerror = () => {
            if (!live) return;
            count += 1;
            setLoaded(count);
            if (count === urls.length) setState('ready');
          };
          img.src = u;
        });
      })
      .catch((e: unknown) => {
        if (!live) return;
        setState('error');
        setError(e instanceof ApiError ? e.message : 'The 360° view could not be loaded.');
      });
    return () => {
      live = false;
    };
  }, [seoUrl]);

  useEffect(() => {
    if (state !== 'ready' || !playing || frames.length < 2) return;
    const t = setInterval(() => setFrame((f) => (f + 1) % frames.length), SPEED_MS);
    return () => clearInterval(t);
  }, [state, playing, frames.length]);

  useEffect(() => {
    if (paths[frame]) onFrame?.(paths[frame]);
  }, [frame, paths, onFrame]);

  const n = frames.length;
  const turn = (by: number) => setFrame((f) => (((f + by) % n) + n) % n);
  const stop = () => setPlaying(false);

  if (state === 'error') return <p className={styles.note}>{error}</p>;
  if (state === 'loading')
    return (
      <p className={styles.note} role="status">
        Loading the 360° view… {n ? `${loaded}/${n}` : ''}
      </p>
    );
  return (
    <div
      className={styles.viewer}
      role="slider"
      tabIndex={0}
      aria-label={`360° view of ${title}: drag or use the arrow keys to turn it`}
      aria-valuemin={1}
      aria-valuemax={n}
      aria-valuenow={frame + 1}
      onPointerDown={(e) => {
        stop();
        drag.current = { x: e.clientX, frame, moved: false };
        (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
      }}
      onPointerMove={(e) => {
        if (!drag.current) return;
        const by = Math.round(((e.clientX - drag.current.x) / DRAG_PX_PER_TURN) * n);
        if (by) drag.current.moved = true;
        setFrame((((drag.current.frame - by) % n) + n) % n);
      }}
      onPointerUp={() => {
        dragged.current = drag.current?.moved ?? false;
        drag.current = null;
      }}
      onClick={(e) => {
        // The click that ends a drag turned the view: it opens no magnifier.
        if (dragged.current) e.stopPropagation();
        dragged.current = false;
      }}
      onPointerCancel={() => (drag.current = null)}
      onWheel={stop}
      onKeyDown={(e) => {
        stop();
        if (e.key === 'ArrowRight' || e.key === 'ArrowUp') turn(1);
        else if (e.key === 'ArrowLeft' || e.key === 'ArrowDown') turn(-1);
        else return;
        e.preventDefault();
      }}
    >
      <img src={frames[frame]} alt="" draggable={false} />
    </div>
  );
}
