/** argon2id password hashing (ARCHITECTURE: @node-rs/argon2, prebuilt from the npm registry). */
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane. (2 = Algorithm.Argon2id, a const enum.)
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/**
 * Spends the same time as a real check when no account matches, so the answer time does not tell
 * whether an e-mail address has an account.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummyHash ??= hashPassword('no-account-has-this-password');
  await verifyPassword(await dummyHash, password);
  return false;
}
