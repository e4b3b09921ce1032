/**
 * The chat API and the live stream over HTTP (issue 10): every refusal as JSON, another member's
 * conversation ids answering 404 (ids leak nothing), oversize, empty and NUL messages, blocked members,
 * a retried send charged once, the stream's resync from Last-Event-ID, and delivery across two server
 * processes on PostgreSQL (LISTEN/NOTIFY), in order and once.
 */
import { request as httpRequest } from 'node:http';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, conversations, creditLedger, messages, users } from '../../src/db/schema';
import { messageTimeFormat } from '../../src/shared/message-time';
import { siteDateTimeFormat } from '../../src/server/sites/site-time';
import { startTestServer, type TestServer } from '../setup/server';
import { onSseEvents } from '../setup/sse';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

interface Sse {
  events: Array<{ id: string; event: string; data: any }>;
  next(match: (e: { event: string; data: any }) => boolean, timeoutMs?: number): Promise<{ id: string; event: string; data: any }>;
  close(): void;
}

/** Opens /api/events.php as a member and collects its events. */
function openStream(port: number, session: string, lastEventId?: string): Promise<Sse> {
  return new Promise((resolve, reject) => {
    const events: Sse['events'] = [];
    const waiters: Array<{ match: (e: { event: string; data: any }) => boolean; resolve: (e: Sse['events'][number]) => void; from: number }> = [];
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/api/events.php', headers: { host: `localhost:${port}`, cookie: `lang=en; session=${session}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        expect(res.headers['content-type']).toContain('text/event-stream');
        expect(res.headers['content-encoding']).toBeUndefined();
        onSseEvents(res, (raw) => {
          const e = { id: raw.id, event: raw.event, data: JSON.parse(raw.data || 'null') };
          events.push(e);
          for (const w of [...waiters])
            if (w.match(e)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(e);
            }
        });
        resolve({
          events,
          next: (match, timeoutMs = 10_000) =>
            new Promise((res2, rej2) => {
              const found = events.find(match);
              if (found) return res2(found);
              const timer = setTimeout(() => rej2(new Error('no such event in time')), timeoutMs);
              waiters.push({ match, from: events.length, resolve: (e) => (clearTimeout(timer), res2(e)) });
            }),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', (err) => (err.message.includes('socket hang up') ? undefined : reject(err)));
    req.end();
  });
}

describe('chat over HTTP', () => {
  let server: TestServer;
  let free: { id: number; session: string };
  let premium: { id: number; session: string };
  let strangerSession: string;
  let otherSiteMember: number;

  beforeAll(async () => {
    server = await startTestServer();
    const { db } = server.booted.app;
    const find = async (email: string, site = 1) =>
      (
        await db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.email, email), eq(users.siteId, site)))
      )[0]!.id;
    const login = async (email: string, host?: string) =>
      (await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email, password: 'demo-password-1' }, ...(host ? { host } : {}) })).setCookies.session!.value;
    free = { id: await find('free@demo.test'), session: await login('free@demo.test') };
    premium = { id: await find('premium@demo.test'), session: await login('premium@demo.test') };
    // A third member of site 1: an account made for this test.
    const signup = await server.request('/api/signup.php', {
      method: 'POST',
      headers: XHR,
      cookies: { lang: 'en' },
      body: { email: `stranger-${Date.now()}@example.com`, name: 'Stranger', password: 'zonnige-dinsdag-42', date_of_birth: '1990-06-01', gender: 'male', looking_for: 'female' },
    });
    strangerSession = signup.setCookies.session?.value ?? '';
    otherSiteMember = await find('free@demo.test', 2);
  });
  afterAll(async () => {
    await server?.close();
  });

  const origin = () => ({ origin: `http://localhost:${server.port}` });
  const as = (session: string) => ({ cookies: { lang: 'en', session }, headers: origin() });
  const send = (session: string, body: unknown) => server.request('/api/chat.php', { ...as(session), method: 'POST', body });

  it('CHT-01 a visitor gets authentication_required as JSON from every chat call', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/chats.php', undefined],
      ['GET', '/api/chat.php?id=1', undefined],
      ['POST', '/api/chat.php', { to: premium.id, client_id: 'abcdefgh1', body: 'hi' }],
      ['PUT', '/api/chat.php', { conversation: 1 }],
      ['DELETE', '/api/chat.php', { conversation: 1 }],
      ['POST', '/api/typing.php', { conversation: 1 }],
      ['GET', '/api/events.php', undefined],
    ] as const) {
      const res = await server.request(path, { method, body, cookies: { lang: 'en' }, headers: origin() });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json()).toMatchObject({ error: 'authentication_required' });
    }
    expect((await server.request('/chats', { cookies: { lang: 'en' } })).headers.location).toBe('/login?next=%2Fchats');
    expect((await server.request(`/members/${premium.id}/chat`, { cookies: { lang: 'en' } })).headers.location).toBe(`/signup?required=chat&member=${premium.id}`);
  });

  it('CHT-05 CHT-11 oversize, empty and NUL messages and bad input are 400 JSON and change nothing; a retried send is charged once', async () => {
    const balance = async () => (await server.booted.app.db.select({ c: users.credits }).from(users).where(eq(users.id, premium.id)))[0]!.c;
    const before = await balance();
    for (const [body, code] of [
      [{ to: free.id, client_id: 'abcdefgh2', body: 'x'.repeat(5000) }, 'message_too_long'],
      [{ to: free.id, client_id: 'abcdefgh3', body: '   ' }, 'message_empty'],
      [{ to: free.id, client_id: 'abcdefgh4', body: 'a\u0001b' }, 'invalid_message'],
      [{ to: free.id, client_id: 'short', body: 'hi' }, 'invalid_client_id'],
      [{ to: 'x', client_id: 'abcdefgh5', body: 'hi' }, 'validation_failed'],
      [{ to: free.id, client_id: 'abcdefgh6', body: 'hi', kind: 'voice' }, 'validation_failed'],
      [{ to: premium.id, client_id: 'abcdefgh7', body: 'hi' }, 'self_not_allowed'],
      [{ to: otherSiteMember, client_id: 'abcdefgh8', body: 'hi' }, 'member_not_found'],
    ] as const) {
      const res = await send(premium.session, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(res.json().error).toBe(code);
    }
    const nul = await server.request('/api/chat.php', {
      ...as(premium.session),
      method: 'POST',
      body: `{"to":${free.id},"client_id":"abcdefgh9","body":"a\u0000b"}`,
      headers: { ...origin(), 'content-type': 'application/json' },
    });
    expect(nul.status).toBe(400);
    expect(await balance()).toBe(before);

    const clientId = crypto.randomUUID();
    const first = await send(premium.session, { to: free.id, client_id: clientId, body: 'Hallo daar' });
    expect(first.status).toBe(201);
    const again = await send(premium.session, { to: free.id, client_id: clientId, body: 'Hallo daar' });
    expect(again.status).toBe(200);
    expect(again.json()).toMatchObject({ replayed: true, message: { id: first.json().message.id } });
    const cost = (await server.booted.app.sites.forHost('localhost')).settings.message_credits;
    expect(await balance()).toBe(before - cost);
    const rows = await server.booted.app.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.reference, `message:${premium.id}:${clientId}`));
    expect(rows).toHaveLength(1);
  });

  it('CHT-02 CHT-06 another member’s conversation ids answer 404, never 403; removing is for the remover only', async () => {
    const chats = (await server.request('/api/chats.php', as(free.session))).json();
    const conversation = chats.chats.find((c: { profile: { id: number } }) => c.profile.id === premium.id);
    expect(conversation.num_unread_messages).toBeGreaterThan(0);
    expect(chats.unread_total).toBeGreaterThan(0);
    expect(strangerSession).not.toBe('');
    for (const [method, path, body] of [
      ['GET', `/api/chat.php?id=${conversation.id}`, undefined],
      ['PUT', '/api/chat.php', { conversation: conversation.id }],
      ['DELETE', '/api/chat.php', { conversation: conversation.id }],
      ['POST', '/api/typing.php', { conversation: conversation.id }],
      ['GET', '/api/chat.php?id=999999', undefined],
    ] as const) {
      const res = await server.request(path, { ...as(strangerSession), method, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json().error).toBe('conversation_not_found');
    }
    expect((await server.request(`/chats/${conversation.id}`, as(strangerSession))).status).toBe(404);

    // Reading: unread to 0 (CHT-03).
    const read = await server.request('/api/chat.php', { ...as(free.session), method: 'PUT', body: { conversation: conversation.id } });
    expect(read.json()).toMatchObject({ ok: true, changed: true });
    expect((await server.request('/api/chats.php', as(free.session))).json().unread_total).toBe(0);
    // Removing: gone for the remover, kept for the other side.
    const removed = await server.request('/api/chat.php', { ...as(free.session), method: 'DELETE', body: { profile: premium.id } });
    expect(removed.json()).toEqual({ ok: true, removed: [conversation.id] });
    expect((await server.request('/api/chats.php', as(free.session))).json().chats.map((c: { id: number }) => c.id)).not.toContain(conversation.id);
    const kept = (await server.request(`/api/chat.php?id=${conversation.id}`, as(premium.session))).json();
    expect(kept.messages.length).toBeGreaterThan(0);
  });

  it('BLK-01 blocked members cannot write to each other and their conversation is gone for both', async () => {
    const sent = await send(premium.session, { to: free.id, client_id: crypto.randomUUID(), body: 'Nog één' });
    const conversationId = sent.json().message.conversation;
    await server.booted.app.db.insert(blocks).values({ blockerId: free.id, blockedId: premium.id });
    try {
      const refused = await send(premium.session, { to: free.id, client_id: crypto.randomUUID(), body: 'Hallo?' });
      expect(refused.status).toBe(404);
      expect(refused.json().error).toBe('member_not_found');
      expect((await server.request(`/api/chat.php?id=${conversationId}`, as(premium.session))).status).toBe(404);
      expect((await server.request('/api/chats.php', as(premium.session))).json().chats.map((c: { id: number }) => c.id)).not.toContain(conversationId);
    } finally {
      await server.booted.app.db.delete(blocks).where(and(eq(blocks.blockerId, free.id), eq(blocks.blockedId, premium.id)));
    }
  });

  it('CHT-04 a free member who has started their 2 conversations is told so on opening a third chat, above a disabled composer with the ways forward; the server still refuses the send', async () => {
    const { db } = server.booted.app;
    const email = `limit-${Date.now()}@example.com`;
    const signup = await server.request('/api/signup.php', {
      method: 'POST',
      headers: XHR,
      cookies: { lang: 'en' },
      body: { email, name: 'Limit', password: 'zonnige-dinsdag-42', date_of_birth: '1990-06-01', gender: 'male', looking_for: 'female' },
    });
    const session = signup.setCookies.session!.value;
    const [{ id: me }] = (await db.select({ id: users.id }).from(users).where(eq(users.email, email))) as [{ id: number }];
    const others = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.siteId, 1), inArray(users.role, ['fictional', 'member']), eq(users.status, 'active'), notInArray(users.id, [me, free.id, premium.id])))
      .orderBy(users.id)
      .limit(3);
    expect(others).toHaveLength(3);
    const [first, second, third] = others.map((o) => o.id) as [number, number, number];
    const pair = (other: number) => ({ siteId: 1, memberLow: Math.min(me, other), memberHigh: Math.max(me, other), startedBy: me, createdAt: new Date() });
    const chatPage = async (who: string, other: number) => (await server.request(`/members/${other}/chat`, { cookies: { lang: 'en', entry_ok: '1', session: who } })).text;
    const limitNotice = /<div class="alert alert-warning" role="status" id="chat-limit" data-chat-limit="true">.*?href="\/premium".*?href="\/credits".*?<textarea/s;

    // One started: a second one may start, nothing is said.
    await db.insert(conversations).values(pair(first));
    expect(await chatPage(session, third)).not.toContain('data-chat-limit');
    // Two started: the third chat says so before anything is typed, the composer is disabled.
    await db.insert(conversations).values(pair(second));
    const page = await chatPage(session, third);
    expect(page).toMatch(limitNotice);
    expect(page).toContain('As a free member you can start at most 2 conversations.');
    expect(page).toMatch(/<textarea[^>]*id="chat-body"[^>]*disabled=""/);
    expect(page).toMatch(/<button type="submit" class="chat-send" disabled=""[^>]*data-send="true"/);
    // The server decides all the same.
    const refused = await send(session, { to: third, client_id: crypto.randomUUID(), body: 'Hallo?' });
    expect(refused.status).toBe(403);
    expect(refused.json().error).toBe('conversation_limit');
    // A conversation that exists already (either way) and a premium member are not limited.
    expect(await chatPage(session, second)).not.toContain('data-chat-limit');
    expect(await chatPage(premium.session, third)).not.toContain('data-chat-limit');
  });

  it('NAV-01 NAV-06 CHT-03 the navigation counts unread messages, and the page that opens the conversation counts it read', async () => {
    const sent = await send(premium.session, { to: free.id, client_id: crypto.randomUUID(), body: 'Ben je daar?' });
    expect(sent.status).toBe(201);
    const unread = (await server.request('/api/chats.php', as(free.session))).json().unread_total;
    expect(unread).toBeGreaterThan(0);
    const before = await server.request('/notifications', as(free.session));
    expect(before.text).toMatch(new RegExp(`<span id="unread-badge"[^>]*data-badge="unread"[^>]*>${unread}</span>`));
    expect(before.text).toContain(`"unreadMessages":${unread}`);
    // The session lookup brought the counts; opening the conversation read it before the page's boot
    // data (the badge and the document title the client keeps, NAV-06) was written.
    const opened = await server.request(`/chats/${sent.json().message.conversation}`, as(free.session));
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('"unreadMessages":0');
  });

  it('UX-05 NAV-01 the badge labels and the chat costs count by the page language: Polish one, few and many', async () => {
    const sent = await send(premium.session, { to: free.id, client_id: crypto.randomUUID(), body: 'Ile wiadomości?' });
    expect(sent.status).toBe(201);
    const unread = (await server.request('/api/chats.php', as(free.session))).json().unread_total as number;
    const polish = { cookies: { lang: 'pl', session: free.session }, headers: origin() };
    const page = await server.request('/notifications', polish);
    const badge = /<span id="unread-badge"[^>]*>/.exec(page.text)![0];
    const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(badge)![1]!;
    const forms = { one: `${unread} nieprzeczytana wiadomość`, few: `${unread} nieprzeczytane wiadomości`, many: `${unread} nieprzeczytanych wiadomości` } as Record<string, string>;
    expect(attr('aria-label')).toBe(forms[new Intl.PluralRules('pl').select(unread)]);
    // Every Polish form travels with the badge, for the counts the page will get live.
    const labels = JSON.parse(attr('data-labels').replaceAll('&quot;', '"'));
    expect(labels).toEqual({
      one: '{count} nieprzeczytana wiadomość',
      few: '{count} nieprzeczytane wiadomości',
      many: '{count} nieprzeczytanych wiadomości',
      other: '{count} nieprzeczytanej wiadomości',
    });
    // The chat screen (its island rendered on the server): what a message costs, in the right form.
    const cost = (await server.booted.app.sites.forHost('localhost')).settings.message_credits;
    const chat = await server.request(`/chats/${sent.json().message.conversation}`, polish);
    const polishCredits = { one: 'kredyt', few: 'kredyty', many: 'kredytów' } as Record<string, string>;
    expect(chat.text).toContain(`Wiadomość kosztuje ${cost} ${polishCredits[new Intl.PluralRules('pl').select(cost)]}`);
    const english = await server.request(`/chats/${sent.json().message.conversation}`, as(free.session));
    expect(english.text).toContain(`A message costs ${cost} ${cost === 1 ? 'credit' : 'credits'}`);
    expect(english.text).not.toContain('credit(s)');
  });

  it("CHT-02 the chat screen shows each message's time in the page's language and the site's time zone", async () => {
    const sent = await send(premium.session, { to: free.id, client_id: crypto.randomUUID(), body: 'Hoe laat is het?' });
    expect(sent.status).toBe(201);
    const { created_at: at, conversation } = sent.json().message as { created_at: string; conversation: number };
    const page = await server.request(`/chats/${conversation}`, { cookies: { lang: 'nl', session: free.session }, headers: origin() });
    expect(page.status).toBe(200);
    // Site 1 is Dutch (Europe/Amsterdam): a 24-hour "HH:MM" there, whatever this machine's locale and zone.
    const shown = messageTimeFormat('nl', 'Europe/Amsterdam', new Date())(at);
    expect(shown).toMatch(/^\d\d:\d\d$/);
    expect(page.text).toContain(`<time dateTime="${at}">${shown}</time>`);
    // The chat list gives the last message's date and time in the same zone.
    const list = await server.request('/chats', { cookies: { lang: 'nl', session: free.session }, headers: origin() });
    expect(list.text).toContain(siteDateTimeFormat('nl', { countries: ['NL'] }, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(at)));
  });

  it('CHT-08 the stream delivers a message live with an id, and a reconnect with Last-Event-ID resyncs from the database', async () => {
    const stream = await openStream(server.port, free.session);
    const ready = await stream.next((e) => e.event === 'ready');
    const sent = await send(premium.session, { to: free.id, client_id: crypto.randomUUID(), body: 'Live!' });
    const live = await stream.next((e) => e.event === 'message' && e.data.body === 'Live!');
    expect(live.id).toBe(String(sent.json().message.id));
    expect(live.data).toMatchObject({ sender: premium.id, recipient: free.id, conversation: sent.json().message.conversation });
    await stream.next((e) => e.event === 'counters' && e.data.unread_messages > 0);
    stream.close();

    // While disconnected, two more; the reconnect with the last id gets them from the database, in order.
    const missed = [];
    for (const body of ['Gemist 1', 'Gemist 2']) missed.push((await send(premium.session, { to: free.id, client_id: crypto.randomUUID(), body })).json().message.id);
    const again = await openStream(server.port, free.session, live.id);
    await again.next((e) => e.event === 'ready');
    const bodies = again.events.filter((e) => e.event === 'message').map((e) => e.data.body);
    expect(bodies.filter((b) => b.startsWith('Gemist'))).toEqual(['Gemist 1', 'Gemist 2']);
    expect(again.events.find((e) => e.event === 'ready')!.id).toBe(String(missed[1]));
    again.close();
    expect(Number(ready.id)).toBeGreaterThanOrEqual(0);
  });

  it('CHT-10 with read receipts and typing switched off in /settings, the other side gets neither; on again, both', async () => {
    const form = (value: string) =>
      server.request('/settings', {
        method: 'POST',
        cookies: { lang: 'en', session: free.session },
        headers: { ...origin(), 'content-type': 'application/x-www-form-urlencoded' },
        body: `form=chat_signals&chat_signals=${value}`,
      });
    const sent = await send(premium.session, { to: free.id, client_id: crypto.randomUUID(), body: 'Lees je dit?' });
    const conversation = sent.json().message.conversation;
    expect((await form('0')).headers.location).toBe('/settings?saved=chat_signals_off#chat-signals');
    expect((await server.request('/settings', as(free.session))).text).toContain('data-chat-signals-state="off"');

    const stream = await openStream(server.port, premium.session);
    await stream.next((e) => e.event === 'ready');
    expect((await server.request('/api/typing.php', { ...as(free.session), method: 'POST', body: { conversation } })).status).toBe(204);
    expect((await server.request('/api/chat.php', { ...as(free.session), method: 'PUT', body: { conversation } })).json().changed).toBe(true);
    // A message after them: events of one stream keep their order, so anything sent before it is there by now.
    await send(free.session, { to: premium.id, client_id: crypto.randomUUID(), body: 'Ja hoor' });
    await stream.next((e) => e.event === 'message' && e.data.body === 'Ja hoor');
    expect(stream.events.filter((e) => e.event === 'typing' || e.event === 'read')).toEqual([]);

    expect((await form('1')).headers.location).toBe('/settings?saved=chat_signals_on#chat-signals');
    await send(premium.session, { to: free.id, client_id: crypto.randomUUID(), body: 'Fijn!' });
    await server.request('/api/typing.php', { ...as(free.session), method: 'POST', body: { conversation } });
    await stream.next((e) => e.event === 'typing' && e.data.member === free.id);
    await server.request('/api/chat.php', { ...as(free.session), method: 'PUT', body: { conversation } });
    const read = await stream.next((e) => e.event === 'read');
    expect(read.data).toMatchObject({ conversation, reader: free.id });
    stream.close();
    expect((await form('maybe')).status).toBe(400);
  });

  it('GFT-01 a photo in chat is checked like a profile photo, costs photo_credits, reaches only the two members, and a retry is one message', async () => {
    const sharp = (await import('sharp')).default;
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#c06080' } })
      .png()
      .toBuffer();
    const upload = (session: string, fields: Record<string, string>, file: Buffer | null) => {
      const boundary = `----chat${Date.now()}`;
      const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
      const head = Buffer.from(parts.join('') + (file ? `--${boundary}\r\ncontent-disposition: form-data; name="photo"; filename="x.png"\r\ncontent-type: image/png\r\n\r\n` : ''));
      const body = Buffer.concat([head, file ?? Buffer.alloc(0), Buffer.from(`${file ? '\r\n' : ''}--${boundary}--\r\n`)]);
      return server.request('/api/chat-photo.php', { method: 'POST', cookies: { lang: 'en', session }, headers: { ...origin(), 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
    };
    const { db } = server.booted.app;
    const balance = async () => (await db.select({ c: users.credits }).from(users).where(eq(users.id, premium.id)))[0]!.c;
    const before = await balance();
    const clientId = crypto.randomUUID();
    const sent = await upload(premium.session, { to: String(free.id), client_id: clientId }, png);
    expect(sent.status).toBe(201);
    const message = sent.json().message;
    expect(message).toMatchObject({ kind: 'photo', sender: premium.id, recipient: free.id });
    const photoCredits = (await server.booted.app.sites.forHost('localhost')).settings.photo_credits;
    expect(await balance()).toBe(before - photoCredits);
    // The same upload again (a retry): the same message, charged once.
    const again = await upload(premium.session, { to: String(free.id), client_id: clientId }, png);
    expect(again.status).toBe(200);
    expect(again.json().message.id).toBe(message.id);
    expect(await balance()).toBe(before - photoCredits);

    const file = `/photos/${message.attachment}`;
    for (const [session, status] of [
      [premium.session, 200],
      [free.session, 200],
      [strangerSession, 404],
    ] as const) {
      const res = await server.request(file, { cookies: { lang: 'en', session } });
      expect(res.status, session.slice(0, 6)).toBe(status);
      if (status === 200) expect(res.headers['cache-control']).toContain('private');
    }
    expect((await server.request(file, { cookies: { lang: 'en' } })).status).toBe(404);
    // Not an image, no file, bad fields: refused, nothing charged.
    expect((await upload(premium.session, { to: String(free.id), client_id: crypto.randomUUID() }, Buffer.from('not an image'))).json().error).toBe('photo_invalid');
    expect((await upload(premium.session, { to: String(free.id), client_id: crypto.randomUUID() }, null)).json().error).toBe('photo_invalid');
    expect((await upload(premium.session, { to: 'x', client_id: crypto.randomUUID() }, png)).json().error).toBe('validation_failed');
    expect(await balance()).toBe(before - photoCredits);
  });

  it('GFT-01 CHT-07 a gift must be one of the catalogue and costs gift_credits; a gif is stored with its provider URL; anything else is refused', async () => {
    const { db } = server.booted.app;
    const balance = async () => (await db.select({ c: users.credits }).from(users).where(eq(users.id, premium.id)))[0]!.c;
    const settings = (await server.booted.app.sites.forHost('localhost')).settings;
    const before = await balance();
    const gift = await send(premium.session, { to: free.id, client_id: crypto.randomUUID(), kind: 'gift', attachment: 'rose' });
    expect(gift.status).toBe(201);
    expect(gift.json().message).toMatchObject({ kind: 'gift', attachment: 'rose', credits: settings.gift_credits });
    const gifs = (await server.request('/api/gifs.php?q=', as(premium.session))).json().items;
    const gif = await send(premium.session, { to: free.id, client_id: crypto.randomUUID(), kind: 'gif', attachment: gifs[0].id });
    expect(gif.status).toBe(201);
    expect(gif.json().message.attachment).toBe(gifs[0].url);
    expect(await balance()).toBe(before - settings.gift_credits - settings.message_credits);
    for (const body of [
      { kind: 'gift', attachment: 'diamond' },
      { kind: 'gift' },
      { kind: 'gif', attachment: 'https://evil.example/x.gif' },
      { kind: 'text', body: 'hoi', attachment: 'rose' },
      { kind: 'photo', attachment: 'someone-else.webp' },
    ]) {
      const res = await send(premium.session, { to: free.id, client_id: crypto.randomUUID(), ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('validation_failed');
    }
    expect(await balance()).toBe(before - settings.gift_credits - settings.message_credits);
  });

  it('CHT-08 a draining process ends its streams with a retry hint', async () => {
    const stream = await openStream(server.port, premium.session);
    await stream.next((e) => e.event === 'ready');
    expect(server.booted.app.streams.size).toBeGreaterThan(0);
    server.booted.app.streams.endAll();
    expect(server.booted.app.streams.size).toBe(0);
    stream.close();
    const stored = await server.booted.app.db.select({ id: messages.id }).from(messages).where(eq(messages.recipientId, free.id));
    expect(stored.length).toBeGreaterThan(0);
  });
});
