/**
 * POST /admin/passkey-options (PASS-01): WebAuthn options for the back office: `purpose: login`, the
 * second factor of the staff login (no session yet; the answer goes into the login form), or
 * `purpose: register`, a new passkey for the signed-in staff member (/admin/passkeys).
 */
import { endpoint, json, methodNotAllowed, readJson } from '../../server/web/api';
import { staffPasskeyOptions } from '../../server/web/staff-passkeys';
import { currentStaff } from '../../server/web/staff-guard';
import { staffPasskeyOptionsBody, type StaffPasskeyOptionsAnswer } from '../../shared/api/passkeys';

export const POST = endpoint(async (context) => {
  const { purpose } = await readJson(context.request, staffPasskeyOptionsBody);
  const member = purpose === 'register' ? await currentStaff(context) : null;
  return json((await staffPasskeyOptions(context.locals, member, purpose)) satisfies StaffPasskeyOptionsAnswer);
});

export const ALL = methodNotAllowed;
