/**
 * The /login form (AUTH-01, AUTH-03, DEL-01): the same login service as `POST /api/user.php`; success
 * logs this browser in (a fresh session) and goes on to the page the visitor came for.
 */
import { login, loginSchema } from '../../auth/login';
import type { RequestContext } from '../request-context';
import { invalid, redirect, type SingleActionSpec } from '../form-action';
import { safeNext } from '../session-cookie';

/**
 * The login form; `next` is where to go when the form does not say (already checked by `safeNext`);
 * `deviceCookie` is the device cookie this browser sent, if any (SEC-13).
 */
export function loginForm(ctx: Pick<RequestContext, 'app' | 'site' | 't' | 'sessionId' | 'clientIp' | 'userAgent'>, next: string, deviceCookie: string | null): SingleActionSpec {
  const { app, t } = ctx;
  return {
    handle: async (form) => {
      const parsed = loginSchema.safeParse({ email: form.text('email').slice(0, 254), password: form.text('password') });
      if (!parsed.success) return invalid(400, { formError: t('errors:invalid_credentials') });
      const result = await login(
        { db: app.db, clock: app.clock, devices: app.devices },
        { ...parsed.data, siteId: ctx.site.settings.id, previousSessionId: ctx.sessionId, ip: ctx.clientIp, userAgent: ctx.userAgent, deviceCookie },
      );
      if (result.type === 'ok') return redirect(safeNext(form.text('next'), next), { session: { token: result.created.token }, device: result.deviceCookie });
      // AUTH-03: blocked → 429 with the minutes left; DEL-01: a deleted account within its grace period → 403.
      if (result.reason === 'too_many_attempts') return invalid(429, { formError: t('errors:too_many_attempts', { minutes: result.minutes, count: result.minutes }) });
      // OPS-01: a banned member is refused with the ban page.
      if (result.reason === 'account_banned') return redirect('/banned');
      return invalid(result.reason === 'account_deletion_pending' ? 403 : 401, { formError: t(`errors:${result.reason}`) });
    },
  };
}
