/**
 * The button of /account/reactivate (DEL-01): posting the mailed token restores the deleted account and
 * logs this browser in (a session it had before is not carried on). Opening the link changes nothing.
 */
import { reactivateAccount, type ReactivationResult } from '../../accounts/deletion';
import { revokeSession } from '../../auth/sessions';
import type { RequestContext } from '../request-context';
import { invalid, redirect, type SingleActionSpec } from '../form-action';

export const REACTIVATE_PATH = '/account/reactivate';

/** Why a link does not restore the account. */
export type ReactivationProblem = Extract<ReactivationResult, { type: 'error' }>['reason'];

/** The reactivation form; a refusal carries the problem as its data. */
export function reactivateForm(ctx: Pick<RequestContext, 'app' | 'site' | 'sessionId' | 'clientIp' | 'userAgent'>): SingleActionSpec<ReactivationProblem> {
  const { app, site } = ctx;
  return {
    handle: async (form) => {
      const result = await reactivateAccount(app, form.text('token'), { siteId: site.settings.id, ip: ctx.clientIp, userAgent: ctx.userAgent });
      if (result.type === 'error') return invalid(400, { reason: result.reason, data: result.reason });
      // Rotate: a session this browser had before is not carried on.
      if (ctx.sessionId) await revokeSession(app.db, ctx.sessionId);
      return redirect(`${REACTIVATE_PATH}?done=1`, { session: { token: result.created.token } });
    },
  };
}
