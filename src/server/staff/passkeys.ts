/**
 * Staff passkeys (PASS-01; docs/decisions/086-passkeys.md): a staff member may use a passkey instead of
 * the authenticator's code as the second factor of the back-office login (the password stays the first).
 * Adding and removing one is audit-logged (OPS-04); removing one ends the other staff sessions that
 * logged in with it (decision 087: `staff_sessions.passkey_id` cascades).
 */
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { staffPasskeys, staffSessions } from '../../db/schema';
import { passkeyName, PASSKEYS_MAX, type PasskeyView } from '../auth/passkeys';
import { registrationOptions, verifyAuthentication, verifyRegistration, type RelyingParty, type StoredCredential } from '../auth/webauthn';
import type { Clock } from '../clock';
import { audit } from '../audit';

type Deps = { db: Db; clock: Clock };

export async function listStaffPasskeys(db: Db, staffId: number): Promise<PasskeyView[]> {
  return db
    .select({ id: staffPasskeys.id, name: staffPasskeys.name, createdAt: staffPasskeys.createdAt, lastUsedAt: staffPasskeys.lastUsedAt })
    .from(staffPasskeys)
    .where(eq(staffPasskeys.staffId, staffId))
    .orderBy(asc(staffPasskeys.createdAt), asc(staffPasskeys.id));
}

async function credentialsOf(db: Db, staffId: number): Promise<StoredCredential[]> {
  return db
    .select({ credentialId: staffPasskeys.credentialId, publicKey: staffPasskeys.publicKey, counter: staffPasskeys.counter, transports: staffPasskeys.transports })
    .from(staffPasskeys)
    .where(eq(staffPasskeys.staffId, staffId));
}

export async function staffRegistrationOptions(deps: Deps, rp: RelyingParty, member: { id: number; email: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return registrationOptions(deps, rp, { purpose: 'staff_register', owner: member.id, userHandle: `staff-${member.id}`, userName: member.email, existing: await credentialsOf(deps.db, member.id) });
}

/** Stores a staff member's new passkey after checking the answer; audit-logged. */
export async function addStaffPasskey(
  deps: Deps,
  rp: RelyingParty,
  input: { staffId: number; name: string; fallbackName: string; response: RegistrationResponseJSON },
): Promise<{ type: 'ok'; id: number } | { type: 'error'; reason: 'passkey_invalid' | 'passkey_exists' | 'passkey_limit' }> {
  const [held] = await deps.db.select({ n: count() }).from(staffPasskeys).where(eq(staffPasskeys.staffId, input.staffId));
  if ((held?.n ?? 0) >= PASSKEYS_MAX) return { type: 'error', reason: 'passkey_limit' };
  const credential = await verifyRegistration(deps, rp, { purpose: 'staff_register', owner: input.staffId, response: input.response });
  if (!credential) return { type: 'error', reason: 'passkey_invalid' };
  const name = passkeyName(input.name, input.fallbackName);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(staffPasskeys)
      .values({ staffId: input.staffId, ...credential, name, createdAt: deps.clock.now() })
      .onConflictDoNothing({ target: staffPasskeys.credentialId })
      .returning({ id: staffPasskeys.id });
    if (!row) return { type: 'error', reason: 'passkey_exists' } as const;
    await audit(tx, { staffId: input.staffId, action: 'staff.passkey_add', targetType: 'staff', targetId: input.staffId, after: { passkey: row.id, name } }, deps.clock.now());
    return { type: 'ok', id: row.id } as const;
  });
}

/** Removes one of the staff member's passkeys (and the other sessions that logged in with it); audit-logged. */
export async function removeStaffPasskey(deps: Deps, input: { staffId: number; passkeyId: number; keepSessionId: string | null }): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    if (input.keepSessionId) {
      await tx
        .update(staffSessions)
        .set({ passkeyId: null })
        .where(and(eq(staffSessions.id, input.keepSessionId), eq(staffSessions.passkeyId, input.passkeyId)));
    }
    const [removed] = await tx
      .delete(staffPasskeys)
      .where(and(eq(staffPasskeys.id, input.passkeyId), eq(staffPasskeys.staffId, input.staffId)))
      .returning({ id: staffPasskeys.id, name: staffPasskeys.name });
    if (!removed) return false;
    await audit(tx, { staffId: input.staffId, action: 'staff.passkey_remove', targetType: 'staff', targetId: input.staffId, before: { passkey: removed.id, name: removed.name } }, deps.clock.now());
    return true;
  });
}

/**
 * The second factor by passkey: the answer must be made with one of this staff member's passkeys, for a
 * staff-login challenge of this host, with user verification; the counter moves forward in the same
 * statement that claims it (two logins racing with one answer cannot both pass). The passkey's id, or null.
 */
export async function staffPasskeyFactor(deps: Deps, rp: RelyingParty, staffId: number, response: AuthenticationResponseJSON): Promise<number | null> {
  const [found] = await deps.db
    .select({ id: staffPasskeys.id, credentialId: staffPasskeys.credentialId, publicKey: staffPasskeys.publicKey, counter: staffPasskeys.counter, transports: staffPasskeys.transports })
    .from(staffPasskeys)
    .where(and(eq(staffPasskeys.credentialId, response.id), eq(staffPasskeys.staffId, staffId)))
    .limit(1);
  if (!found) return null;
  const verified = await verifyAuthentication(deps, rp, { purpose: 'staff_login', credential: found, response });
  if (!verified) return null;
  const moved = await deps.db
    .update(staffPasskeys)
    .set({ counter: verified.counter, lastUsedAt: deps.clock.now() })
    .where(and(eq(staffPasskeys.id, found.id), eq(staffPasskeys.counter, found.counter)))
    .returning({ id: staffPasskeys.id });
  return moved.length === 1 ? found.id : null;
}
