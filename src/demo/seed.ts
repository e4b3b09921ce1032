/**
 * Demo data: one company, two sites (SITE-01), the regions of their countries, member profiles with
 * every MEM-06 attribute, some of them fictional (MEM-05), generated portrait images, and a free and
 * a premium account per site that can log in.
 *
 * - Idempotent: a database that has any site is left alone.
 * - Deterministic: every choice comes from a seeded PRNG (mulberry32) keyed by site and member number,
 *   and every date from `clock.now()`, so two runs on empty databases with the same clock give the
 *   same rows, and member 7 of site 1 is the same person whether 20 or 240 members are seeded.
 * - Atomic: images are written first (they are named after the plan, not after database ids, and a
 *   file that already exists is kept), then every row goes in one transaction.
 */
import { sql } from 'drizzle-orm';
import { hashPassword } from '../server/auth/passwords';
import type { Clock } from '../server/clock';
import type { PhotoStore } from '../server/photos/store';
import { grant } from '../server/credits/ledger';
import { BODY_TYPES, EYE_COLOURS, HAIR_COLOURS, INTERESTS, type Interest, RELATIONSHIP_STATUSES, SEXUALITIES, SIGNUP_REASONS, TATTOOS } from '../shared/interests';
import { SCHEMA_LOCK_ID, type Db } from '../db/client';
import { companies, photos, profiles, regions, siteHosts, sites, users } from '../db/schema';
import { ensureMarketingContent } from './seed-marketing';
import { ART_VERSION, MAIN_IMAGE, THUMB_IMAGE, planPerson, planPortrait, renderProfileImage, type PortraitArt } from './portraits';
import {
  ABOUT_FRAGMENTS,
  COUNTRY_LANGUAGE,
  DEMO_COMPANY,
  DEMO_SITES,
  FIRST_NAMES,
  REGIONS,
  type AboutFacts,
  type DemoAccountProfile,
  type DemoSite,
  type NameGroup,
  type RegionSeed,
} from './seed-data';

export interface SeedDeps {
  db: Db;
  photos: PhotoStore;
  clock: Clock;
  /** Member profiles per site, besides the two demo accounts. */
  profilesPerSite: number;
}

export interface SeedResult {
  created: boolean;
  sites: number;
  /** Profiles inserted: members (fictional included) and demo accounts of every site. */
  profiles: number;
  /** Rows inserted in `photos` (each has a main and a thumb file). */
  photos: number;
}

/** The accounts that can log in on every demo site (the same e-mail exists once per site). */
export const DEMO_ACCOUNTS: {
  free: { email: string; password: string };
  premium: { email: string; password: string };
} = {
  free: { email: 'free@demo.test', password: 'demo-password-1' },
  premium: { email: 'premium@demo.test', password: 'demo-password-1' },
};

/** Credits the premium demo account bought (on top of the site's signup credits). */
export const DEMO_PREMIUM_PURCHASE = 200;

export { MAIN_IMAGE, THUMB_IMAGE };
const RENDER_CONCURRENCY = 4;
const INSERT_CHUNK = 500;
/** Demo members who did not choose to be shown on the public pages (HON-02): every 7th. */
const PRIVATE_EVERY = 7;
/** VER-01: every 5th demo member (never a fictional profile) is photo verified, so the mark shows in the demo. */
const VERIFIED_EVERY = 5;

/** Share of members that are fictional profiles: every 8th member (12.5 %). */
const FICTIONAL_EVERY = 8;
const EXTRA_PHOTO_SHARE = 0.3;
const PREMIUM_EXTRA_SHARE = 0.4;
const SEED_SALT = 0x5eed_2024;

const SECOND = 1000;
const DAY = 86_400 * SECOND;

const NOT_CREATED: SeedResult = { created: false, sites: 0, profiles: 0, photos: 0 };

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type UserInsert = typeof users.$inferInsert;
type ProfileInsert = typeof profiles.$inferInsert;
type Gender = 'male' | 'female';

// ---------------------------------------------------------------------------------------------------
// Entry point

/**
 * Seeds the demo sites when the database has no site yet; otherwise changes nothing and returns
 * `created: false`. Prints nothing: the caller logs the returned counts.
 */
export async function seedDemo(deps: SeedDeps): Promise<SeedResult> {
  if (await hasAnySite(deps.db)) return { ...NOT_CREATED };
  const now = deps.clock.now();
  const passwordHash = await hashPassword(DEMO_ACCOUNTS.free.password);
  const memberPlans = DEMO_SITES.flatMap((site) => planSiteMembers(site, deps.profilesPerSite, now));
  const demoPlans = DEMO_SITES.flatMap((site) => planDemoAccounts(site, now, passwordHash));
  const allPlans = [...memberPlans, ...demoPlans];

  await writePlannedImages(deps.photos, allPlans);

  const created = await deps.db.transaction(async (tx) => {
    // Processes starting together on one empty PostgreSQL take turns (the lock migrations use too).
    await tx.execute(sql`select pg_advisory_xact_lock(${SCHEMA_LOCK_ID}::bigint)`);
    if (await hasAnySite(tx)) return false; // another process seeded while we rendered
    await seedCompany(tx);
    await seedSites(tx);
    const regionIds = await seedRegions(tx);
    await seedProfiles(tx, memberPlans, regionIds);
    await seedDemoAccounts(tx, demoPlans, regionIds);
    return true;
  });
  await ensureMarketingContent(deps.db); // credit packages and token pages (src/demo/seed-marketing.ts)
  if (!created) return { ...NOT_CREATED };
  return {
    created: true,
    sites: DEMO_SITES.length,
    profiles: allPlans.length,
    photos: allPlans.reduce((sum, plan) => sum + plan.photos.length, 0),
  };
}

async function hasAnySite(db: Db | Tx): Promise<boolean> {
  const rows = await db.select({ id: sites.id }).from(sites).limit(1);
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------
// Deterministic randomness

/** mulberry32: a tiny 32-bit PRNG, the same sequence on every platform for the same seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a of a stable key such as ("member", 1, 7): one independent PRNG stream per thing seeded. */
function seedFor(...parts: (string | number)[]): number {
  let h = (0x811c9dc5 ^ SEED_SALT) >>> 0;
  for (const ch of parts.join('/')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

class Random {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  float(): number {
    return this.next();
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(list: readonly T[]): T {
    if (list.length === 0) throw new Error('pick from an empty list');
    return list[Math.floor(this.next() * list.length)] as T;
  }

  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (!last) throw new Error('weighted pick from an empty list');
    return last[0];
  }

  /** `count` distinct items in random order (partial Fisher–Yates on a copy). */
  sample<T>(list: readonly T[], count: number): T[] {
    const copy = [...list];
    const n = Math.min(count, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, n);
  }
}

// ---------------------------------------------------------------------------------------------------
// Plans: every row and image decided in memory before anything is written

interface PhotoPlan {
  filename: string;
  thumbFilename: string;
  premium: boolean;
  createdAt: Date;
  art: PortraitArt;
}

/** A grant the seed makes through the ledger (its reference is `<kind>:<user id>`, made once the id is known). */
interface LedgerPlan {
  amount: number;
  reason: string;
  kind: 'signup' | 'demo-purchase';
  createdAt: Date;
}

interface ProfilePlan {
  user: Omit<UserInsert, 'id'>;
  profile: Omit<ProfileInsert, 'userId' | 'regionId' | 'mainPhotoId'>;
  /** `country:code` of the region; resolved to an id once the regions are inserted. */
  regionKey: string;
  /** The first photo is the main photo. */
  photos: PhotoPlan[];
  ledger: LedgerPlan[];
  /** VER-01: the main photo was checked against a selfie (never for fictional profiles). */
  verified?: boolean;
}

const regionKey = (country: string, code: string): string => `${country}:${code}`;

function regionsOf(country: string): RegionSeed[] {
  const list = REGIONS.filter((r) => r.country === country);
  if (list.length === 0) throw new Error(`no regions for country ${country}`);
  return list;
}

/** The portraits the seed would draw for the first `count` members of every demo site (for tests and tools). */
export function planDemoPortraits(count: number, now: Date): { siteId: number; gender: string; photos: PortraitArt[] }[] {
  return DEMO_SITES.flatMap((site) => planSiteMembers(site, count, now).map((plan) => ({ siteId: site.row.id, gender: String(plan.profile.gender), photos: plan.photos.map((photo) => photo.art) })));
}

/** The members of one site: `count` profiles, numbered from 1. */
function planSiteMembers(site: DemoSite, count: number, now: Date): ProfilePlan[] {
  const plans: ProfilePlan[] = [];
  for (let n = 1; n <= count; n++) plans.push(planMember(site, n, now));
  return plans;
}

function planMember(site: DemoSite, n: number, now: Date): ProfilePlan {
  const siteId = site.row.id;
  const rng = new Random(seedFor('member', siteId, n));
  const fictional = n % FICTIONAL_EVERY === 5;
  const country = rng.weighted(Object.entries(site.members.countryWeights));
  const region = rng.weighted(regionsOf(country).map((r) => [r, r.weight] as const));
  const city = rng.pick(region.cities);
  const gender: Gender = rng.chance(site.members.femaleShare) ? 'female' : 'male';
  const age = rng.int(site.members.ageRange[0], site.members.ageRange[1]);
  const group: NameGroup = COUNTRY_LANGUAGE[country] ?? site.members.aboutLanguage;
  const name = rng.pick(FIRST_NAMES[group][gender]);
  const interests = rng.sample(INTERESTS, rng.int(3, 8));
  const signupReason = rng.pick(SIGNUP_REASONS);
  const hairColour = pickHairColour(rng, age);

  const signupDate = new Date(now.getTime() - rng.int(1 * DAY, 700 * DAY));
  const sinceSignup = now.getTime() - signupDate.getTime();
  const lastActiveAt = new Date(now.getTime() - rng.int(0, Math.min(14 * DAY, sinceSignup)));
  const facts: AboutFacts = { name, age, female: gender === 'female', city, hobbies: hobbyPhrases(site.members.aboutLanguage, interests) };

  return {
    user: {
      siteId,
      email: `member-${siteId}-${n}@demo.invalid`,
      passwordHash: null,
      role: fictional ? 'fictional' : 'member',
      status: 'active',
      // HON-02: most demo members chose to be shown on the public pages; every 7th did not.
      publicProfile: !fictional && n % PRIVATE_EVERY !== 3,
      emailConfirmedAt: new Date(signupDate.getTime() + rng.int(60, 3600) * SECOND),
      credits: 0,
      paidUser: false,
      language: group,
      signupDate,
    },
    profile: {
      siteId,
      name,
      status: 'active',
      gender,
      sexuality: pickSexuality(rng, gender),
      birthDate: birthDateForAge(rng, now, age),
      country,
      city,
      hairColour,
      eyeColour: rng.weighted(EYE_WEIGHTS),
      bodyType: rng.weighted(gender === 'female' ? FEMALE_BODY_WEIGHTS : MALE_BODY_WEIGHTS),
      relationshipStatus: pickRelationshipStatus(rng, age),
      tattoos: rng.weighted(TATTOO_WEIGHTS),
      interests,
      signupReason,
      about: composeAbout(rng, site.members.aboutLanguage, facts, signupReason),
      fictional,
      lastActiveAt,
    },
    regionKey: regionKey(country, region.code),
    photos: planMemberPhotos(rng, siteId, `m${String(n).padStart(4, '0')}`, { gender, age, hairColour, signupDate, now }),
    ledger: [],
    verified: !fictional && n % VERIFIED_EVERY === 1,
  };
}

function planMemberPhotos(rng: Random, siteId: number, slug: string, who: { gender: Gender; age: number; hairColour: Of<typeof HAIR_COLOURS>; signupDate: Date; now: Date }): PhotoPlan[] {
  const extras = rng.chance(EXTRA_PHOTO_SHARE) ? rng.int(1, 2) : 0;
  // One person on every photo of the member, each photo in its own setting.
  // Details added to the art later come from their own stream, so they moved no earlier draw
  // (every member keeps the face, photos and premium flags it had).
  const looks = new Random(seedFor('looks', siteId, slug));
  const person = planPerson(rng, looks, who.gender, who.hairColour, who.age);
  const span = who.now.getTime() - who.signupDate.getTime();
  const list: PhotoPlan[] = [];
  for (let k = 0; k <= extras; k++) {
    const createdAt = k === 0 ? new Date(who.signupDate.getTime() + rng.int(60, 3600) * SECOND) : new Date(who.signupDate.getTime() + Math.floor(rng.float() * span));
    list.push({
      ...photoNames(siteId, slug, k),
      premium: k > 0 && rng.chance(PREMIUM_EXTRA_SHARE),
      createdAt,
      art: planPortrait(rng, looks, person),
    });
  }
  return list;
}

/**
 * File names follow the plan (site, member, photo number), so a kept photo folder is reused as is.
 * The hash prefix spreads the files over the store's two-character folders and includes ART_VERSION.
 */
function photoNames(siteId: number, slug: string, k: number): { filename: string; thumbFilename: string } {
  const prefix = seedFor('photo', ART_VERSION, siteId, slug, k).toString(16).padStart(8, '0').slice(0, 6);
  const base = `${prefix}-s${siteId}-${slug}-${k}`;
  return { filename: `${base}-main.webp`, thumbFilename: `${base}-thumb.webp` };
}

/** The free and the premium account of one site, with fixed profiles from seed-data.ts. */
function planDemoAccounts(site: DemoSite, now: Date, passwordHash: string): ProfilePlan[] {
  return [planDemoAccount(site, 'free', site.demoAccounts.free, now, passwordHash), planDemoAccount(site, 'premium', site.demoAccounts.premium, now, passwordHash)];
}

function planDemoAccount(site: DemoSite, kind: 'free' | 'premium', p: DemoAccountProfile, now: Date, passwordHash: string): ProfilePlan {
  const siteId = site.row.id;
  const rng = new Random(seedFor('demo', siteId, kind));
  const looks = new Random(seedFor('looks', siteId, kind));
  const signupDate = new Date(now.getTime() - p.signupDaysAgo * DAY);
  const ledger: LedgerPlan[] = [];
  if (site.row.signupCredits > 0) ledger.push({ amount: site.row.signupCredits, reason: 'signup_credits', kind: 'signup', createdAt: signupDate });
  if (kind === 'premium') {
    ledger.push({ amount: DEMO_PREMIUM_PURCHASE, reason: 'purchase', kind: 'demo-purchase', createdAt: new Date(signupDate.getTime() + DAY) });
  }
  return {
    user: {
      siteId,
      email: DEMO_ACCOUNTS[kind].email,
      passwordHash,
      role: 'member',
      status: 'active',
      emailConfirmedAt: new Date(signupDate.getTime() + 5 * 60 * SECOND),
      credits: 0, // granted through the ledger once the account exists (seedDemoAccounts)
      paidUser: kind === 'premium',
      language: site.row.domainLanguage,
      signupDate,
    },
    profile: {
      siteId,
      name: p.name,
      status: 'active',
      gender: p.gender,
      sexuality: p.sexuality,
      birthDate: birthDateForAge(rng, now, p.age),
      country: p.country,
      city: p.city,
      hairColour: p.hairColour,
      eyeColour: p.eyeColour,
      bodyType: p.bodyType,
      relationshipStatus: p.relationshipStatus,
      tattoos: p.tattoos,
      interests: p.interests,
      signupReason: p.signupReason,
      about: p.about,
      fictional: false,
      lastActiveAt: new Date(now.getTime() - (kind === 'free' ? 2 : 1) * 3600 * SECOND),
    },
    regionKey: regionKey(p.country, p.regionCode),
    photos: [
      {
        ...photoNames(siteId, kind, 0),
        premium: false,
        createdAt: new Date(signupDate.getTime() + 10 * 60 * SECOND),
        art: planPortrait(rng, looks, planPerson(rng, looks, p.gender, p.hairColour, p.age)),
      },
    ],
    ledger,
  };
}

// --- attribute choices ------------------------------------------------------------------------------

/** Weighted choices over one of the MEM-06 value lists, so a typo is a compile error. */
type Weights<T extends string> = readonly (readonly [T, number])[];
type Of<L extends readonly string[]> = L[number];

const EYE_WEIGHTS: Weights<Of<typeof EYE_COLOURS>> = [
  ['blue', 35],
  ['brown', 30],
  ['green', 15],
  ['grey', 8],
  ['hazel', 12],
];
const FEMALE_BODY_WEIGHTS: Weights<Of<typeof BODY_TYPES>> = [
  ['slim', 25],
  ['athletic', 15],
  ['average', 30],
  ['curvy', 22],
  ['full', 8],
];
const MALE_BODY_WEIGHTS: Weights<Of<typeof BODY_TYPES>> = [
  ['slim', 20],
  ['athletic', 30],
  ['average', 35],
  ['curvy', 3],
  ['full', 12],
];
const TATTOO_WEIGHTS: Weights<Of<typeof TATTOOS>> = [
  ['none', 45],
  ['one', 20],
  ['some', 25],
  ['many', 10],
];

function pickSexuality(rng: Random, gender: Gender): Of<typeof SEXUALITIES> {
  return rng.weighted<Of<typeof SEXUALITIES>>(
    gender === 'female'
      ? [
          ['hetero', 78],
          ['bi', 15],
          ['lesbian', 7],
        ]
      : [
          ['hetero', 82],
          ['bi', 10],
          ['gay', 8],
        ],
  );
}

function pickHairColour(rng: Random, age: number): Of<typeof HAIR_COLOURS> {
  const grey = age >= 50 ? 30 : age >= 40 ? 8 : 1;
  return rng.weighted<Of<typeof HAIR_COLOURS>>([
    ['blond', 25],
    ['brown', 35],
    ['black', 18],
    ['red', 7],
    ['grey', grey],
    ['other', 3],
  ]);
}

function pickRelationshipStatus(rng: Random, age: number): Of<typeof RELATIONSHIP_STATUSES> {
  return rng.weighted<Of<typeof RELATIONSHIP_STATUSES>>([
    ['single', 45],
    ['divorced', age > 30 ? 22 : 3],
    ['widowed', age > 45 ? 5 : 0],
    ['in_relationship', 14],
    ['married', age > 25 ? 12 : 3],
  ]);
}

/** A birth date (YYYY-MM-DD, UTC) that makes the person exactly `age` on the day of `now`. */
function birthDateForAge(rng: Random, now: Date, age: number): string {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  const latest = Date.UTC(y - age, m, d); // birthday today
  const earliest = Date.UTC(y - age - 1, m, d + 1); // turns age + 1 tomorrow
  const days = Math.round((latest - earliest) / DAY);
  return new Date(earliest + rng.int(0, days) * DAY).toISOString().slice(0, 10);
}

function hobbyPhrases(language: NameGroup, interests: readonly Interest[]): string[] {
  const phrases = ABOUT_FRAGMENTS[language].hobbyPhrases;
  return interests.flatMap((key) => phrases[key] ?? []).slice(0, 2);
}

/** One to three sentences: an opener, the reason for signing up, a hobby or a closing line. */
function composeAbout(rng: Random, language: NameGroup, facts: AboutFacts, signupReason: Of<typeof SIGNUP_REASONS>): string {
  const fragments = ABOUT_FRAGMENTS[language];
  const count = rng.int(1, 3);
  const sentences = [rng.pick(fragments.openers)(facts)];
  if (count >= 2) sentences.push(rng.pick(fragments.reasons[signupReason]));
  if (count >= 3) sentences.push(facts.hobbies.length > 0 ? rng.pick(fragments.hobbies)(facts) : rng.pick(fragments.closers));
  return sentences.join(' ');
}

/** Renders and stores every planned image that is not in the store yet, a few at a time. */
async function writePlannedImages(store: PhotoStore, plans: readonly ProfilePlan[]): Promise<void> {
  const planned = plans.flatMap((plan) => plan.photos);
  await forEachLimit(planned, RENDER_CONCURRENCY, async (photo) => {
    if ((await store.exists(photo.filename)) && (await store.exists(photo.thumbFilename))) return;
    const image = await renderProfileImage(photo.art);
    await store.put(photo.filename, image.main);
    await store.put(photo.thumbFilename, image.thumb);
  });
}

async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

// ---------------------------------------------------------------------------------------------------
// Inserts (all inside the seed transaction)

/** Inserts the operating company with id 1 and moves its id sequence past it. */
async function seedCompany(tx: Tx): Promise<void> {
  await tx.insert(companies).values(DEMO_COMPANY);
  await tx.execute(sql`select setval(pg_get_serial_sequence('companies', 'id'), (select max(id) from companies))`);
}

/** Inserts the demo sites with their fixed ids and hosts, then moves the id sequence past them. */
async function seedSites(tx: Tx): Promise<void> {
  await tx.insert(sites).values(DEMO_SITES.map((site) => site.row));
  await tx.execute(sql`select setval(pg_get_serial_sequence('sites', 'id'), (select max(id) from sites))`);
  await tx.insert(siteHosts).values(DEMO_SITES.flatMap((site) => site.hosts.map((host) => ({ host, siteId: site.row.id }))));
}

/**
 * Inserts the regions of every demo country (keeping any that already exist, e.g. from a later
 * reference-data migration); returns the ids of all of them by `country:code`.
 */
async function seedRegions(tx: Tx): Promise<Map<string, number>> {
  await tx
    .insert(regions)
    .values(REGIONS.map((r) => ({ country: r.country, code: r.code, name: r.name, lat: Math.round(r.lat * 1e4), lon: Math.round(r.lon * 1e4) })))
    .onConflictDoNothing({ target: [regions.country, regions.code] });
  const rows = await tx.select({ id: regions.id, country: regions.country, code: regions.code }).from(regions);
  return new Map(rows.map((r) => [regionKey(r.country, r.code), r.id]));
}

/** Inserts the member profiles (users, photos, profiles). */
async function seedProfiles(tx: Tx, plans: readonly ProfilePlan[], regionIds: ReadonlyMap<string, number>): Promise<void> {
  await insertProfilePlans(tx, plans, regionIds);
}

/** Inserts the demo accounts and grants their credits through the ledger (CRD-09), like a real signup. */
async function seedDemoAccounts(tx: Tx, plans: readonly ProfilePlan[], regionIds: ReadonlyMap<string, number>): Promise<void> {
  const userIds = await insertProfilePlans(tx, plans, regionIds);
  for (const plan of plans) {
    const memberId = requireId(userIds, userKey(plan), 'user');
    for (const entry of plan.ledger) {
      await grant(tx, { memberId, amount: entry.amount, reason: entry.reason, reference: `${entry.kind}:${memberId}`, at: entry.createdAt });
    }
  }
}

const userKey = (plan: ProfilePlan): string => `${plan.user.siteId}:${plan.user.email}`;

function requireId(ids: ReadonlyMap<string, number>, key: string, what: string): number {
  const id = ids.get(key);
  if (id === undefined) throw new Error(`seed: no ${what} id for ${key}`);
  return id;
}

/** Users first (for their ids), then photos (for the main photo ids), then profiles. */
async function insertProfilePlans(tx: Tx, plans: readonly ProfilePlan[], regionIds: ReadonlyMap<string, number>): Promise<Map<string, number>> {
  const userIds = new Map<string, number>();
  for (const batch of chunks(plans, INSERT_CHUNK)) {
    const rows = await tx
      .insert(users)
      .values(batch.map((plan) => plan.user))
      .returning({ id: users.id, siteId: users.siteId, email: users.email });
    for (const row of rows) userIds.set(`${row.siteId}:${row.email}`, row.id);
  }

  const photoRows = plans.flatMap((plan) => {
    const userId = requireId(userIds, userKey(plan), 'user');
    return plan.photos.map((photo) => ({
      userId,
      filename: photo.filename,
      thumbFilename: photo.thumbFilename,
      status: 'active' as const,
      premium: photo.premium,
      width: MAIN_IMAGE.width,
      height: MAIN_IMAGE.height,
      createdAt: photo.createdAt,
    }));
  });
  const photoIds = new Map<string, number>();
  for (const batch of chunks(photoRows, INSERT_CHUNK)) {
    const rows = await tx.insert(photos).values(batch).returning({ id: photos.id, filename: photos.filename });
    for (const row of rows) photoIds.set(row.filename, row.id);
  }

  const profileRows = plans.map((plan) => {
    const mainPhotoId = plan.photos[0] ? requireId(photoIds, plan.photos[0].filename, 'photo') : null;
    return {
      ...plan.profile,
      userId: requireId(userIds, userKey(plan), 'user'),
      regionId: requireId(regionIds, plan.regionKey, 'region'),
      mainPhotoId,
      verifiedPhotoId: plan.verified && !plan.profile.fictional ? mainPhotoId : null,
    };
  });
  for (const batch of chunks(profileRows, INSERT_CHUNK)) await tx.insert(profiles).values(batch);
  return userIds;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
