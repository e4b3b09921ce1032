/**
 * Site settings and company info in the back office (OPS-03): every setting of SPEC §3 but the id and
 * the push key as a form field of its kind, read back into a patch of what changed, and saved through
 * `updateSiteSettings` — the same zod schemas as when a site loads, one transaction with the audit row,
 * then 'site.changed' on the bus so every process drops its copy at once.
 */
import { LANGUAGES } from '../../shared/languages';
import type { Site } from '../sites/directory';
import { updateSiteSettings, type EditableCompany, type EditableSettings, type SettingsUpdateDeps } from '../sites/settings-update';
import { audit } from '../audit';
import type { StaffMember } from './accounts';

export type FieldKind =
  | { type: 'text' }
  | { type: 'textarea' }
  | { type: 'number' }
  | { type: 'checkbox' }
  /** Comma-separated values (languages, countries, field names). */
  | { type: 'list' }
  | { type: 'json' }
  | { type: 'select'; options: readonly (string | number)[] };

/** The kind of each setting; a new setting does not compile until it has one. */
export const SETTING_KINDS: { [K in keyof EditableSettings]: FieldKind } = {
  name: { type: 'text' },
  index_title: { type: 'text' },
  description: { type: 'textarea' },
  domain: { type: 'text' },
  domain_language: { type: 'select', options: LANGUAGES },
  languages: { type: 'list' },
  cdn_prefix: { type: 'text' },
  niche: { type: 'select', options: [1, 2, 3, 4, 5, 6, 7] },
  company_id: { type: 'number' },
  mail_name: { type: 'text' },
  countries: { type: 'list' },
  signups: { type: 'select', options: ['all', 'with_trafficsource', 'other'] },
  logged_out_search: { type: 'checkbox' },
  logged_out_search_trafficsource: { type: 'checkbox' },
  geoip_country: { type: 'text' },
  geoip_selected_country: { type: 'text' },
  enable_site_entry_popup: { type: 'checkbox' },
  support_phone: { type: 'text' },
  support_email: { type: 'text' },
  fictional_icon: { type: 'text' },
  fictional_warning: { type: 'textarea' },
  fictional_singular: { type: 'text' },
  fictional_plural: { type: 'text' },
  visible_profile_fields: { type: 'list' },
  visible_profile_notes: { type: 'checkbox' },
  search_fields: { type: 'list' },
  message_credits: { type: 'number' },
  photo_credits: { type: 'number' },
  gift_credits: { type: 'number' },
  signup_credits: { type: 'number' },
  message_length: { type: 'number' },
  minimum_message_costs: { type: 'json' },
  refund_days: { type: 'number' },
  member_resell: { type: 'checkbox' },
  min_age: { type: 'number' },
  invite_only: { type: 'checkbox' },
  live_cam_promo: { type: 'checkbox' },
  us_legal_footer: { type: 'checkbox' },
};

export const COMPANY_KINDS: { [K in keyof EditableCompany]: FieldKind } = {
  name: { type: 'text' },
  address: { type: 'text' },
  kvk: { type: 'text' },
  city: { type: 'text' },
  country: { type: 'text' },
  tradenames: { type: 'list' },
  vat_numbers: { type: 'list' },
  support_phone: { type: 'text' },
  delete_discount: { type: 'number' },
  added: { type: 'text' },
};

/** A value as the form shows it. */
export function fieldText(kind: FieldKind, value: unknown): string {
  switch (kind.type) {
    case 'list':
      return Array.isArray(value) ? value.join(', ') : '';
    case 'json':
      return JSON.stringify(value ?? null, null, 2);
    case 'checkbox':
      return value ? '1' : '';
    default:
      return value === null || value === undefined ? '' : String(value);
  }
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: 'number' | 'json' };

/** What the form posted for a field of `kind`, typed as the setting is (the schema checks the rest). */
export function parseField(kind: FieldKind, posted: string | null, current: unknown): Parsed {
  const text = (posted ?? '').trim();
  switch (kind.type) {
    case 'checkbox':
      return { ok: true, value: posted === '1' };
    case 'number':
      return /^-?\d{1,9}$/.test(text) ? { ok: true, value: Number(text) } : { ok: false, error: 'number' };
    case 'list':
      return {
        ok: true,
        value:
          text === ''
            ? []
            : text
                .split(',')
                .map((v) => v.trim())
                .filter((v) => v !== ''),
      };
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text) as unknown };
      } catch {
        return { ok: false, error: 'json' };
      }
    case 'select':
      return { ok: true, value: typeof current === 'number' ? (/^\d{1,9}$/.test(text) ? Number(text) : text) : text };
    default:
      return { ok: true, value: posted ?? '' };
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export type SaveResult = { type: 'saved'; changed: string[] } | { type: 'unchanged' } | { type: 'invalid'; fieldErrors: Record<string, string> } | { type: 'not_found' };

/**
 * Reads the posted form (`settings.<key>` and `company.<key>` fields; a field not sent is left alone),
 * keeps what changed, and saves it
 * with an audit row of the fields before and after in the same transaction. Field errors are codes:
 * `number`, `json`, or the schema's message.
 */
export async function saveSiteSettings(deps: SettingsUpdateDeps, by: StaffMember, site: Site, read: (name: string) => string | null): Promise<SaveResult> {
  const fieldErrors: Record<string, string> = {};
  const settings: Record<string, unknown> = {};
  const company: Record<string, unknown> = {};
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const collect = (group: 'settings' | 'company', kinds: Record<string, FieldKind>, current: Record<string, unknown>, into: Record<string, unknown>) => {
    for (const [key, kind] of Object.entries(kinds)) {
      const name = `${group}.${key}`;
      const posted = read(name);
      // A field the form did not send stays as it is (a checkbox sends its hidden '0' when unticked).
      if (posted === null) continue;
      const parsed = parseField(kind, posted, current[key]);
      if (!parsed.ok) fieldErrors[name] = parsed.error;
      else if (!same(parsed.value, current[key])) {
        into[key] = parsed.value;
        before[name] = current[key];
        after[name] = parsed.value;
      }
    }
  };
  collect('settings', SETTING_KINDS, site.settings as unknown as Record<string, unknown>, settings);
  collect('company', COMPANY_KINDS, site.company as unknown as Record<string, unknown>, company);
  if (Object.keys(fieldErrors).length > 0) return { type: 'invalid', fieldErrors };
  if (Object.keys(after).length === 0) return { type: 'unchanged' };
  const siteId = site.settings.id;
  const result = await updateSiteSettings(deps, siteId, { settings, company }, async (tx, siteIds) => {
    await audit(tx, { staffId: by.id, action: 'site.settings', targetType: 'site', targetId: siteId, before, after: { ...after, sites_changed: siteIds } }, deps.clock.now());
  });
  if (result.type === 'not_found') return { type: 'not_found' };
  if (result.type === 'invalid') {
    for (const issue of result.issues) {
      const name = issue.path.split('.').slice(0, 2).join('.');
      fieldErrors[name in fieldErrors ? `${name}.` : name] ??= issue.message;
    }
    return { type: 'invalid', fieldErrors };
  }
  return { type: 'saved', changed: Object.keys(after) };
}
