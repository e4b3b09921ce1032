/**
 * The chat screen (CHT-02, CHT-03, CHT-05, CHT-08, CHT-10, CHT-11): the conversation's messages, older
 * ones on request, new ones live from the stream, the member's own sends shown at once and retried with
 * the same client id, 'typing…' and 'seen', and the composer with its cost. The server renders it whole
 * with a plain POST form, so reading and writing work without JavaScript too. Everything fetched or live
 * is the `$chatRoom` store's (src/stores/chat-room.ts), the balance `$credits`; this island renders them
 * and calls their actions, keeping only what is purely visual: which sheet is open, whether the member
 * scrolled up (the 'newest' button and the count of messages that arrived meanwhile).
 *
 * Issue 25 (docs/decisions/077-chat-screen.md): day separators and groups (`chatTimeline`), delivery marks
 * on the member's own messages, 'typing' as a bubble, gifts, gifs and photos as media, the pickers as
 * sheets, 'not enough credits' as a card with the site's packages, older messages when the list is
 * scrolled to its top, and the screen kept to the visual viewport so the composer stays above a phone's
 * keyboard.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { unpackProps, type PackedProps } from '../../shared/island-props';
import { dateTimeFormat } from '../../shared/intl-formats';
import {
  $chatRoom,
  chatRoomState,
  clearRefusal,
  followChatRoom,
  initChatRoom,
  loadOlder,
  sendDraft,
  sendItem,
  sendMessage,
  sendPhoto,
  setDraft,
  typeDraft,
  type ChatMessageJson,
  type ChatRoomStart,
} from '../../stores/chat-room';
import { arrivedAfter, chatTimeline, lastSeenOwn, type ShownMessage } from '../../stores/chat-state';
import { $credits } from '../../stores/credits';
import ChatSheet from './ChatSheet';
import GifPicker from './GifPicker';
import GiftPicker from './GiftPicker';
import IcebreakerModal from './IcebreakerModal';
import { typedValues } from '../typed-values';
import { Icon } from './icons';

/** A credit package for the 'not enough credits' card, formatted by the server (as /credits shows it). */
export interface ChatPackage {
  id: number;
  credits: string;
  /** The number of credits (for the plural). */
  count: number;
  price: string;
  best: boolean;
}

export interface ChatRoomProps {
  messages: Messages;
  me: { id: number; credits: number; confirmed: boolean };
  partner: { id: number; name: string; fictional: boolean; confirmed: boolean };
  conversation: { id: number | null; seenThrough: number | null };
  history: ChatMessageJson[];
  more: boolean;
  cost: { credits: number; money: string | null; photo: number; gift: number };
  cdnPrefix: string;
  /** Opening lines in the member's language (CHT-07). */
  icebreakers: string[];
  /** Open the gift picker at once (the profile's 'gift' button, `?gift=1`). */
  openGift: boolean;
  maxLength: number;
  fictional: { label: string; warning: string };
  /** A refusal the server form gave (no-JS path), as an error code. */
  refusal: string | null;
  /** The client id for the server form (a resubmitted form is the same send). */
  formClientId: string;
  draft: string;
  /** The page's language and the site's time zone, for the messages' times (src/shared/message-time.ts). */
  when: { lang: string; timeZone: string };
  /**
   * CHT-04: the server found this free member's conversation limit reached and this conversation not
   * started: the notice with the ways forward stands above a disabled composer (the server still refuses a send).
   */
  limitReached: boolean;
  /** The site's credit packages, each linked to its purchase (/credits?package=…), in the 'not enough credits' card. */
  packages: ChatPackage[];
  /** This screen's path: a report made from a message's safety notice comes back here (SAFE-01). */
  here: string;
}

/** Within this many pixels of the bottom the list counts as 'at the newest' (new messages scroll into view). */
const NEAR_BOTTOM_PX = 80;

/** Keeps the chat screen to the visual viewport (above a phone's keyboard): CSS variables the stylesheet reads. */
function pinToVisualViewport(onChange: () => void): () => void {
  const viewport = window.visualViewport;
  if (!viewport) return () => {};
  const root = document.documentElement;
  const apply = () => {
    root.style.setProperty('--chat-vh', `${Math.round(viewport.height)}px`);
    root.style.setProperty('--chat-vv-top', `${Math.round(viewport.offsetTop)}px`);
    onChange();
  };
  apply();
  viewport.addEventListener('resize', apply);
  viewport.addEventListener('scroll', apply);
  return () => {
    viewport.removeEventListener('resize', apply);
    viewport.removeEventListener('scroll', apply);
    root.style.removeProperty('--chat-vh');
    root.style.removeProperty('--chat-vv-top');
  };
}

export default function ChatRoom({ data }: { data: PackedProps<ChatRoomProps> }) {
  const props = useMemo(() => unpackProps(data), [data]);
  const t = createClientTranslator(props.messages, 'chats', props.when.lang);
  const start: ChatRoomStart = useMemo(
    () => ({
      me: props.me.id,
      partner: props.partner.id,
      credits: props.me.credits,
      conversation: props.conversation.id,
      seenThrough: props.conversation.seenThrough,
      history: props.history,
      more: props.more,
      draft: props.draft,
      refusal: props.refusal,
      limitReached: props.limitReached,
    }),
    [props],
  );
  // Until the store is started (the server's render, hydration), the props are the chat.
  const stored = useStore($chatRoom);
  const initial = useMemo(() => chatRoomState(start), [start]);
  const { messages: list, more, conversation: conversationId, seenThrough, typing, draft, refusal, limitReached, loadingOlder } = stored ?? initial;
  const credits = useStore($credits) ?? props.me.credits;
  // Purely visual: which sheet is open, and whether the member reads older messages (scrolled up).
  const [panel, setPanel] = useState<'none' | 'gift' | 'gif' | 'icebreakers'>(props.openGift ? 'gift' : 'none');
  const [scrolledUp, setScrolledUp] = useState(false);
  /** The newest stored message the member had in view: what arrived after it is counted on the 'newest' button. */
  const [readTo, setReadTo] = useState(0);
  const composer = useRef<HTMLFormElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const older = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  /** The scroll height before older messages were added above: the view stays where the member was reading. */
  const heightBeforeOlder = useRef<number | null>(null);

  const newestId = (messages: readonly ShownMessage[]) => messages.reduce((max, m) => (m.state === 'stored' && m.id > max ? m.id : max), 0);
  const toBottom = (smooth = false) => {
    const el = scroller.current;
    if (el) el.scrollTo({ top: el.scrollHeight, behavior: smooth && !matchMedia('(prefers-reduced-motion: reduce)').matches ? 'smooth' : 'auto' });
  };

  useEffect(() => {
    initChatRoom(start);
    // UX-03: a message typed before the island hydrated is in the DOM only: adopt it once.
    const { body } = typedValues(composer.current, { body: props.draft });
    if (body !== undefined) setDraft(body);
    // Only once, right after hydration.
  }, []);

  // Live: messages of this conversation (or the first one of a conversation that starts now), typing, 'seen'.
  useEffect(() => followChatRoom(), [props.me.id, props.partner.id]);

  // The composer stays above a phone's keyboard; the newest message stays in view when it was.
  useEffect(
    () =>
      pinToVisualViewport(() => {
        if (atBottom.current) toBottom();
      }),
    [],
  );

  // A new message (or typing) at the bottom: follow it when the member was there or wrote it; older ones
  // added at the top keep the view where it was.
  const lastKey = list.length > 0 ? `${list[list.length - 1]!.client_id}:${list[list.length - 1]!.state}` : '';
  const lastMine = list.length > 0 && list[list.length - 1]!.sender === props.me.id;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (heightBeforeOlder.current !== null) {
      el.scrollTop += el.scrollHeight - heightBeforeOlder.current;
      heightBeforeOlder.current = null;
      return;
    }
    if (atBottom.current || lastMine) {
      toBottom();
      atBottom.current = true;
      setScrolledUp(false);
      setReadTo(newestId(list));
    }
  }, [lastKey, list.length, typing]);

  // Older messages load when the top of the list comes into view (the button stays for keyboards and as a fallback).
  useEffect(() => {
    const target = older.current;
    const root = scroller.current;
    if (!target || !root || !more || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting) || $chatRoom.get()?.loadingOlder) return;
        heightBeforeOlder.current = root.scrollHeight;
        void loadOlder();
      },
      { root, rootMargin: '200px 0px 0px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [more, loadingOlder]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
    atBottom.current = bottom;
    if (bottom === scrolledUp) setScrolledUp(!bottom);
    if (bottom) setReadTo(newestId(list));
  };

  /** A gift or a gif: the sheet closes, the store sends it. */
  const pick = (kind: 'gift' | 'gif', attachment: string, shownAs: string | null) => {
    setPanel('none');
    sendItem(kind, attachment, shownAs);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    sendDraft();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      e.currentTarget.form?.requestSubmit();
    }
  };

  const seenId = lastSeenOwn(list, props.me.id, seenThrough);
  // Nothing can be sent into a conversation the member may not start.
  const blocked = limitReached && conversationId === null;
  const length = [...draft].length;
  const { lang, timeZone } = props.when;
  const formats = useMemo(() => {
    return {
      time: dateTimeFormat(lang, { timeZone, hour: '2-digit', minute: '2-digit' }),
      date: dateTimeFormat(lang, { timeZone, day: 'numeric', month: 'long', year: 'numeric' }),
    };
  }, [lang, timeZone]);
  const timeline = useMemo(() => chatTimeline(list, timeZone, new Date()), [list, timeZone]);
  const arrived = scrolledUp ? arrivedAfter(list, props.me.id, readTo) : 0;
  const costText = props.cost.money
    ? t('cost_money', { credits: props.cost.credits, money: props.cost.money, count: props.cost.credits })
    : t('cost', { credits: props.cost.credits, count: props.cost.credits });

  const media = (m: ShownMessage, mine: boolean) =>
    m.kind === 'gift' && m.attachment ? (
      <img className="chat-gift" src={`/gifts/${m.attachment}.svg`} width="96" height="96" alt={t(`chat:gift_${m.attachment}`)} />
    ) : m.kind === 'gif' && m.attachment ? (
      <img className="chat-gif" src={m.attachment} alt={t('kind_gif')} loading="lazy" />
    ) : m.kind === 'photo' && m.attachment ? (
      <img className="chat-photo" src={`${props.cdnPrefix}/photos/${m.attachment}`} width="240" height="300" alt={t('photo_from', { name: mine ? t('you') : props.partner.name })} loading="lazy" />
    ) : m.kind === 'photo' ? (
      <span className="chat-photo chat-photo-pending skeleton" role="img" aria-label={t('kind_photo')} />
    ) : null;

  return (
    <div className="chat-room" data-chat-room data-conversation={conversationId ?? ''}>
      <div className="chat-scroll-area">
        <div className="chat-scroller" ref={scroller} onScroll={onScroll} data-chat-scroller>
          {more && (
            <div className="chat-older" ref={older}>
              <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => void loadOlder()} disabled={loadingOlder} data-load-older>
                {t('older')}
              </button>
            </div>
          )}
          <ol className="chat-messages list-unstyled" aria-label={t('messages_label', { name: props.partner.name })} aria-live="polite" data-messages>
            {list.length === 0 && !blocked && <li className="chat-start">{t('start', { name: props.partner.name })}</li>}
            {timeline.map((item) => {
              if (item.type === 'day') {
                const label = item.label === 'date' ? formats.date.format(new Date(item.at)) : t(item.label === 'today' ? 'today' : 'yesterday');
                return (
                  <li key={`d${item.day}`} className="chat-day" data-day={item.day}>
                    <span>{label}</span>
                  </li>
                );
              }
              const m = item.message;
              const mine = m.sender === props.me.id;
              const shown = media(m, mine);
              const seen = mine && m.id !== 0 && m.id === seenId;
              const meta = item.last || m.state !== 'stored' || seen;
              return (
                <li
                  key={m.state === 'stored' ? `m${m.id}` : `c${m.client_id}`}
                  className={`chat-message ${mine ? 'chat-message-own' : 'chat-message-other'}${item.first ? ' chat-message-first' : ''}${item.last ? ' chat-message-last' : ''}`}
                  data-message-id={m.id || undefined}
                  data-client-id={m.client_id}
                  data-state={m.state}
                  data-group-start={item.first ? '' : undefined}
                >
                  {shown ? (
                    <div className={`chat-media chat-media-${m.kind}`}>{shown}</div>
                  ) : (
                    <div className="chat-bubble">
                      {m.kind === 'text' ? (
                        <p className="mb-0 text-pre-wrap">{m.body}</p>
                      ) : (
                        <p className="mb-0 fst-italic">
                          {t(`kind_${m.kind}`)}
                          {m.body ? `: ${m.body}` : ''}
                        </p>
                      )}
                    </div>
                  )}
                  {m.safety_notice && !mine && !props.partner.fictional && (
                    <div className="chat-safety" role="note" data-safety-notice>
                      <Icon name="alert" size={16} />
                      <p>
                        {t('safety_notice')}{' '}
                        <a href={`/members/${props.partner.id}?confirm=report&message=${m.id}&next=${encodeURIComponent(props.here)}`} data-report-open data-report-message={m.id}>
                          {t('safety_report')}
                        </a>
                      </p>
                    </div>
                  )}
                  {meta && (
                    <div className="chat-meta">
                      {m.state === 'stored' && item.last && <time dateTime={m.created_at}>{formats.time.format(new Date(m.created_at))}</time>}
                      {m.state === 'sending' && (
                        <span className="chat-mark" title={t('sending')}>
                          <Icon name="clock" size={14} />
                          <span className="visually-hidden">{t('sending')}</span>
                        </span>
                      )}
                      {m.state === 'failed' && (
                        <span className="chat-failed">
                          <Icon name="alert" size={14} /> {t('failed')}{' '}
                          <button type="button" className="chat-retry" onClick={() => void sendMessage(m)} data-retry>
                            {t('retry')}
                          </button>
                        </span>
                      )}
                      {mine && m.state === 'stored' && !seen && (
                        <span className="chat-mark" title={t('sent')} data-sent>
                          <Icon name="check" size={14} />
                          <span className="visually-hidden">{t('sent')}</span>
                        </span>
                      )}
                      {seen && (
                        <span className="chat-mark chat-mark-seen" data-seen>
                          <Icon name="seen" size={14} />
                          <span>{t('seen')}</span>
                        </span>
                      )}
                    </div>
                  )}
                </li>
              );
            })}
          </ol>
          <div className="chat-message chat-message-other chat-message-first chat-typing" aria-live="polite" data-typing hidden={!typing}>
            <span className="visually-hidden">{typing ? t('typing', { name: props.partner.name }) : ''}</span>
            <span className="chat-bubble chat-typing-dots" aria-hidden="true">
              <i />
              <i />
              <i />
            </span>
          </div>
        </div>
        {scrolledUp && (
          <button type="button" className="chat-jump" onClick={() => toBottom(true)} aria-label={arrived > 0 ? t('newest_count', { count: arrived }) : t('newest')} data-jump-newest>
            <Icon name="down" />
            {arrived > 0 && (
              <span className="chat-jump-count" data-jump-count>
                {arrived > 99 ? '99+' : arrived}
              </span>
            )}
          </button>
        )}
      </div>
      <div className="chat-notices">
        {refusal === 'insufficient_credits' && (
          <div className="chat-credits-card app-card" role="alert" data-chat-alert={refusal}>
            <div className="chat-credits-head">
              <strong>{t('not_enough_title')}</strong>
              <button type="button" className="chat-icon-button" onClick={clearRefusal} data-dismiss-refusal>
                <Icon name="close" size={18} />
                <span className="visually-hidden">{t('chat:close')}</span>
              </button>
            </div>
            <p className="mb-2">
              {t('not_enough_text')} {t('balance', { credits, count: credits })}
            </p>
            {props.packages.length > 0 && (
              <ul className="chat-packages list-unstyled" data-credit-packages>
                {props.packages.map((p) => (
                  <li key={p.id}>
                    <a className={`chat-package${p.best ? ' chat-package-best' : ''}`} href={`/credits?package=${p.id}`} data-package-link={p.id}>
                      <span className="chat-package-credits">{t('package_credits', { credits: p.credits, count: p.count })}</span>
                      <span className="chat-package-price">{p.price}</span>
                      {p.best && <span className="best-value">{t('best_value')}</span>}
                    </a>
                  </li>
                ))}
              </ul>
            )}
            <a className="btn btn-sm btn-link px-0" href="/credits" data-buy-credits>
              {t('buy_credits')}
            </a>
          </div>
        )}
        {refusal && refusal !== 'insufficient_credits' && (
          <div className="alert alert-danger py-2 mb-2" role="alert" data-chat-alert={refusal}>
            <span>{t(`errors:${refusal}`, { name: props.partner.name })}</span>
          </div>
        )}
        {!props.partner.confirmed && (
          <p className="chat-note" data-partner-unconfirmed>
            {t('unconfirmed_partner', { name: props.partner.name })}
          </p>
        )}
        {!props.me.confirmed && (
          <p className="chat-note" data-self-unconfirmed>
            {t('unconfirmed_self')}
          </p>
        )}
        {blocked && (
          <div className="alert alert-warning" role="status" id="chat-limit" data-chat-limit>
            <strong className="d-block">{t('limit_title')}</strong>
            <span>{t('errors:conversation_limit')}</span>
            <div className="d-flex flex-wrap gap-2 mt-2">
              <a className="btn btn-sm btn-primary" href="/premium" data-limit-premium>
                {t('get_premium')}
              </a>
              <a className="btn btn-sm btn-outline-primary" href="/credits" data-limit-credits>
                {t('buy_credits')}
              </a>
            </div>
          </div>
        )}
      </div>
      <ChatSheet title={t('chat:gifts_title')} closeLabel={t('chat:close')} open={panel === 'gift'} onClose={() => setPanel('none')} bodyData="gift-panel">
        <GiftPicker messages={props.messages} lang={props.when.lang} bare onPick={(gift) => pick('gift', gift.id, null)} />
      </ChatSheet>
      <ChatSheet title={t('kind_gif')} closeLabel={t('chat:close')} open={panel === 'gif'} onClose={() => setPanel('none')} bodyData="gif-panel" focus="input">
        <GifPicker messages={props.messages} autoFocus onPick={(gif) => pick('gif', gif.id, gif.url)} />
      </ChatSheet>
      <IcebreakerModal
        messages={props.messages}
        lines={props.icebreakers}
        open={panel === 'icebreakers'}
        onPick={(text) => {
          setDraft(text);
          setPanel('none');
        }}
        onClose={() => setPanel('none')}
      />
      <form ref={composer} className="chat-composer" method="post" onSubmit={submit} data-composer>
        <input type="hidden" name="to" value={props.partner.id} />
        <input type="hidden" name="client_id" value={props.formClientId} />
        <div className="chat-extras" role="group" aria-label={t('extras')}>
          <button
            type="button"
            className="chip chat-extra"
            aria-haspopup="dialog"
            title={t('send_gift', { credits: props.cost.gift, count: props.cost.gift })}
            onClick={() => setPanel('gift')}
            disabled={blocked}
            data-open-gifts
          >
            <Icon name="gift" size={18} /> <span className="chat-extra-label">{t('kind_gift')}</span>
            <span className="visually-hidden"> {t('send_gift', { credits: props.cost.gift, count: props.cost.gift })}</span>
          </button>
          <button type="button" className="chip chat-extra" aria-haspopup="dialog" onClick={() => setPanel('gif')} disabled={blocked} data-open-gifs>
            <Icon name="gif" size={18} /> <span className="chat-extra-label">{t('kind_gif')}</span>
          </button>
          <button type="button" className="chip chat-extra" aria-haspopup="dialog" onClick={() => setPanel('icebreakers')} disabled={blocked} data-open-icebreakers>
            <Icon name="spark" size={18} /> <span className="chat-extra-label">{t('icebreakers')}</span>
          </button>
        </div>
        <label className="visually-hidden" htmlFor="chat-body">
          {t('write_label', { name: props.partner.name })}
        </label>
        <div className="chat-compose-row">
          <label className={`chat-icon-button chat-photo-button${blocked ? ' disabled' : ''}`} title={t('send_photo_cost', { credits: props.cost.photo, count: props.cost.photo })}>
            <span className="visually-hidden">{t('send_photo')}</span>
            <Icon name="camera" size={22} />
            <input
              type="file"
              className="visually-hidden"
              accept="image/jpeg,image/png,image/webp"
              disabled={blocked}
              data-photo-input
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                e.currentTarget.value = '';
                if (file) void sendPhoto(file);
              }}
            />
          </label>
          <textarea
            id="chat-body"
            name="body"
            className="form-control chat-input"
            rows={1}
            maxLength={props.maxLength * 2}
            value={draft}
            onChange={(e) => typeDraft(e.currentTarget.value)}
            onKeyDown={onKeyDown}
            placeholder={t('placeholder')}
            disabled={blocked}
            aria-describedby={blocked ? 'chat-limit chat-cost' : 'chat-cost'}
          />
          <button type="submit" className="chat-send" disabled={blocked} aria-label={t('send')} title={t('send')} data-send>
            <Icon name="send" size={22} />
          </button>
        </div>
        <p className="chat-cost" data-cost>
          <span aria-hidden="true">
            {t('cost_short', { credits: props.cost.credits, count: props.cost.credits })} · {t('balance_short', { credits })}
          </span>
          <span id="chat-cost" className="visually-hidden">
            {costText} · {t('balance', { credits, count: credits })}
          </span>
          {length > props.maxLength && <span className="text-danger ms-2">{t('too_long', { max: props.maxLength, count: props.maxLength })}</span>}
        </p>
      </form>
    </div>
  );
}
