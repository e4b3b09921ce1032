/**
 * The web side of passkeys (PASS-01; docs/decisions/086-passkeys.md): the relying party of a request
 * (its host and origin from the trusted request context, never from the body), the JSON answers of
 * /api/passkeys.php and /api/passkey-login.php, and how their refusals map to error codes.
 */
import type { AstroCookies } from 'astro';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { loginWithPasskey } from '../auth/login';
import { addPasskey, memberRegistrationOptions, passkeyName, type PasskeyView } from '../auth/passkeys';
import { authenticationOptions, relyingParty, type RelyingParty } from '../auth/webauthn';
import { loadCurrentUser, type CurrentUser } from '../members/account';
import { ApiError } from './api';
import { readDeviceCookie, setDeviceCookie } from './device-cookie';
import type { RequestContext } from './request-context';
import { setSessionCookie } from './session-cookie';
import type { Schema } from '../../shared/api/contract';

type Ctx = Pick<RequestContext, 'app' | 'site' | 'origin'>;

/** This request's relying party: the site's name, the host's name, the origin the browser used. */
export function requestRelyingParty(ctx: Ctx): RelyingParty {
  return relyingParty({ id: ctx.site.settings.id, name: ctx.site.settings.name }, ctx.origin);
}

/** A passkey as the API and the settings page show it. */
export function passkeyJson(p: PasskeyView): Schema<'Passkey'> {
  return { id: p.id, name: p.name, created: p.createdAt.toISOString(), last_used: p.lastUsedAt?.toISOString() ?? null };
}

export async function registrationOptionsFor(ctx: Ctx, user: Pick<CurrentUser, 'id' | 'email'>): Promise<Schema<'WebAuthnOptions'>> {
  const { app } = ctx;
  return (await memberRegistrationOptions({ db: app.db, clock: app.clock }, requestRelyingParty(ctx), user)) as unknown as Schema<'WebAuthnOptions'>;
}

/** Stores the new passkey, named by the member or after the day it was made (`fallbackName`). */
export async function addMemberPasskey(ctx: Ctx, user: Pick<CurrentUser, 'id'>, input: { name?: string; response: unknown }, fallbackName: string): Promise<Schema<'Passkey'>> {
  const { app } = ctx;
  const result = await addPasskey({ db: app.db, clock: app.clock }, requestRelyingParty(ctx), {
    userId: user.id,
    name: passkeyName(input.name, fallbackName),
    response: input.response as RegistrationResponseJSON,
  });
  if (result.type === 'error') throw new ApiError(result.reason);
  return passkeyJson(result.passkey);
}

export async function loginOptionsFor(ctx: Ctx): Promise<Schema<'WebAuthnOptions'>> {
  const { app } = ctx;
  return (await authenticationOptions({ db: app.db, clock: app.clock }, requestRelyingParty(ctx), 'login')) as unknown as Schema<'WebAuthnOptions'>;
}

/** Logs this browser in with a passkey: the session and device cookies as the password login sets them. */
export async function passkeyLoginFor(
  ctx: Pick<RequestContext, 'app' | 'site' | 'origin' | 'sessionId' | 'clientIp' | 'userAgent' | 'secure'>,
  cookies: AstroCookies,
  response: unknown,
): Promise<CurrentUser> {
  const { app } = ctx;
  const result = await loginWithPasskey(
    { db: app.db, clock: app.clock, devices: app.devices },
    {
      rp: requestRelyingParty(ctx),
      response: response as AuthenticationResponseJSON,
      siteId: ctx.site.settings.id,
      previousSessionId: ctx.sessionId,
      ip: ctx.clientIp,
      userAgent: ctx.userAgent,
      deviceCookie: readDeviceCookie(cookies),
    },
  );
  if (result.type === 'error') {
    if (result.reason === 'too_many_attempts') throw new ApiError('too_many_attempts', undefined, { minutes: result.minutes });
    throw new ApiError(result.reason);
  }
  setSessionCookie(cookies, result.created.token, ctx.secure);
  setDeviceCookie(cookies, result.deviceCookie, ctx.secure);
  const user = await loadCurrentUser(app.db, result.userId);
  if (!user) throw new ApiError('invalid_credentials');
  return user;
}
