/**
 * The chat screen (CHT-02, CHT-03, CHT-05, CHT-08, CHT-10, CHT-11): the conversation's messages, older
 * ones on request, new ones live from the stream, the member's own sends shown at once and retried with
 * the same client id, 'typing…' and 'seen', and the composer with its cost. The server renders it whole
 * with a plain POST form, so reading and writing work without JavaScript too.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { api, failureReason } from '../../client/api';
import { onLiveEvent } from '../../client/live';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { unpackProps, type PackedProps } from '../../shared/island-props';
import { messageTimeFormat } from '../../shared/message-time';
import type { paths } from '../../shared/api-types';
import type { ChatPhotoAnswer, ChatPhotoFields } from '../../shared/api/chat-photo';
import GifPicker from './GifPicker';
import GiftPicker from './GiftPicker';
import IcebreakerModal from './IcebreakerModal';
import { typedValues } from '../typed-values';
import { addPending, dropPending, lastSeenOwn, mergeStored, newClientId, setPendingState, type ChatMessageJson, type ShownMessage } from './chat-state';

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

const TYPING_SHOWN_MS = 5000;
const TYPING_SEND_EVERY_MS = 3000;

export default function ChatRoom({ data }: { data: PackedProps<ChatRoomProps> }) {
  const props = useMemo(() => unpackProps(data), [data]);
  const t = createClientTranslator(props.messages, 'chats', props.when.lang);
  const [list, setList] = useState<ShownMessage[]>(() => props.history.map((m) => ({ ...m, state: 'stored' as const })));
  const [more, setMore] = useState(props.more);
  const [conversationId, setConversationId] = useState(props.conversation.id);
  const [seenThrough, setSeenThrough] = useState(props.conversation.seenThrough);
  const [typingUntil, setTypingUntil] = useState(0);
  const [now, setNow] = useState(0);
  const [draft, setDraft] = useState(props.draft);
  const [credits, setCredits] = useState(props.me.credits);
  const [refusal, setRefusal] = useState<string | null>(props.refusal === 'conversation_limit' ? null : props.refusal);
  const [limitReached, setLimitReached] = useState(props.limitReached || props.refusal === 'conversation_limit');
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [panel, setPanel] = useState<'none' | 'gift' | 'gif'>(props.openGift ? 'gift' : 'none');
  const [icebreakerOpen, setIcebreakerOpen] = useState(false);
  const lastTypingSent = useRef(0);
  const composer = useRef<HTMLFormElement>(null);
  const listEnd = useRef<HTMLDivElement>(null);
  const conversationRef = useRef(conversationId);
  conversationRef.current = conversationId;

  // Live: messages of this conversation (or the first one of a conversation that starts now), typing, 'seen'.
  useEffect(
    () =>
      onLiveEvent((event) => {
        const d = event.data as Record<string, number>;
        if (event.type === 'message') {
          const m = event.data as unknown as ChatMessageJson;
          const mine = m.sender === props.me.id;
          const ours = conversationRef.current === null ? (mine ? m.recipient : m.sender) === props.partner.id : m.conversation === conversationRef.current;
          if (!ours) return;
          if (conversationRef.current === null) setConversationId(m.conversation);
          setList((l) => mergeStored(l, [m]));
          if (!mine) {
            setTypingUntil(0);
            if (document.visibilityState === 'visible') void api.PUT('/api/chat.php', { body: { conversation: m.conversation } }).catch(() => {});
          }
        } else if (event.type === 'typing' && d.conversation === conversationRef.current && d.member === props.partner.id) {
          setTypingUntil(Date.now() + TYPING_SHOWN_MS);
        } else if (event.type === 'read' && d.conversation === conversationRef.current && d.reader === props.partner.id) {
          setSeenThrough((s) => Math.max(s ?? 0, d.through ?? 0));
        }
      }),
    [props.me.id, props.partner.id],
  );

  // UX-03: a message typed before the island hydrated is in the DOM only: adopt it once.
  useEffect(() => {
    const { body } = typedValues(composer.current, { body: props.draft });
    if (body !== undefined) setDraft(body);
    // Only once, right after hydration.
  }, []);

  // The typing line goes away by itself.
  useEffect(() => {
    if (typingUntil <= Date.now()) return;
    const timer = setTimeout(() => setNow(Date.now()), typingUntil - Date.now() + 10);
    return () => clearTimeout(timer);
  }, [typingUntil]);

  useEffect(() => {
    listEnd.current?.scrollIntoView({ block: 'end' });
  }, [list.length]);

  const send = async (message: ShownMessage) => {
    setList((l) => setPendingState(l, message.client_id, 'sending'));
    try {
      const { data: answer, error } = await api.POST('/api/chat.php', { body: { to: props.partner.id, client_id: message.client_id, kind: message.kind, body: message.body, attachment: message.attachment } });
      if (answer) {
        setList((l) => mergeStored(l, [answer.message]));
        setCredits(answer.balance);
        setConversationId(answer.message.conversation);
        return;
      }
      const reason = failureReason(error);
      setList((l) => dropPending(l, message.client_id));
      // The limit was reached meanwhile (another tab): the notice and its ways forward take over.
      if (reason === 'conversation_limit') setLimitReached(true);
      else setRefusal(reason);
      if (reason === 'insufficient_credits' || reason === 'conversation_limit' || reason === 'recipient_unconfirmed') setDraft(message.body);
    } catch {
      // No answer after the client's retries: keep it, marked, to send again with the same client id.
      setList((l) => setPendingState(l, message.client_id, 'failed', 'network'));
    }
  };

  /** A gift or a gif: shown at once, sent with its own client id like a text. */
  const sendItem = (kind: 'gift' | 'gif', attachment: string, shownAs: string | null) => {
    setRefusal(null);
    setPanel('none');
    const clientId = newClientId();
    const pending = { conversation: conversationId ?? 0, sender: props.me.id, recipient: props.partner.id, kind, body: '', attachment: shownAs ?? attachment, client_id: clientId, created_at: new Date().toISOString() };
    setList((l) => addPending(l, pending));
    void send({ ...pending, attachment, id: 0, credits: 0, state: 'sending' });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = draft;
    if (body.trim() === '') {
      setRefusal('message_empty');
      return;
    }
    setRefusal(null);
    const clientId = newClientId();
    const pending = { conversation: conversationId ?? 0, sender: props.me.id, recipient: props.partner.id, kind: 'text' as const, body, attachment: null, client_id: clientId, created_at: new Date().toISOString() };
    setList((l) => addPending(l, pending));
    setDraft('');
    // The message ends the other side's 'typing…' (they clear it when it arrives): the next keystroke announces it again.
    lastTypingSent.current = 0;
    void send({ ...pending, id: 0, credits: 0, state: 'sending' });
  };

  const sendPhoto = async (file: File) => {
    setRefusal(null);
    const clientId = newClientId();
    const pending = { conversation: conversationId ?? 0, sender: props.me.id, recipient: props.partner.id, kind: 'photo' as const, body: '', attachment: null, client_id: clientId, created_at: new Date().toISOString() };
    setList((l) => addPending(l, pending));
    const fields: ChatPhotoFields = { to: String(props.partner.id), client_id: clientId };
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    form.set('photo', file);
    try {
      const res = await fetch('/api/chat-photo.php' satisfies keyof paths, { method: 'POST', body: form, credentials: 'same-origin' });
      const answer = (await res.json().catch(() => null)) as (Partial<ChatPhotoAnswer> & { error?: string }) | null;
      if (res.ok && answer?.message) {
        setList((l) => mergeStored(l, [answer.message!]));
        if (typeof answer.balance === 'number') setCredits(answer.balance);
        setConversationId(answer.message.conversation);
        return;
      }
      setList((l) => dropPending(l, clientId));
      setRefusal(answer?.error ?? 'internal_error');
    } catch {
      setList((l) => dropPending(l, clientId));
      setRefusal('internal_error');
    }
  };

  const onType = (value: string) => {
    setDraft(value);
    const at = Date.now();
    if (conversationId !== null && value.trim() !== '' && at - lastTypingSent.current > TYPING_SEND_EVERY_MS) {
      lastTypingSent.current = at;
      void api.POST('/api/typing.php', { body: { conversation: conversationId } }).catch(() => {});
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      e.currentTarget.form?.requestSubmit();
    }
  };

  const loadOlder = async () => {
    const oldest = list.find((m) => m.state === 'stored');
    if (!oldest || conversationId === null) return;
    setLoadingOlder(true);
    try {
      const { data: page } = await api.GET('/api/chat.php', { params: { query: { id: String(conversationId), before: String(oldest.id) } } });
      if (page) {
        setList((l) => mergeStored(l, page.messages));
        setMore(page.more);
      }
    } finally {
      setLoadingOlder(false);
    }
  };

  const seenId = lastSeenOwn(list, props.me.id, seenThrough);
  // Nothing can be sent into a conversation the member may not start.
  const blocked = limitReached && conversationId === null;
  const typing = typingUntil > Math.max(now, Date.now() - 1);
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
            <li key={m.state === 'stored' ? `m${m.id}` : `c${m.client_id}`} className={`chat-message ${mine ? 'chat-message-own' : 'chat-message-other'}`} data-message-id={m.id || undefined} data-client-id={m.client_id} data-state={m.state}>
              <div className="chat-bubble">
                {m.kind === 'text' ? (
                  <p className="mb-0 text-pre-wrap">{m.body}</p>
                ) : m.kind === 'gift' && m.attachment ? (
                  <img className="chat-gift" src={`/gifts/${m.attachment}.svg`} width="96" height="96" alt={t(`chat:gift_${m.attachment}`)} />
                ) : m.kind === 'gif' && m.attachment ? (
                  <img className="chat-gif" src={m.attachment} alt={t('kind_gif')} loading="lazy" />
                ) : m.kind === 'photo' && m.attachment ? (
                  <img className="chat-photo" src={`${props.cdnPrefix}/photos/${m.attachment}`} width="240" height="300" alt={t('photo_from', { name: mine ? t('you') : props.partner.name })} loading="lazy" />
                ) : (
                  <p className="mb-0 fst-italic">{t(`kind_${m.kind}`)}{m.body ? `: ${m.body}` : ''}</p>
                )}
              </div>
              <div className="chat-meta small text-body-secondary">
                {m.state === 'stored' && <time dateTime={m.created_at}>{time(m.created_at)}</time>}
                {m.state === 'sending' && <span>{t('sending')}</span>}
                {m.state === 'failed' && (
                  <span className="text-danger">
                    {t('failed')}{' '}
                    <button type="button" className="btn btn-link btn-sm p-0 align-baseline" onClick={() => void send(m)} data-retry>
                      {t('retry')}
                    </button>
                  </span>
                )}
                {m.id !== 0 && m.id === seenId && <span className="ms-2" data-seen>{t('seen')}</span>}
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
      {!props.partner.confirmed && <p className="small text-body-secondary" data-partner-unconfirmed>{t('unconfirmed_partner', { name: props.partner.name })}</p>}
      {!props.me.confirmed && <p className="small text-body-secondary" data-self-unconfirmed>{t('unconfirmed_self')}</p>}
      {panel === 'gift' && (
        <div className="chat-panel border rounded p-2 mb-2" data-gift-panel>
          <GiftPicker messages={props.messages} lang={props.when.lang} onPick={(gift) => sendItem('gift', gift.id, null)} />
        </div>
      )}
      {panel === 'gif' && (
        <div className="chat-panel border rounded p-2 mb-2" data-gif-panel>
          <GifPicker messages={props.messages} autoFocus onPick={(gif) => sendItem('gif', gif.id, gif.url)} />
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
        <button type="button" className="btn btn-sm btn-outline-secondary" aria-expanded={panel === 'gift'} onClick={() => setPanel(panel === 'gift' ? 'none' : 'gift')} disabled={blocked} data-open-gifts>
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
          <textarea id="chat-body" name="body" className="form-control" rows={2} maxLength={props.maxLength * 2} value={draft} onChange={(e) => onType(e.currentTarget.value)} onKeyDown={onKeyDown} placeholder={t('placeholder')} disabled={blocked} aria-describedby={blocked ? 'chat-limit chat-cost' : 'chat-cost'} />
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
          {props.cost.money ? t('cost_money', { credits: props.cost.credits, money: props.cost.money, count: props.cost.credits }) : t('cost', { credits: props.cost.credits, count: props.cost.credits })} · {t('balance', { credits, count: credits })}
          {length > props.maxLength && <span className="text-danger ms-2">{t('too_long', { max: props.maxLength, count: props.maxLength })}</span>}
        </p>
      </form>
    </div>
  );
}
