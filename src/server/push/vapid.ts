/**
 * The VAPID key pair of the deployment (PUSH-01): generated on first start and kept in `app_secrets`,
 * so every process and every restart signs with the same key and browsers' subscriptions stay valid.
 */
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { Db } from '../../db/client';
import { appSecrets } from '../../db/schema';

/** The `app_secrets` key holding both halves as one JSON value, so two processes can never mix pairs. */
export const VAPID_SECRET_KEY = 'vapid_keys';

export interface VapidKeys {
  /** Uncompressed P-256 public key, base64url (what `pushManager.subscribe` takes as applicationServerKey). */
  publicKey: string;
  privateKey: string;
}

function isVapidKeys(value: unknown): value is VapidKeys {
  if (typeof value !== 'object' || value === null) return false;
  const { publicKey, privateKey } = value as Record<string, unknown>;
  return typeof publicKey === 'string' && publicKey.length > 0 && typeof privateKey === 'string' && privateKey.length > 0;
}

/**
 * Returns the stored key pair, creating it first when there is none. Idempotent across restarts and
 * across processes starting together: each offers a fresh pair with `on conflict do nothing`, then
 * everyone reads back the one row that won.
 */
export async function ensureVapidKeys(db: Db): Promise<VapidKeys> {
  const offered = webpush.generateVAPIDKeys();
  await db
    .insert(appSecrets)
    .values({ key: VAPID_SECRET_KEY, value: JSON.stringify({ publicKey: offered.publicKey, privateKey: offered.privateKey }) })
    .onConflictDoNothing({ target: appSecrets.key });
  const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.key, VAPID_SECRET_KEY)).limit(1);
  let parsed: unknown;
  try {
    parsed = row ? JSON.parse(row.value) : null;
  } catch {
    parsed = null;
  }
  if (!isVapidKeys(parsed)) throw new Error(`app_secrets.${VAPID_SECRET_KEY} is missing or not a VAPID key pair`);
  return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
}
