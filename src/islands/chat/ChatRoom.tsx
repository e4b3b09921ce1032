/**
 * The chat screen (CHT-02, CHT-03, CHT-05, CHT-08, CHT-10, CHT-11): the conversation's messages, older
 * ones on request, new ones live from the stream, the member's own sends shown at once and retried with
 * the same client id, 'typing…' and 'seen', and the composer with its cost. The server renders it whole
 * with a plain POST form, so reading and writing work without JavaScript too. Everything fetched or live
 * is the `$chatRoom` store's (src/stores/chat-room.ts), the balance `$credits`; this island renders them
 * and calls their actions, keeping only which picker is open.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { unpackProps, type PackedProps } from '../../shared/island-props';
import { messageTimeFormat } from '../../shared/message-time';
import {
  $chatRoom,
  chatRoomState,
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
import { lastSeenOwn } from '../../stores/chat-state';
import { $credits } from '../../stores/credits';
import GifPicker from './GifPicker';
import GiftPicker from './GiftPicker';
import IcebreakerModal from './IcebreakerModal';
import { typedValues } from '../typed-values';

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
  // Purely visual: which picker is open.
  const [panel, setPanel] = useState<'none' | 'gift' | 'gif'>(props.openGift ? 'gift' : 'none');
  const [icebreakerOpen, setIcebreakerOpen] = useState(false);
  const composer = useRef<HTMLFormElement>(null);
  const listEnd = useRef<HTMLDivElement>(null);

  useEffect(() => {
    initChatRoom(start);
    // UX-03: a message typed before the island hydrated is in the DOM only: adopt it once.
    const { body } = typedValues(composer.current, { body: props.draft });
    if (body !== undefined) setDraft(body);
    // Only once, right after hydration.
  }, []);

  // Live: messages of this conversation (or the first one of a conversation that starts now), typing, 'seen'.
  useEffect(() => followChatRoom(), [props.me.id, props.partner.id]);

  useEffect(() => {
    listEnd.current?.scrollIntoView({ block: 'end' });
  }, [list.length]);

  /** A gift or a gif: the picker closes, the store sends it. */
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
  const time = useMemo(() => messageTimeFormat(props.when.lang, props.when.timeZone, new Date()), [props.when.lang, props.when.timeZone]);

  return (
    <div className="chat-room" data-chat-room data-conversation={conversationId ?? ''}>
      {more && (
        <div className="text-center my-2">
          <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => void loadOlder()} disabled={loadingOlder} data-load-older>
            {t('older')}
          </button>
        </div>
      )}
      <ol className="chat-messages list-unstyled" aria-label={t('messages_label', { name: props.partner.name })} aria-live="polite" data-messages>
        {list.length === 0 && !blocked && <li className="text-body-secondary text-center my-4">{t('start', { name: props.partner.name })}</li>}
        {list.map((m) => {
          const mine = m.sender === props.me.id;
          return (
            <li
              key={m.state === 'stored' ? `m${m.id}` : `c${m.client_id}`}
              className={`chat-message ${mine ? 'chat-message-own' : 'chat-message-other'}`}
              data-message-id={m.id || undefined}
              data-client-id={m.client_id}
              data-state={m.state}
            >
              <div className="chat-bubble">
                {m.kind === 'text' ? (
                  <p className="mb-0 text-pre-wrap">{m.body}</p>
                ) : m.kind === 'gift' && m.attachment ? (
                  <img className="chat-gift" src={`/gifts/${m.attachment}.svg`} width="96" height="96" alt={t(`chat:gift_${m.attachment}`)} />
                ) : m.kind === 'gif' && m.attachment ? (
                  <img className="chat-gif" src={m.attachment} alt={t('kind_gif')} loading="lazy" />
                ) : m.kind === 'photo' && m.attachment ? (
                  <img
                    className="chat-photo"
                    src={`${props.cdnPrefix}/photos/${m.attachment}`}
                    width="240"
                    height="300"
                    alt={t('photo_from', { name: mine ? t('you') : props.partner.name })}
                    loading="lazy"
                  />
                ) : (
                  <p className="mb-0 fst-italic">
                    {t(`kind_${m.kind}`)}
                    {m.body ? `: ${m.body}` : ''}
                  </p>
                )}
              </div>
              <div className="chat-meta small text-body-secondary">
                {m.state === 'stored' && <time dateTime={m.created_at}>{time(m.created_at)}</time>}
                {m.state === 'sending' && <span>{t('sending')}</span>}
                {m.state === 'failed' && (
                  <span className="text-danger">
                    {t('failed')}{' '}
                    <button type="button" className="btn btn-link btn-sm p-0 align-baseline" onClick={() => void sendMessage(m)} data-retry>
                      {t('retry')}
                    </button>
                  </span>
                )}
                {m.id !== 0 && m.id === seenId && (
                  <span className="ms-2" data-seen>
                    {t('seen')}
                  </span>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <div ref={listEnd} />
      <p className="chat-typing small text-body-secondary" aria-live="polite" data-typing hidden={!typing}>
        {typing ? t('typing', { name: props.partner.name }) : ''}
      </p>
      {refusal && (
        <div className={`alert ${refusal === 'insufficient_credits' ? 'alert-warning' : 'alert-danger'}`} role="alert" data-chat-alert={refusal}>
          {refusal === 'insufficient_credits' ? (
            <>
              <strong className="d-block">{t('not_enough_title')}</strong>
              <span>{t('not_enough_text')}</span>{' '}
              <a className="btn btn-sm btn-primary ms-1" href="/credits" data-buy-credits>
                {t('buy_credits')}
              </a>
            </>
          ) : (
            <span>{t(`errors:${refusal}`, { name: props.partner.name })}</span>
          )}
        </div>
      )}
      {!props.partner.confirmed && (
        <p className="small text-body-secondary" data-partner-unconfirmed>
          {t('unconfirmed_partner', { name: props.partner.name })}
        </p>
      )}
      {!props.me.confirmed && (
        <p className="small text-body-secondary" data-self-unconfirmed>
          {t('unconfirmed_self')}
        </p>
      )}
      {panel === 'gift' && (
        <div className="chat-panel border rounded p-2 mb-2" data-gift-panel>
          <GiftPicker messages={props.messages} lang={props.when.lang} onPick={(gift) => pick('gift', gift.id, null)} />
        </div>
      )}
      {panel === 'gif' && (
        <div className="chat-panel border rounded p-2 mb-2" data-gif-panel>
          <GifPicker messages={props.messages} autoFocus onPick={(gif) => pick('gif', gif.id, gif.url)} />
        </div>
      )}
      <IcebreakerModal
        messages={props.messages}
        lines={props.icebreakers}
        open={icebreakerOpen}
        onPick={(text) => {
          setDraft(text);
          setIcebreakerOpen(false);
        }}
        onClose={() => setIcebreakerOpen(false)}
      />
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
      <div className="d-flex flex-wrap gap-2 mb-2" role="group" aria-label={t('extras')}>
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          aria-expanded={panel === 'gift'}
          onClick={() => setPanel(panel === 'gift' ? 'none' : 'gift')}
          disabled={blocked}
          data-open-gifts
        >
          🎁 {t('send_gift', { credits: props.cost.gift, count: props.cost.gift })}
        </button>
        <button type="button" className="btn btn-sm btn-outline-secondary" aria-expanded={panel === 'gif'} onClick={() => setPanel(panel === 'gif' ? 'none' : 'gif')} disabled={blocked} data-open-gifs>
          GIF
        </button>
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setIcebreakerOpen(true)} disabled={blocked} data-open-icebreakers>
          💬 {t('icebreakers')}
        </button>
      </div>
      <form ref={composer} className="chat-composer" method="post" onSubmit={submit} data-composer>
        <input type="hidden" name="to" value={props.partner.id} />
        <input type="hidden" name="client_id" value={props.formClientId} />
        <label className="visually-hidden" htmlFor="chat-body">
          {t('write_label', { name: props.partner.name })}
        </label>
        <div className="d-flex gap-2 align-items-end">
          <textarea
            id="chat-body"
            name="body"
            className="form-control"
            rows={2}
            maxLength={props.maxLength * 2}
            value={draft}
            onChange={(e) => typeDraft(e.currentTarget.value)}
            onKeyDown={onKeyDown}
            placeholder={t('placeholder')}
            disabled={blocked}
            aria-describedby={blocked ? 'chat-limit chat-cost' : 'chat-cost'}
          />
          <label className={`btn btn-outline-secondary mb-0${blocked ? ' disabled' : ''}`} title={t('send_photo_cost', { credits: props.cost.photo, count: props.cost.photo })}>
            <span className="visually-hidden">{t('send_photo')}</span>
            <span aria-hidden="true">📷</span>
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
          <button type="submit" className="btn btn-primary" disabled={blocked} data-send>
            {t('send')}
          </button>
        </div>
        <p id="chat-cost" className="small text-body-secondary mt-1 mb-0" data-cost>
          {props.cost.money
            ? t('cost_money', { credits: props.cost.credits, money: props.cost.money, count: props.cost.credits })
            : t('cost', { credits: props.cost.credits, count: props.cost.credits })}{' '}
          · {t('balance', { credits, count: credits })}
          {length > props.maxLength && <span className="text-danger ms-2">{t('too_long', { max: props.maxLength, count: props.maxLength })}</span>}
        </p>
      </form>
    </div>
  );
}
