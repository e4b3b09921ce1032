/**
 * The back office's people (issue 12, OPS-04): staff accounts with a role and a TOTP second factor, their
 * sessions (separate from members', shorter), and the audit log of every staff action.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea } from './columns';
import { users, type UserStatus } from './members';

export type StaffRole = 'moderator' | 'operator' | 'admin';

export const staff = pgTable(
  'staff',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').$type<StaffRole>().notNull(),
    /** The TOTP secret (base32) the staff member's authenticator app holds. */
    totpSecret: text('totp_secret').notNull(),
    /** The last TOTP time step used: a code is good once (no replay within its window). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }).notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('staff_email').on(sql`lower(${t.email})`)],
);

/** A staff member's passkeys (PASS-01): their second factor instead of the authenticator code. */
export const staffPasskeys = pgTable(
  'staff_passkeys',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull(),
    publicKey: bytea('public_key').notNull(),
    counter: integer('counter').notNull().default(0),
    transports: text('transports').array().notNull().default([]),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('staff_passkeys_credential').on(t.credentialId), index('staff_passkeys_staff').on(t.staffId)],
);

/** A staff session: only the token's SHA-256 is stored; it ends after 8 hours, or 30 minutes unused. */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: text('id').primaryKey(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    /** The passkey this session's login used as its second factor (PASS-01): removing it ends the session. */
    passkeyId: integer('passkey_id').references(() => staffPasskeys.id, { onDelete: 'cascade' }),
  },
  (t) => [index('staff_sessions_staff').on(t.staffId)],
);

/** Every staff action (OPS-04): who, what, on what, when, and the state before and after. Append-only. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_created').on(t.createdAt.desc()), index('audit_log_target').on(t.targetType, t.targetId)],
);

/** Bans of members by staff (OPS-01): why, by whom, the status to give back when lifted. */
export const memberBans = pgTable(
  'member_bans',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    staffId: integer('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    statusBefore: text('status_before').$type<UserStatus>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    liftedAt: timestamp('lifted_at', { withTimezone: true }),
    liftedBy: integer('lifted_by').references(() => staff.id, { onDelete: 'set null' }),
  },
  (t) => [index('member_bans_user').on(t.userId, t.createdAt.desc())],
);
