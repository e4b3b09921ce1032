/**
 * OPS-01 across processes (decision 043, 016): two real server processes (tests/setup/site-process.ts)
 * serve one fresh PostgreSQL database; each caches the landers' member list for a minute (TtlCache
 * 'landers:<site>'). A photo approved elsewhere (here: this test process, with a bus of its own, as a third
 * app process would) is on both processes' landers as soon as their LISTEN connection delivers
 * 'site.content_changed' — not after the minute.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client';
import { photos, profiles, users } from '../../src/db/schema';
import { systemClock } from '../../src/server/clock';
import { createLogger } from '../../src/server/logger';
import { Mailer } from '../../src/server/mail/mailer';
import { LocalPhotoStore } from '../../src/server/photos/store';
import { PostgresBus } from '../../src/server/realtime/bus';
import { SiteDirectory } from '../../src/server/sites/directory';
import { createStaff } from '../../src/server/staff/accounts';
import { moderatePhotos } from '../../src/server/staff/photos-admin';
import { createTestDatabase, type TestDatabase } from '../setup/databases';
import { getBody, startSiteProcess, type SiteProcess } from '../setup/site-processes';

let database: TestDatabase;
let dataDir: string;
let one: SiteProcess;
let two: SiteProcess;
let own: Database;
let bus: PostgresBus;

beforeAll(async () => {
  database = await createTestDatabase('postgres');
  dataDir = await mkdtemp(join(tmpdir(), 'photo-processes-'));
  one = startSiteProcess(database.url, dataDir);
  two = startSiteProcess(database.url, dataDir);
  const ready = await Promise.all([one.next((m) => m.type === 'ready'), two.next((m) => m.type === 'ready')]);
  one.url = String(ready[0].url);
  two.url = String(ready[1].url);
  own = await openDatabase(database.url);
  bus = await PostgresBus.start(own.client!);
});
afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()]);
  await bus?.close();
  await own?.close();
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('photo moderation across processes (PostgreSQL LISTEN/NOTIFY)', () => {
  it('OPS-01 a main photo approved in one process is on the cached landers of the others at once', async () => {
    const { db } = own;
    const [user] = await db
      .insert(users)
      .values({ siteId: 1, email: 'processes@test.example', passwordHash: null, status: 'active', emailConfirmedAt: new Date(), language: 'en', signupStep: 5, publicProfile: true })
      .returning({ id: users.id });
    await db.insert(profiles).values({
      userId: user!.id,
      siteId: 1,
      name: 'Across',
      status: 'active',
      gender: 'female',
      sexuality: 'hetero',
      birthDate: '1990-01-01',
      country: 'NL',
      lastActiveAt: new Date(Date.now() + 60_000),
    });
    const [photo] = await db
      .insert(photos)
      .values({ userId: user!.id, filename: 'aa-processes-main.webp', thumbFilename: 'aa-processes-thumb.webp', width: 480, height: 600, status: 'inspection_pending' })
      .returning({ id: photos.id });
    await db.update(profiles).set({ mainPhotoId: photo!.id }).where(eq(profiles.userId, user!.id));

    // Both processes render the lander now and keep its member list for a minute, without the photo.
    for (const p of [one, two]) expect(await getBody(p.url, '/landers/gallery')).not.toContain('aa-processes-');

    const moderator = await createStaff({ db }, { email: 'processes-moderator@test.example', name: 'Mod', role: 'moderator', password: 'processes-password-1' });
    const marks = [one.said.length, two.said.length];
    const result = await moderatePhotos(
      {
        db,
        clock: systemClock,
        bus,
        mailer: new Mailer(db, createLogger('silent')),
        sites: new SiteDirectory(db, systemClock, 0),
        photos: new LocalPhotoStore(join(dataDir, 'photos')),
        log: createLogger('silent'),
      },
      moderator,
      [photo!.id],
      { type: 'approve' },
    );
    expect(result).toEqual({ done: [photo!.id], skipped: [], mailFailed: [] });
    await Promise.all([one, two].map((p, i) => p.next((m) => m.type === 'event' && m.topic === 'site.content_changed' && m.siteId === 1, marks[i], 10_000)));
    for (const p of [one, two]) expect(await getBody(p.url, '/landers/gallery')).toContain('aa-processes-');
  });
});
