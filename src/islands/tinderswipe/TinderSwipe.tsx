/**
 * The tinderswipe lander's deck (LND-01): swipe member cards by touch or mouse (pointer events), by the
 * arrow keys or by the labelled buttons; after a few swipes it invites the visitor to sign up. Plain
 * React, no library; the server renders the first card so the page means something before hydration.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { decide, initialDeck, keepSwiping, swipeDecision, type SwipeCard, type SwipeDecision } from './deck';

interface Props {
  cards: SwipeCard[];
  /** `landers.swipe` texts only (see the page). */
  messages: Messages;
  /** The signup page, or the invitation panel on an invite-only site. */
  signupHref: string;
  fictionalLabel: string;
  fictionalWarning: string;
}

export default function TinderSwipe({ cards, messages, signupHref, fictionalLabel, fictionalWarning }: Props) {
  const t = createClientTranslator(messages, 'landers');
  const [deck, setDeck] = useState(initialDeck);
  const [dx, setDx] = useState(0);
  const [ready, setReady] = useState(false);
  const [said, setSaid] = useState('');
  const drag = useRef<{ pointerId: number; x: number } | null>(null);
  const deckRef = useRef<HTMLDivElement>(null);
  const inviteRef = useRef<HTMLElement>(null);
  const movedFocus = useRef(false);
  const card = cards[deck.index];

  useEffect(() => setReady(true), []);
  useEffect(() => {
    // Keep keyboard users where the action is: the invitation when it opens, the deck when it returns.
    if (!movedFocus.current) return;
    (deck.inviting ? inviteRef.current : deckRef.current)?.focus();
  }, [deck.inviting]);

  function choose(decision: SwipeDecision) {
    if (!card || deck.inviting) return;
    movedFocus.current = document.activeElement !== document.body;
    setSaid(t(decision === 'like' ? 'swipe.liked' : 'swipe.skipped', { name: card.name }));
    setDeck((state) => decide(state, decision, cards.length));
    setDx(0);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'ArrowRight') choose('like');
    else if (event.key === 'ArrowLeft') choose('nope');
    else return;
    event.preventDefault();
  }

  function onPointerDown(event: PointerEvent<HTMLElement>) {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
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
    if (decision) choose(decision);
    else setDx(0);
  }
  function onPointerCancel() {
    drag.current = null;
    setDx(0);
  }

  const remaining = deck.index < cards.length;
  const tilt = Math.max(-15, Math.min(15, dx / 12));
  return (
    <div className="swipe" data-swipe data-swipe-ready={ready ? 'true' : undefined}>
      <p id="swipe-help" className="swipe-help">{t('swipe.instructions')}</p>
      {card && !deck.inviting ? (
        <>
          <div
            ref={deckRef}
            className="swipe-deck"
            role="group"
            aria-label={t('swipe.deck_label')}
            aria-describedby="swipe-help"
            tabIndex={0}
            onKeyDown={onKeyDown}
            data-swipe-deck
          >
            <article
              key={card.id}
              // The first card is the page's largest paint: it appears at once; the next ones slide in.
              className={`swipe-card${deck.index > 0 ? ' swipe-card-next' : ''}${dx === 0 ? '' : ' swipe-card-dragging'}`}
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
                loading={deck.index === 0 ? 'eager' : 'lazy'}
                fetchPriority={deck.index === 0 ? 'high' : undefined}
                decoding="async"
              />
              {/* Hidden by the stylesheet while the card rests: a `style` attribute in the server's HTML would be
                  refused by the Content-Security-Policy (decision 015); while dragging React sets it through the DOM. */}
              <span className="swipe-stamp swipe-stamp-like" style={dx > 0 ? { opacity: Math.min(1, dx / 80) } : undefined} aria-hidden="true">{t('swipe.like')}</span>
              <span className="swipe-stamp swipe-stamp-nope" style={dx < 0 ? { opacity: Math.min(1, -dx / 80) } : undefined} aria-hidden="true">{t('swipe.nope')}</span>
              <div className="swipe-info">
                <h2 className="swipe-name">{card.name}</h2>
                <p className="swipe-place">{t('swipe.age_place', { age: card.age, place: card.place })}</p>
                {card.fictional && <span className="badge lander-fictional" title={fictionalWarning} data-fictional>{fictionalLabel}</span>}
              </div>
            </article>
          </div>
          <div className="swipe-actions">
            <button type="button" className="btn btn-outline-dark swipe-nope" onClick={() => choose('nope')} aria-label={t('swipe.nope_label', { name: card.name })}>
              <span aria-hidden="true">✕ </span>{t('swipe.nope')}
            </button>
            <button type="button" className="btn btn-primary swipe-like" onClick={() => choose('like')} aria-label={t('swipe.like_label', { name: card.name })}>
              <span aria-hidden="true">♥ </span>{t('swipe.like')}
            </button>
          </div>
        </>
      ) : (
        <section ref={inviteRef} className="swipe-invite" tabIndex={-1} aria-labelledby="swipe-invite-title" data-swipe-invite>
          <h2 id="swipe-invite-title" className="h4">{t('swipe.invite_title')}</h2>
          <p>{t('swipe.invite_text')}</p>
          <p className="lander-disclosure" data-fictional-warning>
            <span className="badge lander-fictional">{fictionalLabel}</span> {fictionalWarning}
          </p>
          <a className="btn btn-primary btn-lg lander-cta-button" href={signupHref} data-signup-entry>{t('swipe.cta')}</a>
          {remaining && (
            <p className="mt-2 mb-0">
              <button type="button" className="btn btn-link" onClick={() => { movedFocus.current = true; setDeck((state) => keepSwiping(state, cards.length)); }}>{t('swipe.again')}</button>
            </p>
          )}
        </section>
      )}
      <p className="visually-hidden" aria-live="polite">{said}</p>
    </div>
  );
}
