/**
 * The swipe game's deck (GAME-02): one member card at a time, like or skip by touch (the shared
 * SwipeCardView drag), the arrow keys or the labelled buttons. The server renders the first card inside a
 * POST form whose buttons work without JavaScript (/swipe-game); once hydrated the buttons and swipes call
 * `POST /api/swipe.php` instead and the next card follows without a page load. The fifth like of the day
 * is refused by the server with its 'come back tomorrow' text, which the deck then shows. A like that
 * makes a match opens the 'It's a match!' modal at once (UX-01).
 */
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { api, failureReason, isAuthenticationRequired } from '../../client/api';
import { dispatchLiveEvent } from '../../client/live';
import { createClientTranslator, type Messages } from '../../i18n/client';
import type { SwipeCard, SwipeDecision } from '../tinderswipe/deck';
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

const MAX_SKIPPED = 40;

export default function SwipeGame({ cards, messages, likesLeft, skipped, limitText, fictionalLabel, fictionalWarning, lang }: Props) {
  const t = createClientTranslator(messages, 'games', lang);
  const [index, setIndex] = useState(0);
  const [left, setLeft] = useState(likesLeft);
  const [limit, setLimit] = useState(limitText);
  const [passed, setPassed] = useState(skipped);
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const [said, setSaid] = useState('');
  const deckRef = useRef<HTMLDivElement>(null);
  const card = cards[index];

  useEffect(() => setReady(true), []);

  async function choose(decision: SwipeDecision) {
    if (!card || busy) return;
    setBusy(true);
    try {
      const { data, error, response } = await api.POST('/api/swipe.php', { body: { id: card.id, like: decision === 'like' } });
      if (data) {
        setLeft(data.likes_left);
        setSaid(data.match ? t('swipe.match', { name: card.name }) : t(decision === 'like' ? 'swipe.liked' : 'swipe.skipped', { name: card.name }));
        // UX-01: the match modal opens on the spot, as for a match arriving live (like-modals.ts).
        if (data.match) dispatchLiveEvent({ type: 'match', data: { member: card.id } });
        if (decision === 'nope') setPassed((ids) => [...ids, card.id].slice(-MAX_SKIPPED));
        setIndex((i) => i + 1);
      } else if (response.status === 429 && failureReason(error) === 'swipe_limit_reached') {
        const text = (error as { message?: string }).message ?? t('swipe.error');
        setLimit(text);
        setSaid(text);
      } else if (response.status === 404) {
        // Gone meanwhile (blocked, invisible, deleted): on to the next card.
        setIndex((i) => i + 1);
      } else {
        setSaid(t('swipe.error'));
      }
    } catch (err) {
      if (!isAuthenticationRequired(err)) setSaid(t('swipe.error'));
    } finally {
      setBusy(false);
      deckRef.current?.focus({ preventScroll: true });
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'ArrowRight') void choose('like');
    else if (event.key === 'ArrowLeft') void choose('nope');
    else return;
    event.preventDefault();
  }

  function onButton(decision: SwipeDecision) {
    return (event: MouseEvent<HTMLButtonElement>) => {
      // Hydrated: the API instead of the form post (the form is what works without JavaScript).
      event.preventDefault();
      void choose(decision);
    };
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
          <p id="swipe-help" className="swipe-help">{t('swipe.instructions')}</p>
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
            <button type="submit" name="action" value="pass" className="btn btn-outline-dark swipe-nope" onClick={onButton('nope')} disabled={busy} aria-label={t('swipe.nope_label', { name: card.name })}>
              <span aria-hidden="true">✕ </span>{t('swipe.nope')}
            </button>
            <button type="submit" name="action" value="like" className="btn btn-primary swipe-like" onClick={onButton('like')} disabled={busy} aria-label={t('swipe.like_label', { name: card.name })}>
              <span aria-hidden="true">♥ </span>{t('swipe.like')}
            </button>
          </form>
          <p className="mt-2 mb-0 text-center">
            <a href={`/members/${card.id}`} data-swipe-profile>{t('swipe.view_profile', { name: card.name })}</a>
          </p>
        </>
      ) : (
        <section className="swipe-invite" data-swipe-empty>
          <p>{t('swipe.empty')}</p>
          <a className="btn btn-primary" href={more}>{t('swipe.more')}</a>
        </section>
      )}
      <p className="visually-hidden" aria-live="polite">{said}</p>
    </div>
  );
}
