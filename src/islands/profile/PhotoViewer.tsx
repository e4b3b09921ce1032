/**
 * The profile's photo viewer (MEM-03): the main image with thumbnails; arrow keys and a swipe move
 * between photos, a thumbnail shows its photo. Rendered on the server as it hydrates, so without
 * JavaScript the main image and the thumbnails (links to the images) are all there. Locked premium
 * photos (MEM-04) show their blurred copy under a lock with a 'Get Premium' link; their sharp file
 * never has a URL here.
 * On a phone the stage runs edge to edge with a counter and dots (the thumbnails return from 768 px,
 * _members.scss); the lock and the arrows are drawn SVG, not characters a phone may lack.
 */
import { useCallback, useRef, useState, type KeyboardEvent, type MouseEvent, type TouchEvent } from 'react';

export interface ViewerPhoto {
  /** The image shown large (the main size, or the blurred copy of a locked photo). */
  src: string;
  /** The thumbnail (the blurred copy for a locked photo). */
  thumb: string;
  locked: boolean;
}

export interface PhotoViewerProps {
  photos: ViewerPhoto[];
  name: string;
  labels: {
    /** "Photos of {{name}}" */
    region: string;
    previous: string;
    next: string;
    /** "Photo {{n}} of {{total}}" with {n} and {total} left in. */
    position: string;
    locked: string;
    getPremium: string;
  };
}

function LockIcon({ className }: { className: string }) {
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M12 2a5 5 0 0 1 5 5v3h1a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h1V7a5 5 0 0 1 5-5zm0 2a3 3 0 0 0-3 3v3h6V7a3 3 0 0 0-3-3z" />
    </svg>
  );
}

/** A horizontal move of at least this many pixels is a swipe. */
const SWIPE_PX = 40;

export default function PhotoViewer({ photos, name, labels }: PhotoViewerProps) {
  const [index, setIndex] = useState(0);
  const start = useRef<{ x: number; y: number } | null>(null);
  const total = photos.length;
  const go = useCallback((to: number) => setIndex(((to % total) + total) % total), [total]);
  const current = photos[index] ?? photos[0]!;
  const position = labels.position.replace('{n}', String(index + 1)).replace('{total}', String(total));

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight') go(index + 1);
    else if (e.key === 'ArrowLeft') go(index - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(total - 1);
    else return;
    e.preventDefault();
  };
  const onTouchStart = (e: TouchEvent) => {
    const touch = e.touches[0];
    start.current = touch ? { x: touch.clientX, y: touch.clientY } : null;
  };
  const onTouchEnd = (e: TouchEvent) => {
    const touch = e.changedTouches[0];
    const from = start.current;
    start.current = null;
    if (!touch || !from) return;
    const dx = touch.clientX - from.x;
    if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(touch.clientY - from.y)) go(dx < 0 ? index + 1 : index - 1);
  };
  const pick = (i: number) => (e: MouseEvent) => {
    e.preventDefault();
    go(i);
  };

  return (
    <div className="photo-viewer" data-photo-viewer data-index={index}>
      <div
        className="photo-viewer-stage position-relative"
        role="region"
        aria-roledescription="carousel"
        aria-label={labels.region}
        tabIndex={0}
        onKeyDown={onKey}
        onTouchStart={onTouchStart}
        onTouchEnd={onTouchEnd}
        data-viewer-stage
      >
        <img className="photo-viewer-image" src={current.src} width={480} height={600} alt={name} fetchPriority="high" data-viewer-image />
        {current.locked && (
          <a className="photo-lock-overlay" href="/credits" data-locked-photo>
            <LockIcon className="photo-lock-icon" />
            <span className="visually-hidden">{labels.locked}</span>
            <span className="btn btn-warning btn-sm mt-2">{labels.getPremium}</span>
          </a>
        )}
        {total > 1 && (
          <>
            <button type="button" className="photo-viewer-nav photo-viewer-prev" aria-label={labels.previous} onClick={() => go(index - 1)}>
              <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
                <path fill="currentColor" d="M15.4 4.6 8 12l7.4 7.4-1.4 1.4L5.2 12 14 3.2z" />
              </svg>
            </button>
            <button type="button" className="photo-viewer-nav photo-viewer-next" aria-label={labels.next} onClick={() => go(index + 1)}>
              <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
                <path fill="currentColor" d="M8.6 4.6 16 12l-7.4 7.4 1.4 1.4 8.8-8.8L10 3.2z" />
              </svg>
            </button>
            <span className="photo-viewer-counter" aria-hidden="true" data-viewer-counter>
              {index + 1} / {total}
            </span>
            <span className="photo-viewer-dots" aria-hidden="true">
              {photos.map((photo, i) => (
                <span key={photo.src + i} className={i === index ? 'photo-viewer-dot active' : 'photo-viewer-dot'} />
              ))}
            </span>
          </>
        )}
        <p className="visually-hidden" aria-live="polite" data-viewer-position>
          {position}
        </p>
      </div>
      {total > 1 && (
        <ul className="photo-viewer-thumbs list-unstyled" data-gallery>
          {photos.map((photo, i) => (
            <li key={photo.src + i} className="position-relative">
              <a
                className={i === index ? 'photo-thumb active' : 'photo-thumb'}
                href={photo.locked ? '/credits' : photo.src}
                aria-current={i === index ? 'true' : undefined}
                aria-label={labels.position.replace('{n}', String(i + 1)).replace('{total}', String(total)) + (photo.locked ? ` (${labels.locked})` : '')}
                onClick={pick(i)}
                data-thumb={i}
                data-locked-photo={photo.locked ? true : undefined}
              >
                <img src={photo.thumb} width={64} height={80} alt="" loading="lazy" />
                {photo.locked && <LockIcon className="photo-thumb-lock" />}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
