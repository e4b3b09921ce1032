/**
 * The notification preferences form of /notifications (SET-02): the checked kinds are the enabled ones;
 * an unknown kind is refused and changes nothing.
 */
import { setNotificationPreferences } from '../../accounts/preferences';
import type { CurrentUser } from '../../members/account';
import type { RequestContext } from '../request-context';
import { invalid, redirect, type MultiActionSpec } from '../form-action';

/** The preferences form for the signed-in `user`. */
export function notificationsForm(ctx: Pick<RequestContext, 'app' | 't'>, user: Pick<CurrentUser, 'id'>): MultiActionSpec<undefined, 'notifications'> {
  const refused = () => invalid(400, { formError: ctx.t('errors:invalid_choice') });
  return {
    field: 'form',
    actions: {
      notifications: async (form) => {
        const result = await setNotificationPreferences(ctx.app, user.id, form.all('enabled'));
        return result.type === 'ok' ? redirect('/notifications?saved=1') : refused();
      },
    },
    otherwise: refused,
  };
}
