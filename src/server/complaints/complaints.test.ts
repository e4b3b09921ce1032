/**
 * The complaint service (STA-03, SEC-05) against a real database: store, mail support and complainant,
 * refuse, rate limit (per address, per IP, per site), and never relay a stranger's words or links.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { type Database } from '../../db/client';
import { complaints, loginThrottle, mailOutbox, profiles, users } from '../../db/schema';
import { Mailer } from '../mail/mailer';
import { type Site } from '../sites/directory';
import { COMPLAINT_IP_RULE, COMPLAINT_SITE_RULE, COMPLAINTS_PER_DAY, fileComplaint, type ComplaintRequest } from './complaints';

let kit: SeededDatabase;
let database: Database;
let mailer: Mailer;
let site: Site;
let siteTwo: Site;
const clock = new FakeClock();

const good = {
  name: 'Jan de Vries',
  email: 'jan@example.com',
  subject: 'Dubbel afgeschreven',
  message: 'Mijn betaling van gisteren is twee keer afgeschreven.\n\nGraag het verschil terug.',
};

beforeAll(async () => {
  kit = await seededDatabase({ clock });
  database = kit.database;
  mailer = kit.mailer;
  site = await kit.site('localhost');
  siteTwo = await kit.site('127.0.0.1');
});
afterAll(() => kit?.close());
beforeEach(async () => {
  await database.db.delete(complaints);
  await database.db.delete(mailOutbox);
  await database.db.delete(loginThrottle);
  vi.restoreAllMocks();
});

const deps = () => ({ db: database.db, mailer, clock });
const request = (form: ComplaintRequest['form'], more: Partial<ComplaintRequest> = {}): ComplaintRequest => ({ site, lang: 'en', userId: null, ip: null, form, ...more });

describe('fileComplaint', () => {
  it('STA-03 stores the complaint and mails support (reply-to the complainant) and the complainant in their language', async () => {
    const send = vi.spyOn(mailer, 'send');
    const result = await fileComplaint(deps(), request({ ...good, name: '  Jan   de Vries ' }, { lang: 'de', userId: 42, ip: '198.51.100.20' }));
    expect(result.type).toBe('ok');
    if (result.type !== 'ok') return;
    expect(result.mails.every((m) => m.type === 'ok')).toBe(true);

    const [row] = await database.db.select().from(complaints).where(eq(complaints.id, result.id));
    expect(row).toMatchObject({ siteId: site.settings.id, userId: 42, name: 'Jan de Vries', email: good.email, subject: good.subject, status: 'open' });
    expect(row!.message).toBe(good.message);
    expect(row!.createdAt.toISOString()).toBe(clock.now().toISOString());

    const [toSupport] = await mailer.recent(1, site.settings.support_email);
    expect(toSupport).toMatchObject({ kind: 'complaint', siteId: site.settings.id, userId: 42 });
    // The support mail is in the site's language (Dutch for site 1) and carries the whole complaint.
    expect(toSupport!.subject).toBe(`Klacht #${result.id}: ${good.subject}`);
    expect(toSupport!.text).toContain('Van: Jan de Vries (jan@example.com)');
    expect(toSupport!.text).toContain('Graag het verschil terug.');
    expect(send.mock.calls[0]![0]).toMatchObject({ kind: 'complaint', to: site.settings.support_email, replyTo: good.email });

    const [toComplainant] = await mailer.recent(1, good.email);
    expect(toComplainant).toMatchObject({ kind: 'complaint_confirmation', siteId: site.settings.id });
    expect(toComplainant!.subject).toContain(`(#${result.id})`);
    expect(toComplainant!.subject).toMatch(/^Wir haben deine Beschwerde erhalten/);
    // An address nobody proved to own (member 42 has no such confirmed address) gets no copy (SEC-05).
    expect(toComplainant!.text).toContain('Hallo,');
    expect(toComplainant!.text).toContain(`unter der Nummer ${result.id} registriert`);
    expect(toComplainant!.text).not.toContain('Jan de Vries');
    expect(toComplainant!.text).not.toContain('Mijn betaling van gisteren');
    expect(await database.db.$count(mailOutbox)).toBe(2);
  });

  const attack = {
    name: 'Prize desk at win-now.net',
    email: 'victim@example.org',
    subject: 'You won! Claim at https://evil-prizes.com/claim',
    message: 'Dear customer, your account is locked. Log in at http://evil-prizes.com/login or bit.ly/3xYz now.\n\nNeed help? Mail payouts@evil-prizes.com or visit www.evil-prizes.com today.',
  };
  const words = ['Prize desk', 'You won', 'Claim', 'Dear customer', 'locked', 'Log in at', 'Need help', 'payouts'];
  const links = ['evil-prizes', 'win-now', 'bit.ly', 'http://', 'https://evil'];

  it('SEC-05 STA-03 the confirmation to a visitor-given address carries none of the typed words or links', async () => {
    const result = await fileComplaint(deps(), request(attack, { ip: '198.51.100.21' }));
    expect(result.type).toBe('ok');
    const [confirmation] = await mailer.recent(1, attack.email);
    expect(confirmation?.kind).toBe('complaint_confirmation');
    for (const part of [confirmation!.subject, confirmation!.text, confirmation!.html]) {
      for (const w of [...words, ...links]) expect(part, w).not.toContain(w);
    }
    expect(confirmation!.text).toContain('For your safety, this e-mail does not repeat what was typed into the form.');
  });

  it('SEC-05 STA-03 the support mail carries the complaint with its links stripped, in subject, text and html', async () => {
    const result = await fileComplaint(deps(), request(attack, { ip: '198.51.100.22' }));
    expect(result.type).toBe('ok');
    if (result.type !== 'ok') return;
    const [support] = await mailer.recent(1, site.settings.support_email);
    expect(support?.kind).toBe('complaint');
    expect(support!.subject).toBe(`Klacht #${result.id}: You won! Claim at [link verwijderd]`);
    expect(support!.text).toContain('Van: Prize desk at [link verwijderd] (victim@example.org)');
    expect(support!.text).toContain('Log in at [link verwijderd] or [link verwijderd] now.');
    expect(support!.text).toContain('Need help? Mail [link verwijderd] or visit [link verwijderd] today.');
    for (const part of [support!.subject, support!.text, support!.html]) for (const l of links) expect(part, l).not.toContain(l);
    // The stored complaint keeps the original words as evidence for support.
    const [row] = await database.db.select().from(complaints).where(eq(complaints.id, result.id));
    expect(row!.message).toBe(attack.message);
  });

  it('SEC-05 a member whose own confirmed address is given gets a copy (links stripped); another address does not', async () => {
    const [user] = await database.db
      .insert(users)
      .values({ siteId: site.settings.id, email: 'member-complains@example.com', passwordHash: 'x', status: 'active', language: 'en', emailConfirmedAt: clock.now() })
      .returning({ id: users.id });
    await database.db.insert(profiles).values({ userId: user!.id, siteId: site.settings.id, name: 'Mia', gender: 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL' });
    const own = await fileComplaint(deps(), request({ ...attack, email: 'Member-Complains@example.com' }, { userId: user!.id, ip: '198.51.100.23' }));
    expect(own.type).toBe('ok');
    const [copy] = await mailer.recent(1, 'Member-Complains@example.com');
    expect(copy!.text).toContain('Dear customer, your account is locked. Log in at [link removed] or [link removed] now.');
    expect(copy!.text).not.toContain('evil-prizes');
    const other = await fileComplaint(deps(), request({ ...attack, email: 'someone-else@example.org' }, { userId: user!.id, ip: '198.51.100.23' }));
    expect(other.type).toBe('ok');
    const [plain] = await mailer.recent(1, 'someone-else@example.org');
    for (const w of words) expect(plain!.text, w).not.toContain(w);
  });

  it(`SEC-05 STA-03 at most ${COMPLAINT_IP_RULE.limit} complaints an hour from one client address: the next is refused, stored and mailed nowhere`, async () => {
    const ip = '203.0.113.50';
    for (let i = 0; i < COMPLAINT_IP_RULE.limit; i++) expect((await fileComplaint(deps(), request({ ...good, email: `spray-${i}@example.org` }, { ip }))).type).toBe('ok');
    const stored = await database.db.$count(complaints);
    const mailed = await database.db.$count(mailOutbox);
    const refused = await fileComplaint(deps(), request({ ...good, email: 'one-more@example.org' }, { ip }));
    expect(refused).toMatchObject({ type: 'rate_limited', limit: 'ip', values: { email: 'one-more@example.org' } });
    expect(await database.db.$count(complaints)).toBe(stored);
    expect(await database.db.$count(mailOutbox)).toBe(mailed);
    // Another client address goes on; the blocked one may again after the hour.
    expect((await fileComplaint(deps(), request({ ...good, email: 'one-more@example.org' }, { ip: '203.0.113.51' }))).type).toBe('ok');
    clock.time += COMPLAINT_IP_RULE.blockMs;
    expect((await fileComplaint(deps(), request({ ...good, email: 'later@example.org' }, { ip }))).type).toBe('ok');
  });

  it(`SEC-05 STA-03 at most ${COMPLAINT_SITE_RULE.limit} complaints an hour per site from all addresses together; other sites go on`, async () => {
    for (let i = 0; i < COMPLAINT_SITE_RULE.limit; i++) {
      const result = await fileComplaint(deps(), request({ ...good, email: `botnet-${i}@example.org` }, { ip: `192.0.2.${i + 1}` }));
      expect(result.type).toBe('ok');
    }
    const stored = await database.db.$count(complaints);
    const mailed = await database.db.$count(mailOutbox);
    const refused = await fileComplaint(deps(), request({ ...good, email: 'botnet-last@example.org' }, { ip: '192.0.2.200' }));
    expect(refused).toMatchObject({ type: 'rate_limited', limit: 'site' });
    expect(await database.db.$count(complaints)).toBe(stored);
    expect(await database.db.$count(mailOutbox)).toBe(mailed);
    expect((await fileComplaint(deps(), request(good, { site: siteTwo, ip: '192.0.2.201' }))).type).toBe('ok');
  });

  it('STA-03 refuses bad input field by field and stores and mails nothing', async () => {
    const cases: Array<[ComplaintRequest['form'], Record<string, string>]> = [
      [{}, { name: 'required', email: 'required', subject: 'required', message: 'required' }],
      [{ ...good, email: 'not-an-email' }, { email: 'invalid_email' }],
      [
        { ...good, name: 'J', subject: 'Hi', message: 'Too short.' },
        { name: 'too_short', subject: 'too_short', message: 'too_short' },
      ],
      [{ ...good, message: 'x'.repeat(5001) }, { message: 'too_long' }],
      [{ ...good, name: 'Jan <script>' }, { name: 'invalid_characters' }],
      [
        { ...good, subject: 42, name: ['a'] },
        { subject: 'required', name: 'required' },
      ],
    ];
    for (const [form, fields] of cases) {
      const result = await fileComplaint(deps(), request(form));
      expect(result.type, JSON.stringify(form).slice(0, 80)).toBe('invalid');
      if (result.type === 'invalid') expect(result.fields).toEqual(fields);
    }
    const kept = await fileComplaint(deps(), request({ ...good, email: 'nope' }));
    expect(kept.type === 'invalid' && kept.values).toMatchObject({ name: good.name, email: 'nope', subject: good.subject });
    expect(await database.db.$count(complaints)).toBe(0);
    expect(await database.db.$count(mailOutbox)).toBe(0);
  });

  it('STA-03 a line break in the subject cannot reach a mail header: it is folded into one line', async () => {
    const result = await fileComplaint(deps(), request({ ...good, subject: 'Hallo\r\nBcc: evil@example.com' }));
    expect(result.type).toBe('ok');
    const [row] = await database.db.select().from(complaints);
    expect(row!.subject).toBe('Hallo Bcc: evil@example.com');
  });

  it(`STA-03 takes at most ${COMPLAINTS_PER_DAY} complaints per e-mail address a day, per site`, async () => {
    for (let i = 0; i < COMPLAINTS_PER_DAY; i++) {
      clock.time += 60_000;
      expect((await fileComplaint(deps(), request({ ...good, subject: `Klacht ${i + 1}` }))).type).toBe('ok');
    }
    const refused = await fileComplaint(deps(), request({ ...good, email: 'JAN@example.com' }));
    expect(refused.type).toBe('rate_limited');
    expect(await database.db.$count(complaints)).toBe(COMPLAINTS_PER_DAY);
    expect(await database.db.$count(mailOutbox)).toBe(2 * COMPLAINTS_PER_DAY);

    // Another address and another site are not affected.
    expect((await fileComplaint(deps(), request({ ...good, email: 'piet@example.com' }))).type).toBe('ok');
    expect((await fileComplaint(deps(), request(good, { site: siteTwo }))).type).toBe('ok');

    // A day after the first of them, there is room for one more.
    clock.time += 24 * 3600_000 - COMPLAINTS_PER_DAY * 60_000 + 60_000;
    expect((await fileComplaint(deps(), request(good))).type).toBe('ok');
    expect((await fileComplaint(deps(), request(good))).type).toBe('rate_limited');
  });
});
