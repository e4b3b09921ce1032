/**
 * The test kit for service tests: a clock tests move by hand, and a migrated in-memory database seeded
 * with the demo sites (PGlite), with the photo store, site directory and mailer services need. One place
 * instead of a copy at the top of every test file.
 *
 *   const clock = new FakeClock();
 *   let kit: SeededDatabase;
 *   beforeAll(async () => { kit = await seededDatabase({ clock }); });
 *   afterAll(() => kit?.close());
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database, type Db } from '../../src/db/client';
import { seedDemo } from '../../src/demo/seed';
import { DeviceCookies } from '../../src/server/auth/device-cookie';
import type { Clock } from '../../src/server/clock';
import { createLogger } from '../../src/server/logger';
import { Mailer } from '../../src/server/mail/mailer';
import { LocalPhotoStore } from '../../src/server/photos/store';
import { SiteDirectory, type Site } from '../../src/server/sites/directory';
import { keepSeedPhotos, restoreSeedPhotos } from './seed-photos';
import { createTestDatabase } from './databases';

/** The instant every fake clock starts at unless told otherwise. */
export const TEST_EPOCH = new Date('2026-11-21T12:00:00Z');

/** A clock that stands still until the test moves it. */
export class FakeClock implements Clock {
  public time: number;

  constructor(start: Date | number = TEST_EPOCH) {
    this.time = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.time);
  }

  /** Moves the clock forward by `ms`. */
  advance(ms: number): void {
    this.time += ms;
  }

  /** Puts the clock at `date`. */
  set(date: Date | number): void {
    this.time = typeof date === 'number' ? date : date.getTime();
  }
}

export interface SeededDatabase {
  database: Database;
  db: Db;
  clock: Clock;
  /** Local photo store in a temporary folder (removed by `close`). */
  photos: LocalPhotoStore;
  photoDir: string;
  /** Site directory without caching (TTL 0): every lookup reads the database. */
  sites: SiteDirectory;
  /** Mailer on the outbox table (no SMTP), logging nothing. */
  mailer: Mailer;
  /** Device cookies signed with this database's secret (login needs them, SEC-13). */
  devices: DeviceCookies;
  /** Staff device cookies with the same secret (the staff login needs them, SEC-17). */
  staffDevices: DeviceCookies;
  /** The site a host selects: 'localhost' → site 1 (default), '127.0.0.1' → site 2. */
  site(host?: string): Promise<Site>;
  close(): Promise<void>;
}

/**
 * A fresh in-memory PGlite database with the migrations applied and the demo seeded (sites, demo
 * accounts, `profilesPerSite` generated members per site; none by default).
 */
export async function seededDatabase(
  options: {
    clock?: Clock;
    profilesPerSite?: number;
    /** A database of tests/setup/databases.ts (default: in-memory PGlite). */ url?: string;
    /** PostgreSQL's pool (default 10). */ poolSize?: number;
  } = {},
): Promise<SeededDatabase> {
  const clock = options.clock ?? new FakeClock();
  const database = await openDatabase(options.url ?? 'memory://', options.poolSize ? { poolSize: options.poolSize } : {});
  const photoDir = await mkdtemp(join(tmpdir(), 'test-photos-'));
  const photos = new LocalPhotoStore(photoDir);
  const profilesPerSite = options.profilesPerSite ?? 0;
  try {
    // The portraits a seed of this size rendered before in this run (tests/setup/seed-photos.ts).
    const restored = await restoreSeedPhotos(photoDir, profilesPerSite);
    await seedDemo({ db: database.db, photos, clock, profilesPerSite });
    if (!restored) await keepSeedPhotos(photoDir, profilesPerSite);
  } catch (err) {
    await database.close();
    await rm(photoDir, { recursive: true, force: true });
    throw err;
  }
  const sites = new SiteDirectory(database.db, clock, 0);
  const devices = await DeviceCookies.create({ db: database.db, clock });
  return {
    database,
    db: database.db,
    clock,
    photos,
    photoDir,
    sites,
    mailer: new Mailer(database.db, createLogger('silent')),
    devices,
    staffDevices: devices.forStaff(),
    site: (host = 'localhost') => sites.forHost(host),
    close: async () => {
      await database.close();
      await rm(photoDir, { recursive: true, force: true });
    },
  };
}

/**
 * `work` on a fresh database of `kind` with the demo seeded, for one test of concurrency: PostgreSQL with a
 * pool of 20 connections, so calls started together really run at once (PGlite has one connection).
 * Closed and dropped afterwards, whatever `work` does.
 */
export async function withSeededDatabase<T>(kind: 'pglite' | 'postgres', options: { clock?: Clock; profilesPerSite?: number }, work: (kit: SeededDatabase) => Promise<T>): Promise<T> {
  const test = await createTestDatabase(kind);
  try {
    const kit = await seededDatabase({ ...options, url: test.url, poolSize: kind === 'postgres' ? 20 : undefined });
    try {
      return await work(kit);
    } finally {
      await kit.close();
    }
  } finally {
    await test.drop();
  }
}

/** Runs `work(0)` … `work(count - 1)` with at most `width` of them at a time (a client with `width` requests in flight); answers the results by index. */
export async function inFlight<T>(count: number, width: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      for (let i = next++; i < count; i = next++) out[i] = await work(i);
    }),
  );
  return out;
}
