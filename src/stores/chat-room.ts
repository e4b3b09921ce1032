/**
 * The open chat (`$chatRoom`, CHT-02, CHT-03, CHT-05, CHT-08, CHT-10, CHT-11): the conversation's
 * messages (the server's, older ones on request, new ones from the live stream, the member's own sends
 * shown at once and retried with the same client id), 'typing…' and 'seen', the composer's draft and the
 * refusal or limit it shows. The actions send texts, gifts, gifs and photos through the typed client;
 * the balance a send's answer carries goes to `$credits`, so the navigation badge follows.
 * One chat per page: the ChatRoom island starts it with {@link initChatRoom} once hydrated (until then,
 * and on the server, it renders {@link chatRoomState} of its props).
 */
import { atom } from 'nanostores';
import { api, failureReason, isAuthenticationRequired } from '../client/api';
import { onLiveEvent } from '../client/live';
import { addPending, dropPending, mergeStored, newClientId, setPendingState, type ChatMessageJson, type ShownMessage } from './chat-state';
import { initCredits, setCredits } from './credits';

export type { ChatMessageJson } from './chat-state';

export interface ChatRoomState {
  messages: ShownMessage[];
  /** Older messages than the first shown exist. */
  more: boolean;
  /** Null until the conversation's first message exists. */
  conversation: number | null;
  /** The partner has read the member's messages up to this id. */
  seenThrough: number | null;
  /** The partner is typing (shown for a few seconds after each signal). */
  typing: boolean;
  draft: string;
  /** Why the last send was refused (an API error code), shown above the composer. */
  refusal: string | null;
  /**
   * CHT-04: this free member's conversation limit is reached: with no conversation yet, the notice with
   * the ways forward stands above a disabled composer.
   */
  limitReached: boolean;
  loadingOlder: boolean;
}

export interface ChatRoomStart {
  me: number;
  partner: number;
  credits: number;
  conversation: number | null;
  seenThrough: number | null;
  history: ChatMessageJson[];
  more: boolean;
  draft: string;
  /** A refusal the server form gave (no-JS path), as an error code. */
  refusal: string | null;
  limitReached: boolean;
}

/** How long 'typing…' shows after the partner's last signal. */
export const TYPING_SHOWN_MS = 5000;
/** The member's typing is announced at most this often. */
const TYPING_SEND_EVERY_MS = 3000;

/** The open chat once the island started it, else null. */
export const $chatRoom = atom<ChatRoomState | null>(null);

let room = { me: 0, partner: 0 };
let lastTypingSent = 0;
let typingTimer: ReturnType<typeof setTimeout> | undefined;

/** The chat as the server rendered it. */
export function chatRoomState(start: ChatRoomStart): ChatRoomState {
  return {
    messages: start.history.map((m) => ({ ...m, state: 'stored' as const })),
    more: start.more,
    conversation: start.conversation,
    seenThrough: start.seenThrough,
    typing: false,
    draft: start.draft,
    refusal: start.refusal === 'conversation_limit' ? null : start.refusal,
    limitReached: start.limitReached || start.refusal === 'conversation_limit',
    loadingOlder: false,
  };
}

/** Starts the store with what the server rendered (in the browser, once the island hydrated). */
export function initChatRoom(start: ChatRoomStart): void {
  room = { me: start.me, partner: start.partner };
  lastTypingSent = 0;
  clearTimeout(typingTimer);
  initCredits(start.credits);
  $chatRoom.set(chatRoomState(start));
}

/** Changes the started chat (nothing before {@link initChatRoom}). */
function update(change: (state: ChatRoomState) => Partial<ChatRoomState>): void {
  const state = $chatRoom.get();
  if (state) $chatRoom.set({ ...state, ...change(state) });
}

function showTyping(shown: boolean): void {
  clearTimeout(typingTimer);
  if (shown) typingTimer = setTimeout(() => update(() => ({ typing: false })), TYPING_SHOWN_MS);
  update(() => ({ typing: shown }));
}

export interface LiveOptions {
  /** Where live events arrive (the window; tests pass their own target). */
  target?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  /** Whether the member sees the page (a message read while visible is marked read). */
  visible?: () => boolean;
}

/**
 * Follows the live stream: messages of this conversation (or the first one of a conversation that
 * starts now), the partner's typing and 'seen'. Returns the stop function.
 */
export function followChatRoom(options: LiveOptions = {}): () => void {
  const visible = options.visible ?? (() => globalThis.document?.visibilityState === 'visible');
  return onLiveEvent((event) => {
    const d = event.data as Record<string, number>;
    const state = $chatRoom.get();
    if (!state) return;
    const conversation = state.conversation;
    if (event.type === 'message') {
      const m = event.data as unknown as ChatMessageJson;
      const mine = m.sender === room.me;
      const ours = conversation === null ? (mine ? m.recipient : m.sender) === room.partner : m.conversation === conversation;
      if (!ours) return;
      update((s) => ({ conversation: s.conversation ?? m.conversation, messages: mergeStored(s.messages, [m]) }));
      if (!mine) {
        showTyping(false);
        if (visible()) void api.PUT('/api/chat.php', { body: { conversation: m.conversation } }).catch(() => {});
      }
    } else if (event.type === 'typing' && d.conversation === conversation && d.member === room.partner) {
      showTyping(true);
    } else if (event.type === 'read' && d.conversation === conversation && d.reader === room.partner) {
      update((s) => ({ seenThrough: Math.max(s.seenThrough ?? 0, d.through ?? 0) }));
    }
  }, options.target);
}

/** The composer's text changed; the partner hears 'typing' at most every few seconds. */
export function typeDraft(value: string, now: number = Date.now()): void {
  update(() => ({ draft: value }));
  const conversation = $chatRoom.get()?.conversation ?? null;
  if (conversation !== null && value.trim() !== '' && now - lastTypingSent > TYPING_SEND_EVERY_MS) {
    lastTypingSent = now;
    void api.POST('/api/typing.php', { body: { conversation } }).catch(() => {});
  }
}

/** The member closed the refusal's notice (the 'not enough credits' card). */
export function clearRefusal(): void {
  update(() => ({ refusal: null }));
}

/** Puts a text in the composer (an icebreaker, or what was typed before the island hydrated). */
export function setDraft(value: string): void {
  update(() => ({ draft: value }));
}

function pendingOf(kind: ChatMessageJson['kind'], body: string, attachment: string | null, clientId: string) {
  return { conversation: $chatRoom.get()?.conversation ?? 0, sender: room.me, recipient: room.partner, kind, body, attachment, client_id: clientId, created_at: new Date().toISOString() };
}

/** Sends (or sends again, after a failure) one of the member's messages, by its client id. */
export async function sendMessage(message: ShownMessage): Promise<void> {
  update((s) => ({ messages: setPendingState(s.messages, message.client_id, 'sending') }));
  try {
    const { data: answer, error } = await api.POST('/api/chat.php', {
      body: { to: room.partner, client_id: message.client_id, kind: message.kind, body: message.body, attachment: message.attachment },
    });
    if (answer) {
      update((s) => ({ messages: mergeStored(s.messages, [answer.message]), conversation: answer.message.conversation }));
      setCredits(answer.balance);
      return;
    }
    const reason = failureReason(error);
    update((s) => ({
      messages: dropPending(s.messages, message.client_id),
      // The limit was reached meanwhile (another tab): the notice and its ways forward take over.
      ...(reason === 'conversation_limit' ? { limitReached: true } : { refusal: reason }),
      ...(reason === 'insufficient_credits' || reason === 'conversation_limit' || reason === 'recipient_unconfirmed' ? { draft: message.body } : {}),
    }));
  } catch {
    // No answer after the client's retries: keep it, marked, to send again with the same client id.
    update((s) => ({ messages: setPendingState(s.messages, message.client_id, 'failed', 'network') }));
  }
}

/** Sends the draft (an empty one is refused on the spot). */
export function sendDraft(): void {
  const state = $chatRoom.get();
  if (!state) return;
  const body = state.draft;
  if (body.trim() === '') {
    update(() => ({ refusal: 'message_empty' }));
    return;
  }
  const pending = pendingOf('text', body, null, newClientId());
  update((s) => ({ refusal: null, messages: addPending(s.messages, pending), draft: '' }));
  // The message ends the other side's 'typing…' (they clear it when it arrives): the next keystroke announces it again.
  lastTypingSent = 0;
  void sendMessage({ ...pending, id: 0, credits: 0, safety_notice: false, state: 'sending' });
}

/** A gift or a gif: shown at once (`shownAs`: the gif's address), sent with its own client id like a text. */
export function sendItem(kind: 'gift' | 'gif', attachment: string, shownAs: string | null): void {
  const pending = pendingOf(kind, '', shownAs ?? attachment, newClientId());
  update((s) => ({ refusal: null, messages: addPending(s.messages, pending) }));
  void sendMessage({ ...pending, attachment, id: 0, credits: 0, safety_notice: false, state: 'sending' });
}

/** The multipart body of `/api/chat-photo.php`; openapi-fetch sends a FormData as it is (the browser sets the boundary). */
type PhotoBody = { to: string; client_id: string; photo: string };

/** Sends a photo (GFT-01): shown as sending at once, dropped with the refusal when it is refused. */
export async function sendPhoto(file: Blob): Promise<void> {
  const clientId = newClientId();
  update((s) => ({ refusal: null, messages: addPending(s.messages, pendingOf('photo', '', null, clientId)) }));
  const form = new FormData();
  form.set('to', String(room.partner));
  form.set('client_id', clientId);
  form.set('photo', file);
  try {
    const { data: answer, error } = await api.POST('/api/chat-photo.php', { body: form as unknown as PhotoBody });
    if (answer) {
      update((s) => ({ messages: mergeStored(s.messages, [answer.message]), conversation: answer.message.conversation }));
      setCredits(answer.balance);
      return;
    }
    const reason = failureReason(error);
    update((s) => ({ messages: dropPending(s.messages, clientId), refusal: reason === 'unknown' ? 'internal_error' : reason }));
  } catch (err) {
    update((s) => ({ messages: dropPending(s.messages, clientId), ...(isAuthenticationRequired(err) ? {} : { refusal: 'internal_error' }) }));
  }
}

/** Loads the page of messages before the oldest shown one. */
export async function loadOlder(): Promise<void> {
  const state = $chatRoom.get();
  const oldest = state?.messages.find((m) => m.state === 'stored');
  const conversation = state?.conversation ?? null;
  if (!oldest || conversation === null) return;
  update(() => ({ loadingOlder: true }));
  try {
    const { data: page } = await api.GET('/api/chat.php', { params: { query: { id: String(conversation), before: String(oldest.id) } } });
    if (page) update((s) => ({ messages: mergeStored(s.messages, page.messages), more: page.more }));
  } finally {
    update(() => ({ loadingOlder: false }));
  }
}
