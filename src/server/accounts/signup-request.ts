/**
 * Runs a signup for a request (used by the /signup form and POST /api/signup.php): gathers the site,
 * language, country, tracking cookie and client facts, signs up, and mails the activation link.
 */
import type { AstroCookies } from 'astro';
import { trackingFromCookie, TRACKING_COOKIE } from '../web/visitor';
import { clientIp } from '../web/request-meta';
import { trustedLinkOrigin } from '../web/link-origin';
import { sendActivationMail } from './activation';
import { signup, type SignupInput, type SignupResult } from './signup';

export async function signupFromRequest(
  locals: App.Locals,
  request: Request,
  cookies: AstroCookies,
  clientAddress: string | undefined,
  input: SignupInput,
  requestUrl: URL,
): Promise<SignupResult> {
  const { app, site } = locals;
  const result = await signup(
    {
      db: app.db,
      clock: app.clock,
      settings: site.settings,
      language: locals.lang,
      country: locals.country,
      tracking: trackingFromCookie(cookies.get(TRACKING_COOKIE)?.value),
      ip: clientIp(request.headers, clientAddress, app.config.TRUST_PROXY),
      userAgent: request.headers.get('user-agent'),
    },
    input,
  );
  if (result.type === 'ok') {
    const mailed = await sendActivationMail(app, site, result.userId, await trustedLinkOrigin(app.db, site, requestUrl));
    if (mailed?.type === 'error') locals.log.warn({ userId: result.userId }, 'activation mail not sent');
  }
  return result;
}
