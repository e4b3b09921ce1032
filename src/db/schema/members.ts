/** Accounts, their public profiles and photos (SPEC §3 User, Profile; MEM-06, PHO-02). */
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { regions, sites } from './sites';

/** `banned`: by the back office (OPS-01): hidden everywhere, sessions ended, login refused with the ban page. */
export type UserStatus = 'not_confirmed' | 'active' | 'deleted' | 'banned';

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
    /**
     * The member lets the public pages (landing, landers, member landings) show them by first name, age,
     * city and approved main photo (HON-02). Asked at signup; off for members who joined before it was asked.
     */
    publicProfile: boolean('public_profile').notNull().default(false),
    /** Read receipts and typing are sent to the people this member chats with (CHT-10); off sends neither. */
    chatSignals: boolean('chat_signals').notNull().default(true),
    /** The member logs in with a passkey only (PASS-01): the password login is refused. Only with a passkey. */
    passkeyRequired: boolean('passkey_required').notNull().default(false),
    /** VER-02: only verified members may start a conversation with this member (enforced in chat/send.ts). */
    onlyVerifiedContact: boolean('only_verified_contact').notNull().default(false),
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
  (t) => [uniqueIndex('users_site_email').on(t.siteId, sql`lower(${t.email})`), check('users_credits_not_negative', sql`${t.credits} >= 0`)],
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
    /**
     * VER-01: the main photo a moderator checked against the member's selfie. The member is verified while
     * it is still the main photo (`verified_photo_id = main_photo_id`): a new main photo drops the mark
     * until a new selfie is approved. Never set for fictional profiles.
     */
    verifiedPhotoId: integer('verified_photo_id'),
    /** The age range the member looks for (set on /profile); the member search starts from it (MEM-01). */
    searchMinAge: smallint('search_min_age'),
    searchMaxAge: smallint('search_max_age'),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('profiles_site_search').on(t.siteId, t.status, t.gender, t.country),
    // Member search (MEM-01): every filter then the sort (last_active_at desc, user_id desc) for keyset paging.
    index('profiles_search_gender_active').on(t.siteId, t.gender, t.lastActiveAt.desc().nullsFirst(), t.userId.desc().nullsFirst()),
    index('profiles_search_place_active').on(t.siteId, t.country, t.regionId, t.lastActiveAt.desc().nullsFirst(), t.userId.desc().nullsFirst()),
    index('profiles_search_active').on(t.siteId, t.lastActiveAt.desc().nullsFirst(), t.userId.desc().nullsFirst()),
    // "Verified only" (VER-01): the few verified members of a site, in the search's sort order.
    index('profiles_search_verified')
      .on(t.siteId, t.lastActiveAt.desc().nullsFirst(), t.userId.desc().nullsFirst())
      .where(sql`${t.verifiedPhotoId} = ${t.mainPhotoId}`),
  ],
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
    /**
     * A premium photo's blurred copy for non-premium viewers (MEM-04): made once from the sharp file with
     * sharp, stored under its own random name so nothing leads from it back to the sharp file.
     */
    blurredFilename: text('blurred_filename'),
    status: text('status').$type<PhotoStatus>().notNull().default('inspection_pending'),
    premium: boolean('premium').notNull().default(false),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The member's own order of their photos (PHO-03): smaller first; ties by id. */
    position: integer('position').notNull().default(0),
    /** Why moderation removed the photo (OPS-01): one of PHOTO_REJECTION_REASONS, shown to the owner (PHO-02). */
    rejectionReason: text('rejection_reason'),
    /** When a moderator approved or rejected it (null while it waits). */
    moderatedAt: timestamp('moderated_at', { withTimezone: true }),
    /** The uploader's idempotency key (SCALE-02): a retried upload with it answers the photo stored the first time. */
    clientId: text('client_id'),
  },
  (t) => [
    index('photos_user').on(t.userId),
    // The moderation queue (OPS-01): pending photos oldest first.
    index('photos_pending')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'inspection_pending'`),
    uniqueIndex('photos_user_client_id').on(t.userId, t.clientId),
  ],
);
