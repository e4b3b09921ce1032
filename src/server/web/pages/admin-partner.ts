/**
 * /admin/partner?site={id} (HON-01, LND-05): the forms that save or remove a site's partner (audited,
 * reaching every process at once) and what the page shows: the current partner, the field errors of a
 * refused save and the values to show again.
 */
import type { Site } from '../../sites/directory';
import type { StaffMember } from '../../staff/accounts';
import { MAX_PARTNER_IMAGES, removePartner, savePartner } from '../../staff/partners-admin';
import { invalid, redirect, type MultiActionSpec, type RefusedPost } from '../form-action';
import type { RequestContext } from '../request-context';

type Ctx = Pick<RequestContext, 'app' | 't'>;

export function partnerForms(ctx: Ctx, staff: StaffMember, siteId: number): MultiActionSpec<undefined, 'save' | 'remove'> {
  const { app, t } = ctx;
  const here = `/admin/partner?site=${siteId}`;
  return {
    field: 'action',
    actions: {
      save: async (form) => {
        const files = await Promise.all(
          form.data
            .getAll('images')
            .filter((v): v is File => typeof v !== 'string')
            .map(async (file) => Buffer.from(await file.arrayBuffer())),
        );
        const result = await savePartner(app, staff, { siteId, name: form.text('name'), url: form.text('url'), files });
        if (result.type === 'saved') return redirect(`${here}&done=saved`);
        const fieldErrors = Object.fromEntries(Object.entries(result.fieldErrors).map(([field, code]) => [field, t(`staff_partner:error_${code}`, { max: MAX_PARTNER_IMAGES })]));
        return invalid(400, { formError: t('staff_sites:error_form'), fieldErrors });
      },
      remove: async () => {
        await removePartner(app, staff, siteId);
        return redirect(`${here}&done=removed`);
      },
    },
    otherwise: () => invalid(400, { formError: t('staff_sites:error_form') }),
  };
}

export async function partnerView(ctx: Ctx, siteId: number, url: URL, posted: RefusedPost<undefined> | null) {
  const current: Site['partner'] = (await ctx.app.sites.forId(siteId)).partner;
  return {
    current,
    errors: posted?.result.fieldErrors ?? {},
    value: (name: 'name' | 'url') => (posted?.form ? posted.form.text(name) : (current?.[name] ?? '')),
    done: ['saved', 'removed'].find((d) => d === url.searchParams.get('done')),
  };
}
