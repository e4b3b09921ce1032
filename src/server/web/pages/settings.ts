/**
 * The view model of /settings (SET-01): what the page shows after its forms had their say — the e-mail
 * status, the toggles' states, the notice of a successful post (`?saved=`), the errors of a refused one
 * and the fields of the e-mail and password forms.
 */
import { emailStatus } from '../../accounts/email-change';
import { chatSignalsOf, NOTIFICATION_KEYS, publicProfileOf } from '../../accounts/preferences';
import { listPasskeys, PASSKEY_NAME_MAX, passkeyRequiredOf } from '../../auth/passkeys';
import type { CurrentUser } from '../../members/account';
import { onlyVerifiedContactOf, verificationStateOf } from '../../photos/verification';
import type { RefusedPost } from '../form-action';
import { SETTINGS_SAVED, type SettingsFormName, type SettingsSaved } from '../settings';
import type { RequestContext } from '../request-context';

type Translate = RequestContext['t'];

/** The notice after a successful post, by its `saved` value (null: none). */
function noticeOf(t: Translate, saved: SettingsSaved | null, pending: string | null): string | null {
  switch (saved) {
    case 'email':
      return pending ? t('settings:email_sent', { email: pending }) : null;
    case 'password':
      return t('settings:password_saved');
    case 'invisible_on':
      return t('settings:invisible_saved_on');
    case 'invisible_off':
      return t('settings:invisible_saved_off');
    case 'public_profile_on':
      return t('settings:public_profile_saved_on');
    case 'public_profile_off':
      return t('settings:public_profile_saved_off');
    case 'only_verified_on':
      return t('verification:only_verified_saved_on');
    case 'only_verified_off':
      return t('verification:only_verified_saved_off');
    case 'chat_signals_on':
      return t('chats:signals_saved_on');
    case 'chat_signals_off':
      return t('chats:signals_saved_off');
    case 'passkey_added':
      return t('settings:passkey_added');
    case 'passkey_renamed':
      return t('settings:passkey_renamed');
    case 'passkey_removed':
      return t('settings:passkey_removed');
    case 'passkey_removed_required_off':
      return t('settings:passkey_removed_required_off');
    case 'passkey_required_on':
      return t('settings:passkey_required_on');
    case 'passkey_required_off':
      return t('settings:passkey_required_off');
    default:
      return null;
  }
}

/** How many notifications are off, in words. */
function notificationSummaryOf(t: Translate, disabled: readonly string[]): string {
  const disabledCount = NOTIFICATION_KEYS.filter((key) => disabled.includes(key)).length;
  if (disabledCount === 0) return t('settings:notifications_all_on');
  if (disabledCount === NOTIFICATION_KEYS.length) return t('settings:notifications_all_off');
  return t('settings:notifications_some_off', { off: disabledCount, total: NOTIFICATION_KEYS.length, count: disabledCount });
}

export async function settingsPage(
  ctx: Pick<RequestContext, 'app' | 't' | 'lang'>,
  user: Pick<CurrentUser, 'id' | 'notifications_disabled'>,
  posted: RefusedPost<undefined, SettingsFormName> | null,
  url: URL,
) {
  const { app, t } = ctx;
  const failedForm = posted?.action ?? null;
  const formError = posted?.result.formError ?? null;
  const fieldErrors = posted?.result.fieldErrors ?? {};
  const newEmail = failedForm === 'email' ? (posted?.form?.text('email') ?? '').trim().slice(0, 254) : '';

  const savedParam = url.searchParams.get('saved');
  const saved = (SETTINGS_SAVED as readonly string[]).includes(savedParam ?? '') ? (savedParam as SettingsSaved) : null;

  const { confirmed, pending } = await emailStatus(app, user.id);
  const [chatSignals, publicProfile, passkeys, passkeyRequired, onlyVerified, verification] = await Promise.all([
    chatSignalsOf(app, user.id),
    publicProfileOf(app, user.id),
    listPasskeys(app.db, user.id),
    passkeyRequiredOf(app.db, user.id),
    onlyVerifiedContactOf(app.db, user.id),
    verificationStateOf(app.db, user.id),
  ]);
  const date = new Intl.DateTimeFormat(ctx.lang, { dateStyle: 'medium' });

  return {
    failedForm,
    formError,
    fieldErrors,
    saved,
    confirmed,
    pending,
    chatSignals,
    publicProfile,
    onlyVerified,
    /** VER-01: the member's verification in words, for the settings' verification section. */
    verification: { state: verification.state, text: t(`verification:state.${verification.state}`) },
    notificationSummary: notificationSummaryOf(t, user.notifications_disabled),
    /** PASS-01: the member's passkeys, "passkey required", and the refusal of a passkey form, if one was posted. */
    passkeys: {
      list: passkeys.map((p) => ({ id: p.id, name: p.name, created: date.format(p.createdAt), lastUsed: p.lastUsedAt ? date.format(p.lastUsedAt) : null })),
      required: passkeyRequired,
      error: failedForm?.startsWith('passkey_') ? formError : null,
      nameMax: PASSKEY_NAME_MAX,
    },
    notice: noticeOf(t, saved, pending),
    /** The error of `field` in `form`, only when that form was the one posted. */
    err: (form: SettingsFormName, field: string) => (failedForm === form ? fieldErrors[field] : undefined),
    emailFields: [
      { id: 'settings-email-new', name: 'email', type: 'email', label: t('settings:email_new'), autocomplete: 'email', value: newEmail, help: t('settings:email_help'), maxlength: 254 },
      { id: 'settings-email-password', name: 'current_password', type: 'password', label: t('settings:current_password'), autocomplete: 'current-password', help: null, maxlength: 1024 },
    ] as const,
    passwordFields: [
      { id: 'settings-password-current', name: 'current_password', label: t('settings:current_password'), autocomplete: 'current-password', help: null },
      { id: 'settings-password-new', name: 'password', label: t('settings:password_new'), autocomplete: 'new-password', help: t('settings:password_help') },
      { id: 'settings-password-repeat', name: 'password_repeat', label: t('settings:password_repeat'), autocomplete: 'new-password', help: null },
    ] as const,
    sections: [
      ['email', t('settings:email_title')],
      ['password', t('settings:password_title')],
      ['passkeys', t('settings:passkeys_title')],
      ['push', t('settings:push_title')],
      ['notifications', t('settings:notifications_title')],
      ['invisible', t('settings:invisible_title')],
      ['public-profile', t('settings:public_profile_title')],
      ['chat-signals', t('chats:signals_title')],
      ['only-verified', t('verification:only_verified_title')],
      ['delete', t('settings:delete_title')],
    ] as const,
  };
}
