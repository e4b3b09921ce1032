/**
 * Failed-login counters (AUTH-03; docs/decisions/006-login-throttling.md). One row of `login_throttle`
 * per key: failures within a fixed 15-minute window, and the end of a block once a limit is reached.
 *
 * - `acct:<userId>` (or `email:<siteId>:<address>` for an address without an account, so the answer
 *   never tells whether an account exists): 5 failures in 15 minutes block that account for 15 minutes.
 * - `ip:<address>`: 30 failures in 15 minutes block that address for 15 minutes.
 * - `device:<nonce>`: a browser that presents a valid device cookie for the account it tries (SEC-13;
 *   docs/decisions/019-device-cookies-against-lockout.md) is judged on this key alone: 5 failures in 15
 *   minutes block that device for 15 minutes, and the account and IP blocks, which bind untrusted
 *   clients, do not apply to it.
 * - Staff logins (SEC-17; docs/decisions/058-staff-device-cookies-and-client-counters.md), on keys of
 *   their own: `staff-client:<address>|ip:<ip>` (the address from one client): 5 failures in 15
 *   minutes block that client for that address; `staff:<address>`: 20 failures in 15 minutes, which
 *   takes at least three clients, block the address for every new browser; and `ip:<ip>` as above. A
 *   staff member's known browser is judged on `staff-device:<nonce>` alone, with the device rule.
 *
 * The same counters also limit actions that are not logins (`consumeAllowance`): password-reset
 * requests (docs/decisions/018-password-reset-without-enumeration.md) and complaints (SEC-05), each on
 * keys of their own.
 *
 * A block never grows: attempts during a block are refused before any password check and are not
 * counted, and a failure that races past the limit keeps the block that is already running. Every
 * failure is counted by one conditional upsert, so concurrent failures are never lost. A check of a
 * secret (a login, a staff login, the current password) takes its try before the secret is checked
 * (`takeTry`, SEC-19): however many attempts race, a key's limit of them are checked; a right secret
 * clears the key or gives its try back.
 */
import { and, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { loginThrottle } from '../../db/schema';
import type { Clock } from '../clock';

export interface ThrottleRule {
  /** Failures within the window that start a block. */
  limit: number;
  windowMs: number;
  blockMs: number;
}

const MINUTE = 60_000;

export const ACCOUNT_RULE: ThrottleRule = { limit: 5, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE };
export const IP_RULE: ThrottleRule = { limit: 30, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE };
/** A trusted device's own counter: the account's limits, for that one browser. */
export const DEVICE_RULE: ThrottleRule = { ...ACCOUNT_RULE };
/** One client's failures on one staff address: the account's limits, for that client alone. */
export const STAFF_CLIENT_RULE: ThrottleRule = { ...ACCOUNT_RULE };
/**
 * All untrusted failures on one staff address: four times a client's limit. A client is blocked at its
 * 5th failure and attempts during a block are not counted, so one client adds at most 8 failures to a
 * window of the address (3 at the end of one of its windows, 5 at the start of the next): neither one
 * client nor two can block the address for new browsers (decision 058).
 */
export const STAFF_ADDRESS_RULE: ThrottleRule = { limit: 4 * STAFF_CLIENT_RULE.limit, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE };

export const accountKey = (userId: number) => `acct:${userId}`;
export const unknownEmailKey = (siteId: number, email: string) => `email:${siteId}:${email.trim().toLowerCase()}`;
export const ipKey = (ip: string) => `ip:${ip}`;
export const deviceKey = (nonce: string) => `device:${nonce}`;
/** `address` as the staff login normalised it (trimmed, lower case, at most 254 characters). */
export const staffAddressKey = (address: string) => `staff:${address}`;
/** One client, by its IP (`unknown` when the request had none), on one staff address. */
export const staffClientKey = (address: string, ip: string | null) => `staff-client:${address}|ip:${ip ?? 'unknown'}`;
export const staffDeviceKey = (nonce: string) => `staff-device:${nonce}`;

export interface Block {
  key: string;
  until: Date;
  /** Whole minutes left, rounded up (at least 1): what the member is told. */
  minutes: number;
}

type Deps = { db: Db; clock: Clock };

/** Minutes left until `until`, rounded up, never below 1. */
export function minutesLeft(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / MINUTE));
}

/** The longest block running on any of `keys`, or null when none is. */
export async function activeBlock(deps: Deps, keys: string[]): Promise<Block | null> {
  if (keys.length === 0) return null;
  const now = deps.clock.now();
  const rows = await deps.db
    .select({ key: loginThrottle.key, until: loginThrottle.blockedUntil })
    .from(loginThrottle)
    .where(and(inArray(loginThrottle.key, keys), gt(loginThrottle.blockedUntil, now)));
  let longest: Block | null = null;
  for (const row of rows) {
    if (row.until && (!longest || row.until > longest.until)) longest = { key: row.key, until: row.until, minutes: minutesLeft(row.until, now) };
  }
  return longest;
}

/** The counting statement shared by {@link recordFailure} and {@link takeTry}; `duringBlock` says whether it counts while a block runs. */
async function countOne(deps: Deps, key: string, rule: ThrottleRule, duringBlock: boolean): Promise<{ failures: number; until: Date | null; blockEnd: Date } | null> {
  const now = deps.clock.now();
  const nowSql = sql`${now.toISOString()}::timestamptz`;
  const windowFloor = sql`${new Date(now.getTime() - rule.windowMs).toISOString()}::timestamptz`;
  const blockEnd = new Date(now.getTime() + rule.blockMs);
  const blockEndSql = sql`${blockEnd.toISOString()}::timestamptz`;
  // Inside ON CONFLICT … DO UPDATE the table name refers to the row as it was before this statement.
  const old = {
    failures: sql.raw('"login_throttle"."failures"'),
    windowStart: sql.raw('"login_throttle"."window_start"'),
    blockedUntil: sql.raw('"login_throttle"."blocked_until"'),
  };
  const startsOver = sql`(${old.windowStart} <= ${windowFloor} or (${old.blockedUntil} is not null and ${old.blockedUntil} <= ${nowSql}))`;
  const failures = sql`(case when ${startsOver} then 1 else ${old.failures} + 1 end)`;
  const [row] = await deps.db
    .insert(loginThrottle)
    .values({ key, failures: 1, windowStart: now, blockedUntil: rule.limit <= 1 ? blockEnd : null })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures,
        windowStart: sql`(case when ${startsOver} then ${nowSql} else ${old.windowStart} end)`,
        blockedUntil: sql`(case when ${old.blockedUntil} > ${nowSql} then ${old.blockedUntil} when ${failures} >= ${rule.limit} then ${blockEndSql} else null end)`,
      },
      ...(duringBlock ? {} : { setWhere: sql`(${old.blockedUntil} is null or ${old.blockedUntil} <= ${nowSql})` }),
    })
    .returning({ failures: loginThrottle.failures, until: loginThrottle.blockedUntil });
  return row ? { failures: row.failures, until: row.until, blockEnd } : null;
}

/**
 * Counts one failure on `key` in a single statement (insert, or update the row in place): a window
 * older than `rule.windowMs` or a block that has ended starts over at 1; reaching the limit starts a
 * block of `rule.blockMs`; a block already running is kept as it is. Returns the block when the key is
 * blocked after this failure.
 */
export async function recordFailure(deps: Deps, key: string, rule: ThrottleRule): Promise<{ failures: number; block: Block | null }> {
  const now = deps.clock.now();
  const row = await countOne(deps, key, rule, true);
  const until = row?.until && row.until.getTime() > now.getTime() ? row.until : null;
  return { failures: row?.failures ?? 1, block: until ? { key, until, minutes: minutesLeft(until, now) } : null };
}

/** One try taken on a key before its secret was checked: counted as a failure unless given back. */
export interface Try {
  key: string;
  /** The block this try started by reaching the limit (it was still checked), or null. */
  block: Block | null;
}

/**
 * Takes one try on `key` before the secret it guards is checked (SEC-19; decision 059): the same single
 * statement as a failure, but it counts only while no block runs on the key, so however many attempts
 * race, at most `rule.limit` of them are checked per window. The try that reaches the limit starts the
 * block and is still checked. The try stays counted as a failure unless it is given back
 * ({@link giveBackTry}) or the key is cleared ({@link clearFailures}) because the secret was right.
 * Returns the try, or the block that refuses it (nothing counted).
 */
export async function takeTry(deps: Deps, key: string, rule: ThrottleRule): Promise<{ type: 'taken'; try: Try } | { type: 'blocked'; block: Block }> {
  const now = deps.clock.now();
  const row = await countOne(deps, key, rule, false);
  if (!row) {
    const running = await activeBlock(deps, [key]);
    // (A block that ended between the two statements: refused all the same, for the shortest while.)
    return { type: 'blocked', block: running ?? { key, until: now, minutes: 1 } };
  }
  const started = row.until !== null && row.until.getTime() === row.blockEnd.getTime();
  // The block's end is set by the database's clock, which may read a few milliseconds after `now`: a block
  // just started has never more than its own length left (it said 16 minutes for a 15-minute block).
  const minutes = Math.min(minutesLeft(row.blockEnd, now), Math.ceil(rule.blockMs / 60_000));
  return { type: 'taken', try: { key, block: started ? { key, until: row.blockEnd, minutes } : null } };
}

/**
 * Gives a try back when its secret was right but the key is not cleared by a success (a login's address):
 * one failure less, and the block it started, if any, lifted (no other try was counted during it).
 */
export async function giveBackTry(deps: Pick<Deps, 'db'>, taken: Try): Promise<void> {
  await deps.db
    .update(loginThrottle)
    .set({
      failures: sql`greatest(${loginThrottle.failures} - 1, 0)`,
      ...(taken.block ? { blockedUntil: sql`(case when ${loginThrottle.blockedUntil} = ${taken.block.until.toISOString()}::timestamptz then null else ${loginThrottle.blockedUntil} end)` } : {}),
    })
    .where(eq(loginThrottle.key, taken.key));
}

/** Forgets the failures of `key` (a successful login, a completed password reset). */
export async function clearFailures(deps: Pick<Deps, 'db'>, key: string): Promise<void> {
  await deps.db.delete(loginThrottle).where(eq(loginThrottle.key, key));
}

/** Removes rows whose window and block are long over (housekeeping; safe to run at any time). */
export async function pruneThrottle(deps: Deps, olderThanMs = 24 * 3600 * 1000): Promise<number> {
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - olderThanMs);
  const removed = await deps.db
    .delete(loginThrottle)
    .where(and(lt(loginThrottle.windowStart, cutoff), or(isNull(loginThrottle.blockedUntil), lt(loginThrottle.blockedUntil, now))))
    .returning({ key: loginThrottle.key });
  return removed.length;
}

/**
 * The counters one login attempt is judged and counted on: an untrusted client's (the account or
 * address, the IP, for staff also the address from this client), or a trusted device's (valid device
 * cookie for this account) own counter alone.
 */
export interface LoginKeys {
  trust: 'untrusted' | 'device';
  /** A block on any of them refuses the attempt; a failure counts on each, in this order. */
  counters: Allowance[];
  /** The counter a success starts over: the one of whoever just proved who they are, never an IP's. */
  clearedBySuccess: string;
}

/** A browser with a valid device cookie for the account it tries: its own counter (`deviceKey`, `staffDeviceKey`) only. */
export function trustedDeviceKeys(device: string): LoginKeys {
  return { trust: 'device', counters: [{ key: device, rule: DEVICE_RULE }], clearedBySuccess: device };
}

/** A member's login from an untrusted client: the account (or unknown address) and the IP. */
export function untrustedMemberKeys(account: string, ip: string | null): LoginKeys {
  const counters: Allowance[] = [{ key: account, rule: ACCOUNT_RULE }];
  if (ip) counters.push({ key: ipKey(ip), rule: IP_RULE });
  return { trust: 'untrusted', counters, clearedBySuccess: account };
}

/**
 * A staff login from an untrusted client: the address from this client, the address from all clients
 * and the IP. A success clears only this client's counter: the address counter holds other clients' failures.
 */
export function untrustedStaffKeys(address: string, ip: string | null): LoginKeys {
  const client = staffClientKey(address, ip);
  const counters: Allowance[] = [
    { key: client, rule: STAFF_CLIENT_RULE },
    { key: staffAddressKey(address), rule: STAFF_ADDRESS_RULE },
  ];
  if (ip) counters.push({ key: ipKey(ip), rule: IP_RULE });
  return { trust: 'untrusted', counters, clearedBySuccess: client };
}

/** The block that refuses this login attempt, if any (the longest on its keys). */
export function loginBlock(deps: Deps, keys: LoginKeys): Promise<Block | null> {
  return activeBlock(
    deps,
    keys.counters.map((c) => c.key),
  );
}

/** A login attempt's tries, one per key, or the block that refuses it (the longest on its keys; nothing counted). */
export type LoginTries = { type: 'taken'; tries: Try[] } | { type: 'blocked'; block: Block };

/**
 * Takes a login attempt's try on each of its keys before the password is checked (SEC-19): refused,
 * counting nothing, while any of them is blocked. A wrong password leaves the tries counted as failures.
 */
export async function takeLoginTries(deps: Deps, keys: LoginKeys): Promise<LoginTries> {
  const tries: Try[] = [];
  for (const { key, rule } of keys.counters) {
    const taken = await takeTry(deps, key, rule);
    if (taken.type === 'taken') {
      tries.push(taken.try);
      continue;
    }
    for (const t of tries) await giveBackTry(deps, t);
    return { type: 'blocked', block: (await loginBlock(deps, keys)) ?? taken.block };
  }
  return { type: 'taken', tries };
}

/** The longest block the tries of a failed login started, if any. */
export function loginTriesBlock(tries: Try[]): Block | null {
  return longest(tries.map((t) => t.block));
}

function longest(blocks: Array<Block | null>): Block | null {
  return blocks.filter((b): b is Block => b !== null).sort((a, b) => b.until.getTime() - a.until.getTime())[0] ?? null;
}

/** One key of a limited action and the rule it is limited by. */
export interface Allowance {
  key: string;
  rule: ThrottleRule;
}

/**
 * Takes one use of a limited action (a reset request, a complaint) on every key: refused without
 * counting while any key is blocked; otherwise one use is counted on each key (the same conditional
 * upsert as a failed login), and the use is refused when it went past a limit. The use that reaches a
 * limit is still allowed and starts the block, so `rule.limit` uses pass per window, even when requests
 * race each other. Returns null when allowed, else the block that refuses it.
 */
export async function consumeAllowance(deps: Deps, allowances: Allowance[]): Promise<Block | null> {
  const running = await activeBlock(
    deps,
    allowances.map((a) => a.key),
  );
  if (running) return running;
  for (const { key, rule } of allowances) {
    const counted = await recordFailure(deps, key, rule);
    if (counted.failures > rule.limit) {
      const now = deps.clock.now();
      return counted.block ?? { key, until: new Date(now.getTime() + rule.blockMs), minutes: minutesLeft(new Date(now.getTime() + rule.blockMs), now) };
    }
  }
  return null;
}
