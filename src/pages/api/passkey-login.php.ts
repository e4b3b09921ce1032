/**
 * /api/passkey-login.php (PASS-01): `POST ?options=1` gives the WebAuthn options to log in with a
 * passkey of this site (the login form's e-mail field offers them, conditional UI); `POST` with the
 * browser's answer logs in like the password login (session rotated, device cookie, throttled).
 */
import { endpoint, json, methodNotAllowed, readJson } from '../../server/web/api';
import { loginOptionsFor, passkeyLoginFor } from '../../server/web/passkeys';
import { passkeyLoginBody, type PasskeyLoginAnswer, type PasskeyLoginOptionsAnswer } from '../../shared/api/passkeys';

export const POST = endpoint(async ({ locals, request, url, cookies }) => {
  if (url.searchParams.has('options')) return json((await loginOptionsFor(locals)) satisfies PasskeyLoginOptionsAnswer);
  const input = await readJson(request, passkeyLoginBody);
  return json((await passkeyLoginFor(locals, cookies, input.response)) satisfies PasskeyLoginAnswer);
});

export const ALL = methodNotAllowed;
