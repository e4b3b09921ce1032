/**
 * /api/passkeys.php (PASS-01): `POST ?options=1` gives the WebAuthn options to add a passkey for the
 * signed-in member; `POST` with the browser's answer stores it under a name. Naming and removing them,
 * and "passkey required", are the settings page's forms.
 */
import { endpoint, json, methodNotAllowed, readJson } from '../../server/web/api';
import { addMemberPasskey, registrationOptionsFor } from '../../server/web/passkeys';
import { requireMember } from '../../server/web/request-context';
import { passkeyRegistrationBody, type AddPasskeyAnswer, type PasskeyOptionsAnswer } from '../../shared/api/passkeys';

export const POST = endpoint(async ({ locals, request, url }) => {
  const user = requireMember(locals, '/settings#passkeys');
  if (url.searchParams.has('options')) return json((await registrationOptionsFor(locals, user)) satisfies PasskeyOptionsAnswer);
  const input = await readJson(request, passkeyRegistrationBody);
  const fallback = locals.t('settings:passkey_default_name', { date: new Intl.DateTimeFormat(locals.lang, { dateStyle: 'medium' }).format(locals.app.clock.now()) });
  return json((await addMemberPasskey(locals, user, input, fallback)) satisfies AddPasskeyAnswer, { status: 201 });
});

export const ALL = methodNotAllowed;
