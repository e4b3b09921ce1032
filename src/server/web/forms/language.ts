/**
 * The language form (I18N-02, I18N-03, SEC-12): the language menu and /lang-config post the chosen
 * language here; it sets the cookie, stores a member's language and returns to `next`. Choosing is a
 * POST: a link or an image on another site cannot change anyone's language.
 */
import { changeLanguage } from '../../members/account';
import type { RequestContext } from '../request-context';
import { invalid, redirect, type SingleActionSpec } from '../form-action';
import { safeNext } from '../session-cookie';

export const LANGUAGE_FORM_PATH = '/lang-config';

/** The language form; it returns to the form's `next` (a same-site path) or `/`. */
export function languageForm(ctx: Pick<RequestContext, 'app' | 'site' | 'user' | 't'>): SingleActionSpec {
  return {
    handle: async (form) => {
      const result = await changeLanguage(ctx.app.db, { languages: ctx.site.settings.languages, userId: ctx.user?.id ?? null, value: form.text('lang') });
      if (result.type === 'error') return invalid(400, { formError: ctx.t(`errors:${result.reason}`) });
      return redirect(safeNext(form.text('next'), '/'), { language: result.language });
    },
  };
}
