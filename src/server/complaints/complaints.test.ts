/** The complaint service (STA-03) against a real database: store, mail support and complainant, refuse, rate limit. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../db/client';
import { complaints, mailOutbox } from '../../db/schema';
import { seedDemo } from '../../db/seed';
import type { Clock } from '../clock';
import { Mailer } from '../mail/mailer';
import { LocalPhotoStore } from '../photos/store';
import { SiteDirectory, type Site } from '../sites/directory';
import { COMPLAINTS_PER_DAY, fileComplaint, type ComplaintRequest } from './complaints';

class FakeClock implements Clock {
  constructor(public time = new Date('2026-11-21T12:00:00Z').getTime()) {}
  now() {
    return new Date(this.time);
  }
}

let database: Database;
let photoDir: string;
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
  database = await openDatabase('memory://');
  photoDir = await mkdtemp(join(tmpdir(), 'complaints-'));
  await seedDemo({ db: database.db, photos: new LocalPhotoStore(photoDir), clock, profilesPerSite: 0 });
  mailer = new Mailer(database.db, pino({ level: 'silent' }));
  const sites = new SiteDirectory(database.db, clock, 0);
  site = await sites.forHost('localhost');
  siteTwo = await sites.forHost('127.0.0.1');
});
afterAll(async () => {
  await database?.close();
  await rm(photoDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.db.delete(complaints);
  await database.db.delete(mailOutbox);
  vi.restoreAllMocks();
});

const deps = () => ({ db: database.db, mailer, clock });
const request = (form: ComplaintRequest['form'], more: Partial<ComplaintRequest> = {}): ComplaintRequest => ({ site, lang: 'en', userId: null, form, ...more });

describe('fileComplaint', () => {
  it('STA-03 stores the complaint and mails support (reply-to the complainant) and the complainant in their language', async () => {
    const send = vi.spyOn(mailer, 'send');
    const result = await fileComplaint(deps(), request({ ...good, name: '  Jan   de Vries ' }, { lang: 'de', userId: 42 }));
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
    expect(toComplainant!.text).toContain('Hallo Jan de Vries,');
    expect(toComplainant!.text).toContain('Mijn betaling van gisteren');
    expect(await database.db.$count(mailOutbox)).toBe(2);
  });

  it('STA-03 refuses bad input field by field and stores and mails nothing', async () => {
    const cases: Array<[ComplaintRequest['form'], Record<string, string>]> = [
      [{}, { name: 'required', email: 'required', subject: 'required', message: 'required' }],
      [{ ...good, email: 'not-an-email' }, { email: 'invalid_email' }],
      [{ ...good, name: 'J', subject: 'Hi', message: 'Too short.' }, { name: 'too_short', subject: 'too_short', message: 'too_short' }],
      [{ ...good, message: 'x'.repeat(5001) }, { message: 'too_long' }],
      [{ ...good, name: 'Jan <script>' }, { name: 'invalid_characters' }],
      [{ ...good, subject: 42, name: ['a'] }, { subject: 'required', name: 'required' }],
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
