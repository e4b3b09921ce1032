/**
 * Changing a site's settings, its texts or its company (the back office will call this): checked with
 * the same zod schemas the site directory applies when it loads a site, written in one transaction, then
 * announced on the bus ('site.changed') so every process drops its cached copy at once instead of
 * waiting for SETTINGS_TTL_MS (docs/decisions/016-settings-cache-and-invalidation.md).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, sites } from '../../db/schema';
import { companyInfoSchema, settingsSchema, type CompanyInfo, type Settings } from '../../shared/settings';
import { siteTextTranslationsSchema, type SiteTextTranslations } from '../../shared/site-texts';
import type { Clock } from '../clock';
import type { EventBus } from '../realtime/bus';
import { companyRowToInfo, siteRowToSettings } from './directory';

type SiteRow = typeof sites.$inferInsert;
type CompanyRow = typeof companies.$inferInsert;

/** Settings an operator may set: all of SPEC §3 but the id and the push key (the deployment's VAPID key). */
export type EditableSettings = Omit<Settings, 'id' | 'push_public_key'>;
export type EditableCompany = Omit<CompanyInfo, 'id'>;

export interface SiteSettingsPatch {
  /** Settings fields to change (snake_case, as /api/settings.php shows them). */
  settings?: Partial<EditableSettings>;
  /** Translations to set, per field (a field given replaces that field's translations). */
  texts?: SiteTextTranslations;
  /** Company info to change: the company is shared, so every site of that company changes. */
  company?: Partial<EditableCompany>;
}

export interface SettingsIssue {
  path: string;
  message: string;
}

export type SiteSettingsUpdate =
  { type: 'ok'; /** Every site whose settings changed (several when the company changed). */ siteIds: number[] } | { type: 'invalid'; issues: SettingsIssue[] } | { type: 'not_found' };

/** settings field → sites column; the type makes a new settings field fail to compile until mapped. */
const SETTINGS_COLUMNS: { [K in keyof EditableSettings]: keyof SiteRow } = {
  name: 'name',
  index_title: 'indexTitle',
  description: 'description',
  domain: 'domain',
  domain_language: 'domainLanguage',
  languages: 'languages',
  cdn_prefix: 'cdnPrefix',
  niche: 'niche',
  company_id: 'companyId',
  mail_name: 'mailName',
  countries: 'countries',
  signups: 'signups',
  logged_out_search: 'loggedOutSearch',
  logged_out_search_trafficsource: 'loggedOutSearchTrafficsource',
  geoip_country: 'geoipCountry',
  geoip_selected_country: 'geoipSelectedCountry',
  enable_site_entry_popup: 'enableSiteEntryPopup',
  support_phone: 'supportPhone',
  support_email: 'supportEmail',
  fictional_icon: 'fictionalIcon',
  fictional_warning: 'fictionalWarning',
  fictional_singular: 'fictionalSingular',
  fictional_plural: 'fictionalPlural',
  visible_profile_fields: 'visibleProfileFields',
  visible_profile_notes: 'visibleProfileNotes',
  search_fields: 'searchFields',
  message_credits: 'messageCredits',
  photo_credits: 'photoCredits',
  gift_credits: 'giftCredits',
  signup_credits: 'signupCredits',
  message_length: 'messageLength',
  minimum_message_costs: 'minimumMessageCosts',
  refund_days: 'refundDays',
  member_resell: 'memberResell',
  min_age: 'minAge',
  invite_only: 'inviteOnly',
  live_cam_promo: 'liveCamPromo',
  us_legal_footer: 'usLegalFooter',
};

const COMPANY_COLUMNS: { [K in keyof EditableCompany]: keyof CompanyRow } = {
  name: 'name',
  address: 'address',
  kvk: 'kvk',
  city: 'city',
  country: 'country',
  tradenames: 'tradenames',
  vat_numbers: 'vatNumbers',
  support_phone: 'supportPhone',
  delete_discount: 'deleteDiscount',
  added: 'added',
};

const settingsPatchSchema = settingsSchema.omit({ id: true, push_public_key: true }).partial().strict();
const companyPatchSchema = companyInfoSchema.omit({ id: true }).partial().strict();

/** What the service needs from the app context. */
export interface SettingsUpdateDeps {
  db: Db;
  bus: EventBus;
  clock: Clock;
}

/**
 * Applies `patch` to site `siteId`: the changed fields merged into the stored ones must pass the same
 * schemas as at load (settingsSchema, companyInfoSchema, siteTextTranslationsSchema), or nothing is
 * written. After the commit, 'site.changed' goes out for every site affected.
 */
export async function updateSiteSettings(
  app: SettingsUpdateDeps,
  siteId: number,
  patch: SiteSettingsPatch,
  /** Runs in the change's transaction when it succeeds (the back office writes its audit row here). */
  inTransaction?: (tx: Parameters<Parameters<Db['transaction']>[0]>[0], siteIds: number[]) => Promise<void>,
): Promise<SiteSettingsUpdate> {
  const issues: SettingsIssue[] = [];
  const settingsPatch = settingsPatchSchema.safeParse(patch.settings ?? {});
  if (!settingsPatch.success) issues.push(...toIssues('settings', settingsPatch.error.issues));
  const companyPatch = companyPatchSchema.safeParse(patch.company ?? {});
  if (!companyPatch.success) issues.push(...toIssues('company', companyPatch.error.issues));
  const textsPatch = siteTextTranslationsSchema.safeParse(patch.texts ?? {});
  if (!textsPatch.success) issues.push(...toIssues('texts', textsPatch.error.issues));
  if (issues.length > 0 || !settingsPatch.success || !companyPatch.success || !textsPatch.success) return { type: 'invalid', issues };

  const outcome = await app.db.transaction(async (tx): Promise<SiteSettingsUpdate> => {
    const [row] = await tx.select().from(sites).where(eq(sites.id, siteId)).for('update').limit(1);
    if (!row) return { type: 'not_found' };
    // The whole site after the change must still load: the same check the directory makes.
    const merged = settingsSchema.safeParse({ ...(siteRowToSettings(row) as object), ...settingsPatch.data });
    if (!merged.success) return { type: 'invalid', issues: toIssues('settings', merged.error.issues) };
    const texts = siteTextTranslationsSchema.safeParse({ ...row.texts, ...textsPatch.data });
    if (!texts.success) return { type: 'invalid', issues: toIssues('texts', texts.error.issues) };

    const siteSet: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(settingsPatch.data)) siteSet[SETTINGS_COLUMNS[key as keyof EditableSettings]] = value;
    if (patch.texts) siteSet.texts = texts.data;
    if (Object.keys(siteSet).length > 0) {
      await tx
        .update(sites)
        .set({ ...siteSet, updatedAt: app.clock.now() })
        .where(eq(sites.id, siteId));
    }
    const changed = new Set<number>(Object.keys(siteSet).length > 0 ? [siteId] : []);

    if (Object.keys(companyPatch.data).length > 0) {
      const companyId = merged.data.company_id;
      const [company] = await tx.select().from(companies).where(eq(companies.id, companyId)).for('update').limit(1);
      if (!company) return { type: 'invalid', issues: [{ path: 'settings.company_id', message: 'no such company' }] };
      const info = companyInfoSchema.safeParse({ ...(companyRowToInfo(company) as object), ...companyPatch.data });
      if (!info.success) return { type: 'invalid', issues: toIssues('company', info.error.issues) };
      const companySet: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(companyPatch.data)) companySet[COMPANY_COLUMNS[key as keyof EditableCompany]] = value;
      await tx.update(companies).set(companySet).where(eq(companies.id, companyId));
      for (const s of await tx.select({ id: sites.id }).from(sites).where(eq(sites.companyId, companyId))) changed.add(s.id);
    }
    const siteIds = [...changed].sort((a, b) => a - b);
    if (inTransaction) await inTransaction(tx, siteIds);
    return { type: 'ok', siteIds };
  });
  // Announced after the commit: a process that reloads on the event must find the new row.
  if (outcome.type === 'ok') {
    for (const id of outcome.siteIds) await app.bus.publish('site.changed', { siteId: id });
  }
  return outcome;
}

function toIssues(prefix: string, issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): SettingsIssue[] {
  return issues.map((issue) => ({ path: [prefix, ...issue.path.map(String)].join('.'), message: issue.message }));
}
