/**
 * pino JSON logs; one child logger per request carries its request id.
 *
 * No secrets or personal data in any line (SEC-08, docs/decisions/014): credentials, cookies, e-mail
 * addresses, tokens and password hashes are censored by key wherever they appear as fields, and errors
 * are serialized without the query parameters Drizzle puts into them and with e-mail addresses masked.
 * The access log writes the path without its query string (src/server/http/node-server.ts).
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import { scrubError } from '../shared/input-errors';

export type { Logger };

const SECRET_KEYS = [
  'password',
  'passwordHash',
  'password_hash',
  'newPassword',
  'currentPassword',
  'token',
  'resetToken',
  'activationToken',
  'sessionToken',
  'email',
  'newEmail',
  'params',
  'parameters',
];
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-csrf-token'];
/** Keys whose values never reach a log line, wherever they appear (up to {@link CENSOR_DEPTH} levels down). */
const CENSORED = new Set([...SECRET_KEYS, ...CREDENTIAL_HEADERS]);
const CENSOR_DEPTH = 4;
const CENSOR = '[redacted]';

/**
 * A copy of a log line's fields with every censored key's value replaced, down to a few levels; what
 * holds nothing censored is returned as it is (no copy). pino's own path-based redaction cost ~45 µs
 * per line with the wildcard paths this needs, a fifth of a cached page's CPU; this walk costs ~1 µs
 * (docs/decisions/021).
 */
export function censor<T>(value: T, depth = 0): T {
  if (depth >= CENSOR_DEPTH || value === null || typeof value !== 'object' || value instanceof Error) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = censor(value[i], depth + 1);
      if (item !== value[i]) (copy ??= value.slice())[i] = item;
    }
    return (copy ?? value) as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  let copy: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const original = record[key];
    const next = CENSORED.has(key) || CENSORED.has(key.toLowerCase()) ? CENSOR : censor(original, depth + 1);
    if (next !== original) (copy ??= { ...record })[key] = next;
  }
  return (copy ?? value) as T;
}

const EMAIL = /[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+/g;

/** An error as pino writes it, minus query parameters and e-mail addresses. */
export function serializeError(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  if (!out || typeof out !== 'object') return out;
  scrubError(out);
  for (const key of Object.keys(out)) {
    if (typeof out[key] === 'string') out[key] = (out[key] as string).replace(EMAIL, '[email]');
  }
  return out;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'dating-platform' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { log: (fields: Record<string, unknown>) => censor(fields) },
    serializers: { err: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}
