/**
 * /api/verification.php (VER-01, VER-02): GET the member's verification (and a pose to ask for), POST a
 * selfie (multipart `pose`, `selfie`) for the moderators' queue, PUT `{ only_verified_contact }`.
 * Refusals are stable codes (verification_pending, already_verified, verification_not_allowed, …).
 */
import { ApiError, endpoint, json, methodNotAllowed, readJson } from '../../server/web/api';
import { requireMember } from '../../server/web/request-context';
import { uploadSelfie, verificationJson } from '../../server/web/verification';
import { setOnlyVerifiedContact } from '../../server/photos/verification';
import { onlyVerifiedContactBody } from '../../shared/api/verification';
import type { Answer } from '../../shared/api/contract';

const noStore = { 'cache-control': 'private, no-store' };

export const GET = endpoint(async ({ locals, url }) => {
  const user = requireMember(locals, url.pathname);
  return json((await verificationJson(locals.app, user.id)) satisfies Answer<'getVerification', 200>, { headers: noStore });
});

export const POST = endpoint(async ({ locals, request, url }) => {
  const user = requireMember(locals, url.pathname);
  const result = await uploadSelfie(locals.app, user.id, request);
  if (result.type === 'error') throw new ApiError(result.reason);
  return json((await verificationJson(locals.app, user.id)) satisfies Answer<'submitVerification', 201>, { status: 201, headers: noStore });
});

export const PUT = endpoint(async ({ locals, request, url }) => {
  const user = requireMember(locals, url.pathname);
  const body = await readJson(request, onlyVerifiedContactBody);
  await setOnlyVerifiedContact(locals.app.db, user.id, body.only_verified_contact);
  return json((await verificationJson(locals.app, user.id)) satisfies Answer<'setOnlyVerifiedContact', 200>, { headers: noStore });
});

export const ALL = methodNotAllowed;
