/** Sessions, passkeys, single-use mailed links and failed-login counters (AUTH-03, AUTH-04, ACT-01, PWD-02, PASS-01). */
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './members';
import { bytea } from './columns';

/**
 * A member's passkeys (PASS-01; docs/decisions/086-passkeys.md): a WebAuthn credential's id (base64url),
 * its COSE public key, its signature counter (clone detection), its transports and the member's name for it.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull(),
    publicKey: bytea('public_key').notNull(),
    counter: integer('counter').notNull().default(0),
    transports: text('transports').array().notNull().default([]),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('passkeys_credential').on(t.credentialId), index('passkeys_user').on(t.userId)],
);

export type WebauthnPurpose = 'register' | 'login' | 'staff_register' | 'staff_login';

/**
 * WebAuthn challenges handed out and not yet answered (PASS-01): in the database, so any process can
 * check an answer; each is taken once (deleted when checked) and is good for a few minutes. `owner` is
 * the member or staff id a registration or staff login is for; `rpId` the host it was made for.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose').$type<WebauthnPurpose>().notNull(),
    owner: integer('owner'),
    siteId: integer('site_id'),
    rpId: text('rp_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webauthn_challenges_expires').on(t.expiresAt)],
);

/** Login sessions: only the SHA-256 of the cookie token is stored, so a leaked table opens nothing. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** The passkey this session logged in with (PASS-01): removing the passkey ends the session (decision 087). */
    passkeyId: integer('passkey_id').references(() => passkeys.id, { onDelete: 'cascade' }),
  },
  (t) => [index('sessions_user').on(t.userId), index('sessions_passkey').on(t.passkeyId)],
);

export type AccountTokenKind = 'activation' | 'password_reset' | 'email_change' | 'reactivation';

/** Single-use links mailed to members; only the SHA-256 of the token is stored (ACT-01, PWD-02, MAIL-01, DEL-01). */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<AccountTokenKind>().notNull(),
    tokenHash: text('token_hash').notNull(),
    newEmail: text('new_email'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('account_tokens_hash').on(t.tokenHash), index('account_tokens_user_kind').on(t.userId, t.kind)],
);

/** Failed-login counters per account and per IP (AUTH-03). */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
});
