/**
 * The /signup form without JavaScript (SIGN-01..06, AUTH-05): the same signup as POST /api/signup.php;
 * success logs this browser in and continues to /complete-signup, a refusal comes back with the
 * translated field errors, the values to show again and an e-mail suggestion.
 */
import { signupFromRequest } from '../signup-request';
import type { SignupInput } from '../../accounts/signup';
import type { RequestContext } from '../request-context';
import { invalid, redirect, translateFields, type SingleActionSpec } from '../form-action';

/** The fields a refused signup fills in again (never the password). */
export const SIGNUP_ECHO_FIELDS = ['email', 'name', 'date_of_birth', 'gender', 'looking_for', 'signup_message', 'public_profile'] as const;

/** What a refused signup shows again. */
export interface SignupEcho {
  values: Record<(typeof SIGNUP_ECHO_FIELDS)[number], string>;
  /** The e-mail address with a mistyped domain corrected (SIGN-05), or null. */
  suggestion: string | null;
}

/** The signup form; `memberId` signs up to chat with that member (SIGN-06). */
export function signupForm(ctx: RequestContext, memberId: number | undefined, invitation?: string): SingleActionSpec<SignupEcho> {
  const { t } = ctx;
  return {
    handle: async (form) => {
      const values = Object.fromEntries(SIGNUP_ECHO_FIELDS.map((f) => [f, form.text(f)])) as SignupEcho['values'];
      const input = { ...values, password: form.text('password'), ...(memberId ? { member_id: memberId } : {}), ...(invitation ? { invitation } : {}) } as SignupInput;
      const result = await signupFromRequest(ctx, input);
      if (result.type === 'ok') return redirect('/complete-signup', { session: { token: result.created.token } });
      if (result.reason !== 'validation_failed') return invalid(400, { reason: result.reason, data: { values, suggestion: null } });
      const min_age = ctx.site.settings.min_age;
      return invalid(400, { fieldErrors: translateFields(result.fields, (code) => t(`errors:${code}`, { min_age })), data: { values, suggestion: result.suggestion } });
    },
  };
}
