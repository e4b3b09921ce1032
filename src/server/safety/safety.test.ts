/**
 * SAFE-01, SAFE-02 against a real database: the flag decided at send time and stored (never on a
 * fictional profile's message, shown only to the recipient), the admins' phrase lists (saved, reset,
 * audited, used at once), the moderators' counts per member, a member's report with the messages it
 * carries and the block in the same step, its daily limit, and the moderator's warn and photo removal.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { auditLog, blocks, complaintMessages, complaintNotes, complaints, mailOutbox, messages, photos, profiles, users } from '../../db/schema';
import { sendMessage, type ChatPrices } from '../chat/send';
import { grant } from '../credits/ledger';
import { InProcessBus } from '../realtime/bus';
import { messageJson } from '../session/stream';
import { reportMember, REPORTS_PER_DAY } from '../members/reports';
import { createStaff } from '../staff/accounts';
import { complaintDetail } from '../staff/complaints-admin';
import { removeMemberPhotos, warnMember } from '../staff/moderation';
import { memberSafetyCount, safetyCountsByMember } from './counts';
import { resetSafetyPhrases, safetyPhraseLists, saveSafetyPhrases } from './lists';
import { createLogger } from '../logger';

const PRICES: ChatPrices = { message_credits: 0, photo_credits: 0, gift_credits: 0, message_length: 500 };

describe('safety in the chat (SAFE-01, SAFE-02)', () => {
  let kit: SeededDatabase;
  let siteId: number;
  const clock = new FakeClock();
  const bus = new InProcessBus();
  let serial = 0;
  const deps = () => ({ db: kit.db, bus, clock });

  async function member(options: { fictional?: boolean; language?: string } = {}) {
    serial++;
    const [row] = await kit.db
      .insert(users)
      .values({
        siteId,
        email: `safety-${serial}-${Math.random().toString(36).slice(2)}@example.com`,
        language: options.language ?? 'en',
        status: 'active',
        role: options.fictional ? 'fictional' : 'member',
      })
      .returning({ id: users.id });
    await kit.db
      .insert(profiles)
      .values({ userId: row!.id, siteId, name: `Safety ${serial}`, gender: 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL', fictional: options.fictional ?? false });
    await grant(kit.db, { memberId: row!.id, amount: 50, reason: 'test', reference: `test:safety:${row!.id}` });
    return { id: row!.id, sender: { siteId, userId: row!.id, paidUser: true }, member: { siteId, userId: row!.id } };
  }
  const say = async (from: Awaited<ReturnType<typeof member>>, to: number, body: string) => {
    const sent = await sendMessage(deps(), from.sender, PRICES, { to, clientId: crypto.randomUUID(), kind: 'text', body });
    if (sent.type !== 'sent') throw new Error(`not sent: ${sent.reason}`);
    return sent.message;
  };

  beforeAll(async () => {
    kit = await seededDatabase({ clock });
    siteId = (await kit.site()).settings.id;
  });
  afterAll(() => kit?.close());

  it('SAFE-02 a message asking for money or another app is flagged when sent; the notice is the recipient’s only', async () => {
    const a = await member();
    const b = await member();
    const plain = await say(a, b.id, 'Hi, how was your day?');
    const asking = await say(a, b.id, 'Can you send me money? Or add me on W h a t s A p p');
    expect(plain.safetyFlagged).toBe(false);
    expect(asking.safetyFlagged).toBe(true);
    const [stored] = await kit.db.select({ flagged: messages.safetyFlagged }).from(messages).where(eq(messages.id, asking.id));
    expect(stored!.flagged).toBe(true);
    expect(messageJson(asking, b.id).safety_notice).toBe(true);
    expect(messageJson(asking, a.id).safety_notice).toBe(false);
    expect(messageJson(plain, b.id).safety_notice).toBe(false);
  });

  it('SAFE-02 never on a fictional profile’s message', async () => {
    const fictional = await member({ fictional: true });
    const b = await member();
    const m = await say(fictional, b.id, 'send me money via paypal');
    expect(m.safetyFlagged).toBe(false);
    expect(messageJson(m, b.id).safety_notice).toBe(false);
  });

  it('SAFE-02 admins edit a language’s list: saved, audited, used for the next message; a reset brings the built-in list back', async () => {
    const admin = await createStaff(kit, { email: `safety-admin-${serial}@example.com`, name: 'Admin', role: 'admin', password: 'a-long-password-1' });
    const a = await member();
    const b = await member();
    expect((await say(a, b.id, 'let us talk on zorblax')).safetyFlagged).toBe(false);
    const stored = await saveSafetyPhrases(kit, admin, 'nl', 'zorblax\n\n  zorblax \ngeld sturen');
    expect(stored).toEqual(['zorblax', 'geld sturen']);
    const nl = (await safetyPhraseLists(kit.db)).find((l) => l.language === 'nl')!;
    expect(nl).toMatchObject({ builtIn: false, phrases: ['zorblax', 'geld sturen'] });
    expect((await say(a, b.id, 'let us talk on Zorblax')).safetyFlagged).toBe(true);
    // The Dutch built-in 'bankrekening' is gone now; the other languages' lists still apply.
    expect((await say(a, b.id, 'wat is je bankrekening')).safetyFlagged).toBe(false);
    expect((await say(a, b.id, 'what is your bank account')).safetyFlagged).toBe(true);
    const audited = await kit.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'safety.phrases'), eq(auditLog.targetId, 'nl')));
    expect(audited).toHaveLength(1);
    expect(audited[0]!.after).toEqual({ phrases: ['zorblax', 'geld sturen'] });
    await resetSafetyPhrases(kit, admin, 'nl');
    expect((await safetyPhraseLists(kit.db)).find((l) => l.language === 'nl')!.builtIn).toBe(true);
    expect((await say(a, b.id, 'wat is je bankrekening')).safetyFlagged).toBe(true);
    expect(await kit.db.$count(auditLog, eq(auditLog.action, 'safety.phrases_reset'))).toBe(1);
  });

  it('SAFE-02 moderators see the flagged messages counted per sending member, most first, within the window', async () => {
    const scammer = await member();
    const [x, y, z] = [await member(), await member(), await member()];
    for (const to of [x.id, y.id, z.id]) await say(scammer, to, 'I need money, can you buy me a gift card?');
    await say(scammer, x.id, 'hello again');
    const counts = await safetyCountsByMember(kit.db, clock.now(), 200);
    const mine = counts.find((c) => c.memberId === scammer.id);
    expect(mine).toMatchObject({ messages: 3, recipients: 3, name: expect.stringMatching(/^Safety/) });
    expect(counts[0]!.messages).toBeGreaterThanOrEqual(3);
    expect(await memberSafetyCount(kit.db, scammer.id, clock.now())).toBe(3);
    // Older than the window: not counted.
    expect(await memberSafetyCount(kit.db, scammer.id, new Date(clock.now().getTime() + 31 * 86_400_000))).toBe(0);
  });

  it('SAFE-01 a report carries the reported member’s messages to the reporter (the reported one marked) and blocks in the same step', async () => {
    const reporter = await member();
    const reported = await member();
    const mine = await say(reporter, reported.id, 'hi there');
    const first = await say(reported, reporter.id, 'hello you');
    const asking = await say(reported, reporter.id, 'send money to my bank account please');
    const result = await reportMember(deps(), reporter.member, { memberId: reported.id, reason: 'scam', messageId: asking.id, note: '  He asked for money \r\n twice ', block: true });
    expect(result).toMatchObject({ type: 'ok', blocked: true, evidence: 2 });
    if (result.type !== 'ok') return;
    const [complaint] = await kit.db.select().from(complaints).where(eq(complaints.id, result.id));
    expect(complaint).toMatchObject({ kind: 'report', reason: 'scam', reportedUserId: reported.id, userId: reporter.id, status: 'open', message: 'He asked for money \n twice' });
    const evidence = await kit.db.select().from(complaintMessages).where(eq(complaintMessages.complaintId, result.id)).orderBy(complaintMessages.messageId);
    expect(evidence.map((e) => [e.messageId, e.body, e.reported, e.safetyFlagged])).toEqual([
      [first.id, 'hello you', false, false],
      [asking.id, 'send money to my bank account please', true, true],
    ]);
    expect(evidence.some((e) => e.messageId === mine.id)).toBe(false);
    expect(await kit.db.$count(blocks, and(eq(blocks.blockerId, reporter.id), eq(blocks.blockedId, reported.id)))).toBe(1);
    // The moderator's view: the member, the evidence, their flagged messages.
    const detail = await complaintDetail(kit.db, result.id, clock.now());
    expect(detail?.report).toMatchObject({ memberId: reported.id, flagged: 1, otherReports: 0, member: { status: 'active' } });
    expect(detail?.report?.evidence).toHaveLength(2);
  });

  it('SAFE-01 a report of a profile without messages, without blocking; another’s message id is not taken as evidence', async () => {
    const reporter = await member();
    const reported = await member();
    const stranger = await member();
    const foreign = await say(stranger, reporter.id, 'not theirs');
    const result = await reportMember(deps(), reporter.member, { memberId: reported.id, reason: 'fake', messageId: foreign.id, note: '', block: false });
    expect(result).toMatchObject({ type: 'ok', blocked: false, evidence: 0 });
    expect(await kit.db.$count(blocks, eq(blocks.blockerId, reporter.id))).toBe(0);
  });

  it('SAFE-01 refused: oneself, unknown or another site’s member, and over the daily limit — nothing stored, nothing blocked', async () => {
    const reporter = await member();
    const reported = await member();
    const input = { memberId: reported.id, reason: 'spam' as const, messageId: null, note: '', block: true };
    expect(await reportMember(deps(), reporter.member, { ...input, memberId: reporter.id })).toEqual({ type: 'refused', reason: 'self' });
    expect(await reportMember(deps(), reporter.member, { ...input, memberId: 2_000_000_000 })).toEqual({ type: 'refused', reason: 'not_found' });
    expect(await reportMember(deps(), { ...reporter.member, siteId: siteId + 1 }, input)).toEqual({ type: 'refused', reason: 'not_found' });
    for (let i = 0; i < REPORTS_PER_DAY; i++) expect((await reportMember(deps(), reporter.member, { ...input, block: false })).type).toBe('ok');
    expect(await reportMember(deps(), reporter.member, input)).toEqual({ type: 'refused', reason: 'rate_limited' });
    expect(await kit.db.$count(complaints, eq(complaints.userId, reporter.id))).toBe(REPORTS_PER_DAY);
    expect(await kit.db.$count(blocks, eq(blocks.blockerId, reporter.id))).toBe(0);
    clock.advance(86_400_001);
    expect((await reportMember(deps(), reporter.member, input)).type).toBe('ok');
  });

  it('SAFE-01 the moderator warns the reported member in their language and removes their photos, audited and noted on the complaint', async () => {
    const moderator = await createStaff(kit, { email: `safety-mod-${serial}@example.com`, name: 'Mod', role: 'moderator', password: 'a-long-password-1' });
    const reporter = await member();
    const reported = await member({ language: 'de' });
    await kit.db.insert(photos).values([
      { userId: reported.id, filename: `safety-${reported.id}-a.jpg`, thumbFilename: `safety-${reported.id}-a-t.jpg`, width: 600, height: 800, status: 'active' as const },
      { userId: reported.id, filename: `safety-${reported.id}-b.jpg`, thumbFilename: `safety-${reported.id}-b-t.jpg`, width: 600, height: 800, status: 'inspection_pending' as const },
    ]);
    const report = await reportMember(deps(), reporter.member, { memberId: reported.id, reason: 'inappropriate', messageId: null, note: '', block: false });
    if (report.type !== 'ok') throw new Error('not reported');
    expect(await warnMember({ ...kit, clock }, moderator, reported.id, report.id)).toBe('ok');
    const [mail] = await kit.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.userId, reported.id), eq(mailOutbox.kind, 'member_warning')));
    expect(mail?.subject).toMatch(/Verwarnung/);
    const moderation = { ...kit, clock, bus, log: createLogger('silent') };
    expect(await removeMemberPhotos(moderation, moderator, reported.id, report.id)).toBe(2);
    expect((await kit.db.select({ status: photos.status }).from(photos).where(eq(photos.userId, reported.id))).map((p) => p.status)).toEqual(['removed', 'removed']);
    const actions = (await kit.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.staffId, moderator.id))).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['member.warn', 'photo.reject', 'photo.reject']));
    expect(await kit.db.$count(complaintNotes, eq(complaintNotes.complaintId, report.id))).toBe(2);
    const [complaint] = await kit.db.select({ status: complaints.status }).from(complaints).where(eq(complaints.id, report.id));
    expect(complaint!.status).toBe('in_progress');
  });
});
