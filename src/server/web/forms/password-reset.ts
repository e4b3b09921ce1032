/**
 * The two password-reset forms (PWD-01, PWD-02, AUTH-04): asking for the link (/reset-password) and
 * choosing the new password through it (/reset-password/do).
 */
import { checkResetLink, requestPasswordReset, resetFormSchema, resetPassword } from '../../accounts/password-reset';
import { revokeSession } from '../../auth/sessions';
import type { RequestContext } from '../request-context';
import { invalid, redirect, translateFields, type SingleActionSpec } from '../form-action';

/**
 * /reset-password: every well-formed address, with or without an account, gets the same 'sent' state
 * (SEC-11); the link is mailed in the background to a known address only. A malformed address (400)
 * or a request over the per-IP or per-address limit (429) is refused.
 */
export function resetRequestForm(ctx: Pick<RequestContext, 'app' | 'site' | 't' | 'linkOrigin' | 'clientIp' | 'responseDone'>): SingleActionSpec {
  const { app, site, t } = ctx;
  return {
    handle: async (form) => {
      const email = form.text('email').trim().slice(0, 254);
      const result = await requestPasswordReset(app, { site, email, origin: ctx.linkOrigin, ip: ctx.clientIp, responseDone: ctx.responseDone });
      if (result.type === 'accepted') return redirect('/reset-password?sent=1');
      return invalid(result.reason === 'too_many_password_resets' ? 429 : 400, { formError: t(`errors:${result.reason}`) });
    },
  };
}

/** The reason a new-password post was refused: the link is not live, or the fields are wrong. */
export type ResetRefusal = 'reset_link_expired' | 'validation_failed';

/**
 * /reset-password/do: sets the new password through a live link. Success ends every session of the
 * member (this browser's too, whoever it belonged to) and logs this browser in with a fresh one.
 */
export function resetPasswordForm(ctx: Pick<RequestContext, 'app' | 't' | 'sessionId' | 'clientIp' | 'userAgent'>): SingleActionSpec {
  const { app, t } = ctx;
  const expired = () => invalid(410, { reason: 'reset_link_expired' satisfies ResetRefusal });
  const fieldsWrong = (fields: Record<string, string | undefined>) =>
    invalid(400, { reason: 'validation_failed' satisfies ResetRefusal, formError: t('errors:validation_failed'), fieldErrors: translateFields(fields, (code) => t(`errors:${code}`)) });
  return {
    handle: async (form) => {
      const parsed = resetFormSchema.safeParse({ token: form.text('token'), password: form.text('password'), password_repeat: form.text('password_repeat') });
      if (!parsed.success) {
        const live = (await checkResetLink(app, form.text('token').slice(0, 200))).type === 'ok';
        return live ? fieldsWrong({ password: 'password_too_long' }) : expired();
      }
      const result = await resetPassword(app, parsed.data, { ip: ctx.clientIp, userAgent: ctx.userAgent });
      if (result.type === 'ok') {
        // This browser may have been logged in as someone else: that session ends too.
        if (ctx.sessionId) await revokeSession(app.db, ctx.sessionId);
        return redirect('/members', { session: { token: result.created.token }, device: result.deviceCookie });
      }
      return result.reason === 'reset_link_expired' ? expired() : fieldsWrong(result.fields);
    },
  };
}
