/**
 * pino JSON logs; one child logger per request carries its request id.
 *
 * No secrets or personal data in any line (SEC-08, docs/decisions/014): credentials, cookies, e-mail
 * addresses, tokens and password hashes are redacted by path wherever they appear as fields, and errors
 * are serialized without the query parameters Drizzle puts into them and with e-mail addresses masked.
 * The access log writes the path without its query string (src/server/http/node-server.ts).
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import { scrubError } from './http/input-errors';

export type { Logger };

const SECRET_KEYS = ['password', 'passwordHash', 'password_hash', 'newPassword', 'currentPassword', 'token', 'resetToken', 'activationToken', 'sessionToken', 'email', 'newEmail', 'params', 'parameters'];

/** The paths pino censors: the keys above at the top and one or two levels down, and credential headers. */
export const REDACT_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((key) => `*.${key}`),
  ...SECRET_KEYS.map((key) => `*.*.${key}`),
  ...['authorization', 'cookie', 'set-cookie', 'x-csrf-token'].flatMap((h) => [`headers["${h}"]`, `*.headers["${h}"]`, `*.*.headers["${h}"]`]),
];

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
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}
