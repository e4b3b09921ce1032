/** The chat's store against a fake API and a fake live stream (what moved out of the ChatRoom island). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiClient } from '../client/api';
import { installTestApi } from '../../tests/setup/test-api';
import { dispatchLiveEvent } from '../client/live';
import { $chatRoom, followChatRoom, initChatRoom, loadOlder, sendDraft, sendItem, sendMessage, sendPhoto, typeDraft, TYPING_SHOWN_MS, type ChatMessageJson, type ChatRoomStart } from './chat-room';
import { $credits } from './credits';

const ME = 7;
const PARTNER = 9;

function message(id: number, patch: Partial<ChatMessageJson> = {}): ChatMessageJson {
  return {
    id,
    conversation: 3,
    sender: PARTNER,
    recipient: ME,
    kind: 'text',
    body: `m${id}`,
    attachment: null,
    client_id: `client-${id}-xxxx`,
    credits: 0,
    safety_notice: false,
    created_at: '2026-11-27T00:00:00.000Z',
    ...patch,
  };
}

const start: ChatRoomStart = {
  me: ME,
  partner: PARTNER,
  credits: 40,
  conversation: 3,
  seenThrough: null,
  history: [message(10), message(11)],
  more: true,
  draft: '',
  refusal: null,
  limitReached: false,
};

interface Call {
  method: string;
  url: URL;
  body: unknown;
  contentType: string | null;
}

/** A fake API: `answer` gives status and JSON per call; every call is recorded. */
function fakeApi(answer: (call: Call) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>) {
  const calls: Call[] = [];
  installTestApi(async (input) => {
    const request = input as Request;
    const contentType = request.headers.get('content-type');
    const body = contentType?.startsWith('multipart/form-data') ? Object.fromEntries((await request.formData()).entries()) : request.method === 'GET' ? null : await request.json().catch(() => null);
    const call = { method: request.method, url: new URL(request.url), body, contentType };
    calls.push(call);
    const { status, body: json } = await answer(call);
    return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

const sent = (id: number, client_id: string, patch: Partial<ChatMessageJson> = {}) => message(id, { sender: ME, recipient: PARTNER, client_id, ...patch });

/** A target for the live events of one test. */
const live = () => new EventTarget();

beforeEach(() => {
  $credits.set(null);
  initChatRoom(start);
});
afterEach(() => {
  setApiClient(undefined);
  vi.useRealTimers();
});

describe('$chatRoom store', () => {
  it("CHT-02 starts from the server's messages; the balance goes to $credits unless one is known", () => {
    expect($chatRoom.get()!.messages.map((m) => [m.id, m.state])).toEqual([
      [10, 'stored'],
      [11, 'stored'],
    ]);
    expect($credits.get()).toBe(40);
    $credits.set(12);
    initChatRoom(start);
    expect($credits.get()).toBe(12);
  });

  it("CHT-11 CRD-01 a text shows at once, is sent with its client id and the answer's balance moves $credits (the nav badge follows)", async () => {
    let release!: () => void;
    const answered = new Promise<void>((r) => (release = r));
    const calls = fakeApi(async (call) => {
      await answered;
      const body = call.body as { client_id: string };
      return { status: 201, body: { message: sent(12, body.client_id, { body: 'hallo' }), balance: 35, replayed: false } };
    });
    typeDraft('hallo');
    sendDraft();
    const pending = $chatRoom.get()!.messages.at(-1)!;
    expect(pending).toMatchObject({ state: 'sending', body: 'hallo', id: 0 });
    expect($chatRoom.get()!.draft).toBe('');
    release();
    await vi.waitFor(() => expect($chatRoom.get()!.messages.at(-1)!.state).toBe('stored'));
    const post = calls.find((c) => c.url.pathname === '/api/chat.php')!;
    expect(post.body).toMatchObject({ to: PARTNER, client_id: pending.client_id, kind: 'text', body: 'hallo' });
    expect($chatRoom.get()!.messages.map((m) => m.id)).toEqual([10, 11, 12]);
    expect($credits.get()).toBe(35);
  });

  it('CHT-05 an empty text is refused on the spot; not enough credits puts the text back with the refusal', async () => {
    const calls = fakeApi(() => ({ status: 402, body: { error: 'insufficient_credits', balance: 0, cost: 5 } }));
    sendDraft();
    expect($chatRoom.get()!.refusal).toBe('message_empty');
    expect(calls).toHaveLength(0);
    typeDraft('hoi');
    sendDraft();
    await vi.waitFor(() => expect($chatRoom.get()!.refusal).toBe('insufficient_credits'));
    expect($chatRoom.get()!.draft).toBe('hoi');
    expect($chatRoom.get()!.messages.every((m) => m.state === 'stored')).toBe(true);
  });

  it('CHT-04 the conversation limit reached meanwhile turns the composer into the limit notice', async () => {
    fakeApi(() => ({ status: 403, body: { error: 'conversation_limit' } }));
    initChatRoom({ ...start, conversation: null, history: [], more: false });
    typeDraft('hoi');
    sendDraft();
    await vi.waitFor(() => expect($chatRoom.get()!.limitReached).toBe(true));
    expect($chatRoom.get()!.refusal).toBeNull();
    expect($chatRoom.get()!.draft).toBe('hoi');
  });

  it('CHT-11 a send without an answer stays, marked failed, and is sent again with the same client id', async () => {
    let down = true;
    const calls = fakeApi((call) => {
      if (down) throw new TypeError('offline');
      return { status: 201, body: { message: sent(12, (call.body as { client_id: string }).client_id), balance: 30, replayed: false } };
    });
    sendItem('gift', 'rose', null);
    await vi.waitFor(() => expect($chatRoom.get()!.messages.at(-1)!.state).toBe('failed'));
    const failed = $chatRoom.get()!.messages.at(-1)!;
    expect(failed).toMatchObject({ kind: 'gift', attachment: 'rose', failure: 'network' });
    down = false;
    await sendMessage(failed);
    expect($chatRoom.get()!.messages.at(-1)).toMatchObject({ id: 12, state: 'stored' });
    expect((calls.at(-1)!.body as { client_id: string }).client_id).toBe(failed.client_id);
  });

  it('GFT-01 a photo goes as multipart through the typed client; its balance moves $credits, a refusal drops it', async () => {
    const calls = fakeApi((call) => {
      const body = call.body as Record<string, unknown>;
      return body.to === String(PARTNER) && body.photo instanceof Blob
        ? { status: 201, body: { message: sent(13, String(body.client_id), { kind: 'photo', attachment: 'p.jpg' }), balance: 20, replayed: false } }
        : { status: 400, body: { error: 'photo_invalid' } };
    });
    await sendPhoto(new Blob(['jpeg'], { type: 'image/jpeg' }));
    expect(calls[0]!.url.pathname).toBe('/api/chat-photo.php');
    expect(calls[0]!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect($chatRoom.get()!.messages.at(-1)).toMatchObject({ id: 13, kind: 'photo', state: 'stored' });
    expect($credits.get()).toBe(20);
    fakeApi(() => ({ status: 413, body: { error: 'photo_too_large' } }));
    await sendPhoto(new Blob(['big']));
    expect($chatRoom.get()!.refusal).toBe('photo_too_large');
    expect($chatRoom.get()!.messages.at(-1)!.id).toBe(13);
  });

  it('CHT-08 live: a message of this chat is added once and marked read, typing shows for a while, "seen" follows reads', async () => {
    vi.useFakeTimers();
    const calls = fakeApi(() => ({ status: 200, body: {} }));
    const target = live();
    const stop = followChatRoom({ target, visible: () => true });
    dispatchLiveEvent({ type: 'typing', data: { conversation: 3, member: PARTNER } }, target);
    expect($chatRoom.get()!.typing).toBe(true);
    await vi.advanceTimersByTimeAsync(TYPING_SHOWN_MS + 1);
    expect($chatRoom.get()!.typing).toBe(false);
    dispatchLiveEvent({ type: 'typing', data: { conversation: 3, member: PARTNER } }, target);
    dispatchLiveEvent({ type: 'message', data: message(12) as unknown as Record<string, unknown> }, target);
    dispatchLiveEvent({ type: 'message', data: message(12) as unknown as Record<string, unknown> }, target);
    dispatchLiveEvent({ type: 'message', data: message(50, { conversation: 99 }) as unknown as Record<string, unknown> }, target);
    expect($chatRoom.get()!.messages.map((m) => m.id)).toEqual([10, 11, 12]);
    expect($chatRoom.get()!.typing).toBe(false);
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url.pathname === '/api/chat.php')).toBe(true));
    dispatchLiveEvent({ type: 'read', data: { conversation: 3, reader: PARTNER, through: 11 } }, target);
    expect($chatRoom.get()!.seenThrough).toBe(11);
    stop();
    dispatchLiveEvent({ type: 'message', data: message(13) as unknown as Record<string, unknown> }, target);
    expect($chatRoom.get()!.messages).toHaveLength(3);
  });

  it('CHT-08 the first message of a conversation that starts now is taken by its partner, and the chat takes its id', () => {
    initChatRoom({ ...start, conversation: null, history: [], more: false });
    const target = live();
    const stop = followChatRoom({ target, visible: () => false });
    dispatchLiveEvent({ type: 'message', data: message(1, { conversation: 8, sender: 4 }) as unknown as Record<string, unknown> }, target);
    dispatchLiveEvent({ type: 'message', data: message(2, { conversation: 5 }) as unknown as Record<string, unknown> }, target);
    expect($chatRoom.get()!.conversation).toBe(5);
    expect($chatRoom.get()!.messages.map((m) => m.id)).toEqual([2]);
    stop();
  });

  it('CHT-10 typing is announced at most every 3 s, only in a conversation and with text', () => {
    const calls = fakeApi(() => ({ status: 200, body: {} }));
    typeDraft('h', 10_000);
    typeDraft('ha', 11_000);
    typeDraft('hal', 13_500);
    typeDraft('   ', 20_000);
    expect($chatRoom.get()!.draft).toBe('   ');
    return vi.waitFor(() => expect(calls.filter((c) => c.url.pathname === '/api/typing.php').map((c) => c.body)).toEqual([{ conversation: 3 }, { conversation: 3 }]));
  });

  it('CHT-03 older messages come before the oldest shown, with whether there are more', async () => {
    const calls = fakeApi(() => ({ status: 200, body: { messages: [message(8), message(9)], more: false } }));
    await loadOlder();
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({ id: '3', before: '10' });
    expect($chatRoom.get()!.messages.map((m) => m.id)).toEqual([8, 9, 10, 11]);
    expect($chatRoom.get()!.more).toBe(false);
    expect($chatRoom.get()!.loadingOlder).toBe(false);
  });
});
