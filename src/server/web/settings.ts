/**
 * The forms of /settings (SET-01): e-mail address (MAIL-01, a link to the new address), password
 * (AUTH-04, other sessions end) and invisible mode. The hidden `form` field names the form; success goes
 * back to its section with a `saved` notice.
 */
import { requestEmailChange } from '../accounts/email-change';
import { changePassword, setChatSignals, setPublicProfile, setInvisible } from '../accounts/preferences';
import type { CurrentUser } from '../members/account';
import { setOnlyVerifiedContact } from '../photos/verification';
import type { RequestContext } from './request-context';
import { invalid, redirect, translateFields, type MultiActionSpec } from './form-action';

/** The forms on the page, as named by the posted `form` field. */
export type SettingsFormName = 'email' | 'password' | 'invisible' | 'chat_signals' | 'public_profile' | 'only_verified';

/** The notices a successful post returns with (`?saved=`). */
export const SETTINGS_SAVED = [
  'email',
  'password',
  'invisible_on',
  'invisible_off',
  'chat_signals_on',
  'chat_signals_off',
  'public_profile_on',
  'public_profile_off',
  'only_verified_on',
  'only_verified_off',
] as const;
export type SettingsSaved = (typeof SETTINGS_SAVED)[number];

/** The actions of the settings page for the signed-in `user`. */
export function settingsForm(ctx: Pick<RequestContext, 'app' | 'site' | 't' | 'sessionId' | 'linkOrigin'>, user: Pick<CurrentUser, 'id'>): MultiActionSpec<undefined, SettingsFormName> {
  const { app, site, t } = ctx;
  return {
    field: 'form',
    actions: {
      email: async (form) => {
        const result = await requestEmailChange(app, { site, userId: user.id, origin: ctx.linkOrigin, form: { email: form.text('email'), current_password: form.text('current_password') } });
        if (result.type === 'ok') return redirect('/settings?saved=email#email');
        if (result.reason === 'validation_failed') return invalid(400, { fieldErrors: translateFields(result.fields, (code) => t(`errors:${code}`)) });
        if (result.reason === 'too_many_attempts') return invalid(429, { formError: t('errors:too_many_attempts', { minutes: result.minutes, count: result.minutes }) });
        return invalid(429, { formError: t(`errors:${result.reason}`) });
      },
      password: async (form) => {
        const result = await changePassword(app, {
          userId: user.id,
          keepSessionId: ctx.sessionId,
          form: { current_password: form.text('current_password'), password: form.text('password'), password_repeat: form.text('password_repeat') },
        });
        if (result.type === 'ok') return redirect('/settings?saved=password#password');
        if (result.reason === 'validation_failed') return invalid(400, { fieldErrors: translateFields(result.fields, (code) => t(`errors:${code}`)) });
        return invalid(429, { formError: t('errors:too_many_attempts', { minutes: result.minutes, count: result.minutes }) });
      },
      invisible: async (form) => {
        const value = form.text('invisible');
        if (value !== '1' && value !== '0') return invalid(400, { formError: t('errors:invalid_choice') });
        const on = value === '1';
        await setInvisible(app, user.id, on);
        return redirect(`/settings?saved=${on ? 'invisible_on' : 'invisible_off'}#invisible`);
      },
      // HON-02: shown on the public pages by first name, age, city and main photo, or not.
      public_profile: async (form) => {
        const value = form.text('public_profile');
        if (value !== '1' && value !== '0') return invalid(400, { formError: t('errors:invalid_choice') });
        const on = value === '1';
        await setPublicProfile(app, user.id, on);
        return redirect(`/settings?saved=${on ? 'public_profile_on' : 'public_profile_off'}#public-profile`);
      },
      // VER-02: only verified members may start a conversation with this member (enforced in chat/send.ts).
      only_verified: async (form) => {
        const value = form.text('only_verified');
        if (value !== '1' && value !== '0') return invalid(400, { formError: t('errors:invalid_choice') });
        const on = value === '1';
        await setOnlyVerifiedContact(app.db, user.id, on);
        return redirect(`/settings?saved=${on ? 'only_verified_on' : 'only_verified_off'}#only-verified`);
      },
      // Read receipts and typing (CHT-10): off sends neither, in every conversation.
      chat_signals: async (form) => {
        const value = form.text('chat_signals');
        if (value !== '1' && value !== '0') return invalid(400, { formError: t('errors:invalid_choice') });
        const on = value === '1';
        await setChatSignals(app, user.id, on);
        return redirect(`/settings?saved=${on ? 'chat_signals_on' : 'chat_signals_off'}#chat-signals`);
      },
    },
    otherwise: () => invalid(400, { formError: t('errors:invalid_choice') }),
  };
}
