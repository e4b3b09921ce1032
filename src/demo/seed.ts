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
import sharp from 'sharp';
import { hashPassword } from '../server/auth/passwords';
import type { Clock } from '../server/clock';
import type { PhotoStore } from '../server/photos/store';
import { grant } from '../server/credits/ledger';
import { BODY_TYPES, EYE_COLOURS, HAIR_COLOURS, INTERESTS, type Interest, RELATIONSHIP_STATUSES, SEXUALITIES, SIGNUP_REASONS, TATTOOS } from '../shared/interests';
import { SCHEMA_LOCK_ID, type Db } from '../db/client';
import { companies, photos, profiles, regions, siteHosts, sites, users } from '../db/schema';
import { ensureMarketingContent } from './seed-marketing';
import {
  ABOUT_FRAGMENTS,
  COUNTRY_LANGUAGE,
  DEMO_COMPANY,
  DEMO_SITES,
  FIRST_NAMES,
  HAIR_TONES,
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

export const MAIN_IMAGE = { width: 480, height: 600 } as const;
export const THUMB_IMAGE = { width: 160, height: 200 } as const;
// effort 2 encodes twice as fast as the default 4 for flat artwork like this, at about 5 % more bytes.
// Quality 40 keeps the drawn faces crisp (flat colours, few edges) and the files about as small as the
// old faceless silhouettes were at 72; the 160×200 thumbnails take 30 (docs/decisions/031-niche-focus-and-demo-portraits.md).
const WEBP_OPTIONS = { quality: 40, effort: 2 } as const;
const THUMB_WEBP_OPTIONS = { quality: 30, effort: 2 } as const;
const RENDER_CONCURRENCY = 4;
/** Bump when portraitSvg or the WebP options change: new file names, so kept files are not reused. */
const ART_VERSION = 3;
const INSERT_CHUNK = 500;
/** Demo members who did not choose to be shown on the public pages (HON-02): every 7th. */
const PRIVATE_EVERY = 7;

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

/** Parameters of one abstract portrait (no faces, no text). */
export type HairStyle = 'long' | 'bob' | 'ponytail' | 'bun' | 'curly' | 'short' | 'crew' | 'receding' | 'bald';
export type Scene = 'hills' | 'city' | 'beach' | 'room';

/** What stays the same on every photo of one member: the person. */
export interface PortraitPerson {
  female: boolean;
  skin: string;
  hair: readonly [number, number, number];
  hairStyle: HairStyle;
  eyes: string;
  headScale: number;
  shoulderHalfWidth: number;
  glasses: boolean;
  earrings: boolean;
  /** A fine chain with a pendant, shown when the neckline leaves room for it. */
  necklace: boolean;
  beard: 'none' | 'stubble' | 'full';
  /** 'open' shows teeth; 'soft' is a closed smile. */
  smile: 'soft' | 'open';
}

/** One photo: the person in a setting, dressed for it. */
export interface PortraitArt {
  person: PortraitPerson;
  scene: Scene;
  hue: number;
  clothing: string;
  neckline: 'round' | 'v' | 'collar';
  /** A plain top, or an open cardigan/jacket in a darker shade over it. */
  top: 'plain' | 'jacket';
  headX: number;
  headY: number;
  glowX: number;
  glowY: number;
}

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
    photos: planMemberPhotos(rng, siteId, `m${String(n).padStart(4, '0')}`, { gender, hairColour, signupDate, now }),
    ledger: [],
  };
}

function planMemberPhotos(rng: Random, siteId: number, slug: string, who: { gender: Gender; hairColour: Of<typeof HAIR_COLOURS>; signupDate: Date; now: Date }): PhotoPlan[] {
  const extras = rng.chance(EXTRA_PHOTO_SHARE) ? rng.int(1, 2) : 0;
  // One person on every photo of the member, each photo in its own setting.
  // Details added to the art later come from their own stream, so they moved no earlier draw
  // (every member keeps the face, photos and premium flags it had).
  const looks = new Random(seedFor('looks', siteId, slug));
  const person = planPerson(rng, looks, who.gender, who.hairColour);
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

const SKIN_TONES = ['#f7dcc8', '#efc5a6', '#dca67f', '#c08559', '#93603e', '#62402b'] as const;
const IRIS_COLOURS = ['#4a3426', '#6b4a2e', '#3f6f8f', '#5b7d4a', '#7a8a99'] as const;
const SCENES: readonly Scene[] = ['hills', 'city', 'beach', 'room'];
const NECKLINES = ['round', 'v', 'collar'] as const;
const FEMALE_STYLES: readonly HairStyle[] = ['long', 'long', 'bob', 'ponytail', 'bun', 'curly'];
const MALE_STYLES: readonly HairStyle[] = ['short', 'short', 'crew', 'curly'];
const OLDER_MALE_STYLES: readonly HairStyle[] = ['short', 'crew', 'receding', 'receding', 'bald'];

/** The person behind a member's photos (drawn from the member's own randomness). */
function planPerson(rng: Random, looks: Random, gender: Gender, hairColour: Of<typeof HAIR_COLOURS>): PortraitPerson {
  const female = gender === 'female';
  const older = hairColour === 'grey';
  return {
    female,
    skin: rng.weighted(SKIN_TONES.map((tone, i) => [tone, [3, 3, 2, 2, 1, 1][i]!] as const)),
    hair: HAIR_TONES[hairColour],
    hairStyle: rng.pick(female ? FEMALE_STYLES : older ? OLDER_MALE_STYLES : MALE_STYLES),
    eyes: rng.pick(IRIS_COLOURS),
    headScale: 0.9 + rng.float() * 0.16,
    shoulderHalfWidth: rng.int(female ? 135 : 160, female ? 165 : 195),
    glasses: rng.chance(older ? 0.35 : 0.15),
    earrings: female && rng.chance(0.55),
    beard: female ? 'none' : rng.chance(0.25) ? 'full' : rng.chance(0.3) ? 'stubble' : 'none',
    necklace: female && looks.chance(0.4),
    smile: looks.chance(0.45) ? 'open' : 'soft',
  };
}

/** One photo of `person`: its own setting, clothes and framing. */
function planPortrait(rng: Random, looks: Random, person: PortraitPerson): PortraitArt {
  return {
    person,
    scene: rng.pick(SCENES),
    hue: rng.int(0, 359),
    clothing: hslHex(rng.int(0, 359), 0.35 + rng.float() * 0.3, 0.32 + rng.float() * 0.25),
    neckline: rng.pick(NECKLINES),
    top: looks.chance(0.35) ? 'jacket' : 'plain',
    headX: rng.int(-25, 25),
    headY: rng.int(-15, 20),
    glowX: 0.2 + rng.float() * 0.6,
    glowY: 0.1 + rng.float() * 0.3,
  };
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
        art: planPortrait(rng, looks, planPerson(rng, looks, p.gender, p.hairColour)),
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

// ---------------------------------------------------------------------------------------------------
// Images

export interface RenderedImage {
  main: Buffer;
  thumb: Buffer;
}

/** Renders one portrait to a 480×600 main image and a 160×200 thumbnail, both WebP. */
export async function renderProfileImage(art: PortraitArt): Promise<RenderedImage> {
  const { data, info } = await sharp(Buffer.from(portraitSvg(art)))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const [main, thumb] = await Promise.all([sharp(data, raw).webp(WEBP_OPTIONS).toBuffer(), sharp(data, raw).resize(THUMB_IMAGE.width, THUMB_IMAGE.height).webp(THUMB_WEBP_OPTIONS).toBuffer()]);
  return { main, thumb };
}

function sceneSvg(art: PortraitArt, w: number, h: number): string {
  const sky = hslHex(art.hue, 0.55, 0.86);
  const skyDeep = hslHex(art.hue + 25, 0.5, 0.68);
  const defs = `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${skyDeep}"/><stop offset="1" stop-color="${sky}"/></linearGradient>
<radialGradient id="glow" cx="${art.glowX.toFixed(3)}" cy="${art.glowY.toFixed(3)}" r="0.6"><stop offset="0" stop-color="#ffffff" stop-opacity="0.55"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient></defs>`;
  switch (art.scene) {
    case 'hills': {
      const far = hslHex(100 + (art.hue % 40), 0.35, 0.55);
      const near = hslHex(110 + (art.hue % 30), 0.4, 0.42);
      return `${defs}<rect width="${w}" height="${h}" fill="url(#sky)"/><rect width="${w}" height="${h}" fill="url(#glow)"/>
<path d="M0 ${h * 0.55} Q ${w * 0.25} ${h * 0.42} ${w * 0.55} ${h * 0.52} T ${w} ${h * 0.48} V ${h} H 0 Z" fill="${far}"/>
<path d="M0 ${h * 0.68} Q ${w * 0.35} ${h * 0.58} ${w * 0.7} ${h * 0.66} T ${w} ${h * 0.62} V ${h} H 0 Z" fill="${near}"/>`;
    }
    case 'city': {
      const tower = hslHex(art.hue + 200, 0.18, 0.35);
      const tower2 = hslHex(art.hue + 200, 0.16, 0.45);
      let rects = '';
      const widths = [52, 70, 44, 86, 60, 48, 74, 58];
      let x = -10;
      for (let i = 0; x < w; i++) {
        const bw = widths[(i + art.hue) % widths.length]!;
        const top = h * (0.28 + ((i * 37 + art.hue) % 23) / 100);
        rects += `<rect x="${x}" y="${top.toFixed(0)}" width="${bw}" height="${h}" fill="${i % 2 ? tower : tower2}"/>`;
        for (let wy = top + 14; wy < h * 0.62; wy += 26) rects += `<rect x="${x + 10}" y="${wy.toFixed(0)}" width="${bw - 20}" height="8" fill="#f4e3a1" opacity="0.55"/>`;
        x += bw + 6;
      }
      return `${defs}<rect width="${w}" height="${h}" fill="url(#sky)"/>${rects}`;
    }
    case 'beach':
      return `${defs}<rect width="${w}" height="${h}" fill="#9fd3ef"/><rect width="${w}" height="${h * 0.5}" fill="url(#sky)" opacity="0.35"/><rect width="${w}" height="${h}" fill="url(#glow)"/>
<rect y="${h * 0.5}" width="${w}" height="${h * 0.16}" fill="#3d8fbf"/><path d="M0 ${h * 0.62} Q ${w * 0.3} ${h * 0.6} ${w * 0.55} ${h * 0.64} T ${w} ${h * 0.63} V ${h} H 0 Z" fill="#ead6a4"/>`;
    default: {
      const wall = hslHex(art.hue, 0.25, 0.8);
      const frame = hslHex(art.hue + 30, 0.2, 0.95);
      const left = art.glowX < 0.5;
      const wx = left ? 24 : w - 184;
      return `${defs}<rect width="${w}" height="${h}" fill="${wall}"/>
<rect x="${wx}" y="40" width="160" height="200" fill="${frame}"/><rect x="${wx + 10}" y="50" width="140" height="180" fill="url(#sky)"/>
<path d="M${wx + 80} 50 V 230 M ${wx + 10} 140 H ${wx + 150}" stroke="${frame}" stroke-width="8"/>
<rect x="${left ? w - 150 : 40}" y="90" width="96" height="70" fill="${hslHex(art.hue + 160, 0.35, 0.6)}" stroke="#6b5a48" stroke-width="6"/>`;
    }
  }
}

function rgb(c: readonly [number, number, number], factor = 1): string {
  return `rgb(${c.map((v) => Math.max(0, Math.min(255, Math.round(v * factor)))).join(',')})`;
}

function shade(hex: string, factor: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return rgb([(n >> 16) & 255, (n >> 8) & 255, n & 255], factor);
}

export function portraitSvg(art: PortraitArt): string {
  const { width: w, height: h } = MAIN_IMAGE;
  const p = art.person;
  const hair = rgb(p.hair);
  const hairDark = rgb(p.hair, 0.75);
  const skinShadow = shade(p.skin, 0.86);
  const cx = w / 2 + art.headX;
  const cy = 240 + art.headY;
  const rx = 74 * p.headScale;
  const ry = 92 * p.headScale;
  const shoulderTop = cy + ry + 42;
  const s = p.shoulderHalfWidth;
  const f = (n: number) => n.toFixed(1);

  // Hair behind the head and shoulders.
  let back = '';
  switch (p.hairStyle) {
    case 'long':
      back = `<ellipse cx="${f(cx)}" cy="${f(cy - ry * 0.1)}" rx="${f(rx * 1.18)}" ry="${f(ry * 1.08)}"/><rect x="${f(cx - rx * 1.18)}" y="${f(cy - ry * 0.1)}" width="${f(rx * 2.36)}" height="${f(ry * 1.55)}" rx="${f(rx * 0.45)}"/>`;
      break;
    case 'bob':
      back = `<ellipse cx="${f(cx)}" cy="${f(cy - ry * 0.12)}" rx="${f(rx * 1.2)}" ry="${f(ry * 1.05)}"/><rect x="${f(cx - rx * 1.2)}" y="${f(cy - ry * 0.1)}" width="${f(rx * 2.4)}" height="${f(ry * 0.85)}" rx="${f(rx * 0.3)}"/>`;
      break;
    case 'ponytail':
      back = `<ellipse cx="${f(cx + rx * 1.0)}" cy="${f(cy + ry * 0.35)}" rx="${f(rx * 0.3)}" ry="${f(ry * 0.75)}" transform="rotate(-12 ${f(cx + rx)} ${f(cy + ry * 0.35)})"/><ellipse cx="${f(cx)}" cy="${f(cy - ry * 0.12)}" rx="${f(rx * 1.08)}" ry="${f(ry * 1.0)}"/>`;
      break;
    case 'bun':
      back = `<circle cx="${f(cx)}" cy="${f(cy - ry * 1.08)}" r="${f(rx * 0.42)}"/><ellipse cx="${f(cx)}" cy="${f(cy - ry * 0.12)}" rx="${f(rx * 1.07)}" ry="${f(ry * 1.0)}"/>`;
      break;
    case 'curly': {
      const count = p.female ? 13 : 9;
      const spread = p.female ? 1.25 : 0.95;
      for (let i = 0; i < count; i++) {
        const a = Math.PI * (0.95 + (spread * i) / (count - 1)) + (p.female ? -0.15 : 0.05);
        back += `<circle cx="${f(cx + Math.cos(a) * rx * 1.0)}" cy="${f(cy - ry * 0.1 + Math.sin(a) * ry * 0.98)}" r="${f(rx * (p.female ? 0.34 : 0.26))}"/>`;
      }
      if (p.female) back += `<rect x="${f(cx - rx * 1.25)}" y="${f(cy - ry * 0.1)}" width="${f(rx * 2.5)}" height="${f(ry * 1.1)}" rx="${f(rx * 0.6)}"/>`;
      break;
    }
    default:
      break;
  }

  // Hair over the top of the head (a cap with a parting), by style.
  const cap = (depth: number, sides: number) =>
    `<path d="M ${f(cx - rx * 1.02)} ${f(cy - ry * sides)} C ${f(cx - rx * 1.05)} ${f(cy - ry * 1.25)} ${f(cx + rx * 1.05)} ${f(cy - ry * 1.25)} ${f(cx + rx * 1.02)} ${f(cy - ry * sides)} C ${f(cx + rx * 0.7)} ${f(cy - ry * depth)} ${f(cx - rx * 0.2)} ${f(cy - ry * (depth + 0.12))} ${f(cx - rx * 1.02)} ${f(cy - ry * sides)} Z"/>`;
  let front = '';
  switch (p.hairStyle) {
    case 'long':
    case 'bob':
    case 'ponytail':
    case 'bun':
      front = cap(0.5, 0.05);
      break;
    case 'curly':
      front = cap(0.62, 0.25);
      break;
    case 'short':
      front = cap(0.68, 0.3);
      break;
    case 'crew':
      front = cap(0.8, 0.42);
      break;
    case 'receding':
      front = `<path d="M ${f(cx - rx * 1.0)} ${f(cy - ry * 0.1)} C ${f(cx - rx * 1.05)} ${f(cy - ry * 0.8)} ${f(cx - rx * 0.7)} ${f(cy - ry * 0.9)} ${f(cx - rx * 0.55)} ${f(cy - ry * 0.75)} C ${f(cx - rx * 0.8)} ${f(cy - ry * 0.55)} ${f(cx - rx * 0.9)} ${f(cy - ry * 0.3)} ${f(cx - rx * 1.0)} ${f(cy - ry * 0.1)} Z"/><path d="M ${f(cx + rx * 1.0)} ${f(cy - ry * 0.1)} C ${f(cx + rx * 1.05)} ${f(cy - ry * 0.8)} ${f(cx + rx * 0.7)} ${f(cy - ry * 0.9)} ${f(cx + rx * 0.55)} ${f(cy - ry * 0.75)} C ${f(cx + rx * 0.8)} ${f(cy - ry * 0.55)} ${f(cx + rx * 0.9)} ${f(cy - ry * 0.3)} ${f(cx + rx * 1.0)} ${f(cy - ry * 0.1)} Z"/>`;
      break;
    default:
      break;
  }

  const eyeY = cy - ry * 0.02;
  const eyeDx = rx * 0.38;
  const eye = (x: number) =>
    `<ellipse cx="${f(x)}" cy="${f(eyeY)}" rx="11" ry="7.5" fill="#ffffff"/><circle cx="${f(x)}" cy="${f(eyeY)}" r="6" fill="${p.eyes}"/><circle cx="${f(x)}" cy="${f(eyeY)}" r="2.6" fill="#1d1512"/><circle cx="${f(x + 2)}" cy="${f(eyeY - 2)}" r="1.4" fill="#ffffff"/>`;
  const brow = (x: number, dir: number) =>
    `<path d="M ${f(x - 14 * dir)} ${f(eyeY - 20)} Q ${f(x)} ${f(eyeY - 27)} ${f(x + 14 * dir)} ${f(eyeY - 21)}" stroke="${hairDark}" stroke-width="${p.female ? 4 : 6}" fill="none" stroke-linecap="round"/>`;
  const mouthY = cy + ry * 0.45;
  const lips = p.female ? '#b4475c' : '#8a3b3b';
  const mw = rx * (p.smile === 'open' ? 0.3 : 0.26);
  const mouth =
    p.smile === 'open'
      ? // A laugh: a half-moon of teeth framed by the lips.
        `<path d="M ${f(cx - mw)} ${f(mouthY - 2)} Q ${f(cx)} ${f(mouthY + ry * 0.26)} ${f(cx + mw)} ${f(mouthY - 2)} Z" fill="#fbf6f0" stroke="${lips}" stroke-width="${p.female ? 5 : 4}" stroke-linejoin="round"/>`
      : p.female
        ? `<path d="M ${f(cx - mw)} ${f(mouthY)} Q ${f(cx)} ${f(mouthY + ry * 0.2)} ${f(cx + mw)} ${f(mouthY)} Q ${f(cx)} ${f(mouthY + ry * 0.06)} ${f(cx - mw)} ${f(mouthY)} Z" fill="${lips}"/>`
        : `<path d="M ${f(cx - mw)} ${f(mouthY)} Q ${f(cx)} ${f(mouthY + ry * 0.16)} ${f(cx + mw)} ${f(mouthY)}" stroke="${lips}" stroke-width="5" fill="none" stroke-linecap="round"/>`;
  const jaw = `M ${f(cx - rx * 0.98)} ${f(cy + ry * 0.05)} C ${f(cx - rx * 0.95)} ${f(cy + ry * 0.75)} ${f(cx - rx * 0.45)} ${f(cy + ry * 1.02)} ${f(cx)} ${f(cy + ry * 1.02)} C ${f(cx + rx * 0.45)} ${f(cy + ry * 1.02)} ${f(cx + rx * 0.95)} ${f(cy + ry * 0.75)} ${f(cx + rx * 0.98)} ${f(cy + ry * 0.05)} C ${f(cx + rx * 0.7)} ${f(cy + ry * 0.4)} ${f(cx - rx * 0.7)} ${f(cy + ry * 0.4)} ${f(cx - rx * 0.98)} ${f(cy + ry * 0.05)} Z`;
  const beard = p.beard === 'none' ? '' : `<path d="${jaw}" fill="${hair}" opacity="${p.beard === 'full' ? 0.95 : 0.35}"/>`;
  const glasses = p.glasses
    ? `<g fill="none" stroke="#2b2b2b" stroke-width="4"><circle cx="${f(cx - eyeDx)}" cy="${f(eyeY)}" r="19"/><circle cx="${f(cx + eyeDx)}" cy="${f(eyeY)}" r="19"/><path d="M ${f(cx - eyeDx + 19)} ${f(eyeY)} H ${f(cx + eyeDx - 19)}"/></g>`
    : '';
  const earrings = p.earrings
    ? `<circle cx="${f(cx - rx * 0.98)}" cy="${f(cy + ry * 0.28)}" r="6" fill="#e2b84a"/><circle cx="${f(cx + rx * 0.98)}" cy="${f(cy + ry * 0.28)}" r="6" fill="#e2b84a"/>`
    : '';
  let neck: string;
  if (art.neckline === 'v') neck = `<path d="M ${f(cx - rx * 0.55)} ${f(shoulderTop - 4)} L ${f(cx)} ${f(shoulderTop + 70)} L ${f(cx + rx * 0.55)} ${f(shoulderTop - 4)} Z" fill="${p.skin}"/>`;
  else if (art.neckline === 'round') neck = `<ellipse cx="${f(cx)}" cy="${f(shoulderTop)}" rx="${f(rx * 0.6)}" ry="26" fill="${p.skin}"/>`;
  else
    neck = `<ellipse cx="${f(cx)}" cy="${f(shoulderTop - 2)}" rx="${f(rx * 0.5)}" ry="18" fill="${p.skin}"/><path d="M ${f(cx - rx * 0.55)} ${f(shoulderTop - 8)} L ${f(cx - 4)} ${f(shoulderTop + 34)} L ${f(cx - rx * 0.85)} ${f(shoulderTop + 22)} Z M ${f(cx + rx * 0.55)} ${f(shoulderTop - 8)} L ${f(cx + 4)} ${f(shoulderTop + 34)} L ${f(cx + rx * 0.85)} ${f(shoulderTop + 22)} Z" fill="#f4f4f4"/>`;

  // An open jacket or cardigan: two darker panels from the shoulders down, the top showing between them.
  const jacket =
    art.top === 'jacket'
      ? `<path d="M ${f(cx - s - 40)} ${h} C ${f(cx - s - 30)} ${f(shoulderTop + 40)} ${f(cx - s * 0.6)} ${f(shoulderTop)} ${f(cx - rx * 0.7)} ${f(shoulderTop)} L ${f(cx - rx * 0.35)} ${h} Z M ${f(cx + s + 40)} ${h} C ${f(cx + s + 30)} ${f(shoulderTop + 40)} ${f(cx + s * 0.6)} ${f(shoulderTop)} ${f(cx + rx * 0.7)} ${f(shoulderTop)} L ${f(cx + rx * 0.35)} ${h} Z" fill="${shade(art.clothing, 0.62)}"/>`
      : '';
  const necklace =
    p.necklace && art.neckline !== 'collar'
      ? `<path d="M ${f(cx - rx * 0.42)} ${f(shoulderTop - 6)} Q ${f(cx)} ${f(shoulderTop + 30)} ${f(cx + rx * 0.42)} ${f(shoulderTop - 6)}" stroke="#e2b84a" stroke-width="2.5" fill="none"/><circle cx="${f(cx)}" cy="${f(shoulderTop + 18)}" r="5" fill="#e2b84a"/>`
      : '';

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
${sceneSvg(art, w, h)}
<g fill="${hair}">${back}</g>
<path d="M ${f(cx - s - 40)} ${h} C ${f(cx - s - 30)} ${f(shoulderTop + 40)} ${f(cx - s * 0.6)} ${f(shoulderTop)} ${f(cx)} ${f(shoulderTop)} C ${f(cx + s * 0.6)} ${f(shoulderTop)} ${f(cx + s + 30)} ${f(shoulderTop + 40)} ${f(cx + s + 40)} ${h} Z" fill="${art.clothing}"/>
<rect x="${f(cx - rx * 0.36)}" y="${f(cy + ry * 0.5)}" width="${f(rx * 0.72)}" height="${f(shoulderTop - cy - ry * 0.5 + 8)}" rx="${f(rx * 0.25)}" fill="${skinShadow}"/>
${neck}${jacket}${necklace}
<ellipse cx="${f(cx - rx * 0.97)}" cy="${f(cy + ry * 0.05)}" rx="${f(rx * 0.16)}" ry="${f(ry * 0.2)}" fill="${skinShadow}"/><ellipse cx="${f(cx + rx * 0.97)}" cy="${f(cy + ry * 0.05)}" rx="${f(rx * 0.16)}" ry="${f(ry * 0.2)}" fill="${skinShadow}"/>
<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(ry)}" fill="${p.skin}"/>
${beard}
<g fill="${hair}">${front}</g>
${eye(cx - eyeDx)}${eye(cx + eyeDx)}${brow(cx - eyeDx, 1)}${brow(cx + eyeDx, 1)}
<path d="M ${f(cx - 3)} ${f(eyeY + 18)} Q ${f(cx - 10)} ${f(cy + ry * 0.3)} ${f(cx + 4)} ${f(cy + ry * 0.3)}" stroke="${skinShadow}" stroke-width="4" fill="none" stroke-linecap="round"/>
<circle cx="${f(cx - rx * 0.55)}" cy="${f(cy + ry * 0.28)}" r="14" fill="#e8857a" opacity="0.22"/><circle cx="${f(cx + rx * 0.55)}" cy="${f(cy + ry * 0.28)}" r="14" fill="#e8857a" opacity="0.22"/>
${mouth}${glasses}${earrings}
</svg>`;
}

function hslHex(hue: number, saturation: number, lightness: number): string {
  const hDeg = ((hue % 360) + 360) % 360;
  const c = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const x = c * (1 - Math.abs(((hDeg / 60) % 2) - 1));
  const m = lightness - c / 2;
  const [r, g, b] = hDeg < 60 ? [c, x, 0] : hDeg < 120 ? [x, c, 0] : hDeg < 180 ? [0, c, x] : hDeg < 240 ? [0, x, c] : hDeg < 300 ? [x, 0, c] : [c, 0, x];
  return `#${[r, g, b]
    .map((v) =>
      Math.round((v + m) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
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

  const profileRows = plans.map((plan) => ({
    ...plan.profile,
    userId: requireId(userIds, userKey(plan), 'user'),
    regionId: requireId(regionIds, plan.regionKey, 'region'),
    mainPhotoId: plan.photos[0] ? requireId(photoIds, plan.photos[0].filename, 'photo') : null,
  }));
  for (const batch of chunks(profileRows, INSERT_CHUNK)) await tx.insert(profiles).values(batch);
  return userIds;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
