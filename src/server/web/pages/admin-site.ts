/**
 * /admin/sites/{id} (OPS-03) for the web: the site, its settings form (saved only when the whole site
 * still passes the schemas it is loaded with; what changed is audited by the rules) and the view model:
 * the settings and company groups with what was just posted when refused, else what is saved.
 */
import { siteExists } from '../../sites/list';
import type { Site } from '../../sites/directory';
import type { StaffMember } from '../../staff/accounts';
import { COMPANY_KINDS, SETTING_KINDS, fieldText, saveSiteSettings, type FieldKind } from '../../staff/site-settings-form';
import { invalid, redirect, type RefusedPost, type SingleActionSpec } from '../form-action';
import type { RequestContext } from '../request-context';

type Again = Record<string, string>;

/** The site `id` names, as the site directory loads it; null when there is none. */
export async function adminSite(ctx: Pick<RequestContext, 'app'>, id: number): Promise<Site | null> {
  return (await siteExists(ctx.app.db, id)) ? ctx.app.sites.forId(id) : null;
}

export function siteSettingsForm(ctx: Pick<RequestContext, 'app' | 't'>, staff: StaffMember, site: Site): SingleActionSpec<Again> {
  const { app, t } = ctx;
  const here = `/admin/sites/${site.settings.id}`;
  const errorText = (code: string) => (code === 'number' || code === 'json' ? t(`staff_sites:error_${code}`) : t('staff_sites:error_invalid', { message: code }));
  return {
    handle: async (form) => {
      const result = await saveSiteSettings(app, staff, site, (name) => form.all(name).at(-1) ?? null);
      if (result.type === 'saved') return redirect(`${here}?done=saved`);
      if (result.type === 'unchanged') return redirect(`${here}?done=unchanged`);
      if (result.type === 'not_found') return invalid(404, { formError: t('staff_sites:error_not_found') });
      return invalid(400, {
        formError: t('staff_sites:error_form'),
        fieldErrors: Object.fromEntries(Object.entries(result.fieldErrors).map(([k, v]) => [k, errorText(v)])),
        data: Object.fromEntries([...new Set(form.data.keys())].map((k) => [k, form.all(k).at(-1) ?? ''])),
      });
    },
  };
}

export async function adminSitePage(ctx: Pick<RequestContext, 'app' | 't'>, site: Site, posted: RefusedPost<Again> | null, url: URL) {
  const { t } = ctx;
  const current = posted ? null : await adminSite(ctx, site.settings.id);
  const shown = current ?? site;
  const again = posted?.result.data;
  return {
    shown,
    errors: posted?.result.fieldErrors ?? {},
    done: ['saved', 'unchanged'].find((d) => d === url.searchParams.get('done')),
    groups: [
      { key: 'settings', title: t('staff_sites:settings'), kinds: SETTING_KINDS as Record<string, FieldKind>, values: shown.settings as unknown as Record<string, unknown> },
      { key: 'company', title: t('staff_sites:company'), kinds: COMPANY_KINDS as Record<string, FieldKind>, values: shown.company as unknown as Record<string, unknown> },
    ],
    valueOf: (name: string, kind: FieldKind, value: unknown) => (again && name in again ? again[name]! : fieldText(kind, value)),
  };
}
