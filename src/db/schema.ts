/**
 * The database schema: one PostgreSQL dialect for PGlite and PostgreSQL alike.
 * Money and credits are integers (cents, credits). Tables of later features (chat, likes, payments,
 * photos' moderation) join onto `users` and `sites` the same way the ones here do.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Operating company shown on static pages and in mails (SPEC §3 company info). */
export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  address: text('address').notNull(),
  kvk: text('kvk').notNull(),
  city: text('city').notNull(),
  country: text('country').notNull(),
  tradenames: jsonb('tradenames').$type<string[]>().notNull().default([]),
  vatNumbers: jsonb('vat_numbers').$type<string[]>().notNull().default([]),
  supportPhone: text('support_phone').notNull(),
  deleteDiscount: integer('delete_discount').notNull().default(0),
  added: date('added', { mode: 'string' }).notNull(),
});

export type MinimumMessageCosts = Record<string, { costs: number; currency: string }>;
export type SignupPolicy = 'all' | 'with_trafficsource' | 'other';

/** One row per site: every Settings field of SPEC §3, plus what the operator needs to run it. */
export const sites = pgTable(
  'sites',
  {
    id: serial('id').primaryKey(),
    isDefault: boolean('is_default').notNull().default(false),
    name: text('name').notNull(),
    indexTitle: text('index_title').notNull(),
    description: text('description').notNull(),
    domain: text('domain').notNull(),
    domainLanguage: text('domain_language').notNull(),
    languages: jsonb('languages').$type<string[]>().notNull(),
    cdnPrefix: text('cdn_prefix').notNull().default(''),
    niche: smallint('niche').notNull().default(1),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    mailName: text('mail_name').notNull(),
    countries: jsonb('countries').$type<string[]>().notNull(),
    signups: text('signups').$type<SignupPolicy>().notNull().default('all'),
    loggedOutSearch: boolean('logged_out_search').notNull().default(false),
    loggedOutSearchTrafficsource: boolean('logged_out_search_trafficsource').notNull().default(false),
    geoipCountry: text('geoip_country').notNull(),
    geoipSelectedCountry: text('geoip_selected_country').notNull(),
    enableSiteEntryPopup: boolean('enable_site_entry_popup').notNull().default(true),
    pushPublicKey: text('push_public_key'),
    supportPhone: text('support_phone').notNull(),
    supportEmail: text('support_email').notNull(),
    fictionalIcon: text('fictional_icon').notNull(),
    fictionalWarning: text('fictional_warning').notNull(),
    fictionalSingular: text('fictional_singular').notNull(),
    fictionalPlural: text('fictional_plural').notNull(),
    visibleProfileFields: jsonb('visible_profile_fields').$type<string[]>().notNull(),
    visibleProfileNotes: boolean('visible_profile_notes').notNull().default(true),
    searchFields: jsonb('search_fields').$type<string[]>().notNull(),
    messageCredits: integer('message_credits').notNull(),
    photoCredits: integer('photo_credits').notNull(),
    giftCredits: integer('gift_credits').notNull(),
    signupCredits: integer('signup_credits').notNull(),
    messageLength: integer('message_length').notNull(),
    minimumMessageCosts: jsonb('minimum_message_costs').$type<MinimumMessageCosts>().notNull(),
    refundDays: integer('refund_days').notNull(),
    memberResell: boolean('member_resell').notNull().default(false),
    minAge: smallint('min_age').notNull().default(18),
    inviteOnly: boolean('invite_only').notNull().default(false),
    liveCamPromo: boolean('live_cam_promo').notNull().default(false),
    usLegalFooter: boolean('us_legal_footer').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('sites_niche_range', sql`${t.niche} between 1 and 7`),
    check('sites_signups_values', sql`${t.signups} in ('all', 'with_trafficsource', 'other')`),
  ],
);

/** Host names that reach a site; the request host is looked up here (SITE-01). */
export const siteHosts = pgTable('site_hosts', {
  host: text('host').primaryKey(),
  siteId: integer('site_id')
    .notNull()
    .references(() => sites.id, { onDelete: 'cascade' }),
});

/** Regions (provinces, states) of the countries the sites serve. */
export const regions = pgTable(
  'regions',
  {
    id: serial('id').primaryKey(),
    country: text('country').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    lat: integer('lat_e4').notNull(),
    lon: integer('lon_e4').notNull(),
  },
  (t) => [uniqueIndex('regions_country_code').on(t.country, t.code)],
);

export type UserStatus = 'not_confirmed' | 'active' | 'deleted';
export type UserRole = 'member' | 'fictional' | 'operator';

/** An account on one site. Fictional profiles are users with role 'fictional' and no password. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    role: text('role').$type<UserRole>().notNull().default('member'),
    status: text('status').$type<UserStatus>().notNull().default('not_confirmed'),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    credits: integer('credits').notNull().default(0),
    paidUser: boolean('paid_user').notNull().default(false),
    language: text('language').notNull(),
    notificationsDisabled: jsonb('notifications_disabled').$type<string[]>().notNull().default([]),
    invisible: boolean('invisible').notNull().default(false),
    /** The tracking record (CLI-04) the visitor arrived with. */
    tracking: jsonb('tracking').$type<Record<string, string>>(),
    /** First message written at signup from a member landing, for that member (SIGN-06). */
    signupMessage: text('signup_message'),
    signupMemberId: integer('signup_member_id'),
    /** When each dismissible alert was last dismissed (ALR-04): enrich, push, notifications_disabled, time_bonus. */
    dismissals: jsonb('dismissals').$type<Record<string, string>>().notNull().default({}),
    /** Step of /complete-signup reached (SIGN-02): 0..4, 5 = complete. */
    signupStep: smallint('signup_step').notNull().default(0),
    signupDate: timestamp('signup_date', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_site_email').on(t.siteId, sql`lower(${t.email})`),
    check('users_credits_not_negative', sql`${t.credits} >= 0`),
  ],
);

export type ProfileStatus = 'active' | 'disabled';

/** The public face of a user (SPEC §3 Profile, MEM-06). */
export const profiles = pgTable(
  'profiles',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    name: text('name').notNull(),
    status: text('status').$type<ProfileStatus>().notNull().default('active'),
    gender: text('gender').notNull(),
    sexuality: text('sexuality').notNull(),
    birthDate: date('birth_date', { mode: 'string' }).notNull(),
    country: text('country').notNull(),
    regionId: integer('region_id').references(() => regions.id),
    city: text('city'),
    hairColour: text('hair_colour'),
    eyeColour: text('eye_colour'),
    bodyType: text('body_type'),
    relationshipStatus: text('relationship_status'),
    tattoos: text('tattoos'),
    interests: jsonb('interests').$type<string[]>().notNull().default([]),
    signupReason: text('signup_reason'),
    about: text('about').notNull().default(''),
    fictional: boolean('fictional').notNull().default(false),
    mainPhotoId: integer('main_photo_id'),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('profiles_site_search').on(t.siteId, t.status, t.gender, t.country)],
);

export type PhotoStatus = 'active' | 'inspection_pending' | 'removed';

/** Stored images; files live in the PhotoStore under these names (main and thumb). */
export const photos = pgTable(
  'photos',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    thumbFilename: text('thumb_filename').notNull(),
    status: text('status').$type<PhotoStatus>().notNull().default('inspection_pending'),
    premium: boolean('premium').notNull().default(false),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('photos_user').on(t.userId)],
);

/** Login sessions: only the SHA-256 of the cookie token is stored, so a leaked table opens nothing. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/** Append-only credit ledger (CRD-09): users.credits is the running sum, kept in the same transaction. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    reason: text('reason').notNull(),
    reference: text('reference'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('credit_ledger_user').on(t.userId), uniqueIndex('credit_ledger_reason_ref').on(t.userId, t.reason, t.reference)],
);

/** Client beacons: page hidden (CLI-06) and page bounce (CLI-05). */
export const pageEvents = pgTable('page_events', {
  id: serial('id').primaryKey(),
  siteId: integer('site_id').notNull(),
  userId: integer('user_id'),
  kind: text('kind').$type<'hidden' | 'bounce'>().notNull(),
  path: text('path').notNull(),
  durationMs: integer('duration_ms'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type MailStatus = 'outbox' | 'sent' | 'failed';

/**
 * Every mail the platform sends. Without SMTP configured the row is the delivery (an offline outbox
 * read through the development mail viewer); with SMTP it is the record of what was sent.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    userId: integer('user_id'),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    fromAddress: text('from_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    status: text('status').$type<MailStatus>().notNull().default('outbox'),
    error: text('error'),
    messageId: text('message_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_outbox_to').on(t.toAddress), index('mail_outbox_created').on(t.createdAt)],
);

/** Credit bundles a site sells (PREM-01, CRD-02): credits for a price in cents, per site. */
export const creditPackages = pgTable(
  'credit_packages',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    credits: integer('credits').notNull(),
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull(),
    /** Shown as the recommended choice. */
    highlighted: boolean('highlighted').notNull().default(false),
    active: boolean('active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [
    index('credit_packages_site').on(t.siteId, t.active),
    check('credit_packages_positive', sql`${t.credits} > 0 and ${t.priceCents} > 0`),
  ],
);

/** Complaints filed through /complaints (STA-03); handled by support (OPS-01). */
export const complaints = pgTable('complaints', {
  id: serial('id').primaryKey(),
  siteId: integer('site_id')
    .notNull()
    .references(() => sites.id),
  userId: integer('user_id'),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  status: text('status').$type<'open' | 'handled'>().notNull().default('open'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Operator pages reached at `/{token}` (STA-01), per site and language. */
export const tokenPages = pgTable(
  'token_pages',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    token: text('token').notNull(),
    language: text('language').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('token_pages_site_token_lang').on(t.siteId, t.token, t.language)],
);

/** Visitors of an invite-only site asking for an invitation (LND-04). */
export const invitationRequests = pgTable(
  'invitation_requests',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('invitation_requests_site_email').on(t.siteId, sql`lower(${t.email})`)],
);

export type AccountTokenKind = 'activation' | 'password_reset' | 'email_change' | 'reactivation';

/** Single-use links mailed to members; only the SHA-256 of the token is stored (ACT-01, PWD-02, MAIL-01, DEL-01). */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<AccountTokenKind>().notNull(),
    tokenHash: text('token_hash').notNull(),
    newEmail: text('new_email'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('account_tokens_hash').on(t.tokenHash), index('account_tokens_user_kind').on(t.userId, t.kind)],
);

/** Failed-login counters per account and per IP (AUTH-03). */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
});

/** Web Push subscriptions of members' browsers (PUSH-01). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint').on(t.endpoint), index('push_subscriptions_user').on(t.userId)],
);

/** Process-wide secrets generated on first start and kept (VAPID keys). */
export const appSecrets = pgTable('app_secrets', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
