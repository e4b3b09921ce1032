/**
 * notify() against a real database, the app's mailer (offline outbox) and a real local push service:
 * both channels, preferences, language, deleted accounts, and one channel failing without the other.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, users } from '../../db/schema';
import { DEMO_ACCOUNTS } from '../../demo/seed';
import { loadConfig } from '../config';
import { createAppContext } from '../../runtime/app-context';
import type { AppContext } from '../app';
import { seedIfConfigured } from '../../demo/demo-seed';
import { Mailer } from '../mail/mailer';
import { decryptPush, fakeBrowserKeys, startFakePushService, type FakeBrowserKeys, type FakePushService } from '../push/test-push-service';
import { notify } from './notify';

let app: AppContext;
let dir: string;
let pushService: FakePushService;
let member: { id: number; email: string };
let sender: { id: number };
let browser: FakeBrowserKeys;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'notify-'));
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'memory://', DATA_DIR: dir, SEED_PROFILES_PER_SITE: '2', LOG_LEVEL: 'silent' });
  app = await createAppContext({ config, log: pino({ level: 'silent' }) });
  await seedIfConfigured(app);
  pushService = await startFakePushService((path) => (path.includes('broken') ? 500 : 201));
  const site = await app.sites.forHost('localhost');
  const find = async (email: string) =>
    (
      await app.db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(and(eq(users.email, email), eq(users.siteId, site.settings.id)))
    )[0]!;
  member = await find(DEMO_ACCOUNTS.free.email); // Sanne
  sender = await find(DEMO_ACCOUNTS.premium.email); // Mark
});
afterAll(async () => {
  await pushService?.close();
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await app.db.update(users).set({ notificationsDisabled: [], status: 'active', deletedAt: null, language: 'nl' }).where(eq(users.id, member.id));
  await app.push.unsubscribe(member.id);
  browser = fakeBrowserKeys();
  await app.push.subscribe(member.id, browser.subscription(`${pushService.origin}/push/${member.id}-${Date.now()}-${Math.random()}`));
});

const mailsTo = async (kind: string) => (await app.mailer.recent(100, member.email)).filter((m) => m.kind === kind);

describe('notify', () => {
  it('PUSH-02 a new message reaches the member by Web Push and by e-mail, in their language', async () => {
    const pushesBefore = pushService.received.length;
    const mailsBefore = (await mailsTo('notify_new_message')).length;
    const result = await notify(app, member.id, { type: 'new_message', fromUserId: sender.id, conversationId: 42 });
    expect(result).toMatchObject({ type: 'delivered', push: { type: 'ok', value: { sent: 1, removed: 0, failed: 0 } }, mail: { type: 'ok' } });
    // The push request left for the member's browser, readable with its keys.
    expect(pushService.received.length).toBe(pushesBefore + 1);
    const message = JSON.parse(decryptPush(pushService.received.at(-1)!.body, browser));
    expect(message).toMatchObject({ title: 'Nieuw bericht', body: 'Mark heeft je een bericht gestuurd', url: '/chats/42', icon: '/favicon.svg' });
    // The mail is in the outbox, Dutch, with a link to the conversation.
    const mails = await mailsTo('notify_new_message');
    expect(mails.length).toBe(mailsBefore + 1);
    expect(mails[0]!.subject).toBe('Mark heeft je een bericht gestuurd op Flirtlokaal');
    expect(mails[0]!.text).toContain('Hoi Sanne');
    expect(mails[0]!.text).toMatch(/https:\/\/[^\s]+\/chats\/42/);
  });

  it('PUSH-02 the member’s stored language is used (German)', async () => {
    await app.db.update(users).set({ language: 'de' }).where(eq(users.id, member.id));
    await notify(app, member.id, { type: 'like_received', fromUserId: sender.id }, { origin: 'http://localhost:4321' });
    const [mail] = await mailsTo('notify_like');
    expect(mail!.subject).toBe('Mark mag dich auf Flirtlokaal');
    expect(mail!.text).toContain('http://localhost:4321/likes/m/');
    expect(JSON.parse(decryptPush(pushService.received.at(-1)!.body, browser))).toMatchObject({ title: 'Neues Like', body: 'Mark mag dich' });
  });

  it.each([
    ['new_conversation', 'notify_new_conversation'],
    ['like_received', 'notify_like'],
    ['match', 'notify_match'],
  ] as const)('PUSH-02 %s is delivered with the mail kind %s', async (type, kind) => {
    const before = (await mailsTo(kind)).length;
    const pushes = pushService.received.length;
    const result = await notify(app, member.id, { type, fromUserId: sender.id });
    expect(result.type).toBe('delivered');
    expect((await mailsTo(kind)).length).toBe(before + 1);
    expect(pushService.received.length).toBe(pushes + 1);
  });

  it.each([
    ['new_message', 'new_messages'],
    ['new_conversation', 'new_conversations'],
    ['like_received', 'like_received'],
    ['match', 'like_received'],
  ] as const)('PUSH-02 with %s switched off (%s) neither a mail nor a push is sent', async (type, preference) => {
    await app.db
      .update(users)
      .set({ notificationsDisabled: [preference] })
      .where(eq(users.id, member.id));
    const mails = (await app.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, member.email))).length;
    const pushes = pushService.received.length;
    expect(await notify(app, member.id, { type, fromUserId: sender.id })).toEqual({ type: 'skipped', reason: 'disabled' });
    expect((await app.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, member.email))).length).toBe(mails);
    expect(pushService.received.length).toBe(pushes);
  });

  it('PUSH-02 other preferences do not stop an event', async () => {
    await app.db
      .update(users)
      .set({ notificationsDisabled: ['new_messages', 'promotions'] })
      .where(eq(users.id, member.id));
    const result = await notify(app, member.id, { type: 'like_received', fromUserId: sender.id });
    expect(result).toMatchObject({ type: 'delivered', push: { type: 'ok', value: { sent: 1 } }, mail: { type: 'ok' } });
  });

  it('PUSH-02 a deleted account gets nothing', async () => {
    await app.db.update(users).set({ status: 'deleted', deletedAt: new Date() }).where(eq(users.id, member.id));
    const mails = (await app.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, member.email))).length;
    const pushes = pushService.received.length;
    expect(await notify(app, member.id, { type: 'new_message', fromUserId: sender.id })).toEqual({ type: 'skipped', reason: 'deleted' });
    expect((await app.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, member.email))).length).toBe(mails);
    expect(pushService.received.length).toBe(pushes);
  });

  it('PUSH-02 a failing push service does not stop the mail', async () => {
    await app.push.unsubscribe(member.id);
    await app.push.subscribe(member.id, fakeBrowserKeys().subscription(`${pushService.origin}/push/broken`));
    const before = (await mailsTo('notify_match')).length;
    const result = await notify(app, member.id, { type: 'match', fromUserId: sender.id });
    expect(result).toMatchObject({ type: 'delivered', push: { type: 'ok', value: { sent: 0, failed: 1 } }, mail: { type: 'ok' } });
    expect((await mailsTo('notify_match')).length).toBe(before + 1);
  });

  it('PUSH-02 a failing mail relay does not stop the push', async () => {
    const pushes = pushService.received.length;
    const brokenMail = { ...app, mailer: new Mailer(app.db, pino({ level: 'silent' }), 'smtp://127.0.0.1:1') };
    const result = await notify(brokenMail, member.id, { type: 'new_message', fromUserId: sender.id });
    expect(result).toMatchObject({ type: 'delivered', push: { type: 'ok', value: { sent: 1 } }, mail: { type: 'error' } });
    expect(pushService.received.length).toBe(pushes + 1);
  });
});
