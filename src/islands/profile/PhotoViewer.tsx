/**
 * The profile's photo viewer (MEM-03): the main image with thumbnails; arrow keys and a swipe move
 * between photos, a thumbnail shows its photo. Rendered on the server as it hydrates, so without
 * JavaScript the main image and the thumbnails (links to the images) are all there. Locked premium
 * photos (MEM-04) show their blurred copy under a lock with a 'Get Premium' link; their sharp file
 * never has a URL here.
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
        <img className="img-fluid rounded w-100" src={current.src} width={480} height={600} alt={name} fetchPriority="high" data-viewer-image />
        {current.locked && (
          <a className="photo-lock-overlay rounded" href="/credits" data-locked-photo>
            <span aria-hidden="true" className="photo-lock-icon">
              🔒
            </span>
            <span className="visually-hidden">{labels.locked}</span>
            <span className="btn btn-warning btn-sm mt-2">{labels.getPremium}</span>
          </a>
        )}
        {total > 1 && (
          <>
            <button type="button" className="photo-viewer-nav photo-viewer-prev btn btn-light btn-sm" aria-label={labels.previous} onClick={() => go(index - 1)}>
              ‹
            </button>
            <button type="button" className="photo-viewer-nav photo-viewer-next btn btn-light btn-sm" aria-label={labels.next} onClick={() => go(index + 1)}>
              ›
            </button>
          </>
        )}
        <p className="visually-hidden" aria-live="polite" data-viewer-position>
          {position}
        </p>
      </div>
      {total > 1 && (
        <ul className="list-unstyled d-flex flex-wrap gap-2 mt-2 mb-0" data-gallery>
          {photos.map((photo, i) => (
            <li key={photo.src + i} className="position-relative">
              <a
                className={i === index ? 'photo-thumb active d-block rounded' : 'photo-thumb d-block rounded'}
                href={photo.locked ? '/credits' : photo.src}
                aria-current={i === index ? 'true' : undefined}
                aria-label={labels.position.replace('{n}', String(i + 1)).replace('{total}', String(total)) + (photo.locked ? ` (${labels.locked})` : '')}
                onClick={pick(i)}
                data-thumb={i}
                data-locked-photo={photo.locked ? true : undefined}
              >
                <img className="rounded" src={photo.thumb} width={64} height={80} alt="" loading="lazy" />
                {photo.locked && (
                  <span className="photo-thumb-lock" aria-hidden="true">
                    🔒
                  </span>
                )}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
