/** Settings services (SET-01, SET-02, AUTH-04) against a real database (in-memory PGlite). */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { type Database } from '../../db/client';
import { loginThrottle, profiles, users } from '../../db/schema';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { createSession } from '../auth/sessions';
import { loadSessionMember } from '../session/lookup';
import { isListedTo } from '../members/visibility';
import { InProcessBus } from '../realtime/bus';
import { changePassword, checkCurrentPassword, NOTIFICATION_KEYS, notificationStates, passwordCheckKey, setInvisible, setNotificationPreferences } from './preferences';

const clock = new FakeClock();
const PASSWORD = 'current-secret-words';
let database: Database;
let kit: SeededDatabase;
let hash: string;
let siteId: number;
const bus = new InProcessBus();
/** The sites whose shared answers the bus said to drop (`site.content_changed`). */
const contentChanged: number[] = [];
bus.subscribe('site.content_changed', ({ siteId }) => void contentChanged.push(siteId));
const deps = () => ({ db: database.db, clock, bus });

beforeAll(async () => {
  kit = await seededDatabase({ clock: clock, profilesPerSite: 0 });
  database = kit.database;
  hash = await hashPassword(PASSWORD);
  siteId = (await database.db.select({ id: users.siteId }).from(users).limit(1))[0]!.id;
});
afterAll(() => kit?.close());

let counter = 0;
async function member() {
  const [user] = await database.db
    .insert(users)
    .values({ siteId, email: `prefs-${++counter}@example.com`, passwordHash: hash, status: 'active', language: 'en', emailConfirmedAt: clock.now(), publicProfile: true })
    .returning({ id: users.id });
  await database.db.insert(profiles).values({ userId: user!.id, siteId, name: `Pref${counter}`, gender: 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL' });
  return user!.id;
}
const row = async (id: number) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!;

describe('notification preferences', () => {
  it('SET-02 the eight preferences are stored as the list of disabled keys', async () => {
    const id = await member();
    expect(NOTIFICATION_KEYS).toEqual(['new_conversations', 'new_messages', 'like_received', 'unread_message_reminders', 'promotions', 'weekly_updates', 'news', 'reminders']);
    const result = await setNotificationPreferences(deps(), id, ['new_messages', 'like_received', 'new_conversations', 'unread_message_reminders']);
    expect(result).toEqual({ type: 'ok', disabled: ['promotions', 'weekly_updates', 'news', 'reminders'] });
    expect((await row(id)).notificationsDisabled).toEqual(['promotions', 'weekly_updates', 'news', 'reminders']);
    expect(notificationStates((await row(id)).notificationsDisabled)).toMatchObject({ new_messages: true, promotions: false });
    await setNotificationPreferences(deps(), id, []);
    expect((await row(id)).notificationsDisabled).toEqual([...NOTIFICATION_KEYS]);
    await setNotificationPreferences(deps(), id, [...NOTIFICATION_KEYS]);
    expect((await row(id)).notificationsDisabled).toEqual([]);
  });

  it('SET-02 an unknown key refuses the whole change', async () => {
    const id = await member();
    await setNotificationPreferences(deps(), id, ['news']);
    const before = (await row(id)).notificationsDisabled;
    expect(await setNotificationPreferences(deps(), id, ['news', 'sms_spam'])).toMatchObject({ type: 'error', reason: 'validation_failed' });
    expect((await row(id)).notificationsDisabled).toEqual(before);
  });
});

describe('invisible mode', () => {
  it('SET-01 invisible members drop out of member listings and come back when visible again', async () => {
    const id = await member();
    // The one listing rule every list (search, likes, games, signup matches) applies.
    const visible = () => isListedTo(database.db, { siteId, userId: null }, id);
    expect(await visible()).toBe(true);
    contentChanged.length = 0;
    await setInvisible(deps(), id, true);
    expect((await row(id)).invisible).toBe(true);
    expect(await visible()).toBe(false);
    await setInvisible(deps(), id, false);
    expect(await visible()).toBe(true);
    // Each change drops the site's shared answers (search pages, teasers, cached landers) in every process.
    expect(contentChanged).toEqual([siteId, siteId]);
  });
});

describe('password change', () => {
  it('AUTH-04 a password change keeps this session and ends the member’s other sessions', async () => {
    const id = await member();
    const here = await createSession(database.db, clock, id);
    const elsewhere = await createSession(database.db, clock, id);
    const result = await changePassword(deps(), {
      userId: id,
      keepSessionId: here.session.id,
      form: { current_password: PASSWORD, password: 'a-fresh-secret-1', password_repeat: 'a-fresh-secret-1' },
    });
    expect(result).toEqual({ type: 'ok' });
    expect(await verifyPassword((await row(id)).passwordHash!, 'a-fresh-secret-1')).toBe(true);
    expect(await loadSessionMember(database.db, clock, here.token, siteId)).not.toBeNull();
    expect(await loadSessionMember(database.db, clock, elsewhere.token, siteId)).toBeNull();
  });

  it('SET-01 a wrong current password, different repeat or a weak password change nothing', async () => {
    const id = await member();
    const other = await createSession(database.db, clock, id);
    const change = (current_password: string, password: string, password_repeat: string) =>
      changePassword(deps(), { userId: id, keepSessionId: null, form: { current_password, password, password_repeat } });
    expect(await change('wrong', 'a-fresh-secret-1', 'a-fresh-secret-1')).toEqual({ type: 'error', reason: 'validation_failed', fields: { current_password: 'wrong_password' } });
    expect(await change(PASSWORD, 'a-fresh-secret-1', 'a-fresh-secret-2')).toEqual({ type: 'error', reason: 'validation_failed', fields: { password_repeat: 'passwords_differ' } });
    expect(await change(PASSWORD, 'short', 'short')).toMatchObject({ fields: { password: 'password_too_short' } });
    expect(await change(PASSWORD, 'x'.repeat(2000), 'x'.repeat(2000))).toMatchObject({ reason: 'validation_failed' });
    expect((await row(id)).passwordHash).toBe(hash);
    expect(await loadSessionMember(database.db, clock, other.token, siteId)).not.toBeNull();
  });

  it('SEC-19 a burst of 20 wrong current passwords at once checks five: each takes its try before the password is checked', async () => {
    const id = await member();
    const [me] = await database.db.select({ id: users.id, passwordHash: users.passwordHash }).from(users).where(eq(users.id, id));
    const results = await Promise.all(Array.from({ length: 20 }, () => checkCurrentPassword(deps(), me!, 'wrong')));
    expect(results.filter((r) => r.type === 'wrong')).toHaveLength(4);
    expect(results.filter((r) => r.type === 'blocked')).toHaveLength(16);
    const [row] = await database.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, passwordCheckKey(id)));
    expect(row?.failures).toBe(5);
    expect(await checkCurrentPassword(deps(), me!, PASSWORD)).toMatchObject({ type: 'blocked' });
  });

  it('SET-01 wrong current passwords are throttled per member', async () => {
    const id = await member();
    const change = (current_password: string) =>
      changePassword(deps(), { userId: id, keepSessionId: null, form: { current_password, password: 'a-fresh-secret-1', password_repeat: 'a-fresh-secret-1' } });
    for (let i = 0; i < 4; i++) await change('wrong');
    expect(await change('wrong')).toEqual({ type: 'error', reason: 'too_many_attempts', minutes: 15 });
    expect(await change(PASSWORD)).toMatchObject({ reason: 'too_many_attempts' });
    expect((await row(id)).passwordHash).toBe(hash);
    clock.advance(15 * 60_000);
    expect(await change(PASSWORD)).toEqual({ type: 'ok' });
  });
});
