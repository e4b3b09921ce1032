/**
 * The swipe game's deck (GAME-02): one member card at a time, like or skip by touch (the shared
 * SwipeCardView drag), the arrow keys or the labelled buttons. The server renders the first card inside a
 * POST form whose buttons work without JavaScript (/swipe-game); once hydrated the buttons and swipes call
 * `POST /api/swipe.php` (the `$swipe` store's {@link chooseCard}) instead and the next card follows
 * without a page load. The fifth like of the day
 * is refused by the server with its 'come back tomorrow' text, which the deck then shows. A like that
 * makes a match opens the 'It's a match!' modal at once (UX-01).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { $swipe, chooseCard, initSwipe, swipeState, type SwipeCard, type SwipeDecision, type SwipeOutcome } from '../../stores/swipe';
import { SwipeCardView } from '../tinderswipe/TinderSwipe';

interface Props {
  cards: SwipeCard[];
  /** `games.swipe` texts only (see the page). */
  messages: Messages;
  likesLeft: number;
  /** Ids skipped so far (no-JS passes), carried on by the form and the 'more' link. */
  skipped: number[];
  /** The server's 'come back tomorrow' text when today's likes are used up, else null. */
  limitText: string | null;
  fictionalLabel: string;
  fictionalWarning: string;
  /** The page's language, for the plural rules of its counted texts (UX-05). */
  lang: string;
}

export default function SwipeGame({ cards, messages, likesLeft, skipped, limitText, fictionalLabel, fictionalWarning, lang }: Props) {
  const t = createClientTranslator(messages, 'games', lang);
  // Until the store is started (the server's render, hydration), the props are the deck.
  const stored = useStore($swipe);
  const initial = useMemo(() => swipeState({ cards, likesLeft, skipped, limitText }), [cards, likesLeft, skipped, limitText]);
  const { cards: deck, index, likesLeft: left, limited, limitText: limitSaid, skipped: passed, busy, outcome } = stored ?? initial;
  const [ready, setReady] = useState(false);
  const deckRef = useRef<HTMLDivElement>(null);
  const card = deck[index];
  const limit = limited ? (limitSaid ?? t('swipe.error')) : null;

  useEffect(() => {
    initSwipe({ cards, likesLeft, skipped, limitText });
    // The hydration flag: true once the handlers are attached, so the buttons take clicks (decision 048).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setReady(true);
  }, []);

  async function choose(decision: SwipeDecision) {
    if (await chooseCard(decision)) deckRef.current?.focus({ preventScroll: true });
  }

  /** The line the screen reader hears after a choice. */
  function saying(said: SwipeOutcome): string {
    if (said === null) return '';
    if (said.type === 'match') return t('swipe.match', { name: said.name });
    if (said.type === 'liked' || said.type === 'skipped') return t(`swipe.${said.type}`, { name: said.name });
    if (said.type === 'limit') return limit ?? '';
    return t('swipe.error');
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'ArrowRight') void choose('like');
    else if (event.key === 'ArrowLeft') void choose('nope');
    else return;
    event.preventDefault();
  }

  function onButton(decision: SwipeDecision, event: MouseEvent<HTMLButtonElement>) {
    // Hydrated: the API instead of the form post (the form is what works without JavaScript).
    event.preventDefault();
    void choose(decision);
  }

  const more = passed.length > 0 ? `/swipe-game?skip=${passed.join(',')}` : '/swipe-game';
  return (
    <div className="swipe swipe-game" data-swipe-game data-swipe-ready={ready ? 'true' : undefined}>
      {limit !== null && (
        <div className="alert alert-info" role="status" data-swipe-limit>
          {limit}
        </div>
      )}
      {limit === null && (
        <p className="small text-body-secondary mb-2" data-likes-left={left}>
          {t('swipe.likes_left', { count: left })}
        </p>
      )}
      {card ? (
        <>
          <p id="swipe-help" className="swipe-help">
            {t('swipe.instructions')}
          </p>
          <div ref={deckRef} className="swipe-deck" role="group" aria-label={t('swipe.deck_label')} aria-describedby="swipe-help" tabIndex={0} onKeyDown={onKeyDown} data-swipe-deck>
            <SwipeCardView
              key={card.id}
              card={card}
              first={index === 0}
              likeText={t('swipe.like')}
              nopeText={t('swipe.nope')}
              agePlace={t('swipe.age_place', { age: card.age, place: card.place })}
              fictionalLabel={fictionalLabel}
              fictionalWarning={fictionalWarning}
              onDecide={(decision) => void choose(decision)}
            />
          </div>
          <form method="post" action="/swipe-game" className="swipe-actions" data-swipe-form>
            <input type="hidden" name="id" value={card.id} />
            <input type="hidden" name="skip" value={passed.join(',')} />
            <button
              type="submit"
              name="action"
              value="pass"
              className="btn btn-outline-dark swipe-nope"
              onClick={(event) => onButton('nope', event)}
              disabled={busy}
              aria-label={t('swipe.nope_label', { name: card.name })}
            >
              <svg className="swipe-action-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path fill="currentColor" d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6 10.6 12 5 6.4z" />
              </svg>
              {t('swipe.nope')}
            </button>
            <button
              type="submit"
              name="action"
              value="like"
              className="btn btn-primary swipe-like"
              onClick={(event) => onButton('like', event)}
              disabled={busy}
              aria-label={t('swipe.like_label', { name: card.name })}
            >
              <svg className="swipe-action-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path fill="currentColor" d="M12 21s-8-5.2-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 10c0 5.8-8 11-8 11z" />
              </svg>
              {t('swipe.like')}
            </button>
          </form>
          <p className="mt-2 mb-0 text-center">
            <a href={`/members/${card.id}`} data-swipe-profile>
              {t('swipe.view_profile', { name: card.name })}
            </a>
          </p>
        </>
      ) : (
        <section className="swipe-invite empty-state" data-swipe-empty>
          <svg className="empty-state-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M10.5 3a7.5 7.5 0 0 1 5.96 12.05l4.25 4.24-1.42 1.42-4.24-4.25A7.5 7.5 0 1 1 10.5 3zm0 2a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11z" />
          </svg>
          <p>{t('swipe.empty')}</p>
          <a className="btn btn-primary" href={more}>
            {t('swipe.more')}
          </a>
        </section>
      )}
      <p className="visually-hidden" aria-live="polite">
        {saying(outcome)}
      </p>
    </div>
  );
}
