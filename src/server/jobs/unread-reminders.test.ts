import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../../tests/setup/databases';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { mailOutbox, profiles, users } from '../../db/schema';
import { createSession } from '../auth/sessions';
import { sendMessage } from '../chat/send';
import { grant } from '../credits/ledger';
import { createLogger } from '../logger';
import { InProcessBus } from '../realtime/bus';
import { loadSessionMember } from '../session/lookup';
import { sendUnreadReminders, UNREAD_REMINDER_KIND } from './unread-reminders';

const PRICES = { message_credits: 1, photo_credits: 1, gift_credits: 1, message_length: 500 };
const MINUTE = 60_000;

describe.each(await databaseKinds())('unread reminder mails (issue 10) on %s', (kind) => {
  let testDb: TestDatabase;
  let seeded: SeededDatabase;
  let clock: FakeClock;
  let a: number;
  let b: number;
  const deps = () => ({ db: seeded.db, clock, log: createLogger('silent'), mailer: seeded.mailer, sites: seeded.sites });
  const reminders = async () => (await seeded.db.select().from(mailOutbox).where(eq(mailOutbox.kind, UNREAD_REMINDER_KIND))).filter((m) => m.userId === b);
  const write = (body: string) =>
    sendMessage({ db: seeded.db, bus: new InProcessBus(), clock }, { siteId: 1, userId: a, paidUser: true }, PRICES, { to: b, clientId: crypto.randomUUID(), kind: 'text', body });

  beforeAll(async () => {
    // The outbox stamps mails with the database's own time, so this clock starts at the real now.
    clock = new FakeClock(Date.now());
    testDb = await createTestDatabase(kind);
    seeded = await seededDatabase({ clock, profilesPerSite: 0, url: testDb.url });
    const ids = await seeded.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.siteId, 1));
    a = ids.find((u) => u.email === 'premium@demo.test')!.id;
    b = ids.find((u) => u.email === 'free@demo.test')!.id;
    await grant(seeded.db, { memberId: a, amount: 50, reason: 'test', reference: 'test:reminders' });
    await seeded.db
      .update(profiles)
      .set({ lastActiveAt: new Date(clock.now().getTime() - 60 * MINUTE) })
      .where(eq(profiles.userId, b));
  });
  afterAll(async () => {
    await seeded?.close();
    await testDb?.drop();
  });

  it('CHT-01 one mail after the quiet time for a member away since the message, at most once a day, never when switched off', async () => {
    expect((await write('Hoi!')).type).toBe('sent');
    expect((await write('Ben je er?')).type).toBe('sent');
    clock.advance(30 * MINUTE);
    expect(await sendUnreadReminders(deps(), { quietMinutes: 60 })).toEqual({ sent: 0 });
    clock.advance(31 * MINUTE);
    expect(await sendUnreadReminders(deps(), { quietMinutes: 60 })).toEqual({ sent: 1 });
    const [mail] = await reminders();
    expect(mail?.toAddress).toBe('free@demo.test');
    expect(mail?.text).toContain('2');
    expect(mail?.text).toContain('/chats');
    // Once a day.
    clock.advance(5 * 60 * MINUTE);
    expect((await write('Nog een')).type).toBe('sent');
    clock.advance(61 * MINUTE);
    expect(await sendUnreadReminders(deps(), { quietMinutes: 60 })).toEqual({ sent: 0 });
    // The next day again, unless the member came by since the last message or switched it off.
    clock.advance(24 * 60 * MINUTE);
    expect((await write('Morgen?')).type).toBe('sent');
    clock.advance(61 * MINUTE);
    await seeded.db
      .update(users)
      .set({ notificationsDisabled: ['new_messages'] })
      .where(eq(users.id, b));
    expect(await sendUnreadReminders(deps(), { quietMinutes: 60 })).toEqual({ sent: 0 });
    await seeded.db.update(users).set({ notificationsDisabled: [] }).where(eq(users.id, b));
    // The member opens a page (any signed-in request records it) without reading the messages: no mail.
    const { token } = await createSession(seeded.db, clock, b);
    expect((await loadSessionMember(seeded.db, clock, token, 1))?.user.id).toBe(b);
    expect(await sendUnreadReminders(deps(), { quietMinutes: 60 })).toEqual({ sent: 0 });
    await seeded.db
      .update(profiles)
      .set({ lastActiveAt: new Date(clock.now().getTime() - 2 * 60 * MINUTE) })
      .where(eq(profiles.userId, b));
    expect(await sendUnreadReminders(deps(), { quietMinutes: 60 })).toEqual({ sent: 1 });
    expect(await reminders()).toHaveLength(2);
  });
});
