/**
 * /api/user.php (AUTH-01, I18N-03, PUSH-01): GET the signed-in member, POST to log in, PUT the language,
 * POST/DELETE `?push=1` to register or end a push subscription. POST, PUT and DELETE need the client
 * request-type header.
 */
import { login, loginSchema } from '../../server/auth/login';
import { ApiError, endpoint, json, methodNotAllowed, readJson, requireClientHeader } from '../../server/web/api';
import { changeLanguage, loadCurrentUser } from '../../server/members/account';
import { cookieOptions } from '../../server/web/cookies';
import { readDeviceCookie, setDeviceCookie } from '../../server/web/device-cookie';
import { setSessionCookie } from '../../server/web/session-cookie';
import { isPushCall, registerPushSubscription, removePushSubscription } from './_push';
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE } from '../../shared/languages';
import { userUpdateBody, type LoginAnswer, type UserAnswer, type UserUpdateAnswer } from '../../shared/api/user';

export const GET = endpoint(({ locals }) => {
  if (!locals.user) throw new ApiError('authentication_required');
  return json(locals.user satisfies UserAnswer);
});

export const POST = endpoint(async ({ locals, request, cookies, url }) => {
  requireClientHeader(request);
  if (isPushCall(url)) return registerPushSubscription({ locals, request });
  const input = await readJson(request, loginSchema);
  const { app } = locals;
  const result = await login(
    { db: app.db, clock: app.clock, devices: app.devices },
    {
      ...input,
      siteId: locals.site.settings.id,
      previousSessionId: locals.sessionId,
      ip: locals.clientIp,
      userAgent: locals.userAgent,
      deviceCookie: readDeviceCookie(cookies),
    },
  );
  if (result.type === 'error') {
    // AUTH-03: the JSON answer carries the minutes left so the client can show 'blocked for {minutes} minutes'.
    if (result.reason === 'too_many_attempts') throw new ApiError('too_many_attempts', undefined, { minutes: result.minutes });
    throw new ApiError(result.reason);
  }
  setSessionCookie(cookies, result.created.token, locals.secure);
  setDeviceCookie(cookies, result.deviceCookie, locals.secure);
  const user = await loadCurrentUser(app.db, result.userId);
  if (!user) throw new ApiError('invalid_credentials');
  return json(user satisfies LoginAnswer);
});

export const PUT = endpoint(async ({ locals, request, cookies }) => {
  requireClientHeader(request);
  if (!locals.user) throw new ApiError('authentication_required');
  const input = await readJson(request, userUpdateBody);
  const result = await changeLanguage(locals.app.db, { languages: locals.site.settings.languages, userId: locals.user.id, value: input.language });
  if (result.type === 'error') throw new ApiError(result.reason);
  const { language } = result;
  cookies.set(LANGUAGE_COOKIE, language, cookieOptions(locals.secure, LANGUAGE_COOKIE_MAX_AGE, false));
  return json({ ...locals.user, language } satisfies UserUpdateAnswer);
});

export const DELETE = endpoint(async ({ locals, request, url }) => {
  requireClientHeader(request);
  if (!isPushCall(url)) throw new ApiError('method_not_allowed');
  return removePushSubscription({ locals, request });
});

export const ALL = methodNotAllowed;
