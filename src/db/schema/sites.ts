/** Sites and what they are made of: the operating company, settings per site (SPEC §3), the hosts that reach a site, regions. */
import { sql } from 'drizzle-orm';
import { boolean, check, date, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { SiteTextTranslations } from '../../shared/site-texts';

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

/** One row per site: every Settings field of SPEC §3, their translations, plus what the operator needs to run it. */
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
    /**
     * Translations of the site's own texts above (index_title, description, fictional_*): field →
     * language → text. The columns stay the site's own text in domain_language; a language missing here
     * shows that text (docs/decisions/020-site-texts-per-language.md).
     */
    texts: jsonb('texts').$type<SiteTextTranslations>().notNull().default({}),
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
  (t) => [check('sites_niche_range', sql`${t.niche} between 1 and 7`), check('sites_signups_values', sql`${t.signups} in ('all', 'with_trafficsource', 'other')`)],
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

/** An image the partner supplied for its advertisement, as stored (`/photos/<file>`). */
export interface PartnerImage {
  file: string;
  width: number;
  height: number;
}

/**
 * The partner a site advertises in its live-cam block (HON-01, LND-05): the block shows the partner's own
 * images, labelled as its advertisement, and links to it. Without a row (or images) the block is not shown.
 */
export const sitePartners = pgTable('site_partners', {
  siteId: integer('site_id')
    .primaryKey()
    .references(() => sites.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  /** The partner's link with the site's tracking, as the partner gave it (https). */
  url: text('url').notNull(),
  images: jsonb('images').$type<PartnerImage[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Figures computed from a site's own data by a nightly job (HON-03), each with the basis it was computed
 * on (counts, window): a claim on screen shows one of these, or nothing.
 */
export const siteFigures = pgTable(
  'site_figures',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').$type<Record<string, number>>().notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('site_figures_site_key').on(t.siteId, t.key)],
);
