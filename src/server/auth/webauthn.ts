/**
 * The WebAuthn ceremonies behind passkeys (PASS-01; docs/decisions/086-passkeys.md), for members and
 * staff alike, with @simplewebauthn/server. The relying party is the request's host: its RP ID is the
 * hostname and the expected origin the request's own origin, both from the trusted request context
 * (never from the client's body), so each site of the multi-site app has passkeys of its own.
 *
 * Challenges live in the database (`webauthn_challenges`), not in a process's memory: any process can
 * check an answer. Each is taken once (deleted in the statement that checks it) and is good for five
 * minutes; it is bound to its purpose, its host and (registrations, staff logins) to whom it was made for.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Db } from '../../db/client';
import { webauthnChallenges, type WebauthnPurpose } from '../../db/schema';
import type { Clock } from '../clock';

export const CHALLENGE_TTL_MS = 5 * 60_000;

/** The relying party of one request: the site's name, the host's name and the page's origin. */
export interface RelyingParty {
  name: string;
  /** The request's hostname (`example.com`, `localhost`). */
  id: string;
  /** The request's origin as the browser sees it (`https://example.com`). */
  origin: string;
  /** The site the request's host selects: a passkey made on one site never logs in on another. */
  siteId: number;
}

/** The relying party of a request, from its trusted origin (the scheme and host after the trusted proxies). */
export function relyingParty(site: { id: number; name: string }, origin: string): RelyingParty {
  return { name: site.name, id: new URL(origin).hostname, origin, siteId: site.id };
}

/** A stored credential as the ceremonies need it. */
export interface StoredCredential {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
}

/** What a successful registration yields, to be stored. */
export type NewCredential = StoredCredential;

type Deps = { db: Db; clock: Clock };

async function storeChallenge(deps: Deps, challenge: string, purpose: WebauthnPurpose, rp: RelyingParty, owner: number | null): Promise<void> {
  const now = deps.clock.now();
  // Housekeeping on the way: challenges nobody answered are gone after their five minutes.
  await deps.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  await deps.db.insert(webauthnChallenges).values({ challenge, purpose, owner, siteId: rp.siteId, rpId: rp.id, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) });
}

/**
 * Takes a challenge once: true when it was handed out for this purpose, host, site and owner and has not
 * expired. It is deleted whatever the answer turns out to be, so a challenge is never checked twice.
 */
async function takeChallenge(deps: Deps, challenge: string, purpose: WebauthnPurpose, rp: RelyingParty, owner: number | null): Promise<boolean> {
  if (challenge.length > 200) return false;
  const taken = await deps.db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        eq(webauthnChallenges.rpId, rp.id),
        eq(webauthnChallenges.siteId, rp.siteId),
        owner === null ? isNull(webauthnChallenges.owner) : eq(webauthnChallenges.owner, owner),
        gt(webauthnChallenges.expiresAt, deps.clock.now()),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return taken.length === 1;
}

/**
 * Options for making a passkey for `owner` (a discoverable credential, so it can log in without an
 * address; user verification preferred). `userHandle` is the stable, non-personal id the authenticator
 * keeps with it; `existing` are the owner's credentials, so an authenticator is not registered twice.
 */
export async function registrationOptions(
  deps: Deps,
  rp: RelyingParty,
  input: { purpose: 'register' | 'staff_register'; owner: number; userHandle: string; userName: string; existing: StoredCredential[] },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: input.userName,
    userID: new TextEncoder().encode(input.userHandle),
    attestationType: 'none',
    excludeCredentials: input.existing.map((c) => ({ id: c.credentialId, transports: c.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await storeChallenge(deps, options.challenge, input.purpose, rp, input.owner);
  return options;
}

/** Checks a registration answer against its challenge (taken once): the credential to store, or null. */
export async function verifyRegistration(
  deps: Deps,
  rp: RelyingParty,
  input: { purpose: 'register' | 'staff_register'; owner: number; response: RegistrationResponseJSON },
): Promise<NewCredential | null> {
  try {
    const verified = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: (challenge) => takeChallenge(deps, challenge, input.purpose, rp, input.owner),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (!verified.verified) return null;
    const { credential } = verified.registrationInfo;
    return { credentialId: credential.id, publicKey: credential.publicKey, counter: credential.counter, transports: credential.transports ?? input.response.response.transports ?? [] };
  } catch {
    return null;
  }
}

/**
 * Options for logging in with any passkey of this site (discoverable credentials: the browser offers
 * its passkeys, in the e-mail field's autofill or a dialog). User verification is required: a passkey
 * alone is the whole login, so it must be the device's owner who uses it.
 */
export async function authenticationOptions(deps: Deps, rp: RelyingParty, purpose: 'login' | 'staff_login'): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', challenge: randomBytes(32) });
  await storeChallenge(deps, options.challenge, purpose, rp, null);
  return options;
}

/**
 * Checks a login answer made with `credential` against its challenge (taken once), the signature, the
 * host, the origin, user verification and the signature counter (a counter that does not grow, when the
 * authenticator keeps one, means a cloned authenticator: refused). The new counter, or null when refused.
 */
export async function verifyAuthentication(
  deps: Deps,
  rp: RelyingParty,
  input: { purpose: 'login' | 'staff_login'; credential: StoredCredential; response: AuthenticationResponseJSON },
): Promise<{ counter: number } | null> {
  try {
    const verified = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: (challenge) => takeChallenge(deps, challenge, input.purpose, rp, null),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: input.credential.credentialId, publicKey: Uint8Array.from(input.credential.publicKey), counter: input.credential.counter, transports: input.credential.transports as never },
      requireUserVerification: true,
    });
    return verified.verified ? { counter: verified.authenticationInfo.newCounter } : null;
  } catch {
    return null;
  }
}
