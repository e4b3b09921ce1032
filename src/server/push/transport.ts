/**
 * Sends the HTTP requests of Web Push to the push services (SEC-06), connecting only to addresses it
 * has checked. A push endpoint's host name is resolved once per connection by {@link PushTransport}'s
 * own `lookup`: every address the name answers must pass the address rule (public unicast, see
 * addresses.ts), and the socket connects to the very address that was checked. There is no second
 * lookup a DNS rebinding could answer differently, and no redirect is followed.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isLoopbackAddress, isPublicAddress } from './addresses';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the system resolver by default; tests inject theirs). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** `getaddrinfo` through node's resolver, every address, in the resolver's order. */
export const systemResolver: Resolver = async (hostname) => (await dnsLookup(hostname, { all: true, order: 'verbatim' })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** A push service's host resolved to (or was) an address the server must not connect to. */
export class RefusedAddressError extends Error {
  readonly code = 'ERR_PUSH_ADDRESS_REFUSED';
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`push service host ${hostname} resolves to a refused address`);
    this.name = 'RefusedAddressError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node's sockets that resolves with `resolver`, refuses the connection when any of the
 * answers is not `allowed`, and else hands the socket the checked answers (all of them when node asks
 * for all, for its happy-eyeballs connect; the first of the asked family otherwise).
 */
export function checkedLookup(resolver: Resolver, allowed: (address: string) => boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolver(hostname).then(
      (answers) => {
        if (answers.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        const refused = answers.find((a) => !allowed(a.address));
        if (refused) return callback(new RefusedAddressError(hostname, refused.address), '', 0);
        const family = options.family === 4 || options.family === 6 ? options.family : null;
        const wanted = family ? answers.filter((a) => a.family === family) : answers;
        if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all)
          return callback(
            null,
            wanted.map((a) => ({ address: a.address, family: a.family })),
          );
        return callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

export interface PushRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

export interface PushTransportOptions {
  resolver?: Resolver;
  /** Which addresses may be connected to (default: public unicast only, {@link isPublicAddress}). */
  allowed?: (address: string) => boolean;
  /**
   * Test only: a URL whose host is a loopback address literal may be sent to (the tests' local push
   * service). Names are always checked with `allowed`, even when they resolve to loopback.
   */
  allowLoopbackLiterals?: boolean;
  timeoutMs: number;
}

/**
 * Sends push requests over keep-alive connections whose every address was checked. Its agents are its
 * own, so no connection made elsewhere without the check is ever reused for a push.
 */
export class PushTransport {
  private readonly http: HttpAgent;
  private readonly https: HttpsAgent;
  private readonly allowed: (address: string) => boolean;

  constructor(private readonly options: PushTransportOptions) {
    this.allowed = options.allowed ?? isPublicAddress;
    const lookup = checkedLookup(options.resolver ?? systemResolver, this.allowed);
    this.http = new HttpAgent({ keepAlive: true, lookup });
    this.https = new HttpsAgent({ keepAlive: true, lookup });
  }

  /**
   * Sends one request and answers the response's status (its body is read and dropped). Rejects with
   * {@link RefusedAddressError} before any connection when the host is, or resolves to, a refused address.
   */
  send(request: PushRequest): Promise<number> {
    const url = new URL(request.url);
    // An address literal never reaches `lookup`: check it here.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    const loopbackAllowed = this.options.allowLoopbackLiterals === true && isLoopbackAddress(literal);
    if (isIP(literal) !== 0 && !this.allowed(literal) && !loopbackAllowed) return Promise.reject(new RefusedAddressError(url.hostname, literal));
    const secure = url.protocol === 'https:';
    const headers: Record<string, string> = { ...request.headers, 'content-length': String(request.body?.byteLength ?? 0) };
    return new Promise<number>((resolve, reject) => {
      const req = (secure ? httpsRequest : httpRequest)(
        url,
        { method: request.method, headers, agent: secure ? this.https : this.http, signal: AbortSignal.timeout(this.options.timeoutMs) },
        (res: IncomingMessage) => {
          res.on('error', reject);
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.resume();
        },
      );
      req.on('error', reject);
      req.end(request.body ?? undefined);
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
