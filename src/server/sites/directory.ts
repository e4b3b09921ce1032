/**
 * Finds the site of a request by its host (SITE-01) and keeps each site's settings for a TTL per
 * process, so a page view costs no settings query. A change made through updateSiteSettings
 * (./settings-update.ts) is announced on the bus ('site.changed') and every process drops that site
 * at once (createAppContext wires it); the TTL only bounds changes made behind the app's back
 * (docs/decisions/016-settings-cache-and-invalidation.md).
 */
import { loadPartner, type SitePartner } from './partners';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, siteHosts, sites } from '../../db/schema';
import { companyInfoSchema, settingsSchema, type CompanyInfo, type Settings } from '../../shared/settings';
import { siteTextsOf, siteTextTranslationsSchema, type SiteTexts } from '../../shared/site-texts';
import type { Clock } from '../clock';

export interface Site {
  /**
   * The settings of SPEC §3. The site's own texts (index_title, description, fictional_*) are in its
   * domain_language here as loaded; `localiseSite` (./texts.ts) gives the site as a request in another
   * language sees it, which is what `Astro.locals.site` holds.
   */
  settings: Settings;
  company: CompanyInfo;
  /** Every text of the site per language, its own (domain_language) text included (localiseSite in ./texts.ts). */
  texts: SiteTexts;
  /** The partner its live-cam block advertises (HON-01), or null: then the block is not shown. */
  partner: SitePartner | null;
}

export class SiteNotConfiguredError extends Error {
  constructor() {
    super('No site is configured: the sites table has no default site. Seed the database (npm run seed).');
  }
}

interface HostMatch {
  siteId: number;
  /** The host is listed in site_hosts (not an unknown host on the default site). */
  registered: boolean;
}

interface Entry<T> {
  value: T;
  expires: number;
}

/** Normalises a Host header: lower case, no port, no trailing dot. */
export function normaliseHost(host: string | null | undefined): string {
  if (!host) return '';
  let h = host.trim().toLowerCase();
  if (h.startsWith('[')) h = h.slice(0, h.indexOf(']') + 1);
  else h = h.replace(/:\d+$/, '');
  return h.replace(/\.$/, '');
}

export interface SiteDirectoryOptions {
  /**
   * The deployment's VAPID public key (PUSH-01). It is what `push_public_key` returns for every site:
   * push messages are signed with the matching private key kept in `app_secrets`, so a key typed into
   * the sites row could never be used.
   */
  pushPublicKey?: string | null;
}

export class SiteDirectory {
  private readonly byHostCache = new Map<string, Entry<HostMatch>>();
  private readonly byIdCache = new Map<number, Entry<Site>>();
  /** Bumped by every invalidation: a load that started before it must not be cached after it. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly options: SiteDirectoryOptions = {},
  ) {}

  /** The site for a host; unknown hosts get the default site. */
  async forHost(host: string | null | undefined): Promise<Site> {
    return (await this.resolveHost(host)).site;
  }

  /**
   * The site for a host, and whether the host is registered for it (`site_hosts`) rather than an
   * unknown host that fell back to the default site. Both answers are cached for the TTL.
   */
  async resolveHost(host: string | null | undefined): Promise<{ site: Site; registered: boolean }> {
    const key = normaliseHost(host);
    const now = this.clock.now().getTime();
    const cached = this.byHostCache.get(key);
    let match = cached && cached.expires > now ? cached.value : undefined;
    if (match === undefined) {
      const generation = this.generation;
      match = await this.lookupHost(key);
      if (generation === this.generation) this.byHostCache.set(key, { value: match, expires: now + this.ttlMs });
      if (this.byHostCache.size > 1000) this.byHostCache.delete(this.byHostCache.keys().next().value!);
    }
    return { site: await this.forId(match.siteId), registered: match.registered };
  }

  async forId(siteId: number): Promise<Site> {
    const now = this.clock.now().getTime();
    const cached = this.byIdCache.get(siteId);
    if (cached && cached.expires > now) return cached.value;
    const generation = this.generation;
    const site = await this.load(siteId);
    if (generation === this.generation) this.byIdCache.set(siteId, { value: site, expires: now + this.ttlMs });
    return site;
  }

  /** Drops every cached entry (events may have been missed). */
  invalidate(): void {
    this.generation++;
    this.byHostCache.clear();
    this.byIdCache.clear();
  }

  /**
   * Drops one site ('site.changed'): its settings, and every host answer, since a host may have moved
   * to or from this site (a host lookup is one indexed query; the settings load is the dear part).
   */
  invalidateSite(siteId: number): void {
    this.generation++;
    this.byIdCache.delete(siteId);
    this.byHostCache.clear();
  }

  private async lookupHost(host: string): Promise<HostMatch> {
    if (host) {
      const [row] = await this.db.select({ siteId: siteHosts.siteId }).from(siteHosts).where(eq(siteHosts.host, host)).limit(1);
      if (row) return { siteId: row.siteId, registered: true };
    }
    const [fallback] = await this.db.select({ id: sites.id }).from(sites).where(eq(sites.isDefault, true)).limit(1);
    if (!fallback) throw new SiteNotConfiguredError();
    return { siteId: fallback.id, registered: false };
  }

  private async load(siteId: number): Promise<Site> {
    const [row] = await this.db.select({ site: sites, company: companies }).from(sites).innerJoin(companies, eq(companies.id, sites.companyId)).where(eq(sites.id, siteId)).limit(1);
    if (!row) throw new SiteNotConfiguredError();
    const raw = siteRowToSettings(row.site) as Record<string, unknown>;
    if (this.options.pushPublicKey !== undefined) raw.push_public_key = this.options.pushPublicKey;
    const settings = settingsSchema.parse(raw);
    const translations = siteTextTranslationsSchema.parse(row.site.texts);
    const partner = await loadPartner(this.db, siteId);
    return { settings, company: companyInfoSchema.parse(companyRowToInfo(row.company)), texts: siteTextsOf(settings, translations), partner };
  }
}

type SiteRow = typeof sites.$inferSelect;
type CompanyRow = typeof companies.$inferSelect;

/** Maps a `sites` row to the snake_case settings contract of SPEC §3. */
export function siteRowToSettings(s: SiteRow): unknown {
  return {
    id: s.id,
    name: s.name,
    index_title: s.indexTitle,
    description: s.description,
    domain: s.domain,
    domain_language: s.domainLanguage,
    languages: s.languages,
    cdn_prefix: s.cdnPrefix,
    niche: s.niche,
    company_id: s.companyId,
    mail_name: s.mailName,
    countries: s.countries,
    signups: s.signups,
    logged_out_search: s.loggedOutSearch,
    logged_out_search_trafficsource: s.loggedOutSearchTrafficsource,
    geoip_country: s.geoipCountry,
    geoip_selected_country: s.geoipSelectedCountry,
    enable_site_entry_popup: s.enableSiteEntryPopup,
    push_public_key: s.pushPublicKey,
    support_phone: s.supportPhone,
    support_email: s.supportEmail,
    fictional_icon: s.fictionalIcon,
    fictional_warning: s.fictionalWarning,
    fictional_singular: s.fictionalSingular,
    fictional_plural: s.fictionalPlural,
    visible_profile_fields: s.visibleProfileFields,
    visible_profile_notes: s.visibleProfileNotes,
    search_fields: s.searchFields,
    message_credits: s.messageCredits,
    photo_credits: s.photoCredits,
    gift_credits: s.giftCredits,
    signup_credits: s.signupCredits,
    message_length: s.messageLength,
    minimum_message_costs: s.minimumMessageCosts,
    refund_days: s.refundDays,
    member_resell: s.memberResell,
    min_age: s.minAge,
    invite_only: s.inviteOnly,
    live_cam_promo: s.liveCamPromo,
    us_legal_footer: s.usLegalFooter,
  };
}

export function companyRowToInfo(c: CompanyRow): unknown {
  return {
    id: c.id,
    name: c.name,
    address: c.address,
    kvk: c.kvk,
    city: c.city,
    country: c.country,
    tradenames: c.tradenames,
    vat_numbers: c.vatNumbers,
    support_phone: c.supportPhone,
    delete_discount: c.deleteDiscount,
    added: c.added,
  };
}
