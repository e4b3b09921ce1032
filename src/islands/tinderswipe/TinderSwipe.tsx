/**
 * The tinderswipe lander's deck (LND-01): swipe member cards by touch or mouse (pointer events), by the
 * arrow keys or by the labelled buttons; after a few swipes it invites the visitor to sign up. Plain
 * React, no library; the card and its drag are SwipeCardView (shared with the swipe game, GAME-02); the
 * server renders the first card so the page means something before hydration.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { ISLAND_READY_EVENT } from '../../shared/island-ready';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { decide, initialDeck, keepSwiping, type SwipeCard, type SwipeDecision } from './deck';
import SwipeCardView from './SwipeCardView';

// The swipe game (GAME-02) takes the card from here, so the lander's deck stays one file (no shared chunk to load).
export { SwipeCardView };

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
  const [ready, setReady] = useState(false);
  const [said, setSaid] = useState('');
  const rootRef = useRef<HTMLDivElement>(null);
  const deckRef = useRef<HTMLDivElement>(null);
  const inviteRef = useRef<HTMLElement>(null);
  const movedFocus = useRef(false);
  const card = cards[deck.index];

  useEffect(() => {
    // The hydration flag: true once the handlers are attached, so the buttons take presses (decision 048).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setReady(true);
    // client:interaction (decision 048): a like/nope press made before this point is played again now.
    rootRef.current?.dispatchEvent(new Event(ISLAND_READY_EVENT, { bubbles: true }));
  }, []);
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
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'ArrowRight') choose('like');
    else if (event.key === 'ArrowLeft') choose('nope');
    else return;
    event.preventDefault();
  }

  const remaining = deck.index < cards.length;
  return (
    <div ref={rootRef} className="swipe" data-swipe data-swipe-ready={ready ? 'true' : undefined}>
      <p id="swipe-help" className="swipe-help">
        {t('swipe.instructions')}
      </p>
      {card && !deck.inviting ? (
        <>
          <div ref={deckRef} className="swipe-deck" role="group" aria-label={t('swipe.deck_label')} aria-describedby="swipe-help" tabIndex={0} onKeyDown={onKeyDown} data-swipe-deck>
            <SwipeCardView
              key={card.id}
              card={card}
              first={deck.index === 0}
              likeText={t('swipe.like')}
              nopeText={t('swipe.nope')}
              agePlace={t('swipe.age_place', { age: card.age, place: card.place })}
              fictionalLabel={fictionalLabel}
              fictionalWarning={fictionalWarning}
              onDecide={choose}
            />
          </div>
          <div className="swipe-actions">
            <button type="button" className="btn btn-outline-dark swipe-nope" onClick={() => choose('nope')} aria-label={t('swipe.nope_label', { name: card.name })}>
              <span aria-hidden="true">✕ </span>
              {t('swipe.nope')}
            </button>
            <button type="button" className="btn btn-primary swipe-like" onClick={() => choose('like')} aria-label={t('swipe.like_label', { name: card.name })}>
              <span aria-hidden="true">♥ </span>
              {t('swipe.like')}
            </button>
          </div>
        </>
      ) : (
        <section ref={inviteRef} className="swipe-invite" tabIndex={-1} aria-labelledby="swipe-invite-title" data-swipe-invite>
          <h2 id="swipe-invite-title" className="h4">
            {t('swipe.invite_title')}
          </h2>
          <p>{t('swipe.invite_text')}</p>
          <p className="lander-disclosure" data-fictional-warning>
            <span className="badge lander-fictional">{fictionalLabel}</span> {fictionalWarning}
          </p>
          <a className="btn btn-primary btn-lg lander-cta-button" href={signupHref} data-signup-entry>
            {t('swipe.cta')}
          </a>
          {remaining && (
            <p className="mt-2 mb-0">
              <button
                type="button"
                className="btn btn-link"
                onClick={() => {
                  movedFocus.current = true;
                  setDeck((state) => keepSwiping(state, cards.length));
                }}
              >
                {t('swipe.again')}
              </button>
            </p>
          )}
        </section>
      )}
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
    </div>
  );
}
