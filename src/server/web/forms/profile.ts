/**
 * The /profile edit form (MEM-06): one server form (decision 023) that saves the member's own profile
 * through profile-edit.ts. Refused input renders the page again with 400 and the translated field
 * errors; nothing is saved.
 */
import { ABOUT_MAX } from '../../members/profile-completion';
import { profileFromForm, saveProfile } from '../../members/profile-edit';
import { SEARCH_MAX_AGE } from '../../members/search';
import type { RequestContext } from '../request-context';
import { invalid, redirect, translateFields, type SingleActionSpec } from '../form-action';

export const PROFILE_PATH = '/profile';

/** What a refused form shows again: the values just posted. */
export type ProfileEcho = Record<string, unknown>;

export function profileForm(ctx: Pick<RequestContext, 'app' | 't' | 'site'>, userId: number): SingleActionSpec<ProfileEcho> {
  const { app, t } = ctx;
  const minAge = ctx.site.settings.min_age;
  return {
    handle: async (form) => {
      const posted = profileFromForm(form.data);
      const saved = await saveProfile(app.db, userId, posted, { minAge });
      if (saved.type === 'ok') return redirect(`${PROFILE_PATH}?saved=1`);
      const fieldErrors = translateFields(saved.fields, (code) =>
        code.startsWith('signup_name_') ? t(`errors:${code}`) : t(`profile_edit:errors.${code}`, { max: ABOUT_MAX, min: minAge, top: SEARCH_MAX_AGE, count: ABOUT_MAX }),
      );
      return invalid(400, { fieldErrors, formError: t('errors:validation_failed'), data: posted });
    },
  };
}
