/**
 * A member's passkeys (PASS-01; docs/decisions/086-passkeys.md): add one (a WebAuthn registration for
 * this site's host), name it, remove it, and turn on "passkey required" (the password login is refused).
 * Removing a passkey ends the sessions that logged in with it but the one removing it
 * (docs/decisions/087-removing-a-passkey.md: `sessions.passkey_id` cascades); removing the last one turns "passkey required" off, so nobody is left
 * without a way in.
 */
import type { RegistrationResponseJSON, PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { passkeys, sessions, users } from '../../db/schema';
import type { Clock } from '../clock';
import { registrationOptions, verifyRegistration, type RelyingParty, type StoredCredential } from './webauthn';

export const PASSKEY_NAME_MAX = 60;
/** How many passkeys one member may keep. */
export const PASSKEYS_MAX = 20;

export interface PasskeyView {
  id: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

type Deps = { db: Db; clock: Clock };

export async function listPasskeys(db: Db, userId: number): Promise<PasskeyView[]> {
  return db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

async function credentialsOf(db: Db, userId: number): Promise<StoredCredential[]> {
  return db
    .select({ credentialId: passkeys.credentialId, publicKey: passkeys.publicKey, counter: passkeys.counter, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
}

/** The options to make a passkey for this member on this host. */
export async function memberRegistrationOptions(deps: Deps, rp: RelyingParty, user: { id: number; email: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return registrationOptions(deps, rp, { purpose: 'register', owner: user.id, userHandle: `member-${rp.siteId}-${user.id}`, userName: user.email, existing: await credentialsOf(deps.db, user.id) });
}

export type AddPasskeyResult = { type: 'ok'; passkey: PasskeyView } | { type: 'error'; reason: 'passkey_invalid' | 'passkey_exists' | 'passkey_limit' };

/** A trimmed name, never empty: the member's own, else a default name (`fallback`). */
export function passkeyName(name: string | undefined, fallback: string): string {
  const trimmed = (name ?? '').replace(/\s+/g, ' ').trim().slice(0, PASSKEY_NAME_MAX);
  return trimmed || fallback.slice(0, PASSKEY_NAME_MAX);
}

/** Stores the passkey a registration answer made, after checking it against its challenge. */
export async function addPasskey(deps: Deps, rp: RelyingParty, input: { userId: number; name: string; response: RegistrationResponseJSON }): Promise<AddPasskeyResult> {
  const [held] = await deps.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, input.userId));
  if ((held?.n ?? 0) >= PASSKEYS_MAX) return { type: 'error', reason: 'passkey_limit' };
  const credential = await verifyRegistration(deps, rp, { purpose: 'register', owner: input.userId, response: input.response });
  if (!credential) return { type: 'error', reason: 'passkey_invalid' };
  const [row] = await deps.db
    .insert(passkeys)
    .values({ userId: input.userId, ...credential, name: input.name, createdAt: deps.clock.now() })
    .onConflictDoNothing({ target: passkeys.credentialId })
    .returning({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt });
  return row ? { type: 'ok', passkey: row } : { type: 'error', reason: 'passkey_exists' };
}

/** Renames one of the member's passkeys; false when it is not theirs. */
export async function renamePasskey(db: Db, userId: number, passkeyId: number, name: string): Promise<boolean> {
  const renamed = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return renamed.length === 1;
}

/**
 * Removes one of the member's passkeys, and with it (the foreign key cascades) every session that logged
 * in with it but `keepSessionId`, the session removing it (the member at work stays logged in). The last
 * passkey gone, "passkey required" is turned off. Null when it is not theirs.
 */
export async function removePasskey(db: Db, userId: number, passkeyId: number, keepSessionId: string | null = null): Promise<{ requiredOff: boolean } | null> {
  return db.transaction(async (tx) => {
    if (keepSessionId) {
      await tx
        .update(sessions)
        .set({ passkeyId: null })
        .where(and(eq(sessions.id, keepSessionId), eq(sessions.userId, userId), eq(sessions.passkeyId, passkeyId)));
    }
    const removed = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
      .returning({ id: passkeys.id });
    if (removed.length === 0) return null;
    const [left] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
    if ((left?.n ?? 0) > 0) return { requiredOff: false };
    const off = await tx
      .update(users)
      .set({ passkeyRequired: false })
      .where(and(eq(users.id, userId), eq(users.passkeyRequired, true)))
      .returning({ id: users.id });
    return { requiredOff: off.length === 1 };
  });
}

export async function passkeyRequiredOf(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ on: users.passkeyRequired }).from(users).where(eq(users.id, userId));
  return row?.on ?? false;
}

/** Turns "passkey required" on (only for a member who has a passkey) or off. */
export async function setPasskeyRequired(db: Db, userId: number, on: boolean): Promise<{ type: 'ok' } | { type: 'error'; reason: 'passkey_none' }> {
  if (on) {
    const [held] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
    if ((held?.n ?? 0) === 0) return { type: 'error', reason: 'passkey_none' };
  }
  await db.update(users).set({ passkeyRequired: on }).where(eq(users.id, userId));
  return { type: 'ok' };
}
