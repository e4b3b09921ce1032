/**
 * Device cookies (SEC-13, AUTH-03; docs/decisions/019-device-cookies-against-lockout.md), after OWASP's
 * "Slow Down Online Guessing Attacks with Device Cookies": a browser that logs in to an account gets a
 * cookie signed by the server, `<userId>.<expires>.<nonce>.<signature>` with
 * `signature = HMAC-SHA256(secret, "device|userId|expires|nonce")`. A later login attempt on the same
 * account that presents it comes from a *trusted* device: it is judged on that device's own failure
 * counter (keyed by the nonce) instead of the account's lockout, which only binds untrusted clients.
 *
 * The cookie proves only that this browser logged in to this account before; it never logs anyone in.
 * The secret is generated once (on the first start of the first process) and kept in `app_secrets`, so
 * every process and every restart recognises the cookies the others issued.
 *
 * Staff accounts have device cookies of their own (SEC-17; docs/decisions/058-staff-device-cookies-and-client-counters.md):
 * `forStaff()` signs `"staff-device|staffId|expires|nonce"` with the same secret, so a member's cookie
 * never counts for a staff account with the same id (another table) nor the reverse, and they last 90 days.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appSecrets } from '../../db/schema';
import type { Clock } from '../clock';

/** Name of the cookie (HttpOnly, SameSite=Lax, Secure behind HTTPS; set by the login page and API). */
export const DEVICE_COOKIE = 'device';
/** How long a device stays trusted after its last successful login (the cookie's Max-Age too). */
export const DEVICE_COOKIE_TTL_MS = 365 * 24 * 3600 * 1000;
/** The staff device cookie (HttpOnly, SameSite=Strict, Path=/admin, Secure behind HTTPS; set by /admin/login). */
export const STAFF_DEVICE_COOKIE = 'staff_device';
/** How long a staff member's browser stays known after its last successful login (the cookie's Max-Age too). */
export const STAFF_DEVICE_COOKIE_TTL_MS = 90 * 24 * 3600 * 1000;
/** The `app_secrets` key of the HMAC secret. */
export const DEVICE_SECRET_KEY = 'device_cookie_secret';

const SECRET_BYTES = 32;
const NONCE_BYTES = 16;
/** Strict shape: decimal ids, base64url nonce (16 bytes) and signature (32 bytes); nothing else is parsed. */
const SHAPE = /^([1-9]\d{0,11})\.([1-9]\d{0,11})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** Whose accounts a set of cookies is for: its label is signed with every cookie, and how long one lasts. */
interface DeviceCookieKind {
  label: 'device' | 'staff-device';
  ttlMs: number;
}
const MEMBER_DEVICES: DeviceCookieKind = { label: 'device', ttlMs: DEVICE_COOKIE_TTL_MS };
const STAFF_DEVICES: DeviceCookieKind = { label: 'staff-device', ttlMs: STAFF_DEVICE_COOKIE_TTL_MS };

/** A device cookie that passed every check. */
export interface TrustedDevice {
  /** The account it was issued for: a member's user id, or a staff id for staff cookies. */
  userId: number;
  /** Identifies the device's own failure counter (`device:<nonce>`, `staff-device:<nonce>`). */
  nonce: string;
  expires: Date;
}

/** Issues and checks device cookies with the deployment's secret (members' cookies; `forStaff()` for staff). */
export class DeviceCookies {
  private constructor(
    private readonly secret: Buffer,
    private readonly clock: Clock,
    private readonly kind: DeviceCookieKind = MEMBER_DEVICES,
  ) {}

  /**
   * Loads the secret from `app_secrets`, creating it first when there is none. Processes starting
   * together each offer a fresh secret with `on conflict do nothing`, then all read back the one that won.
   */
  static async create(deps: { db: Db; clock: Clock }): Promise<DeviceCookies> {
    await deps.db
      .insert(appSecrets)
      .values({ key: DEVICE_SECRET_KEY, value: randomBytes(SECRET_BYTES).toString('base64url') })
      .onConflictDoNothing({ target: appSecrets.key });
    const [row] = await deps.db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.key, DEVICE_SECRET_KEY)).limit(1);
    const secret = row ? Buffer.from(row.value, 'base64url') : Buffer.alloc(0);
    if (secret.length !== SECRET_BYTES) throw new Error(`app_secrets.${DEVICE_SECRET_KEY} is missing or not ${SECRET_BYTES} bytes`);
    return new DeviceCookies(secret, deps.clock);
  }

  /** The staff accounts' cookies: the same secret, their own label and lifetime. */
  forStaff(): DeviceCookies {
    return new DeviceCookies(this.secret, this.clock, STAFF_DEVICES);
  }

  /** A fresh cookie value for a browser that has just logged in to `userId` (new nonce every time). */
  issue(userId: number): string {
    const expires = Math.floor((this.clock.now().getTime() + this.kind.ttlMs) / 1000);
    const nonce = randomBytes(NONCE_BYTES).toString('base64url');
    return `${userId}.${expires}.${nonce}.${this.sign(userId, expires, nonce).toString('base64url')}`;
  }

  /**
   * The trusted device a cookie value stands for, when it is well formed, signed with our secret, not
   * expired, and issued for `userId` (the account being tried). Anything else is null: the attempt is
   * then an untrusted one, exactly as if no cookie had been sent.
   */
  verify(value: string | null | undefined, userId: number): TrustedDevice | null {
    if (!value || value.length > 120) return null;
    const match = SHAPE.exec(value);
    if (!match) return null;
    const [, idText, expiresText, nonce, signature] = match as unknown as [string, string, string, string, string];
    const id = Number(idText);
    const expires = Number(expiresText);
    const given = Buffer.from(signature, 'base64url');
    const expected = this.sign(id, expires, nonce);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (id !== userId) return null;
    if (expires * 1000 <= this.clock.now().getTime()) return null;
    return { userId: id, nonce, expires: new Date(expires * 1000) };
  }

  private sign(userId: number, expires: number, nonce: string): Buffer {
    return createHmac('sha256', this.secret).update(`${this.kind.label}|${userId}|${expires}|${nonce}`).digest();
  }
}
