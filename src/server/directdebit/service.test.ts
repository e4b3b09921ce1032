/**
 * The direct-debit service (DD-01, DD-02) on PGlite, and on PostgreSQL (a pool of 20) when it answers:
 * a code taken once however many confirmations race, wrong codes that race still block,
 * expiry on the clock, one active mandate per member, the limit per period.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FakeClock, withSeededDatabase } from '../../../tests/setup/kit';
import { everyDatabaseKind } from '../../../tests/setup/databases';
import type { Db } from '../../db/client';
import { directDebitAccounts, directDebitCodes, directDebitMandates, payments, sites, users } from '../../db/schema';
import { eraseDeletedAccounts } from '../jobs/erase-deleted';
import { exportUserData } from '../accounts/data-export';
import { SiteDirectory } from '../sites/directory';
import { CODE_TTL_MS } from './codes';
import { directDebitLimitReached } from './limit';
import { confirmCode, resendCode, submitDetails, type DirectDebitDeps } from './service';
import type { SmsMessage, SmsProvider } from './sms';

/** The phone network, faked: what would have been sent. */
class CapturedSms implements SmsProvider {
  readonly mode = 'outbox' as const;
  readonly sent: SmsMessage[] = [];
  async send(message: SmsMessage) {
    this.sent.push(message);
    return { id: this.sent.length, providerMessageId: null };
  }
  lastCode(): string {
    return /(\d{6})/.exec(this.sent.at(-1)!.text)![1]!;
  }
}

let serial = 0;
async function member(db: Db, siteId: number): Promise<number> {
  const [row] = await db
    .insert(users)
    .values({ siteId, email: `dd-${++serial}-${Math.random().toString(36).slice(2)}@example.com`, language: 'en', status: 'active' })
    .returning({ id: users.id });
  return row!.id;
}

/** The default site, SMS kept in memory, and one member of it: the world of a direct-debit test. */
async function oneMember(db: Db, clock: FakeClock) {
  const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.isDefault, true)).limit(1);
  const sms = new CapturedSms();
  const deps: DirectDebitDeps = { db, clock, sms };
  return { site, sms, deps, m: await member(db, site!.id) };
}

const form = (mobile: string) => ({ accountHolder: 'Anna de Vries', iban: 'NL91ABNA0417164300', street: 'Keizersgracht', houseNumber: '12', zip: '1015 CJ', city: 'Amsterdam', mobile });
const smsText = (code: string) => `code ${code}`;

describe.each(await everyDatabaseKind())('direct debit service on %s', (kind) => {
  it('DD-02 concurrent confirmations take a code once; concurrent wrong codes block (none lost before the third); codes expire on the clock; one active mandate; the limit per period; erasure keeps only the reference', async () => {
    const clock = new FakeClock();
    await withSeededDatabase(kind, { clock }, async ({ db, photos }) => {
      const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.isDefault, true)).limit(1);
      const sms = new CapturedSms();
      const deps: DirectDebitDeps = { db, clock, sms };
      const submit = (memberId: number, mobile: string) => submitDetails(deps, { siteId: site!.id, memberId, country: 'NL', form: form(mobile), smsText });

      // 20 confirmations of the right code at once: one confirms, the others find no open code.
      const a = await member(db, site!.id);
      expect((await submit(a, '0611111111')).type).toBe('sent');
      const code = sms.lastCode();
      const results = await Promise.all(Array.from({ length: 20 }, () => confirmCode(deps, { memberId: a, code })));
      expect(results.filter((r) => r.type === 'confirmed')).toHaveLength(1);
      expect(results.filter((r) => r.type !== 'confirmed').every((r) => r.type === 'no_code')).toBe(true);
      // A second mandate confirmed replaces the first: one active per member.
      expect((await submit(a, '0611111112')).type).toBe('sent');
      expect((await confirmCode(deps, { memberId: a, code: sms.lastCode() })).type).toBe('confirmed');
      const statuses = (await db.select({ status: directDebitMandates.status }).from(directDebitMandates).where(eq(directDebitMandates.userId, a)).orderBy(directDebitMandates.id)).map(
        (r) => r.status,
      );
      expect(statuses).toEqual(['replaced', 'active']);

      // 10 wrong codes at once: the count reaches 3 (each is one upsert), the member is blocked, the right code no longer works.
      const b = await member(db, site!.id);
      await submit(b, '0611111113');
      const right = sms.lastCode();
      const wrong = right === '000000' ? '111111' : '000000';
      const wrongs = await Promise.all(Array.from({ length: 10 }, () => confirmCode(deps, { memberId: b, code: wrong })));
      expect(wrongs.some((r) => r.type === 'blocked')).toBe(true);
      const [state] = await db.select().from(directDebitAccounts).where(eq(directDebitAccounts.userId, b));
      expect(state!.blockedAt).not.toBeNull();
      expect(state!.wrongCodes).toBeGreaterThanOrEqual(3);
      expect(await confirmCode(deps, { memberId: b, code: right })).toEqual({ type: 'blocked', now: false });
      expect((await submit(b, '0611111114')).type).toBe('blocked');

      // Expiry: valid until 10 minutes have passed.
      const c = await member(db, site!.id);
      await submit(c, '0611111115');
      const late = sms.lastCode();
      clock.advance(CODE_TTL_MS);
      expect(await confirmCode(deps, { memberId: c, code: late })).toEqual({ type: 'expired' });
      clock.advance(-1);
      expect((await confirmCode(deps, { memberId: c, code: late })).type).toBe('confirmed');

      // The limit: pending and paid direct debits of the period count, other methods and older ones do not.
      const limit = { cents: 10_000, days: 30 };
      const now = clock.now();
      const pay = (amountCents: number, method: string, status: 'pending' | 'paid' | 'failed', createdAt: Date) =>
        db.insert(payments).values({
          siteId: site!.id,
          userId: c,
          credits: 1,
          amountCents,
          currency: 'EUR',
          method,
          provider: 'simulated',
          idempotencyKey: `${c}:${++serial}`,
          status,
          createdAt,
          updatedAt: createdAt,
        });
      await pay(6_000, 'directdebit', 'paid', now);
      await pay(3_000, 'directdebit', 'pending', now);
      await pay(9_000, 'directdebit', 'failed', now);
      await pay(9_000, 'card', 'paid', now);
      await pay(9_000, 'directdebit', 'paid', new Date(now.getTime() - 31 * 24 * 3600_000));
      expect(await directDebitLimitReached(db, { memberId: c, amountCents: 1_000, limit, now })).toBe(false);
      expect(await directDebitLimitReached(db, { memberId: c, amountCents: 1_001, limit, now })).toBe(true);

      // The member's data export (GDPR-01) holds the mandates and the SMS, never a code's hash.
      const exported = await exportUserData(db, await new SiteDirectory(db, clock, 0).forHost('localhost'), c, now);
      expect(exported!.direct_debit.mandates).toEqual([expect.objectContaining({ status: 'active', iban: 'NL91ABNA0417164300', mobile: '+31611111115' })]);
      expect(exported!.direct_debit.blocked_at).toBeNull();
      expect(JSON.stringify(exported)).not.toContain('code_hash');

      // Erasure of a deleted account (GDPR-01): the mandate keeps its reference, not the person's data.
      await db
        .update(users)
        .set({ status: 'deleted', deletedAt: new Date(now.getTime() - 15 * 24 * 3600_000) })
        .where(eq(users.id, c));
      expect((await eraseDeletedAccounts({ db, clock, photos })).erased).toContain(c);
      const [erased] = await db.select().from(directDebitMandates).where(eq(directDebitMandates.userId, c));
      expect(erased).toMatchObject({ status: 'active', accountHolder: 'deleted', street: '', city: '', mobile: '', iban: 'NL**4300' });
      expect(erased!.reference).toMatch(/^DD\d+-/);
      expect(await db.select().from(directDebitCodes).where(eq(directDebitCodes.userId, c))).toEqual([]);
    });
  }, 120_000);

  it('SEC-19 a burst of 20 wrong codes at once compares three of them: the attempt is counted before the comparison, so the right code after them is refused', async () => {
    const clock = new FakeClock();
    await withSeededDatabase(kind, { clock }, async ({ db }) => {
      const { site, sms, deps, m } = await oneMember(db, clock);
      expect((await submitDetails(deps, { siteId: site!.id, memberId: m, country: 'NL', form: form('0622222222'), smsText })).type).toBe('sent');
      const right = sms.lastCode();
      const wrongs = Array.from({ length: 20 }, (_, i) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0'));
      const results = await Promise.all(wrongs.map((code) => confirmCode(deps, { memberId: m, code })));
      // Compared: the two wrong codes told how many tries are left, and the third, which blocked. The other
      // 17 found the member blocked before any comparison.
      const compared = results.filter((r) => r.type === 'wrong' || (r.type === 'blocked' && r.now));
      expect(compared).toHaveLength(3);
      expect(
        results
          .filter((r) => r.type === 'wrong')
          .map((r) => (r.type === 'wrong' ? r.attemptsLeft : 0))
          .sort(),
      ).toEqual([1, 2]);
      expect(results.filter((r) => r.type === 'blocked' && !r.now)).toHaveLength(17);
      const [state] = await db.select().from(directDebitAccounts).where(eq(directDebitAccounts.userId, m));
      expect(state!.wrongCodes).toBe(3);
      expect(state!.blockedAt).not.toBeNull();
      expect(await confirmCode(deps, { memberId: m, code: right })).toEqual({ type: 'blocked', now: false });
      expect((await db.select({ status: directDebitMandates.status }).from(directDebitMandates).where(eq(directDebitMandates.userId, m))).map((r) => r.status)).toEqual(['abandoned']);

      // Two wrong codes, then the right one among a burst of wrong ones: three comparisons at most, and the
      // right code confirms when it is among them; the count starts over.
      const n = await member(db, site!.id);
      await submitDetails(deps, { siteId: site!.id, memberId: n, country: 'NL', form: form('0622222223'), smsText });
      const code = sms.lastCode();
      const other = code === '000000' ? '111111' : '000000';
      expect(await confirmCode(deps, { memberId: n, code: other })).toEqual({ type: 'wrong', attemptsLeft: 2 });
      const mixed = await Promise.all([confirmCode(deps, { memberId: n, code }), ...Array.from({ length: 5 }, () => confirmCode(deps, { memberId: n, code: other }))]);
      const [after] = await db.select().from(directDebitAccounts).where(eq(directDebitAccounts.userId, n));
      if (mixed[0]!.type === 'confirmed') {
        // The wrong codes that came after it met a used code: not compared, not counted.
        expect(after!.blockedAt).toBeNull();
        expect(after!.wrongCodes).toBe(0);
      } else {
        expect(mixed[0]).toEqual({ type: 'blocked', now: false });
        expect(after!.wrongCodes).toBe(3);
      }
      expect(mixed.filter((r) => r.type === 'wrong' || (r.type === 'blocked' && r.now) || r.type === 'confirmed').length).toBeLessThanOrEqual(2);
    });
  }, 120_000);

  it('DD-02 SMS limits: a mistyped number does not lock the member out; 3 codes per number per hour and 8 per member per day, each saying until when, also under a burst', async () => {
    const clock = new FakeClock();
    await withSeededDatabase(kind, { clock }, async ({ db }) => {
      const { site, sms, deps, m } = await oneMember(db, clock);
      const submit = (mobile: string) => submitDetails(deps, { siteId: site!.id, memberId: m, country: 'NL', form: form(mobile), smsText });
      const resend = () => resendCode(deps, { memberId: m, smsText });
      // The wrong number: the code never comes, the member asks twice more, then a fourth time.
      expect((await submit('0633333331')).type).toBe('sent');
      expect((await resend()).type).toBe('sent');
      expect((await resend()).type).toBe('sent');
      const wait = await resend();
      expect(wait).toMatchObject({ type: 'rate_limited', scope: 'number', minutes: 60 });
      expect(wait.type === 'rate_limited' && wait.until.getTime()).toBe(clock.now().getTime() + 60 * 60_000);
      // The right number works at once.
      expect((await submit('0633333332')).type).toBe('sent');
      expect(sms.sent.at(-1)!.to).toBe('+31633333332');
      // Per member per day: 8 codes over all numbers (4 taken), then a wait that says until when.
      const burst = await Promise.all(['0633333340', '0633333341', '0633333342', '0633333343', '0633333344', '0633333345'].map((n) => submit(n)));
      expect(burst.filter((r) => r.type === 'sent')).toHaveLength(4);
      const refused = burst.filter((r) => r.type === 'rate_limited');
      expect(refused).toHaveLength(2);
      expect(refused.every((r) => r.type === 'rate_limited' && r.scope === 'member' && r.minutes === 12 * 60)).toBe(true);
      // After the wait it works again.
      expect((await submit('0633333350')).type).toBe('rate_limited');
      clock.time += 12 * 60 * 60_000 + 1;
      expect((await submit('0633333351')).type).toBe('sent');
    });
  });
});
