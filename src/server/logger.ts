/** pino JSON logs; one child logger per request carries its request id. */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'dating-platform' }, timestamp: pino.stdTimeFunctions.isoTime });
}
