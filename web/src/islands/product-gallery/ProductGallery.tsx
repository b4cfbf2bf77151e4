// The product image area (SPEC.md §2, §9): the main image (as the fallback
// drew it), a thumbnail strip where hovering or clicking chooses, a 3x zoom
// following the mouse (a click or tap toggles it, for touch), the embedded
// video (loaded only when chosen: until then its poster stands beside the
// link; a file plays in place with the poster as its first picture) and the 360 viewer (its frames loaded only
// when opened). The video and 360 controls sit where the fallback's links
// were, so taking over moves nothing.
import { useCallback, useState } from 'react';
import { imageUrl, srcset } from '../../lib/image';
import styles from './ProductGallery.module.css';
import type { ProductGalleryProps } from './types';
import { Viewer360 } from './Viewer360';

export const ZOOM = 3;
const WIDTHS = [200, 400, 600, 800, 1200];

type View = { kind: 'image'; index: number } | { kind: 'video' } | { kind: '360' };

/** An embeddable URL for a YouTube link (privacy-enhanced), or null for a plain file. */
export function embedUrl(url: string): string | null {
  const m = url.match(/(?:youtube\.com\/(?:watch\?(?:.*&)?v=|embed\/|shorts\/)|youtu\.be\/)([\w-]{6,})/);
  return m ? `https://www.youtube-nocookie.com/embed/${m[1]}?autoplay=1&rel=0` : null;
}

export function ProductGallery({
  images = [],
  video,
  poster,
  frames_360 = 0,
  title = '',
  zoom = ZOOM,
  seoUrl,
  size,
}: ProductGalleryProps & { seoUrl: string; size: [number, number] }) {
  const [view, setView] = useState<View>({ kind: 'image', index: 0 });
  const [lens, setLens] = useState<{ x: number; y: number; locked: boolean } | null>(null);
  const [frameSrc, setFrameSrc] = useState('');
  const onFrame = useCallback((src: string) => setFrameSrc(src), []);
  const [w, h] = size;
  const index = view.kind === 'image' ? view.index : -1;

  const zoomPath = index >= 0 ? images[index] : view.kind === '360' ? frameSrc : '';
  const zoomSrc = zoomPath ? imageUrl(zoomPath, 1600) : '';
  const at = (e: React.PointerEvent | React.MouseEvent) => {
    const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
    return {
      x: Math.min(100, Math.max(0, ((e.clientX - r.left) / (r.width || 1)) * 100)),
      y: Math.min(100, Math.max(0, ((e.clientY - r.top) / (r.height || 1)) * 100)),
    };
  };
  const choose = (v: View) => {
    setView(v);
    setLens(null);
  };

  const main =
    view.kind === 'video' && video ? (
      embedUrl(video) ? (
        <iframe
          className={styles.fill}
          src={embedUrl(video)!}
          title={`Video: ${title}`}
          allow="autoplay; encrypted-media; picture-in-picture"
          allowFullScreen
        />
      ) : (
        <video
          className={styles.fill}
          src={video}
          poster={poster ? imageUrl(poster, 800) : undefined}
          title={`Video: ${title}`}
          controls
          autoPlay
          muted
          loop
          playsInline
        />
      )
    ) : view.kind === '360' ? (
      <Viewer360 seoUrl={seoUrl} title={title} onFrame={onFrame} />
    ) : images[index] ? (
      <img
        src={imageUrl(images[index], 800)}
        srcSet={srcset(images[index], WIDTHS)}
        sizes="(min-width:576px) 50vw, 100vw"
        width={w}
        height={h}
        alt={index ? `${title} – image ${index + 1}` : title}
        fetchPriority={index ? undefined : 'high'}
      />
    ) : null;

  const zoomable = view.kind === 'image' || (view.kind === '360' && !!frameSrc);
  return (
    <>
      <div
        className={styles.stage}
        style={{ aspectRatio: `${w} / ${h}` }}
        onPointerMove={(e) => {
          if (!zoomable || (e.pointerType !== 'mouse' && !lens?.locked)) return;
          if (view.kind === '360' && !lens?.locked) return; // the 360 view drags; its zoom is a click
          setLens({ ...at(e), locked: lens?.locked ?? false });
        }}
        onPointerLeave={() => {
          if (!lens?.locked) setLens(null);
        }}
        onClick={(e) => {
          if (!zoomable) return;
          setLens(lens?.locked ? null : { ...at(e), locked: true });
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setLens(null);
        }}
      >
        {main}
        {lens && zoomSrc && (
          <div
            className={styles.zoom}
            aria-hidden="true"
            style={{ backgroundImage: `url("${zoomSrc}")`, backgroundSize: `${zoom * 100}%`, backgroundPosition: `${lens.x}% ${lens.y}%` }}
          />
        )}
      </div>
      {images.length > 1 && (
        <ul className="thumbs">
          {images.map((img, i) => (
            <li key={img + i}>
              <button
                type="button"
                className={styles.thumb}
                aria-label={`Show image ${i + 1}`}
                aria-pressed={view.kind === 'image' && view.index === i}
                onMouseEnter={() => choose({ kind: 'image', index: i })}
                onClick={() => choose({ kind: 'image', index: i })}
              >
                <img src={imageUrl(img, 100)} width="64" height="64" alt="" loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {(video || frames_360 > 0) && (
        <p>
          {video && (
            <button type="button" className={styles.link} aria-pressed={view.kind === 'video'} onClick={() => choose({ kind: 'video' })}>
              {poster && <img src={imageUrl(poster, 100)} width="64" height="64" alt="" loading="lazy" className={styles.poster} />}▶ Watch the video
            </button>
          )}
          {video && frames_360 > 0 && ' · '}
          {frames_360 > 0 && (
            <button type="button" className={styles.link} aria-pressed={view.kind === '360'} onClick={() => choose({ kind: '360' })}>
              360° view
            </button>
          )}
        </p>
      )}
    </>
  );
}
