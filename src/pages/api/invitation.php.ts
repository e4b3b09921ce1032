/**
 * POST /api/invitation.php (LND-04): a visitor of an invite-only site asks for an invitation.
 * JSON in, `{ ok: true }` out; a form post (the landers' invitation panel works without JavaScript) is
 * sent back to its page with `?invitation=thanks` or `?invitation=invalid`. Asking twice stores one
 * request. Sites that are not invite-only take no requests (404 `not_found_api`).
 */
import { ApiError, endpoint, json, methodNotAllowed, readJson } from '../../server/web/api';
import { invitationReturnUrl } from '../../server/landers/entry';
import { invitationRequestSchema, requestInvitation } from '../../server/accounts/invitations';
import { safeNext } from '../../server/web/session-cookie';
import type { Answer } from '../../shared/api/contract';

const MAX_FORM_BYTES = 8 * 1024;

export const POST = endpoint(async ({ locals, request, redirect }) => {
  const { settings } = locals.site;
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
    if (Number(request.headers.get('content-length') ?? 0) > MAX_FORM_BYTES) throw new ApiError('payload_too_large');
    const form = await request.formData().catch(() => null);
    const next = safeNext(String(form?.get('next') ?? ''), '/');
    if (!settings.invite_only) return redirect(next, 303);
    const parsed = invitationRequestSchema.safeParse({ email: String(form?.get('email') ?? '') });
    if (!parsed.success) return redirect(invitationReturnUrl(next, 'invalid'), 303);
    await requestInvitation(locals.app.db, settings.id, parsed.data.email);
    return redirect(invitationReturnUrl(next, 'thanks'), 303);
  }
  if (!settings.invite_only) throw new ApiError('not_found_api');
  const input = await readJson(request, invitationRequestSchema);
  await requestInvitation(locals.app.db, settings.id, input.email);
  return json({ ok: true } satisfies Answer<'requestInvitation', 200>);
});

export const ALL = methodNotAllowed;
