/**
 * /admin/safety (SAFE-02): the members whose messages carried the safety notice most in the last
 * COUNT_DAYS days (moderators and admins), and the phrase lists per language, which admins edit (one
 * phrase a line) or set back to the built-in list; each change audited (lists.ts).
 */
import { isLanguage } from '../../../shared/languages';
import type { StaffMember } from '../../staff/accounts';
import { safetyCountsByMember } from '../../safety/counts';
import { resetSafetyPhrases, safetyPhraseLists, saveSafetyPhrases } from '../../safety/lists';
import { invalid, redirect, type MultiActionSpec } from '../form-action';
import type { RequestContext } from '../request-context';

type Ctx = Pick<RequestContext, 'app' | 't' | 'lang'>;

export function adminSafetyForms(ctx: Ctx, staff: StaffMember): MultiActionSpec<undefined, 'save' | 'reset'> {
  const { app, t } = ctx;
  const language = (value: string) => (isLanguage(value) ? value : null);
  const guard = (value: string) => {
    if (staff.role !== 'admin') return invalid(403, { formError: t('staff:admins_only') });
    return language(value) === null ? invalid(400, { formError: t('errors:invalid_choice') }) : null;
  };
  return {
    field: 'action',
    actions: {
      save: async (form) => {
        const refused = guard(form.text('language'));
        if (refused) return refused;
        const lang = language(form.text('language'))!;
        await saveSafetyPhrases(app, staff, lang, form.text('phrases'));
        return redirect(`/admin/safety?done=save&language=${lang}#phrases-${lang}`);
      },
      reset: async (form) => {
        const refused = guard(form.text('language'));
        if (refused) return refused;
        const lang = language(form.text('language'))!;
        await resetSafetyPhrases(app, staff, lang);
        return redirect(`/admin/safety?done=reset&language=${lang}#phrases-${lang}`);
      },
    },
    otherwise: () => invalid(400, { formError: t('errors:invalid_choice') }),
  };
}

export async function adminSafetyView(ctx: Ctx, staff: StaffMember, url: URL) {
  const [counts, lists] = await Promise.all([safetyCountsByMember(ctx.app.db, ctx.app.clock.now(), 100), safetyPhraseLists(ctx.app.db)]);
  return {
    counts,
    lists,
    editable: staff.role === 'admin',
    done: ['save', 'reset'].find((d) => d === url.searchParams.get('done')) ?? null,
    time: new Intl.DateTimeFormat(ctx.lang, { dateStyle: 'short', timeStyle: 'short' }),
  };
}
