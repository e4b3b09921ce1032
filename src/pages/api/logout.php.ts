/**
 * /api/logout.php (AUTH-02, SEC-12): ends the session.
 * - `POST`: the account menu's form (redirected home) or a script (`{ ok: true }`); the origin check
 *   refuses a cross-site post.
 * - `GET`: only with the client request-type header (the SPEC §7 client), which a third-party page
 *   cannot add; without it nothing changes and the answer is `400 client_header_required`, so a link or
 *   an image elsewhere cannot log anyone out.
 */
import type { APIContext } from 'astro';
import { revokeSession } from '../../server/auth/sessions';
import { endpoint, isBrowserForm, json, methodNotAllowed, requireClientHeader } from '../../server/web/api';
import { clearSessionCookie } from '../../server/web/session-cookie';
import type { Answer } from '../../shared/api/contract';

async function endSession({ locals, cookies }: Pick<APIContext, 'locals' | 'cookies'>): Promise<void> {
  if (locals.sessionId) await revokeSession(locals.app.db, locals.sessionId);
  clearSessionCookie(cookies);
}

export const POST = endpoint(async (context) => {
  await endSession(context);
  if (isBrowserForm(context.request)) return context.redirect('/', 303);
  return json({ ok: true } satisfies Answer<'logout', 200>);
});

export const GET = endpoint(async (context) => {
  requireClientHeader(context.request);
  await endSession(context);
  return json({ ok: true } satisfies Answer<'logoutWithClientHeader', 200>);
});

export const ALL = methodNotAllowed;
