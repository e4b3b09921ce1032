/**
 * Runs a signup for a request (used by the /signup form and POST /api/signup.php): takes the site,
 * language, country, tracking record and client facts from the request context, signs up, and mails
 * the activation link.
 */
import type { RequestContext } from './request-context';
import { sendActivationMail } from '../accounts/activation';
import { signup, signupOpen, type SignupInput, type SignupResult } from '../accounts/signup';

/** Whether the request's visitor may sign up on the request's site (the rule of `signup`, SEC-09). */
export function signupOpenFor(ctx: Pick<RequestContext, 'site' | 'tracking'>): boolean {
  return signupOpen({ settings: ctx.site.settings, tracking: ctx.tracking });
}

/** Signs the request's visitor up (refused as `signups_closed` when {@link signupOpenFor} says no) and mails the activation link. */
export async function signupFromRequest(ctx: RequestContext, input: SignupInput): Promise<SignupResult> {
  const { app, site } = ctx;
  const result = await signup(
    {
      db: app.db,
      clock: app.clock,
      settings: site.settings,
      language: ctx.lang,
      country: ctx.country,
      tracking: ctx.tracking,
      ip: ctx.clientIp,
      userAgent: ctx.userAgent,
    },
    input,
  );
  if (result.type === 'ok') {
    const mailed = await sendActivationMail(app, site, result.userId, ctx.linkOrigin);
    if (mailed?.type === 'error') ctx.log.warn({ userId: result.userId }, 'activation mail not sent');
  }
  return result;
}
