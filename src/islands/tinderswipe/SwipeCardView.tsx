/**
 * One swipeable member card, shared by the tinderswipe lander's deck (LND-01) and the members' swipe game
 * (GAME-02): photo, name, age and place, the fictional label, and the drag by touch or mouse (pointer
 * events) that decides like (right) or skip (left) past the threshold of deck.ts, else snaps back.
 */
import { useRef, useState, type PointerEvent } from 'react';
import { swipeDecision, type SwipeCard, type SwipeDecision } from './deck';

interface Props {
  card: SwipeCard;
  /** The first card of the page: its image loads at once; later ones slide in. */
  first: boolean;
  likeText: string;
  nopeText: string;
  /** 'age · place' in the page's language. */
  agePlace: string;
  fictionalLabel: string;
  fictionalWarning: string;
  onDecide: (decision: SwipeDecision) => void;
}

export default function SwipeCardView({ card, first, likeText, nopeText, agePlace, fictionalLabel, fictionalWarning, onDecide }: Props) {
  const [dx, setDx] = useState(0);
  const drag = useRef<{ pointerId: number; x: number } | null>(null);

  function onPointerDown(event: PointerEvent<HTMLElement>) {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    // A press handed over by client:interaction (decision 048) may belong to a pointer the browser no
    // longer lets be captured; a touch stays with the card anyway (touch pointers are captured implicitly).
    try {
      event.currentTarget.setPointerCapture(event.pointerId);
    } catch {
      /* the drag still works from the card's own events */
    }
    drag.current = { pointerId: event.pointerId, x: event.clientX };
  }
  function onPointerMove(event: PointerEvent<HTMLElement>) {
    if (drag.current?.pointerId === event.pointerId) setDx(event.clientX - drag.current.x);
  }
  function onPointerUp(event: PointerEvent<HTMLElement>) {
    const start = drag.current;
    if (!start || start.pointerId !== event.pointerId) return;
    drag.current = null;
    const decision = swipeDecision(event.clientX - start.x, event.currentTarget.offsetWidth);
    setDx(0);
    if (decision) onDecide(decision);
  }
  function onPointerCancel() {
    drag.current = null;
    setDx(0);
  }

  const tilt = Math.max(-15, Math.min(15, dx / 12));
  return (
    <article
      // The first card is the page's largest paint: it appears at once; the next ones slide in.
      className={`swipe-card${first ? '' : ' swipe-card-next'}${dx === 0 ? '' : ' swipe-card-dragging'}`}
      style={dx === 0 ? undefined : { transform: `translateX(${dx}px) rotate(${tilt}deg)` }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
      data-swipe-card={card.id}
    >
      <img
        src={card.image}
        srcSet={`${card.thumb} 160w, ${card.image} ${card.width}w`}
        sizes="(min-width: 576px) 360px, 90vw"
        width={card.width}
        height={card.height}
        alt=""
        draggable={false}
        loading={first ? 'eager' : 'lazy'}
        fetchPriority={first ? 'high' : undefined}
        decoding="async"
      />
      {/* Hidden by the stylesheet while the card rests: a `style` attribute in the server's HTML would be
          refused by the Content-Security-Policy (decision 015); while dragging React sets it through the DOM. */}
      <span className="swipe-stamp swipe-stamp-like" style={dx > 0 ? { opacity: Math.min(1, dx / 80) } : undefined} aria-hidden="true">
        {likeText}
      </span>
      <span className="swipe-stamp swipe-stamp-nope" style={dx < 0 ? { opacity: Math.min(1, -dx / 80) } : undefined} aria-hidden="true">
        {nopeText}
      </span>
      <div className="swipe-info">
        <h2 className="swipe-name">{card.name}</h2>
        <p className="swipe-place">{agePlace}</p>
        {card.fictional && (
          <span className="badge lander-fictional" title={fictionalWarning} data-fictional>
            {fictionalLabel}
          </span>
        )}
      </div>
    </article>
  );
}
