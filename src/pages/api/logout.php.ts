/** GET /api/logout.php (AUTH-02): ends the session; a browser navigation is sent home. */
import { revokeSession } from '../../server/auth/sessions';
import { endpoint, json, methodNotAllowed } from '../../server/http/api';
import { clearSessionCookie } from '../../server/web/session-cookie';

export const GET = endpoint(async ({ locals, cookies, request, redirect }) => {
  if (locals.sessionId) await revokeSession(locals.app.db, locals.sessionId);
  clearSessionCookie(cookies);
  if ((request.headers.get('accept') ?? '').includes('text/html')) return redirect('/', 303);
  return json({ ok: true });
});

export const ALL = methodNotAllowed;
