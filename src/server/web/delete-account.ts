/**
 * The forms of /settings/delete (DEL-01): the alternatives first (pause = invisible mode, every e-mail
 * off, the company's discount on the next purchase: HON-03), then the deletion itself with the password, which ends this browser's session. The submit
 * button's `action` names the form.
 */
import { deleteAccount } from '../accounts/deletion';
import { grantRetentionDiscount } from '../payments/retention';
import { setInvisible, setNotificationPreferences } from '../accounts/preferences';
import type { CurrentUser } from '../members/account';
import type { RequestContext } from './request-context';
import { invalid, redirect, type MultiActionSpec } from './form-action';

export const DELETE_ACCOUNT_PATH = '/settings/delete';

/** The actions of the delete-account page for the signed-in `user`. */
export function deleteAccountForm(
  ctx: Pick<RequestContext, 'app' | 'site' | 't' | 'linkOrigin'>,
  user: Pick<CurrentUser, 'id'>,
): MultiActionSpec<undefined, 'pause' | 'mail_off' | 'discount' | 'delete'> {
  const { app, site, t } = ctx;
  return {
    field: 'action',
    actions: {
      pause: async () => {
        await setInvisible(app, user.id, true);
        return redirect(`${DELETE_ACCOUNT_PATH}?done=paused`);
      },
      mail_off: async () => {
        // Every notification preference off (the settings screen turns them on again one by one).
        await setNotificationPreferences(app, user.id, []);
        return redirect(`${DELETE_ACCOUNT_PATH}?done=mail_off`);
      },
      // HON-03: the promised discount, issued once, applied on /credits.
      discount: async () => {
        const state = await grantRetentionDiscount(app.db, { memberId: user.id, siteId: site.settings.id, percent: site.company.delete_discount, now: app.clock.now() });
        if (state.type === 'none') return invalid(400, { formError: t('errors:invalid_choice') });
        return redirect(state.type === 'ready' ? '/credits?discount=retention' : `${DELETE_ACCOUNT_PATH}?done=discount_used`);
      },
      delete: async (form) => {
        const result = await deleteAccount(app, site, { userId: user.id, password: form.text('password'), origin: ctx.linkOrigin });
        if (result.type === 'ok') return redirect('/account-deleted', { session: 'end' });
        if (result.reason === 'too_many_attempts') return invalid(429, { formError: t('errors:too_many_attempts', { minutes: result.minutes, count: result.minutes }) });
        return invalid(400, { formError: t('errors:wrong_password') });
      },
    },
    otherwise: () => invalid(400, { formError: t('errors:validation_failed') }),
  };
}
