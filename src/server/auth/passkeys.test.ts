/**
 * Passkeys against a real database (PASS-01; decisions 086, 087): what removing one ends, "passkey
 * required", names, and the throttle a passkey login goes through. The WebAuthn signatures themselves are
 * checked end to end in Chromium's virtual authenticator (tests/e2e/passkeys.spec.ts).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { loginThrottle, passkeys, profiles, sessions, users, webauthnChallenges } from '../../db/schema';
import type { Site } from '../sites/directory';
import { login, loginWithPasskey } from './login';
import { passkeyName, passkeyRequiredOf, removePasskey, renamePasskey, setPasskeyRequired } from './passkeys';
import { hashPassword } from './passwords';
import { createSession } from './sessions';
import { accountKey, ipKey } from './throttle';
import { authenticationOptions, relyingParty, type RelyingParty } from './webauthn';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';

const PASSWORD = 'passkey-test-words-1';
const clock = new FakeClock();
let kit: SeededDatabase;
let site: Site;
let rp: RelyingParty;
let hash: string;
let counter = 0;

beforeAll(async () => {
  kit = await seededDatabase({ clock });
  site = await kit.site('localhost');
  rp = relyingParty({ id: site.settings.id, name: site.settings.name }, 'http://localhost:4321');
  hash = await hashPassword(PASSWORD);
});
afterAll(() => kit?.close());

const deps = () => ({ db: kit.db, clock, devices: kit.devices });

async function member() {
  const email = `passkey-${++counter}@example.com`;
  const [user] = await kit.db
    .insert(users)
    .values({ siteId: site.settings.id, email, passwordHash: hash, status: 'active', language: 'en', emailConfirmedAt: clock.now() })
    .returning({ id: users.id });
  await kit.db.insert(profiles).values({ userId: user!.id, siteId: site.settings.id, name: `Key${counter}`, gender: 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL' });
  return { id: user!.id, email };
}

/** A stored passkey (its key is no real key: these tests never get as far as a valid signature). */
async function storedPasskey(userId: number, name = 'Phone') {
  const [row] = await kit.db
    .insert(passkeys)
    .values({ userId, credentialId: `cred-${userId}-${++counter}`, publicKey: new Uint8Array([1, 2, 3]), name, createdAt: clock.now() })
    .returning({ id: passkeys.id, credentialId: passkeys.credentialId });
  return row!;
}

const sessionIds = async (userId: number) => (await kit.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))).map((s) => s.id).sort();

/** A WebAuthn answer of the right shape whose signature is not valid. */
const forged = (credentialId: string): AuthenticationResponseJSON => ({
  id: credentialId,
  rawId: credentialId,
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
});

describe('passkeys (PASS-01)', () => {
  it('PASS-01 removing a passkey ends the other sessions that logged in with it; the remover’s session and password sessions stay (decision 087)', async () => {
    const m = await member();
    const key = await storedPasskey(m.id);
    const other = await storedPasskey(m.id, 'Laptop');
    const byPassword = await createSession(kit.db, clock, m.id);
    const byKeyElsewhere = await createSession(kit.db, clock, m.id, { passkeyId: key.id });
    const byKeyHere = await createSession(kit.db, clock, m.id, { passkeyId: key.id });
    const byOtherKey = await createSession(kit.db, clock, m.id, { passkeyId: other.id });

    expect(await removePasskey(kit.db, m.id, key.id, byKeyHere.session.id)).toEqual({ requiredOff: false });
    expect(await sessionIds(m.id)).toEqual([byPassword.session.id, byKeyHere.session.id, byOtherKey.session.id].sort());
    expect(byKeyElsewhere.session.id).not.toBe(byKeyHere.session.id);
    // Not theirs, or gone already: nothing happens.
    const stranger = await member();
    expect(await removePasskey(kit.db, stranger.id, other.id)).toBeNull();
    expect(await removePasskey(kit.db, m.id, key.id)).toBeNull();
  });

  it('PASS-01 "passkey required" needs a passkey, refuses a right password (and only a right one), and ends with the last passkey', async () => {
    const m = await member();
    expect(await setPasskeyRequired(kit.db, m.id, true)).toEqual({ type: 'error', reason: 'passkey_none' });
    const key = await storedPasskey(m.id);
    expect(await setPasskeyRequired(kit.db, m.id, true)).toEqual({ type: 'ok' });

    const attempt = (password: string) => login(deps(), { siteId: site.settings.id, email: m.email, password, ip: '198.51.100.7' });
    expect(await attempt('wrong-words')).toEqual({ type: 'error', reason: 'invalid_credentials' });
    expect(await attempt(PASSWORD)).toEqual({ type: 'error', reason: 'passkey_required' });
    // The right password's try was given back: only the wrong one counts.
    const [row] = await kit.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, accountKey(m.id)));
    expect(row?.failures).toBe(1);

    expect(await removePasskey(kit.db, m.id, key.id)).toEqual({ requiredOff: true });
    expect(await passkeyRequiredOf(kit.db, m.id)).toBe(false);
    expect((await attempt(PASSWORD)).type).toBe('ok');
  });

  it('PASS-01 a passkey is renamed only by its owner; names are trimmed, never empty', async () => {
    const m = await member();
    const stranger = await member();
    const key = await storedPasskey(m.id);
    expect(await renamePasskey(kit.db, stranger.id, key.id, 'Mine now')).toBe(false);
    expect(await renamePasskey(kit.db, m.id, key.id, 'Work phone')).toBe(true);
    expect(passkeyName('  My \n  phone ', 'Default')).toBe('My phone');
    expect(passkeyName('   ', 'Passkey of 27 Nov')).toBe('Passkey of 27 Nov');
    expect(passkeyName('x'.repeat(100), 'd')).toHaveLength(60);
  });

  it('PASS-01 AUTH-03 a passkey login takes its tries on the account’s counters: five bad answers block it; an unknown passkey counts on the IP', async () => {
    const m = await member();
    const key = await storedPasskey(m.id);
    const ip = '203.0.113.50';
    const attempt = (credentialId: string) => loginWithPasskey(deps(), { rp, siteId: site.settings.id, response: forged(credentialId), ip });
    for (let i = 0; i < 4; i++) expect(await attempt(key.credentialId)).toEqual({ type: 'error', reason: 'invalid_credentials' });
    expect(await attempt(key.credentialId)).toEqual({ type: 'error', reason: 'too_many_attempts', minutes: 15 });
    expect(await attempt(key.credentialId)).toEqual({ type: 'error', reason: 'too_many_attempts', minutes: 15 });
    // The password login of the account is blocked as well: one set of counters.
    expect((await login(deps(), { siteId: site.settings.id, email: m.email, password: PASSWORD, ip: '203.0.113.51' })).type).toBe('error');

    const before =
      (
        await kit.db
          .select()
          .from(loginThrottle)
          .where(eq(loginThrottle.key, ipKey(ip)))
      )[0]?.failures ?? 0;
    expect(await attempt('no-such-credential')).toEqual({ type: 'error', reason: 'invalid_credentials' });
    const [after] = await kit.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, ipKey(ip)));
    expect(after?.failures).toBe(before + 1);
    // A passkey of another site's member does not log in here either.
    const elsewhere = relyingParty({ id: site.settings.id + 1, name: 'x' }, 'http://127.0.0.1:4321');
    expect((await loginWithPasskey(deps(), { rp: elsewhere, siteId: site.settings.id + 1, response: forged(key.credentialId), ip: '203.0.113.52' })).type).toBe('error');
  });

  it('PASS-01 challenges are kept in the database for five minutes, bound to their host and purpose', async () => {
    const options = await authenticationOptions({ db: kit.db, clock }, rp, 'login');
    expect(options.rpId).toBe('localhost');
    expect(options.userVerification).toBe('required');
    const [row] = await kit.db.select().from(webauthnChallenges).where(eq(webauthnChallenges.challenge, options.challenge));
    expect(row).toMatchObject({ purpose: 'login', rpId: 'localhost', siteId: site.settings.id, owner: null });
    expect(row!.expiresAt.getTime() - clock.now().getTime()).toBe(5 * 60_000);
    // Once expired, the next challenge made clears it away.
    clock.advance(5 * 60_000 + 1);
    await authenticationOptions({ db: kit.db, clock }, rp, 'login');
    expect(await kit.db.select().from(webauthnChallenges).where(eq(webauthnChallenges.challenge, options.challenge))).toHaveLength(0);
  });
});
