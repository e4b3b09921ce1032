/**
 * Who may read the offline outbox at /dev/mail (README, "Mail and push offline").
 *
 * Without SMTP every mail (activation links, reset links) stays in the `mail_outbox` table, and a
 * newcomer who ran a plain `npm start` (NODE_ENV defaults to production) must be able to read it to
 * activate an account. The outbox holds live tokens of every member, so it is served only to the
 * machine itself: a loopback client that spoke to us directly, with a loopback host name. Everything
 * else gets the normal 404, so the page does not even admit it exists:
 * - with `SMTP_URL` the outbox is a record of what was relayed, not a delivery: never shown;
 * - behind a proxy (TRUST_PROXY on, or any forwarding header) the peer's loopback address is the
 *   proxy's, not the reader's: never shown;
 * - a Host header that is not a loopback name (DNS rebinding: a web page whose domain now resolves to
 *   127.0.0.1 reading the outbox through the visitor's browser): never shown.
 */
import { isIP } from 'node:net';
import { normaliseAddress } from '../config/proxy';
import type { Config } from '../config';
import type { Mailer } from './mailer';

/** Headers a proxy (or a client pretending to be one) adds; any of them means the peer is not the reader. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'via'] as const;

export interface OutboxAccessInput {
  /** `SMTP_URL` is configured: mail is relayed, the outbox only records it. */
  smtp: boolean;
  /** TRUST_PROXY is on: the deployment says a proxy stands in front. */
  behindProxy: boolean;
  /** The client's address as the request context has it (the socket's peer without TRUST_PROXY). */
  clientIp: string | null;
  headers: Headers;
}

export type OutboxAccess = { allowed: true } | { allowed: false; reason: 'smtp' | 'proxy' | 'not_loopback' | 'host' };

/** 127.0.0.0/8 and ::1 (an IPv4-mapped address is unwrapped first). */
export function isLoopbackAddress(address: string | null | undefined): boolean {
  const a = normaliseAddress(address);
  if (!a) return false;
  if (isIP(a) === 4) return a.startsWith('127.');
  return a === '::1';
}

/** `localhost`, `*.localhost` (RFC 6761), a 127/8 address or `[::1]`, with or without a port. */
export function isLoopbackHost(host: string | null | undefined): boolean {
  if (!host) return false;
  const h = host.trim().toLowerCase();
  const name = h.startsWith('[') ? h.slice(1, h.indexOf(']')) : h.replace(/:\d+$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return isIP(name) !== 0 && isLoopbackAddress(name);
}

/** The rule: may this request read the outbox? */
export function outboxAccess(input: OutboxAccessInput): OutboxAccess {
  if (input.smtp) return { allowed: false, reason: 'smtp' };
  if (input.behindProxy || FORWARDING_HEADERS.some((name) => input.headers.has(name))) return { allowed: false, reason: 'proxy' };
  if (!isLoopbackAddress(input.clientIp)) return { allowed: false, reason: 'not_loopback' };
  if (!isLoopbackHost(input.headers.get('host'))) return { allowed: false, reason: 'host' };
  return { allowed: true };
}

/** `outboxAccess` for a request: the mail viewer pages call this and answer 404 unless it allows. */
export function canReadOutbox(ctx: { app: { mailer: Pick<Mailer, 'mode'>; config: Pick<Config, 'trustedProxies'> }; clientIp: string | null }, headers: Headers): boolean {
  return outboxAccess({
    smtp: ctx.app.mailer.mode === 'smtp',
    behindProxy: ctx.app.config.trustedProxies !== null,
    clientIp: ctx.clientIp,
    headers,
  }).allowed;
}
