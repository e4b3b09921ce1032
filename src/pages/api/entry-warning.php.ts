/** POST /api/entry-warning.php (LAY-02): remembers that the visitor accepted the entry warning. */
import { endpoint, methodNotAllowed } from '../../server/web/api';
import { cookieOptions } from '../../server/web/cookies';
import { ENTRY_COOKIE, ENTRY_COOKIE_MAX_AGE } from '../../shared/entry-cookie';
import { safeNext } from '../../server/web/session-cookie';

export const POST = endpoint(async ({ locals, request, cookies, redirect }) => {
  const type = request.headers.get('content-type') ?? '';
  const form = type.includes('form') ? await request.formData().catch(() => null) : null;
  cookies.set(ENTRY_COOKIE, '1', cookieOptions(locals.secure, ENTRY_COOKIE_MAX_AGE));
  if (form) return redirect(safeNext(String(form.get('next') ?? ''), '/'), 303);
  return new Response(null, { status: 204 });
});

export const ALL = methodNotAllowed;
