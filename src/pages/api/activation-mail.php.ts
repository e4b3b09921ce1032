/**
 * POST /api/activation-mail.php (ACT-02): mails the signed-in, unconfirmed member a new activation link,
 * at most once per 10 minutes. A form post (no script) returns to `next` with
 * `activation_mail=sent|too_soon` (and `activation_mail_minutes`) for the reminder to show; a JSON call
 * gets {ok} or the error `activation_mail_too_soon` {minutes} / `already_confirmed`.
 */
import { resendActivationMail } from '../../server/alerts/activation-reminder';
import { ApiError, endpoint, json, methodNotAllowed, readJson } from '../../server/web/api';
import { safeNext } from '../../server/web/session-cookie';
import { requireMember } from '../../server/web/request-context';
import { activationMailBody, type ActivationMailAnswer } from '../../shared/api/activation-mail';

function withStatus(origin: string, next: string, params: Record<string, string>): string {
  const target = new URL(next, origin);
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  return target.pathname + target.search + target.hash;
}

export const POST = endpoint(async ({ locals, request, redirect, url }) => {
  const isForm = (request.headers.get('content-type') ?? '').includes('form');
  const form = isForm ? await request.formData().catch(() => null) : null;
  const next = safeNext(form ? String(form.get('next') ?? '') : null, '/');
  if (!isForm) await readJson(request, activationMailBody);
  const user = requireMember(locals, next);
  const { app } = locals;
  const result = user.status === 'not_confirmed' ? await resendActivationMail(app, locals.site, user.id, locals.linkOrigin) : ({ type: 'error', reason: 'already_confirmed' } as const);
  if (isForm) {
    if (result.type === 'ok') return redirect(withStatus(url.origin, next, { activation_mail: 'sent' }), 303);
    if (result.reason === 'too_soon') return redirect(withStatus(url.origin, next, { activation_mail: 'too_soon', activation_mail_minutes: String(result.minutes) }), 303);
    if (result.reason === 'already_confirmed') return redirect(next, 303);
    throw new ApiError('service_unavailable');
  }
  if (result.type === 'ok') return json({ ok: true } satisfies ActivationMailAnswer);
  if (result.reason === 'too_soon') throw new ApiError('activation_mail_too_soon', undefined, { minutes: result.minutes });
  if (result.reason === 'already_confirmed') throw new ApiError('already_confirmed');
  throw new ApiError('service_unavailable');
});

export const ALL = methodNotAllowed;
