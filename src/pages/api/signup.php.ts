/** POST /api/signup.php (SIGN-03..06, AUTH-05): sign up, log in, mail the activation link. */
import { ApiError, endpoint, json, methodNotAllowed, readJson, requireClientHeader } from '../../server/web/api';
import { signupFromRequest } from '../../server/web/signup';
import { loadCurrentUser } from '../../server/members/account';
import { setSessionCookie } from '../../server/web/session-cookie';
import { signupBody, type SignupAnswer, type SignupErrorAnswer } from '../../shared/api/signup';

export const POST = endpoint(async ({ locals, request, cookies }) => {
  requireClientHeader(request);
  const input = await readJson(request, signupBody);
  const result = await signupFromRequest(locals, input as never);
  if (result.type === 'error' && result.reason === 'signups_closed') throw new ApiError('signups_closed');
  if (result.type === 'error') {
    const t = locals.t;
    const min_age = locals.site.settings.min_age;
    return json(
      {
        error: 'validation_failed',
        message: t('errors:validation_failed'),
        fields: result.fields,
        field_messages: Object.fromEntries(Object.entries(result.fields).map(([k, code]) => [k, t(`errors:${code}`, { min_age })])),
        suggestion: result.suggestion,
      } satisfies SignupErrorAnswer,
      { status: 400 },
    );
  }
  setSessionCookie(cookies, result.created.token, locals.secure);
  const user = await loadCurrentUser(locals.app.db, result.userId);
  return json(user satisfies SignupAnswer | null, { status: 201 });
});

export const ALL = methodNotAllowed;
