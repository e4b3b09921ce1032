/**
 * SEPA direct-debit mandates confirmed by SMS (DD-01, DD-02; docs/decisions/042-direct-debit-and-sms.md).
 * - `submitDetails`: the form checked (validate.ts), a blocked IBAN or mobile number refused, the SMS
 *   rate limits taken (throttle.ts: per member and per number), then a pending mandate with its reference
 *   and a code sent by SMS. Only the code's keyed hash is stored; it expires after 10 minutes.
 * - `confirmCode`: the newest code of the member's pending mandate, used once. Every comparison is an
 *   attempt counted on the member before the code is compared, in one conditional statement that holds
 *   the member's row until the attempt is decided (SEC-19: a burst of checks compares three codes, not
 *   all of them); the third wrong one in a row makes the account 'blocked for direct debit' (SPEC §4).
 *   A right one makes the mandate the member's active one (an older active one is replaced) and the
 *   count starts over.
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gte, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appSecrets, directDebitAccounts, directDebitBlocklist, directDebitCodes, directDebitMandates } from '../../db/schema';
import type { DbTransaction } from '../credits/ledger';
import { consumeAllowance, type ThrottleRule } from '../auth/throttle';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { checkCode, CODE_TTL_MS, generateCode, hashCode, MAX_WRONG_CODES, newSalt, normaliseCode } from './codes';
import { SmsError, type SmsProvider } from './sms';
import { checkDetails, type FieldError, type MandateField } from './validate';

export type Mandate = typeof directDebitMandates.$inferSelect;

export interface DirectDebitDeps {
  db: Db;
  clock: Clock;
  sms: SmsProvider;
  log?: Logger;
}

const MINUTE = 60_000;
/**
 * The SMS limits (issue 23, decision 064): per number, so a member who mistyped theirs gets the
 * code at the right number at once, and per member per day, so nobody sends codes to number after number.
 * Codes a member may have sent per 24 hours, over all numbers; past it, a wait of 12 hours.
 */
export const MEMBER_SMS_RULE: ThrottleRule = { limit: 8, windowMs: 24 * 60 * MINUTE, blockMs: 12 * 60 * MINUTE };
/** Codes one number may receive per hour, over all members; past it, that number waits an hour. */
export const MOBILE_SMS_RULE: ThrottleRule = { limit: 3, windowMs: 60 * MINUTE, blockMs: 60 * MINUTE };

/** A refused code request: until when, and whether the number or the member has had too many. */
export interface SmsWait {
  type: 'rate_limited';
  minutes: number;
  until: Date;
  scope: 'number' | 'member';
}

function smsWait(block: { key: string; until: Date; minutes: number }): SmsWait {
  return { type: 'rate_limited', minutes: block.minutes, until: block.until, scope: block.key.startsWith('dd-sms-mobile:') ? 'number' : 'member' };
}
export const memberSmsKey = (userId: number) => `dd-sms-member:${userId}`;
export const mobileSmsKey = (mobile: string) => `dd-sms-mobile:${mobile}`;

const SECRET_KEY = 'directdebit_code_secret';
const secrets = new WeakMap<object, Promise<Buffer>>();

/** The key of the codes' hashes, made once and kept in app_secrets (like the device-cookie secret). */
export function codeSecret(db: Db): Promise<Buffer> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = (async () => {
      await db
        .insert(appSecrets)
        .values({ key: SECRET_KEY, value: randomBytes(32).toString('base64url') })
        .onConflictDoNothing({ target: appSecrets.key });
      const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.key, SECRET_KEY)).limit(1);
      return Buffer.from(row!.value, 'base64url');
    })();
    secret.catch(() => secrets.delete(db));
    secrets.set(db, secret);
  }
  return secret;
}

export interface MemberDirectDebitState {
  blocked: boolean;
  blockedAt: Date | null;
  wrongCodes: number;
}

export async function memberState(db: Db, userId: number): Promise<MemberDirectDebitState> {
  const [row] = await db.select().from(directDebitAccounts).where(eq(directDebitAccounts.userId, userId)).limit(1);
  return { blocked: Boolean(row?.blockedAt), blockedAt: row?.blockedAt ?? null, wrongCodes: row?.wrongCodes ?? 0 };
}

/** The member's confirmed mandate, or null. */
export async function activeMandate(db: Db, userId: number): Promise<Mandate | null> {
  const [row] = await db
    .select()
    .from(directDebitMandates)
    .where(and(eq(directDebitMandates.userId, userId), eq(directDebitMandates.status, 'active')))
    .limit(1);
  return row ?? null;
}

/** The member's newest pending mandate with its newest code's expiry, or null. */
export async function pendingMandate(db: Db, userId: number): Promise<{ mandate: Mandate; codeExpiresAt: Date | null; codeUsed: boolean } | null> {
  const [mandate] = await db
    .select()
    .from(directDebitMandates)
    .where(and(eq(directDebitMandates.userId, userId), eq(directDebitMandates.status, 'pending')))
    .orderBy(desc(directDebitMandates.id))
    .limit(1);
  if (!mandate) return null;
  const [code] = await db.select().from(directDebitCodes).where(eq(directDebitCodes.mandateId, mandate.id)).orderBy(desc(directDebitCodes.id)).limit(1);
  return { mandate, codeExpiresAt: code?.expiresAt ?? null, codeUsed: Boolean(code?.usedAt) };
}

export function newMandateReference(siteId: number, userId: number): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(10);
  const tail = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `DD${siteId}-${userId}-${tail}`.slice(0, 35);
}

/** Is the IBAN or the number on the blocklist? Answers the fields that are. */
export async function blockedFields(db: Db, iban: string, mobile: string): Promise<Partial<Record<MandateField, FieldError>>> {
  const rows = await db
    .select({ kind: directDebitBlocklist.kind })
    .from(directDebitBlocklist)
    .where(or(and(eq(directDebitBlocklist.kind, 'iban'), eq(directDebitBlocklist.value, iban)), and(eq(directDebitBlocklist.kind, 'mobile'), eq(directDebitBlocklist.value, mobile))));
  const fields: Partial<Record<MandateField, FieldError>> = {};
  for (const row of rows) fields[row.kind === 'iban' ? 'iban' : 'mobile'] = 'blocked';
  return fields;
}

export interface SubmitInput {
  siteId: number;
  memberId: number;
  /** The member's country: national mobile numbers are read in it. */
  country: string;
  form: Partial<Record<MandateField, string>>;
  /** The SMS text in the member's language. */
  smsText: (code: string, reference: string) => string;
}

export type SubmitResult =
  | { type: 'sent'; mandate: Mandate }
  | { type: 'invalid'; fields: Partial<Record<MandateField, FieldError>>; values: Record<MandateField, string> }
  | { type: 'blocked' }
  | SmsWait
  | { type: 'sms_failed' };

export async function submitDetails(deps: DirectDebitDeps, input: SubmitInput): Promise<SubmitResult> {
  const { db, clock } = deps;
  if ((await memberState(db, input.memberId)).blocked) return { type: 'blocked' };
  const checked = checkDetails(input.form, input.country);
  if (!checked.ok) return { type: 'invalid', fields: checked.fields, values: checked.values };
  const details = checked.details;
  const blocked = await blockedFields(db, details.iban, details.mobile);
  if (Object.keys(blocked).length > 0) {
    const values = Object.fromEntries(Object.entries(input.form).map(([k, v]) => [k, String(v ?? '').trim()])) as Record<MandateField, string>;
    return { type: 'invalid', fields: blocked, values };
  }
  const limited = await consumeAllowance(deps, [
    { key: mobileSmsKey(details.mobile), rule: MOBILE_SMS_RULE },
    { key: memberSmsKey(input.memberId), rule: MEMBER_SMS_RULE },
  ]);
  if (limited) return smsWait(limited);
  const now = clock.now();
  const mandate = await db.transaction(async (tx) => {
    // An earlier unconfirmed request of this member ends: only the newest pending mandate takes a code.
    await tx
      .update(directDebitMandates)
      .set({ status: 'abandoned' })
      .where(and(eq(directDebitMandates.userId, input.memberId), eq(directDebitMandates.status, 'pending')));
    const [row] = await tx
      .insert(directDebitMandates)
      .values({ siteId: input.siteId, userId: input.memberId, reference: newMandateReference(input.siteId, input.memberId), ...details, status: 'pending', createdAt: now })
      .returning();
    return row!;
  });
  if (await sendCode(deps, mandate, input.smsText)) return { type: 'sent', mandate };
  // The code never reached the member: the request ends here, as if it had not been made.
  await db
    .update(directDebitMandates)
    .set({ status: 'abandoned' })
    .where(and(eq(directDebitMandates.id, mandate.id), eq(directDebitMandates.status, 'pending')));
  return { type: 'sms_failed' };
}

/** A new code for the mandate (the older ones stop counting: only the newest is checked), sent by SMS. */
async function sendCode(deps: DirectDebitDeps, mandate: Mandate, smsText: SubmitInput['smsText']): Promise<boolean> {
  const code = generateCode();
  const salt = newSalt();
  const now = deps.clock.now();
  const secret = await codeSecret(deps.db);
  await deps.db
    .insert(directDebitCodes)
    .values({ mandateId: mandate.id, userId: mandate.userId, codeHash: hashCode(secret, salt, code), salt, expiresAt: new Date(now.getTime() + CODE_TTL_MS), createdAt: now });
  try {
    await deps.sms.send({ siteId: mandate.siteId, userId: mandate.userId, kind: 'directdebit_code', to: mandate.mobile, text: smsText(code, mandate.reference) });
    return true;
  } catch (err) {
    if (!(err instanceof SmsError)) throw err;
    deps.log?.warn({ err, mandateId: mandate.id }, 'direct debit code not sent');
    return false;
  }
}

export type ResendResult = { type: 'sent'; mandate: Mandate } | { type: 'no_code' } | { type: 'blocked' } | SmsWait | { type: 'sms_failed' };

/** Another code for the member's pending mandate, under the same limits. */
export async function resendCode(deps: DirectDebitDeps, input: { memberId: number; smsText: SubmitInput['smsText'] }): Promise<ResendResult> {
  if ((await memberState(deps.db, input.memberId)).blocked) return { type: 'blocked' };
  const pending = await pendingMandate(deps.db, input.memberId);
  if (!pending) return { type: 'no_code' };
  const limited = await consumeAllowance(deps, [
    { key: mobileSmsKey(pending.mandate.mobile), rule: MOBILE_SMS_RULE },
    { key: memberSmsKey(input.memberId), rule: MEMBER_SMS_RULE },
  ]);
  if (limited) return smsWait(limited);
  return (await sendCode(deps, pending.mandate, input.smsText)) ? { type: 'sent', mandate: pending.mandate } : { type: 'sms_failed' };
}

export type ConfirmResult =
  { type: 'confirmed'; mandate: Mandate } | { type: 'malformed' } | { type: 'wrong'; attemptsLeft: number } | { type: 'blocked'; now: boolean } | { type: 'expired' } | { type: 'no_code' };

export async function confirmCode(deps: Pick<DirectDebitDeps, 'db' | 'clock'>, input: { memberId: number; code: string }): Promise<ConfirmResult> {
  const { db, clock } = deps;
  // The pending mandate is read before the block: a block abandons the mandate in the same transaction,
  // so a check racing a block that has just happened finds the member blocked, never "no code".
  const pending = await pendingMandate(db, input.memberId);
  if ((await memberState(db, input.memberId)).blocked) return { type: 'blocked', now: false };
  if (!pending) return { type: 'no_code' };
  const [code] = await db.select().from(directDebitCodes).where(eq(directDebitCodes.mandateId, pending.mandate.id)).orderBy(desc(directDebitCodes.id)).limit(1);
  if (!code) return { type: 'no_code' };
  // What cannot be right is answered without an attempt: a malformed code, a used or expired one.
  if (normaliseCode(input.code) === null) return { type: 'malformed' };
  const now = clock.now();
  if (code.usedAt) return { type: 'no_code' };
  if (code.expiresAt.getTime() <= now.getTime()) return { type: 'expired' };
  const secret = await codeSecret(db);
  return db.transaction(async (tx): Promise<ConfirmResult> => {
    // The attempt is counted before the code is compared (SEC-19), and the member's row stays locked until
    // this attempt is decided: however many checks race, at most MAX_WRONG_CODES codes are compared.
    const attempt = await takeAttempt(tx, input.memberId, now);
    if (attempt === null) return { type: 'blocked', now: false };
    // The code as it is now (a check that waited for the lock may find it used by the one before it).
    const [current] = await tx.select().from(directDebitCodes).where(eq(directDebitCodes.id, code.id)).limit(1);
    const check = current ? checkCode(secret, current, input.code, now) : 'used';
    if (check === 'used' || check === 'expired') {
      await giveBackAttempt(tx, input.memberId, now);
      return check === 'used' ? { type: 'no_code' } : { type: 'expired' };
    }
    if (check === 'wrong') {
      if (attempt < MAX_WRONG_CODES) return { type: 'wrong', attemptsLeft: MAX_WRONG_CODES - attempt };
      await tx
        .update(directDebitAccounts)
        .set({ blockedAt: now, blockedReason: 'wrong_codes', updatedAt: now })
        .where(and(eq(directDebitAccounts.userId, input.memberId), isNull(directDebitAccounts.blockedAt)));
      await tx
        .update(directDebitMandates)
        .set({ status: 'abandoned' })
        .where(and(eq(directDebitMandates.userId, input.memberId), eq(directDebitMandates.status, 'pending')));
      return { type: 'blocked', now: true };
    }
    // Single use: only the first of two racing confirmations takes the code.
    const [taken] = await tx
      .update(directDebitCodes)
      .set({ usedAt: now })
      .where(and(eq(directDebitCodes.id, code.id), isNull(directDebitCodes.usedAt), gte(directDebitCodes.expiresAt, now)))
      .returning({ id: directDebitCodes.id });
    if (!taken) {
      await giveBackAttempt(tx, input.memberId, now);
      return { type: 'no_code' };
    }
    await tx
      .update(directDebitMandates)
      .set({ status: 'replaced' })
      .where(and(eq(directDebitMandates.userId, input.memberId), eq(directDebitMandates.status, 'active'), ne(directDebitMandates.id, pending.mandate.id)));
    const [mandate] = await tx
      .update(directDebitMandates)
      .set({ status: 'active', confirmedAt: now })
      .where(and(eq(directDebitMandates.id, pending.mandate.id), eq(directDebitMandates.status, 'pending')))
      .returning();
    // The right code: the wrong ones before it stop counting.
    await tx.update(directDebitAccounts).set({ wrongCodes: 0, updatedAt: now }).where(eq(directDebitAccounts.userId, input.memberId));
    return mandate ? { type: 'confirmed', mandate } : { type: 'no_code' };
  });
}

/**
 * One attempt at a code, taken in one conditional statement before the code is compared: counted only
 * while the member has attempts left and is not blocked. Answers the count with this attempt, or null
 * when none is left. Within a transaction the member's row stays locked until it ends, so the next check
 * waits for this one's outcome.
 */
async function takeAttempt(tx: DbTransaction, userId: number, now: Date): Promise<number | null> {
  const [row] = await tx
    .insert(directDebitAccounts)
    .values({ userId, wrongCodes: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: directDebitAccounts.userId,
      set: { wrongCodes: sql`"direct_debit_accounts"."wrong_codes" + 1`, updatedAt: now },
      setWhere: sql`"direct_debit_accounts"."wrong_codes" < ${MAX_WRONG_CODES} and "direct_debit_accounts"."blocked_at" is null`,
    })
    .returning({ wrongCodes: directDebitAccounts.wrongCodes });
  return row ? row.wrongCodes : null;
}

/** An attempt that compared nothing (the code was used or had expired meanwhile) does not count. */
async function giveBackAttempt(tx: DbTransaction, userId: number, now: Date): Promise<void> {
  await tx
    .update(directDebitAccounts)
    .set({ wrongCodes: sql`greatest("direct_debit_accounts"."wrong_codes" - 1, 0)`, updatedAt: now })
    .where(eq(directDebitAccounts.userId, userId));
}
