/**
 * POST /api/alert-dismiss.php {alert} (ALR-04): stores when the signed-in member dismissed a warning
 * banner (enrich, push, notifications_disabled, time_bonus). A form post (no script) is sent back to
 * `next`; a JSON call gets the member's dismissals.
 */
import { dismissAlert } from '../../server/alerts/dismissals';
import { ApiError, endpoint, json, methodNotAllowed, readJson } from '../../server/web/api';
import { safeNext } from '../../server/web/session-cookie';
import { requireMember } from '../../server/web/request-context';
import { alertDismissBody, type AlertDismissAnswer } from '../../shared/api/alert-dismiss';

export const POST = endpoint(async ({ locals, request, redirect }) => {
  const isForm = (request.headers.get('content-type') ?? '').includes('form');
  if (isForm) {
    const form = await request.formData().catch(() => null);
    const parsed = alertDismissBody.safeParse(form ? Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)])) : {});
    const next = safeNext(parsed.success ? parsed.data.next : null, '/');
    const user = requireMember(locals, next);
    if (!parsed.success) throw new ApiError('validation_failed', { alert: 'invalid_value' });
    await dismissAlert(locals.app.db, user.id, parsed.data.alert, locals.app.clock.now());
    return redirect(next, 303);
  }
  const user = requireMember(locals, '/');
  const { alert } = await readJson(request, alertDismissBody);
  const dismissals = await dismissAlert(locals.app.db, user.id, alert, locals.app.clock.now());
  return json({ ok: true, dismissals } satisfies AlertDismissAnswer);
});

export const ALL = methodNotAllowed;
