/**
 * The forms of /settings (SET-01): e-mail address (MAIL-01, a link to the new address), password
 * (AUTH-04, other sessions end) and invisible mode. The hidden `form` field names the form; success goes
 * back to its section with a `saved` notice.
 */
import { requestEmailChange } from '../accounts/email-change';
import { changePassword, setChatSignals, setPublicProfile, setInvisible } from '../accounts/preferences';
import { PASSKEY_NAME_MAX, removePasskey, renamePasskey, setPasskeyRequired } from '../auth/passkeys';
import type { CurrentUser } from '../members/account';
import { setOnlyVerifiedContact } from '../photos/verification';
import type { RequestContext } from './request-context';
import { invalid, redirect, translateFields, type MultiActionSpec } from './form-action';

/** The forms on the page, as named by the posted `form` field. */
export type SettingsFormName = 'email' | 'password' | 'invisible' | 'chat_signals' | 'public_profile' | 'passkey_rename' | 'passkey_remove' | 'passkey_required' | 'only_verified';

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
  'passkey_added',
  'passkey_renamed',
  'passkey_removed',
  'passkey_removed_required_off',
  'passkey_required_on',
  'passkey_required_off',
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
      // PASS-01: a passkey's name; removing one ends the other sessions that logged in with it (decision 087).
      passkey_rename: async (form) => {
        const id = passkeyIdOf(form.text('passkey'));
        const name = form.text('name').replace(/\s+/g, ' ').trim();
        if (!name || name.length > PASSKEY_NAME_MAX) return invalid(400, { formError: t('settings:passkey_name_invalid', { max: PASSKEY_NAME_MAX }) });
        if (id === null || !(await renamePasskey(app.db, user.id, id, name))) return invalid(404, { formError: t('settings:passkey_not_found') });
        return redirect('/settings?saved=passkey_renamed#passkeys');
      },
      passkey_remove: async (form) => {
        const id = passkeyIdOf(form.text('passkey'));
        const removed = id === null ? null : await removePasskey(app.db, user.id, id, ctx.sessionId);
        if (!removed) return invalid(404, { formError: t('settings:passkey_not_found') });
        return redirect(`/settings?saved=${removed.requiredOff ? 'passkey_removed_required_off' : 'passkey_removed'}#passkeys`);
      },
      passkey_required: async (form) => {
        const value = form.text('passkey_required');
        if (value !== '1' && value !== '0') return invalid(400, { formError: t('errors:invalid_choice') });
        const result = await setPasskeyRequired(app.db, user.id, value === '1');
        if (result.type === 'error') return invalid(409, { formError: t('settings:passkey_required_needs_one') });
        return redirect(`/settings?saved=passkey_required_${value === '1' ? 'on' : 'off'}#passkeys`);
      },
    },
    otherwise: () => invalid(400, { formError: t('errors:invalid_choice') }),
  };
}

/** A posted passkey id, or null when it cannot be one. */
function passkeyIdOf(value: string): number | null {
  return /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2147483647 ? Number(value) : null;
}
